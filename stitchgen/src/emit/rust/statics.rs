//! The runtime's definitions ([`crate::present::defs`]) written as Rust statics: every value the
//! generated module declares is one the in-memory service serves. Only what differs from the
//! runtime's `EMPTY` and `PLAIN` values is written.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use stitchgen_runtime as rt;

/// Every schema text of a module, each written once as a private `SCHEMA_n` constant of the
/// service module: operations that share a type share its text, and the module stays small.
#[derive(Default)]
pub(super) struct Texts(std::cell::RefCell<indexmap::IndexMap<String, usize>>);

impl Texts {
    /// The constant holding `text`, as operation modules name it.
    pub(super) fn name(&self, text: String) -> TokenStream {
        let mut texts = self.0.borrow_mut();
        let next = texts.len();
        let index = *texts.entry(text).or_insert(next);
        let name = format_ident!("SCHEMA_{}", index);
        quote!(super::#name)
    }

    /// The constants, in the order first used.
    pub(super) fn constants(&self) -> TokenStream {
        let items = self
            .0
            .borrow()
            .iter()
            .map(|(text, index)| {
                let name = format_ident!("SCHEMA_{}", index);
                let lit = raw_literal(text);
                quote!(const #name: &str = #lit;)
            })
            .collect::<Vec<_>>();
        quote!(#(#items)*)
    }
}

/// `text` as a raw string literal (JSON is full of quotes: a raw literal is easier to read and
/// cheaper to parse than one escape per quote), with enough `#`s that no `"#…` inside ends it
/// early. Compact JSON has no newline or other control character, so the raw form holds it as
/// it is.
pub(super) fn raw_literal(text: &str) -> proc_macro2::Literal {
    if text.chars().any(|c| c.is_control() || super::rewrite::is_bidi(c)) {
        // Escaped, so the source shows what the text holds.
        return proc_macro2::Literal::string(text);
    }
    let mut hashes = String::from("#");
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}").parse().expect("a raw string literal parses")
}

/// `def` as a static's value; schema texts named through the module's shared constants.
pub(super) fn operation(def: &rt::OperationDef, texts: &Texts) -> TokenStream {
    let (service, action, description, scope) = (def.service, def.action, def.description, def.scope);
    let kind = match def.kind {
        rt::OpKind::Contract => quote!(::stitchgen_runtime::OpKind::Contract),
        rt::OpKind::Runtime => quote!(::stitchgen_runtime::OpKind::Runtime),
    };
    let surfaces = if def.surfaces == rt::Surface::ALL {
        quote!(::stitchgen_runtime::Surface::ALL)
    } else {
        let each = def.surfaces.iter().map(|s| surface(*s));
        quote!(&[#(#each),*])
    };
    let schema = |s: Option<&str>| s.map(|s| texts.name(s.to_owned()));
    let mut fields = vec![
        quote!(service: #service),
        quote!(action: #action),
        quote!(kind: #kind),
        quote!(description: #description),
    ];
    some(&mut fields, "method", def.method.map(|m| quote!(#m)));
    some(&mut fields, "path", def.path.map(|p| quote!(#p)));
    fields.push(quote!(scope: #scope));
    fields.push(quote!(surfaces: #surfaces));
    some(&mut fields, "tool_name", def.tool_name.map(|n| quote!(#n)));
    some(&mut fields, "annotations", def.annotations.map(|a| quote!(#a)));
    if !def.param_keys.is_empty() {
        let keys = def.param_keys;
        fields.push(quote!(param_keys: &[#(#keys),*]));
    }
    if !def.params_in.is_empty() {
        let each = def.params_in.iter().map(|p| param_in(*p));
        fields.push(quote!(params_in: &[#(#each),*]));
    }
    if def.input_optional {
        fields.push(quote!(input_optional: true));
    }
    if !def.errors.is_empty() {
        let errors = def.errors;
        fields.push(quote!(errors: &[#(#errors),*]));
    }
    for (field, answers) in [("error_answers", def.error_answers), ("success_answers", def.success_answers)] {
        if answers.is_empty() {
            continue;
        }
        let each = answers.iter().map(|a| {
            let (status, description) = (a.status, opt_str(a.description));
            let schema = match schema(a.schema) {
                Some(s) => quote!(::core::option::Option::Some(#s)),
                None => quote!(::core::option::Option::None),
            };
            quote!(::stitchgen_runtime::AnswerDef { status: #status, description: #description, schema: #schema })
        });
        let field = format_ident!("{field}");
        fields.push(quote!(#field: &[#(#each),*]));
    }
    if !def.security.is_empty() {
        let alternatives = def.security.iter().map(|a| {
            let each = a.iter().map(|c| credential(*c));
            quote!(&[#(#each),*])
        });
        fields.push(quote!(security: &[#(#alternatives),*]));
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
            let name = format_ident!("{name}");
            let each = list.iter().map(field);
            fields.push(quote!(#name: &[#(#each),*]));
        }
    }
    some(&mut fields, "wrap", def.wrap.map(|w| quote!(#w)));
    if !def.input_required.is_empty() {
        let each = def.input_required.iter().map(|q| {
            let (key, message, schema) = (q.key, q.message, q.schema);
            quote!(::stitchgen_runtime::InputRequiredDef { key: #key, message: #message, schema: #schema })
        });
        fields.push(quote!(input_required: &[#(#each),*]));
    }
    if def.limits != rt::LimitsDef::NONE {
        let (body, answer) = (opt_u64(def.limits.max_body_bytes), opt_u64(def.limits.max_answer_bytes));
        fields
            .push(quote!(limits: ::stitchgen_runtime::LimitsDef { max_body_bytes: #body, max_answer_bytes: #answer }));
    }
    if !plain(&def.http_kind) {
        let kind = http_kind(&def.http_kind, texts);
        fields.push(quote!(http_kind: #kind));
    }
    quote! {
        ::stitchgen_runtime::OperationDef {
            #(#fields,)*
            ..::stitchgen_runtime::OperationDef::EMPTY
        }
    }
}

/// The static `SLICE` a slice view's definition refers to, when `def` has one.
pub(super) fn slice(def: &rt::OperationDef) -> Option<TokenStream> {
    let plan = slice_plan(def.view.as_ref()?.slice?);
    Some(quote! {
        #[doc = " The field copies that turn the full output into the tool answer."]
        pub static SLICE: ::stitchgen_runtime::SlicePlan = #plan;
    })
}

fn surface(s: rt::Surface) -> TokenStream {
    match s {
        rt::Surface::Http => quote!(::stitchgen_runtime::Surface::Http),
        rt::Surface::Mcp => quote!(::stitchgen_runtime::Surface::Mcp),
        rt::Surface::Agent => quote!(::stitchgen_runtime::Surface::Agent),
        rt::Surface::Cli => quote!(::stitchgen_runtime::Surface::Cli),
    }
}

fn credential(c: rt::Credential) -> TokenStream {
    let c_ = quote!(::stitchgen_runtime::Credential);
    match c {
        rt::Credential::Bearer(name) => quote!(#c_::Bearer(#name)),
        rt::Credential::Basic(name) => quote!(#c_::Basic(#name)),
        rt::Credential::Header(name, param) => quote!(#c_::Header(#name, #param)),
        rt::Credential::Query(name, param) => quote!(#c_::Query(#name, #param)),
        rt::Credential::Cookie(name, param) => quote!(#c_::Cookie(#name, #param)),
    }
}

fn param_in(p: rt::ParamIn) -> TokenStream {
    let p_ = quote!(::stitchgen_runtime::ParamIn);
    match p {
        rt::ParamIn::Query(key, name) => quote!(#p_::Query(#key, #name)),
        rt::ParamIn::DeepObject(key, name, fields) => {
            let fields = fields.iter().map(field);
            quote!(#p_::DeepObject(#key, #name, &[#(#fields),*]))
        }
        rt::ParamIn::QueryJson(key, name) => quote!(#p_::QueryJson(#key, #name)),
        rt::ParamIn::Header(key, name) => quote!(#p_::Header(#key, #name)),
        rt::ParamIn::Cookie(key, name) => quote!(#p_::Cookie(#key, #name)),
    }
}

/// A view's definition: what the contract declares, the rest from `ViewDef::EMPTY`; a slice
/// refers to the operation module's `SLICE`.
fn view(v: &rt::ViewDef, texts: &Texts) -> TokenStream {
    let mut fields = Vec::new();
    if v.defaults != rt::ViewDef::EMPTY.defaults {
        let defaults = raw_literal(v.defaults);
        fields.push(quote!(defaults: #defaults));
    }
    if let Some(schema) = v.output_schema {
        let name = texts.name(schema.to_owned());
        fields.push(quote!(output_schema: ::core::option::Option::Some(#name)));
    }
    if v.project {
        fields.push(quote!(project: true));
    }
    if v.slice.is_some() {
        fields.push(quote!(slice: ::core::option::Option::Some(&SLICE)));
    }
    quote!(::stitchgen_runtime::ViewDef { #(#fields,)* ..::stitchgen_runtime::ViewDef::EMPTY })
}

fn field(f: &rt::FieldDef) -> TokenStream {
    let (name, types, items, values, required) = (f.name, f.types, f.items, f.values, f.required);
    let (default, description) = (opt_str(f.default), f.description);
    quote!(::stitchgen_runtime::FieldDef {
        name: #name,
        types: &[#(#types),*],
        items: &[#(#items),*],
        values: &[#(#values),*],
        required: #required,
        default: #default,
        description: #description,
    })
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
fn http_kind(k: &rt::HttpKindDef, texts: &Texts) -> TokenStream {
    let (raw_response, raw_body) = (k.raw_response, k.raw_body);
    let (content_type, input_content_type) = (opt_str(k.content_type), opt_str(k.input_content_type));
    let multipart = match &k.multipart {
        Some(m) => {
            let files = m.files.iter().map(|f| {
                let (name, required, multiple, types) = (f.name, f.required, f.multiple, f.content_types);
                let (max_files, max_bytes) = (opt_u64(f.max_files), opt_u64(f.max_bytes));
                quote!(::stitchgen_runtime::FileFieldDef { name: #name, required: #required, multiple: #multiple, max_files: #max_files, max_bytes: #max_bytes, content_types: &[#(#types),*] })
            });
            let (request, field) = (opt_u64(m.max_request_bytes), opt_u64(m.max_field_bytes));
            quote!(::core::option::Option::Some(::stitchgen_runtime::MultipartDef { files: &[#(#files),*], max_request_bytes: #request, max_field_bytes: #field }))
        }
        None => quote!(::core::option::Option::None),
    };
    let status = match k.status {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    };
    let headers = k.headers.iter().map(|h| {
        let (name, required) = (h.name, h.required);
        quote!(::stitchgen_runtime::HeaderDef { name: #name, required: #required })
    });
    let stream = match &k.stream {
        Some(st) => {
            let format = match st.format {
                rt::StreamFormat::Ndjson => quote!(::stitchgen_runtime::StreamFormat::Ndjson),
                rt::StreamFormat::Sse => quote!(::stitchgen_runtime::StreamFormat::Sse),
            };
            let (envelope, terminal) = (st.envelope, st.terminal);
            let item = texts.name(st.item_schema.to_owned());
            let terminal_schema = match st.terminal_schema {
                Some(t) => {
                    let name = texts.name(t.to_owned());
                    quote!(::core::option::Option::Some(#name))
                }
                None => quote!(::core::option::Option::None),
            };
            let (frame, heartbeat, lifetime, idle) = (
                opt_u64(st.max_frame_bytes),
                opt_u64(st.heartbeat_ms),
                opt_u64(st.lifetime_ms),
                opt_u64(st.idle_timeout_seconds),
            );
            quote!(::core::option::Option::Some(::stitchgen_runtime::StreamDef {
                format: #format, envelope: #envelope, terminal: #terminal, item_schema: #item,
                terminal_schema: #terminal_schema, max_frame_bytes: #frame, heartbeat_ms: #heartbeat,
                lifetime_ms: #lifetime, idle_timeout_seconds: #idle,
            }))
        }
        None => quote!(::core::option::Option::None),
    };
    quote! {
        ::stitchgen_runtime::HttpKindDef {
            raw_response: #raw_response,
            content_type: #content_type,
            raw_body: #raw_body,
            input_content_type: #input_content_type,
            multipart: #multipart,
            status: #status,
            headers: &[#(#headers),*],
            stream: #stream,
        }
    }
}

fn slice_plan(plan: &rt::SlicePlan) -> TokenStream {
    match plan {
        rt::SlicePlan::Keep => quote!(::stitchgen_runtime::SlicePlan::Keep),
        rt::SlicePlan::Object(fields) => {
            let each = fields.iter().map(|(k, p)| {
                let p = slice_plan(p);
                quote!((#k, #p))
            });
            quote!(::stitchgen_runtime::SlicePlan::Object(&[#(#each),*]))
        }
        rt::SlicePlan::Array(p) => {
            let p = slice_plan(p);
            quote!(::stitchgen_runtime::SlicePlan::Array(&#p))
        }
    }
}

/// `name: Some(value)` among a static definition's fields, when there is a value.
fn some(fields: &mut Vec<TokenStream>, name: &str, value: Option<TokenStream>) {
    if let Some(value) = value {
        let name = format_ident!("{name}");
        fields.push(quote!(#name: ::core::option::Option::Some(#value)));
    }
}

fn opt_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

fn opt_u64(n: Option<u64>) -> TokenStream {
    match n {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    }
}
