//! A request read into the runner's arguments: path parameters and those placed in the query,
//! headers and cookies, query or JSON body, the raw body text, and uploads checked against
//! their declared limits.

use ::axum::extract::{FromRequest, FromRequestParts, Multipart, RawPathParams, Request};
use ::axum::http::header::COOKIE;
use ::axum::http::{HeaderMap, Method, StatusCode};
use serde_json::{Map, Value};

use super::Route;
use crate::{AppError, Call, ErrorCode, FileFieldDef, MultipartDef, ParamIn, RawBody, Upload, UploadedFile};

/// Reads what the runner needs from `req`: path parameters, input, and the raw body or upload.
pub(super) async fn read(route: &Route, req: Request) -> Result<Call, AppError> {
    let (mut parts, body) = req.into_parts();
    let raw = RawPathParams::from_request_parts(&mut parts, &())
        .await
        .map_err(|e| AppError::new(ErrorCode::BadRequest, format!("the path does not read: {e}")))?;
    let mut pairs = Vec::new();
    for (slot, segment) in raw.iter() {
        let Some(slot) = slot.trim_start_matches('p').parse().ok().and_then(|i: usize| route.params.get(i)) else {
            continue;
        };
        // A segment without the text the route puts around its parameter is not this route.
        let value = slot.value(segment).ok_or_else(|| AppError::new(ErrorCode::NotFound, "no such route"))?;
        pairs.push((slot.name.clone(), value.to_owned()));
    }
    let query = crate::coerce::query_pairs(parts.uri.query().unwrap_or_default());
    let placed = placed(route.def.params_in, &query, &parts.headers)?;
    let mut params = crate::coerce::object(pairs.into_iter().chain(placed), route.def.param_fields);
    params.extend(crate::coerce::deep_objects(route.def.params_in, &query));
    params.extend(crate::coerce::json_texts(route.def.params_in, &query));
    // A GET or DELETE whose contract names a body media type reads a body.
    let queried = matches!(parts.method, Method::GET | Method::HEAD | Method::DELETE)
        && route.def.http_kind.input_content_type.is_none();
    if queried {
        // The query's other pairs are the input; a placed parameter's are not.
        let rest = query.into_iter().filter(|(k, _)| !route.def.params_in.iter().any(|p| in_query(p, k)));
        return Ok(call(params, Value::Object(crate::coerce::object(rest, route.def.input_fields)), Call::default()));
    }
    if let Some(multipart) = &route.def.http_kind.multipart {
        let req = Request::from_parts(parts, body);
        let form = Multipart::from_request(req, &())
            .await
            .map_err(|e| AppError::new(ErrorCode::BadRequest, format!("the body is not a multipart form: {e}")))?;
        let (input, upload) = upload(form, multipart, route).await?;
        return Ok(call(params, Value::Object(input), Call { upload: Some(upload), ..Call::default() }));
    }
    let bytes = ::axum::body::to_bytes(body, limit(route.def.limits.max_body_bytes, route.json_limit))
        .await
        .map_err(|_| too_large(BODY_TOO_LARGE))?;
    let absent = bytes.iter().all(u8::is_ascii_whitespace);
    let input = if route.def.input_optional && route.def.input_schema.is_some() && absent {
        // No body where it may be absent: the handler's `None`.
        Value::Null
    } else if route.def.http_kind.form_body() {
        // Each pair into the field it names, as a query is read.
        let text = std::str::from_utf8(&bytes).map_err(|_| invalid("/", "the form is not UTF-8"))?;
        Value::Object(crate::coerce::object(crate::coerce::query_pairs(text), route.def.input_fields))
    } else {
        Value::Object(json_object(&bytes, route.def.input_schema.is_some())?)
    };
    let raw_body = route.def.http_kind.raw_body.then(|| RawBody(String::from_utf8_lossy(&bytes).into_owned()));
    Ok(call(params, input, Call { raw_body, ..Call::default() }))
}

/// Whether the query pair named `key` is the parameter `p`'s (for an object, one of its
/// `name[property]` pairs).
fn in_query(p: &ParamIn, key: &str) -> bool {
    match p {
        ParamIn::Query(_, name) | ParamIn::QueryJson(_, name) => key == *name,
        ParamIn::DeepObject(_, name, _) => crate::coerce::deep_property(key, name).is_some(),
        ParamIn::Header(..) | ParamIn::Cookie(..) => false,
    }
}

/// The parameters placed outside the path, as `(key, text)` pairs: from the query, the headers
/// (a header's name in any case, each of its values) and the cookies.
fn placed(
    params_in: &[ParamIn],
    query: &[(String, String)],
    headers: &HeaderMap,
) -> Result<Vec<(String, String)>, AppError> {
    let mut out = Vec::new();
    for p in params_in {
        let key = p.key().to_owned();
        match p {
            ParamIn::Query(_, name) => {
                out.extend(query.iter().filter(|(k, _)| k == name).map(|(_, v)| (key.clone(), v.clone())));
            }
            // Read whole, by `coerce::deep_objects` and `coerce::json_texts`.
            ParamIn::DeepObject(..) | ParamIn::QueryJson(..) => {}
            ParamIn::Header(_, name) => {
                for value in headers.get_all(*name) {
                    let text =
                        value.to_str().map_err(|_| invalid(&format!("/{key}"), "the header is not ASCII text"))?;
                    out.push((key.clone(), text.to_owned()));
                }
            }
            ParamIn::Cookie(_, name) => {
                let cookies = headers.get_all(COOKIE).into_iter().filter_map(|v| v.to_str().ok());
                let pairs = cookies.flat_map(|line| line.split(';')).filter_map(|c| c.trim().split_once('='));
                out.extend(
                    pairs.filter(|(k, _)| k == name).map(|(_, v)| (key.clone(), v.trim_matches('"').to_owned())),
                );
            }
        }
    }
    Ok(out)
}

