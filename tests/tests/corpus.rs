//! The public OpenAPI corpus beside the clone (`../shared/corpus`, or `$STITCHGEN_CORPUS_DIR`;
//! tests/corpus/README.md lists its documents and where each comes from). Not part of the
//! repository, so the test is ignored unless asked for (CI asks):
//! every description imports, as written and with `--expose`, into a contract `check` accepts,
//! and the exposed contract generates every artifact without a panic message on stderr. With
//! `--expose`, each document gives the number of tools written below, the MCP manifest lists
//! exactly those, and together they are at least 95 % of the operations whose request and answer
//! are JSON or absent.
//! Nobody here wrote these documents; they are what stitchgen meets when a team adopts it.

mod read_fields;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use stitchgen::Profile;
use stitchgen::diag::{self, ColorChoice};
use stitchgen::import::{ImportOptions, MAX_IMPORTED_TOOL_NAME, import};
use stitchgen::parse::ast::Surface;
use stitchgen_tests::shared_dir;

/// The corpus folder. Its absence fails the test: a skipped corpus must not read as a pass.
fn corpus_dir() -> PathBuf {
    let dir =
        std::env::var_os("STITCHGEN_CORPUS_DIR").map(PathBuf::from).unwrap_or_else(|| shared_dir().join("corpus"));
    assert!(
        dir.join("README.md").is_file(),
        "the OpenAPI corpus is not at {}: lay it out beside the clone or set STITCHGEN_CORPUS_DIR",
        dir.display()
    );
    dir
}

/// Unpacks every corpus document into `into`; returns (name, entry document) pairs.
fn unpack(corpus: &Path, into: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(corpus).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    for path in names {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let reader = || flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap());
        if let Some(stem) = file.strip_suffix(".tree.tar.gz") {
            let dir = into.join(stem);
            tar::Archive::new(reader()).unpack(&dir).unwrap();
            let entry = find_entry(&dir).unwrap_or_else(|| panic!("{file}: no entry document"));
            out.push((stem.to_owned(), entry));
        } else if let Some(name) = file.strip_suffix(".gz") {
            let target = into.join(name);
            std::io::copy(&mut reader(), &mut std::fs::File::create(&target).unwrap()).unwrap();
            out.push((name.to_owned(), target));
        }
    }
    out
}

/// The entry of a multi-file description: the one top-level document of its `specification/`
/// folder that says `openapi:`.
fn find_entry(dir: &Path) -> Option<PathBuf> {
    let spec = walk(dir).into_iter().find(|p| p.ends_with("specification"))?;
    let mut docs: Vec<PathBuf> = std::fs::read_dir(&spec).ok()?.map(|e| e.unwrap().path()).collect();
    docs.sort();
    docs.into_iter()
        .find(|p| p.is_file() && std::fs::read_to_string(p).is_ok_and(|t| t.lines().any(|l| l.starts_with("openapi:"))))
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    for e in std::fs::read_dir(dir).into_iter().flatten() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
    }
    out
}

/// Panics whose message would reach stderr: counted by a hook installed before stitchgen's own,
/// which silences only the typify panics it catches and turns into diagnostics.
static LOUD_PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_loud_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        LOUD_PANICS.fetch_add(1, Ordering::SeqCst);
        previous(info);
    }));
}

/// The tools `import --expose` writes for each corpus document (by its first word), measured
/// 2026-12-03. Every other operation stays HTTP-only with its reason in the import summary:
/// raw or streamed answers, uploads, and request bodies that are not objects. DigitalOcean's
/// four DELETEs with a body that is not an object (removing droplets and tags from a firewall or
/// load balancer) were tools while their bodies were dropped, and are HTTP-only as their POSTs
/// since the body is read (2026-12-06). Discord's three uploads whose file is written
/// `contentEncoding: binary` and Together's two whose file may be a URL instead were tools
/// sending no body (their forms not read) and are uploads since 2026-12-06.
const TOOLS: &[(&str, usize)] = &[
    ("box", 260),
    ("digitalocean", 642),
    ("discord", 231),
    ("hetzner", 221),
    ("kubernetes", 200),
    ("mastodon", 198),
    ("ollama", 12),
    ("petstore", 4),
    ("together", 92),
    ("twilio", 197),
];

