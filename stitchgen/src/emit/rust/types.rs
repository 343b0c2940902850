//! Rust types for a service's schemas through typify, every path routed through the runtime.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use serde_json::Value;
use typify::{TypeSpace, TypeSpaceSettings};

use super::copies;
use crate::model::Service;

/// The type space of a service's schemas, and the Rust type of each operation schema by name.
pub struct Types {
    space: TypeSpace,
    /// `ListInput` → the type as named from an operation module that imports `super::types`,
    /// as source text (tokens cannot leave the thread that made them).
    pub paths: BTreeMap<String, String>,
    /// The shared types' Rust names: their definitions are never replaced by an alias.
    fixed: BTreeSet<String>,
    /// The schemas typify was not given, each a copy of one it was.
    pub(super) copies: Vec<copies::Copied>,
}

impl Types {
    /// Items of the `types` module, as a syntax tree: the module is printed from it directly,
    /// never quoted back into tokens and parsed again. The type space is dropped once printed
    /// into tokens, before they are parsed: it holds a copy of every type's schema, the largest
    /// value of a generation (369 of 592 MB at 5,000 endpoints, alive beside the tree).
    pub fn items(self) -> Result<Vec<syn::Item>, String> {
        self.items_copied()?.ok_or_else(|| "a copy's items could not be renamed".to_owned())
    }

    /// [`Types::items`], or `None` when an original's items cannot be renamed exactly into its
    /// copies' (typify must then translate every schema).
    pub(super) fn items_copied(self) -> Result<Option<Vec<syn::Item>>, String> {
        let Types { space, fixed, copies, .. } = self;
        let tokens = guarded(|| Ok(space.to_stream()))?;
        drop(space);
        let items = each_item(tokens).map_err(|e| format!("typify's output does not parse: {e}"))?;
        let mut items = match copies::shared(items, &copies, &fixed) {
            Ok(items) => items,
            // The copies spelled out, and shared as any items are.
            Err(mut items) => {
                if !copies::add(&mut items, &copies) {
                    return Ok(None);
                }
                super::share::share(items, &fixed)
            }
        };
        drop_unused_default_helpers(&mut items);
        Ok(Some(items))
    }

    /// Items of the `types` module, or the schema typify failed to print.
    pub fn items_of(mut self, svc: &Service, named: &[(String, &Value)]) -> Result<Vec<syn::Item>, Untranslatable> {
        let untranslatable = |why| Untranslatable { origin: culprit(svc, named), why };
        let paths = std::mem::take(&mut self.paths);
        match self.items_copied() {
            Ok(Some(items)) => Ok(items),
            Ok(None) => {
                let every = guarded(|| generate_types(svc, named, false)).map_err(untranslatable)?;
                // The operation modules were written with the copies' paths already.
                if every.paths != paths {
                    let why = "a copied schema's type differs from typify's".to_owned();
                    return Err(Untranslatable { origin: Origin::Service, why });
                }
                every.items().map_err(untranslatable)
            }
            Err(why) => Err(untranslatable(why)),
        }
    }
}

/// typify's items, each parsed on its own: parsing the stream whole makes syn copy every token
/// of it into one cursor buffer first, the largest allocation of a large generation after the
/// type space. An item ends at a `;` or at a brace group no `;` follows. The stream is consumed
/// as it is read, so each item's tokens are freed once it is parsed; when a piece cut so is not
/// one item, the stream is put back together (the items read so far, the piece, the rest) and
/// parsed whole, its error reported from there.
fn each_item(tokens: TokenStream) -> syn::Result<Vec<syn::Item>> {
    use proc_macro2::{Delimiter, TokenTree};
    let semicolon = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == ';');
    let mut items = Vec::new();
    let mut piece = Vec::new();
    let mut trees = tokens.into_iter().peekable();
    while let Some(tree) = trees.next() {
        let ends = match &tree {
            TokenTree::Group(g) => g.delimiter() == Delimiter::Brace && !semicolon(trees.peek()),
            other => semicolon(Some(other)),
        };
        piece.push(tree);
        if ends {
            let stream: TokenStream = piece.drain(..).collect();
            match syn::parse2::<syn::Item>(stream.clone()) {
                Ok(item) => items.push(item),
                Err(_) => return whole(items, stream.into_iter().chain(trees)),
            }
        }
    }
    if piece.is_empty() { Ok(items) } else { whole(items, piece) }
}

