//! One type per shape: typify makes a type of every anonymous schema it meets, so the same inline
//! object or enum written in a hundred operations becomes a hundred types. Types that are the
//! same (fields, variants, serde attributes, field docs and trait impls, the types they name
//! read as the same) are defined once; every other name stays, as an alias of the one kept.
//!
//! Shared types (`types:` in the contract) are never merged: their names are the user's. A tuple
//! or unit struct is never made an alias either: `Alias(value)` and `Alias` do not construct
//! through a type alias.

use std::collections::{BTreeMap, BTreeSet};

use quote::ToTokens;
use syn::visit_mut::VisitMut;

/// What stands for a type's own name in its shape, so that self-references compare equal.
const ITSELF: &str = "__StitchgenItself";

/// The items of typify's `types` module with every type that has the shape of another replaced
/// by `pub type Name = Kept;` (its doc kept), and the impls that came with it dropped. `fixed`
/// are the names that keep their own definition whatever their shape.
pub(super) fn share(items: Vec<syn::Item>, fixed: &BTreeSet<String>) -> Vec<syn::Item> {
    let mut pinned = fixed.clone();
    loop {
        let candidates = Candidates::collect(&items, &pinned);
        let kept = candidates.classes();
        let clashes = clashes(&candidates, &kept);
        if clashes.is_empty() {
            let (dropped, aliases) = plan(&candidates.owners, &candidates.defs, &kept);
            return rewrite(items, &dropped, &aliases);
        }
        // Two impls of one trait that differed only in the types now shared (`From<A>` and
        // `From<B>` for one enum): the types named there keep their own definitions.
        pinned.extend(clashes);
    }
}

/// How a module's types share, where none must be pinned: each candidate's kept type (the least
/// name of its class), the candidate each impl belongs to, and each candidate's definition.
pub(super) struct Sharing {
    pub(super) kept: BTreeMap<String, String>,
    pub(super) owners: BTreeMap<usize, String>,
    pub(super) defs: BTreeMap<String, usize>,
}

/// How `items` share, as [`share`] finds it; `None` when two impls would become one (where
/// [`share`] pins types and looks again).
pub(super) fn sharing(items: &[syn::Item], fixed: &BTreeSet<String>) -> Option<Sharing> {
    let candidates = Candidates::collect(items, fixed);
    let kept = candidates.classes();
    if !clashes(&candidates, &kept).is_empty() {
        return None;
    }
    let Candidates { owners, defs, .. } = candidates;
    Some(Sharing { kept, owners, defs })
}

/// `items` with each candidate of `sharing` whose kept type in `kept` is another replaced by
/// its alias, and the impls that belong to it dropped.
pub(super) fn apply(items: Vec<syn::Item>, sharing: &Sharing, kept: &BTreeMap<String, String>) -> Vec<syn::Item> {
    let (dropped, aliases) = plan(&sharing.owners, &sharing.defs, kept);
    rewrite(items, &dropped, &aliases)
}

/// The types that may be shared: every struct with braces and every enum, unless pinned,
/// with the impls each one owns.
struct Candidates<'a> {
    items: &'a [syn::Item],
    /// Name → index of its definition in the items.
    defs: BTreeMap<String, usize>,
    /// Name → indexes of the impls it owns: those whose self type it is, or whose trait
    /// arguments name it when the self type is no candidate (`impl From<A> for String`).
    impls: BTreeMap<String, Vec<usize>>,
    /// Impl index → the candidate that owns it.
    owners: BTreeMap<usize, String>,
    /// Name → its definition and owned impls as text with every other candidate a hole: the
    /// items are cloned, visited and printed once, and each refinement round only fills holes.
    templates: BTreeMap<String, Template>,
}

