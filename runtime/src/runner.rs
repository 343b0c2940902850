//! The one tool-call runner: split, defaults, scope gate, validation, handler, output
//! validation, view, in that order, for every surface.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use tracing::Instrument;

use crate::ctx::Ctx;
use crate::def::{OperationDef, Surface};
use crate::error::{AppError, ErrorCode};
use crate::hooks::{CallInfo, Hook};
use crate::validation::{breaks, broken, invalid, no_arguments, path_segments, to_answer, validate, violations};

/// The most undeclared answer paths reported per operation (see [`Service::first_seen`]).
const MAX_REPORTED_PATHS: usize = 256;

/// A boxed, sendable future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The decision of who may call what. Called only for operations whose scope is not `public`,
/// and only with an identity (a call without one has already failed closed).
pub type ScopeGate = Arc<dyn Fn(&Ctx, &OperationDef) -> Result<(), AppError> + Send + Sync>;

/// The typed half of the runner, generated per service: parse the arguments into the
/// generated types, call the handler, and return its answer as JSON.
pub trait Dispatch: Send + Sync + 'static {
    /// Runs operation `op` (an index into the service's catalog) with validated arguments.
    fn call<'a>(&'a self, op: usize, ctx: &'a Ctx, call: Call) -> BoxFuture<'a, Result<Answer, AppError>>;
}

/// The validated arguments of one call, and what HTTP-only kinds add to them.
#[derive(Debug, Default)]
pub struct Call {
    /// Path parameters, validated.
    pub params: Value,
    /// Input, validated.
    pub input: Value,
    /// The raw body text (`rawBody: true`).
    pub raw_body: Option<crate::RawBody>,
    /// The uploaded files (`multipart`).
    pub upload: Option<crate::Upload>,
}

/// What HTTP answers: the full JSON answer, and for HTTP-only kinds their payload.
#[derive(Debug)]
pub struct HttpAnswer {
    /// The full answer (`null` for raw responses, streams and answers without output).
    pub value: Value,
    /// Raw bytes, headers or a stream.
    pub payload: Option<crate::HttpPayload>,
    /// The success status answered, where it is one the operation documents beside its main
    /// one (`http.successes`); `None`: the main answer. A client reads it back from the wire.
    pub status: Option<u16>,
}

type Projection = Box<dyn FnOnce() -> Result<Value, AppError> + Send>;
type Presenter = Box<dyn Fn(Surface) -> Option<Presentation> + Send>;

/// A handler's answer: the full result as JSON, and what the view and presenters need of the
/// typed result.
pub struct Answer {
    full: Value,
    project: Option<Projection>,
    present: Option<Presenter>,
    payload: Option<crate::HttpPayload>,
    status: Option<u16>,
}

impl Answer {
    /// The full answer.
    pub fn new(full: Value) -> Self {
        Answer { full, project: None, present: None, payload: None, status: None }
    }

    /// Answers at `status`, a success the operation documents beside its main one
    /// (`http.successes`): the runner holds the answer to that status's body.
    #[must_use]
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    /// Adds what an HTTP-only kind answers besides JSON.
    #[must_use]
    pub fn with_payload(mut self, payload: crate::HttpPayload) -> Self {
        self.payload = Some(payload);
        self
    }

    /// Adds the projection of a `project: true` view, run only on tool surfaces.
    #[must_use]
    pub fn with_projection(mut self, project: impl FnOnce() -> Result<Value, AppError> + Send + 'static) -> Self {
        self.project = Some(Box::new(project));
        self
    }

    /// Adds the presenters of a runtime tool, run after a successful, validated call.
    #[must_use]
    pub fn with_presenter(mut self, present: impl Fn(Surface) -> Option<Presentation> + Send + 'static) -> Self {
        self.present = Some(Box::new(present));
        self
    }
}

/// What a presenter adds to a tool answer on its transport.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Presentation {
    /// MCP: extra content blocks; agent: the parts the model reads.
    pub content: Vec<Value>,
    /// MCP `_meta` entries.
    pub meta: Map<String, Value>,
}

/// The result of a tool call: the answer (the view on tool surfaces) and any presentation.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutcome {
    /// `structuredContent` / the CLI's stdout.
    pub value: Value,
    /// What a presenter added.
    pub presentation: Option<Presentation>,
    /// Whether the call answers its user's questions in place of a result: [`ToolOutcome::value`]
    /// is then MCP 2026-07-28's `InputRequiredResult`, and the handler has not run.
    pub input_required: bool,
}

