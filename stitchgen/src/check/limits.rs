//! Declared byte limits (`limits`, an upload's, a stream's frames). The runtime holds each body
//! whole in memory, so each limit bounds what a caller or an origin can make a server hold: one
//! that bounds nothing is an error, one that cannot be reached or is very large a warning
//! (docs/security.md has the defaults they replace).

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::ast::{Endpoint, Sp};

/// Past this a declared limit is unusual: one request of that size, held whole.
const LARGE: u64 = 1 << 30;

/// Every rule of one endpoint's byte limits.
pub(super) fn check(e: &Endpoint, diags: &mut Diagnostics) {
    if let Some(limits) = &e.limits {
        if let Some(max) = &limits.value.max_body_bytes {
            body(e, max, diags);
        }
        if let Some(max) = &limits.value.max_answer_bytes {
            answer(e, max, diags);
        }
    }
    for (what, limit) in declared(e) {
        if limit.value > LARGE {
            diags.push(
                Diagnostic::new(Code::UnusualLimit, limit.span, format!("`{what}` of {} bytes", limit.value))
                    .label("more than 1 GiB, held in memory whole")
                    .help("one request or answer can make the server hold this much: keep it below 1 GiB, or move such files through object storage and pass their URLs"),
            );
        }
    }
    unreachable(e, diags);
}

/// Every byte limit the endpoint declares, by the key that declares it.
fn declared(e: &Endpoint) -> Vec<(&'static str, &Sp<u64>)> {
    let mut out = Vec::new();
    if let Some(l) = &e.limits {
        out.extend(l.value.max_body_bytes.iter().map(|v| ("maxBodyBytes", v)));
        out.extend(l.value.max_answer_bytes.iter().map(|v| ("maxAnswerBytes", v)));
    }
    if let Some(m) = &e.multipart {
        out.extend(m.value.max_request_bytes.iter().map(|v| ("maxRequestBytes", v)));
        out.extend(m.value.max_field_bytes.iter().map(|v| ("maxFieldBytes", v)));
        let files = m.value.files.iter().flat_map(|f| f.value.iter());
        out.extend(files.filter_map(|(_, f)| f.value.max_bytes.as_ref()).map(|v| ("maxBytes", v)));
    }
    if let Some(s) = &e.stream {
        out.extend(s.value.max_frame_bytes.iter().map(|v| ("maxFrameBytes", v)));
    }
    out
}

fn invalid(at: &Sp<u64>, message: String, label: &str, help: &str) -> Diagnostic {
    Diagnostic::new(Code::InvalidLimit, at.span, message).label(label.to_owned()).help(help.to_owned())
}

fn zero(max: &Sp<u64>, key: &str) -> Diagnostic {
    let help = format!("remove `{key}` or give it a positive value");
    invalid(max, format!("`{key}` is 0"), "must be positive", &help)
}

/// `maxBodyBytes`: positive, on an endpoint that reads a JSON or raw body.
fn body(e: &Endpoint, max: &Sp<u64>, diags: &mut Diagnostics) {
    let method = e.method.as_ref().map(|m| m.value);
    if max.value == 0 {
        diags.push(zero(max, "maxBodyBytes"));
    } else if !super::kinds::reads_body(e) {
        let m = method.map(|m| m.as_str()).unwrap_or_default();
        diags.push(invalid(
            max,
            format!("`maxBodyBytes` on a {m} endpoint"),
            "no body is read: the input is the query string",
            "remove `maxBodyBytes`",
        ));
    } else if e.multipart.is_some() {
        diags.push(invalid(
            max,
            "`maxBodyBytes` on a multipart upload".into(),
            "an upload is bounded by its own limits",
            "use `multipart.maxRequestBytes`, and `maxBytes` per file field",
        ));
    }
}

/// `maxAnswerBytes`: positive, on an endpoint whose answer a client reads whole.
fn answer(e: &Endpoint, max: &Sp<u64>, diags: &mut Diagnostics) {
    let raw = e.raw_response.as_ref().is_some_and(|r| r.value);
    if max.value == 0 {
        diags.push(zero(max, "maxAnswerBytes"));
    } else if e.stream.is_some() {
        diags.push(invalid(
            max,
            "`maxAnswerBytes` on a stream".into(),
            "a stream is read frame by frame",
            "use `stream.maxFrameBytes`",
        ));
    } else if e.output.is_none() && !raw {
        diags.push(invalid(
            max,
            "`maxAnswerBytes` on an endpoint without `output`".into(),
            "its success answer has no body",
            "remove `maxAnswerBytes`",
        ));
    }
}

/// A file or field limit over the upload's own: no file or field that large can arrive.
fn unreachable(e: &Endpoint, diags: &mut Diagnostics) {
    let Some(m) = &e.multipart else { return };
    // A total of 0 is already an error (E0305).
    let Some(total) = m.value.max_request_bytes.as_ref().filter(|t| t.value > 0) else { return };
    let files = m.value.files.iter().flat_map(|f| f.value.iter());
    let parts = files.filter_map(|(name, f)| {
        Some((format!("`maxBytes` of file field `{}`", name.value), f.value.max_bytes.as_ref()?))
    });
    let field = m.value.max_field_bytes.as_ref().map(|v| ("`maxFieldBytes`".to_owned(), v));
    for (what, limit) in parts.chain(field).filter(|(_, l)| l.value > total.value) {
        diags.push(
            Diagnostic::new(
                Code::UnusualLimit,
                limit.span,
                format!("{what} ({}) is larger than the upload's `maxRequestBytes` ({})", limit.value, total.value),
            )
            .label("cannot be reached")
            .secondary(total.span, "the whole upload")
            .help("lower it to at most `maxRequestBytes`, or raise `maxRequestBytes`"),
        );
    }
}
