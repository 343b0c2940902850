//! Operation schemas typify would translate alike, translated once. A thousand operations that
//! each take `{ id }` hand typify a thousand schemas that differ only in their names, and its
//! items for each are the first one's with the names changed. typify is given the first of each
//! kind; the others' items are the first's, renamed, before [`super::share`] reads them all as
//! it always has. The module is the same, byte for byte; typify's time and memory are those of
//! the distinct schemas (494 of 2,640 in the 1,000-endpoint bench contract).
//!
//! Only where renaming is exact. typify names a schema's inner types after the schema's name and
//! the way to them (`{Name}_{property}`, then PascalCase), so a name PascalCase leaves as it is
//! heads every inner type's name, and another such name heads the copy's. A `title` or a
//! `default` (types or helpers named otherwise), an inner type another schema reaches too, a
//! name a copy's type would take that a type already has, or an item whose text holds the name
//! anywhere but where it is renamed: typify translates every schema, as before.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use heck::{ToPascalCase, ToSnakeCase};
use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use serde_json::Value;
use syn::visit_mut::VisitMut;
use typify::{TypeDetails, TypeEnumVariant, TypeId, TypeSpace};

use crate::schema::TYPES_PREFIX;

/// The first schema of each kind met so far, by its text: each later one that could be renamed
/// exactly is a copy of it. `defaulted` are the references to shared types that hold a
/// `default`, themselves or through a type they name: typify names the default helper of a
/// field an `allOf` merges in after the merged type, beyond what renaming reaches.
pub(super) struct Firsts {
    first: BTreeMap<String, usize>,
    defaulted: BTreeSet<String>,
}

impl Firsts {
    /// No schema met yet; `definitions` are the shared types as typify reads them, by Rust name.
    pub(super) fn new(definitions: &[(String, Value)]) -> Firsts {
        let refs: Vec<(String, bool, BTreeSet<String>)> = definitions
            .iter()
            .map(|(name, schema)| {
                let mut refs = BTreeSet::new();
                let defaults = walk(schema, &mut refs);
                (format!("{TYPES_PREFIX}{name}"), defaults, refs)
            })
            .collect();
        let mut defaulted: BTreeSet<String> = refs.iter().filter(|r| r.1).map(|r| r.0.clone()).collect();
        loop {
            let before = defaulted.len();
            for (name, _, named) in &refs {
                if !defaulted.contains(name) && named.iter().any(|n| defaulted.contains(n)) {
                    defaulted.insert(name.clone());
                }
            }
            if defaulted.len() == before {
                return Firsts { first: BTreeMap::new(), defaulted };
            }
        }
    }

    /// The earlier schema typify translates in place of schema `i`, if any; else `i` is
    /// translated (and is the first of its kind).
    pub(super) fn original(&mut self, i: usize, name: &str, schema: &Value) -> Option<usize> {
        if !stable(name) || !plain(schema, &self.defaulted) {
            return None;
        }
        match self.first.entry(schema.to_string()) {
            std::collections::btree_map::Entry::Occupied(first) => Some(*first.get()),
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(i);
                None
            }
        }
    }
}

/// Whether `schema` holds a `default` anywhere; the references it holds are added to `refs`.
fn walk(schema: &Value, refs: &mut BTreeSet<String>) -> bool {
    match schema {
        Value::Object(map) => {
            let mut defaults = map.contains_key("default");
            if let Some(Value::String(r)) = map.get("$ref") {
                refs.insert(r.clone());
            }
            for value in map.values() {
                defaults |= walk(value, refs);
            }
            defaults
        }
        Value::Array(items) => items.iter().fold(false, |d, item| walk(item, refs) | d),
        _ => false,
    }
}

/// A name typify keeps as it is, and keeps as the head of its inner types' names: PascalCase
/// splits `{Name}_{rest}` at the `_` first, so such a name is the head of the result.
fn stable(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.bytes().all(|b| b.is_ascii_alphanumeric())
        && name != "Self"
        && name.to_pascal_case() == name
}

/// No `title` (a type named by it, not by the schema's name), no `default` (a helper named
/// after the type) and no reference to a type in `defaulted`, anywhere; a property of either
/// name is no keyword.
fn plain(schema: &Value, defaulted: &BTreeSet<String>) -> bool {
    match schema {
        Value::Object(map) => map.iter().all(|(key, value)| match key.as_str() {
            "title" | "default" => false,
            "$ref" => value.as_str().is_none_or(|r| !defaulted.contains(r)),
            "properties" | "patternProperties" | "definitions" | "$defs" => match value {
                Value::Object(named) => named.values().all(|v| plain(v, defaulted)),
                other => plain(other, defaulted),
            },
            _ => plain(value, defaulted),
        }),
        Value::Array(items) => items.iter().all(|v| plain(v, defaulted)),
        _ => true,
    }
}