/// `items` followed by `rest`, parsed as one file.
fn whole(items: Vec<syn::Item>, rest: impl IntoIterator<Item = proc_macro2::TokenTree>) -> syn::Result<Vec<syn::Item>> {
    let mut stream = quote::quote!(#(#items)*);
    stream.extend(rest);
    syn::parse2::<syn::File>(stream).map(|f| f.items)
}

/// The type generator's version, as diagnostics name it (a test holds it to `Cargo.lock`).
pub(crate) const TYPIFY_VERSION: &str = "0.8.0";

/// typify (0.6.2 through 0.8.0) registers its `default_i64` helper for every non-zero float default and then
/// writes that default as a function of its own (typify-impl `defaults.rs`), so the helper can
/// go unused and `deny(warnings)` refuses the dead code. Helpers of `mod defaults` that nothing
/// names are removed. typify names them in paths (`defaults::x()`) and in the string of a
/// `#[serde(default = "defaults::x")]`: both are read off the tree, not off a printed module.
fn drop_unused_default_helpers(items: &mut [syn::Item]) {
    let helpers = items.iter().filter_map(defaults).flatten().filter_map(|i| match i {
        syn::Item::Fn(f) => Some((f.sig.ident.to_string(), 0)),
        _ => None,
    });
    let mut names = Names { helpers: helpers.collect(), texts: Vec::new() };
    if names.helpers.is_empty() {
        return;
    }
    for item in items.iter() {
        syn::visit::visit_item(&mut names, item);
    }
    for item in items.iter_mut() {
        if let syn::Item::Mod(m) = item
            && m.ident == "defaults"
            && let Some((_, items)) = &mut m.content
        {
            items.retain(|i| match i {
                syn::Item::Fn(f) => names.used(&f.sig.ident.to_string()),
                _ => true,
            });
        }
    }
}

/// The items of typify's `mod defaults`, if `item` is it.
fn defaults(item: &syn::Item) -> Option<&Vec<syn::Item>> {
    match item {
        syn::Item::Mod(m) if m.ident == "defaults" => m.content.as_ref().map(|(_, items)| items),
        _ => None,
    }
}

/// How often each default helper's name occurs as an identifier of a tree (its definition
/// included), and the text of the string literals that name a helper (inside `#[serde(...)]`,
/// which syn leaves as tokens). Only the helpers' names are counted: a large module has
/// millions of identifiers.
struct Names {
    helpers: Vec<(String, usize)>,
    texts: Vec<String>,
}

impl Names {
    /// Named somewhere besides its own definition.
    fn used(&self, name: &str) -> bool {
        self.helpers.iter().any(|(h, n)| h == name && *n > 1) || self.texts.iter().any(|t| t.contains(name))
    }

    fn count(&mut self, ident: &proc_macro2::Ident) {
        if let Some((_, n)) = self.helpers.iter_mut().find(|(h, _)| ident == h) {
            *n += 1;
        }
    }

    fn tokens(&mut self, tokens: TokenStream) {
        for tree in tokens {
            match tree {
                proc_macro2::TokenTree::Group(g) => self.tokens(g.stream()),
                proc_macro2::TokenTree::Ident(i) => self.count(&i),
                proc_macro2::TokenTree::Literal(l) => {
                    let text = l.to_string();
                    if text.contains("defaults::") {
                        self.texts.push(text);
                    }
                }
                proc_macro2::TokenTree::Punct(_) => {}
            }
        }
    }
}

impl<'ast> syn::visit::Visit<'ast> for Names {
    fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
        self.count(i);
    }

    fn visit_lit_str(&mut self, l: &'ast syn::LitStr) {
        let text = l.value();
        if text.contains("defaults::") {
            self.texts.push(text);
        }
    }

    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        // Attribute arguments are tokens: `#[serde(default = "defaults::x")]`.
        if let syn::Meta::List(list) = &a.meta {
            self.tokens(list.tokens.clone());
        }
        syn::visit::visit_attribute(self, a);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
        syn::visit::visit_macro(self, m);
    }
}

