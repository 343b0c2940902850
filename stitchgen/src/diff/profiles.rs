//! What a change does to the client profiles asked for (`--profile`): a tool a profile now
//! refuses, a tool a profile lists under another name than before, a list that passes the
//! client's cap. Each is judged on the lists as the profile writes them.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Out;
use super::rules::Consumer;
use crate::model::Model;
use crate::profile::{Profile, Profiles};

/// The profile changes from `old` to `new`, for each profile of `profiles`.
pub(super) fn changes(old: &Model, new: &Model, profiles: Profiles, out: &mut Out) {
    if profiles.iter().next().is_none() {
        return;
    }
    let (old, new) = (Manifests::new(old), Manifests::new(new));
    for profile in profiles.iter() {
        let (before, after) = (old.listed(profile), new.listed(profile));
        let subject = |tool: &str| format!("{tool} (profile {})", profile.name());
        for (tool, why) in &after.refused {
            if !before.refused.contains_key(tool) {
                out.push(Consumer::Tools, &subject(tool), "profile-refused", why.clone());
            }
        }
        for (tool, written) in &after.names {
            if let Some(was) = before.names.get(tool).filter(|was| *was != written) {
                out.push(
                    Consumer::Tools,
                    &subject(tool),
                    "profile-tool-renamed",
                    format!("listed as `{was}` → `{written}`"),
                );
            }
        }
        if let Some(cap) = profile.max_tools()
            && before.names.len() <= cap
            && after.names.len() > cap
        {
            let detail = format!(
                "{} → {} tools listed; `{}` takes {cap}",
                before.names.len(),
                after.names.len(),
                profile.name()
            );
            out.push(Consumer::Tools, &format!("profile {}", profile.name()), "profile-cap-exceeded", detail);
        }
    }
}

/// One side's canonical manifests, which the profiles rewrite.
struct Manifests {
    agent: Value,
    mcp: Value,
}

/// One profile's list: each tool's listed name by its canonical one, and why a tool is refused.
struct Listed {
    names: BTreeMap<String, String>,
    refused: BTreeMap<String, String>,
}

impl Manifests {
    fn new(model: &Model) -> Self {
        let surfaces = crate::present::Surfaces::new(model);
        Manifests { agent: crate::emit::mcp::agent_manifest(&surfaces), mcp: crate::emit::mcp::mcp_manifest(&surfaces) }
    }

    fn listed(&self, profile: Profile) -> Listed {
        let canonical = if profile.is_mcp() { &self.mcp } else { &self.agent };
        let (list, violations) = crate::profile::manifest(profile, canonical);
        let mut refused = BTreeMap::new();
        for (tool, v) in violations {
            refused.entry(tool).or_insert_with(|| format!("`{}` refuses it: {} at {}", profile.name(), v.rule, v.at));
        }
        let names = list["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| {
                let written = t["name"].as_str()?;
                let name = t.pointer("/_meta/stitchgen~1name").and_then(Value::as_str).unwrap_or(written);
                Some((name.to_owned(), written.to_owned()))
            })
            .collect();
        Listed { names, refused }
    }
}
