//! The runtime's definitions ([`crate::present::defs`]) written as Rust statics: every value the
//! generated module declares is one the in-memory service serves. Only what differs from the
//! runtime's `EMPTY` and `PLAIN` values is written.

use stitchgen_runtime as rt;

use super::layout::Expr;

/// Every schema text of a module, each written once as a private `SCHEMA_n` constant of the
/// service module: operations that share a type share its text, and the module stays small.
#[derive(Default)]
pub(super) struct Texts(std::cell::RefCell<indexmap::IndexMap<String, usize>>);

impl Texts {
    /// The constant holding `text`, as operation modules name it.
    pub(super) fn name(&self, text: &str) -> Expr {
        let mut texts = self.0.borrow_mut();
        let index = match texts.get(text) {
            Some(&index) => index,
            None => {
                let next = texts.len();
                texts.insert(text.to_owned(), next);
                next
            }
        };
        Expr::Word(format!("super::SCHEMA_{index}"))
    }

    /// The constants, in the order first used, as printed inside the service module.
    pub(super) fn constants(&self) -> String {
        let mut out = String::new();
        for (text, index) in self.0.borrow().iter() {
            let lit = raw_literal_text(text);
            out.push_str(&format!("    const SCHEMA_{index}: &str = {lit};\n"));
        }
        out
    }
}

/// `text` as the text of a raw string literal (JSON is full of quotes: a raw literal is easier to read and
/// cheaper to parse than one escape per quote), with enough `#`s that no `"#…` inside ends it
/// early. Compact JSON has no newline or other control character, so the raw form holds it as
/// it is.
pub(super) fn raw_literal_text(text: &str) -> String {
    if text.chars().any(|c| c.is_control() || super::rewrite::is_bidi(c)) {
        // Escaped, so the source shows what the text holds.
        return proc_macro2::Literal::string(text).to_string();
    }
    let mut hashes = String::from("#");
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}")
}

/// `def` as a static's value; schema texts named through the module's shared constants.
pub(super) fn operation(def: &rt::OperationDef, texts: &Texts) -> Expr {
    let kind = match def.kind {
        rt::OpKind::Contract => "::stitchgen_runtime::OpKind::Contract",
        rt::OpKind::Runtime => "::stitchgen_runtime::OpKind::Runtime",
    };
    let surfaces = if def.surfaces == rt::Surface::ALL {
        Expr::word("::stitchgen_runtime::Surface::ALL")
    } else {
        Expr::slice(def.surfaces.iter().map(|s| surface(*s)).collect())
    };
    let schema = |s: Option<&str>| s.map(|s| texts.name(s));
    let mut fields = vec![
        ("service", Expr::str(def.service)),
        ("action", Expr::str(def.action)),
        ("kind", Expr::word(kind)),
        ("description", Expr::str(def.description)),
    ];
    some(&mut fields, "method", def.method.map(Expr::str));
    some(&mut fields, "path", def.path.map(Expr::str));
    fields.push(("scope", Expr::str(def.scope)));
    fields.push(("surfaces", surfaces));
    some(&mut fields, "tool_name", def.tool_name.map(Expr::str));
    some(&mut fields, "annotations", def.annotations.map(Expr::str));
    if !def.param_keys.is_empty() {
        fields.push(("param_keys", strs(def.param_keys)));
    }
    if !def.params_in.is_empty() {
        fields.push(("params_in", Expr::slice(def.params_in.iter().map(|p| param_in(*p)).collect())));
    }
    if def.input_optional {
        fields.push(("input_optional", Expr::bool(true)));
    }
    if !def.errors.is_empty() {
        fields.push(("errors", strs(def.errors)));
    }
    for (field, answers) in [("error_answers", def.error_answers), ("success_answers", def.success_answers)] {
        if answers.is_empty() {
            continue;
        }
        let each = answers.iter().map(|a| {
            let schema = match schema(a.schema) {
                Some(s) => Expr::some(s),
                None => Expr::none(),
            };
            let fields = vec![
                ("status", Expr::int(a.status, "u16")),
                ("description", opt_str(a.description)),
                ("schema", schema),
            ];
            Expr::Struct("::stitchgen_runtime::AnswerDef", fields, None)
        });
        fields.push((field, Expr::slice(each.collect())));
    }
    if !def.security.is_empty() {
        let alternatives = def.security.iter().map(|a| Expr::slice(a.iter().map(|c| credential(*c)).collect()));
        fields.push(("security", Expr::slice(alternatives.collect())));
    }
    some(&mut fields, "params_schema", schema(def.params_schema));
    some(&mut fields, "input_schema", schema(def.input_schema));
    some(&mut fields, "output_schema", schema(def.output_schema));
    some(&mut fields, "view", def.view.as_ref().map(|v| view(v, texts)));
    some(&mut fields, "tool_input_schema", schema(def.tool_input_schema));
    for (name, list) in
        [("param_fields", def.param_fields), ("input_fields", def.input_fields), ("tool_fields", def.tool_fields)]
    {
        if !list.is_empty() {
            fields.push((name, Expr::slice(list.iter().map(field).collect())));
        }
    }
    some(&mut fields, "wrap", def.wrap.map(Expr::str));
    if !def.input_required.is_empty() {
        let each = def.input_required.iter().map(|q| {
            let fields =
                vec![("key", Expr::str(q.key)), ("message", Expr::str(q.message)), ("schema", Expr::str(q.schema))];
            Expr::Struct("::stitchgen_runtime::InputRequiredDef", fields, None)
        });
        fields.push(("input_required", Expr::slice(each.collect())));
    }
    if def.limits != rt::LimitsDef::NONE {
        let limits = vec![
            ("max_body_bytes", opt_u64(def.limits.max_body_bytes)),
            ("max_answer_bytes", opt_u64(def.limits.max_answer_bytes)),
        ];
        fields.push(("limits", Expr::Struct("::stitchgen_runtime::LimitsDef", limits, None)));
    }
    if !plain(&def.http_kind) {
        fields.push(("http_kind", http_kind(&def.http_kind, texts)));
    }
    Expr::Struct("::stitchgen_runtime::OperationDef", fields, Some("::stitchgen_runtime::OperationDef::EMPTY"))
}