/// The JSON Schema typify reads (draft 7 through schemars 0.8): contract references point at
/// definitions by their last segment, which is what typify resolves.
fn schemars(v: Value) -> schemars08::schema::Schema {
    serde_json::from_value(v).expect("a checked contract schema is a JSON Schema")
}

/// Builds the type space: shared types first (they may refer to each other), then every named
/// operation schema. When typify fails, the schema it failed on is found by translating each one
/// alone (every other shared type standing in as any value), so the error can point at it.
pub fn generate(svc: &Service, named: &[(String, &Value)]) -> Result<Types, Untranslatable> {
    guarded(|| generate_types(svc, named, true)).map_err(|why| Untranslatable { origin: culprit(svc, named), why })
}

/// [`generate`] with every schema translated by typify, none copied ([`super::copies`]).
#[cfg(test)]
pub(super) fn generate_every(svc: &Service, named: &[(String, &Value)]) -> Result<Types, String> {
    guarded(|| generate_types(svc, named, false))
}

/// A schema typify could not translate, and what it said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Untranslatable {
    /// Where the schema is written.
    pub origin: Origin,
    /// typify's error or panic message.
    pub why: String,
}

/// Where a schema given to typify is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A shared type, by its key in `types`.
    Type(String),
    /// An operation schema: the operation's action and the schema's role (`Input`).
    Operation {
        /// The action, as written.
        action: String,
        /// `Params`, `Input`, `Output`, `ToolAnswer`, `Item`, `Terminal`, or another success's
        /// status as its answer is named (`Accepted`).
        role: String,
    },
    /// No one schema fails alone: typify failed on how several combine.
    Service,
}

/// The one schema whose translation fails alone, or [`Origin::Service`]. Found by halving: a
/// contract of T types and N operation schemas costs a number of translations logarithmic in
/// T and N (each the size of the contract), not one per type (which took Cloudflare's
/// description past fifteen minutes).
fn culprit(svc: &Service, named: &[(String, &Value)]) -> Origin {
    // The service with every type but `only` stubbed as any value: references still resolve.
    let keep = |only: &[&String]| -> Service {
        let mut svc = svc.clone();
        for (name, schema) in svc.types.iter_mut() {
            if !only.contains(&name) {
                *schema = serde_json::json!({});
            }
        }
        svc
    };
    let fails = |svc: &Service, named: &[(String, &Value)]| {
        guarded(|| generate_types(svc, named, false).and_then(|t| t.items().map(drop))).is_err()
    };
    let types: Vec<&String> = svc.types.keys().collect();
    if fails(&keep(&types), &[])
        && let Some(name) = halve(&types, |subset| fails(&keep(subset), &[]))
    {
        return Origin::Type(name.clone());
    }
    let bare = keep(&[]);
    let schemas: Vec<usize> = (0..named.len()).collect();
    let pick = |subset: &[usize]| subset.iter().map(|i| named[*i].clone()).collect::<Vec<_>>();
    if fails(&bare, named)
        && let Some(i) = halve(&schemas, |subset| fails(&bare, &pick(subset)))
        && let Some((op, role)) = super::operation_of(svc, &named[i].0)
    {
        return Origin::Operation { action: op.action.clone(), role };
    }
    Origin::Service
}

