//! The typed client of a service: one async method per contract endpoint served on HTTP, typed
//! as its handler is, each call made through a transport (the runtime's `HttpClient` sends it on
//! the axum adapter's wire). It needs no runtime feature: code that never makes a call compiles
//! as before.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::doc;
use super::ops::Op;
use crate::model::Service;
use crate::parse::ast::Surface;

/// Names the client's own methods take: an operation of the same name gets a `_call` suffix.
const OWN: &[&str] = &["new", "transport"];

/// The `Client` of `svc`, with a method per operation [`method`] can call, the handler it is (each
/// operation forwarded), and `remote`, the service in front of another server; nothing when no
/// operation is served on HTTP. `views` bounds the type whose views and presenters a remote
/// service runs, when the contract declares any.
pub(super) fn client(
    svc: &Service,
    ops: &[Op<'_>],
    views: Option<&TokenStream>,
    out: &mut super::Printer,
) -> Result<(), String> {
    if !ops.iter().any(|o| method_name(o).is_some()) {
        return Ok(());
    }
    let text = format!(
        " A typed client of the `{}` service: one method per endpoint served on HTTP, typed as its handler is, each call made through `T`. `::stitchgen_runtime::client::HttpClient` (runtime feature `client`) sends it as this module's HTTP router reads it.",
        svc.name
    );
    out.item(quote! {
        #[doc = #text]
        #[derive(Clone, Debug)]
        pub struct Client<T>(T);
    })?;
    let own = quote! {
        /// A client that makes its calls through `transport`.
        pub fn new(transport: T) -> Self {
            Client(transport)
        }

        /// The transport the calls go through.
        pub fn transport(&self) -> &T {
            &self.0
        }
    };
    let client = |methods: TokenStream| {
        quote! {
            impl<T: ::stitchgen_runtime::client::Transport> Client<T> {
                #methods
            }
        }
    };
    let vary = |tokens: TokenStream, op: &Op<'_>| super::shapes::Varying { tokens, words: op.words() };
    let methods = std::iter::once(super::shapes::Varying::fixed(own))
        .chain(ops.iter().filter_map(|o| method(o).map(|m| vary(m, o))));
    out.chunked(
        client,
        quote!(
            fn __stitchgen_marker() {}
        ),
        methods,
    )?;
    let handler = |forwards: TokenStream| {
        quote! {
            /// The handler that forwards each call to the server behind the transport; a runtime tool,
            /// which has no route, answers `NOT_IMPLEMENTED`.
            impl<T: ::stitchgen_runtime::client::Transport + 'static> Handler for Client<T> {
                #forwards
            }
        }
    };
    out.chunked(
        handler,
        quote!(
            fn __stitchgen_marker() {}
        ),
        ops.iter().map(|o| vary(forward(o), o)),
    )?;
    out.item(remote(svc, views))
}

/// `remote(transport)`: the service whose handler is the client. With views or presenters
/// declared, the caller names the type that has them: `remote::<MyViews, _>(transport)`.
fn remote(svc: &Service, views: Option<&TokenStream>) -> TokenStream {
    let text = format!(
        " The `{}` service in front of a server that runs it elsewhere (any language), reached through `transport` (`::stitchgen_runtime::client::HttpClient`, runtime feature `client`). Every surface runs the one runner here: view defaults, validation before anything is sent, the scope gate, the answer validated on return, then the view and presenters, locally.",
        svc.name
    );
    // Questions asked in front of the origin could never reach it: a remote service drops them.
    let asks = svc.operations.iter().any(|op| !op.input_required.is_empty());
    let dropped = asks.then(|| quote!(.without_questions()));
    match views {
        Some(bounds) => quote! {
            #[doc = #text]
            pub fn remote<V: 'static + #bounds, T: ::stitchgen_runtime::client::Transport + 'static>(transport: T) -> ::stitchgen_runtime::Service {
                ::stitchgen_runtime::Service::new(TYPES, CATALOG, Glue::<Client<T>, V>(Client(transport), ::core::marker::PhantomData)) #dropped
            }
        },
        None => quote! {
            #[doc = #text]
            pub fn remote<T: ::stitchgen_runtime::client::Transport + 'static>(transport: T) -> ::stitchgen_runtime::Service {
                service(Client(transport)) #dropped
            }
        },
    }
}