/// Query fields the runtime reads as `openapi.json` lists them (of GET, HEAD and DELETE input,
/// and parameters placed in the query beside a body), over the whole corpus (with `--expose`).
/// A field listed as a union (Discord's four value-or-list ids, read as strings before
/// 2026-12-06) names no one type to agree on: it is held to its name and round trip only.
static QUERY_FIELDS: AtomicUsize = AtomicUsize::new(0);
const QUERY_FIELDS_AGREED: usize = 3221;

/// The request-side lowerings `import` still makes (W0900), by what each message says: parts of a
/// request a real API accepts that the contract does not send or read as described.
const REQUEST_LOWERINGS: [(&str, &str); 8] = [
    ("query-beside-body", "beside a request body is not read"),
    ("header-cookie", "is not read: the contract declares path"),
    ("placed-refused", "parameter `"),
    ("optional-body", "an optional request body whose schema requires a field"),
    ("form-body", "`application/x-www-form-urlencoded` request body is not read"),
    ("get-delete-body", "a request body on "),
    ("object-query", "a query parameter that is not a scalar or a list of scalars"),
    ("segment-text", "a parameter takes its whole segment"),
];

/// [`REQUEST_LOWERINGS`] counted per document (by its first word), in that order, measured
/// 2026-12-06 with `--expose`. Query parameters beside a body and header and cookie parameters
/// are read now (`paramsIn`), form bodies and bodies on GET and DELETE (`inputContentType`) and
/// parameters with text around them in their segment: their columns are zero; a query value
/// that is a value or a list (Discord's ids) is read as written, a `deepObject` as its pairs,
/// a list of objects (Box's `mdfilters`) as one JSON text (`style: json`, warned: a reading of
/// what OpenAPI leaves undefined, the value typed and validated, not a string),
/// and every optional body is `inputOptional` (the handler's `None` when absent), whatever its
/// input requires (141 were read as required before 2026-12-06). `placed-refused`: headers a contract may
/// not place (DigitalOcean's `Accept` and `Content-Type`, which OpenAPI says to ignore, are
/// ignored without a warning since 2026-12-06). The other columns are what is left to read.
const REQUEST_LOWERED: &[(&str, [usize; 8])] = &[
    ("box", [0, 0, 0, 0, 0, 0, 0, 0]),
    ("digitalocean", [0, 0, 0, 0, 0, 0, 0, 0]),
    ("discord", [0, 0, 0, 0, 0, 0, 0, 0]),
    ("hetzner", [0, 0, 0, 0, 0, 0, 0, 0]),
    ("kubernetes", [0, 0, 0, 0, 0, 0, 0, 0]),
    ("mastodon", [0, 0, 0, 0, 0, 0, 0, 0]),
    ("ollama", [0, 0, 0, 0, 0, 0, 0, 0]),
    ("petstore", [0, 0, 0, 0, 0, 0, 0, 0]),
    ("together", [0, 0, 0, 0, 0, 0, 0, 0]),
    ("twilio", [0, 0, 0, 0, 0, 0, 0, 0]),
];

/// How many of `imported`'s warnings fall in each of [`REQUEST_LOWERINGS`].
fn request_lowerings(imported: &stitchgen::import::Imported) -> [usize; 8] {
    let mut counts = [0; 8];
    for d in imported.diagnostics.iter().filter(|d| d.code == diag::Code::ImportLowered) {
        let placed = d.message.contains(" parameter `") && d.message.contains("` is not read: ");
        for (i, (what, says)) in REQUEST_LOWERINGS.iter().enumerate() {
            let hit = match *what {
                "placed-refused" => placed && !d.message.contains("the contract declares path"),
                "object-query" => d.message.contains(says) || d.message.starts_with("a deepObject query parameter"),
                _ => d.message.contains(says),
            };
            counts[i] += usize::from(hit);
        }
    }
    counts
}

/// The answer-side lowerings `import` still makes (W0900), by what each message says: parts of an
/// answer the API documents that the contract does not declare as documented.
const ANSWER_LOWERINGS: [(&str, &str); 4] = [
    ("read-write-only", "`readOnly`|`writeOnly`"),
    ("error-status", "has no error code in the registry"),
    ("several-successes", "several success responses|answer is not read"),
    ("discriminator", "`discriminator`"),
];