impl<'a> Candidates<'a> {
    fn collect(items: &'a [syn::Item], pinned: &BTreeSet<String>) -> Candidates<'a> {
        let mut defs = BTreeMap::new();
        for (i, item) in items.iter().enumerate() {
            let name = match item {
                syn::Item::Struct(s) if matches!(s.fields, syn::Fields::Named(_)) && s.generics.params.is_empty() => {
                    &s.ident
                }
                syn::Item::Enum(e) if e.generics.params.is_empty() => &e.ident,
                _ => continue,
            };
            let name = name.to_string();
            if !pinned.contains(&name) {
                defs.insert(name, i);
            }
        }
        let owners: BTreeMap<usize, String> = items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| match item {
                syn::Item::Impl(imp) => owner(imp, &defs).map(|o| (i, o)),
                _ => None,
            })
            .collect();
        let mut impls: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (&i, name) in &owners {
            impls.entry(name.clone()).or_default().push(i);
        }
        let mut candidates = Candidates { items, defs, impls, owners, templates: BTreeMap::new() };
        candidates.templates = candidates.defs.keys().map(|name| (name.clone(), candidates.template(name))).collect();
        candidates
    }

    /// Each candidate's kept type: the least name of its class. Classes are refined to a fixed
    /// point: types that differ only in naming types already found the same are the same.
    fn classes(&self) -> BTreeMap<String, String> {
        let mut kept: BTreeMap<String, String> = self.defs.keys().map(|n| (n.clone(), n.clone())).collect();
        loop {
            let mut by_shape: BTreeMap<String, &String> = BTreeMap::new();
            let mut next = BTreeMap::new();
            for name in self.defs.keys() {
                let first = by_shape.entry(self.shape(name, &kept)).or_insert(name);
                next.insert(name.clone(), (*first).clone());
            }
            if next == kept {
                return kept;
            }
            kept = next;
        }
    }

    /// A candidate's definition (outer docs aside) and owned impls, as text, with its own name
    /// read as [`ITSELF`] and every other candidate's as its kept type.
    fn shape(&self, name: &str, kept: &BTreeMap<String, String>) -> String {
        let (def, impls) = &self.templates[name];
        let mut impls: Vec<String> = impls.iter().map(|imp| fill(imp, kept)).collect();
        impls.sort();
        let mut text = fill(def, kept);
        for imp in impls {
            text.push('\n');
            text.push_str(&imp);
        }
        text
    }

    /// A candidate's definition (outer docs aside) and owned impls, with its own name read as
    /// [`ITSELF`] and every other candidate's a hole.
    fn template(&self, name: &str) -> Template {
        let mut mark = Rename(|n: &str| {
            if n == name { Some(ITSELF.to_owned()) } else { self.defs.contains_key(n).then(|| format!("{HOLE}{n}")) }
        });
        let mut def = self.items[self.defs[name]].clone();
        match &mut def {
            syn::Item::Struct(s) => {
                s.attrs.retain(|a| !a.path().is_ident("doc"));
                s.ident = syn::Ident::new(ITSELF, s.ident.span());
            }
            syn::Item::Enum(e) => {
                e.attrs.retain(|a| !a.path().is_ident("doc"));
                e.ident = syn::Ident::new(ITSELF, e.ident.span());
            }
            _ => {}
        }
        mark.visit_item_mut(&mut def);
        let impls = self.impls.get(name).map_or_else(Vec::new, |owned| {
            owned
                .iter()
                .map(|&i| {
                    let mut imp = self.items[i].clone();
                    mark.visit_item_mut(&mut imp);
                    pieces(&imp.to_token_stream().to_string())
                })
                .collect()
        });
        (pieces(&def.to_token_stream().to_string()), impls)
    }
}

/// A definition and its impls as [`Piece`]s.
type Template = (Vec<Piece>, Vec<Vec<Piece>>);

/// Printed code, or a hole where a candidate is named.
#[derive(Debug, PartialEq)]
enum Piece {
    Text(String),
    Candidate(String),
}

