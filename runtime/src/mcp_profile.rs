//! What each MCP client is served: the tool list of its profile (`mcp-tools.NAME.json`, which
//! `stitchgen generate --profile NAME` writes), chosen from the `clientInfo.name` it announces
//! at `initialize`; and its calls, made by the names that list gives, mapped back to the
//! canonical tool and argument names before the one parse. A client that announces no name the
//! mapping knows is served the canonical list.

use std::collections::BTreeMap;
use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, Tool};
use serde_json::Value;

use crate::{AppError, ErrorCode};

/// The `clientInfo.name` each MCP client announces, and the profile it is served unless
/// `McpServer::client_profile` says otherwise
/// (docs/profiles.md gives the sources).
pub const CLIENT_PROFILES: [(&str, &str); 5] = [
    ("cursor-vscode", "cursor"),
    ("Visual Studio Code", "vscode"),
    ("Visual Studio Code - Insiders", "vscode"),
    ("Code - OSS", "vscode"),
    ("claude-code", "claude-code"),
];

/// The `_meta` key of a rewritten tool's canonical name.
const NAME_META: &str = "stitchgen/name";
/// The `_meta` key of a tool's rewritten argument names, `{written: canonical}`.
const ARGUMENTS_META: &str = "stitchgen/arguments";

/// The profiles a server serves, and which client gets which.
#[derive(Clone)]
pub(crate) struct Profiles {
    lists: BTreeMap<String, Listed>,
    clients: BTreeMap<String, String>,
}

impl Default for Profiles {
    fn default() -> Self {
        let clients = CLIENT_PROFILES.iter().map(|(c, p)| ((*c).to_owned(), (*p).to_owned())).collect();
        Profiles { lists: BTreeMap::new(), clients }
    }
}

/// One profile's list, and how its calls map back.
#[derive(Clone)]
pub(crate) struct Listed {
    pub(crate) tools: Arc<[Tool]>,
    /// By written tool name: the canonical name, and the arguments written otherwise.
    calls: BTreeMap<String, (String, Vec<(String, String)>)>,
}

impl Profiles {
    /// Adds `profile`'s list, `tools`, which must list each tool of `canonical` once; the
    /// error says how it does not.
    pub(crate) fn add(&mut self, profile: &str, tools: Vec<Tool>, canonical: &[Tool]) -> Result<(), String> {
        let mut calls = BTreeMap::new();
        for tool in &tools {
            let meta = tool.meta.as_ref();
            let name = meta.and_then(|m| m.get(NAME_META)).and_then(Value::as_str).unwrap_or(&tool.name);
            let arguments: Vec<(String, String)> = meta
                .and_then(|m| m.get(ARGUMENTS_META))
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .filter_map(|(written, c)| Some((written.clone(), c.as_str()?.to_owned())))
                .collect();
            if calls.insert(tool.name.to_string(), (name.to_owned(), arguments)).is_some() {
                return Err(format!("profile `{profile}` lists `{}` twice", tool.name));
            }
        }
        let mut listed: Vec<&str> = calls.values().map(|(c, _)| c.as_str()).collect();
        listed.sort_unstable();
        let mut want: Vec<&str> = canonical.iter().map(|t| t.name.as_ref()).collect();
        want.sort_unstable();
        if listed != want {
            return Err(format!("profile `{profile}` does not list the tools of the manifest"));
        }
        self.lists.insert(profile.to_owned(), Listed { tools: tools.into(), calls });
        Ok(())
    }

    /// Serves `profile` to clients announcing `client`.
    pub(crate) fn client(&mut self, client: &str, profile: &str) {
        self.clients.insert(client.to_owned(), profile.to_owned());
    }

    /// The profile served to a client announcing `client`, when it has one and it was added.
    pub(crate) fn for_client(&self, client: Option<&str>) -> Option<(&str, &Listed)> {
        let profile = self.clients.get(client?)?;
        self.lists.get(profile).map(|l| (profile.as_str(), l))
    }

    /// A tool by the name some profile lists it under (headers are checked against it).
    pub(crate) fn find(&self, name: &str) -> Option<Tool> {
        self.lists.values().find_map(|l| l.tools.iter().find(|t| t.name == name).cloned())
    }
}

impl Listed {
    /// `request`, made by this list's names, as the canonical tool and arguments. A call that
    /// gives one argument under both its written and its canonical name is refused: which
    /// value it means is not for the server to guess.
    pub(crate) fn map_back(&self, request: &mut CallToolRequestParams) -> Result<(), AppError> {
        let Some((canonical, arguments)) = self.calls.get(request.name.as_ref()) else { return Ok(()) };
        if let Some(args) = request.arguments.as_mut() {
            for (written, name) in arguments {
                let Some(value) = args.remove(written) else { continue };
                if args.contains_key(name) {
                    return Err(AppError::new(
                        ErrorCode::ValidationError,
                        format!("argument `{name}` is given twice, also as `{written}`"),
                    ));
                }
                args.insert(name.clone(), value);
            }
        }
        request.name = canonical.clone().into();
        Ok(())
    }
}
