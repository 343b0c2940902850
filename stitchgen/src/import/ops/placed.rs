//! Query parameters beside a body, header and cookie parameters → `params` properties that
//! `paramsIn` places. What `check` refuses there (a header the transport sets, a credential's
//! place, a name that is not a token, a name taken twice in one place) is left out with a
//! warning, so what is written passes `check`.

use serde_json::{Map, Value as J, json};

use super::super::load::Loc;
use super::super::schemas::escape;
use super::super::{Lowerings, Pending};
use super::{Endpoints, Op};
use crate::parse::node::Node;

/// The parameters placed so far: their schemas, the required ones, and their places.
#[derive(Default)]
pub(super) struct Placed {
    pub(super) props: Map<String, J>,
    pub(super) required: Vec<J>,
    pub(super) places: Map<String, J>,
    /// Each placed parameter's place and its name there (a header's in lowercase).
    wire: Vec<(String, String)>,
}

impl Endpoints<'_, '_> {
    /// Places parameter `p` (`name` in `place`: `query`, `header` or `cookie`), under a key no
    /// path parameter or earlier placed one has; warns and leaves it out where it cannot be.
    pub(super) fn place(
        &mut self,
        op: &Op<'_>,
        (loc, p): (&Loc, &Node),
        (name, place): (&str, &str),
        path: &[(String, String)],
        placed: &mut Placed,
        lowered: &mut Lowerings,
    ) {
        // OpenAPI itself says these SHALL be ignored: the description asked for nothing.
        if place == "header"
            && ["accept", "content-type", "authorization"].contains(&name.to_ascii_lowercase().as_str())
        {
            return;
        }
        let refused = |why: String| format!("{place} parameter `{name}` is not read: {why}");
        let token = crate::check::kinds::is_header_name(name);
        let why = match place {
            "query" if name.is_empty() => Some("it has no name".to_owned()),
            "header" | "cookie" if !token => Some("its name is not an HTTP token".to_owned()),
            "header" if crate::check::params_in::reserved_header(name) => Some("the transport sets it".to_owned()),
            _ => self.credential(place, name).map(|s| format!("the `{s}` credential travels there")),
        };
        let wire = (place.to_owned(), if place == "header" { name.to_ascii_lowercase() } else { name.to_owned() });
        let why = why.or_else(|| placed.wire.contains(&wire).then(|| "another parameter has its name".to_owned()));
        if let Some(why) = why {
            lowered.warn(p.span, &loc.pointer, refused(why));
            return;
        }
        let key = key(name, place, path, placed);
        let out = format!("{}/params/properties/{}", op.out, escape(&key));
        let (deep, json) = (place == "query" && deep_object(p), place == "query" && json_text(p));
        let rule = match place {
            "query" if deep => Some(Pending::DeepObject),
            // One JSON text carries any value.
            "query" if json => None,
            "query" => Some(Pending::QueryField),
            _ => Some(Pending::PlacedScalar),
        };
        if let Some(rule) = rule {
            lowered.pending(rule, p.span, &loc.pointer, &out);
        }
        let schema = self.param_schema(loc, p, out, lowered);
        if p.get("required").and_then(Node::as_bool) == Some(true) {
            placed.required.push(J::String(key.clone()));
        }
        let mut entry = json!({ "in": place });
        if key != name {
            entry["name"] = J::String(name.to_owned());
        }
        if deep {
            entry["style"] = json!("deepObject");
        } else if json {
            entry["style"] = json!("json");
        }
        placed.props.insert(key.clone(), schema);
        placed.places.insert(key, entry);
        placed.wire.push(wire);
    }

    /// The contract's API-key scheme that travels as `name` in `place`, if any.
    fn credential(&self, place: &str, name: &str) -> Option<String> {
        self.schemes.iter().find_map(|(scheme, s)| {
            let at = s.get("in").and_then(J::as_str) == Some(place);
            let named = s
                .get("name")
                .and_then(J::as_str)
                .is_some_and(|n| if place == "header" { n.eq_ignore_ascii_case(name) } else { n == name });
            (s.get("type").and_then(J::as_str) == Some("apiKey") && at && named).then(|| scheme.clone())
        })
    }
}

/// Whether the parameter is written `style: deepObject` (`name[property]=value`).
pub(super) fn deep_object(p: &Node) -> bool {
    p.get("style").and_then(Node::as_str) == Some("deepObject")
}

/// Whether the parameter's value is one JSON text (`content: {application/json: …}`).
pub(super) fn json_text(p: &Node) -> bool {
    let media = p.get("content").and_then(Node::as_map).and_then(|c| c.first()).and_then(|(m, _)| m.as_str());
    media.is_some_and(|m| {
        let m = m.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        m == "application/json" || m.ends_with("+json")
    })
}

/// A constant query pair written in the path (`?api-version=2023-05-01`) beside a body: a
/// required parameter placed in the query, `{type: string, const: VALUE}`, in place of a
/// parameter of that name.
pub(super) fn constant(name: &str, value: &str, e: &mut Map<String, J>) {
    let places = e.get("paramsIn").and_then(J::as_object);
    let same = places.and_then(|m| {
        m.iter().find(|(k, p)| p["in"] == "query" && p.get("name").and_then(J::as_str).unwrap_or(k) == name)
    });
    let key = same.map(|(k, _)| k.clone());
    let params = e.entry("params").or_insert_with(|| json!({ "type": "object", "properties": {} }));
    let key = key.unwrap_or_else(|| {
        let taken = |k: &str| params["properties"].get(k).is_some();
        let mut key = name.to_owned();
        let mut n = 1;
        while taken(&key) {
            key = if n == 1 { format!("{name}_query") } else { format!("{name}_query{n}") };
            n += 1;
        }
        key
    });
    params["properties"][key.as_str()] = json!({ "type": "string", "const": value });
    let required = params.as_object_mut().map(|p| p.entry("required").or_insert_with(|| json!([])));
    if let Some(J::Array(required)) = required
        && !required.iter().any(|r| r == key.as_str())
    {
        required.push(J::String(key.clone()));
    }
    let mut entry = json!({ "in": "query" });
    if key != name {
        entry["name"] = J::String(name.to_owned());
    }
    let places = e.entry("paramsIn").or_insert_with(|| json!({}));
    places[key.as_str()] = entry;
}

/// The parameter's key: its name where no path parameter or placed parameter has it, else the
/// name and its place (`id_header`), numbered past those.
fn key(name: &str, place: &str, path: &[(String, String)], placed: &Placed) -> String {
    let taken = |k: &str| path.iter().any(|(_, ident)| ident == k) || placed.props.contains_key(k);
    if !taken(name) {
        return name.to_owned();
    }
    let base = format!("{name}_{place}");
    let mut key = base.clone();
    let mut n = 2;
    while taken(&key) {
        key = format!("{base}{n}");
        n += 1;
    }
    key
}
