//! The slice check: does a tool view's schema accept every full result? Recursive over objects
//! and arrays, through `$ref`, conservative where undecidable, naming the property that fails.

use std::collections::BTreeSet;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::ast::Schema;
use crate::parse::node::{Node, Value};
use crate::schema::{self, Types};
use crate::source::Span;

/// Why a view schema does not accept every full result.
struct Failure {
    span: Span,
    path: String,
    reason: String,
}

/// Reports the first place where `view` fails to accept every value `full` accepts.
pub(super) fn check(types: Types<'_>, view: &Node, full: &Schema, diags: &mut Diagnostics) {
    let mut seen = BTreeSet::new();
    if let Err(f) = accepts(types, view, &full.0, "output".into(), &mut seen) {
        diags.push(
            Diagnostic::new(Code::SliceNotSatisfiable, f.span, format!("the tool view does not accept every full result at `{}`", f.path))
                .label(f.reason)
                .secondary(full.key(), "full output declared here")
                .note("a view without `project: true` is a slice: its schema must accept every full result, since the answer is copied field by field")
                .help("make the view's schema match the full output here, or add `project: true` and implement the projection"),
        );
    }
}

type Seen = BTreeSet<(usize, usize)>;

fn fail<T>(node: &Node, path: &str, reason: impl Into<String>) -> Result<T, Failure> {
    Err(Failure { span: node.span, path: path.to_owned(), reason: reason.into() })
}

fn accepts(types: Types<'_>, view_in: &Node, full_in: &Node, path: String, seen: &mut Seen) -> Result<(), Failure> {
    let (view, full) = (types.resolve(view_in), types.resolve(full_in));
    // Recursive types: a pair already under comparison is assumed to hold (coinduction).
    if !seen.insert((std::ptr::from_ref(view) as usize, std::ptr::from_ref(full) as usize)) {
        return Ok(());
    }
    match (&view.value, &full.value) {
        (Value::Bool(true), _) | (_, Value::Bool(false)) => return Ok(()),
        (Value::Bool(false), _) => return fail(view_in, &path, "`false` accepts nothing"),
        (Value::Map(_), Value::Bool(true)) => {
            return if constrains(view) {
                fail(view_in, &path, "the full output allows any value here")
            } else {
                Ok(())
            };
        }
        _ => {}
    }
    for combinator in ["oneOf", "anyOf", "allOf"] {
        if view.get(combinator).is_some() || full.get(combinator).is_some() {
            return if view.to_json() == full.to_json() || !constrains(view) {
                Ok(())
            } else {
                fail(view_in, &path, format!("cannot prove that this accepts every full result (`{combinator}`)"))
            };
        }
    }
    types_accept(view, full, &path)?;
    values_accept(view, full, &path)?;
    bounds_accept(view, full, &path)?;
    if let Some(items) = view.get("items") {
        let Some(full_items) = full.get("items") else {
            return fail(items, &format!("{path}.items"), "the full output does not declare its items");
        };
        accepts(types, items, full_items, format!("{path}[]"), seen)?;
    }
    properties_accept(types, view, full, &path, seen)
}

/// Whether a schema constrains its value at all.
fn constrains(node: &Node) -> bool {
    node.as_map().is_some_and(|m| {
        m.iter().any(|(k, _)| !k.as_str().is_some_and(|k| k == "$ref" || crate::schema::ANNOTATIONS.contains(&k)))
    })
}

/// The key node of keyword `kw` in a schema (for pointing at it), or the schema itself.
fn key<'n>(schema: &'n Node, kw: &str) -> &'n Node {
    schema.entry(kw).map_or(schema, |(k, _)| k)
}

fn types_accept(view: &Node, full: &Node, path: &str) -> Result<(), Failure> {
    let Some(vt) = schema::type_set(view) else {
        return Ok(());
    };
    let at = key(view, "type");
    let Some(ft) = schema::type_set(full).or_else(|| schema::value_types(full)) else {
        return fail(
            at,
            path,
            format!("the full output does not restrict the type here, the view requires {}", names(&vt)),
        );
    };
    for t in &ft {
        let ok = vt.contains(t) || (*t == "integer" && vt.contains("number"));
        if !ok {
            return fail(at, path, format!("a full result may be {t}, which the view's type {} rejects", names(&vt)));
        }
    }
    Ok(())
}

