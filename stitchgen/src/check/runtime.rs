//! Runtime tools (DESIGN §3.6): transports, presenters.

use super::Cx;
use super::kinds::exposure_list;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::ast::{Presenter, RuntimeTool, Surface};

/// Transports and presenters of one runtime tool.
pub(super) fn check(_: &Cx<'_>, t: &RuntimeTool, diags: &mut Diagnostics) {
    if let Some(list) = &t.transports {
        if list.value.is_empty() {
            diags.push(
                Diagnostic::new(
                    Code::NoTransports,
                    list.span,
                    format!("runtime tool `{}` has no transport", t.name.value),
                )
                .label("`transports: []` mounts it nowhere")
                .help("list `MCP`, `AGENT` or `CLI`, or leave `transports` out for `[MCP, AGENT]`"),
            );
        } else {
            exposure_list(list, "transports", diags);
        }
        for s in list.value.iter().filter(|s| s.value == Surface::Http) {
            diags.push(
                Diagnostic::new(Code::InvalidValue, s.span, "`HTTP` is not a runtime tool transport")
                    .label("runtime tools have no route")
                    .help("declare an endpoint for HTTP; runtime tools go on `MCP`, `AGENT` and `CLI`"),
            );
        }
    }
    let Some(present) = t.present.as_ref().filter(|p| !p.value.is_empty()) else {
        return;
    };
    for (i, p) in present.value.iter().enumerate() {
        if let Some(first) = present.value[..i].iter().find(|q| q.value == p.value) {
            diags.push(
                Diagnostic::new(Code::InvalidExposure, p.span, "presenter listed twice")
                    .label("listed again")
                    .secondary(first.span, "first listed here")
                    .help("remove the repeat"),
            );
        }
    }
    if t.output.is_none() {
        diags.push(
            Diagnostic::new(
                Code::PresentWithoutOutput,
                present.span,
                format!("presenters on `{}`, which has no `output`", t.name.value),
            )
            .label("a presenter renders the validated output")
            .help("declare `output`, or remove `present`"),
        );
    }
    let mounted = |s: Surface| {
        t.transports
            .as_ref()
            .map_or(matches!(s, Surface::Mcp | Surface::Agent), |l| l.value.iter().any(|x| x.value == s))
    };
    for p in &present.value {
        let (surface, name) = match p.value {
            Presenter::Mcp => (Surface::Mcp, "mcp"),
            Presenter::Agent => (Surface::Agent, "agent"),
        };
        if !mounted(surface) {
            diags.push(
                Diagnostic::new(
                    Code::PresenterNotMounted,
                    p.span,
                    format!("`{name}` presenter on `{}`, which is not on {}", t.name.value, surface.as_str()),
                )
                .label("never runs")
                .help(format!("add `{}` to `transports`, or remove this presenter", surface.as_str())),
            );
        }
    }
}