/// The static `SLICE` a slice view's definition refers to, when `def` has one, as printed inside
/// the operation's module.
pub(super) fn slice(def: &rt::OperationDef) -> Option<String> {
    let plan = slice_plan(def.view.as_ref()?.slice?);
    let doc = " The field copies that turn the full output into the tool answer.";
    Some(super::layout::static_item(2, doc, "SLICE", "::stitchgen_runtime::SlicePlan", &plan))
}

fn strs(list: &[&str]) -> Expr {
    Expr::slice(list.iter().map(|s| Expr::str(s)).collect())
}

fn surface(s: rt::Surface) -> Expr {
    Expr::word(match s {
        rt::Surface::Http => "::stitchgen_runtime::Surface::Http",
        rt::Surface::Mcp => "::stitchgen_runtime::Surface::Mcp",
        rt::Surface::Agent => "::stitchgen_runtime::Surface::Agent",
        rt::Surface::Cli => "::stitchgen_runtime::Surface::Cli",
    })
}

fn credential(c: rt::Credential) -> Expr {
    let (variant, args) = match c {
        rt::Credential::Bearer(name) => ("::stitchgen_runtime::Credential::Bearer", vec![name]),
        rt::Credential::Basic(name) => ("::stitchgen_runtime::Credential::Basic", vec![name]),
        rt::Credential::Header(name, param) => ("::stitchgen_runtime::Credential::Header", vec![name, param]),
        rt::Credential::Query(name, param) => ("::stitchgen_runtime::Credential::Query", vec![name, param]),
        rt::Credential::Cookie(name, param) => ("::stitchgen_runtime::Credential::Cookie", vec![name, param]),
    };
    Expr::Call(variant, args.into_iter().map(Expr::str).collect())
}

fn param_in(p: rt::ParamIn) -> Expr {
    let pair = |variant, key, name| Expr::Call(variant, vec![Expr::str(key), Expr::str(name)]);
    match p {
        rt::ParamIn::Query(key, name) => pair("::stitchgen_runtime::ParamIn::Query", key, name),
        rt::ParamIn::DeepObject(key, name, fields) => Expr::Call(
            "::stitchgen_runtime::ParamIn::DeepObject",
            vec![Expr::str(key), Expr::str(name), Expr::slice(fields.iter().map(field).collect())],
        ),
        rt::ParamIn::QueryJson(key, name) => pair("::stitchgen_runtime::ParamIn::QueryJson", key, name),
        rt::ParamIn::Header(key, name) => pair("::stitchgen_runtime::ParamIn::Header", key, name),
        rt::ParamIn::Cookie(key, name) => pair("::stitchgen_runtime::ParamIn::Cookie", key, name),
    }
}

/// A view's definition: what the contract declares, the rest from `ViewDef::EMPTY`; a slice
/// refers to the operation module's `SLICE`.
fn view(v: &rt::ViewDef, texts: &Texts) -> Expr {
    let mut fields = Vec::new();
    if v.defaults != rt::ViewDef::EMPTY.defaults {
        fields.push(("defaults", Expr::Word(raw_literal_text(v.defaults))));
    }
    if let Some(schema) = v.output_schema {
        fields.push(("output_schema", Expr::some(texts.name(schema))));
    }
    if v.project {
        fields.push(("project", Expr::bool(true)));
    }
    if v.slice.is_some() {
        fields.push(("slice", Expr::some(Expr::word("&SLICE"))));
    }
    Expr::Struct("::stitchgen_runtime::ViewDef", fields, Some("::stitchgen_runtime::ViewDef::EMPTY"))
}

fn field(f: &rt::FieldDef) -> Expr {
    let fields = vec![
        ("name", Expr::str(f.name)),
        ("types", strs(f.types)),
        ("items", strs(f.items)),
        ("values", strs(f.values)),
        ("required", Expr::bool(f.required)),
        ("default", opt_str(f.default)),
        ("description", Expr::str(f.description)),
    ];
    Expr::Struct("::stitchgen_runtime::FieldDef", fields, None)
}

