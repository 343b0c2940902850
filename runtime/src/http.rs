//! What HTTP-only endpoint kinds hand to and get from their handlers: raw bodies, uploads,
//! raw responses, declared statuses and headers, and streams.

use std::pin::Pin;

/// The raw JSON text of a request body (`rawBody: true`), beside the parsed input, for
/// checking signatures over the exact bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawBody(pub String);

/// One uploaded file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UploadedFile {
    /// The form field it came in.
    pub field: String,
    /// The file name the client sent, if any.
    pub file_name: Option<String>,
    /// Its content type.
    pub content_type: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// The files of a multipart upload, within their declared limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Upload {
    /// Every file, in the order received.
    pub files: Vec<UploadedFile>,
}

impl Upload {
    /// The files of one field.
    pub fn field<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a UploadedFile> + 'a {
        self.files.iter().filter(move |f| f.field == name)
    }
}

/// Response bytes the handler owns (`rawResponse: true`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawResponse {
    /// HTTP status (200 unless set).
    pub status: u16,
    /// Content type; the contract's `contentType` when `None`.
    pub content_type: Option<String>,
    /// Extra response headers.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl RawResponse {
    /// A 200 response with `body`.
    pub fn ok(body: impl Into<Vec<u8>>) -> Self {
        RawResponse { status: 200, content_type: None, headers: Vec::new(), body: body.into() }
    }
}

/// Typed data with response headers (`responseMeta`); the status is the contract's.
#[derive(Clone, Debug, PartialEq)]
pub struct WithMeta<T> {
    /// The answer.
    pub body: T,
    /// Response headers, by their declared names.
    pub headers: Vec<(String, String)>,
}

impl<T> WithMeta<T> {
    /// `body` with no headers yet.
    pub fn new(body: T) -> Self {
        WithMeta { body, headers: Vec::new() }
    }

    /// Adds a header.
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }
}

/// An answer with the response headers its contract documents (`http.headers`): HTTP sends them
/// beside the body, with the contract's status; the tool surfaces answer the body alone.
#[derive(Clone, Debug, PartialEq)]
pub struct Headed<T, H> {
    /// The answer.
    pub body: T,
    /// The documented response headers, as the operation's generated `Headers` type holds them.
    pub headers: H,
}

impl<T, H> Headed<T, H> {
    /// `body` with `headers`.
    pub fn new(body: T, headers: H) -> Self {
        Headed { body, headers }
    }
}

impl<T, H: Default> Headed<T, H> {
    /// `body` without any of its headers, where none is required.
    pub fn body(body: T) -> Self {
        Headed { body, headers: H::default() }
    }
}

/// The documented response headers of an operation, as its generated `Headers` type holds them.
pub trait ResponseHeaders {
    /// Each header that is set, by its declared name.
    fn into_pairs(self) -> Vec<(String, String)>;

    /// Reads the headers back from an answer's `pairs`, names compared without case (a typed
    /// client calls this); a required header missing is an error that names it.
    fn from_pairs(pairs: &[(String, String)]) -> Result<Self, String>
    where
        Self: Sized;
}

/// The value of header `name` among `pairs`, compared without case (generated code calls this).
pub fn header_value(pairs: &[(String, String)], name: &str) -> Option<String> {
    pairs.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone())
}

/// The value of required header `name` among `pairs` (generated code calls this).
pub fn required_header(pairs: &[(String, String)], name: &str) -> Result<String, String> {
    header_value(pairs, name).ok_or_else(|| format!("the answer lacks its required `{name}` header"))
}

/// The items of a stream endpoint; an `Err` ends the stream with an error frame.
pub type ItemStream<T> = Pin<Box<dyn futures_core::Stream<Item = Result<T, crate::AppError>> + Send>>;

/// One frame of a stream that ends with a terminal frame (`completion: terminal`): items, then
/// exactly one terminal value, last.
#[derive(Clone, Debug, PartialEq)]
// Exhaustive on purpose: a stream is items and at most one terminal frame, nothing else.
pub enum Frame<I, T> {
    /// An item.
    Item(I),
    /// The terminal frame.
    Terminal(T),
}

/// The frames of a stream as JSON, for the HTTP adapter.
pub type JsonFrames = ItemStream<Frame<serde_json::Value, serde_json::Value>>;

/// What an HTTP-only endpoint answers besides JSON, for the HTTP adapter.
#[non_exhaustive]
pub enum HttpPayload {
    /// Bytes the handler owns.
    Raw(RawResponse),
    /// Response headers beside the JSON answer.
    Headers(Vec<(String, String)>),
    /// A stream of JSON frames.
    Stream(JsonFrames),
}

impl std::fmt::Debug for HttpPayload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HttpPayload::Raw(r) => f.debug_tuple("Raw").field(r).finish(),
            HttpPayload::Headers(h) => f.debug_tuple("Headers").field(h).finish(),
            HttpPayload::Stream(_) => f.write_str("Stream(..)"),
        }
    }
}

/// Maps the typed items of a stream to JSON item frames, one by one (generated code calls this).
pub fn json_stream<T: serde::Serialize + Send + 'static>(items: ItemStream<T>) -> JsonFrames {
    map_items(items, |item: T| crate::validation::to_answer(&item).map(Frame::Item))
}

/// Maps the typed frames of a stream with a terminal frame to JSON (generated code calls this).
pub fn json_frames<I, T>(frames: ItemStream<Frame<I, T>>) -> JsonFrames
where
    I: serde::Serialize + Send + 'static,
    T: serde::Serialize + Send + 'static,
{
    map_items(frames, |frame: Frame<I, T>| match frame {
        Frame::Item(i) => crate::validation::to_answer(&i).map(Frame::Item),
        Frame::Terminal(t) => crate::validation::to_answer(&t).map(Frame::Terminal),
    })
}

/// `items`, each mapped by `f` as it arrives; an error passes through, and so does one `f` makes.
pub(crate) fn map_items<T, U, F>(items: ItemStream<T>, f: F) -> ItemStream<U>
where
    T: 'static,
    U: 'static,
    F: Fn(T) -> Result<U, crate::AppError> + Send + Unpin + 'static,
{
    Box::pin(Mapped(items, f))
}

struct Mapped<T, F>(ItemStream<T>, F);

impl<T, U, F: Fn(T) -> Result<U, crate::AppError> + Unpin> futures_core::Stream for Mapped<T, F> {
    type Item = Result<U, crate::AppError>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Option<Self::Item>> {
        let this = &mut *self;
        this.0.as_mut().poll_next(cx).map(|item| item.map(|r| r.and_then(&this.1)))
    }
}
