//! Arguments as the HTTP adapter reads them: path parameters in their segments, percent-encoded,
//! and `GET`/`HEAD`/`DELETE` input as query pairs, the inverse of the adapter's reading
//! (`coerce::object`): a test holds the two together.

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use serde_json::Value;

/// What a path segment may not hold unencoded (RFC 3986 `pchar` aside, `%` itself, and `\`,
/// which a URL parser reads as `/` in an `http` URL: left as it is, it would move the request).
/// `^` too: releases of the URL parser differ on it, and the bytes sent must not.
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'}');
/// A wildcard's value keeps its slashes: it spans segments.
const WILDCARD: &AsciiSet = &SEGMENT.remove(b'/');

/// Whether `method` sends its input in the query string.
pub(crate) fn queried(method: &str) -> bool {
    matches!(method, "GET" | "HEAD" | "DELETE")
}

/// The route `path` (`/people/:id`, `/files/*rest`) with each parameter's value from `params`.
pub(crate) fn path(path: &str, params: &Value) -> String {
    let segments = path.split('/').map(|segment| {
        let Some(p) = crate::def::path_param(segment) else { return segment.to_owned() };
        let set = if p.wildcard { WILDCARD } else { SEGMENT };
        let value = params.get(p.name).map(text).unwrap_or_default();
        format!("{}{}{}", p.prefix, utf8_percent_encode(&value, set), p.suffix)
    });
    segments.collect::<Vec<_>>().join("/")
}

/// The query pairs of an input object: a list repeats its key once per item, an object is its
/// JSON text, a scalar its text.
pub(crate) fn query_pairs(input: &Value) -> Vec<(String, String)> {
    input.as_object().map(object_pairs).unwrap_or_default()
}

/// [`query_pairs`] of an object.
fn object_pairs(map: &serde_json::Map<String, Value>) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for (key, value) in map {
        match value {
            Value::Array(items) => pairs.extend(items.iter().map(|item| (key.clone(), text(item)))),
            other => pairs.push((key.clone(), text(other))),
        }
    }
    pairs
}

