//! Where a change inside a schema is: the path reports show, and a JSON Pointer on each side.

use serde_json::Value;

/// Where a comparison stands: the path reports show (`output.note`), and on each side the JSON
/// Pointer of the schema compared, into the subject's document `{input, output, stream: {item,
/// terminal}}` as presented.
#[derive(Clone, Debug)]
pub(super) struct At {
    shown: String,
    pointer: [String; 2],
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl At {
    /// The root schema `name` (`input`, `output`, `stream.item`).
    pub(super) fn root(name: &str) -> At {
        let pointer = format!("/{}", name.replace('.', "/"));
        At { shown: name.to_owned(), pointer: [pointer.clone(), pointer] }
    }

    /// `self` followed by `shown` in reports and by `old` and `new` in each side's pointer.
    pub(super) fn then(&self, shown: &str, old: &str, new: &str) -> At {
        At {
            shown: format!("{}{shown}", self.shown),
            pointer: [format!("{}{old}", self.pointer[0]), format!("{}{new}", self.pointer[1])],
        }
    }

    /// The property `name`.
    pub(super) fn field(&self, name: &str) -> At {
        let token = format!("/properties/{}", escape(name));
        self.then(&format!(".{name}"), &token, &token)
    }

    /// The `$defs` entries `old` and `new` of the root `self`, shown as `shown`.
    pub(super) fn def(&self, shown: String, old: &str, new: &str) -> At {
        let token = |name: &str| format!("/$defs/{}", escape(name));
        At {
            shown,
            pointer: [format!("{}{}", self.pointer[0], token(old)), format!("{}{}", self.pointer[1], token(new))],
        }
    }

    /// The values `old` and `new` here, either absent, located in the new schema.
    pub(super) fn values(&self, old: Option<&Value>, new: Option<&Value>) -> Found {
        Found { pointer: Some(self.pointer[1].clone()), old: old.cloned(), new: new.cloned() }
    }

    /// A change of the schema here: the values on both sides, located in the new one.
    pub(super) fn both(&self, o: &Value, n: &Value) -> Found {
        Found { pointer: Some(self.pointer[1].clone()), old: Some(o.clone()), new: Some(n.clone()) }
    }

    /// Something only the old side has, located there.
    pub(super) fn removed(&self, o: &Value) -> Found {
        Found { pointer: Some(self.pointer[0].clone()), old: Some(o.clone()), new: None }
    }

    /// Something only the new side has.
    pub(super) fn added(&self, n: &Value) -> Found {
        Found { pointer: Some(self.pointer[1].clone()), old: None, new: Some(n.clone()) }
    }
}

/// Where a change is and the values there: a JSON Pointer and the value it names on each side.
#[derive(Clone, Debug, Default)]
pub(super) struct Found {
    pub(super) pointer: Option<String>,
    pub(super) old: Option<Value>,
    pub(super) new: Option<Value>,
}

/// `name` as one token of a JSON Pointer (RFC 6901).
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}
