//! A bounded mutation fuzzer over every fixture: parse → check → render, and for a mutant that
//! still checks, lowering and every emitter, must never panic or hang, whatever the bytes.
//! Runs for `STITCHGEN_FUZZ_SECONDS` (default 10; `.ci/run` sets 60). Deterministic: a failure
//! reproduces from its seed.

use std::time::{Duration, Instant};

use stitchgen::diag::{ColorChoice, render_all};
use stitchgen_tests::fixtures;
use stitchgen_tests::random::Rng;

/// Tokens that stress the DSL and YAML: kinds, anchors, tags, keywords, odd scalars.
const TOKENS: &[&str] = &[
    "yes",
    "012",
    "~",
    "null",
    "true",
    "1e400",
    "-0",
    "0x1F",
    "&a",
    "*a",
    "<<: *a",
    "!!binary",
    "!tag",
    "{",
    "}",
    "[",
    "]",
    ":",
    "- ",
    "? ",
    "|",
    ">",
    "'",
    "\"",
    "\t",
    "\\u0000",
    "$ref: \"#/types/Nope\"",
    "$ref: \"#/types/Ticket\"",
    "type: object",
    "type: [string, \"null\"]",
    "properties: {}",
    "required: [x]",
    "oneOf: []",
    "not: {}",
    "path: /:id/:id",
    "path: /*",
    "method: HEAD",
    "expose: []",
    "tool: {view: {}}",
    "view: {defaults: {limit: -1}}",
    "rawResponse: true",
    "stream: {item: {}}",
    "multipart: {files: {}}",
    "present: [mcp]",
    "transports: []",
    "é",
    "\u{202e}",
    "*/",
    "\"#",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for _ in 0..1 + rng.below(4) {
        let n = lines.len().max(1);
        match rng.below(8) {
            0 if !lines.is_empty() => {
                lines.remove(rng.below(n));
            }
            1 if !lines.is_empty() => {
                let l = lines[rng.below(n)].clone();
                lines.insert(rng.below(n), l);
            }
            2 if lines.len() > 1 => {
                let (a, b) = (rng.below(n), rng.below(n));
                lines.swap(a, b);
            }
            3 if !lines.is_empty() => {
                let i = rng.below(n);
                let at = rng.below(lines[i].len() + 1);
                let at = (0..=at).rev().find(|j| lines[i].is_char_boundary(*j)).unwrap_or(0);
                lines[i].insert_str(at, TOKENS[rng.below(TOKENS.len())]);
            }
            4 if !lines.is_empty() => {
                let i = rng.below(n);
                let keep =
                    (0..=rng.below(lines[i].len() + 1)).rev().find(|j| lines[i].is_char_boundary(*j)).unwrap_or(0);
                lines[i].truncate(keep);
            }
            5 => {
                lines.insert(rng.below(n), format!("{}{}", "  ".repeat(rng.below(6)), TOKENS[rng.below(TOKENS.len())]))
            }
            6 if !lines.is_empty() => {
                let i = rng.below(n);
                lines[i] = lines[i].replacen(char::is_alphanumeric, "", 1);
            }
            _ => lines.truncate(rng.below(n + 1)),
        }
    }
    lines.join("\n")
}

#[test]
fn mutated_fixtures_never_panic() {
    let seconds: u64 = std::env::var("STITCHGEN_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut corpus: Vec<String> =
        fixtures("valid").iter().chain(&fixtures("invalid")).filter_map(|f| std::fs::read_to_string(f).ok()).collect();
    assert!(!corpus.is_empty());
    let mut rng = Rng(0x5717_c46e_0000_0001);
    let mut runs = 0u64;
    let mut emitted = 0u64;
    while Instant::now() < deadline && runs < 200_000 {
        let seed = rng.0;
        let base = &corpus[rng.below(corpus.len())];
        let text = mutate(base, &mut rng);
        let started = Instant::now();
        let result = std::panic::catch_unwind(|| {
            let checked = stitchgen::check_source("fuzz.stitch.yaml", &text);
            render_all(&checked.diagnostics, &checked.sources, ColorChoice::Never);
            // A mutant that still checks goes on through lowering and every emitter.
            (!checked.has_errors()).then(|| stitchgen::generate_checked(checked))
        });
        let Ok(generated) = result else { panic!("panic at seed {seed:#x} on input:\n{text}") };
        if let Some(generated) = generated {
            let generated = generated
                .unwrap_or_else(|e| panic!("a checked contract failed to emit at seed {seed:#x}: {e}\n{text}"));
            let names: Vec<&str> = generated.artifacts.iter().map(|a| a.name.as_str()).collect();
            assert!(
                names.contains(&"openapi.json") && !generated.snapshot.is_empty(),
                "a checked contract emitted {names:?} and a snapshot of {} bytes at seed {seed:#x}:\n{text}",
                generated.snapshot.len()
            );
            emitted += 1;
        }
        assert!(started.elapsed() < Duration::from_secs(5), "slow input at seed {seed:#x}:\n{text}");
        // Mutants of mutants reach deeper; keep the corpus bounded.
        if runs.is_multiple_of(7) && corpus.len() < 2_000 {
            corpus.push(text);
        }
        runs += 1;
    }
    eprintln!("{runs} mutated contracts checked without a panic, {emitted} of them generated");
    assert!(runs > 100, "too few runs to mean anything: {runs}");
}