/// What stands for another candidate in a template while it is printed: never a Rust name
/// typify writes (its names are `UpperCamelCase`).
const HOLE: &str = "__StitchgenHole_";

/// Printed code cut at each hole.
fn pieces(text: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(HOLE) {
        out.push(Piece::Text(rest[..at].to_owned()));
        let name = &rest[at + HOLE.len()..];
        let end = name.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(name.len());
        out.push(Piece::Candidate(name[..end].to_owned()));
        rest = &name[end..];
    }
    out.push(Piece::Text(rest.to_owned()));
    out
}

/// A template with each hole filled by the candidate's kept type.
fn fill(pieces: &[Piece], kept: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    for piece in pieces {
        out.push_str(match piece {
            Piece::Text(t) => t,
            Piece::Candidate(name) => &kept[name],
        });
    }
    out
}

/// The candidate an impl belongs to: its self type, else the first candidate its trait's
/// arguments name.
fn owner(imp: &syn::ItemImpl, defs: &BTreeMap<String, usize>) -> Option<String> {
    if let syn::Type::Path(p) = &*imp.self_ty
        && p.qself.is_none()
        && let Some(ident) = p.path.get_ident()
        && defs.contains_key(&ident.to_string())
    {
        return Some(ident.to_string());
    }
    let (_, trait_path, _) = imp.trait_.as_ref()?;
    Names::in_item(defs, trait_path, Names::visit_path_mut).into_iter().next()
}

/// Every candidate a piece of code names, in the order it names them.
struct Names<'d> {
    defs: &'d BTreeMap<String, usize>,
    found: Vec<String>,
}

impl<'d> Names<'d> {
    /// The candidates `item` names, in order, read by `visit`.
    fn in_item<T: Clone>(
        defs: &'d BTreeMap<String, usize>,
        item: &T,
        visit: impl FnOnce(&mut Names<'d>, &mut T),
    ) -> Vec<String> {
        let mut names = Names { defs, found: Vec::new() };
        visit(&mut names, &mut item.clone());
        names.found
    }
}

impl VisitMut for Names<'_> {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if let Some(name) = head(path)
            && self.defs.contains_key(&name)
        {
            self.found.push(name);
        }
        syn::visit_mut::visit_path_mut(self, path);
    }
}

/// The first segment of a relative path: the type a path like `A` or `A::new` names.
fn head(path: &syn::Path) -> Option<String> {
    if path.leading_colon.is_some() {
        return None;
    }
    path.segments.first().map(|s| s.ident.to_string())
}

/// Renames the first segment of each path to the name `to` gives it, where it gives one.
struct Rename<F>(F);

impl<F: FnMut(&str) -> Option<String>> VisitMut for Rename<F> {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if let Some(name) = head(path)
            && let Some(to) = (self.0)(&name)
            && to != name
        {
            let first = &mut path.segments[0].ident;
            *first = syn::Ident::new(&to, first.span());
        }
        syn::visit_mut::visit_path_mut(self, path);
    }
}

/// Types whose sharing makes two kept trait impls one (`impl From<A> for E` and
/// `impl From<B> for E` once `B` is `A`): the names, written in either impl, that would become
/// aliases.
fn clashes(candidates: &Candidates<'_>, kept: &BTreeMap<String, String>) -> BTreeSet<String> {
    let aliased = |name: &String| kept.get(name).is_some_and(|k| k != name);
    // Each kept trait impl without its body, as written and as it reads once types are shared.
    let mut seen: BTreeMap<String, syn::ItemImpl> = BTreeMap::new();
    let mut clash = BTreeSet::new();
    for (i, item) in candidates.items.iter().enumerate() {
        let syn::Item::Impl(imp) = item else { continue };
        if imp.trait_.is_none() || candidates.owners.get(&i).is_some_and(aliased) {
            continue;
        }
        let mut header = imp.clone();
        header.items.clear();
        header.attrs.clear();
        let mut shared = header.clone();
        Rename(|n: &str| kept.get(n).cloned()).visit_item_impl_mut(&mut shared);
        match seen.entry(shared.to_token_stream().to_string()) {
            std::collections::btree_map::Entry::Occupied(other) => {
                for written in [other.get(), &header] {
                    let names = Names::in_item(&candidates.defs, written, Names::visit_item_impl_mut);
                    clash.extend(names.into_iter().filter(&aliased));
                }
            }
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(header);
            }
        }
    }
    clash
}

