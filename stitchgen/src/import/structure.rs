//! What OpenAPI requires of a description before anything is converted: `paths` is a mapping
//! of path items, and every parameter says its `name` and where it is (`in`). A description that
//! breaks these is refused at the JSON pointer of the fault, never read half.

use super::load::{Docs, Loc, Named, bare_ref, shown_pointer};
use super::ops::{METHODS, SKIPPED_METHODS};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::node::Node;

/// Reports every fault of `paths` and of the parameters under it.
pub(super) fn check(docs: &Docs, diags: &mut Diagnostics) {
    let root = &docs.docs[0].root;
    let Some(paths) = root.get("paths") else { return };
    if paths.as_map().is_none() {
        let found = paths.kind();
        diags.push(invalid(paths, "/paths", format!("`paths` is a mapping of path items, found {found}")));
        return;
    }
    let (entries, _) = docs.named(&Loc { doc: 0, pointer: "/paths".into() }, paths);
    for Named { loc, node, .. } in entries {
        let (loc, item) = docs.deref(loc, node);
        parameters(docs, &loc, item, diags);
        for (k, op) in item.as_map().unwrap_or_default() {
            // Every key that holds an operation, served or skipped: a skipped one is still read.
            let is_operation = |m: &&str| METHODS.contains(m) || SKIPPED_METHODS.contains(m);
            let Some(method) = k.as_str().filter(is_operation) else { continue };
            let at = Loc { doc: loc.doc, pointer: format!("{}/{method}", loc.pointer) };
            let (at, op) = docs.deref(at, op);
            parameters(docs, &at, op, diags);
        }
    }
}

/// The `parameters` of a path item or operation at `loc`: each has a string `name` and `in`.
fn parameters(docs: &Docs, loc: &Loc, owner: &Node, diags: &mut Diagnostics) {
    let Some(list) = owner.get("parameters") else { return };
    let pointer = format!("{}/parameters", loc.pointer);
    let Some(items) = list.as_seq() else {
        let why = format!("`parameters` is a list of parameters, found {}", list.kind());
        diags.push(invalid(list, &pointer, why));
        return;
    };
    for (i, p) in items.iter().enumerate() {
        let at = Loc { doc: loc.doc, pointer: format!("{pointer}/{i}") };
        // A reference nowhere is reported (or read as any value) where references are checked.
        let (at, p) = docs.deref(at, p);
        if bare_ref(p).is_some() {
            continue;
        }
        for key in ["name", "in"] {
            if p.get(key).and_then(Node::as_str).is_none() {
                let why = format!("a parameter without `{key}`");
                diags.push(invalid(p, &at.pointer, why).label(format!("`{key}` is required, a string")));
            }
        }
    }
}

fn invalid(node: &Node, pointer: &str, message: String) -> Diagnostic {
    Diagnostic::new(Code::ImportInvalid, node.span, message)
        .note(format!("at {}", shown_pointer(pointer)))
        .help("OpenAPI requires it; fix the description")
}