/// A schema typify did not translate: the one it copies, and each type name of that one's
/// items with the name the copy's takes.
pub(super) struct Copied {
    /// The copy's name.
    name: String,
    /// The copied schema's index, and its name.
    pub(super) original: usize,
    of: String,
    /// Type names of the copied schema's items → the copy's.
    pub(super) renames: BTreeMap<String, String>,
}

/// The copies' renamings, or `None` where one would not be exact. `roots[i]` is the type typify
/// made of schema `i` when it translated it; `fixed` are the shared types' names.
pub(super) fn resolve(
    space: &TypeSpace,
    fixed: &BTreeSet<String>,
    names: &[&str],
    originals: &[Option<usize>],
    roots: &[Option<TypeId>],
) -> Option<Vec<Copied>> {
    if originals.iter().all(Option::is_none) {
        return Some(Vec::new());
    }
    // Which translated schema reaches each named type; a type reached from two is no one's.
    let mut owner: BTreeMap<String, Option<usize>> = BTreeMap::new();
    let mut reach: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for (i, root) in roots.iter().enumerate() {
        let Some(root) = root else { continue };
        let reached = reached(space, vec![root.clone()], fixed)?;
        for name in &reached {
            owner.entry(name.clone()).and_modify(|o| *o = None).or_insert(Some(i));
        }
        reach.insert(i, reached);
    }
    // A type typify made on the way and left (an `allOf` merge can), reached from nothing, is
    // written all the same: one made for a copied schema would be missed. Every type made for a
    // schema with copies is named after it (it has no title), so none may be.
    let mut taken = BTreeSet::new();
    let mut from_fixed = Vec::new();
    for ty in space.iter_types() {
        let details = ty.details();
        if named(&details) {
            let name = ty.name();
            if fixed.contains(&name) {
                from_fixed.extend(children(details));
            }
            taken.insert(name);
        }
    }
    let reached_from_fixed = reached(space, from_fixed, fixed)?;
    let copied: BTreeSet<&str> = originals.iter().flatten().map(|&k| names[k]).collect();
    let orphan = |n: &&String| !fixed.contains(*n) && !owner.contains_key(*n) && !reached_from_fixed.contains(*n);
    let of_a_copied = |n: &String| (1..=n.len()).any(|end| n.is_char_boundary(end) && copied.contains(&n[..end]));
    if taken.iter().filter(orphan).any(of_a_copied) {
        return None;
    }
    let mut copies = Vec::new();
    for (i, original) in originals.iter().enumerate() {
        let Some(k) = *original else { continue };
        let (from, to) = (names[k], names[i]);
        let mut renames = BTreeMap::new();
        for name in reach.get(&k)? {
            let mine = owner.get(name).copied().flatten() == Some(k) && !reached_from_fixed.contains(name);
            let renamed = name.strip_prefix(from).map(|rest| format!("{to}{rest}"))?;
            if !mine || !stable(&renamed) || !taken.insert(renamed.clone()) {
                return None;
            }
            renames.insert(name.clone(), renamed);
        }
        copies.push(Copied { name: to.to_owned(), original: k, of: from.to_owned(), renames });
    }
    Some(copies)
}

/// Enums, structs and newtypes: the types typify names and writes items for.
fn named(details: &TypeDetails<'_>) -> bool {
    matches!(details, TypeDetails::Enum(_) | TypeDetails::Struct(_) | TypeDetails::Newtype(_))
}

/// The types `details` holds.
fn children(details: TypeDetails<'_>) -> Vec<TypeId> {
    match details {
        TypeDetails::Enum(e) => e
            .variants()
            .flat_map(|(_, variant)| match variant {
                TypeEnumVariant::Simple => Vec::new(),
                TypeEnumVariant::Tuple(ids) => ids,
                TypeEnumVariant::Struct(props) => props.into_iter().map(|(_, id)| id).collect(),
            })
            .collect(),
        TypeDetails::Struct(s) => s.properties().map(|(_, id)| id).collect(),
        TypeDetails::Newtype(n) => vec![n.inner()],
        TypeDetails::Option(id)
        | TypeDetails::Vec(id)
        | TypeDetails::Set(id)
        | TypeDetails::Box(id)
        | TypeDetails::Array(id, _) => vec![id],
        TypeDetails::Map(key, value) => vec![key, value],
        TypeDetails::Tuple(ids) => ids.collect(),
        TypeDetails::Builtin(_) | TypeDetails::Unit | TypeDetails::String => Vec::new(),
    }
}