/// [`ANSWER_LOWERINGS`] counted per document (by its first word), in that order, measured
/// 2026-12-06 with `--expose`. `readOnly` and `writeOnly` are read since 2026-12-06 (each side
/// leaves out what the other carries): their column counts only a mark that is not a boolean.
/// Every documented error response is kept since 2026-12-06 (`http.errors`; 673 were dropped
/// before, Mastodon's 630 among them). Every documented success is kept since 2026-12-06
/// (`http.successes`; 113 operations kept only the lowest before, Kubernetes' 87 among them),
/// the column counting a success left unread (beside a stream) or its non-JSON body. A
/// discriminator whose unnamed branches each pin the property to values of their own loses
/// nothing and is not counted since 2026-12-06 (Together's 4), nor is one on a schema that
/// others only extend (`allOf`), where it chooses nothing (DigitalOcean's 3).
const ANSWER_LOWERED: &[(&str, [usize; 4])] = &[
    ("box", [0, 0, 0, 0]),
    ("digitalocean", [0, 0, 0, 0]),
    ("discord", [0, 0, 0, 0]),
    ("hetzner", [0, 0, 0, 0]),
    ("kubernetes", [0, 0, 0, 0]),
    ("mastodon", [0, 0, 0, 0]),
    ("ollama", [0, 0, 0, 0]),
    ("petstore", [0, 0, 0, 0]),
    ("together", [0, 0, 0, 0]),
    ("twilio", [0, 0, 0, 0]),
];

/// How many of `imported`'s warnings fall in each of [`ANSWER_LOWERINGS`].
fn answer_lowerings(imported: &stitchgen::import::Imported) -> [usize; 4] {
    let mut counts = [0; 4];
    for d in imported.diagnostics.iter().filter(|d| d.code == diag::Code::ImportLowered) {
        for (i, (_, says)) in ANSWER_LOWERINGS.iter().enumerate() {
            counts[i] += usize::from(says.split('|').any(|s| d.message.contains(s)));
        }
    }
    counts
}

/// Schemas whose `format: uri` (or `iri`) the document's own examples break as relative
/// references, read as `uri-reference` since 2026-12-06 (W0900): Twilio's page links and
/// resource `uri`s, Mastodon's empty preview-card links. Kept as `uri`, the runner refused every
/// answer like the examples (Prism's answers, and the APIs' own).
const RELATIVE_URI_FORMATS: &[(&str, usize)] = &[
    ("box", 0),
    ("digitalocean", 0),
    ("discord", 0),
    ("hetzner", 0),
    ("kubernetes", 0),
    ("mastodon", 6),
    ("ollama", 0),
    ("petstore", 0),
    ("together", 0),
    ("twilio", 149),
];

/// `oneOf` unions whose branches nothing tells apart (open objects, every value of one branch
/// matching another), read as `anyOf` since 2026-12-07 (W0900): Mastodon's quotes (`Quote` and
/// `ShallowQuote` each require only `state`), Together's transcriptions and translations (every
/// verbose one matches the plain one), scheduler arguments, evaluation parameters and results.
/// As written, the runner refused every value of those branches, the APIs' real answers too.
const ONE_OF_AS_ANY_OF: &[(&str, usize)] = &[
    ("box", 0),
    ("digitalocean", 0),
    ("discord", 0),
    ("hetzner", 0),
    ("kubernetes", 0),
    ("mastodon", 2),
    ("ollama", 0),
    ("petstore", 0),
    ("together", 6),
    ("twilio", 0),
];

/// Documents whose MCP tool list, built in memory for `stitchgen gateway`, is `generate`'s byte
/// for byte (every one imported with `--expose`).
static SERVED_IN_MEMORY: AtomicUsize = AtomicUsize::new(0);

/// The share of JSON operations that must be tools, over the whole corpus.
const MIN_TOOL_SHARE: f64 = 0.95;

/// (operations whose request and answer are JSON or absent, of them on MCP) in a contract.
fn json_operations(checked: &stitchgen::Checked) -> (usize, usize) {
    let endpoints = checked.contracts.iter().flat_map(|c| c.endpoints.iter().flat_map(|e| e.value.0.iter()));
    let json = endpoints
        .map(|(_, e)| e)
        .filter(|e| e.raw_response.as_ref().is_none_or(|r| !r.value) && e.stream.is_none() && e.multipart.is_none());
    json.fold((0, 0), |(all, tools), e| {
        let on_mcp = e.expose.as_ref().is_some_and(|l| l.value.iter().any(|s| s.value == Surface::Mcp));
        (all + 1, tools + usize::from(on_mcp))
    })
}