/// One item of `items` (on which `fails` holds) on which `fails` holds alone, by halving; `None`
/// when the failure needs items of both halves.
fn halve<T: Copy>(items: &[T], fails: impl Fn(&[T]) -> bool) -> Option<T> {
    let mut failing = items;
    while failing.len() > 1 {
        let (a, b) = failing.split_at(failing.len() / 2);
        failing = if fails(a) {
            a
        } else if fails(b) {
            b
        } else {
            return None;
        };
    }
    failing.first().copied()
}

/// typify panics on some shapes the schema translation does not avoid yet: a failure to emit is
/// reported, never a crash of the build, and typify's panic message never reaches stderr.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    quiet_panics();
    QUIET.set(true);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.set(false);
    result.unwrap_or_else(|panic| {
        let why =
            panic.downcast_ref::<&str>().map(|s| (*s).to_owned()).or_else(|| panic.downcast_ref::<String>().cloned());
        Err(format!("panicked: {}", why.unwrap_or_else(|| "with no message".into())))
    })
}

thread_local! {
    /// Set while typify runs on this thread: its panics are caught and reported, not printed.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs, once per process, a panic hook that is silent on a thread running typify and
/// defers to the hook installed before it everywhere else.
fn quiet_panics() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.get() {
                previous(info);
            }
        }));
    });
}

/// `type: integer` with no `format` and no `minimum: 0` (which typify makes `u64`), once the
/// bounds the runner validates are gone ([`super::typify_input`]): typify would make it `i64`,
/// which refuses what APIs send past it (DigitalOcean's `9223372036854776000`). The runtime's
/// `Integer` holds any integer JSON carries, inside unions and flattened structs too, where an
/// `i128` cannot be read (serde buffers values there and has no 128-bit integers). Matched
/// whatever the schema's description, title or default (typify compares without them).
fn unbounded_integer() -> schemars08::schema::SchemaObject {
    schemars08::schema::SchemaObject {
        instance_type: Some(schemars08::schema::InstanceType::Integer.into()),
        ..Default::default()
    }
}

/// The traits `Integer` implements that typify asks about (to derive them on types holding it).
fn integer_impls() -> impl Iterator<Item = typify::TypeSpaceImpl> {
    [typify::TypeSpaceImpl::Display, typify::TypeSpaceImpl::FromStr, typify::TypeSpaceImpl::Default].into_iter()
}

/// Builds the type space: shared types first (they may refer to each other), then every named
/// operation schema, or (`copying`) the first of each kind with the others copied from it
/// ([`super::copies`]) where that is exact.
fn generate_types(svc: &Service, named: &[(String, &Value)], copying: bool) -> Result<Types, String> {
    let mut settings = TypeSpaceSettings::default();
    settings.with_struct_builder(false).with_type_mod("types").with_map_type("::std::collections::BTreeMap");
    settings.with_conversion(unbounded_integer(), "::stitchgen_runtime::Integer", integer_impls());
    let mut space = TypeSpace::new(&settings);
    let input = super::typify_input::Input::new(&svc.types, &svc.type_idents);
    let rust = |n: &String| svc.type_idents[n].clone();
    let definitions: Vec<(String, Value)> =
        svc.types.iter().map(|(n, s)| (rust(n), input.named(&rust(n), input.definition(s)))).collect();
    let mut firsts = copies::Firsts::new(&definitions);
    space
        .add_ref_types(definitions.into_iter().map(|(name, schema)| (name, schemars(schema))))
        .map_err(|e| e.to_string())?;
    let mut paths = BTreeMap::new();
    let mut originals = Vec::with_capacity(named.len());
    let mut roots = Vec::with_capacity(named.len());
    for (i, (name, schema)) in named.iter().enumerate() {
        let schema = input.named(name, input.schema(schema));
        let original = if copying { firsts.original(i, name, &schema) } else { None };
        originals.push(original);
        if original.is_some() {
            roots.push(None);
            continue;
        }
        let id = space.add_type_with_name(&schemars(schema), Some(name.clone())).map_err(|e| format!("{name}: {e}"))?;
        let ty = space.get_type(&id).map_err(|e| e.to_string())?;
        paths.insert(name.clone(), ty.ident().to_string());
        roots.push(Some(id));
    }
    let fixed: BTreeSet<String> = svc.type_idents.values().cloned().collect();
    let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
    let Some(copies) = copies::resolve(&space, &fixed, &names, &originals, &roots) else {
        return generate_types(svc, named, false);
    };
    for copy in &copies {
        let original = roots[copy.original].as_ref().ok_or("a copy of a schema not translated")?;
        let ident = space.get_type(original).map_err(|e| e.to_string())?.ident();
        paths.extend([copy.path(ident)]);
    }
    Ok(Types { space, paths, fixed, copies })
}