/// The names of the named types reached from `start` (themselves included), through every
/// type but the shared ones. A worklist, not recursion: schemas nest deep.
fn reached(space: &TypeSpace, start: Vec<TypeId>, fixed: &BTreeSet<String>) -> Option<BTreeSet<String>> {
    let mut names = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut stack = start;
    while let Some(id) = stack.pop() {
        if !seen.insert(id.clone()) {
            continue;
        }
        let ty = space.get_type(&id).ok()?;
        let details = ty.details();
        if named(&details) {
            let name = ty.name();
            if fixed.contains(&name) {
                continue;
            }
            names.insert(name);
        }
        stack.extend(children(details));
    }
    Some(names)
}

impl Copied {
    /// The copy's name, and its type as an operation module names it: `path`, the original's,
    /// with the copy's names.
    pub(super) fn path(&self, path: TokenStream) -> (String, String) {
        (self.name.clone(), rename_tokens(path, &self.renames).to_string())
    }
}

fn rename_tokens(tokens: TokenStream, renames: &BTreeMap<String, String>) -> TokenStream {
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(g) => {
                let mut group = proc_macro2::Group::new(g.delimiter(), rename_tokens(g.stream(), renames));
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            TokenTree::Ident(i) => match renames.get(&i.to_string()) {
                Some(to) => TokenTree::Ident(proc_macro2::Ident::new(to, i.span())),
                None => TokenTree::Ident(i),
            },
            other => other,
        })
        .collect()
}

/// typify's items with each copy's added, renamed, where typify writes them (ordered by type
/// name, before its `defaults` and `error` modules); `false` when an original's items hold its
/// name where renaming would not change it (nothing is added then).
pub(super) fn add(items: &mut Vec<syn::Item>, copies: &[Copied]) -> bool {
    if copies.is_empty() {
        return true;
    }
    let groups = groups(items);
    let by_name: BTreeMap<String, Range<usize>> = groups.iter().cloned().collect();
    if !all_renamable(items, &by_name, copies) {
        return false;
    }
    let mut added: Vec<(String, Vec<syn::Item>)> = Vec::new();
    for copy in copies {
        let mut renamer = Renamer::new(&copy.renames);
        for (name, renamed) in &copy.renames {
            let mut group: Vec<syn::Item> = items[by_name[name].clone()].to_vec();
            group.iter_mut().for_each(|item| renamer.visit_item_mut(item));
            added.push((renamed.clone(), group));
        }
    }
    merge(items, &groups, added);
    true
}

