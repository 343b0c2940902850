//! Every kind of expression laid out here against prettyplease's printing of the same tokens,
//! across the widths where its decisions change.

use super::{Expr, static_item};

/// `e` on one line, as Rust source.
fn flat(e: &Expr) -> String {
    let list = |v: &[Expr]| v.iter().map(flat).collect::<Vec<_>>().join(", ");
    match e {
        Expr::Word(w) | Expr::Int(w) => w.clone(),
        Expr::Call(f, args) => format!("{f}({})", list(args)),
        Expr::Struct(path, fields, rest) => {
            let mut parts: Vec<String> = fields.iter().map(|(n, v)| format!("{n}: {}", flat(v))).collect();
            parts.extend(rest.map(|r| format!("..{r}")));
            format!("{path} {{ {} }}", parts.join(", "))
        }
        Expr::Array(v) => format!("[{}]", list(v)),
        Expr::Ref(e) => format!("&{}", flat(e)),
        Expr::Tuple(v) if v.len() == 1 => format!("({},)", flat(&v[0])),
        Expr::Tuple(v) => format!("({})", list(v)),
    }
}

/// What prettyplease prints for the static inside `depth` modules, those modules' lines removed.
fn printed(depth: usize, value: &Expr) -> String {
    let mut src = format!("/// Doc.\npub static X: ::a::T = {};", flat(value));
    for d in 0..depth {
        src = format!("pub mod m{d} {{ {src} }}");
    }
    let file: syn::File = syn::parse_str(&src).expect("the flat text parses");
    let text = prettyplease::unparse(&file);
    let lines: Vec<&str> = text.lines().collect();
    lines[depth..lines.len() - depth].iter().map(|l| format!("{l}\n")).collect()
}

#[track_caller]
fn same(depth: usize, value: &Expr) {
    assert_eq!(static_item(depth, " Doc.", "X", "::a::T", value), printed(depth, value), "{}", flat(value));
}

/// A string literal `n` bytes long with its quotes.
fn lit(n: usize) -> Expr {
    Expr::str(&"x".repeat(n.saturating_sub(2)))
}

fn def(fields: Vec<(&'static str, Expr)>) -> Expr {
    Expr::Struct("::rt::Def", fields, Some("::rt::Def::EMPTY"))
}

#[test]
fn words_calls_and_options_at_every_width() {
    for n in 0..110 {
        same(2, &lit(n));
        same(2, &Expr::some(lit(n)));
        same(1, &Expr::Call("::rt::Pair", vec![lit(n), Expr::word("::rt::B")]));
        same(2, &def(vec![("name", lit(n)), ("other", Expr::some(lit(n / 2)))]));
        same(3, &def(vec![("description", Expr::some(lit(n)))]));
    }
}

#[test]
fn arrays_break_one_element_a_line() {
    for n in 0..40 {
        let strings: Vec<Expr> = (0..n % 7).map(|i| lit(n + i)).collect();
        same(2, &Expr::slice(strings.clone()));
        same(2, &def(vec![("values", Expr::slice(strings.clone())), ("required", Expr::bool(true))]));
        let ints: Vec<Expr> = (0..n).map(|i| Expr::int(i * 37, "u16")).collect();
        same(2, &def(vec![("statuses", Expr::slice(ints))]));
        same(2, &Expr::slice(vec![]));
    }
}

#[test]
fn structs_nest_and_break_past_their_width() {
    for n in 0..60 {
        let small = Expr::Struct("::rt::S", vec![("a", lit(n % 20)), ("b", Expr::bool(false))], None);
        same(2, &small);
        same(2, &Expr::some(small.clone()));
        same(2, &def(vec![("inner", Expr::some(small.clone())), ("list", Expr::slice(vec![small.clone(), small]))]));
        let empty = Expr::Struct("::rt::Empty", vec![], Some("::rt::Empty::EMPTY"));
        same(2, &def(vec![("view", Expr::some(empty)), ("name", lit(n))]));
    }
}

#[test]
fn tuples_and_calls_of_references() {
    for n in 0..60 {
        let pair = |k: usize| Expr::Tuple(vec![lit(k), Expr::word("::rt::Plan::Keep")]);
        let object = Expr::Call("::rt::Plan::Object", vec![Expr::slice(vec![pair(n), pair(n / 3)])]);
        same(2, &object);
        same(2, &Expr::Call("::rt::Plan::Array", vec![Expr::Ref(Box::new(object.clone()))]));
        same(2, &Expr::Tuple(vec![lit(n)]));
        same(2, &Expr::Tuple(vec![]));
        same(2, &Expr::Call("::rt::f", vec![]));
        same(2, &Expr::Call("::rt::f", vec![Expr::Tuple(vec![lit(n), lit(n)])]));
    }
}

#[test]
fn text_that_is_not_ascii_is_measured_in_bytes() {
    for n in 0..40 {
        let text = "é".repeat(n);
        same(2, &def(vec![("description", Expr::str(&text)), ("name", Expr::some(Expr::str(&text)))]));
    }
}