#[cfg(test)]
mod tests {
    use super::super::named_schemas;
    use super::{TYPIFY_VERSION, each_item, generate, generate_every};

    /// Operations whose schemas are the same but for their names: inline objects, an enum and an
    /// array inside; one whose type would take a name a shared type has; and `odd`, whose
    /// description holds its own schema's name.
    const CONTRACT: &str = r#"stitch: 1
service: demo
types:
  ListOutputPage: { type: object, properties: { n: { type: integer } } }
endpoints:
  get_a: { method: GET, path: /a, desc: A., output: { type: object, required: [id], properties: { id: { type: string }, kind: { type: string, enum: [x, y] }, tags: { type: array, items: { type: object, properties: { t: { type: string } } } } } } }
  get_b: { method: GET, path: /b, desc: B., output: { type: object, required: [id], properties: { id: { type: string }, kind: { type: string, enum: [x, y] }, tags: { type: array, items: { type: object, properties: { t: { type: string } } } } } } }
  get_0: { method: GET, path: /0, desc: Zero., output: { type: object, required: [id], properties: { id: { type: string }, kind: { type: string, enum: [x, y] }, tags: { type: array, items: { type: object, properties: { t: { type: string } } } } } } }
  list: { method: GET, path: /l, desc: L., output: { type: object, properties: { page: { type: object, properties: { n: { type: integer } } } } } }
  show: { method: GET, path: /s, desc: S., output: { type: object, properties: { page: { type: object, properties: { n: { type: integer } } } } } }
"#;

    /// The `types` module printed, and each schema's type as the operation modules name it.
    type Module = (String, Vec<(String, String)>);

    /// The module's `types` items printed, and each schema's type, with and without copies; how
    /// many schemas were copies, and whether their items were renamed (not translated after all).
    fn both(contract: &str) -> ([Module; 2], usize, bool) {
        let checked = crate::check_source("demo.stitch.yaml", contract);
        assert!(!checked.has_errors(), "{:?}", checked.diagnostics);
        let svc = crate::model::lower(&checked.contracts, &checked.sources, &checked.options).services.remove(0);
        let named = named_schemas(&svc);
        let print = |items| prettyplease::unparse(&syn::File { shebang: None, attrs: Vec::new(), items });
        let copied = generate(&svc, &named).expect("typify translates it");
        let copied_paths: Vec<_> = copied.paths.clone().into_iter().collect();
        let count = copied.copies.len();
        let renamed = generate(&svc, &named).expect("typify translates it").items_copied().expect("items").is_some();
        let every = generate_every(&svc, &named).expect("typify translates it");
        let every_paths: Vec<_> = every.paths.clone().into_iter().collect();
        let printed = [
            (print(copied.items_of(&svc, &named).expect("items")), copied_paths),
            (print(every.items().expect("items")), every_paths),
        ];
        (printed, count, renamed)
    }

