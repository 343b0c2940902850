//! `tool.mcp.inputRequired`: what a tool asks its user before it acts. Served only on MCP, each
//! question under a key of its own, each form one MCP elicitation allows (a flat object of
//! primitive properties: the 2025-11-25 `requestedSchema`).

use super::Cx;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::ast::{Endpoint, InputRequest, McpGroup, Sp, Surface};
use crate::parse::node::{Node, Value};

/// Whether `v` is a list of strings.
fn strings(v: &Node) -> bool {
    v.as_seq().is_some_and(|items| items.iter().all(|i| i.as_str().is_some()))
}

/// The keys of one property of each kind, as MCP's `PrimitiveSchemaDefinition` has them.
const STRING_KEYS: &[&str] =
    &["type", "title", "description", "minLength", "maxLength", "format", "default", "enum", "enumNames", "oneOf"];
const NUMBER_KEYS: &[&str] = &["type", "title", "description", "minimum", "maximum", "default"];
const BOOLEAN_KEYS: &[&str] = &["type", "title", "description", "default"];
const ARRAY_KEYS: &[&str] = &["type", "title", "description", "items", "minItems", "maxItems", "default"];
/// The string formats a client can render.
const FORMATS: &[&str] = &["date", "date-time", "email", "uri"];

/// The `tool.mcp` group of one endpoint.
pub(super) fn check(cx: &Cx<'_>, e: &Endpoint, diags: &mut Diagnostics) {
    let Some(mcp) = e.tool.as_ref().and_then(|t| t.value.mcp.as_ref()) else { return };
    // On no tool surface at all: E0502 says so for the whole group.
    if !cx.is_tool(e) || super::is_http_only(e) {
        return;
    }
    if !cx.surfaces(e).contains(&Surface::Mcp) {
        let d = Diagnostic::new(
            Code::McpGroupWithoutMcp,
            mcp.span,
            format!("`tool.mcp` on `{}`, which is not served on MCP", e.action.value),
        )
        .label("only MCP reads this group");
        let d = match &e.expose {
            Some(x) => d.secondary(x.span, "MCP is not in this list"),
            None => d,
        };
        diags.push(d.help("add MCP to `expose`, or remove the `mcp` group"));
        return;
    }
    requests(&mcp.value, diags);
}

fn requests(mcp: &McpGroup, diags: &mut Diagnostics) {
    let Some(list) = &mcp.input_required else { return };
    for (i, request) in list.value.iter().enumerate() {
        let r = &request.value;
        if let Some(key) = &r.key {
            blank(key, "key", diags);
            let earlier = list.value[..i].iter().filter_map(|p| p.value.key.as_ref()).find(|k| k.value == key.value);
            if let Some(first) = earlier {
                diags.push(
                    Diagnostic::new(
                        Code::DuplicateInputKey,
                        key.span,
                        format!("`inputRequired` key `{}` twice", key.value),
                    )
                    .label("asked again here")
                    .secondary(first.span, "first asked here")
                    .help("give each question its own key: the handler reads each answer by it"),
                );
            }
        }
        if let Some(message) = &r.message {
            blank(message, "message", diags);
        }
        form(r, diags);
    }
}

fn blank(value: &Sp<String>, what: &str, diags: &mut Diagnostics) {
    if value.value.trim().is_empty() {
        diags.push(
            Diagnostic::new(Code::BlankValue, value.span, format!("blank `{what}` in an `inputRequired` entry"))
                .label("nothing here")
                .help(format!("write the {what}")),
        );
    }
}

/// The form of one request: `type: object`, `properties`, optionally `required`; nothing else.
fn form(r: &InputRequest, diags: &mut Diagnostics) {
    let Some(schema) = &r.schema else { return };
    let root = &schema.0;
    let mut bad = |at: &Node, what: String, help: &str| {
        diags.push(
            Diagnostic::new(Code::InvalidElicitationSchema, at.span, what)
                .label("not a form MCP elicitation allows")
                .help(help.to_owned()),
        );
    };
    let Some(entries) = root.as_map() else {
        bad(root, "an `inputRequired` schema that is not a mapping".into(), "write `type: object` and `properties`");
        return;
    };
    for (k, v) in entries {
        match k.as_str() {
            Some("type") if v.as_str() == Some("object") => {}
            Some("type") => bad(v, "an `inputRequired` form that is not `type: object`".into(), "write `type: object`"),
            Some("properties" | "required") => {}
            Some(other) => bad(
                k,
                format!("`{other}` in an `inputRequired` form"),
                "a form has `type: object`, `properties` and `required` only",
            ),
            None => {}
        }
    }
    if root.get("type").is_none() {
        bad(root, "an `inputRequired` form without `type: object`".into(), "write `type: object`");
    }
    let props = root.get("properties");
    match props.and_then(Node::as_map) {
        Some(props) if !props.is_empty() => props.iter().for_each(|(name, p)| property(name, p, &mut bad)),
        _ => bad(props.unwrap_or(root), "an `inputRequired` form without properties".into(), "declare what to ask"),
    }
    if let Some(required) = root.get("required") {
        let names = required.as_seq().unwrap_or_default();
        if required.as_seq().is_none() {
            bad(required, "`required` that is not a list".into(), "list the property names the person must answer");
        }
        for n in names {
            if n.as_str().is_none_or(|s| props.and_then(|p| p.get(s)).is_none()) {
                bad(n, "a `required` entry that is not a property of the form".into(), "name a declared property");
            }
        }
    }
}