/// The impls to drop (those of aliased types) and the definitions to replace by an alias, by
/// index: name and kept type.
fn plan(
    owners: &BTreeMap<usize, String>,
    defs: &BTreeMap<String, usize>,
    kept: &BTreeMap<String, String>,
) -> (BTreeSet<usize>, BTreeMap<usize, (String, String)>) {
    let aliased = |name: &String| kept[name] != *name;
    let dropped = owners.iter().filter(|(_, owner)| aliased(owner)).map(|(&i, _)| i).collect();
    let aliases = defs
        .iter()
        .filter(|(name, _)| aliased(name))
        .map(|(name, &i)| (i, (name.clone(), kept[name].clone())))
        .collect();
    (dropped, aliases)
}

/// The items with every aliased type's definition replaced by its alias and its impls dropped.
fn rewrite(
    items: Vec<syn::Item>,
    dropped: &BTreeSet<usize>,
    aliases: &BTreeMap<usize, (String, String)>,
) -> Vec<syn::Item> {
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !dropped.contains(i))
        .map(|(i, item)| match aliases.get(&i) {
            Some((name, to)) => alias(item, name, to),
            None => item,
        })
        .collect()
}

/// `pub type Name = Kept;` with the doc comments of the definition it replaces: built as a tree,
/// its docs moved, not quoted and parsed back (a large module has ten thousand of them).
pub(super) fn alias(def: syn::Item, name: &str, to: &str) -> syn::Item {
    let attrs = match def {
        syn::Item::Struct(s) => s.attrs,
        syn::Item::Enum(e) => e.attrs,
        _ => Vec::new(),
    };
    alias_with(attrs.into_iter().filter(|a| a.path().is_ident("doc")).collect(), name, to)
}