/// Whether `k` is `HttpKindDef::PLAIN`: nothing an ordinary JSON endpoint lacks.
fn plain(k: &rt::HttpKindDef) -> bool {
    !k.raw_response
        && k.content_type.is_none()
        && !k.raw_body
        && k.input_content_type.is_none()
        && k.multipart.is_none()
        && k.status.is_none()
        && k.headers.is_empty()
        && k.stream.is_none()
}

/// The HTTP-only kinds and the declared status and headers, every field written.
fn http_kind(k: &rt::HttpKindDef, texts: &Texts) -> Expr {
    let multipart = match &k.multipart {
        Some(m) => {
            let files = m.files.iter().map(|f| {
                let fields = vec![
                    ("name", Expr::str(f.name)),
                    ("required", Expr::bool(f.required)),
                    ("multiple", Expr::bool(f.multiple)),
                    ("max_files", opt_u64(f.max_files)),
                    ("max_bytes", opt_u64(f.max_bytes)),
                    ("content_types", strs(f.content_types)),
                ];
                Expr::Struct("::stitchgen_runtime::FileFieldDef", fields, None)
            });
            let fields = vec![
                ("files", Expr::slice(files.collect())),
                ("max_request_bytes", opt_u64(m.max_request_bytes)),
                ("max_field_bytes", opt_u64(m.max_field_bytes)),
            ];
            Expr::some(Expr::Struct("::stitchgen_runtime::MultipartDef", fields, None))
        }
        None => Expr::none(),
    };
    let status = match k.status {
        Some(s) => Expr::some(Expr::int(s, "u16")),
        None => Expr::none(),
    };
    let headers = k.headers.iter().map(|h| {
        let fields = vec![("name", Expr::str(h.name)), ("required", Expr::bool(h.required))];
        Expr::Struct("::stitchgen_runtime::HeaderDef", fields, None)
    });
    let stream = match &k.stream {
        Some(st) => {
            let format = match st.format {
                rt::StreamFormat::Ndjson => "::stitchgen_runtime::StreamFormat::Ndjson",
                rt::StreamFormat::Sse => "::stitchgen_runtime::StreamFormat::Sse",
            };
            let terminal_schema = match st.terminal_schema {
                Some(t) => Expr::some(texts.name(t)),
                None => Expr::none(),
            };
            let fields = vec![
                ("format", Expr::word(format)),
                ("envelope", Expr::bool(st.envelope)),
                ("terminal", Expr::bool(st.terminal)),
                ("item_schema", texts.name(st.item_schema)),
                ("terminal_schema", terminal_schema),
                ("max_frame_bytes", opt_u64(st.max_frame_bytes)),
                ("heartbeat_ms", opt_u64(st.heartbeat_ms)),
                ("lifetime_ms", opt_u64(st.lifetime_ms)),
                ("idle_timeout_seconds", opt_u64(st.idle_timeout_seconds)),
            ];
            Expr::some(Expr::Struct("::stitchgen_runtime::StreamDef", fields, None))
        }
        None => Expr::none(),
    };
    let fields = vec![
        ("raw_response", Expr::bool(k.raw_response)),
        ("content_type", opt_str(k.content_type)),
        ("raw_body", Expr::bool(k.raw_body)),
        ("input_content_type", opt_str(k.input_content_type)),
        ("multipart", multipart),
        ("status", status),
        ("headers", Expr::slice(headers.collect())),
        ("stream", stream),
    ];
    Expr::Struct("::stitchgen_runtime::HttpKindDef", fields, None)
}

fn slice_plan(plan: &rt::SlicePlan) -> Expr {
    match plan {
        rt::SlicePlan::Keep => Expr::word("::stitchgen_runtime::SlicePlan::Keep"),
        rt::SlicePlan::Object(fields) => {
            let each = fields.iter().map(|(k, p)| Expr::Tuple(vec![Expr::str(k), slice_plan(p)]));
            Expr::Call("::stitchgen_runtime::SlicePlan::Object", vec![Expr::slice(each.collect())])
        }
        rt::SlicePlan::Array(p) => {
            Expr::Call("::stitchgen_runtime::SlicePlan::Array", vec![Expr::Ref(Box::new(slice_plan(p)))])
        }
    }
}

/// `name: Some(value)` among a static definition's fields, when there is a value.
fn some(fields: &mut Vec<(&'static str, Expr)>, name: &'static str, value: Option<Expr>) {
    if let Some(value) = value {
        fields.push((name, Expr::some(value)));
    }
}

fn opt_str(s: Option<&str>) -> Expr {
    s.map_or_else(Expr::none, |s| Expr::some(Expr::str(s)))
}

fn opt_u64(n: Option<u64>) -> Expr {
    n.map_or_else(Expr::none, |n| Expr::some(Expr::int(n, "u64")))
}
