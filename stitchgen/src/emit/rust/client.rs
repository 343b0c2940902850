//! The typed client of a service: one async method per JSON endpoint served on HTTP, each call
//! made through a transport (the runtime's `HttpClient` sends it on the axum adapter's wire).
//! It needs no runtime feature: code that never makes a call compiles as before.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::doc;
use super::ops::Op;
use crate::model::Service;
use crate::parse::ast::Surface;

/// Names the client's own methods take: an operation of the same name gets a `_call` suffix.
const OWN: &[&str] = &["new", "transport"];

/// The `Client` of `svc`, with a method per operation [`method`] can call; nothing when none can.
pub(super) fn client(svc: &Service, ops: &[Op<'_>]) -> TokenStream {
    let methods: Vec<TokenStream> = ops.iter().filter_map(method).collect();
    if methods.is_empty() {
        return TokenStream::new();
    }
    let text = format!(
        " A typed client of the `{}` service: one method per JSON endpoint served on HTTP, each call made through `T`. `::stitchgen_runtime::client::HttpClient` (runtime feature `client`) sends it as this module's HTTP router reads it.",
        svc.name
    );
    quote! {
        #[doc = #text]
        #[derive(Clone, Debug)]
        pub struct Client<T>(T);

        impl<T: ::stitchgen_runtime::client::Transport> Client<T> {
            /// A client that makes its calls through `transport`.
            pub fn new(transport: T) -> Self {
                Client(transport)
            }

            /// The transport the calls go through.
            pub fn transport(&self) -> &T {
                &self.0
            }

            #(#methods)*
        }
    }
}

/// The client method of one operation: a contract endpoint on HTTP answering JSON (raw bodies,
/// uploads, streams and `responseMeta` are not sent by the client yet). Returns the body.
fn method(o: &Op<'_>) -> Option<TokenStream> {
    let (op, k) = (o.op, &o.op.http_kind);
    let served = op.http.is_some() && op.surfaces.contains(&Surface::Http);
    if !served
        || k.raw_response.is_some()
        || k.stream.is_some()
        || k.multipart.is_some()
        || k.raw_body
        || k.response_meta
    {
        return None;
    }
    let m = &o.ident;
    let plain = m.to_string();
    let name = if OWN.contains(&plain.as_str()) { format_ident!("{}_call", plain) } else { m.clone() };
    let null = quote!(::stitchgen_runtime::__private::serde_json::Value::Null);
    let arg = |ty: &Option<TokenStream>, name: &str, part: TokenStream| match ty {
        Some(_) => {
            let ident = format_ident!("{}", name);
            (quote!(, #ident: &#m::#part), quote!(::stitchgen_runtime::client::to_json(#ident)?))
        }
        None => (quote!(), null.clone()),
    };
    let (params_arg, params) = arg(&o.params, "params", quote!(Params));
    let (input_arg, input) = arg(&o.input, "input", quote!(Input));
    let call = quote!(self.0.call(request).await);
    let (ret, done) = match &o.output {
        Some(_) => (quote!(#m::Output), quote!(::stitchgen_runtime::client::from_json(#call?))),
        None => (quote!(()), quote!(#call.map(|_| ()))),
    };
    let d = doc(&op.desc);
    Some(quote! {
        #d
        pub async fn #name(&self #params_arg #input_arg) -> ::core::result::Result<#ret, ::stitchgen_runtime::client::ClientError> {
            let request = ::stitchgen_runtime::client::Request { op: &#m::OPERATION, types: TYPES, params: #params, input: #input };
            #done
        }
    })
}
