//! The helpdesk fixture's handler, shared by the adapter's tests and the typed client's: each
//! endpoint kind answers something a test can check (query values, raw bytes, uploads, declared
//! headers, NDJSON and SSE frames).

use futures_util::StreamExt;
use serde_json::json;
use stitchgen_generated_tests::tickets::{self, types};
use stitchgen_runtime::{AppError, Ctx, ErrorCode, Frame, ItemStream, RawBody, RawResponse, Upload, WithMeta};

/// The helpdesk's handler.
pub(crate) struct Desk;

fn not_here<T>() -> Result<T, AppError> {
    Err(AppError::new(ErrorCode::NotImplemented, "not part of this test"))
}

pub(crate) fn ticket(id: &str) -> types::TicketId {
    id.parse().expect("a valid ticket id")
}

impl tickets::Handler for Desk {
    async fn list(&self, _: &Ctx, input: tickets::list::Input) -> Result<tickets::list::Output, AppError> {
        // The tags and limit read from the query come back as the total, to be checked.
        Ok(types::ListOutput { tickets: Vec::new(), total: input.tag.len() as u64 * 1000 + input.limit })
    }
    async fn get(&self, _: &Ctx, _: tickets::get::Params) -> Result<tickets::get::Output, AppError> {
        Err(AppError::new(ErrorCode::NotFound, "no such ticket"))
    }
    async fn create(&self, _: &Ctx, _: tickets::create::Input) -> Result<tickets::create::Output, AppError> {
        not_here()
    }
    async fn update(
        &self,
        _: &Ctx,
        _: tickets::update::Params,
        _: tickets::update::Input,
    ) -> Result<tickets::update::Output, AppError> {
        not_here()
    }
    async fn delete(&self, _: &Ctx, _: tickets::delete::Params) -> Result<(), AppError> {
        not_here()
    }
    async fn add_comment(
        &self,
        _: &Ctx,
        _: tickets::add_comment::Params,
        _: tickets::add_comment::Input,
    ) -> Result<tickets::add_comment::Output, AppError> {
        not_here()
    }
    async fn search(&self, _: &Ctx, _: tickets::search::Input) -> Result<tickets::search::Output, AppError> {
        not_here()
    }
    async fn customer(&self, _: &Ctx, _: tickets::customer::Params) -> Result<tickets::customer::Output, AppError> {
        not_here()
    }
    async fn export(&self, _: &Ctx, input: tickets::export::Input) -> Result<RawResponse, AppError> {
        let status = input.status.map(|s| s.to_string()).unwrap_or_default();
        Ok(RawResponse::ok(format!("id,status\nT-000001,{status}\n")))
    }
    async fn exists(&self, _: &Ctx, params: tickets::exists::Params) -> Result<RawResponse, AppError> {
        match params.id.as_str() {
            "T-000001" => Ok(RawResponse::ok("ignored for HEAD")),
            _ => Err(AppError::new(ErrorCode::NotFound, "no such ticket")),
        }
    }
    async fn webhook(&self, _: &Ctx, input: tickets::webhook::Input, raw: RawBody) -> Result<(), AppError> {
        // The signature would be checked over the exact bytes.
        match raw.0.contains("  ") && input.subject == "hi" {
            true => Ok(()),
            false => Err(AppError::app("MAIL_REJECTED", "the raw body was not kept byte for byte")),
        }
    }
    async fn attach(
        &self,
        _: &Ctx,
        _: tickets::attach::Params,
        input: tickets::attach::Input,
        upload: Upload,
    ) -> Result<tickets::attach::Output, AppError> {
        let with_note = u64::from(input.note.as_deref() == Some("two screenshots"));
        Ok(types::AttachOutput { attached: upload.field("file").count() as u64 * 10 + with_note })
    }
    async fn import(
        &self,
        _: &Ctx,
        input: tickets::import::Input,
    ) -> Result<WithMeta<tickets::import::Output>, AppError> {
        let answer = WithMeta::new(types::ImportOutput { job: "job-1".into() });
        Ok(match input.source {
            types::ImportInputSource::Zendesk => answer.header("Location", "/jobs/job-1").header("Retry-After", "5"),
            // Breaks the contract: Location is required.
            types::ImportInputSource::Freshdesk => answer,
        })
    }
    async fn events(&self, _: &Ctx, _: tickets::events::Input) -> Result<ItemStream<tickets::events::Item>, AppError> {
        let first = futures_util::stream::iter([Ok(types::Event::Created { ticket: ticket("T-000001") })]);
        Ok(Box::pin(first.chain(futures_util::stream::pending())))
    }
    async fn replay(
        &self,
        _: &Ctx,
    ) -> Result<ItemStream<Frame<tickets::replay::Item, tickets::replay::Terminal>>, AppError> {
        let frames = [
            Ok(Frame::Item(types::Event::Created { ticket: ticket("T-000001") })),
            Ok(Frame::Item(types::Event::StatusChanged { ticket: ticket("T-000001"), status: types::Status::Solved })),
            Ok(Frame::Terminal(types::ReplayTerminal { count: 2 })),
        ];
        Ok(Box::pin(futures_util::stream::iter(frames)))
    }
    async fn files(&self, _: &Ctx, params: tickets::files::Params) -> Result<RawResponse, AppError> {
        let mut res = RawResponse::ok(params.rest.into_bytes());
        res.headers.push(("x-stored".into(), "yes".into()));
        Ok(res)
    }
    async fn summarize_queue(
        &self,
        _: &Ctx,
        _: tickets::summarize_queue::Input,
    ) -> Result<tickets::summarize_queue::Output, AppError> {
        not_here()
    }
}

impl tickets::Views for Desk {
    fn list(
        full: &tickets::list::Output,
        _: &stitchgen_runtime::ViewCall<tickets::list::Input>,
    ) -> tickets::list::ToolAnswer {
        serde_json::from_value(json!({ "tickets": [], "total": full.total })).expect("a valid card list")
    }
    fn search(
        _: &tickets::search::Output,
        _: &stitchgen_runtime::ViewCall<tickets::search::Input>,
    ) -> tickets::search::ToolAnswer {
        serde_json::from_value(json!({ "hits": [] })).expect("a valid search card")
    }
}

impl tickets::Presenters for Desk {
    fn summarize_queue_mcp(_: &tickets::summarize_queue::Output) -> stitchgen_runtime::Presentation {
        stitchgen_runtime::Presentation::default()
    }
    fn summarize_queue_agent(_: &tickets::summarize_queue::Output) -> stitchgen_runtime::Presentation {
        stitchgen_runtime::Presentation::default()
    }
}

/// The helpdesk's router: any `Authorization` header is an identity with scope `support`.
pub(crate) fn app() -> axum::Router {
    stitchgen_runtime::axum::HttpApi::new(tickets::service(Desk))
        .identify(|caller| {
            std::future::ready(Ok(match caller.header("authorization") {
                Some(_) => Ctx::with_identity("agent", ["support"]),
                None => Ctx::anonymous(),
            }))
        })
        .router()
}
