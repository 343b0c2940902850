//! The `tool` group and tool views (DESIGN §3.4): where a view may stand, what it declares,
//! its defaults against the input schema, and its slice against the full output.

use super::http::{Seg, full_route};
use super::{Cx, is_http_only, slice};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::ast::{Endpoint, Sp, View};
use crate::parse::node::Node;
use crate::schema::{self, Types};

/// The `tool` group and its view, for one endpoint.
pub(super) fn check(cx: &Cx<'_>, e: &Endpoint, diags: &mut Diagnostics) {
    let Some(tool) = &e.tool else { return };
    if is_http_only(e) {
        return; // E0301, reported with the kinds.
    }
    if !cx.is_tool(e) {
        let d = Diagnostic::new(
            Code::ToolGroupWithoutTool,
            tool.span,
            format!("`tool` group on `{}`, which is on no tool surface", e.action.value),
        )
        .label("tool options are never read here");
        let d = match &e.expose {
            Some(x) => d.secondary(x.span, "exposed on HTTP only"),
            None => d.note("`toolExposure: explicit` makes an omitted `expose` mean HTTP only"),
        };
        diags.push(d.help("add MCP, AGENT or CLI to `expose`, or remove the `tool` group"));
        return;
    }
    let Some(view) = &tool.value.view else { return };
    check_view(cx, e, view, diags);
}

fn check_view(cx: &Cx<'_>, e: &Endpoint, view: &Sp<View>, diags: &mut Diagnostics) {
    let v = &view.value;
    let projects = v.project.as_ref().is_some_and(|p| p.value);
    if v.defaults.is_none() && v.output.is_none() && !projects {
        diags.push(
            Diagnostic::new(Code::EmptyView, view.span, format!("tool view of `{}` declares nothing", e.action.value))
                .label("no `defaults`, `output` or `project: true`")
                .help("declare what the tool answer changes, or remove the view"),
        );
    }
    let Some(full) = &e.output else {
        diags.push(
            Diagnostic::new(
                Code::ViewWithoutOutput,
                view.span,
                format!("tool view on `{}`, which has no `output`", e.action.value),
            )
            .label("a view is a view of the full answer")
            .help("declare the endpoint's full `output`, or remove the view"),
        );
        return;
    };
    if let Some(defaults) = &v.defaults {
        check_defaults(cx, e, defaults, diags);
    }
    if let (Some(out), false) = (&v.output, projects) {
        slice::check(cx.types, &out.0, full, diags);
    }
}

fn check_defaults(
    cx: &Cx<'_>,
    e: &Endpoint,
    defaults: &Sp<crate::parse::ast::Entries<crate::parse::ast::Any>>,
    diags: &mut Diagnostics,
) {
    let params = path_params(cx, e);
    let input = e.input.as_ref().filter(|i| schema::is_object(&i.0, cx.types));
    let Some(input) = input else {
        let d = Diagnostic::new(
            Code::ViewDefaultsWithoutObjectInput,
            defaults.span,
            format!("tool view defaults on `{}`, whose input is not an object schema", e.action.value),
        )
        .label("defaults fill keys of an object input");
        let d = match &e.input {
            Some(i) => d.secondary(i.key(), "input declared here"),
            None => d.note("the endpoint declares no `input`"),
        };
        diags.push(d.help("declare `input` as `type: object` with the defaulted keys, or remove `defaults`"));
        return;
    };
    let props = schema::all_properties(&input.0, cx.types);
    for (key, value) in defaults.value.iter() {
        let name = key.value.as_str();
        if params.iter().any(|p| p == name) {
            diags.push(
                Diagnostic::new(
                    Code::ViewDefaultForParam,
                    key.span,
                    format!("tool view default for path parameter `{name}`"),
                )
                .label("path parameters identify the resource; they have no default")
                .help("remove this default"),
            );
            continue;
        }
        let Some((prop_key, prop)) = props.iter().find(|(k, _)| k.as_str() == Some(name)) else {
            let known: Vec<_> = props.iter().filter_map(|(k, _)| k.as_str()).collect();
            let mut d = Diagnostic::new(
                Code::UnknownViewDefault,
                key.span,
                format!("tool view default for `{name}`, which the input does not declare"),
            )
            .label("not an input key")
            .secondary(input.key(), "input declared here");
            d = match known.iter().find(|k| strsim::jaro_winkler(k, name) > 0.8) {
                Some(best) => d.help(format!("did you mean `{best}`?")),
                None => d.help("defaults change what a call is given, never which keys the endpoint accepts"),
            };
            diags.push(d);
            continue;
        };
        if schema::marked(cx.types, prop, "readOnly") {
            diags.push(
                Diagnostic::new(
                    Code::UnknownViewDefault,
                    key.span,
                    format!("tool view default for `{name}`, which the input marks `readOnly`"),
                )
                .label("requests leave read-only properties out")
                .secondary(prop_key.span, "marked read-only here")
                .help("remove this default, or the `readOnly` mark"),
            );
            continue;
        }
        check_default_value(cx.types, name, &value.0, (prop_key.span, prop), diags);
    }
}

fn check_default_value(
    types: Types<'_>,
    name: &str,
    value: &Node,
    (prop_key, prop): (crate::source::Span, &Node),
    diags: &mut Diagnostics,
) {
    let json = value.to_json();
    if let Some(message) = schema::first_violation(types, prop, &json, &format!("input.properties.{name}")) {
        diags.push(
            Diagnostic::new(
                Code::InvalidViewDefault,
                value.span,
                format!("tool view default `{name}` is not a valid value for that input key"),
            )
            .label(message)
            .secondary(prop_key, "input key declared here")
            .help("change the default or the input schema"),
        );
    } else if prop.get("default").or_else(|| types.resolve(prop).get("default")).is_some_and(|d| d.to_json() == json) {
        diags.push(
            Diagnostic::new(
                Code::RedundantViewDefault,
                value.span,
                format!("tool view default `{name}` repeats the input schema's own default"),
            )
            .label("same as `default` in the input schema")
            .help("remove the view default; the schema's default already applies on every surface"),
        );
    }
}

/// Names of the endpoint's path parameters (from the route, and from `params`).
fn path_params(cx: &Cx<'_>, e: &Endpoint) -> Vec<String> {
    let mut names: Vec<String> = full_route(cx, e, &mut Diagnostics::default())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(s, _)| match s {
            Seg::Param(n) | Seg::Wild(n) | Seg::Part(_, n, _) => Some(n),
            Seg::Lit(_) => None,
        })
        .collect();
    if let Some(p) = &e.params {
        names.extend(
            schema::properties(cx.types.resolve(&p.0)).iter().filter_map(|(k, _)| k.as_str().map(str::to_owned)),
        );
    }
    names
}