/// What one call answered: the outcome, what HTTP sends besides, the success status where the
/// handler answered one beside the main one, and the answer's undeclared keys.
struct Done {
    outcome: ToolOutcome,
    payload: Option<crate::HttpPayload>,
    status: Option<u16>,
    undeclared: std::collections::BTreeSet<String>,
}

impl Done {
    /// The HTTP status this answer goes out with (the call's span records it on every surface):
    /// the documented success the handler answered, a raw response's own, 200 for a stream, else
    /// the main answer's.
    fn http_status(&self, def: &OperationDef) -> u16 {
        match (self.status, &self.payload) {
            (Some(status), _) => status,
            (None, Some(crate::HttpPayload::Raw(raw))) => raw.status,
            (None, Some(crate::HttpPayload::Stream(_))) => 200,
            _ => def.main_status(),
        }
    }
}

/// Whether a call has yet to pass the scope gate.
#[derive(Clone, Copy)]
enum Gate {
    Ahead,
    #[cfg_attr(not(feature = "axum"), allow(dead_code))]
    Passed,
}

/// What one operation's calls read of its definition: the view defaults, parsed once, and the
/// schemas, compiled at its first call. A service of hundreds of operations starts at once, and
/// holds compiled only the schemas of the operations called (each validator holds what it
/// reaches of the types document: Stripe's, compiled for every operation up front, took seconds
/// and 2 GB).
struct Compiled {
    validators: OnceLock<Validators>,
    defaults: Map<String, Value>,
    /// The undeclared answer paths already reported: each once per operation.
    reported: std::sync::Mutex<std::collections::BTreeSet<String>>,
}

/// The schemas of one operation, compiled.
struct Validators {
    params: Option<jsonschema::Validator>,
    input: Option<jsonschema::Validator>,
    output: Option<jsonschema::Validator>,
    view: Option<jsonschema::Validator>,
    item: Option<Arc<jsonschema::Validator>>,
    terminal: Option<Arc<jsonschema::Validator>>,
    /// The output schema as JSON, for the keys an answer carries that it does not declare.
    output_doc: Option<Value>,
    /// The body schema of each documented error answer, by status.
    errors: Vec<(u16, Option<jsonschema::Validator>)>,
    /// The body schema of each success documented beside the main one, compiled and as JSON
    /// (for the undeclared-key walk), by status.
    successes: Vec<(u16, Option<(jsonschema::Validator, Value)>)>,
}

impl Validators {
    fn compile(op: &OperationDef, types: &jsonschema::Registry<'_>) -> Self {
        // Read once: the validator compiles from it, the undeclared-key walk reads it.
        let output_doc = op.output_schema.map(|s| parse(s, "output", op));
        Validators {
            params: compile(op.params_schema, "params", op, types),
            input: compile(op.input_schema, "input", op, types),
            output: output_doc.as_ref().map(|v| build(v, "output", op, types)),
            view: compile(op.view.as_ref().and_then(|v| v.output_schema), "view", op, types),
            item: compile(op.http_kind.stream.as_ref().map(|s| s.item_schema), "stream item", op, types).map(Arc::new),
            terminal: compile(op.http_kind.stream.as_ref().and_then(|s| s.terminal_schema), "terminal", op, types)
                .map(Arc::new),
            output_doc,
            errors: op.error_answers.iter().map(|a| (a.status, compile(a.schema, "error answer", op, types))).collect(),
            successes: op
                .success_answers
                .iter()
                .map(|a| {
                    let doc = a.schema.map(|s| parse(s, "success answer", op));
                    (a.status, doc.map(|d| (build(&d, "success answer", op, types), d)))
                })
                .collect(),
        }
    }
}

struct Inner {
    ops: &'static [&'static OperationDef],
    types: jsonschema::Registry<'static>,
    /// The types document as JSON, where answers' references lead.
    types_doc: Value,
    compiled: Vec<Compiled>,
    dispatch: Box<dyn Dispatch>,
}

/// A generated service with its handler: what every adapter mounts. Cheap to clone.
#[derive(Clone)]
pub struct Service {
    inner: Arc<Inner>,
    /// The scope gate of this handle: [`Service::with_scope_gate`] sets it on one handle and the
    /// clones made from it after, never on a clone made before.
    gate: Option<ScopeGate>,
    /// The lifecycle hooks of this handle, in order (as the gate, a clone made before keeps its own).
    hooks: Arc<[Arc<dyn Hook>]>,
    /// Whether the operations' questions (`tool.mcp.inputRequired`) are asked on MCP.
    asks: bool,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service").field("operations", &self.inner.ops.len()).finish()
    }
}