/// The handler method of one operation on the client: its client method's answer, through a
/// transport that forwards what the context carries; a client error read as the error the runner
/// answers.
fn forward(o: &Op<'_>) -> TokenStream {
    let m = &o.ident;
    let ret = o.returns();
    let args: Vec<(proc_macro2::Ident, TokenStream)> = o.args();
    let Some(name) = method_name(o) else {
        let text = format!("`{}` is not served on HTTP: a remote service cannot forward it", o.op.action);
        let ignored = args.iter().map(|(_, t)| quote!(_: #t));
        return quote! {
            async fn #m(&self, _: &::stitchgen_runtime::Ctx #(, #ignored)*) -> ::stitchgen_runtime::Reply<#ret> {
                ::core::result::Result::Err(::stitchgen_runtime::AppError::new(::stitchgen_runtime::ErrorCode::NotImplemented, #text))
            }
        };
    };
    // The handler's arguments are `o.args()`: params, input, raw body, upload, each when the
    // operation takes it. The client takes the same, but not the input beside a raw body, which
    // carries it.
    let raw = o.op.http_kind.raw_body;
    let mut passed = Vec::new();
    if o.params.is_some() {
        passed.push(quote!(&params));
    }
    if o.input.is_some() && !raw {
        let optional = o.op.http.as_ref().is_some_and(|h| h.input_optional);
        passed.push(if optional { quote!(input.as_ref()) } else { quote!(&input) });
    }
    if raw {
        passed.push(quote!(raw));
    }
    if o.op.http_kind.multipart.is_some() {
        passed.push(quote!(upload));
    }
    let decls = args.iter().map(|(n, t)| if raw && n == "input" { quote!(_: #t) } else { quote!(#n: #t) });
    quote! {
        async fn #m(&self, ctx: &::stitchgen_runtime::Ctx #(, #decls)*) -> ::stitchgen_runtime::Reply<#ret> {
            let client = Client(::stitchgen_runtime::client::Forward::new(&self.0, ctx));
            client.#name(#(#passed),*).await.map_err(::core::convert::Into::into)
        }
    }
}

/// The client method of one contract endpoint served on HTTP: the handler's arguments (path
/// parameters and input by reference; a raw body, which carries the input, and files by value)
/// and the handler's success type, read back from the transport's answer.
fn method(o: &Op<'_>) -> Option<TokenStream> {
    let (op, k) = (o.op, &o.op.http_kind);
    let name = method_name(o)?;
    let m = &o.ident;
    let none = quote!(::core::option::Option::None);
    let null = quote!(::stitchgen_runtime::__private::serde_json::Value::Null);
    let json = |ident: &str, part: TokenStream| {
        let ident = format_ident!("{}", ident);
        (quote!(, #ident: &#m::#part), quote!(::stitchgen_runtime::client::to_json(#ident)?))
    };
    let (params_arg, params) =
        if o.params.is_some() { json("params", quote!(Params)) } else { (quote!(), null.clone()) };
    let (input_arg, input, raw_arg, raw) = match (&o.input, k.raw_body) {
        (_, true) => {
            (quote!(), null, quote!(, raw: ::stitchgen_runtime::RawBody), quote!(::core::option::Option::Some(raw)))
        }
        // An optional body: `None` sends none.
        (Some(_), false) if op.http.as_ref().is_some_and(|h| h.input_optional) => {
            let value = quote!(::stitchgen_runtime::client::to_json(&input)?);
            (quote!(, input: ::core::option::Option<&#m::Input>), value, quote!(), none.clone())
        }
        (Some(_), false) => {
            let (arg, value) = json("input", quote!(Input));
            (arg, value, quote!(), none.clone())
        }
        (None, false) => (quote!(), null, quote!(), none.clone()),
    };
    let (upload_arg, upload) = match k.multipart {
        Some(_) => (quote!(, upload: ::stitchgen_runtime::Upload), quote!(::core::option::Option::Some(upload))),
        None => (quote!(), none),
    };
    let read = reader(o);
    let pick = pick(o);
    let ret = o.returns();
    let d = doc(&op.desc);
    Some(quote! {
        #d
        pub async fn #name(&self #params_arg #input_arg #raw_arg #upload_arg) -> ::core::result::Result<#ret, ::stitchgen_runtime::client::ClientError> {
            let request = ::stitchgen_runtime::client::Request {
                op: &#m::OPERATION, types: TYPES, params: #params, input: #input, raw_body: #raw, upload: #upload,
                headers: ::std::vec::Vec::new(),
            };
            ::stitchgen_runtime::client::#read(self.0.call(request).await? #pick)
        }
    })
}

/// Where the handler chooses among several successes, the closure that reads the body of the
/// status answered into its variant: `, |status, value| match status { … }`.
fn pick(o: &Op<'_>) -> Option<TokenStream> {
    if o.successes.is_empty() {
        return None;
    }
    let m = &o.ident;
    let client = quote!(::stitchgen_runtime::client);
    // The main answer last: whatever status is not another documented one reads as it.
    let mut successes: Vec<&super::ops::Success> = o.successes.iter().collect();
    successes.rotate_left(1);
    let arms = successes.iter().map(|s| {
        let v = &s.variant;
        let read = match &s.body {
            Some(_) => quote!(#client::body(value).map(#m::Answer::#v)),
            None => quote!(::core::result::Result::Ok(#m::Answer::#v)),
        };
        match s.status {
            Some(status) => quote!(::core::option::Option::Some(#status) => #read,),
            None => quote!(_ => #read,),
        }
    });
    // Named only where a body is read: generated code compiles under `deny(warnings)`.
    let value = match o.successes.iter().any(|s| s.body.is_some()) {
        true => format_ident!("value"),
        false => format_ident!("_value"),
    };
    Some(quote!(, |status, #value| match status { #(#arms)* }))
}

/// The client method's name of an operation served on HTTP.
fn method_name(o: &Op<'_>) -> Option<proc_macro2::Ident> {
    if o.op.http.is_none() || !o.op.surfaces.contains(&Surface::Http) {
        return None;
    }
    let plain = o.ident.to_string();
    Some(if OWN.contains(&plain.as_str()) { format_ident!("{}_call", plain) } else { o.ident.clone() })
}

/// The runtime function that reads the answer as the handler's success type.
fn reader(o: &Op<'_>) -> proc_macro2::Ident {
    let k = &o.op.http_kind;
    let name = if k.raw_response.is_some() {
        "raw"
    } else if k.stream.is_some() && o.terminal.is_some() {
        "frames"
    } else if k.stream.is_some() {
        "items"
    } else if k.response_meta {
        "with_meta"
    } else if !o.successes.is_empty() && o.headed() {
        "headed_chosen"
    } else if !o.successes.is_empty() {
        "chosen"
    } else if o.headed() {
        "headed"
    } else if o.output.is_none() {
        "unit"
    } else {
        "json"
    };
    format_ident!("{}", name)
}