/// The contract's limit where it declares one, else the adapter's.
fn limit(declared: Option<u64>, default: usize) -> usize {
    declared.map_or(default, |l| usize::try_from(l).unwrap_or(usize::MAX))
}

fn call(params: Map<String, Value>, input: Value, extra: Call) -> Call {
    Call { params: Value::Object(params), input, ..extra }
}

const BODY_TOO_LARGE: &str = "the request body is larger than this endpoint accepts";

/// `PAYLOAD_TOO_LARGE` (413): refused before the rest is read.
fn too_large(why: &str) -> AppError {
    AppError::app("PAYLOAD_TOO_LARGE", why).with_status(StatusCode::PAYLOAD_TOO_LARGE.as_u16())
}

/// The body as a JSON object; no body is no arguments for an endpoint that takes no input (one
/// whose body may be absent never comes here without one).
fn json_object(bytes: &[u8], takes_input: bool) -> Result<Map<String, Value>, AppError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        // The OpenAPI document declares the body of such an endpoint as required.
        return if takes_input { Err(invalid("/", "a JSON body is required")) } else { Ok(Map::new()) };
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) if takes_input => Err(invalid("/", "the body must be a JSON object")),
        Ok(_) => Err(invalid("/", "this endpoint takes no body")),
        Err(e) => Err(AppError::new(ErrorCode::BadRequest, format!("the body is not JSON: {e}"))),
    }
}

/// `VALIDATION_ERROR` in the runner's words, for what the transport refuses before it.
fn invalid(path: &str, message: &str) -> AppError {
    crate::validation::invalid_argument(path, message)
}

/// Reads a multipart form: declared file fields within their limits, other fields as input.
async fn upload(
    mut form: Multipart,
    def: &MultipartDef,
    route: &Route,
) -> Result<(Map<String, Value>, Upload), AppError> {
    let mut files: Vec<UploadedFile> = Vec::new();
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut parts = 0;
    while let Some(mut field) = form.next_field().await.map_err(broken_form)? {
        parts += 1;
        if parts > super::MAX_MULTIPART_PARTS {
            return Err(too_large(&format!("an upload holds at most {} parts", super::MAX_MULTIPART_PARTS)));
        }
        let name = field.name().unwrap_or_default().to_owned();
        let Some(decl) = def.files.iter().find(|f| f.name == name) else {
            if field.file_name().is_some() {
                return Err(invalid(&format!("/{name}"), "this field takes no file"));
            }
            let limit = def.max_field_bytes.unwrap_or(super::MAX_JSON_BODY_BYTES as u64);
            let bytes = read_limited(&mut field, limit, &name).await?;
            let text = String::from_utf8(bytes).map_err(|_| invalid(&format!("/{name}"), "the field is not UTF-8"))?;
            fields.push((name, text));
            continue;
        };
        let content_type = field.content_type().unwrap_or("application/octet-stream").to_owned();
        if !decl.accepts(&content_type) {
            return Err(invalid(&format!("/{name}"), &format!("content type `{content_type}` is not accepted here")));
        }
        let count = files.iter().filter(|f| f.field == name).count() as u64 + 1;
        check_count(decl, count)?;
        let file_name = field.file_name().map(str::to_owned);
        let limit = decl.max_bytes.or(def.max_request_bytes).unwrap_or(super::MAX_MULTIPART_BYTES);
        let bytes = read_limited(&mut field, limit, &name).await?;
        files.push(UploadedFile { field: name, file_name, content_type, bytes });
    }
    for decl in def.files.iter().filter(|f| f.required) {
        if !files.iter().any(|f| f.field == decl.name) {
            return Err(invalid(&format!("/{}", decl.name), "a file is required here"));
        }
    }
    Ok((crate::coerce::object(fields, route.def.input_fields), Upload { files }))
}

fn check_count(decl: &FileFieldDef, count: u64) -> Result<(), AppError> {
    let path = format!("/{}", decl.name);
    if count > 1 && !decl.multiple {
        return Err(invalid(&path, "this field takes one file"));
    }
    match decl.max_files {
        Some(max) if count > max => Err(invalid(&path, &format!("at most {max} files"))),
        _ => Ok(()),
    }
}

fn broken_form(e: ::axum::extract::multipart::MultipartError) -> AppError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large(BODY_TOO_LARGE)
    } else {
        AppError::new(ErrorCode::BadRequest, format!("the multipart form does not read: {e}"))
    }
}

/// A field's bytes, refused past `limit` without reading further.
async fn read_limited(
    field: &mut ::axum::extract::multipart::Field<'_>,
    limit: u64,
    name: &str,
) -> Result<Vec<u8>, AppError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(broken_form)? {
        if (bytes.len() + chunk.len()) as u64 > limit {
            return Err(invalid(&format!("/{name}"), &format!("larger than the declared {limit} bytes")));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}
