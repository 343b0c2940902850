//! Hostile input: oversized, deeply nested, alias bombs, binary. A clear error, never a panic,
//! a hang or unbounded memory.

use std::time::{Duration, Instant};

use stitchgen::diag::Code;

fn codes_of(text: &[u8]) -> Vec<Code> {
    let dir = std::env::temp_dir().join(format!("stitchgen-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.stitch.yaml", text.len()));
    std::fs::write(&path, text).unwrap();
    let checked = stitchgen::check_files(&[&path]).unwrap();
    std::fs::remove_file(&path).unwrap();
    checked.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn oversized_file_is_refused_without_reading_it_all() {
    let big = stitchgen::parse::MAX_FILE_BYTES as usize + 1;
    let mut text = b"stitch: 1\nservice: big\n# ".to_vec();
    text.resize(big, b'x');
    assert_eq!(codes_of(&text), vec![Code::FileTooLarge]);
}

#[test]
fn deep_flow_nesting_is_refused() {
    for depth in [100, 10_000, 200_000] {
        let text = format!("stitch: 1\nservice: deep\nmeta: {}{}\n", "[".repeat(depth), "]".repeat(depth));
        let start = Instant::now();
        let codes = codes_of(text.as_bytes());
        assert!(codes.contains(&Code::YamlLimit) || codes.contains(&Code::YamlSyntax), "{depth}: {codes:?}");
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}

#[test]
fn deep_block_nesting_is_refused() {
    let mut text = String::from("stitch: 1\nservice: deep\nmeta:\n");
    for i in 1..200 {
        text.push_str(&format!("{}k:\n", "  ".repeat(i)));
    }
    assert!(codes_of(text.as_bytes()).contains(&Code::YamlLimit));
}

#[test]
fn billion_laughs_is_refused_quickly() {
    let mut text =
        String::from("stitch: 1\nservice: lol\nmeta:\n  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 10].join(", ");
        text.push_str(&format!("  {}: &{} [{refs}]\n", w[1], w[1]));
    }
    let start = Instant::now();
    assert_eq!(codes_of(text.as_bytes()), vec![Code::YamlLimit]);
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
}

#[test]
fn binary_input_is_an_error() {
    let codes = codes_of(&[0xff, 0xfe, 0x00, 0x01, b'\n']);
    assert_eq!(codes, vec![Code::InvalidUtf8]);
}

#[test]
fn empty_and_scalar_documents_are_errors() {
    for text in ["", "~", "42", "- a\n- b\n", "just text"] {
        let codes = codes_of(text.as_bytes());
        assert!(!codes.is_empty(), "{text:?}");
    }
}

/// Types that each reference the previous one twice: inlined in full, the last one would hold
/// 2^30 copies of the first. A type past `INLINE_NODES` stays once in `$defs` instead.
#[test]
fn doubling_references_stay_bounded() {
    let mut text = String::from(
        "stitch: 1\nservice: chain\ntypes:\n  T0: { type: object, properties: { v: { type: string } } }\n",
    );
    for i in 1..30 {
        let prev = i - 1;
        text.push_str(&format!(
            "  T{i}:\n    type: object\n    properties:\n      a: {{ $ref: \"#/types/T{prev}\" }}\n      b: {{ $ref: \"#/types/T{prev}\" }}\n"
        ));
    }
    text.push_str("endpoints:\n  get:\n    method: GET\n    path: /\n    desc: The last link.\n    output: { $ref: \"#/types/T29\" }\n");
    let start = Instant::now();
    let checked = stitchgen::check_source("chain.stitch.yaml", &text);
    assert!(!checked.has_errors(), "{:?}", checked.diagnostics);
    let generated = stitchgen::generate_checked(checked).unwrap();
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
    for a in &generated.artifacts {
        assert!(a.bytes.len() < 1_000_000, "{} is {} bytes", a.name, a.bytes.len());
    }
    let mcp = generated.artifacts.iter().find(|a| a.name == "mcp-tools.json").unwrap();
    let mcp: serde_json::Value = serde_json::from_slice(&mcp.bytes).unwrap();
    let defs = &mcp["tools"][0]["outputSchema"]["$defs"];
    assert!(defs.as_object().is_some_and(|d| !d.is_empty()), "the large types stay in $defs: {defs}");
}

/// N types, each linking the next by an "expandable" field, one GET per type: every answer
/// reaches every type (`bench/ring.py` writes the same shape for the benchmark).
fn ring(n: usize) -> String {
    let mut text = String::from("stitch: 1\nservice: ring\ntypes:\n");
    for i in 0..n {
        let next = (i + 1) % n;
        text.push_str(&format!(
            "  R{i}:\n    type: object\n    description: Resource {i}, linking resource {next}.\n    required: [id]\n    properties:\n      id: {{ type: string }}\n      next: {{ anyOf: [{{ type: string }}, {{ $ref: \"#/types/R{next}\" }}] }}\n"
        ));
    }
    text.push_str("endpoints:\n");
    for i in 0..n {
        text.push_str(&format!("  get{i}:\n    method: GET\n    path: /r{i}\n    desc: Get resource {i}.\n    output: {{ $ref: \"#/types/R{i}\" }}\n"));
    }
    text
}

#[test]
fn a_ring_of_types_generates_and_every_artifact_grows_linearly() {
    // 200 types once overflowed the stack of generate's worker thread. Past the budget, a tool
    // costs the same whatever it reaches.
    let sizes: Vec<Vec<(String, usize)>> = [100, 400]
        .iter()
        .map(|&n| {
            let checked = stitchgen::check_source("ring.stitch.yaml", &ring(n));
            assert!(!checked.has_errors(), "{:?}", checked.diagnostics);
            let generated = stitchgen::generate_checked(checked).unwrap();
            let mut sizes: Vec<(String, usize)> =
                generated.artifacts.iter().map(|a| (a.name.clone(), a.bytes.len())).collect();
            sizes.push(("snapshot".into(), generated.snapshot.len()));
            sizes
        })
        .collect();
    for ((name, small), (_, large)) in sizes[0].iter().zip(&sizes[1]) {
        // Four times the types: at most 4.5 times the bytes.
        assert!(*large * 2 <= *small * 9, "{name}: {small} bytes for 100 types, {large} for 400");
    }
}