fn names(set: &BTreeSet<&str>) -> String {
    set.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(" or ")
}

fn values_accept(view: &Node, full: &Node, path: &str) -> Result<(), Failure> {
    let at = if view.get("const").is_some() { key(view, "const") } else { key(view, "enum") };
    let allowed = |n: &Node| -> Option<Vec<serde_json::Value>> {
        if let Some(c) = n.get("const") {
            return Some(vec![c.to_json()]);
        }
        n.get("enum").and_then(Node::as_seq).map(|s| s.iter().map(Node::to_json).collect())
    };
    let Some(view_values) = allowed(view) else {
        return Ok(());
    };
    let Some(full_values) = allowed(full) else {
        return fail(at, path, "the view lists allowed values, the full output does not");
    };
    match full_values.iter().find(|v| !view_values.contains(v)) {
        Some(missing) => fail(at, path, format!("the full output allows {missing}, which the view does not")),
        None => Ok(()),
    }
}

/// Lower bounds must be no higher in the view, upper bounds no lower; pattern and format equal.
fn bounds_accept(view: &Node, full: &Node, path: &str) -> Result<(), Failure> {
    let num = |n: &Node, k: &str| n.get(k).and_then(|v| v.to_json().as_f64());
    for k in ["minimum", "exclusiveMinimum", "minLength", "minItems"] {
        if let Some(v) = num(view, k) {
            let f = num(full, k).or(if k == "minimum" { num(full, "exclusiveMinimum") } else { None });
            if f.is_none_or(|f| f < v) {
                return fail(key(view, k), path, format!("`{k}: {v}` is stricter than the full output"));
            }
        }
    }
    for k in ["maximum", "exclusiveMaximum", "maxLength", "maxItems"] {
        if let Some(v) = num(view, k) {
            let f = num(full, k).or(if k == "maximum" { num(full, "exclusiveMaximum") } else { None });
            if f.is_none_or(|f| f > v) {
                return fail(key(view, k), path, format!("`{k}: {v}` is stricter than the full output"));
            }
        }
    }
    for k in ["pattern", "format", "multipleOf"] {
        if let Some(v) = view.get(k)
            && full.get(k).map(Node::to_json) != Some(v.to_json())
        {
            return fail(key(view, k), path, format!("`{k}` differs from the full output"));
        }
    }
    if view.get("uniqueItems").and_then(Node::as_bool) == Some(true)
        && full.get("uniqueItems").and_then(Node::as_bool) != Some(true)
    {
        return fail(key(view, "uniqueItems"), path, "`uniqueItems: true` is stricter than the full output");
    }
    Ok(())
}

fn properties_accept(types: Types<'_>, view: &Node, full: &Node, path: &str, seen: &mut Seen) -> Result<(), Failure> {
    let full_props = schema::properties(full);
    let full_required = schema::required(full);
    let view_required = schema::required(view);
    for name in &view_required {
        if !full_required.contains(name) {
            return fail(
                key(view, "required"),
                &format!("{path}.{name}"),
                format!("`{name}` is required in the view but optional in the full output"),
            );
        }
    }
    for (key, vp) in schema::properties(view) {
        let Some(name) = key.as_str() else { continue };
        let at = format!("{path}.{name}");
        let Some((_, fp)) = full_props.iter().find(|(k, _)| k.as_str() == Some(name)) else {
            return fail(key, &at, format!("`{name}` does not exist in the full output"));
        };
        let hides = |p: &Node| schema::marked(types, p, "writeOnly");
        if hides(fp) && !hides(vp) {
            return fail(key, &at, format!("`{name}` is write-only in the full output: answers leave it out"));
        }
        accepts(types, vp, fp, at, seen)?;
    }
    Ok(())
}
