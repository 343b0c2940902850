//! The types of a tool's questions (`tool.mcp.inputRequired`): one struct per question, its
//! fields the form's, which the handler reads the user's answer into (`Confirm::of(ctx)`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use super::doc;
use crate::model::{InputAsk, Operation};
use crate::naming;

/// `pub mod asks { … }` for an operation that asks its user, else nothing.
pub(super) fn module(op: &Operation) -> Option<TokenStream> {
    if op.input_required.is_empty() {
        return None;
    }
    let names = naming::dedup_idents(
        op.input_required
            .iter()
            .enumerate()
            .map(|(i, a)| naming::type_ident(&a.key).unwrap_or_else(|| format!("Question{}", i + 1)))
            .collect(),
    );
    let types = op.input_required.iter().zip(names).map(|(a, name)| question(a, &name));
    let text = format!(
        " What `{}` asks its user on MCP before it acts (`tool.mcp.inputRequired`): one type per question.",
        op.action
    );
    Some(quote! {
        #[doc = #text]
        pub mod asks {
            #(#types)*
        }
    })
}

/// The struct of one question's answer.
fn question(a: &InputAsk, name: &str) -> TokenStream {
    let name = format_ident!("{}", name);
    let key = &a.key;
    let text = format!(" The answer to `{}`: \"{}\"", a.key, a.message.trim());
    let props = a.schema.get("properties").and_then(Value::as_object);
    let required: Vec<&str> =
        a.schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let wire = props.into_iter().flat_map(|p| p.keys().map(String::as_str));
    let fields = naming::unique_fields(wire).into_iter().map(|(wire, ident)| {
        let p = props.and_then(|p| p.get(wire)).unwrap_or(&Value::Null);
        field(wire, &ident, p, required.contains(&wire))
    });
    quote! {
        #[doc = #text]
        #[derive(
            ::stitchgen_runtime::__private::serde::Deserialize,
            ::stitchgen_runtime::__private::serde::Serialize,
            Clone,
            Debug,
            PartialEq
        )]
        pub struct #name {
            #(#fields)*
        }

        impl #name {
            /// The question's key.
            pub const KEY: &'static str = #key;

            /// The user's answer in this call's context: on MCP the handler runs only once it is
            /// given and fits the form; `None` on the surfaces that never ask.
            pub fn of(ctx: &::stitchgen_runtime::Ctx) -> ::core::option::Option<Self> {
                ctx.answer(Self::KEY)
            }
        }
    }
}

/// One field: the form's property `wire`, of the one type its form allows.
fn field(wire: &str, ident: &str, p: &Value, required: bool) -> TokenStream {
    let ty = match p.get("type").and_then(Value::as_str) {
        Some("boolean") => quote!(bool),
        Some("integer") => quote!(::stitchgen_runtime::Integer),
        Some("number") => quote!(f64),
        Some("array") => quote!(::std::vec::Vec<::std::string::String>),
        _ => quote!(::std::string::String),
    };
    let said = ["description", "title"].iter().find_map(|k| p.get(*k).and_then(Value::as_str));
    let d = doc(&said.map_or_else(|| format!("The `{wire}` field."), str::to_owned));
    let ident = format_ident!("{}", ident);
    let rename = (ident != wire).then(|| quote!(#[serde(rename = #wire)]));
    if required {
        quote!(#d #rename pub #ident: #ty,)
    } else {
        quote! {
            #d
            #rename
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub #ident: ::std::option::Option<#ty>,
        }
    }
}
