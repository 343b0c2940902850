//! Operation modules, the handler/projection/presenter traits and the typed dispatch.

use std::collections::BTreeMap;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::layout;
use super::statics::{self, Texts, raw_literal_text};
use super::{doc, ident, schema_name};
use crate::model::{Operation, Service};
use crate::parse::ast::Presenter;
use crate::present;

/// The line [`Op::module`]'s placeholder prints as, which its statics' text replaces.
pub(super) const STATICS: &str = "        const __STITCHGEN_STATICS: () = ();\n";

/// An operation's module: its text, or tokens to print with the text of its statics in place of
/// the line [`STATICS`].
pub(super) enum Module {
    Text(String),
    Printed(TokenStream, String),
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
    /// The successes the handler chooses among (`http.successes`), the main one first; empty
    /// where it answers one.
    pub(super) successes: Vec<Success>,
}

/// One success an operation's handler may answer.
pub(super) struct Success {
    /// Its status on HTTP; `None`: the main answer.
    pub(super) status: Option<u16>,
    /// Its variant of the operation's `Answer` enum.
    pub(super) variant: Ident,
    /// Its body's type, `None` without a body.
    pub(super) body: Option<TokenStream>,
    /// What it means, when documented.
    desc: Option<String>,
}

impl<'a> Op<'a> {
    pub(super) fn new(
        index: usize,
        op: &'a Operation,
        svc: &'a Service,
        paths: &mut BTreeMap<String, TokenStream>,
        texts: &'a Texts,
    ) -> Self {
        // Each path is the operation's own (named after it): taken, not copied.
        let output = paths.contains_key(&schema_name(op, "Output"));
        let mut path = |role: &str| paths.remove(&schema_name(op, role));
        // A raw response's handler sets the status itself, in its `RawResponse`.
        let chooses = !op.successes.is_empty() && op.http_kind.raw_response.is_none();
        let main = chooses.then(|| Success {
            status: None,
            variant: format_ident!("{}", crate::naming::status_variant(op.main_status)),
            // Named from within the operation's module, where the enum is.
            body: output.then(|| quote!(Output)),
            desc: None,
        });
        let others = op.successes.iter().filter(|_| chooses).map(|a| {
            let variant = crate::naming::status_variant(a.status);
            Success {
                status: Some(a.status),
                body: a.body.as_ref().and_then(|_| path(&variant)),
                variant: format_ident!("{variant}"),
                desc: a.desc.clone(),
            }
        });
        let successes: Vec<Success> = main.into_iter().chain(others).collect();
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
            successes,
        }
    }

    /// The handler's input type: `Option<Input>` where the body may be absent (`inputOptional`),
    /// `None` then.
    pub(super) fn input_type(&self) -> TokenStream {
        let m = &self.ident;
        match self.op.http.as_ref().is_some_and(|h| h.input_optional) {
            true => quote!(::core::option::Option<#m::Input>),
            false => quote!(#m::Input),
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

    /// The `Answer` enum of an operation whose handler chooses among several successes.
    fn answer_type(&self) -> Option<TokenStream> {
        if self.successes.is_empty() {
            return None;
        }
        let variants = self.successes.iter().map(|s| {
            let text = match (s.status, &s.desc) {
                (None, _) => format!(" The main answer (status {}).", self.op.main_status),
                (Some(status), Some(desc)) => format!(" Status {status}: {}", desc.trim()),
                (Some(status), None) => format!(" Status {status}."),
            };
            let v = &s.variant;
            match &s.body {
                Some(body) => quote!(#[doc = #text] #v(#body),),
                None => quote!(#[doc = #text] #v,),
            }
        });
        let what = format!(
            " The successes `{}` answers: the handler chooses one, HTTP sends it at its status, the tool surfaces answer its body.",
            self.op.action
        );
        Some(quote! {
            #[doc = #what]
            #[derive(Clone, Debug)]
            pub enum Answer { #(#variants)* }
        })
    }

    /// The dispatch's answer from the handler's `out`, of an operation whose handler chooses
    /// among several successes: each at its status, the main one at the contract's.
    fn chosen_answer(&self) -> TokenStream {
        let m = &self.ident;
        let private = quote!(::stitchgen_runtime::__private);
        let arms = self.successes.iter().map(|s| {
            let v = &s.variant;
            let (pattern, answer) = match &s.body {
                Some(_) => (quote!(#m::Answer::#v(body)), quote!(#private::answer(&body))),
                None => (quote!(#m::Answer::#v), quote!(#private::no_content())),
            };
            match s.status {
                Some(status) => quote!(#pattern => #answer.map(|a| a.with_status(#status)),),
                None => quote!(#pattern => #answer,),
            }
        });
        quote!(match out { #(#arms)* })
    }

    /// The handler's success type.
    pub(super) fn returns(&self) -> TokenStream {
        let m = &self.ident;
        let k = &self.op.http_kind;
        let out = if !self.successes.is_empty() {
            quote!(#m::Answer)
        } else if self.output.is_some() {
            quote!(#m::Output)
        } else {
            quote!(())
        };
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
            a.push((format_ident!("input"), self.input_type()));
        }
        if self.op.http_kind.raw_body {
            a.push((format_ident!("raw"), quote!(::stitchgen_runtime::RawBody)));
        }
        if self.op.http_kind.multipart.is_some() {
            a.push((format_ident!("upload"), quote!(::stitchgen_runtime::Upload)));
        }
        a
    }

    /// The operation's module. Its statics are most of it, and written as text; the rest is
    /// too where it is type aliases under a one-line doc, else printed around the statics.
    pub(super) fn module(&self) -> Module {
        let action = &self.op.action;
        let mut aliases = Vec::new();
        let mut alias = |name: &'static str, ty: &Option<TokenStream>, what: &str| {
            if let Some(ty) = ty {
                aliases.push((name, ty.clone(), format!(" {what} of `{action}`.")));
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
        let def = present::defs::operation(self.op, self.svc);
        let mut statics = statics::slice(&def).unwrap_or_default();
        let what = " What the contract declares about this operation.";
        let value = statics::operation(&def, self.texts);
        statics.push_str(&layout::static_item(2, what, "OPERATION", "::stitchgen_runtime::OperationDef", &value));
        let answer = self.answer_type();
        let headers = self.headers_type();
        let asks = super::asks::module(self.op);
        if answer.is_none()
            && headers.is_none()
            && asks.is_none()
            && let Some(text) = self.module_text(&aliases, &statics)
        {
            return Module::Text(text);
        }
        let m = &self.ident;
        let d = doc(&self.op.desc);
        let items: Vec<TokenStream> = aliases
            .iter()
            .map(|(name, ty, text)| {
                let name = format_ident!("{}", name);
                quote!(#[doc = #text] pub type #name = #ty;)
            })
            .collect();
        let uses_types = items.iter().chain(&answer).any(|t| t.to_string().contains("types ::"));
        let import = uses_types.then(|| {
            quote!(
                use super::types;
            )
        });
        let module = quote! {
            #d
            pub mod #m {
                #import
                #(#items)*
                #answer
                #headers
                #asks
                const __STITCHGEN_STATICS: () = ();
            }
        };
        Module::Printed(module, statics)
    }

    /// The module as printed, when it is a one-line doc, aliases of types in `types` and the
    /// statics (`None` otherwise: printed then).
    fn module_text(&self, aliases: &[(&'static str, TokenStream, String)], statics: &str) -> Option<String> {
        let mut text = format!(
            "    ///{}\n    pub mod {} {{\n",
            super::rewrite::doc_comment(&format!(" {}", self.op.desc.trim()))?,
            self.ident
        );
        if !aliases.is_empty() {
            text.push_str("        use super::types;\n");
        }
        for (name, ty, doc) in aliases {
            let ty = ty.to_string();
            let ident = ty.strip_prefix("types :: ").filter(|i| i.chars().all(|c| c.is_alphanumeric() || c == '_'))?;
            text.push_str(&format!(
                "        ///{}\n        pub type {name} = types::{ident};\n",
                super::rewrite::doc_comment(doc)?
            ));
        }
        text.push_str(statics);
        text.push_str("    }\n");
        Some(text)
    }

    /// The words that differ between this operation's inner items and another's of the same
    /// shape: its name (a client method's too), and its index.
    pub(super) fn words(&self) -> Vec<String> {
        let name = self.ident.to_string();
        vec![format!("{name}_call"), name, format!("{}usize", self.index)]
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
        let input = if self.input.is_some() { self.input_type() } else { quote!(()) };
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
            let ty = self.input_type();
            lets.push(quote!(let input: #ty = #private::parse_args(call.input, "input")?;));
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
        } else if !self.successes.is_empty() {
            (true, self.chosen_answer())
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

/// Everything after the operation modules but the client (their text constants, traits,
/// dispatch, catalog and constructor: called once every module is built, as the modules register
/// the texts); and the bounds on the views and presenters a service value needs, when any.
pub(super) fn body(
    svc: &Service,
    ops: &[Op<'_>],
    texts: &Texts,
    out: &mut super::Printer,
) -> Result<Option<TokenStream>, String> {
    let constants = texts.constants();
    let view_methods: Vec<TokenStream> = ops.iter().filter_map(Op::view_method).collect();
    let presenter_methods: Vec<TokenStream> = ops.iter().flat_map(Op::presenter_methods).collect();
    let catalog = ops.iter().map(|o| layout::Expr::Word(format!("&{}::OPERATION", o.ident))).collect();
    let catalog = layout::static_item(
        1,
        " Every operation of the service, in declaration order.",
        "CATALOG",
        "&[&::stitchgen_runtime::OperationDef]",
        &layout::Expr::Array(catalog).reference(),
    );
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
    // The schema texts, the types document and the catalog are written as text: long literals
    // and one line per operation, they cost most to parse and print.
    let types = raw_literal_text(&present::types_document(svc).to_string());
    let types = format!(
        "    /// Every type's JSON Schema, once: what the operations' schemas refer to (as\n    /// `urn:stitchgen:types`).\n    pub const TYPES: &str = {types};\n"
    );
    let handler = |methods: TokenStream| {
        quote! {
            #[doc = #handler_doc]
            pub trait Handler: ::core::marker::Send + ::core::marker::Sync + 'static {
                #methods
            }
        }
    };
    let glue = quote! {
        struct Glue<H, V>(H, ::core::marker::PhantomData<fn() -> V>);
    };
    let dispatch = |arms: TokenStream| {
        quote! {
            impl<#glue_bounds> ::stitchgen_runtime::Dispatch for Glue<H, V> {
                fn call<'a>(
                    &'a self,
                    op: usize,
                    ctx: &'a ::stitchgen_runtime::Ctx,
                    call: ::stitchgen_runtime::Call,
                ) -> ::stitchgen_runtime::BoxFuture<'a, ::core::result::Result<::stitchgen_runtime::Answer, ::stitchgen_runtime::AppError>> {
                    let _ = (&ctx, &call);
                    match op {
                        #arms
                        _ => ::std::boxed::Box::pin(async move {
                            ::core::result::Result::Err(::stitchgen_runtime::AppError::new(::stitchgen_runtime::ErrorCode::NotFound, "no such operation"))
                        }),
                    }
                }
            }
        }
    };
    let service = quote! {
        /// Turns a handler into the runtime's service, which every adapter mounts.
        pub fn service<#service_bounds>(handler: H) -> ::stitchgen_runtime::Service {
            ::stitchgen_runtime::Service::new(TYPES, CATALOG, Glue::<H, H>(handler, ::core::marker::PhantomData))
        }
    };
    out.text.push_str(&constants);
    out.text.push_str(&types);
    let vary = |tokens: TokenStream, op: &Op<'_>| super::shapes::Varying { tokens, words: op.words() };
    let methods = ops.iter().map(|o| vary(o.handler_method(), o));
    let arms = ops.iter().map(|o| vary(o.dispatch_arm(), o));
    out.chunked(
        handler,
        quote!(
            fn __stitchgen_marker();
        ),
        methods,
    )?;
    out.item(quote!(#views #presenters))?;
    out.text.push_str(&catalog);
    out.item(glue)?;
    out.chunked(dispatch, quote!(__stitchgen_marker => {}), arms)?;
    out.item(service)?;
    Ok(view_bounds)
}
