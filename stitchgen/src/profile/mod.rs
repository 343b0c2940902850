//! Client profiles: the canonical agent tool list rewritten, by ordered and named passes, into
//! what one model provider's function calling accepts, then judged by that provider's rules
//! (docs/profiles.md gives each rule and its source). A tool the rules still refuse is a
//! diagnostic naming the rule, never a tool silently dropped.

mod emit;
mod names;
mod passes;
mod rules;

use serde_json::{Value, json};

pub use emit::artifacts;

/// One rule a tool breaks, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The rule's id (`openai-strict/closed-objects`), as docs/profiles.md lists it.
    pub rule: &'static str,
    /// Where in the tool (a JSON pointer), and what is there.
    pub at: String,
}

/// A client or model provider whose tool format differs from the canonical manifests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Profile {
    /// OpenAI function calling with `strict: true` (Structured Outputs' schema subset).
    OpenAiStrict,
    /// OpenAI function calling without `strict`.
    OpenAi,
    /// Anthropic's Messages API tools (`input_schema`).
    Anthropic,
    /// Gemini function declarations (`parameters`, an OpenAPI 3.0 subset).
    Gemini,
    /// Cursor's MCP client.
    Cursor,
    /// VS Code's MCP client (and GitHub Copilot Chat's agent mode in it).
    VsCode,
    /// Claude Code's MCP client.
    ClaudeCode,
}

/// The passes that rewrite a tool for a profile, in the order they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pass {
    /// Every `$ref` to a type that does not recur replaced by the type.
    InlineRefs,
    /// Every `$ref` replaced by its type; one that recurs, cut to any value after its first level.
    InlineAllRefs,
    /// `allOf` folded into one schema: properties and `required` joined, the rest kept once.
    MergeAllOf,
    /// A union of objects at the root of the parameters written as one object.
    MergeRootUnion,
    /// `oneOf` written `anyOf` (the runner still holds every call to exactly one branch).
    OneOfToAnyOf,
    /// `const: x` written `enum: [x]`.
    ConstToEnum,
    /// Every property required, an optional one nullable (the runner reads `null` as absent).
    OptionalToNullable,
    /// `type: [T, "null"]` written `type: T, nullable: true`; other type lists as `anyOf`.
    TypeListsToNullable,
    /// A list of types written as `anyOf` of one type each.
    TypeListsToAnyOf,
    /// An array without `items` given `items: {}`.
    ArrayItems,
    /// An `outputSchema` that is not an object left out (the answer itself is unchanged).
    ObjectOutputs,
    /// Keywords the profile does not read moved into the description, as text.
    KeywordsToDescription,
    /// `$defs`/`$ref` spelled `defs`/`ref`.
    RenameDefs,
    /// Names the client cannot take rewritten, deterministically; the canonical name recorded.
    ShortenNames,
    /// Top-level argument names the client cannot take (`expand[]`) rewritten; the canonical
    /// names recorded.
    ArgumentNames,
}

impl Pass {
    /// The pass's name, as docs/profiles.md lists it.
    pub fn name(self) -> &'static str {
        match self {
            Pass::InlineRefs => "inline-refs",
            Pass::InlineAllRefs => "inline-all-refs",
            Pass::MergeAllOf => "merge-all-of",
            Pass::MergeRootUnion => "merge-root-union",
            Pass::OneOfToAnyOf => "one-of-to-any-of",
            Pass::ConstToEnum => "const-to-enum",
            Pass::OptionalToNullable => "optional-to-nullable",
            Pass::TypeListsToNullable => "type-lists-to-nullable",
            Pass::TypeListsToAnyOf => "type-lists-to-any-of",
            Pass::ArrayItems => "array-items",
            Pass::ObjectOutputs => "object-outputs",
            Pass::KeywordsToDescription => "keywords-to-description",
            Pass::RenameDefs => "rename-defs",
            Pass::ShortenNames => "shorten-names",
            Pass::ArgumentNames => "argument-names",
        }
    }
}

/// The longest key a user gives the server in an MCP client's configuration that the names of
/// the MCP profiles leave room for (`directory`, `github`): Cursor and Claude Code count it in
/// a tool's name.
pub const SERVER_KEY_BUDGET: usize = 16;

impl Profile {
    /// Every profile, in the order the docs list them.
    pub const ALL: [Profile; 7] = [
        Profile::OpenAiStrict,
        Profile::OpenAi,
        Profile::Anthropic,
        Profile::Gemini,
        Profile::Cursor,
        Profile::VsCode,
        Profile::ClaudeCode,
    ];

