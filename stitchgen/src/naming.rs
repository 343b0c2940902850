//! Names derived from a contract: tool names (DESIGN §3.3) and Rust identifiers.

use std::collections::{BTreeMap, BTreeSet};

use heck::{ToSnakeCase, ToUpperCamelCase};

/// The longest tool name MCP clients and function-calling providers all accept.
pub const MAX_TOOL_NAME: usize = 64;

/// Last segments that read the same in singular and plural.
const UNCHANGED: &[&str] = &["analytics", "status", "stats", "settings", "media", "progress", "news"];

/// The tool name derived from a service and an action, or `None` when the service has no
/// letter or digit to name the tool after.
pub fn derive_tool_name(service: &str, action: &str) -> Option<String> {
    let svc = replace_outside(service, |c| c.is_ascii_alphanumeric() || c == '_');
    if !svc.chars().any(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let singular = singularize_last_segment(&svc);
    let m = replace_outside(action, |c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    Some(match m.as_str() {
        "list" => format!("list_{svc}"),
        "get" | "create" | "update" | "delete" => format!("{m}_{singular}"),
        _ => {
            let name = format!("{}_{singular}", snake(&m));
            name.strip_prefix('_').map(str::to_owned).unwrap_or(name)
        }
    })
}

fn replace_outside(s: &str, keep: impl Fn(char) -> bool) -> String {
    s.chars().map(|c| if keep(c) { c } else { '_' }).collect()
}

fn singularize_last_segment(svc: &str) -> String {
    let (head, last) = match svc.rfind('_') {
        Some(i) => svc.split_at(i + 1),
        None => ("", svc),
    };
    let lower = last.to_ascii_lowercase();
    let last = if UNCHANGED.contains(&lower.as_str()) {
        last.to_owned()
    } else if let Some(stem) = last.strip_suffix("ies") {
        format!("{stem}y")
    } else if last.ends_with('s') && !last.ends_with("ss") {
        last[..last.len() - 1].to_owned()
    } else {
        last.to_owned()
    };
    format!("{head}{last}")
}

/// snake_case, keeping a leading underscore so `_x` and `x` stay distinct.
fn snake(s: &str) -> String {
    let lead = if s.starts_with('_') { "_" } else { "" };
    format!("{lead}{}", s.to_snake_case())
}

/// Whether a tool name is portable: `^[A-Za-z0-9_-]{1,64}$`.
pub fn is_portable_tool_name(name: &str) -> bool {
    (1..=MAX_TOOL_NAME).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A snake_case Rust identifier (module, function) for `name`, or `None` when there is none.
pub fn snake_ident(name: &str) -> Option<String> {
    ident(name.to_snake_case())
}

/// An UpperCamelCase Rust identifier (type) for `name`, or `None` when there is none.
pub fn type_ident(name: &str) -> Option<String> {
    ident(name.to_upper_camel_case())
}

/// Whether `name` can name an OpenAPI component: `^[a-zA-Z0-9.\-_]+$` (the Components Object).
/// Shared types are emitted as components and referred to by name, so their names must be.
pub fn is_component_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

/// Names that are no identifier at all (the keywords that cannot be raw, `self` and the like,
/// are written with a `_` suffix where they are used).
const NOT_RAW: &[&str] = &["_"];

/// Module names the generated service module uses itself.
pub const RESERVED_MODULES: &[&str] = &["types"];

fn ident(s: String) -> Option<String> {
    let mut chars = s.chars();
    let first = chars.next()?;
    let ok = (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !NOT_RAW.contains(&s.as_str());
    ok.then_some(s)
}

/// The Rust field name typify gives a JSON property: snake_case of the name with every
/// character that cannot continue an identifier made a word break, `x`-prefixed where it cannot
/// start one, `_`-suffixed where it is a keyword (typify-impl `util::sanitize`).
pub fn field_ident(wire: &str) -> String {
    let out = match wire {
        "+1" => "plus1".to_owned(),
        "-1" => "minus1".to_owned(),
        _ => {
            let words: String = wire
                .chars()
                .filter(|c| *c != '\'')
                .map(|c| if unicode_ident::is_xid_continue(c) { c } else { '-' })
                .collect();
            words.to_snake_case()
        }
    };
    let out = match out.chars().next() {
        None => "x".to_owned(),
        Some(c) if unicode_ident::is_xid_start(c) => out,
        Some(_) => format!("x{out}"),
    };
    if syn::parse_str::<syn::Ident>(&out).is_ok() { out } else { format!("{out}_") }
}

/// The Rust field name of each of an object's properties. typify orders fields by property
/// name; a later one whose [`field_ident`] another already has gets a `_2`, `_3`, … suffix
/// (`EndTime` and `EndTime<` are `end_time` and `end_time_2`). Returns (property, field) pairs
/// in field order.
pub fn unique_fields<'a>(wire: impl IntoIterator<Item = &'a str>) -> Vec<(&'a str, String)> {
    let mut wire: Vec<&str> = wire.into_iter().collect();
    wire.sort_unstable();
    wire.dedup();
    let fields = dedup_idents(wire.iter().map(|w| field_ident(w)).collect());
    wire.into_iter().zip(fields).collect()
}

/// The Rust names of one operation, unique within its service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpIdent {
    /// snake_case: the handler method and the operation module (`get_user`, `get_user_2`).
    pub snake: String,
    /// UpperCamelCase: the prefix of its schema types (`GetUser`, `GetUser2`).
    pub camel: String,
    /// Why it has a suffix, when it has one.
    pub renamed: Option<Renamed>,
}

/// Why a generated name has a suffix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Renamed {
    /// The name at this index, earlier in the same scope, has the unsuffixed form.
    After(usize),
    /// The unsuffixed form names something the generated code defines itself.
    Reserved,
    /// The unsuffixed form would make a type named like this shared type.
    SharedType(String),
}

/// The Rust name of a success status's answer: its reason phrase (RFC 9110), `Status299` for a
/// status without one.
pub fn status_variant(status: u16) -> String {
    let phrase = match status {
        200 => "Ok",
        201 => "Created",
        202 => "Accepted",
        203 => "NonAuthoritativeInformation",
        204 => "NoContent",
        205 => "ResetContent",
        206 => "PartialContent",
        207 => "MultiStatus",
        208 => "AlreadyReported",
        226 => "ImUsed",
        _ => return format!("Status{status}"),
    };
    phrase.to_owned()
}

/// The Rust names of a service's operations, in order (endpoints, then runtime tools), each
/// given as its action and the roles in which it has a schema of its own (`Input`, `Output`, …,
/// the endpoint types `{Prefix}{Role}`). A later action whose snake_case form an earlier one has,
/// or that is a module name the generated code uses itself (`types`), gets a `_2`, `_3`, …
/// suffix, and its UpperCamelCase prefix follows from that; a prefix that would make a type named
/// like a `shared` one gets a `2`, `3`, … suffix of its own. `None` where an action has no
/// identifier form at all.
pub fn operation_idents(ops: &[(&str, Vec<&str>)], shared: &BTreeSet<String>) -> Vec<Option<OpIdent>> {
    let mut snakes: BTreeMap<String, Renamed> =
        RESERVED_MODULES.iter().map(|m| ((*m).to_owned(), Renamed::Reserved)).collect();
    let mut camels: BTreeMap<String, Renamed> = BTreeMap::new();
    let mut out = Vec::with_capacity(ops.len());
    for (i, (action, roles)) in ops.iter().enumerate() {
        let Some(base) = snake_ident(action) else {
            out.push(None);
            continue;
        };
        let (snake, renamed) = unique(&base, &snakes, "_");
        snakes.insert(snake.clone(), Renamed::After(i));
        let camel_base = type_ident(&snake).unwrap_or_default();
        // The first prefix no earlier operation has and that names no shared type in any role.
        let shared_type = |prefix: &str| roles.iter().map(|r| format!("{prefix}{r}")).find(|t| shared.contains(t));
        let why = |prefix: &str| camels.get(prefix).cloned().or_else(|| shared_type(prefix).map(Renamed::SharedType));
        let first_why = why(&camel_base);
        let camel = std::iter::once(camel_base.clone())
            .chain((2..).map(|n| format!("{camel_base}{n}")))
            .find(|p| why(p).is_none())
            .expect("an unbounded range has a free name");
        camels.insert(camel.clone(), Renamed::After(i));
        out.push(Some(OpIdent { snake, camel, renamed: renamed.or(first_why) }));
    }
    out
}

/// The Rust module of each service given together, in order: snake_case, a later service whose
/// module an earlier one has getting a `_2`, `_3`, … suffix, and why. `None` where a name has no
/// identifier form.
pub fn service_modules(services: &[&str]) -> Vec<Option<(String, Option<Renamed>)>> {
    let mut taken: BTreeMap<String, Renamed> = BTreeMap::new();
    let mut out = Vec::with_capacity(services.len());
    for (i, service) in services.iter().enumerate() {
        out.push(snake_ident(service).map(|base| {
            let (module, renamed) = unique(&base, &taken, "_");
            taken.insert(module.clone(), Renamed::After(i));
            (module, renamed)
        }));
    }
    out
}

/// The Rust name of each shared type of one contract, in order: UpperCamelCase, a later type
/// whose name an earlier one has getting a `2`, `3`, … suffix, and why. `None` where a name has no
/// identifier form, or is `Self`.
pub fn type_names(types: &[&str]) -> Vec<Option<(String, Option<Renamed>)>> {
    let mut taken: BTreeMap<String, Renamed> = BTreeMap::new();
    let mut out = Vec::with_capacity(types.len());
    for (i, name) in types.iter().enumerate() {
        out.push(type_ident(name).filter(|t| t != "Self").map(|base| {
            let (rust, renamed) = unique(&base, &taken, "");
            taken.insert(rust.clone(), Renamed::After(i));
            (rust, renamed)
        }));
    }
    out
}

/// `base` when `taken` lacks it; else the first of `{base}{sep}2`, `{base}{sep}3`, … it lacks,
/// and why `base` was taken.
fn unique(base: &str, taken: &BTreeMap<String, Renamed>, sep: &str) -> (String, Option<Renamed>) {
    match taken.get(base) {
        None => (base.to_owned(), None),
        Some(why) => {
            let free = (2..).map(|n| format!("{base}{sep}{n}")).find(|n| !taken.contains_key(n));
            (free.expect("an unbounded range has a free name"), Some(why.clone()))
        }
    }
}

/// `idents` with a `_2`, `_3`, … suffix on each repeat of an earlier one, so all are distinct.
pub fn dedup_idents(idents: Vec<String>) -> Vec<String> {
    let mut taken: BTreeMap<String, Renamed> = BTreeMap::new();
    let mut out = Vec::with_capacity(idents.len());
    for (i, ident) in idents.iter().enumerate() {
        let (name, _) = unique(ident, &taken, "_");
        taken.insert(name.clone(), Renamed::After(i));
        out.push(name);
    }
    out
}

/// The known name closest to `name`, when it is close enough to be a typo.
pub(crate) fn closest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (strsim::jaro_winkler(&name.to_lowercase(), &k.to_lowercase()), *k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn design_examples() {
        assert_eq!(derive_tool_name("users", "create").as_deref(), Some("create_user"));
        assert_eq!(derive_tool_name("users", "list").as_deref(), Some("list_users"));
        assert_eq!(derive_tool_name("bot-status", "get").as_deref(), Some("get_bot_status"));
        assert_eq!(derive_tool_name("users", "updatePartial").as_deref(), Some("update_partial_user"));
    }

    #[test]
    fn field_names_as_typify_makes_them_and_unique() {
        assert_eq!(field_ident("EndTime"), "end_time");
        assert_eq!(field_ident("EndTime<"), "end_time");
        assert_eq!(field_ident("type"), "type_");
        assert_eq!(field_ident("0day"), "x0day");
        assert_eq!(field_ident("+1"), "plus1");
        let fields = unique_fields(["EndTime<", "EndTime", "end_time_2"]);
        assert_eq!(
            fields,
            [
                ("EndTime", "end_time".to_owned()),
                ("EndTime<", "end_time_2".to_owned()),
                ("end_time_2", "end_time_2_2".to_owned())
            ]
        );
    }

    #[test]
    fn singular_rules() {
        assert_eq!(derive_tool_name("categories", "get").as_deref(), Some("get_category"));
        assert_eq!(derive_tool_name("address", "get").as_deref(), Some("get_address"));
        assert_eq!(derive_tool_name("news", "get").as_deref(), Some("get_news"));
        assert_eq!(derive_tool_name("site_settings", "update").as_deref(), Some("update_site_settings"));
        assert_eq!(derive_tool_name("people", "archive").as_deref(), Some("archive_people"));
        assert_eq!(derive_tool_name("users", "_sync").as_deref(), Some("sync_user"));
        assert_eq!(derive_tool_name("---", "get"), None);
    }

    #[test]
    fn portable_names() {
        assert!(is_portable_tool_name("list_users"));
        assert!(!is_portable_tool_name(""));
        assert!(!is_portable_tool_name("list users"));
        assert!(!is_portable_tool_name(&"x".repeat(65)));
    }

    #[test]
    fn operations_sharing_a_rust_name_get_suffixes_in_order() {
        let ops: Vec<(&str, Vec<&str>)> = ["getUser", "get_user", "types", "self", "2fa", "GetUser", "list"]
            .into_iter()
            .map(|a| (a, vec!["Input", "Output"]))
            .collect();
        let shared = BTreeSet::from(["ListOutput".to_owned(), "SelfParams".to_owned()]);
        let ids = operation_idents(&ops, &shared);
        let names: Vec<Option<(&str, &str, Option<Renamed>)>> =
            ids.iter().map(|o| o.as_ref().map(|o| (o.snake.as_str(), o.camel.as_str(), o.renamed.clone()))).collect();
        assert_eq!(
            names,
            [
                Some(("get_user", "GetUser", None)),
                Some(("get_user_2", "GetUser2", Some(Renamed::After(0)))),
                Some(("types_2", "Types2", Some(Renamed::Reserved))),
                Some(("self", "Self", None)),
                None,
                Some(("get_user_3", "GetUser3", Some(Renamed::After(0)))),
                Some(("list", "List2", Some(Renamed::SharedType("ListOutput".into())))),
            ]
        );
    }

    #[test]
    fn identifiers() {
        assert_eq!(snake_ident("updatePartial").as_deref(), Some("update_partial"));
        assert_eq!(type_ident("user-profile").as_deref(), Some("UserProfile"));
        assert_eq!(snake_ident("123"), None);
        assert_eq!(snake_ident("---"), None);
    }
}
