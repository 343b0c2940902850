//! The lexical index of search mode: BM25 over each tool's name, title, description and
//! parameter names. Built once by the generator and shipped in the catalog; here it is only
//! read and scored, so a query costs a few postings lists and no model or network.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// BM25's length normalization.
const B: f64 = 0.75;
/// How much more a word of the tool's name weighs than a word of its description: the name is
/// what a model and a maintainer chose to call the operation.
const NAME_WEIGHT: u32 = 3;
/// The same for the title.
const TITLE_WEIGHT: u32 = 2;
/// Words too common in API descriptions to tell tools apart.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "for", "from", "if", "in", "into", "is", "it", "its", "of",
    "on", "or", "that", "the", "this", "to", "will", "with", "you", "your",
];

/// What the index reads of one tool.
#[derive(Clone, Copy, Debug)]
pub struct Document<'a> {
    /// The tool name.
    pub name: &'a str,
    /// Its title, when it has one.
    pub title: Option<&'a str>,
    /// Its description.
    pub description: &'a str,
    /// The names of its arguments (the top-level properties of its input schema).
    pub parameters: &'a [&'a str],
}

/// One tool as a search answer names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Indexed {
    /// The tool name.
    pub name: String,
    /// One line that says what it does: the first sentence of its description.
    pub line: String,
    /// Its weighted length in words, for BM25's normalization.
    pub length: u32,
}

/// The index: each tool's line and length, and per word the tools it occurs in with its
/// weighted count. Serialized into the catalog; sorted maps, so the same tools give the same
/// bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Index {
    /// The tools, in catalog order.
    pub tools: Vec<Indexed>,
    /// Word → `[tool, weighted count]`, tools ascending.
    pub terms: BTreeMap<String, Vec<[u32; 2]>>,
}

/// A tool a query found.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit<'a> {
    /// The tool name.
    pub name: &'a str,
    /// Its one line.
    pub line: &'a str,
    /// Its BM25 score (higher is better).
    pub score: f64,
}

impl Index {
    /// The index of `docs`, in their order.
    pub fn build(docs: &[Document<'_>]) -> Index {
        let mut index = Index::default();
        for (i, doc) in docs.iter().enumerate() {
            let mut counts: BTreeMap<String, u32> = BTreeMap::new();
            let mut add = |text: &str, weight: u32| {
                for word in tokens(text) {
                    *counts.entry(word).or_default() += weight;
                }
            };
            add(doc.name, NAME_WEIGHT);
            if let Some(title) = doc.title {
                add(title, TITLE_WEIGHT);
            }
            add(doc.description, 1);
            for p in doc.parameters {
                add(p, 1);
            }
            let length = counts.values().sum();
            for (word, count) in counts {
                index.terms.entry(word).or_default().push([i as u32, count]);
            }
            let line = first_sentence(doc.description);
            let line = if line.is_empty() { doc.title.map(first_sentence).unwrap_or_default() } else { line };
            index.tools.push(Indexed { name: doc.name.to_owned(), line, length });
        }
        index
    }

    /// The index of tool definitions as a manifest lists them: name, title, description and
    /// the properties of the MCP `inputSchema` or the function tool's `parameters`.
    pub fn of_definitions(definitions: &[serde_json::Value]) -> Index {
        let text =
            |d: &'_ serde_json::Value, key: &str| d.get(key).and_then(serde_json::Value::as_str).map(str::to_owned);
        let parameters: Vec<Vec<&str>> = definitions
            .iter()
            .map(|d| {
                let input = d.get("inputSchema").or_else(|| d.get("parameters"));
                let properties = input.and_then(|s| s.get("properties")).and_then(serde_json::Value::as_object);
                properties.map_or(Vec::new(), |p| p.keys().map(String::as_str).collect())
            })
            .collect();
        let texts: Vec<(String, Option<String>, String)> = definitions
            .iter()
            .map(|d| {
                (text(d, "name").unwrap_or_default(), text(d, "title"), text(d, "description").unwrap_or_default())
            })
            .collect();
        let docs: Vec<Document<'_>> = texts
            .iter()
            .zip(&parameters)
            .map(|((name, title, description), parameters)| Document {
                name,
                title: title.as_deref(),
                description,
                parameters,
            })
            .collect();
        Index::build(&docs)
    }

    /// The `limit` best tools for `query`, best first; ties by name. A query with no word
    /// the index knows finds nothing.
    pub fn search(&self, query: &str, limit: usize) -> Vec<Hit<'_>> {
        let n = self.tools.len() as f64;
        let average = self.tools.iter().map(|t| f64::from(t.length)).sum::<f64>() / n.max(1.0);
        let mut scores = vec![0.0_f64; self.tools.len()];
        let mut words = tokens(query);
        words.sort();
        words.dedup();
        for word in &words {
            let Some(postings) = self.terms.get(word) else { continue };
            let df = postings.len() as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &[tool, count] in postings {
                let Some(t) = self.tools.get(tool as usize) else { continue };
                let tf = f64::from(count);
                let norm = K1 * (1.0 - B + B * f64::from(t.length) / average.max(1.0));
                scores[tool as usize] += idf * tf * (K1 + 1.0) / (tf + norm);
            }
        }
        let mut hits: Vec<Hit<'_>> = scores
            .iter()
            .enumerate()
            .filter(|(_, s)| **s > 0.0)
            .map(|(i, &score)| Hit { name: &self.tools[i].name, line: &self.tools[i].line, score })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.name.cmp(b.name)));
        hits.truncate(limit);
        hits
    }
}

