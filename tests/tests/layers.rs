//! Modules import downward only: no module reaches, through any chain of `crate::`, `super::`
//! or `self::` paths, a sibling module (one of the same parent) that reaches it back; in
//! particular, none between the top-level modules of a crate. A child may read its parent: it is
//! part of it. A new cycle fails here with the files that make each of its edges.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module by its path from the crate root (`["present", "tool"]`); the root is `[]`.
type ModPath = Vec<String>;

/// Which module refers to which sibling, and from which files.
type Edges = BTreeMap<ModPath, BTreeMap<ModPath, BTreeSet<String>>>;

/// A crate's modules, the names they re-export, and the edges between siblings.
struct Crate {
    modules: BTreeSet<ModPath>,
    /// `(module, name)` to the absolute path a `use` in that module gives the name.
    uses: BTreeMap<(ModPath, String), ModPath>,
    edges: Edges,
}

impl Crate {
    fn read(src: &Path) -> Self {
        let files: Vec<(String, ModPath, syn::File)> = rust_files(src)
            .into_iter()
            .filter(|f| !f.ends_with("main.rs"))
            .map(|file| {
                let rel = file.strip_prefix(src).unwrap().to_string_lossy().replace('\\', "/");
                let mut scope: ModPath = rel.trim_end_matches(".rs").split('/').map(str::to_owned).collect();
                if scope.last().is_some_and(|s| s == "mod" || s == "lib") {
                    scope.pop();
                }
                let ast = parse(&file);
                (rel, scope, ast)
            })
            .collect();
        let mut modules: BTreeSet<ModPath> = files.iter().map(|(_, scope, _)| scope.clone()).collect();
        let mut found = Vec::new();
        let mut uses = BTreeMap::new();
        for (rel, scope, ast) in &files {
            let mut refs =
                Refs { scope: scope.clone(), in_fn: 0, found: Vec::new(), uses: Vec::new(), modules: Vec::new() };
            refs.visit_file(ast);
            modules.extend(refs.modules);
            found.extend(refs.found.into_iter().map(|(from, to)| (from, to, rel.clone())));
            uses.extend(refs.uses.into_iter().map(|(module, name, to)| ((module, name), to)));
        }
        let mut krate = Crate { modules, uses, edges: Edges::new() };
        for (from, to, file) in found {
            if let Some(to) = krate.module_of(&to) {
                krate.edge(&from, &to, &file);
            }
        }
        krate
    }

    /// The module an absolute path names or names an item of, following re-exports; `None`
    /// for a path outside the crate.
    fn module_of(&self, path: &[String]) -> Option<ModPath> {
        let mut at: ModPath = Vec::new();
        for (i, seg) in path.iter().enumerate() {
            let mut next = at.clone();
            next.push(seg.clone());
            if self.modules.contains(&next) {
                at = next;
            } else if let Some(target) = self.uses.get(&(at.clone(), seg.clone())) {
                // A re-export: resolve what it names, then go on from there (bounded: a `use`
                // that names itself must not loop).
                if target.as_slice() == &path[..=i] {
                    return Some(at);
                }
                let rest: Vec<String> = target.iter().chain(&path[i + 1..]).cloned().collect();
                return if rest.len() > 64 { Some(at) } else { self.module_of(&rest) };
            } else {
                return Some(at);
            }
        }
        Some(at)
    }

    /// Records that module `from` names module `to`, as an edge between the two siblings below
    /// their common ancestor (none when one contains the other).
    fn edge(&mut self, from: &[String], to: &[String], file: &str) {
        let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
        if common < from.len() && common < to.len() {
            let (a, b) = (from[..=common].to_vec(), to[..=common].to_vec());
            self.edges.entry(a).or_default().entry(b).or_default().insert(file.to_owned());
        }
    }