/// `pub type Name = Kept;` with `docs`.
pub(super) fn alias_with(docs: Vec<syn::Attribute>, name: &str, to: &str) -> syn::Item {
    let span = proc_macro2::Span::call_site();
    syn::Item::Type(syn::ItemType {
        attrs: docs,
        vis: syn::Visibility::Public(Default::default()),
        type_token: Default::default(),
        ident: syn::Ident::new(name, span),
        generics: syn::Generics::default(),
        eq_token: Default::default(),
        ty: Box::new(syn::Type::Path(syn::TypePath { qself: None, path: syn::Ident::new(to, span).into() })),
        semi_token: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use quote::ToTokens;

    /// `share` over the items of `code`, printed back one item per line.
    fn shared(code: &str, fixed: &[&str]) -> Vec<String> {
        let file: syn::File = syn::parse_str(code).expect("test code parses");
        let fixed: BTreeSet<String> = fixed.iter().map(|s| (*s).to_owned()).collect();
        super::share(file.items, &fixed).iter().map(|i| i.to_token_stream().to_string()).collect()
    }

    fn aliases(items: &[String]) -> Vec<&str> {
        items.iter().filter(|i| i.starts_with("pub type") || i.contains("] pub type")).map(String::as_str).collect()
    }

    #[test]
    fn the_same_shape_is_defined_once_under_its_least_name() {
        let out = shared(
            "/// Get.\npub struct GetParams { pub id: String }\n/// Delete.\npub struct DeleteParams { pub id: String }\npub struct Other { pub id: u64 }",
            &[],
        );
        assert_eq!(aliases(&out), ["# [doc = \" Get.\"] pub type GetParams = DeleteParams ;"]);
        assert!(out.iter().any(|i| i.contains("pub struct DeleteParams")), "{out:#?}");
        assert!(out.iter().any(|i| i.contains("pub struct Other")), "{out:#?}");
    }

    #[test]
    fn types_that_name_shared_types_are_shared_in_turn() {
        let out = shared(
            "pub enum AStatus { On, Off }\npub enum BStatus { On, Off }\npub struct A { pub s: AStatus }\npub struct B { pub s: BStatus }",
            &[],
        );
        assert_eq!(aliases(&out), ["pub type BStatus = AStatus ;", "pub type B = A ;"]);
    }

    #[test]
    fn a_type_that_names_itself_is_read_as_itself() {
        let out = shared(
            "pub struct A { pub next: Option<Box<A>> }\npub struct B { pub next: Option<Box<B>> }\npub struct C { pub next: Option<Box<A>> }",
            &[],
        );
        // C names A, not itself: the same fields, another shape.
        assert_eq!(aliases(&out), ["pub type B = A ;"]);
    }

    #[test]
    fn shared_types_newtypes_and_field_docs_keep_their_definitions() {
        let fixed = shared("pub struct A { pub id: String }\npub struct B { pub id: String }", &["A", "B"]);
        assert!(aliases(&fixed).is_empty(), "{fixed:#?}");
        let newtypes = shared("pub struct A(pub String);\npub struct B(pub String);", &[]);
        assert!(aliases(&newtypes).is_empty(), "{newtypes:#?}");
        let units = shared("pub struct A;\npub struct B;", &[]);
        assert!(aliases(&units).is_empty(), "{units:#?}");
        let docs = shared("pub struct A { /// One.\npub id: String }\npub struct B { /// Two.\npub id: String }", &[]);
        assert!(aliases(&docs).is_empty(), "{docs:#?}");
        let impls = shared(
            "pub struct A { pub id: String }\npub struct B { pub id: String }\nimpl Default for A { fn default() -> Self { A { id: String::new() } } }",
            &[],
        );
        assert!(aliases(&impls).is_empty(), "{impls:#?}");
    }

    #[test]
    fn impls_go_with_the_type_they_belong_to() {
        let out = shared(
            "pub enum A { X }\npub enum B { X }\nimpl std::fmt::Display for A { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(\"x\") } }\nimpl std::fmt::Display for B { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(\"x\") } }\nimpl From<B> for String { fn from(_: B) -> String { String::new() } }\nimpl From<A> for String { fn from(_: A) -> String { String::new() } }",
            &[],
        );
        assert_eq!(out.len(), 4, "{out:#?}");
        assert_eq!(aliases(&out), ["pub type B = A ;"]);
        assert!(out.iter().all(|i| !i.contains("for B") && !i.contains("From < B >")), "{out:#?}");
    }

    #[test]
    fn two_impls_that_would_become_one_keep_their_types_apart() {
        let out = shared(
            "pub struct A { pub id: String }\npub struct B { pub id: String }\npub enum U { A(A), B(B) }\nimpl From<A> for U { fn from(v: A) -> Self { Self::A(v) } }\nimpl From<B> for U { fn from(v: B) -> Self { Self::B(v) } }",
            &[],
        );
        assert!(aliases(&out).is_empty(), "{out:#?}");
    }

    #[test]
    fn an_unrelated_type_changes_nothing_else() {
        let before = shared("pub struct GetParams { pub id: String }\npub struct PutParams { pub id: String }", &[]);
        let after = shared(
            "pub struct GetParams { pub id: String }\npub struct ListInput { pub limit: u64 }\npub struct PutParams { pub id: String }",
            &[],
        );
        let after: Vec<&String> = after.iter().filter(|i| !i.contains("ListInput")).collect();
        assert_eq!(before.iter().collect::<Vec<_>>(), after);
    }
}