/// typify's items with each copy's added and every type shared, as [`super::share::share`] makes
/// them of the items with the copies' spelled out ([`add`]), without spelling out what it would
/// replace by an alias: a copy's type is in its original's class (their shapes differ only in
/// names of the same classes), whose kept type is the least name of originals and copies. A
/// copy's definition is written only where it is the kept type (or no candidate), its impls
/// only where their type is kept. `Err` with the items when a copy cannot be renamed exactly or
/// types must be pinned: the caller spells the copies out.
pub(super) fn shared(
    items: Vec<syn::Item>,
    copies: &[Copied],
    fixed: &BTreeSet<String>,
) -> Result<Vec<syn::Item>, Vec<syn::Item>> {
    if copies.is_empty() {
        return Ok(super::share::share(items, fixed));
    }
    let by_name: BTreeMap<String, Range<usize>> = groups(&items).into_iter().collect();
    if !all_renamable(&items, &by_name, copies) {
        return Err(items);
    }
    let Some(sharing) = super::share::sharing(&items, fixed) else { return Err(items) };
    // Each class's least name, the copies' counted, by the originals' kept type.
    let mut least: BTreeMap<&str, &str> = sharing.kept.values().map(|k| (k.as_str(), k.as_str())).collect();
    for copy in copies {
        for (name, renamed) in &copy.renames {
            if let Some(l) = sharing.kept.get(name).and_then(|k| least.get_mut(k.as_str()))
                && renamed.as_str() < *l
            {
                *l = renamed;
            }
        }
    }
    let mut kept: BTreeMap<String, String> =
        sharing.kept.iter().map(|(name, k)| (name.clone(), least[k.as_str()].to_owned())).collect();
    for copy in copies {
        for (name, renamed) in &copy.renames {
            if let Some(k) = sharing.kept.get(name) {
                kept.insert(renamed.clone(), least[k.as_str()].to_owned());
            }
        }
    }
    let mut added: Vec<(String, Vec<syn::Item>)> = Vec::new();
    for copy in copies {
        let mut renamer = Renamer::new(&copy.renames);
        for (name, renamed) in &copy.renames {
            let mut group = Vec::new();
            for i in by_name[name].clone() {
                if sharing.defs.get(name) == Some(&i) && kept[renamed] != *renamed {
                    let mut docs: Vec<syn::Attribute> = match &items[i] {
                        syn::Item::Struct(s) => s.attrs.clone(),
                        syn::Item::Enum(e) => e.attrs.clone(),
                        _ => Vec::new(),
                    };
                    docs.retain(|a| a.path().is_ident("doc"));
                    docs.iter_mut().for_each(|a| renamer.visit_attribute_mut(a));
                    group.push(super::share::alias_with(docs, renamed, &kept[renamed]));
                    continue;
                }
                if let Some(owner) = sharing.owners.get(&i) {
                    let owner = copy.renames.get(owner).unwrap_or(owner);
                    if kept.get(owner).is_some_and(|k| k != owner) {
                        continue;
                    }
                }
                let mut item = items[i].clone();
                renamer.visit_item_mut(&mut item);
                group.push(item);
            }
            added.push((renamed.clone(), group));
        }
    }
    let mut items = super::share::apply(items, &sharing, &kept);
    let applied = groups(&items);
    merge(&mut items, &applied, added);
    Ok(items)
}

/// `added` groups merged into `items` (whose groups are `groups`) by name, as typify orders them.
fn merge(items: &mut Vec<syn::Item>, groups: &[(String, Range<usize>)], mut added: Vec<(String, Vec<syn::Item>)>) {
    added.sort_by(|a, b| a.0.cmp(&b.0));
    let (first, end) = (groups.first().map_or(0, |g| g.1.start), groups.last().map_or(0, |g| g.1.end));
    let tail = items.split_off(end);
    let mut existing = items.drain(first..).collect::<Vec<_>>().into_iter();
    let mut added = added.into_iter().peekable();
    for (name, range) in groups {
        while let Some((_, group)) = added.next_if(|(a, _)| a.as_str() < name.as_str()) {
            items.extend(group);
        }
        items.extend(existing.by_ref().take(range.len()));
    }
    items.extend(added.flat_map(|(_, group)| group));
    items.extend(tail);
}

/// Each type's items in typify's output, in order: its definition (or the alias share wrote in
/// its place) and the impls after it, up to the next definition or module.
fn groups(items: &[syn::Item]) -> Vec<(String, Range<usize>)> {
    let mut groups: Vec<(String, Range<usize>)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let name = match item {
            syn::Item::Struct(s) => s.ident.to_string(),
            syn::Item::Enum(e) => e.ident.to_string(),
            // An alias share wrote in place of a definition.
            syn::Item::Type(t) => t.ident.to_string(),
            syn::Item::Mod(_) => break,
            _ => {
                if let Some(last) = groups.last_mut() {
                    last.1.end = i + 1;
                }
                continue;
            }
        };
        groups.push((name, i..i + 1));
    }
    groups
}

/// Whether every copy's original is [`renamable`], each original asked once.
fn all_renamable(items: &[syn::Item], groups: &BTreeMap<String, Range<usize>>, copies: &[Copied]) -> bool {
    let mut asked = BTreeSet::new();
    copies.iter().filter(|copy| asked.insert(copy.of.as_str())).all(|copy| renamable(items, groups, copy))
}

/// Whether the original's items hold its name (or its snake_case form) only where the renaming
/// changes it: an identifier that is one of its types' names, or a doc that is only such a
/// name (typify's doc for a type without a description); and no variant or field is so named.
fn renamable(items: &[syn::Item], groups: &BTreeMap<String, Range<usize>>, copy: &Copied) -> bool {
    let snake = copy.of.to_snake_case();
    let docs: BTreeSet<String> = copy.renames.keys().map(|n| format!("\"`{n}`\"")).collect();
    let holds = |text: &str| text.contains(copy.of.as_str()) || text.contains(snake.as_str());
    copy.renames.keys().all(|name| {
        let Some(range) = groups.get(name) else { return false };
        items[range.clone()].iter().all(|item| {
            let members_named = match item {
                syn::Item::Enum(e) => e.variants.iter().any(|v| copy.renames.contains_key(&v.ident.to_string())),
                syn::Item::Struct(s) => {
                    s.fields.iter().any(|f| f.ident.as_ref().is_some_and(|i| copy.renames.contains_key(&i.to_string())))
                }
                _ => false,
            };
            !members_named && tokens_renamable(item.to_token_stream(), &copy.renames, &docs, &holds)
        })
    })
}

