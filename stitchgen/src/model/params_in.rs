//! The parameters a request carries outside its path (`paramsIn`): where each travels, under
//! which name, and in which style.

use crate::parse::ast::{self, Contract, Endpoint};

/// A parameter that travels in the query, a header or a cookie (`paramsIn`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamIn {
    /// Its key in `params`: the tool argument and the field of the handler's `Params`.
    pub key: String,
    /// Where it travels.
    pub location: ast::KeyLocation,
    /// Its name there.
    pub name: String,
    /// How a query parameter's value is written (`form` for a header or cookie).
    pub style: ast::QueryStyle,
}

impl ParamIn {
    /// `query`, `header` or `cookie`, as OpenAPI writes it.
    pub fn location_str(&self) -> &'static str {
        match self.location {
            ast::KeyLocation::Query => "query",
            ast::KeyLocation::Header => "header",
            ast::KeyLocation::Cookie => "cookie",
        }
    }

    /// The style the contract names, where it is not the default (`form`).
    pub fn style_str(&self) -> Option<&'static str> {
        match self.style {
            ast::QueryStyle::Form => None,
            ast::QueryStyle::DeepObject => Some("deepObject"),
            ast::QueryStyle::Json => Some("json"),
        }
    }

    /// Where and how it travels, as a reader names it: ``query `filter` (deepObject)``.
    pub fn wire(&self) -> String {
        let style = self.style_str().map(|s| format!(" ({s})")).unwrap_or_default();
        format!("{} `{}`{style}", self.location_str(), self.name)
    }
}

/// The parameters `paramsIn` places, in the order `params` declares them (a mapping's order
/// means nothing; the properties' order is the schema's).
pub(super) fn params_in(c: &Contract, e: &Endpoint) -> Vec<ParamIn> {
    let types = crate::schema::Types::new(c.types.as_ref().map(|t| &t.value));
    let order: Vec<&str> = e
        .params
        .as_ref()
        .map(|p| crate::schema::all_properties(&p.0, types).into_iter().filter_map(|(k, _)| k.as_str()).collect())
        .unwrap_or_default();
    let mut placed: Vec<ParamIn> = e
        .params_in
        .iter()
        .flat_map(|m| m.value.iter())
        .filter_map(|(key, p)| {
            let location = p.value.location.as_ref()?.value;
            let name = p.value.name.as_ref().map_or_else(|| key.value.clone(), |n| n.value.clone());
            let style = p.value.style.as_ref().map(|s| s.value).unwrap_or_default();
            Some(ParamIn { key: key.value.clone(), location, name, style })
        })
        .collect();
    placed.sort_by_key(|p| order.iter().position(|k| *k == p.key).unwrap_or(usize::MAX));
    placed
}
