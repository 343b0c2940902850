//! Client profiles: the canonical agent tool list rewritten, by ordered and named passes, into
//! what one model provider's function calling accepts, then judged by that provider's rules
//! (docs/profiles.md gives each rule and its source). A tool the rules still refuse is a
//! diagnostic naming the rule, never a tool silently dropped.

mod emit;
mod passes;
mod rules;

use serde_json::{Value, json};

pub use emit::artifacts;
pub use rules::Violation;

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
}

/// The passes that rewrite a tool for a profile, in the order they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pass {
    /// Every `$ref` to a type that does not recur replaced by the type.
    InlineRefs,
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
    /// Keywords the profile does not read moved into the description, as text.
    KeywordsToDescription,
    /// `$defs`/`$ref` spelled `defs`/`ref`.
    RenameDefs,
}

impl Pass {
    /// The pass's name, as docs/profiles.md lists it.
    pub fn name(self) -> &'static str {
        match self {
            Pass::InlineRefs => "inline-refs",
            Pass::MergeAllOf => "merge-all-of",
            Pass::MergeRootUnion => "merge-root-union",
            Pass::OneOfToAnyOf => "one-of-to-any-of",
            Pass::ConstToEnum => "const-to-enum",
            Pass::OptionalToNullable => "optional-to-nullable",
            Pass::TypeListsToNullable => "type-lists-to-nullable",
            Pass::KeywordsToDescription => "keywords-to-description",
            Pass::RenameDefs => "rename-defs",
        }
    }
}

impl Profile {
    /// Every profile, in the order the docs list them.
    pub const ALL: [Profile; 4] = [Profile::OpenAiStrict, Profile::OpenAi, Profile::Anthropic, Profile::Gemini];

    /// The profile's name: `openai-strict`, `openai`, `anthropic`, `gemini`.
    pub fn name(self) -> &'static str {
        match self {
            Profile::OpenAiStrict => "openai-strict",
            Profile::OpenAi => "openai",
            Profile::Anthropic => "anthropic",
            Profile::Gemini => "gemini",
        }
    }

    /// The profile named `name`.
    pub fn parse(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The file the profile's tool list is written to, beside `agent-tools.json`.
    pub fn file(self) -> String {
        format!("agent-tools.{}.json", self.name())
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
        }
    }

    /// How many tools one request may carry, where the provider says.
    pub fn max_tools(self) -> Option<usize> {
        match self {
            Profile::OpenAiStrict | Profile::OpenAi => Some(128),
            Profile::Anthropic | Profile::Gemini => None,
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

/// One tool as `profile` shows it, and what its rules still refuse of it.
pub fn tool(profile: Profile, canonical: &Value) -> (Value, Vec<Violation>) {
    let mut tool = canonical.clone();
    if let Some(params) = tool.get_mut("parameters") {
        for pass in profile.passes() {
            passes::run(*pass, profile, params);
        }
    }
    if profile == Profile::OpenAiStrict {
        tool["strict"] = json!(true);
    }
    let violations = rules::check(profile, &tool);
    (tool, violations)
}

/// The tool list of `profile` from the canonical agent manifest, with each refused tool's
/// violations (by tool name).
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
    (json!({ "tools": out }), refused)
}