/// The words of `text` as the index counts them: split at every non-alphanumeric character
/// and at camelCase humps (`listDropletActions` → list, droplet, action), lowercased, common
/// English words dropped, plurals folded (`droplets` → droplet, `policies` → policy).
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            push(&mut out, &mut word);
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let hump = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase() || p.is_numeric() || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if hump {
            push(&mut out, &mut word);
        }
        word.extend(c.to_lowercase());
    }
    push(&mut out, &mut word);
    out
}

fn push(out: &mut Vec<String>, word: &mut String) {
    let w = std::mem::take(word);
    if w.is_empty() || STOP_WORDS.contains(&w.as_str()) {
        return;
    }
    out.push(singular(w));
}

/// The S-stemmer (Harman, 1991): plurals folded, nothing else touched.
fn singular(w: String) -> String {
    if w.len() <= 3 || w.chars().any(|c| c.is_numeric()) {
        return w;
    }
    if let Some(stem) = w.strip_suffix("ies")
        && !stem.ends_with('e')
        && !stem.ends_with('a')
    {
        return format!("{stem}y");
    }
    if w.ends_with("es") && !["aes", "ees", "oes"].iter().any(|s| w.ends_with(s)) {
        return w[..w.len() - 1].to_owned();
    }
    if w.ends_with('s') && !w.ends_with("us") && !w.ends_with("ss") {
        return w[..w.len() - 1].to_owned();
    }
    w
}

/// The first sentence of `text`, on one line, at most 160 characters: what a search answer
/// says of a tool.
pub fn first_sentence(text: &str) -> String {
    const MAX: usize = 160;
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = flat
        .char_indices()
        .find(|&(i, c)| matches!(c, '.' | '!' | '?') && flat[i + c.len_utf8()..].starts_with(' '))
        .map_or(flat.len(), |(i, c)| i + c.len_utf8());
    let sentence = &flat[..end];
    if sentence.chars().count() <= MAX {
        return sentence.to_owned();
    }
    let cut: String = sentence.chars().take(MAX - 1).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_at_humps_and_fold_plurals() {
        assert_eq!(tokens("listDropletActions"), ["list", "droplet", "action"]);
        assert_eq!(tokens("HTTPServer v2_policies"), ["http", "server", "v2", "policy"]);
        assert_eq!(tokens("Create a new Droplet."), ["create", "new", "droplet"]);
        assert_eq!(tokens("status address"), ["status", "address"]);
    }

    #[test]
    fn the_first_sentence_is_one_line() {
        assert_eq!(first_sentence("Create a droplet.\nSend a POST."), "Create a droplet.");
        assert_eq!(first_sentence("v1.2 of the list"), "v1.2 of the list");
        assert_eq!(first_sentence(&"x".repeat(300)).chars().count(), 160);
    }

    #[test]
    fn the_named_tool_ranks_first_and_unknown_words_find_nothing() {
        let docs = [
            Document {
                name: "droplets_create",
                title: None,
                description: "Create a new Droplet.",
                parameters: &["name", "size"],
            },
            Document { name: "droplets_list", title: None, description: "List all Droplets.", parameters: &["page"] },
            Document {
                name: "volumes_create",
                title: None,
                description: "Create a block storage volume.",
                parameters: &["size_gigabytes"],
            },
        ];
        let index = Index::build(&docs);
        let hits = index.search("create a droplet", 5);
        assert_eq!(
            hits.iter().map(|h| h.name).collect::<Vec<_>>(),
            ["droplets_create", "droplets_list", "volumes_create"]
        );
        assert_eq!(hits[0].line, "Create a new Droplet.");
        assert!(index.search("kubernetes", 5).is_empty());
        assert_eq!(index.search("create", 1).len(), 1);
        let again = serde_json::to_string(&Index::build(&docs)).unwrap();
        assert_eq!(serde_json::to_string(&index).unwrap(), again, "the same tools give the same bytes");
    }
}