pub(crate) fn compile(
    schema: Option<&'static str>,
    what: &str,
    op: &OperationDef,
    types: &jsonschema::Registry<'_>,
) -> Option<jsonschema::Validator> {
    Some(build(&parse(schema?, what, op), what, op, types))
}

/// The body schema (compiled, and as JSON) of the success the handler answered at `status`
/// (`http.successes`); a status the contract does not document beside the main one is the
/// handler's fault, as is a body at a status that documents none.
fn success_answer<'a>(
    def: &OperationDef,
    compiled: &'a Validators,
    status: u16,
    body: &Value,
) -> Result<(Option<&'a jsonschema::Validator>, Option<&'a Value>), AppError> {
    let Some((_, schema)) = compiled.successes.iter().find(|(s, _)| *s == status) else {
        tracing::error!(target: "stitchgen_runtime", service = def.service, operation = def.action, status,
            "the handler answered a success status the contract does not document");
        let message = format!("the handler answered status {status}, which the contract does not document");
        return Err(AppError::new(ErrorCode::InternalServerError, message));
    };
    match schema {
        Some((validator, doc)) => Ok((Some(validator), Some(doc))),
        None if body.is_null() => Ok((None, None)),
        None => {
            tracing::error!(target: "stitchgen_runtime", service = def.service, operation = def.action, status,
                "the handler's success answer has a body its status does not document");
            Err(AppError::new(ErrorCode::InternalServerError, format!("status {status} documents no body")))
        }
    }
}

/// A handler's error: an error answer ([`AppError::answer`]) is held to the body the contract
/// documents for its status; every other error passes as it is.
fn error_answer(def: &OperationDef, compiled: &Validators, e: AppError) -> AppError {
    let Some(status) = e.answer_status() else { return e };
    let Some((_, schema)) = compiled.errors.iter().find(|(s, _)| *s == status) else {
        tracing::error!(target: "stitchgen_runtime", service = def.service, operation = def.action, status,
            "the handler answered an error status the contract does not document");
        let message = format!("the handler answered status {status}, which the contract does not document");
        return AppError::new(ErrorCode::InternalServerError, message);
    };
    let body = e.details.as_deref().cloned().unwrap_or(Value::Null);
    match schema {
        Some(v) => match violations(v, &body) {
            Some(errors) => breaks("the handler's error answer breaks the body its status documents", errors),
            None => e,
        },
        None if e.details.is_some() => {
            tracing::error!(target: "stitchgen_runtime", service = def.service, operation = def.action, status,
                "the handler's error answer has a body its status does not document");
            AppError::new(ErrorCode::InternalServerError, format!("status {status} documents no body"))
        }
        None => e,
    }
}

/// A generated schema as JSON.
fn parse(text: &str, what: &str, op: &OperationDef) -> Value {
    serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("{}.{}: generated {what} schema is not JSON: {e}", op.service, op.action))
}

/// The validator of a generated schema already read.
fn build(value: &Value, what: &str, op: &OperationDef, types: &jsonschema::Registry<'_>) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .with_registry(types)
        .build(value)
        .unwrap_or_else(|e| panic!("{}.{}: generated {what} schema does not compile: {e}", op.service, op.action))
}

/// The service's types document (see [`crate::TYPES_URI`]), registered once for every schema.
#[cfg(feature = "client")]
pub(crate) fn registry(types: &'static str) -> jsonschema::Registry<'static> {
    registry_of(types_document(types))
}

/// The types document as JSON.
fn types_document(types: &'static str) -> Value {
    serde_json::from_str(types).unwrap_or_else(|e| panic!("the generated types document is not JSON: {e}"))
}

/// [`registry`] of a types document already read.
fn registry_of(doc: Value) -> jsonschema::Registry<'static> {
    jsonschema::Registry::new()
        .add(crate::TYPES_URI, jsonschema::Resource::from_contents(doc))
        .and_then(|r| r.prepare())
        .unwrap_or_else(|e| panic!("the generated types document does not register: {e}"))
}