    /// Every cycle between sibling modules: the strongly connected parts of more than one.
    fn cycles(&self) -> Vec<Vec<String>> {
        let names: Vec<&ModPath> = self.modules.iter().collect();
        let index: BTreeMap<&ModPath, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let reach = |from: usize| -> BTreeSet<usize> {
            let mut seen = BTreeSet::from([from]);
            let mut todo = vec![from];
            while let Some(v) = todo.pop() {
                for to in self.edges.get(names[v]).into_iter().flat_map(BTreeMap::keys) {
                    if let Some(&w) = index.get(to)
                        && seen.insert(w)
                    {
                        todo.push(w);
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
                .map(|w| names[w].join("::"))
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
        for (a, to) in &self.edges {
            for (b, files) in to {
                if part.contains(&a.join("::")) && part.contains(&b.join("::")) {
                    let files: Vec<&str> = files.iter().map(String::as_str).collect();
                    out.push_str(&format!("  {} -> {} ({})\n", a.join("::"), b.join("::"), files.join(", ")));
                }
            }
        }
        out
    }
}

/// What one file says: the paths it names (made absolute), with the module each is named in;
/// the names its `use` items give each module; and its inline modules.
struct Refs {
    scope: ModPath,
    /// How many function bodies the walk is in: a `use` there names nothing for other modules.
    in_fn: usize,
    found: Vec<(ModPath, ModPath)>,
    uses: Vec<(ModPath, String, ModPath)>,
    modules: Vec<ModPath>,
}

impl Refs {
    /// `path` made absolute from the current module: `crate::`, `super::` and `self::` paths,
    /// and in a `use`, a path from a child module (`use tool::Tool`).
    fn absolute(&self, path: &[String], in_use: bool) -> Option<ModPath> {
        let mut out = self.scope.clone();
        let mut rest = path;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                out.clear();
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().is_some_and(|s| s == "super") {
                    out.pop()?;
                    rest = &rest[1..];
                }
            }
            Some(_) if in_use => {}
            _ => return None,
        }
        out.extend(rest.iter().cloned());
        Some(out)
    }
}

impl<'ast> Visit<'ast> for Refs {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.scope.push(m.ident.to_string());
        if m.content.is_some() {
            self.modules.push(self.scope.clone());
        }
        syn::visit::visit_item_mod(self, m);
        self.scope.pop();
    }

    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.in_fn += 1;
        syn::visit::visit_block(self, b);
        self.in_fn -= 1;
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segments: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        if let Some(to) = self.absolute(&segments, false) {
            self.found.push((self.scope.clone(), to));
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut paths = Vec::new();
        leaves(&u.tree, &mut Vec::new(), &mut paths);
        for (path, name) in paths {
            // A path from a child module is relative; one from an external crate names nothing here.
            let Some(to) = self.absolute(&path, true) else { continue };
            self.found.push((self.scope.clone(), to.clone()));
            if self.in_fn == 0
                && let Some(name) = name
            {
                self.uses.push((self.scope.clone(), name, to));
            }
        }
    }
}

/// Every path a `use` tree brings in, spelled from its root, with the name it is brought in
/// under (none for a glob).
fn leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, Option<String>)>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            // `use foo::{self}` names `foo` itself.
            let path =
                if name == "self" { prefix.clone() } else { [prefix.as_slice(), std::slice::from_ref(&name)].concat() };
            let name = if name == "self" { prefix.last().cloned() } else { Some(name) };
            out.push((path, name));
        }
        syn::UseTree::Rename(r) => {
            out.push(([prefix.as_slice(), &[r.ident.to_string()]].concat(), Some(r.rename.to_string())))
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), None)),
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
    let top = c.modules.iter().filter(|m| m.len() == 1).count();
    assert!(top > 5, "{krate}: the top-level modules were found: {:?}", c.modules);
    assert!(c.edges.values().map(BTreeMap::len).sum::<usize>() > 10, "{krate}: the imports were read");
    let report: Vec<String> =
        c.cycles().iter().map(|part| format!("{}:\n{}", part.join(" <-> "), c.explain(part))).collect();
    assert!(report.is_empty(), "{krate}: import cycles between modules:\n{}", report.join("\n"));
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
    std::fs::write(dir.join("b/mod.rs"), "mod inner;\nmod other;\npub use inner::X;\n").unwrap();
    // Through `super::super`, a re-export of the root and an inline module: b -> c -> a -> b;
    // and between two children of `b`, through a re-export of `b`: inner <-> other.
    std::fs::write(
        dir.join("b/inner.rs"),
        "pub struct X;\nmod deep { fn f() { super::super::super::Thing::new(); } }\nuse super::other::Y;\n",
    )
    .unwrap();
    std::fs::write(dir.join("b/other.rs"), "pub struct Y;\nfn g(_: super::X) {}\n").unwrap();
    std::fs::write(dir.join("c.rs"), "fn g(_: crate::a::Y) {}\n").unwrap();
    let c = Crate::read(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    let cycles = c.cycles();
    assert_eq!(
        cycles,
        vec![vec!["a".to_owned(), "b".to_owned(), "c".to_owned()], vec!["b::inner".to_owned(), "b::other".to_owned()]]
    );
    assert_eq!(c.explain(&cycles[0]), "  a -> b (a.rs)\n  b -> c (b/inner.rs)\n  c -> a (c.rs)\n");
    assert_eq!(c.explain(&cycles[1]), "  b::inner -> b::other (b/inner.rs)\n  b::other -> b::inner (b/other.rs)\n");
}