/// The parameters an operation places outside the path, as the client sends them.
#[derive(Debug, Default)]
pub(crate) struct Placed {
    /// Query pairs (a list repeats its name).
    pub query: Vec<(String, String)>,
    /// Header names and values.
    pub headers: Vec<(&'static str, String)>,
    /// Cookie names and values.
    pub cookies: Vec<(&'static str, String)>,
}

/// The values of `params` that `params_in` places, by place; an absent or `null` value is not
/// sent. A header or cookie value that would end its field or start another (a control
/// character; for a cookie also `;`, `,`, a space, `"` or `\\`) is refused: the request never
/// carries what its arguments did not name.
pub(crate) fn placed(params_in: &[crate::ParamIn], params: &Value) -> Result<Placed, crate::AppError> {
    let mut out = Placed::default();
    for p in params_in {
        let Some(value) = params.get(p.key()).filter(|v| !v.is_null()) else { continue };
        match p {
            crate::ParamIn::Query(_, name) => {
                let values = value.as_array().map_or_else(|| vec![value], |items| items.iter().collect());
                out.query.extend(values.into_iter().map(|v| ((*name).to_owned(), text(v))));
            }
            crate::ParamIn::DeepObject(_, name, _) => {
                // Validation let only an object through; anything else is sent as one pair.
                let Some(map) = value.as_object() else {
                    out.query.push(((*name).to_owned(), text(value)));
                    continue;
                };
                out.query.extend(object_pairs(map).into_iter().map(|(k, v)| (format!("{name}[{k}]"), v)));
            }
            crate::ParamIn::QueryJson(_, name) => out.query.push(((*name).to_owned(), value.to_string())),
            crate::ParamIn::Header(key, name) => out.headers.push((name, field_text(key, value, false)?)),
            crate::ParamIn::Cookie(key, name) => out.cookies.push((name, field_text(key, value, true)?)),
        }
    }
    Ok(out)
}

/// A header or cookie value as text, refused where it holds what would break out of its field.
fn field_text(key: &str, value: &Value, cookie: bool) -> Result<String, crate::AppError> {
    let text = text(value);
    let breaks = |c: char| {
        (c.is_control() && c != '\t') || !c.is_ascii() || (cookie && matches!(c, ';' | ',' | ' ' | '"' | '\\' | '\t'))
    };
    match text.chars().find(|c| breaks(*c)) {
        None => Ok(text),
        Some(c) => {
            let (at, why) =
                (format!("/{key}"), format!("a {} may not hold {c:?}", if cookie { "cookie" } else { "header" }));
            let errors = vec![serde_json::json!({ "path": at, "keyword": "in", "message": why })];
            Err(crate::validation::invalid("params", format!("{at}: {why}"), errors))
        }
    }
}

/// A query string of `pairs`, as the client sends it.
pub(crate) fn query_string(pairs: impl IntoIterator<Item = (String, String)>) -> String {
    let mut encoded = form_urlencoded::Serializer::new(String::new());
    encoded.extend_pairs(pairs);
    encoded.finish()
}

/// One value as text: a string as it is, anything else as its JSON (`5`, `true`, `null`, `{…}`).
fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(all(test, feature = "axum"))]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every value of its declared type reads back, through the adapter's reading, as itself.
    #[test]
    fn query_pairs_read_back_as_the_adapter_reads_them() {
        // What the generator resolves for `limit: integer`, `ratio: number`, …, `level: enum [1, 2]`.
        let field = |name, types, items| crate::FieldDef {
            name,
            types,
            items,
            values: &[],
            required: false,
            default: None,
            description: "",
        };
        let fields = [
            field("limit", &["integer"], &[]),
            field("ratio", &["number"], &[]),
            field("on", &["boolean"], &[]),
            field("q", &["string"], &[]),
            field("tags", &["array"], &["string"]),
            field("ids", &["array"], &["integer"]),
            field("maybe", &["integer", "null"], &[]),
            field("filter", &["object"], &[]),
            field("level", &["integer"], &[]),
        ];
        let inputs = [
            json!({"limit": 5, "ratio": 0.5, "on": true, "q": "a b&c=d/é", "tags": ["x", "y z"], "ids": [1, 2]}),
            json!({"maybe": null, "filter": {"team": "core", "n": [1]}, "level": 2, "tags": []}),
            json!({"q": "", "on": false, "ids": [-3], "limit": -1}),
        ];
        for input in inputs {
            let text = query_string(query_pairs(&input));
            let read = crate::coerce::read_query(&text, &fields);
            let mut expected = input.as_object().unwrap().clone();
            // An empty list sends no pair: the key is absent, as an absent optional list.
            expected.retain(|_, v| v.as_array().is_none_or(|a| !a.is_empty()));
            assert_eq!(Value::Object(read), Value::Object(expected), "{text}");
        }
    }

    /// What the URL parser makes of each route sent: nothing a parameter holds moves it.
    #[test]
    fn no_parameter_value_moves_a_request_once_the_url_is_parsed() {
        for value in ["a\\b", "a/b", "a?b#c", "a b\tc\nd", "%2e", "é/ü", "a;b=c", "a|b^c"] {
            let sent = path("/people/:id/notes", &json!({ "id": value }));
            let url = reqwest::Url::parse(&format!("http://h{sent}")).unwrap();
            assert_eq!(url.path(), sent, "{value:?}");
            assert_eq!(url.path_segments().unwrap().count(), 3, "{value:?}: {sent}");
        }
    }

    #[test]
    fn path_parameters_are_percent_encoded_in_their_segment() {
        let params = json!({"id": "a b/c?d", "n": 7, "rest": "x/y z"});
        assert_eq!(path("/people/:id/items/:n", &params), "/people/a%20b%2Fc%3Fd/items/7");
        assert_eq!(path("/files/*rest", &params), "/files/x/y%20z");
    }
}