/// Generates a checked contract; a failure or an error diagnostic is described. Returns the
/// tools of its MCP manifest.
fn generate(name: &str, checked: stitchgen::Checked) -> Result<Vec<serde_json::Value>, String> {
    let memory = stitchgen::memory::in_memory(&checked).map_err(|e| format!("{name}: not served in memory: {e}"))?;
    let generated = stitchgen::generate_checked(checked).map_err(|e| format!("{name}: generate failed: {e}"))?;
    if generated.artifacts.is_empty() {
        let c = &generated.checked;
        return Err(format!(
            "{name}: generated nothing:\n{}",
            diag::render_all(&c.diagnostics, &c.sources, ColorChoice::Never)
        ));
    }
    let artifact = |file: &str| -> Result<serde_json::Value, String> {
        let a = generated.artifacts.iter().find(|a| a.name == file).ok_or(format!("{name}: no {file}"))?;
        serde_json::from_slice(&a.bytes).map_err(|e| format!("{name}: {e}"))
    };
    // What the runtime reads from each query is what openapi.json lists.
    let openapi = artifact("openapi.json")?;
    let module = generated.artifacts.iter().find(|a| a.name.ends_with(".rs")).ok_or(format!("{name}: no module"))?;
    let rust = String::from_utf8_lossy(&module.bytes);
    let agreed = read_fields::query_fields_match(&rust, &openapi).map_err(|e| format!("{name}: {e}"))?;
    println!("{name}: {agreed} query fields read as openapi.json lists them");
    QUERY_FIELDS.fetch_add(agreed, Ordering::SeqCst);
    let manifest = artifact("mcp-tools.json")?;
    let written = generated.artifacts.iter().find(|a| a.name == "mcp-tools.json").map(|a| a.bytes.as_slice());
    if written != Some(memory.mcp_tools.as_bytes()) {
        return Err(format!("{name}: the tool list served in memory is not mcp-tools.json"));
    }
    SERVED_IN_MEMORY.fetch_add(1, Ordering::SeqCst);
    profiles(name, &artifact("agent-tools.json")?, &manifest)?;
    Ok(manifest["tools"].as_array().cloned().unwrap_or_default())
}

/// Every profile of `agent` or `mcp` (a document's manifests, as each profile rewrites one): no
/// tool refused by any profile's rules and none lost, and the tools each MCP profile renames
/// counted against [`RENAMED`].
fn profiles(name: &str, agent: &serde_json::Value, mcp: &serde_json::Value) -> Result<(), String> {
    let mut refused = [0usize; Profile::ALL.len()];
    let mut renamed = Vec::new();
    for (i, profile) in Profile::ALL.into_iter().enumerate() {
        let canonical = if profile.is_mcp() { mcp } else { agent };
        let tools = canonical["tools"].as_array().map_or(0, Vec::len);
        let (rewritten, violations) = stitchgen::profile::manifest(profile, canonical);
        let listed = rewritten["tools"].as_array().cloned().unwrap_or_default();
        if listed.len() != tools {
            return Err(format!("{name}: `{}` lost a tool", profile.name()));
        }
        let mut names: Vec<&str> = violations.iter().map(|(tool, _)| tool.as_str()).collect();
        names.dedup();
        refused[i] = names.len();
        for (tool, v) in violations.iter().take(2) {
            println!("{name}: {} refuses {tool}: {} at {}", profile.name(), v.rule, v.at);
        }
        if profile.is_mcp() {
            renamed.push(listed.iter().filter(|t| t.pointer("/_meta/stitchgen~1name").is_some()).count());
        }
    }
    println!("{name}: refused by profile: {refused:?}; MCP tools renamed by cursor, vscode, claude-code: {renamed:?}");
    if refused.iter().any(|n| *n != 0) {
        return Err(format!("{name}: profiles refuse {refused:?} tools (in the order of Profile::ALL)"));
    }
    let want = RENAMED.iter().find(|(doc, _)| name.starts_with(doc)).map(|(_, n)| n.to_vec());
    if want != Some(renamed.clone()) {
        return Err(format!("{name}: {renamed:?} tools renamed by the MCP profiles, {want:?} expected"));
    }
    Ok(())
}

/// The MCP tools whose names Cursor, VS Code and Claude Code cannot take, per document (by its
/// first word): each listed under a name rewritten by `shorten-names`, measured 2026-12-06.
const RENAMED: &[(&str, [usize; 3])] = &[
    ("box", [20, 24, 30]),
    ("digitalocean", [30, 42, 48]),
    ("discord", [2, 3, 5]),
    ("hetzner", [2, 2, 3]),
    ("kubernetes", [37, 57, 65]),
    ("mastodon", [1, 2, 2]),
    ("ollama", [0, 0, 0]),
    ("petstore", [0, 0, 0]),
    ("together", [0, 0, 0]),
    ("twilio", [12, 18, 20]),
];