/// One property: a string, number, integer, boolean, or a list of strings chosen from an enum.
fn property(name: &Node, p: &Node, bad: &mut impl FnMut(&Node, String, &str)) {
    let name = name.as_str().unwrap_or_default();
    let Some(entries) = p.as_map() else {
        bad(p, format!("property `{name}` is not a mapping"), "declare it with `type`");
        return;
    };
    let (keys, help) = match p.get("type").and_then(Node::as_str) {
        Some("string") => (
            STRING_KEYS,
            "a string property takes title, description, minLength, maxLength, format, default, enum or oneOf",
        ),
        Some("number" | "integer") => {
            (NUMBER_KEYS, "a number property takes title, description, minimum, maximum and default")
        }
        Some("boolean") => (BOOLEAN_KEYS, "a boolean property takes title, description and default"),
        Some("array") => (
            ARRAY_KEYS,
            "a list property takes title, description, items (strings from an enum), minItems, maxItems and default",
        ),
        _ => {
            let at = p.get("type").unwrap_or(p);
            bad(
                at,
                format!("property `{name}` is not of a type a form can ask"),
                "use string, number, integer, boolean, or array of enum strings",
            );
            return;
        }
    };
    for (k, v) in entries {
        let Some(key) = k.as_str() else { continue };
        if !keys.contains(&key) {
            bad(k, format!("`{key}` on form property `{name}`"), help);
        } else if key == "format" && !v.as_str().is_some_and(|f| FORMATS.contains(&f)) {
            bad(
                v,
                format!("format of form property `{name}` is not one a client renders"),
                "use date, date-time, email or uri",
            );
        } else if key == "items" && !choices(v) {
            bad(
                v,
                format!("the items of form property `{name}` are not strings from an enum"),
                "write `items: { type: string, enum: [...] }` or `items: { anyOf: [{ const, title }] }`",
            );
        } else if matches!(key, "enum" | "enumNames") && !strings(v) {
            bad(
                v,
                format!("`{key}` of form property `{name}` is not a list of strings"),
                "a form chooses among strings",
            );
        } else if key == "default" && !fits(p, v) {
            bad(
                v,
                format!("the default of form property `{name}` is not of its type"),
                "give a default of the property's type",
            );
        } else if key == "oneOf" && !titled(v) {
            bad(
                v,
                format!("`oneOf` of form property `{name}` is not a list of `{{ const, title }}`"),
                "write each choice as `{ const: value, title: label }`",
            );
        }
    }
}

/// Whether `default` is of the property's type.
fn fits(p: &Node, default: &Node) -> bool {
    match (p.get("type").and_then(Node::as_str), &default.value) {
        (Some("string"), Value::String(_)) | (Some("boolean"), Value::Bool(_)) => true,
        (Some("number"), Value::Number(_)) => true,
        (Some("integer"), Value::Number(n)) => n.is_i64() || n.is_u64(),
        (Some("array"), _) => strings(default),
        _ => false,
    }
}

/// `items` of a multi-select: `{ type: string, enum: [...] }` or `{ anyOf: [{ const, title }] }`.
fn choices(items: &Node) -> bool {
    let Some(entries) = items.as_map() else { return false };
    let keys: Vec<&str> = entries.iter().filter_map(|(k, _)| k.as_str()).collect();
    match keys.as_slice() {
        ["anyOf"] => items.get("anyOf").is_some_and(titled),
        _ => {
            items.get("type").and_then(Node::as_str) == Some("string")
                && items.get("enum").and_then(Node::as_seq).is_some_and(|e| e.iter().all(|v| v.as_str().is_some()))
                && keys.iter().all(|k| matches!(*k, "type" | "enum"))
        }
    }
}

/// A list of `{ const: "...", title: "..." }`.
fn titled(list: &Node) -> bool {
    list.as_seq().is_some_and(|items| {
        items.iter().all(|i| {
            i.as_map().is_some_and(|m| m.len() == 2)
                && i.get("const").and_then(Node::as_str).is_some()
                && i.get("title").and_then(Node::as_str).is_some()
        })
    })
}
