//! Operation modules, the handler/projection/presenter traits and the typed dispatch.

use std::collections::BTreeMap;

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, format_ident, quote};
use serde_json::Value;

use super::{doc, ident, schema_name};
use crate::model::{OpKind, Operation, Service};
use crate::parse::ast::{Presenter, Surface};
use crate::present::{self, Refs, Style};

/// Every schema text of a module, each written once as a private `SCHEMA_n` constant of the
/// service module: operations that share a type share its text, and the module stays small.
#[derive(Default)]
pub(super) struct Texts(std::cell::RefCell<indexmap::IndexMap<String, usize>>);

impl Texts {
    /// The constant holding `text`, as operation modules name it.
    fn name(&self, text: String) -> TokenStream {
        let mut texts = self.0.borrow_mut();
        let next = texts.len();
        let index = *texts.entry(text).or_insert(next);
        let name = format_ident!("SCHEMA_{}", index);
        quote!(super::#name)
    }

    /// The constants, in the order first used.
    fn constants(&self) -> TokenStream {
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

/// One operation with the names and types its generated code uses.
pub(super) struct Op<'a> {
    index: usize,
    texts: &'a Texts,
    pub(super) op: &'a Operation,
    svc: &'a Service,
    /// Module and method name.
    pub(super) ident: Ident,
    pub(super) params: Option<TokenStream>,
    pub(super) input: Option<TokenStream>,
    pub(super) output: Option<TokenStream>,
    answer: Option<TokenStream>,
    item: Option<TokenStream>,
    pub(super) terminal: Option<TokenStream>,
}

impl<'a> Op<'a> {
    pub(super) fn new(
        index: usize,
        op: &'a Operation,
        svc: &'a Service,
        paths: &BTreeMap<String, TokenStream>,
        texts: &'a Texts,
    ) -> Self {
        let path = |role: &str| paths.get(&schema_name(op, role)).cloned();
        Op {
            index,
            texts,
            op,
            svc,
            ident: ident(&op.ident),
            params: path("Params"),
            input: path("Input"),
            output: path("Output"),
            answer: path("ToolAnswer"),
            item: path("Item"),
            terminal: path("Terminal"),
        }
    }

    fn projects(&self) -> bool {
        self.op.view.as_ref().is_some_and(|v| v.project)
    }

    fn presenters(&self) -> &[Presenter] {
        &self.op.present
    }

    /// The presenter hook's name (`count_mcp`) and the runtime surface it runs on.
    fn presenter(&self, p: Presenter) -> (Ident, TokenStream) {
        let (suffix, surface) = match p {
            Presenter::Mcp => ("mcp", quote!(::stitchgen_runtime::Surface::Mcp)),
            Presenter::Agent => ("agent", quote!(::stitchgen_runtime::Surface::Agent)),
        };
        (format_ident!("{}_{}", self.ident.to_string().trim_start_matches("r#"), suffix), surface)
    }

    /// The documented response headers of its route.
    fn headers(&self) -> &[crate::model::Header] {
        self.op.http.as_ref().map_or(&[], |h| &h.headers)
    }

    /// Whether the handler answers its documented headers beside the body (`http.headers`), in
    /// the operation's `Headers` type.
    pub(super) fn headed(&self) -> bool {
        !self.op.http_kind.response_meta && !self.headers().is_empty()
    }

    /// The `Headers` type of a headed operation: a field per documented header, `String` where
    /// the header is required, and the names back for HTTP.
    fn headers_type(&self) -> Option<TokenStream> {
        if !self.headed() {
            return None;
        }
        let headers = self.headers();
        let fields = crate::naming::dedup_idents(headers.iter().map(|h| crate::naming::field_ident(&h.name)).collect());
        let fields: Vec<Ident> =
            fields.iter().map(|f| syn::parse_str(f).expect("field_ident makes identifiers")).collect();
        let decls = headers.iter().zip(&fields).map(|(h, f)| {
            let text = match &h.desc {
                Some(d) => format!(" `{}`: {d}", h.name),
                None => format!(" The `{}` header.", h.name),
            };
            let ty = if h.required {
                quote!(::std::string::String)
            } else {
                quote!(::core::option::Option<::std::string::String>)
            };
            quote!(#[doc = #text] pub #f: #ty,)
        });
        let pairs = headers.iter().zip(&fields).map(|(h, f)| {
            let name = &h.name;
            if h.required { quote!((#name, ::core::option::Option::Some(self.#f))) } else { quote!((#name, self.#f)) }
        });
        let read = headers.iter().zip(&fields).map(|(h, f)| {
            let name = &h.name;
            if h.required {
                quote!(#f: ::stitchgen_runtime::__private::required_header(pairs, #name)?,)
            } else {
                quote!(#f: ::stitchgen_runtime::__private::header_value(pairs, #name),)
            }
        });
        let default = headers.iter().all(|h| !h.required).then(|| quote!(Default,));
        let what =
            format!(" Response headers of `{}` on HTTP; the tool surfaces answer the body alone.", self.op.action);
        Some(quote! {
            #[doc = #what]
            #[derive(Clone, Debug, #default PartialEq, Eq)]
            pub struct Headers { #(#decls)* }
            impl ::stitchgen_runtime::ResponseHeaders for Headers {
                fn into_pairs(self) -> ::std::vec::Vec<(::std::string::String, ::std::string::String)> {
                    ::stitchgen_runtime::__private::header_pairs([#(#pairs),*])
                }
                fn from_pairs(pairs: &[(::std::string::String, ::std::string::String)]) -> ::core::result::Result<Self, ::std::string::String> {
                    ::core::result::Result::Ok(Headers { #(#read)* })
                }
            }
        })
    }

    /// The handler's success type.
    pub(super) fn returns(&self) -> TokenStream {
        let m = &self.ident;
        let k = &self.op.http_kind;
        let out = if self.output.is_some() { quote!(#m::Output) } else { quote!(()) };
        if k.raw_response.is_some() {
            quote!(::stitchgen_runtime::RawResponse)
        } else if k.stream.is_some() && self.terminal.is_some() {
            quote!(::stitchgen_runtime::ItemStream<::stitchgen_runtime::Frame<#m::Item, #m::Terminal>>)
        } else if k.stream.is_some() {
            quote!(::stitchgen_runtime::ItemStream<#m::Item>)
        } else if k.response_meta {
            quote!(::stitchgen_runtime::WithMeta<#out>)
        } else if self.headed() {
            quote!(::stitchgen_runtime::Headed<#out, #m::Headers>)
        } else {
            out
        }
    }

    /// `(name: Type, …)` after `&self, ctx`.
    pub(super) fn args(&self) -> Vec<(Ident, TokenStream)> {
        let m = &self.ident;
        let mut a = Vec::new();
        if self.params.is_some() {
            a.push((format_ident!("params"), quote!(#m::Params)));
        }
        if self.input.is_some() {
            a.push((format_ident!("input"), quote!(#m::Input)));
        }
        if self.op.http_kind.raw_body {
            a.push((format_ident!("raw"), quote!(::stitchgen_runtime::RawBody)));
        }
        if self.op.http_kind.multipart.is_some() {
            a.push((format_ident!("upload"), quote!(::stitchgen_runtime::Upload)));
        }
        a
    }

    fn module(&self) -> TokenStream {
        let m = &self.ident;
        let d = doc(&self.op.desc);
        let action = &self.op.action;
        let mut items = Vec::new();
        let mut alias = |name: &str, ty: &Option<TokenStream>, what: &str| {
            if let Some(ty) = ty {
                let name = format_ident!("{}", name);
                let text = format!(" {what} of `{action}`.");
                items.push(quote!(#[doc = #text] pub type #name = #ty;));
            }
        };
        alias("Params", &self.params, "Path parameters");
        alias("Input", &self.input, "Input");
        alias("Output", &self.output, "Full output");
        alias("Item", &self.item, "One stream item");
        alias("Terminal", &self.terminal, "The terminal stream frame");
        if self.op.view.is_some() {
            let answer = self.answer.clone().or_else(|| self.output.clone());
            alias("ToolAnswer", &answer, "Answer on the tool surfaces (the view)");
        }
        let uses_types = items.iter().any(|t| t.to_string().contains("types ::"));
        let import = uses_types.then(|| {
            quote!(
                use super::types;
            )
        });
        let def = self.def();
        let slice = self.slice_static();
        let headers = self.headers_type();
        quote! {
            #d
            pub mod #m {
                #import
                #(#items)*
                #headers
                #slice
                #[doc = " What the contract declares about this operation."]
                pub static OPERATION: ::stitchgen_runtime::OperationDef = #def;
            }
        }
    }

    /// A schema as compact JSON text, named through the module's shared constants.
    fn standalone(&self, schema: &Value) -> TokenStream {
        self.texts.name(serde_json::to_string(schema).expect("JSON values serialize"))
    }

    /// A schema's text constant, when there is a schema.
    fn schema_text(&self, schema: Option<&Value>) -> Option<TokenStream> {
        schema.map(|s| self.standalone(&present::schema(s, self.svc, REGISTRY)))
    }

    /// The tool surfaces' input schema, for operations on one.
    /// The fields text arrives in ([`present::text_fields`]): path parameters; the input where
    /// it is read from text (the query, an upload's form fields); a CLI tool's flags.
    fn text_fields(&self) -> [(&'static str, Vec<present::TextField>); 3] {
        let (op, svc) = (self.op, self.svc);
        let of = |part: &Option<Value>| part.as_ref().map(|p| present::text_fields(p, svc));
        let from_text = op.http.as_ref().is_some_and(|h| h.method.input_in_query()) || op.http_kind.multipart.is_some();
        [
            ("param_fields", of(&op.params).unwrap_or_default()),
            ("input_fields", if from_text { of(&op.input).unwrap_or_default() } else { Vec::new() }),
            (
                "tool_fields",
                if op.surfaces.contains(&Surface::Cli) { present::tool_fields(op, svc) } else { Vec::new() },
            ),
        ]
    }

    fn tool_input_text(&self) -> Option<TokenStream> {
        // The CLI reads its flags from it; the tool surfaces' input, as the CLI shows it.
        self.op.is_tool().then(|| self.standalone(&present::tool_input(self.op, self.svc, Surface::Cli)))
    }

    /// The HTTP-only kinds and the declared status and headers, as a static description (an
    /// operation with none takes `PLAIN`).
    fn http_kind(&self) -> TokenStream {
        let k = &self.op.http_kind;
        let raw_response = k.raw_response.is_some();
        let content_type = opt_str(k.raw_response.clone().flatten().as_deref());
        let raw_body = k.raw_body;
        let multipart = match &k.multipart {
            Some(m) => {
                let files = m.files.iter().map(|f| {
                    let (name, required, multiple) = (&f.name, f.required, f.multiple);
                    let (max_files, max_bytes) = (opt_u64(f.max_files), opt_u64(f.max_bytes));
                    let types = &f.content_types;
                    quote!(::stitchgen_runtime::FileFieldDef { name: #name, required: #required, multiple: #multiple, max_files: #max_files, max_bytes: #max_bytes, content_types: &[#(#types),*] })
                });
                let (request, field) = (opt_u64(m.max_request_bytes), opt_u64(m.max_field_bytes));
                quote!(::core::option::Option::Some(::stitchgen_runtime::MultipartDef { files: &[#(#files),*], max_request_bytes: #request, max_field_bytes: #field }))
            }
            None => quote!(::core::option::Option::None),
        };
        let status = match self.op.http.as_ref().and_then(|h| h.status) {
            Some(s) => quote!(::core::option::Option::Some(#s)),
            None => quote!(::core::option::Option::None),
        };
        let input_content_type = opt_str(self.op.http.as_ref().and_then(|h| h.input_content_type.as_deref()));
        let headers = self.headers().iter().map(|h| {
            let (name, required) = (&h.name, h.required);
            quote!(::stitchgen_runtime::HeaderDef { name: #name, required: #required })
        });
        let stream = match &k.stream {
            Some(st) => {
                let format = match st.format {
                    crate::parse::ast::StreamFormat::Ndjson => quote!(::stitchgen_runtime::StreamFormat::Ndjson),
                    crate::parse::ast::StreamFormat::Sse => quote!(::stitchgen_runtime::StreamFormat::Sse),
                };
                let envelope = st.framing == crate::parse::ast::Framing::Envelope;
                let terminal = st.completion == crate::parse::ast::Completion::Terminal;
                let item = self.standalone(&present::schema(&st.item, self.svc, REGISTRY));
                let terminal_schema = match &st.terminal {
                    Some(t) => {
                        let text = self.standalone(&present::schema(t, self.svc, REGISTRY));
                        quote!(::core::option::Option::Some(#text))
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

    /// The operation's static definition: what the contract declares, every field left absent
    /// taken from `OperationDef::EMPTY`.
    fn def(&self) -> TokenStream {
        let op = self.op;
        let (service, action, desc, scope) = (&op.service, &op.action, &op.desc, &op.scope);
        let kind = match op.kind {
            OpKind::Contract => quote!(::stitchgen_runtime::OpKind::Contract),
            OpKind::Runtime => quote!(::stitchgen_runtime::OpKind::Runtime),
        };
        let surfaces = if op.surfaces == [Surface::Http, Surface::Mcp, Surface::Agent, Surface::Cli] {
            quote!(::stitchgen_runtime::Surface::ALL)
        } else {
            let each = op.surfaces.iter().map(|s| match s {
                Surface::Http => quote!(::stitchgen_runtime::Surface::Http),
                Surface::Mcp => quote!(::stitchgen_runtime::Surface::Mcp),
                Surface::Agent => quote!(::stitchgen_runtime::Surface::Agent),
                Surface::Cli => quote!(::stitchgen_runtime::Surface::Cli),
            });
            quote!(&[#(#each),*])
        };
        let mut fields =
            vec![quote!(service: #service), quote!(action: #action), quote!(kind: #kind), quote!(description: #desc)];
        some(&mut fields, "method", op.http.as_ref().map(|h| h.method.as_str().to_token_stream()));
        some(&mut fields, "path", op.http.as_ref().map(|h| h.path.to_token_stream()));
        fields.push(quote!(scope: #scope));
        fields.push(quote!(surfaces: #surfaces));
        some(&mut fields, "tool_name", op.tool_name.as_ref().map(|n| n.to_token_stream()));
        some(&mut fields, "annotations", op.annotations.as_ref().map(|a| a.to_string().to_token_stream()));
        let param_keys: Vec<String> = op
            .params
            .as_ref()
            .map(|p| present::resolve(p, self.svc))
            .and_then(|p| p.get("properties")?.as_object().map(|m| m.keys().cloned().collect()))
            .unwrap_or_default();
        if !param_keys.is_empty() {
            fields.push(quote!(param_keys: &[#(#param_keys),*]));
        }
        if !op.errors.is_empty() {
            let errors = &op.errors;
            fields.push(quote!(errors: &[#(#errors),*]));
        }
        let security = self.security();
        if !security.is_empty() {
            fields.push(quote!(security: &[#(&[#(#security),*]),*]));
        }
        some(&mut fields, "params_schema", self.schema_text(op.params.as_ref()));
        some(&mut fields, "input_schema", self.schema_text(op.input.as_ref()));
        some(&mut fields, "output_schema", self.schema_text(op.output.as_ref()));
        some(&mut fields, "view", op.view.as_ref().map(|v| self.view_def(v)));
        some(&mut fields, "tool_input_schema", self.tool_input_text());
        for (name, text_fields) in self.text_fields() {
            if !text_fields.is_empty() {
                let name = format_ident!("{name}");
                let each = text_fields.iter().map(field_def);
                fields.push(quote!(#name: &[#(#each),*]));
            }
        }
        some(&mut fields, "wrap", op.wrap.map(|w| crate::schema::Wrap::key(w).to_token_stream()));
        if let Some(limits) = op.http.as_ref().map(|h| h.limits).filter(|l| *l != crate::model::Limits::default()) {
            let (body, answer) = (opt_u64(limits.max_body_bytes), opt_u64(limits.max_answer_bytes));
            fields.push(
                quote!(limits: ::stitchgen_runtime::LimitsDef { max_body_bytes: #body, max_answer_bytes: #answer }),
            );
        }
        let declared =
            |h: &crate::model::Http| h.status.is_some() || !h.headers.is_empty() || h.input_content_type.is_some();
        if op.http_kind.any() || op.http.as_ref().is_some_and(declared) {
            let kind = self.http_kind();
            fields.push(quote!(http_kind: #kind));
        }
        quote! {
            ::stitchgen_runtime::OperationDef {
                #(#fields,)*
                ..::stitchgen_runtime::OperationDef::EMPTY
            }
        }
    }

    /// The operation's security alternatives as the client sends them; an alternative with a
    /// scheme no client can send (HTTP digest, mutual TLS) is left out.
    fn security(&self) -> Vec<Vec<TokenStream>> {
        let schemes = &self.svc.security_schemes;
        let credential = |name: &String| -> Option<TokenStream> {
            let s = schemes.get(name)?;
            let text = |k: &str| s.get(k).and_then(serde_json::Value::as_str);
            let c = quote!(::stitchgen_runtime::Credential);
            Some(match (text("type")?, text("scheme").map(str::to_ascii_lowercase).as_deref(), text("in")) {
                ("http", Some("bearer"), _) | ("oauth2" | "openIdConnect", _, _) => quote!(#c::Bearer(#name)),
                ("http", Some("basic"), _) => quote!(#c::Basic(#name)),
                ("apiKey", _, Some(place)) => {
                    let param = text("name")?;
                    match place {
                        "header" => quote!(#c::Header(#name, #param)),
                        "query" => quote!(#c::Query(#name, #param)),
                        _ => quote!(#c::Cookie(#name, #param)),
                    }
                }
                _ => return None,
            })
        };
        let alternatives = self.op.security.iter().flatten();
        alternatives.filter_map(|a| a.keys().map(credential).collect::<Option<Vec<_>>>()).collect()
    }

    /// A view's static definition: what the contract declares, the rest from `ViewDef::EMPTY`.
    fn view_def(&self, v: &crate::model::View) -> TokenStream {
        let mut fields = Vec::new();
        if !v.defaults.is_empty() {
            let defaults = raw_literal(&Value::Object(v.defaults.clone()).to_string());
            fields.push(quote!(defaults: #defaults));
        }
        if let Some(schema) = self.schema_text(v.output.as_ref()) {
            fields.push(quote!(output_schema: ::core::option::Option::Some(#schema)));
        }
        if v.project {
            fields.push(quote!(project: true));
        }
        if v.output.is_some() && !v.project {
            fields.push(quote!(slice: ::core::option::Option::Some(&SLICE)));
        }
        quote!(::stitchgen_runtime::ViewDef { #(#fields,)* ..::stitchgen_runtime::ViewDef::EMPTY })
    }

    /// The field copies of a slice view, as a static plan.
    fn slice_static(&self) -> Option<TokenStream> {
        let view = self.op.view.as_ref().filter(|v| !v.project)?;
        let plan = slice_plan(view.output.as_ref()?, self.svc, &mut Vec::new());
        Some(quote! {
            #[doc = " The field copies that turn the full output into the tool answer."]
            pub static SLICE: ::stitchgen_runtime::SlicePlan = #plan;
        })
    }

    fn handler_method(&self) -> TokenStream {
        let m = &self.ident;
        let d = doc(&self.op.desc);
        let args = self.args().into_iter().map(|(n, t)| quote!(#n: #t));
        let ret = self.returns();
        quote! {
            #d
            fn #m(&self, ctx: &::stitchgen_runtime::Ctx #(, #args)*) -> impl ::core::future::Future<Output = ::stitchgen_runtime::Reply<#ret>> + ::core::marker::Send;
        }
    }

    fn view_method(&self) -> Option<TokenStream> {
        if !self.projects() {
            return None;
        }
        let m = &self.ident;
        let input = if self.input.is_some() { quote!(#m::Input) } else { quote!(()) };
        let text = format!(
            " The tool view of `{}`: computes the tool answer from the full output. Pure and synchronous.",
            self.op.action
        );
        Some(quote! {
            #[doc = #text]
            fn #m(full: &#m::Output, call: &::stitchgen_runtime::ViewCall<#input>) -> #m::ToolAnswer;
        })
    }

    fn presenter_methods(&self) -> Vec<TokenStream> {
        let m = &self.ident;
        self.presenters()
            .iter()
            .map(|p| {
                let what = match p {
                    Presenter::Mcp => "MCP: content blocks and `_meta` beside `structuredContent`",
                    Presenter::Agent => "the agent surface: what the model reads",
                };
                let (name, _) = self.presenter(*p);
                let text =
                    format!(" Presents `{}` on {what}; runs after a successful, validated call.", self.op.action);
                quote! {
                    #[doc = #text]
                    fn #name(output: &#m::Output) -> ::stitchgen_runtime::Presentation;
                }
            })
            .collect()
    }

    fn dispatch_arm(&self) -> TokenStream {
        let m = &self.ident;
        let i = self.index;
        let private = quote!(::stitchgen_runtime::__private);
        let mut lets = Vec::new();
        let mut names = Vec::new();
        if self.params.is_some() {
            lets.push(quote!(let params: #m::Params = #private::parse_args(call.params, "params")?;));
            names.push(quote!(params));
        }
        if self.input.is_some() {
            lets.push(quote!(let input: #m::Input = #private::parse_args(call.input, "input")?;));
            names.push(quote!(input));
        }
        if self.op.http_kind.raw_body {
            lets.push(quote!(let raw = call.raw_body.unwrap_or_default();));
            names.push(quote!(raw));
        }
        if self.op.http_kind.multipart.is_some() {
            lets.push(quote!(let upload = call.upload.unwrap_or_default();));
            names.push(quote!(upload));
        }
        if self.projects() {
            lets.push(if self.input.is_some() {
                quote!(let view_input = input.clone();)
            } else {
                quote!(let view_input = ();)
            });
        }
        let k = &self.op.http_kind;
        let null = quote!(::stitchgen_runtime::Answer::new(#private::serde_json::Value::Null));
        let ok = |answer: TokenStream| quote!(::core::result::Result::Ok(#answer));
        // The answer from the handler's `out`; `false` where the handler returns `()`.
        let (uses_out, answer) = if k.raw_response.is_some() {
            (true, ok(quote!(#null.with_payload(::stitchgen_runtime::HttpPayload::Raw(out)))))
        } else if k.stream.is_some() {
            let frames = if self.terminal.is_some() { quote!(json_frames) } else { quote!(json_stream) };
            (
                true,
                ok(
                    quote!(#null.with_payload(::stitchgen_runtime::HttpPayload::Stream(::stitchgen_runtime::#frames(out)))),
                ),
            )
        } else if k.response_meta {
            (
                true,
                ok(
                    quote!(::stitchgen_runtime::Answer::new(#private::to_answer(&out.body)?).with_payload(::stitchgen_runtime::HttpPayload::Headers(out.headers))),
                ),
            )
        } else if self.projects() {
            (true, quote!(#private::projected(out, view_input, <V as Views>::#m)))
        } else if !self.presenters().is_empty() {
            let arms = self.presenters().iter().map(|p| {
                let (name, surface) = self.presenter(*p);
                quote!(#surface => ::core::option::Option::Some(<V as Presenters>::#name(&out)),)
            });
            (
                true,
                ok(quote! {
                    ::stitchgen_runtime::Answer::new(#private::to_answer(&out)?).with_presenter(move |surface| match surface {
                        #(#arms)*
                        _ => ::core::option::Option::None,
                    })
                }),
            )
        } else if self.output.is_none() {
            // No output: the handler returns `()` and HTTP answers 204.
            (false, quote!(#private::no_content()))
        } else {
            (true, quote!(#private::answer(&out)))
        };
        let run = quote!(self.0.#m(ctx #(, #names)*).await?);
        let (run, answer) = match (self.headed(), uses_out) {
            (true, true) => (
                quote!(let ::stitchgen_runtime::Headed { body: out, headers } = #run;),
                quote!(#private::with_headers(#answer, headers)),
            ),
            (true, false) => (
                quote!(let ::stitchgen_runtime::Headed { body: (), headers } = #run;),
                quote!(#private::with_headers(#answer, headers)),
            ),
            (false, true) => (quote!(let out = #run;), answer),
            (false, false) => (quote!(#run;), answer),
        };
        quote! {
            #i => ::std::boxed::Box::pin(async move {
                #(#lets)*
                #run
                #answer
            }),
        }
    }
}

/// The runner's schemas: references into the module's types document, each type written once.
const REGISTRY: Style<'static> = Style { refs: Refs::Registry, close_objects: false };

/// `text` as a raw string literal (JSON is full of quotes: a raw literal is easier to read and
/// cheaper to parse than one escape per quote), with enough `#`s that no `"#…` inside ends it
/// early. Compact JSON has no newline or other control character, so the raw form holds it as
/// it is.
fn raw_literal(text: &str) -> proc_macro2::Literal {
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

/// The slice plan of a view schema: the declared properties of every object, recursively.
fn slice_plan(view: &Value, svc: &Service, stack: &mut Vec<String>) -> TokenStream {
    let name = view
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix(crate::schema::TYPES_PREFIX))
        .map(str::to_owned);
    if let Some(n) = &name {
        // A recursive type is copied whole below its first level.
        if stack.contains(n) {
            return quote!(::stitchgen_runtime::SlicePlan::Keep);
        }
        stack.push(n.clone());
    }
    let v = present::resolve(view, svc);
    let plan = if let Some(props) = v.get("properties").and_then(Value::as_object) {
        let fields = props.iter().map(|(k, s)| {
            let p = slice_plan(s, svc, stack);
            quote!((#k, #p))
        });
        quote!(::stitchgen_runtime::SlicePlan::Object(&[#(#fields),*]))
    } else if let Some(items) = v.get("items") {
        let p = slice_plan(items, svc, stack);
        quote!(::stitchgen_runtime::SlicePlan::Array(&#p))
    } else {
        quote!(::stitchgen_runtime::SlicePlan::Keep)
    };
    if name.is_some() {
        stack.pop();
    }
    plan
}

/// Everything after `types` but the client: operation modules, traits, dispatch, catalog and
/// constructor; and the bounds on the views and presenters a service value needs, when any.
pub(super) fn body(svc: &Service, ops: &[Op<'_>], texts: &Texts) -> (TokenStream, Option<TokenStream>) {
    let modules: Vec<TokenStream> = ops.iter().map(Op::module).collect();
    let constants = texts.constants();
    let handler_methods = ops.iter().map(Op::handler_method);
    let view_methods: Vec<TokenStream> = ops.iter().filter_map(Op::view_method).collect();
    let presenter_methods: Vec<TokenStream> = ops.iter().flat_map(Op::presenter_methods).collect();
    let arms = ops.iter().map(Op::dispatch_arm);
    let catalog = ops.iter().map(|o| {
        let m = &o.ident;
        quote!(&#m::OPERATION)
    });
    let name = &svc.name;
    let handler_doc = format!(" The `{name}` service's handlers: one async method per endpoint and runtime tool.");
    // `Glue<H, V>`: the handler `H`, and the views and presenters of `V` (the handler itself, or
    // the caller's own in front of a remote service).
    let mut bounds = Vec::new();
    let views = (!view_methods.is_empty()).then(|| {
        bounds.push(quote!(Views));
        let text = format!(" Tool views of the `{name}` service with `project: true`: pure, synchronous projections (no `self`, no context).");
        quote! {
            #[doc = #text]
            pub trait Views {
                #(#view_methods)*
            }
        }
    });
    let presenters = (!presenter_methods.is_empty()).then(|| {
        bounds.push(quote!(Presenters));
        let text = format!(" Presenters of the `{name}` service's runtime tools.");
        quote! {
            #[doc = #text]
            pub trait Presenters {
                #(#presenter_methods)*
            }
        }
    });
    let view_bounds = (!bounds.is_empty()).then(|| quote!(#(#bounds)+*));
    let glue_bounds = quote!(H: Handler, V: 'static #(+ #bounds)*);
    let service_bounds = match &view_bounds {
        Some(b) => quote!(H: Handler + #b),
        None => quote!(H: Handler),
    };
    let types = raw_literal(&present::types_document(svc).to_string());
    let body = quote! {
        #(#modules)*

        #constants

        /// Every type's JSON Schema, once: what the operations' schemas refer to (as
        /// `urn:stitchgen:types`).
        pub const TYPES: &str = #types;

        #[doc = #handler_doc]
        pub trait Handler: ::core::marker::Send + ::core::marker::Sync + 'static {
            #(#handler_methods)*
        }

        #views
        #presenters

        /// Every operation of the service, in declaration order.
        pub static CATALOG: &[&::stitchgen_runtime::OperationDef] = &[#(#catalog),*];

        struct Glue<H, V>(H, ::core::marker::PhantomData<fn() -> V>);

        impl<#glue_bounds> ::stitchgen_runtime::Dispatch for Glue<H, V> {
            fn call<'a>(
                &'a self,
                op: usize,
                ctx: &'a ::stitchgen_runtime::Ctx,
                call: ::stitchgen_runtime::Call,
            ) -> ::stitchgen_runtime::BoxFuture<'a, ::core::result::Result<::stitchgen_runtime::Answer, ::stitchgen_runtime::AppError>> {
                let _ = (&ctx, &call);
                match op {
                    #(#arms)*
                    _ => ::std::boxed::Box::pin(async move {
                        ::core::result::Result::Err(::stitchgen_runtime::AppError::new(::stitchgen_runtime::ErrorCode::NotFound, "no such operation"))
                    }),
                }
            }
        }

        /// Turns a handler into the runtime's service, which every adapter mounts.
        pub fn service<#service_bounds>(handler: H) -> ::stitchgen_runtime::Service {
            ::stitchgen_runtime::Service::new(TYPES, CATALOG, Glue::<H, H>(handler, ::core::marker::PhantomData))
        }

    };
    (body, view_bounds)
}

/// One text field as the runtime's `FieldDef`.
fn field_def(f: &present::TextField) -> TokenStream {
    let (name, types, items, values, required) = (&f.name, &f.types, &f.items, &f.values, f.required);
    let default = opt_str(f.default.as_ref().map(|d| d.to_string()).as_deref());
    let description = f.description.as_deref().unwrap_or_default();
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