impl Service {
    /// A service over the catalog `ops` whose schemas refer to `types` (the module's types
    /// document), dispatching to `dispatch`. Each operation's schemas are compiled once, at its
    /// first call. Generated code calls this; it panics (here, or at an operation's first call)
    /// only on a generated module that was edited by hand.
    pub fn new(types: &'static str, ops: &'static [&'static OperationDef], dispatch: impl Dispatch) -> Self {
        // Read once: the registry compiles from it, the undeclared-key walk reads it.
        let types_doc = types_document(types);
        let types = registry_of(types_doc.clone());
        let compiled = ops
            .iter()
            .map(|op| Compiled {
                validators: OnceLock::new(),
                defaults: op.view.as_ref().and_then(|v| serde_json::from_str(v.defaults).ok()).unwrap_or_default(),
                reported: std::sync::Mutex::default(),
            })
            .collect();
        Service {
            inner: Arc::new(Inner { ops, types, types_doc, compiled, dispatch: Box::new(dispatch) }),
            gate: None,
            hooks: Arc::new([]),
            asks: true,
        }
    }

    /// This service, asking its users nothing (`tool.mcp.inputRequired` dropped): what a remote
    /// service is, on purpose. It forwards params and input alone, so answers given in front of
    /// the origin could never reach it; an origin that serves MCP itself asks its own users.
    #[must_use]
    pub fn without_questions(mut self) -> Self {
        self.asks = false;
        self
    }

    /// The compiled schemas of operation `op`, compiled at its first call.
    fn validators(&self, op: usize) -> &Validators {
        let inner = &self.inner;
        inner.compiled[op].validators.get_or_init(|| Validators::compile(inner.ops[op], &inner.types))
    }

    /// This service with `gate` deciding who may call its non-public operations. Without one, a
    /// non-public operation needs an identity holding its scope. The gate belongs to the handle
    /// returned (and its clones): a clone made before keeps the gate it had.
    #[must_use]
    pub fn with_scope_gate(
        mut self,
        gate: impl Fn(&Ctx, &OperationDef) -> Result<(), AppError> + Send + Sync + 'static,
    ) -> Self {
        self.gate = Some(Arc::new(gate));
        self
    }

    /// This service with `hook` run on every call after the hooks added before it (see [`Hook`]).
    /// Like the gate, the hooks belong to the handle returned and its clones.
    #[must_use]
    pub fn with_hook(mut self, hook: impl Hook) -> Self {
        let mut hooks = self.hooks.to_vec();
        hooks.push(Arc::new(hook));
        self.hooks = hooks.into();
        self
    }

    /// The caller's own arguments, kept for the hooks (not copied when there is none).
    fn own(&self, arguments: impl FnOnce() -> Value) -> Option<Value> {
        (!self.hooks.is_empty()).then(arguments)
    }

    /// The catalog, in declaration order.
    pub fn operations(&self) -> &'static [&'static OperationDef] {
        self.inner.ops
    }

    /// The operation behind tool `name` on `surface`.
    pub fn find_tool(&self, surface: Surface, name: &str) -> Option<usize> {
        self.inner.ops.iter().position(|op| op.tool_name == Some(name) && op.surfaces.contains(&surface))
    }

