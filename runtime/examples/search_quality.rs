//! Search mode's quality and speed over real catalogs (`bench/search.sh` runs it):
//!
//! ```text
//! cargo run --release -p stitchgen-runtime --example search_quality -- NAME=CATALOG.json...
//! ```
//!
//! For every tool of each catalog (`mcp-catalog.json`, or any `{"tools": [...]}` manifest), the
//! first sentence of its own description is the query, and the tool's rank among the answers
//! gives the mean reciprocal rank (a tool not in the first 25 counts 0; a tool without a
//! description has no query and is counted apart). Then the first 1,000 tools of all catalogs
//! together are indexed and every one of their queries is timed. Prints Markdown.

use std::time::{Duration, Instant};

use serde_json::Value;
use stitchgen_runtime::search::{Index, MAX_LIMIT, first_sentence};

fn main() {
    let mut all: Vec<Value> = Vec::new();
    println!("| catalog | tools | queries | MRR | first | in top 5 |");
    println!("|---|---:|---:|---:|---:|---:|");
    let (mut sum, mut queries) = (0.0, 0usize);
    for arg in std::env::args().skip(1) {
        let (name, path) = arg.split_once('=').unwrap_or((&arg, &arg));
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let tools = doc["tools"].as_array().cloned().unwrap_or_default();
        let index = Index::of_definitions(&tools);
        let ranks = ranks(&index, &tools);
        let asked = ranks.len();
        let rr: f64 = ranks.iter().map(|r| r.map_or(0.0, |r| 1.0 / r as f64)).sum();
        let first = ranks.iter().filter(|r| **r == Some(1)).count();
        let top5 = ranks.iter().filter(|r| r.is_some_and(|r| r <= 5)).count();
        println!("| {name} | {} | {asked} | {:.3} | {first} | {top5} |", tools.len(), rr / asked.max(1) as f64);
        (sum, queries) = (sum + rr, queries + asked);
        all.extend(tools);
    }
    println!("| all | {} | {queries} | {:.3} | | |", all.len(), sum / queries.max(1) as f64);
    all.truncate(1000);
    let index = Index::of_definitions(&all);
    let asked: Vec<String> =
        all.iter().map(|t| first_sentence(t["description"].as_str().unwrap_or_default())).collect();
    let mut times: Vec<Duration> = Vec::new();
    for query in asked.iter().filter(|q| !q.is_empty()) {
        let start = Instant::now();
        std::hint::black_box(index.search(query, 8));
        times.push(start.elapsed());
    }
    times.sort();
    let at = |q: f64| times.get(((times.len() as f64 - 1.0) * q) as usize).copied().unwrap_or_default();
    println!(
        "\nSearch latency over {} tools, {} queries: median {:.1} µs, p99 {:.1} µs, max {:.1} µs",
        all.len(),
        times.len(),
        at(0.5).as_secs_f64() * 1e6,
        at(0.99).as_secs_f64() * 1e6,
        at(1.0).as_secs_f64() * 1e6
    );
}

/// The rank of each tool that has a description, its first sentence asked (`None`: not found
/// in the first [`MAX_LIMIT`]).
fn ranks(index: &Index, tools: &[Value]) -> Vec<Option<usize>> {
    let mut out = Vec::new();
    for tool in tools {
        let query = first_sentence(tool["description"].as_str().unwrap_or_default());
        if query.is_empty() {
            continue;
        }
        let name = tool["name"].as_str().unwrap_or_default();
        let hits = index.search(&query, MAX_LIMIT as usize);
        out.push(hits.iter().position(|h| h.name == name).map(|p| p + 1));
    }
    out
}