    /// The profile's name: `openai-strict`, `openai`, `anthropic`, `gemini`, `cursor`,
    /// `vscode`, `claude-code`.
    pub fn name(self) -> &'static str {
        match self {
            Profile::OpenAiStrict => "openai-strict",
            Profile::OpenAi => "openai",
            Profile::Anthropic => "anthropic",
            Profile::Gemini => "gemini",
            Profile::Cursor => "cursor",
            Profile::VsCode => "vscode",
            Profile::ClaudeCode => "claude-code",
        }
    }

    /// The profile named `name`.
    pub fn parse(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Whether the profile is an MCP client's (its list rewrites `mcp-tools.json`) rather than
    /// a model provider's function tools (`agent-tools.json`).
    pub fn is_mcp(self) -> bool {
        matches!(self, Profile::Cursor | Profile::VsCode | Profile::ClaudeCode)
    }

    /// The file the profile's tool list is written to, beside the canonical manifest it
    /// rewrites: `agent-tools.NAME.json` or `mcp-tools.NAME.json`.
    pub fn file(self) -> String {
        let base = if self.is_mcp() { "mcp-tools" } else { "agent-tools" };
        format!("{base}.{}.json", self.name())
    }

    /// The passes, in order.
    pub fn passes(self) -> &'static [Pass] {
        use Pass::*;
        match self {
            Profile::OpenAiStrict => {
                &[InlineRefs, MergeAllOf, MergeRootUnion, OneOfToAnyOf, OptionalToNullable, KeywordsToDescription]
            }
            Profile::OpenAi | Profile::Anthropic => &[InlineRefs, MergeAllOf, MergeRootUnion, KeywordsToDescription],
            Profile::Gemini => &[
                InlineRefs,
                MergeAllOf,
                MergeRootUnion,
                OneOfToAnyOf,
                ConstToEnum,
                TypeListsToNullable,
                KeywordsToDescription,
                RenameDefs,
            ],
            Profile::Cursor => {
                &[InlineAllRefs, MergeAllOf, MergeRootUnion, TypeListsToAnyOf, ArgumentNames, ShortenNames]
            }
            Profile::VsCode => &[InlineAllRefs, MergeAllOf, MergeRootUnion, ArrayItems, ShortenNames],
            Profile::ClaudeCode => &[InlineAllRefs, MergeAllOf, MergeRootUnion, ObjectOutputs, ShortenNames],
        }
    }

    /// How many tools one request may carry, where the client or provider says.
    pub fn max_tools(self) -> Option<usize> {
        match self {
            Profile::OpenAiStrict | Profile::OpenAi | Profile::VsCode => Some(128),
            Profile::Cursor => Some(40),
            Profile::Anthropic | Profile::Gemini | Profile::ClaudeCode => None,
        }
    }

    /// The longest tool name the profile takes, the server key's room left out for an MCP
    /// client that counts it.
    pub fn max_name(self) -> usize {
        match self {
            // Cursor drops a tool whose server key and name together pass 60 characters.
            Profile::Cursor => 60 - SERVER_KEY_BUDGET,
            // VS Code names a tool `mcp_` + a server prefix of up to 18 + its name, cut at 64.
            Profile::VsCode => 64 - 4 - 18,
            // Claude Code sends `mcp__<server>__<tool>` to a 64-character limit.
            Profile::ClaudeCode => 64 - 5 - SERVER_KEY_BUDGET - 2,
            _ => 64,
        }
    }
}

/// A set of profiles (what one generation writes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Profiles(u8);

impl Profiles {
    /// This set with `p`.
    #[must_use]
    pub fn with(self, p: Profile) -> Self {
        Profiles(self.0 | 1 << p as u8)
    }

    /// The profiles of the set, in [`Profile::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Profile> {
        Profile::ALL.into_iter().filter(move |p| self.0 & (1 << *p as u8) != 0)
    }
}

/// One tool as `profile` shows it, and what its rules still refuse of it. Names are the list's
/// to rewrite ([`manifest`]), since a rewritten name must not meet another tool's.
pub fn tool(profile: Profile, canonical: &Value) -> (Value, Vec<Violation>) {
    let mut tool = canonical.clone();
    let mut renamed = Vec::new();
    for pass in profile.passes() {
        match pass {
            Pass::ObjectOutputs => passes::object_outputs(&mut tool),
            Pass::ArgumentNames => renamed.extend(names::arguments(&mut tool)),
            Pass::ShortenNames => {}
            _ => {
                for key in ["parameters", "inputSchema", "outputSchema"] {
                    if let Some(schema) = tool.get_mut(key) {
                        passes::run(*pass, profile, key != "outputSchema", schema);
                    }
                }
            }
        }
    }
    if profile == Profile::OpenAiStrict {
        tool["strict"] = json!(true);
    }
    let mut violations = rules::check(profile, &tool);
    violations.extend(renamed);
    (tool, violations)
}

/// The tool list of `profile` from the canonical manifest it rewrites (`agent-tools.json`, or
/// `mcp-tools.json` for an MCP client), with each refused tool's violations (by canonical
/// tool name).
pub fn manifest(profile: Profile, canonical: &Value) -> (Value, Vec<(String, Violation)>) {
    let tools = canonical.get("tools").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let mut refused = Vec::new();
    let mut out = Vec::with_capacity(tools.len());
    for t in tools {
        let (rewritten, violations) = tool(profile, t);
        let name = t.get("name").and_then(Value::as_str).unwrap_or_default();
        refused.extend(violations.into_iter().map(|v| (name.to_owned(), v)));
        out.push(rewritten);
    }
    if profile.passes().contains(&Pass::ShortenNames) {
        refused.extend(names::shorten(profile, &mut out));
    }
    (json!({ "tools": out }), refused)
}
