//! The top-level modules of each crate import downward only: no module reaches, through any
//! chain of `crate::` or `super::` paths, a module that reaches it back. A new cycle fails here
//! with the files that make each of its edges.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// Which top-level module refers to which, and from which files.
type Edges = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// The crate rooted at `src/lib.rs`: its top-level modules and the edges between them.
struct Crate {
    modules: BTreeSet<String>,
    /// Names the crate root re-exports, and the top-level module each comes from.
    reexports: BTreeMap<String, String>,
    edges: Edges,
}

impl Crate {
    fn read(src: &Path) -> Self {
        let lib = parse(&src.join("lib.rs"));
        let mut modules = BTreeSet::new();
        let mut reexports = BTreeMap::new();
        for item in &lib.items {
            match item {
                syn::Item::Mod(m) if m.content.is_none() => {
                    modules.insert(m.ident.to_string());
                }
                syn::Item::Use(u) => {
                    let mut names = Vec::new();
                    leaves(&u.tree, &mut Vec::new(), &mut names);
                    for path in names {
                        let first = if path[0] == "crate" || path[0] == "self" { path.get(1) } else { path.first() };
                        if let (Some(first), Some(last)) = (first, path.last()) {
                            reexports.insert(last.clone(), first.clone());
                        }
                    }
                }
                _ => {}
            }
        }
        let mut krate = Crate { modules, reexports, edges: Edges::new() };
        for file in rust_files(src) {
            let rel = file.strip_prefix(src).unwrap().to_string_lossy().replace('\\', "/");
            let mut scope: Vec<String> = rel.trim_end_matches(".rs").split('/').map(str::to_owned).collect();
            if scope.last().is_some_and(|s| s == "mod" || s == "lib" || s == "main") {
                scope.pop();
            }
            let mut refs = Refs { scope, found: Vec::new() };
            refs.visit_file(&parse(&file));
            for (from, to) in refs.found {
                krate.edge(&from, &to, &rel);
            }
        }
        krate
    }

    /// Records that module path `from` names absolute path `to`, when they lie in two
    /// top-level modules.
    fn edge(&mut self, from: &[String], to: &[String], file: &str) {
        let (Some(a), Some(b)) = (from.first(), to.first()) else { return };
        let b = if self.modules.contains(b) {
            b.clone()
        } else if let Some(m) = self.reexports.get(b) {
            m.clone()
        } else {
            return;
        };
        if *a != b && self.modules.contains(a) {
            self.edges.entry(a.clone()).or_default().entry(b).or_default().insert(file.to_owned());
        }
    }

    /// Every cycle between top-level modules: the strongly connected parts of more than one.
    fn cycles(&self) -> Vec<Vec<String>> {
        let names: Vec<&String> = self.modules.iter().collect();
        let index: BTreeMap<&String, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let reach = |from: usize| -> BTreeSet<usize> {
            let mut seen = BTreeSet::from([from]);
            let mut todo = vec![from];
            while let Some(v) = todo.pop() {
                for to in self.edges.get(names[v]).into_iter().flat_map(BTreeMap::keys) {
                    if seen.insert(index[to]) {
                        todo.push(index[to]);
                    }
                }
            }
            seen
        };
        let reached: Vec<BTreeSet<usize>> = (0..names.len()).map(reach).collect();
        let mut parts: BTreeSet<Vec<String>> = BTreeSet::new();
        for v in 0..names.len() {
            let part: Vec<String> = (0..names.len())
                .filter(|&w| reached[v].contains(&w) && reached[w].contains(&v))
                .map(|w| names[w].clone())
                .collect();
            if part.len() > 1 {
                parts.insert(part);
            }
        }
        parts.into_iter().collect()
    }

    /// The edges inside `part`, with the files that make them.
    fn explain(&self, part: &[String]) -> String {
        let mut out = String::new();
        for a in part {
            for (b, files) in self.edges.get(a).into_iter().flatten() {
                if part.contains(b) {
                    let files: Vec<&str> = files.iter().map(String::as_str).collect();
                    out.push_str(&format!("  {a} -> {b} ({})\n", files.join(", ")));
                }
            }
        }
        out
    }
}

/// The module paths named by `crate::` and `super::` paths, each with the module it is named in.
struct Refs {
    scope: Vec<String>,
    found: Vec<(Vec<String>, Vec<String>)>,
}

impl Refs {
    /// `path` made absolute from the current module, when it is `crate::` or `super::`.
    fn absolute(&self, path: &[String]) -> Option<Vec<String>> {
        let mut out = self.scope.clone();
        let mut rest = path;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                out.clear();
                rest = &rest[1..];
            }
            Some("super") => {
                while rest.first().is_some_and(|s| s == "super") {
                    out.pop()?;
                    rest = &rest[1..];
                }
            }
            _ => return None,
        }
        out.extend(rest.iter().cloned());
        Some(out)
    }

    fn named(&mut self, path: &[String]) {
        if let Some(to) = self.absolute(path) {
            self.found.push((self.scope.clone(), to));
        }
    }
}

impl<'ast> Visit<'ast> for Refs {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.scope.push(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.scope.pop();
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segments: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        self.named(&segments);
        syn::visit::visit_path(self, p);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut paths = Vec::new();
        leaves(&u.tree, &mut Vec::new(), &mut paths);
        for path in paths {
            self.named(&path);
        }
    }
}

/// Every path a `use` tree brings in, spelled from its root.
fn leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => out.push([prefix.as_slice(), &[n.ident.to_string()]].concat()),
        syn::UseTree::Rename(r) => out.push([prefix.as_slice(), &[r.ident.to_string()]].concat()),
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| leaves(t, prefix, out)),
    }
}

fn parse(file: &Path) -> syn::File {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn assert_acyclic(krate: &str) {
    let src = stitchgen_tests::repo_root().join(krate).join("src");
    let c = Crate::read(&src);
    assert!(c.modules.len() > 5, "{krate}: the top-level modules were found: {:?}", c.modules);
    assert!(c.edges.values().map(BTreeMap::len).sum::<usize>() > 10, "{krate}: the imports were read");
    let report: Vec<String> =
        c.cycles().iter().map(|part| format!("{}:\n{}", part.join(" <-> "), c.explain(part))).collect();
    assert!(report.is_empty(), "{krate}: import cycles between top-level modules:\n{}", report.join("\n"));
}

#[test]
fn stitchgen_modules_import_downward_only() {
    assert_acyclic("stitchgen");
}

#[test]
fn runtime_modules_import_downward_only() {
    assert_acyclic("runtime");
}

#[test]
fn a_cycle_is_found_and_named() {
    let dir = std::env::temp_dir().join(format!("stitchgen-layers-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("b")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\nmod c;\npub use c::Thing;\n").unwrap();
    std::fs::write(dir.join("a.rs"), "use crate::b::X;\n").unwrap();
    std::fs::write(dir.join("b/mod.rs"), "mod inner;\n").unwrap();
    // Through `super::super`, a re-export of the root and a nested module: b -> c -> a -> b.
    std::fs::write(dir.join("b/inner.rs"), "mod deep { fn f() { super::super::super::Thing::new(); } }\n").unwrap();
    std::fs::write(dir.join("c.rs"), "fn g() -> crate::a::Y { todo!() }\n").unwrap();
    let c = Crate::read(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(c.cycles(), vec![vec!["a".to_owned(), "b".to_owned(), "c".to_owned()]]);
    assert_eq!(c.explain(&c.cycles()[0]), "  a -> b (a.rs)\n  b -> c (b/inner.rs)\n  c -> a (c.rs)\n");
}