/// Every tool name of `listed` fits [`MAX_IMPORTED_TOOL_NAME`] (room for a client's server
/// prefix) and is unique.
fn names_fit(doc: &str, listed: &[serde_json::Value]) -> Result<(), String> {
    let names: Vec<&str> = listed.iter().filter_map(|t| t["name"].as_str()).collect();
    let unique: std::collections::BTreeSet<&str> = names.iter().copied().collect();
    let longest = names.iter().copied().max_by_key(|n| n.len()).unwrap_or_default();
    println!("{doc}: longest tool name {longest:?} ({} characters)", longest.len());
    if names.len() != listed.len() || unique.len() != names.len() {
        return Err(format!("{doc}: {} tools, {} distinct names", listed.len(), unique.len()));
    }
    match names.iter().find(|n| n.len() > MAX_IMPORTED_TOOL_NAME) {
        Some(long) => Err(format!("{doc}: tool name {long:?} is longer than {MAX_IMPORTED_TOOL_NAME}")),
        None => Ok(()),
    }
}

#[test]
#[ignore = "reads the public OpenAPI corpus laid out beside the clone (tests/corpus/README.md): \
            cargo test --workspace --test corpus -- --ignored"]
fn every_corpus_document_imports_into_a_contract_that_checks() {
    count_loud_panics();
    let corpus = corpus_dir();
    let scratch = std::env::temp_dir().join(format!("stitchgen-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let docs = unpack(&corpus, &scratch);
    assert_eq!(docs.len(), 10, "the corpus README lists ten documents");
    let mut failures = Vec::new();
    // A JSON description is read in one pass, into the tree the YAML parser makes of it: node
    // for node, span for span.
    let json: Vec<_> = docs.iter().filter(|(_, entry)| entry.extension().is_some_and(|x| x == "json")).collect();
    for (name, entry) in &json {
        if !stitchgen::parse::json_reads_as_yaml(&std::fs::read_to_string(entry).unwrap()) {
            failures.push(format!("{name}: the JSON reader's tree is not the YAML parser's"));
        }
    }
    assert_eq!(json.len(), 7, "JSON documents in the corpus");
    // A plain YAML description or contract is read from the parser's events, into the tree
    // serde-saphyr makes of it; the others are left to serde-saphyr.
    let mut from_events = Vec::new();
    let mut events_read = |name: &str, text: &str| match stitchgen::parse::events_read_as_yaml(text) {
        Some(true) => from_events.push(name.to_owned()),
        Some(false) => from_events.push(format!("{name}: the tree read from the events is not serde-saphyr's")),
        None => {}
    };
    for (name, entry) in docs.iter().filter(|(_, entry)| entry.extension().is_none_or(|x| x != "json")) {
        events_read(name, &std::fs::read_to_string(entry).unwrap());
    }
    let (mut json_ops, mut json_tools) = (0, 0);
    for (name, entry) in &docs {
        for expose in [false, true] {
            let imported = import(entry, &ImportOptions { expose, ..ImportOptions::default() }).unwrap();
            let Some(contract) = &imported.contract else {
                let text = diag::render_all_for(&imported.diagnostics, &imported.sources, ColorChoice::Never, "import");
                failures.push(format!("{name}: not imported:\n{text}"));
                continue;
            };
            assert!(imported.summary.imported > 0, "{name}: no operation imported");
            if name.starts_with("petstore") && !expose {
                // The smallest real description, reviewed whole: what an adopter first sees.
                insta::with_settings!({ snapshot_path => "snapshots/import", prepend_module_to_snapshot => false, omit_expression => true }, {
                    insta::assert_snapshot!("corpus-petstore", format!("{contract}\n--- summary ---\n{}", imported.summary));
                });
            }
            events_read(name, contract);
            let checked = stitchgen::check_source(&format!("{name}.stitch.yaml"), contract);
            if checked.has_errors() {
                let errors: Vec<_> =
                    checked.diagnostics.into_iter().filter(|d| d.severity() == diag::Severity::Error).take(5).collect();
                let text = diag::render_all(&errors, &checked.sources, ColorChoice::Never);
                failures.push(format!("{name} (expose: {expose}): the contract does not pass check:\n{text}"));
            } else if expose {
                let (ops, tools) = json_operations(&checked);
                (json_ops, json_tools) = (json_ops + ops, json_tools + tools);
                // A real API diffed against itself: every rule runs over it, none may fire.
                let side = [(format!("{name}.stitch.yaml"), contract.as_bytes().to_vec())];
                let same = stitchgen::diff(&side, &side, &stitchgen::Options::default());
                if !same.changes.is_empty() {
                    failures.push(format!(
                        "{name}: diffed against itself: {:?}",
                        &same.changes[..same.changes.len().min(3)]
                    ));
                }
                let lowered = request_lowerings(&imported);
                println!("{name}: request lowerings {lowered:?}");
                let want = REQUEST_LOWERED.iter().find(|(doc, _)| name.starts_with(doc)).map(|(_, n)| *n);
                if want != Some(lowered) {
                    failures.push(format!("{name}: request lowerings {lowered:?}, {want:?} expected"));
                }
                let lowered = answer_lowerings(&imported);
                println!("{name}: answer lowerings {lowered:?}");
                let want = ANSWER_LOWERED.iter().find(|(doc, _)| name.starts_with(doc)).map(|(_, n)| *n);
                if want != Some(lowered) {
                    failures.push(format!("{name}: answer lowerings {lowered:?}, {want:?} expected"));
                }
                let saying = |says: &str| {
                    let lowered = imported.diagnostics.iter().filter(|d| d.code == diag::Code::ImportLowered);
                    lowered.filter(|d| d.message.contains(says)).count()
                };
                let relative = saying("is a relative reference: read as");
                let want = RELATIVE_URI_FORMATS.iter().find(|(doc, _)| name.starts_with(doc)).map(|(_, n)| *n);
                if want != Some(relative) {
                    failures.push(format!("{name}: {relative} `uri` formats read from examples, {want:?} expected"));
                }
                let unions = saying("by nothing");
                let want = ONE_OF_AS_ANY_OF.iter().find(|(doc, _)| name.starts_with(doc)).map(|(_, n)| *n);
                if want != Some(unions) {
                    failures.push(format!("{name}: {unions} `oneOf` read as `anyOf`, {want:?} expected"));
                }
                let written = imported.summary.exposed.unwrap_or_default();
                let want = TOOLS.iter().find(|(doc, _)| name.starts_with(doc)).map(|(_, n)| *n);
                println!("{name}: {written} tools written, {tools} of {ops} JSON operations on MCP");
                if want != Some(written) || tools != written {
                    failures.push(format!("{name}: {written} tools written ({tools} on MCP), {want:?} expected"));
                }
                let generated = generate(name, checked);
                if let Err(e) = generated.as_ref().map_err(String::clone).and_then(|l| names_fit(name, l)) {
                    failures.push(e);
                }
                match generated {
                    Ok(listed) if listed.len() != written => {
                        let listed = listed.len();
                        failures.push(format!("{name}: the MCP manifest lists {listed} tools, import wrote {written}"));
                    }
                    Ok(listed) if name.starts_with("petstore") => {
                        // An answer that is a list is a tool too, wrapped as `{"items": [...]}`.
                        let find_pets =
                            listed.iter().find(|t| t["name"].as_str().is_some_and(|n| n.starts_with("find_pets")));
                        let wrapped =
                            find_pets.is_some_and(|t| t["outputSchema"]["properties"]["items"]["type"] == "array");
                        assert!(wrapped, "petstore: find_pets is not a tool with its list wrapped: {find_pets:?}");
                    }
                    Ok(_) => {}
                    Err(e) => failures.push(e),
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    failures.extend(from_events.iter().filter(|read| read.contains(": ")).cloned());
    // The three YAML descriptions and all twenty contracts: none is past the plain reading.
    let read = from_events.iter().filter(|read| !read.contains(": ")).count();
    if read != 23 {
        failures.push(format!("{read} of 23 documents read from the YAML parser's events: {from_events:?}"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let share = json_tools as f64 / json_ops as f64;
    println!("{json_tools} of {json_ops} JSON operations are tools ({:.1} %)", share * 100.0);
    assert!(share >= MIN_TOOL_SHARE, "only {json_tools} of {json_ops} JSON operations are tools");
    assert_eq!(LOUD_PANICS.load(Ordering::SeqCst), 0, "a panic message reached stderr");
    assert_eq!(QUERY_FIELDS.load(Ordering::SeqCst), QUERY_FIELDS_AGREED, "query fields read as listed");
    assert_eq!(SERVED_IN_MEMORY.load(Ordering::SeqCst), 10, "tool lists served in memory as generated");
}