    /// Calls a tool the way MCP, agent and CLI adapters do: unknown tool → `NOT_FOUND`;
    /// arguments split into params and input, view defaults filled for absent keys, then the
    /// runner; the answer is the view.
    pub async fn call_tool(
        &self,
        surface: Surface,
        name: &str,
        args: Value,
        ctx: &Ctx,
    ) -> Result<ToolOutcome, AppError> {
        let Some(op) = self.find_tool(surface, name) else {
            return Err(AppError::new(ErrorCode::NotFound, format!("unknown tool `{name}`")));
        };
        let own = self.own(|| args.clone());
        let Value::Object(args) = args else {
            return Err(invalid("input", "arguments must be a JSON object".into(), Vec::new()));
        };
        let def = self.inner.ops[op];
        let (mut params, mut input) = (Map::new(), Map::new());
        for (k, v) in args {
            if def.param_keys.contains(&k.as_str()) {
                params.insert(k, v)
            } else {
                input.insert(k, v)
            };
        }
        if surface.is_tool() {
            for (k, v) in &self.inner.compiled[op].defaults {
                // An explicit `null` from the caller is present, and wins.
                input.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        // No argument of a body that may be absent: no body (the handler's `None`).
        let input = if def.input_optional && input.is_empty() { Value::Null } else { Value::Object(input) };
        let call = Call { params: Value::Object(params), input, ..Call::default() };
        Ok(self.run(op, call, ctx, surface, Gate::Ahead, own).await?.outcome)
    }

    /// Calls operation `op` as HTTP does: params from the path, input from the query or body,
    /// raw body and upload when the kind takes them; the full answer.
    pub async fn call_http(
        &self,
        op: usize,
        params: Map<String, Value>,
        input: Map<String, Value>,
        extra: Call,
        ctx: &Ctx,
    ) -> Result<HttpAnswer, AppError> {
        if op >= self.inner.ops.len() {
            return Err(AppError::new(ErrorCode::NotFound, "no such operation"));
        }
        let call = Call { params: Value::Object(params), input: Value::Object(input), ..extra };
        let own = self.own(|| http_arguments(&call));
        let done = self.run(op, call, ctx, Surface::Http, Gate::Ahead, own).await?;
        Ok(HttpAnswer { value: done.outcome.value, payload: done.payload, status: done.status })
    }

    /// Whether `ctx` may call operation `op`: what the HTTP adapter asks before it reads a body,
    /// so that an unauthorised caller costs no read and learns nothing of the schemas.
    /// A refusal is a call like any other to the span and the `after` hooks.
    #[cfg(feature = "axum")]
    pub(crate) async fn admit(&self, op: usize, ctx: &Ctx) -> Result<(), AppError> {
        let def = self.inner.ops[op];
        let Err(e) = self.gate(def, ctx) else { return Ok(()) };
        let (span, started) = (crate::hooks::span(def, Surface::Http), std::time::Instant::now());
        crate::hooks::record(&span, Err(&e), started);
        let info = CallInfo { operation: def, surface: Surface::Http, ctx, arguments: &Value::Null };
        for hook in self.hooks.iter() {
            hook.after(&info, Err(&e)).instrument(span.clone()).await;
        }
        Err(e)
    }

    /// [`Service::call_http`] for a caller [`Service::admit`] let in: the gate is not asked twice.
    #[cfg(feature = "axum")]
    pub(crate) async fn call_http_admitted(&self, op: usize, call: Call, ctx: &Ctx) -> Result<HttpAnswer, AppError> {
        let own = self.own(|| http_arguments(&call));
        let done = self.run(op, call, ctx, Surface::Http, Gate::Passed, own).await?;
        Ok(HttpAnswer { value: done.outcome.value, payload: done.payload, status: done.status })
    }

    /// One call in its span: the gate, the `before` hooks, then [`Service::checked`], then the
    /// `after` hooks with what the caller receives.
    async fn run(
        &self,
        op: usize,
        call: Call,
        ctx: &Ctx,
        surface: Surface,
        gate: Gate,
        own: Option<Value>,
    ) -> Result<Done, AppError> {
        let def = self.inner.ops[op];
        let (span, started) = (crate::hooks::span(def, surface), std::time::Instant::now());
        let arguments = own.unwrap_or(Value::Null);
        let info = CallInfo { operation: def, surface, ctx, arguments: &arguments };
        let result = async {
            if matches!(gate, Gate::Ahead) {
                self.gate(def, ctx)?;
            }
            for hook in self.hooks.iter() {
                hook.before(&info).await?;
            }
            self.checked(op, call, ctx, surface).await
        }
        .instrument(span.clone())
        .await;
        crate::hooks::record(&span, result.as_ref().map(|done| done.http_status(def)), started);
        let mut result = result;
        let undeclared = match &mut result {
            Ok(done) => self.first_seen(op, std::mem::take(&mut done.undeclared)),
            Err(_) => Vec::new(),
        };
        for hook in self.hooks.iter() {
            if !undeclared.is_empty() {
                hook.undeclared(&info, &undeclared).instrument(span.clone()).await;
            }
            hook.after(&info, result.as_ref().map(|done| &done.outcome.value)).instrument(span.clone()).await;
        }
        result
    }

    /// Of the undeclared paths of one answer, those not reported before for operation `op`,
    /// each logged once (the path, never the value). An origin that invents keys at every
    /// answer cannot grow the record without bound: past [`MAX_REPORTED_PATHS`] per operation,
    /// one last event says reporting stopped.
    fn first_seen(&self, op: usize, paths: std::collections::BTreeSet<String>) -> Vec<String> {
        if paths.is_empty() {
            return Vec::new();
        }
        let def = self.inner.ops[op];
        let mut reported = self.inner.compiled[op].reported.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut new = Vec::new();
        for path in paths {
            if reported.len() >= MAX_REPORTED_PATHS {
                if reported.len() == MAX_REPORTED_PATHS {
                    // One more entry, never a path: the mark that the limit was reached.
                    reported.insert(String::new());
                    tracing::warn!(target: "stitchgen_runtime", service = def.service, operation = def.action,
                        "more undeclared keys in answers: no longer reported");
                }
                break;
            }
            if reported.insert(path.clone()) {
                // `?`: a key an origin chose is escaped, never a line of the log of its own.
                tracing::warn!(target: "stitchgen_runtime", service = def.service, operation = def.action,
                    path = ?path, "the answer carries a key its schema does not declare");
                new.push(path);
            }
        }
        new
    }

    /// Validation, handler, output validation, view. The gate came first: a caller without the
    /// right is told so, and nothing of what the schemas would say of its arguments.
    async fn checked(&self, op: usize, call: Call, ctx: &Ctx, surface: Surface) -> Result<Done, AppError> {
        let def = self.inner.ops[op];
        // After the gate: a caller without the right costs no compiling.
        let compiled = self.validators(op);
        validate(compiled.params.as_ref(), &call.params, "params")?;
        path_segments(def, &call.params)?;
        let mut call = call;
        // A body that may be absent and is: the handler's `None`, nothing to validate.
        let absent = def.input_optional && call.input.is_null();
        if let (Some(v), true, false) = (&compiled.input, surface.is_tool(), absent) {
            crate::validation::absent_nulls(v, &mut call.input, &self.inner.compiled[op].defaults);
        }
        match &compiled.input {
            Some(_) if absent => {}
            Some(v) => validate(Some(v), &call.input, "input")?,
            None => no_arguments(&call.input)?,
        }
        // The user is asked once the arguments are known to be good, and before anything acts.
        let answered;
        let ctx = if surface == Surface::Mcp && !def.input_required.is_empty() && self.asks {
            match crate::elicit::resolve(def, ctx).await? {
                crate::elicit::Resolved::Answered(with_answers) => {
                    answered = with_answers;
                    &answered
                }
                crate::elicit::Resolved::Pending(requests) => {
                    let outcome = ToolOutcome { value: requests, presentation: None, input_required: true };
                    return Ok(Done { outcome, payload: None, status: None, undeclared: Default::default() });
                }
            }
        } else {
            ctx
        };
        let mut answer = self.inner.dispatch.call(op, ctx, call).await.map_err(|e| error_answer(def, compiled, e))?;
        let payload = match answer.payload.take() {
            Some(crate::HttpPayload::Stream(frames)) => {
                let rules = crate::stream::Rules {
                    item: compiled.item.clone(),
                    terminal: compiled.terminal.clone(),
                    needs_terminal: def.http_kind.stream.as_ref().is_some_and(|s| s.terminal),
                };
                Some(crate::HttpPayload::Stream(crate::stream::checked(frames, rules)))
            }
            other => other,
        };
        let (output, output_doc) = match answer.status {
            Some(status) => success_answer(def, compiled, status, &answer.full)?,
            None => (compiled.output.as_ref(), compiled.output_doc.as_ref()),
        };
        if let Some(v) = output
            && let Some(errors) = violations(v, &answer.full)
        {
            return Err(breaks("the handler's answer breaks the contract's output schema", errors));
        }
        // The full answer, before any view: a view's slice drops keys on purpose.
        let undeclared = match output_doc {
            Some(schema) => crate::undeclared::Schemas { root: schema, types: &self.inner.types_doc }
                .undeclared(&answer.full, schema),
            None => Default::default(),
        };
        let value = match (&def.view, surface.is_tool()) {
            (Some(view), true) => {
                let value = if view.project {
                    let project = answer.project.ok_or_else(|| broken("the view's projection is missing"))?;
                    catch_unwind(AssertUnwindSafe(project)).map_err(|_| broken("the view's projection panicked"))??
                } else if let Some(plan) = view.slice {
                    plan.apply(answer.full)
                } else {
                    answer.full
                };
                if let Some(errors) = compiled.view.as_ref().and_then(|v| violations(v, &value)) {
                    return Err(breaks("the tool view's answer breaks the view's schema", errors));
                }
                value
            }
            _ => answer.full,
        };
        let value = match def.wrap {
            Some(key) if surface.is_tool() => Value::Object(Map::from_iter([(key.to_owned(), value)])),
            _ => value,
        };
        let presentation = answer.present.as_ref().and_then(|p| p(surface));
        let outcome = ToolOutcome { value, presentation, input_required: false };
        Ok(Done { outcome, payload, status: answer.status, undeclared })
    }

    fn gate(&self, def: &OperationDef, ctx: &Ctx) -> Result<(), AppError> {
        if def.scope == "public" {
            return Ok(());
        }
        let Some(identity) = &ctx.identity else {
            return Err(AppError::new(
                ErrorCode::Unauthorized,
                format!("`{}` needs an identity with scope `{}`", def.action, def.scope),
            ));
        };
        match &self.gate {
            Some(gate) => gate(ctx, def),
            None if identity.scopes.iter().any(|s| s == def.scope) => Ok(()),
            None => Err(AppError::new(ErrorCode::Forbidden, format!("`{}` needs scope `{}`", def.action, def.scope))),
        }
    }
}

/// An HTTP call's own arguments for the hooks: its path parameters and input, as one object.
fn http_arguments(call: &Call) -> Value {
    let mut all = call.params.as_object().cloned().unwrap_or_default();
    all.extend(call.input.as_object().cloned().unwrap_or_default());
    Value::Object(all)
}

/// Deserializes validated arguments into a generated type (generated code calls this).
pub fn parse_args<T: serde::de::DeserializeOwned>(value: Value, part: &str) -> Result<T, AppError> {
    serde_json::from_value(crate::validation::integral(value)).map_err(|e| invalid(part, e.to_string(), Vec::new()))
}

/// A handler's typed answer as an [`Answer`], with nothing added (generated code calls this).
pub fn answer<T: serde::Serialize>(value: &T) -> Result<Answer, AppError> {
    to_answer(value).map(Answer::new)
}

/// A handler's typed answer with its projection onto the tool view, which runs only when a tool
/// surface asks for the view (generated code calls this).
pub fn projected<O, I, V>(out: O, input: I, view: fn(&O, &crate::ViewCall<I>) -> V) -> Result<Answer, AppError>
where
    O: serde::Serialize + Send + 'static,
    I: Send + 'static,
    V: serde::Serialize + 'static,
{
    Ok(Answer::new(to_answer(&out)?).with_projection(move || to_answer(&view(&out, &crate::ViewCall { input }))))
}

/// An answer with the documented response headers the handler set, sent on HTTP only
/// (generated code calls this).
pub fn with_headers(
    answer: Result<Answer, AppError>,
    headers: impl crate::ResponseHeaders,
) -> Result<Answer, AppError> {
    answer.map(|a| a.with_payload(crate::HttpPayload::Headers(headers.into_pairs())))
}

/// The headers that are set, by name: a required one always, an optional one when `Some`
/// (generated code calls this).
pub fn header_pairs<const N: usize>(headers: [(&str, Option<String>); N]) -> Vec<(String, String)> {
    headers.into_iter().filter_map(|(name, value)| Some((name.to_owned(), value?))).collect()
}

/// The answer of an operation without output: HTTP answers 204 (generated code calls this).
pub fn no_content() -> Result<Answer, AppError> {
    Ok(Answer::new(Value::Null))
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::{Answer, BoxFuture, Call, Dispatch, Service};
    use crate::{AppError, Ctx, OpKind, OperationDef};

    /// Two operations whose inputs are one shared type of the types document.
    const TYPES: &str = r##"{"$id": "urn:stitchgen:types", "$defs": {
        "Tag": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "minLength": 2}}}
    }}"##;

    const fn op(action: &'static str) -> OperationDef {
        OperationDef {
            service: "tags",
            action,
            kind: OpKind::Contract,
            scope: "public",
            surfaces: &[crate::Surface::Http],
            input_schema: Some(r#"{"$ref": "urn:stitchgen:types#/$defs/Tag"}"#),
            ..OperationDef::EMPTY
        }
    }
    static ADD: OperationDef = op("add");
    static RENAME: OperationDef = op("rename");
    static OPS: &[&OperationDef] = &[&ADD, &RENAME];

    struct Echo;
    impl Dispatch for Echo {
        fn call<'a>(&'a self, _: usize, _: &'a Ctx, call: Call) -> BoxFuture<'a, Result<Answer, AppError>> {
            Box::pin(async move { Ok(Answer::new(call.input)) })
        }
    }

    async fn run(svc: &Service, op: usize, input: Value) -> Result<Value, String> {
        let input: Map<String, Value> = input.as_object().cloned().unwrap_or_default();
        let answer = svc.call_http(op, Map::new(), input, Call::default(), &Ctx::anonymous()).await;
        answer.map(|a| a.value).map_err(|e| e.message)
    }

    #[tokio::test]
    async fn a_type_shared_by_two_operations_is_validated_the_same_in_both() {
        let svc = Service::new(TYPES, OPS, Echo);
        for op in 0..2 {
            assert_eq!(run(&svc, op, json!({ "name": "ok" })).await, Ok(json!({ "name": "ok" })));
            let short = run(&svc, op, json!({ "name": "x" })).await.unwrap_err();
            assert!(short.starts_with("Invalid input: /name:"), "{short}");
            let missing = run(&svc, op, json!({})).await.unwrap_err();
            assert!(missing.contains("\"name\" is a required property"), "{missing}");
        }
    }

    /// An operation answering 201 with a tag, or 202 with a ticket, or 204 with nothing.
    static SUBMIT: OperationDef = OperationDef {
        service: "tags",
        action: "submit",
        kind: OpKind::Contract,
        scope: "public",
        surfaces: &[crate::Surface::Http],
        input_schema: Some(r#"{"type": "object"}"#),
        output_schema: Some(r#"{"$ref": "urn:stitchgen:types#/$defs/Tag"}"#),
        success_answers: &[
            crate::AnswerDef {
                status: 202,
                description: None,
                schema: Some(
                    r#"{"type": "object", "required": ["ticket"], "properties": {"ticket": {"type": "string"}}}"#,
                ),
            },
            crate::AnswerDef { status: 204, description: None, schema: None },
        ],
        ..OperationDef::EMPTY
    };
    static SUBMITS: &[&OperationDef] = &[&SUBMIT];

    /// Answers the input's `status` (when given) with the input's `body`.
    struct Chooses;
    impl Dispatch for Chooses {
        fn call<'a>(&'a self, _: usize, _: &'a Ctx, call: Call) -> BoxFuture<'a, Result<Answer, AppError>> {
            Box::pin(async move {
                let answer = Answer::new(call.input["body"].clone());
                Ok(match call.input["status"].as_u64() {
                    Some(status) => answer.with_status(status as u16),
                    None => answer,
                })
            })
        }
    }

    #[tokio::test]
    async fn a_chosen_success_is_held_to_its_own_status_and_body() {
        let svc = Service::new(TYPES, SUBMITS, Chooses);
        let call = |input: Value| {
            let svc = svc.clone();
            async move {
                let input = input.as_object().cloned().unwrap_or_default();
                svc.call_http(0, Map::new(), input, Call::default(), &Ctx::anonymous()).await
            }
        };
        let main = call(json!({"body": {"name": "ok"}})).await.unwrap();
        assert_eq!((main.status, main.value), (None, json!({"name": "ok"})));
        let queued = call(json!({"status": 202, "body": {"ticket": "t"}})).await.unwrap();
        assert_eq!((queued.status, queued.value), (Some(202), json!({"ticket": "t"})));
        assert_eq!(call(json!({"status": 204})).await.unwrap().status, Some(204));
        // A main answer's body at 202, a body at 204, an undocumented status: the handler's fault.
        for wrong in [
            json!({"status": 202, "body": {"name": "ok"}}),
            json!({"status": 204, "body": {"ticket": "t"}}),
            json!({"status": 207, "body": {"name": "ok"}}),
        ] {
            let e = call(wrong.clone()).await.unwrap_err();
            assert_eq!(e.code, "INTERNAL_SERVER_ERROR", "{wrong}: {e:?}");
        }
    }

    #[test]
    fn a_success_s_status_is_the_one_it_answers_with() {
        use super::Done;
        use crate::{HttpKindDef, HttpPayload, RawResponse};
        let done = |status: Option<u16>, payload: Option<HttpPayload>| Done {
            outcome: super::ToolOutcome { value: Value::Null, presentation: None, input_required: false },
            payload,
            status,
            undeclared: Default::default(),
        };
        let none = OperationDef { output_schema: None, ..OperationDef::EMPTY };
        let some = OperationDef { output_schema: Some("{}"), ..OperationDef::EMPTY };
        let created = OperationDef {
            output_schema: Some("{}"),
            http_kind: HttpKindDef { status: Some(201), ..HttpKindDef::PLAIN },
            ..OperationDef::EMPTY
        };
        assert_eq!(done(None, None).http_status(&none), 204, "no answer");
        assert_eq!(done(None, None).http_status(&some), 200, "an answer");
        assert_eq!(done(None, None).http_status(&created), 201, "the declared status");
        assert_eq!(done(Some(202), None).http_status(&created), 202, "a documented success answered");
        let raw = RawResponse { status: 206, ..RawResponse::ok("part") };
        assert_eq!(done(None, Some(HttpPayload::Raw(raw))).http_status(&none), 206, "a raw response's own");
    }
}