    #[test]
    fn copies_give_the_items_and_paths_every_schema_translated_gives() {
        let ([copied, every], count, renamed) = both(CONTRACT);
        assert_eq!(copied, every);
        assert_eq!(
            (count, renamed),
            (2, true),
            "get_b's and get_0's outputs are get_a's; list's is titled, so show's is not copied"
        );
        // The copies are there, as aliases of the types they copy.
        // A copy's name is the least of its class (`Get0…` before `GetA…`): it keeps the definition.
        assert!(copied.0.contains("pub type GetBOutput = Get0Output;"), "{}", copied.0);
        assert!(copied.0.contains("pub type GetAOutputTagsItem = Get0OutputTagsItem;"), "{}", copied.0);
        assert!(copied.0.contains("pub type GetBOutputKind = Get0OutputKind;"), "{}", copied.0);
        assert!(copied.0.contains("pub struct Get0Output {"), "{}", copied.0);
    }

    #[test]
    fn an_item_holding_its_schemas_name_elsewhere_is_translated_for_every_copy() {
        let contract = CONTRACT.replacen(
            "kind: { type: string, enum: [x, y] }",
            "kind: { type: string, enum: [x, y], description: See GetAOutput. }",
            3,
        );
        let ([copied, every], count, renamed) = both(&contract);
        assert_eq!(copied, every);
        assert_eq!((count, renamed), (2, false));
        assert!(copied.0.contains("See GetAOutput."), "{}", copied.0);
    }

    #[test]
    fn items_parsed_one_at_a_time_are_the_items_of_the_whole() {
        let tokens: proc_macro2::TokenStream = quote::quote! {
            #[doc = "A record."]
            #[derive(Clone)]
            pub struct A { pub b: i64 }
            pub struct T(pub u8);
            pub enum E { X, Y { z: u8 } }
            impl ::std::convert::From<&A> for A { fn from(v: &A) -> Self { v.clone() } }
            pub type L = ::std::vec::Vec<A>;
            pub const C: A = A { b: 1 };
            pub mod defaults { pub fn one() -> i64 { 1 } }
        };
        let print = |items| prettyplease::unparse(&syn::File { shebang: None, attrs: Vec::new(), items });
        let whole = syn::parse2::<syn::File>(tokens.clone()).unwrap().items;
        let each = each_item(tokens).expect("every piece is one item");
        assert_eq!((each.len(), print(each)), (7, print(whole)));
        // A piece cut wrong is parsed with the rest, whole: the items of the whole.
        let cut_wrong = quote::quote!(
            pub struct A;
            pub const C: u8 = { 1 } + 1;
            pub struct B {}
        );
        let each = each_item(cut_wrong.clone()).expect("the whole parses");
        assert_eq!(print(each), print(syn::parse2::<syn::File>(cut_wrong).unwrap().items));
        // A stream that is not items: the whole's error.
        let error = |r: syn::Result<_>| r.err().map(|e: syn::Error| e.to_string());
        let broken = quote::quote!(pub struct A { } pub struct;);
        let whole = error(syn::parse2::<syn::File>(broken.clone()).map(drop));
        assert_eq!((error(each_item(broken).map(drop)), whole.is_some()), (whole, true));
    }

    #[test]
    fn the_named_typify_version_is_the_locked_one() {
        let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock")).unwrap();
        let entry = format!("name = \"typify\"\nversion = \"{TYPIFY_VERSION}\"");
        assert!(lock.contains(&entry), "Cargo.lock does not lock typify {TYPIFY_VERSION}");
    }

    #[test]
    fn a_panic_in_typify_is_an_error_and_the_next_one_too() {
        for _ in 0..2 {
            let err = super::guarded(|| -> Result<(), String> { panic!("unreachable shape") }).unwrap_err();
            assert!(err.contains("unreachable shape"), "{err}");
        }
        assert!(!super::QUIET.get(), "panics elsewhere print again");
    }
}