fn tokens_renamable(
    tokens: TokenStream,
    renames: &BTreeMap<String, String>,
    docs: &BTreeSet<String>,
    holds: &impl Fn(&str) -> bool,
) -> bool {
    tokens.into_iter().all(|tree| match tree {
        TokenTree::Group(g) => tokens_renamable(g.stream(), renames, docs, holds),
        TokenTree::Ident(i) => {
            let text = i.to_string();
            !holds(&text) || renames.contains_key(&text)
        }
        TokenTree::Literal(l) => {
            let text = l.to_string();
            !holds(&text) || docs.contains(&text)
        }
        TokenTree::Punct(_) => true,
    })
}

/// Renames an original's types to a copy's: identifiers everywhere (attribute arguments too),
/// and a doc that is only a type's name.
struct Renamer<'a> {
    renames: &'a BTreeMap<String, String>,
    docs: BTreeMap<String, String>,
}

impl<'a> Renamer<'a> {
    fn new(renames: &'a BTreeMap<String, String>) -> Renamer<'a> {
        let docs = renames.iter().map(|(from, to)| (format!("`{from}`"), format!("`{to}`"))).collect();
        Renamer { renames, docs }
    }
}

impl VisitMut for Renamer<'_> {
    fn visit_ident_mut(&mut self, i: &mut proc_macro2::Ident) {
        if let Some(to) = self.renames.get(&i.to_string()) {
            *i = proc_macro2::Ident::new(to, i.span());
        }
    }

    fn visit_lit_str_mut(&mut self, l: &mut syn::LitStr) {
        if let Some(to) = self.docs.get(&l.value()) {
            *l = syn::LitStr::new(to, l.span());
        }
    }

    fn visit_meta_list_mut(&mut self, m: &mut syn::MetaList) {
        m.tokens = rename_tokens(std::mem::take(&mut m.tokens), self.renames);
        syn::visit_mut::visit_meta_list_mut(self, m);
    }

    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        m.tokens = rename_tokens(std::mem::take(&mut m.tokens), self.renames);
        syn::visit_mut::visit_macro_mut(self, m);
    }
}

#[cfg(test)]
mod tests {
    use super::{plain, stable};

    #[test]
    fn only_names_pascal_case_keeps_are_renamed() {
        assert!(stable("ArchiveG10Input"));
        assert!(stable("GetA"));
        assert!(!stable("HTTPGet"), "PascalCase makes it HttpGet");
        assert!(!stable("Self"));
        assert!(!stable("get_input"));
    }

    #[test]
    fn a_title_or_a_default_keeps_a_schema_from_being_copied_a_property_so_named_does_not() {
        let none = std::collections::BTreeSet::new();
        assert!(plain(
            &serde_json::json!({ "type": "object", "properties": { "title": { "type": "string" } } }),
            &none
        ));
        assert!(!plain(&serde_json::json!({ "type": "object", "properties": { "a": { "title": "A" } } }), &none));
        assert!(!plain(&serde_json::json!({ "items": [{ "default": 1 }] }), &none));
        // A shared type that holds a default, itself or through one it names, is no plain reference.
        let definitions = [
            ("Action".to_owned(), serde_json::json!({ "properties": { "status": { "default": "on" } } })),
            ("Wrapper".to_owned(), serde_json::json!({ "allOf": [{ "$ref": "#/types/Action" }] })),
            ("Other".to_owned(), serde_json::json!({ "type": "string" })),
        ];
        let firsts = super::Firsts::new(&definitions);
        let merging =
            |to: &str| serde_json::json!({ "allOf": [{ "$ref": format!("#/types/{to}") }, { "type": "object" }] });
        assert!(!plain(&merging("Action"), &firsts.defaulted));
        assert!(!plain(&merging("Wrapper"), &firsts.defaulted));
        assert!(plain(&merging("Other"), &firsts.defaulted));
    }
}
