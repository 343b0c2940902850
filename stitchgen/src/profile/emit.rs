//! Each profile's tool list written beside the canonical manifest it rewrites, and what it refuses as
//! diagnostics on the operation behind each refused tool.

use serde_json::Value;

use super::{Profile, Profiles, Violation};
use crate::diag::{Code, Diagnostic};
use crate::out::Artifact;
use crate::parse::ast::{Contract, Surface};
use crate::present::Surfaces;

/// `agent-tools.NAME.json` or `mcp-tools.NAME.json` for each profile of `profiles`, with an error for each tool a
/// profile refuses and a warning for a list past its cap.
pub fn artifacts(profiles: Profiles, surfaces: &Surfaces, contracts: &[Contract]) -> (Vec<Artifact>, Vec<Diagnostic>) {
    let (mut out, mut diags) = (Vec::new(), Vec::new());
    if profiles.iter().next().is_none() {
        return (out, diags);
    }
    let agent = crate::emit::mcp::agent_manifest(surfaces);
    let mcp = profiles.iter().any(Profile::is_mcp).then(|| crate::emit::mcp::mcp_manifest(surfaces));
    for profile in profiles.iter() {
        let (canonical, tools) = match &mcp {
            Some(mcp) if profile.is_mcp() => (mcp, surfaces.get(Surface::Mcp)),
            _ => (&agent, surfaces.get(Surface::Agent)),
        };
        let (manifest, refused) = super::manifest(profile, canonical);
        for (name, violations) in by_tool(refused) {
            let Some(tool) = tools.iter().find(|t| t.name == name) else { continue };
            let Some(c) = contracts.iter().find(|c| c.service.as_ref().is_some_and(|s| s.value == tool.service)) else {
                continue;
            };
            let span = c.action_span(&tool.action).unwrap_or_else(|| c.service_span());
            diags.push(refusal(profile, &name, &violations, span));
        }
        let count = manifest.get("tools").and_then(Value::as_array).map_or(0, Vec::len);
        if let (Some(cap), Some(c)) = (profile.max_tools(), contracts.first())
            && count > cap
        {
            diags.push(
                Diagnostic::new(
                    Code::ProfileToolCap,
                    c.service_span(),
                    format!("{count} tools listed, and `{}` takes {cap}", profile.name()),
                )
                .label("generated together with this contract")
                .help("put the contracts in search mode (`toolDiscovery: search`), or expose fewer tools"),
            );
        }
        out.push(Artifact { name: profile.file(), bytes: crate::emit::json_bytes(&manifest) });
    }
    (out, diags)
}

/// The violations grouped by tool, in the order the tools are listed.
fn by_tool(refused: Vec<(String, Violation)>) -> Vec<(String, Vec<Violation>)> {
    let mut out: Vec<(String, Vec<Violation>)> = Vec::new();
    for (name, v) in refused {
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, list)) => list.push(v),
            None => out.push((name, vec![v])),
        }
    }
    out
}

fn refusal(profile: Profile, tool: &str, violations: &[Violation], span: crate::source::Span) -> Diagnostic {
    let mut d = Diagnostic::new(
        Code::ProfileRefused,
        span,
        format!("`{}` refuses tool `{tool}`: {}", profile.name(), violations[0].rule),
    )
    .label("the operation behind the tool");
    // The first few places: a deep schema may break one rule in many.
    for v in violations.iter().take(4) {
        d = d.note(format!("{} at {}", v.rule, v.at));
    }
    if violations.len() > 4 {
        d = d.note(format!("and {} more", violations.len() - 4));
    }
    d.help("docs/profiles.md says what the rule asks; change the schema or the name, or leave this profile out")
}
