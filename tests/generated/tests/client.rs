//! The generated typed client (runtime feature `client`) against the fixture's own axum router on
//! a loopback port: every HTTP operation of `people` called through its typed method (`count`, a
//! runtime tool, has no route), success
//! answers equal to the handler's, declared errors back as their registry code, invalid input
//! refused before sending with validation on and by the server with it off. Then every other
//! endpoint kind, on the helpdesk: raw request and response bodies, uploads, declared status and
//! headers, NDJSON and SSE streams.

mod desk;
mod directory;

use std::time::Duration;

use directory::{directory, person};
use futures_util::StreamExt;
use stitchgen_generated_tests::people::{self, Client, create, get, list, update};
use stitchgen_generated_tests::tickets::{self, types};
use stitchgen_runtime::client::{ClientError, HttpClient};
use stitchgen_runtime::{Ctx, Frame, RawBody, Upload, UploadedFile};

/// Serves the directory on a loopback port; a bearer token `admin` is an identity with scope
/// `admin`. Returns the base URL.
async fn serve() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = stitchgen_runtime::axum::HttpApi::new(people::service(directory()))
        .identify(|caller| {
            std::future::ready(Ok(match caller.header("authorization") {
                Some("Bearer admin") => Ctx::with_identity("root", ["admin"]),
                _ => Ctx::anonymous(),
            }))
        })
        .router();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    base
}

fn code(e: &ClientError) -> &str {
    e.code().unwrap_or_else(|| panic!("no error code: {e}"))
}

#[tokio::test]
async fn every_operation_answers_through_its_typed_method() {
    let client = Client::new(HttpClient::new(serve().await));
    let listed = client.list(&list::Input { team: Some("core".into()), limit: Some(1), offset: None }).await.unwrap();
    assert_eq!((listed.body.total, json(&listed.body.people)), (2, json(&[person("p1", "Ada", "core")])));
    let limits = (listed.headers.x_rate_limit_limit.as_str(), listed.headers.x_rate_limit_remaining.as_str());
    assert_eq!(limits, ("600", "599"));
    let got = client.get(&get::Params { id: "p3".into() }).await.unwrap();
    assert_eq!(json(&got), json(&person("p3", "Linus", "kernel")));
    assert_eq!(client.teams().await.unwrap(), ["core", "kernel"]);
    let input = create::Input {
        name: "Edsger".parse().unwrap(),
        email: "ed@example.com".into(),
        phone: None,
        team: "core".into(),
        address: None,
    };
    let created = client.create(&input).await.unwrap();
    assert_eq!((created.body.id.as_str(), created.body.email.as_str()), ("p9", "ed@example.com"));
    assert_eq!(created.headers.location, "/people/p9");
    let update_input = update::Input { team: Some("kernel".into()), ..Default::default() };
    let card = client.update(&update::Params { id: "p1".into() }, &update_input).await.unwrap();
    assert_eq!((card.name.as_str(), card.team.as_str()), ("Ada", "kernel"));
}

/// The typed value as the JSON it is on the wire (generated types compare as data).
fn json<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).unwrap()
}

#[tokio::test]
async fn declared_errors_come_back_as_their_registry_code() {
    let base = serve().await;
    let client = Client::new(HttpClient::new(&base));
    // The id travels percent-encoded in its one segment, and comes back in the message.
    let missing = client.get(&get::Params { id: "no one/?#".into() }).await.unwrap_err();
    assert_eq!((code(&missing), missing.status()), ("NOT_FOUND", Some(404)));
    assert!(matches!(&missing, ClientError::Api(e) if e.message.contains("no one/?#")), "{missing}");
    let id = people::delete::Params { id: "p1".into() };
    let anonymous = client.delete(&id).await.unwrap_err();
    assert_eq!((code(&anonymous), anonymous.status()), ("UNAUTHORIZED", Some(401)));
    let admin = Client::new(HttpClient::new(&base).bearer("admin"));
    admin.delete(&id).await.unwrap();
}

#[tokio::test]
async fn invalid_input_is_refused_before_sending_with_validation_on() {
    let too_many = list::Input { limit: Some(5000), ..Default::default() };
    // Nothing listens there: a refusal before sending is the only way to get a code back.
    let closed = Client::new(HttpClient::new("http://127.0.0.1:9").validate(true));
    let local = closed.list(&too_many).await.unwrap_err();
    assert!(matches!(local, ClientError::Invalid(_)), "{local}");
    assert_eq!(code(&local), "VALIDATION_ERROR");
    let remote = Client::new(HttpClient::new(serve().await)).list(&too_many).await.unwrap_err();
    assert!(matches!(remote, ClientError::Api(_)), "{remote}");
    assert_eq!((code(&remote), remote.status()), ("VALIDATION_ERROR", Some(400)));
    assert!(matches!(closed.teams().await.unwrap_err(), ClientError::Transport(_)));
}

#[tokio::test]
async fn a_server_that_does_not_answer_in_time_is_a_timeout() {
    // A listener that accepts and never answers.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        loop {
            held.push(listener.accept().await.unwrap());
        }
    });
    let client = Client::new(HttpClient::new(base).timeout(Duration::from_millis(200)));
    assert!(matches!(client.teams().await.unwrap_err(), ClientError::Timeout));
}

/// Serves the helpdesk on a loopback port; returns its typed client, with a credential.
async fn helpdesk() -> tickets::Client<HttpClient> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, desk::app()).await.unwrap() });
    tickets::Client::new(HttpClient::new(base).bearer("agent"))
}

#[tokio::test]
async fn raw_responses_come_back_with_their_status_type_and_headers() {
    let client = helpdesk().await;
    let csv = client.export(&tickets::export::Input { status: Some(types::Status::Open) }).await.unwrap();
    assert_eq!((csv.status, csv.content_type.as_deref()), (200, Some("text/csv")));
    assert_eq!(csv.body, b"id,status\nT-000001,open\n");
    let file = client.files(&tickets::files::Params { rest: "2026/11/a b.pdf".into() }).await.unwrap();
    assert_eq!(
        (file.body.as_slice(), file.content_type.as_deref()),
        (&b"2026/11/a b.pdf"[..], Some("application/octet-stream"))
    );
    assert!(file.headers.contains(&("x-stored".into(), "yes".into())), "{:?}", file.headers);
    let here = client.exists(&tickets::exists::Params { id: "T-000001".into() }).await.unwrap();
    assert_eq!((here.status, here.body.len()), (200, 0), "HEAD answers no body");
    let gone = client.exists(&tickets::exists::Params { id: "T-000009".into() }).await.unwrap_err();
    assert_eq!(gone.status(), Some(404), "HEAD carries no envelope, only the status");
}

#[tokio::test]
async fn a_raw_body_arrives_byte_for_byte() {
    let client = helpdesk().await;
    let text = r#"{"from": "a@b.example",  "subject": "hi", "text": "x"}"#;
    client.webhook(RawBody(text.into())).await.unwrap();
    let rejected = client.webhook(RawBody(r#"{"from":"a@b.example","subject":"hi","text":"x"}"#.into())).await;
    assert_eq!(code(&rejected.unwrap_err()), "MAIL_REJECTED", "the declared application error");
}

#[tokio::test]
async fn files_upload_beside_the_input_fields() {
    let client = helpdesk().await;
    let png = |name: &str| UploadedFile {
        field: "file".into(),
        file_name: Some(name.into()),
        content_type: "image/png".into(),
        bytes: vec![1; 16],
    };
    let params = tickets::attach::Params { id: "T-000001".into() };
    let input = tickets::attach::Input { note: Some("two screenshots".into()) };
    let upload = Upload { files: vec![png("a.png"), png("b.png")] };
    assert_eq!(client.attach(&params, &input, upload).await.unwrap().attached, 21);
    let exe = UploadedFile { content_type: "application/x-msdownload".into(), ..png("x.exe") };
    let refused = client.attach(&params, &input, Upload { files: vec![exe] }).await.unwrap_err();
    assert_eq!(code(&refused), "VALIDATION_ERROR");
}

#[tokio::test]
async fn a_declared_status_and_headers_come_back_beside_the_body() {
    let client = helpdesk().await;
    let source = types::ImportInputSource::Zendesk;
    let job = client.import(&tickets::import::Input { source }).await.unwrap();
    assert_eq!(job.body.job, "job-1");
    let headers = [("Location".to_owned(), "/jobs/job-1".to_owned()), ("Retry-After".to_owned(), "5".to_owned())];
    assert_eq!(job.headers, headers);
    let source = types::ImportInputSource::Freshdesk;
    let broken = client.import(&tickets::import::Input { source }).await.unwrap_err();
    assert_eq!(code(&broken), "INTERNAL_SERVER_ERROR", "the server refuses an answer without its required header");
}

#[tokio::test]
async fn streams_come_back_as_typed_frames() {
    let client = helpdesk().await;
    let replay: Vec<_> = client.replay().await.unwrap().collect().await;
    let replay: Vec<_> = replay
        .into_iter()
        .map(Result::unwrap)
        .map(|f| match f {
            Frame::Item(e) => ("item", json(&e)),
            Frame::Terminal(t) => ("terminal", json(&t)),
        })
        .collect();
    let t1 = "T-000001";
    let expected = [
        ("item", serde_json::json!({"kind": "created", "ticket": t1})),
        ("item", serde_json::json!({"kind": "status_changed", "ticket": t1, "status": "solved"})),
        ("terminal", serde_json::json!({"count": 2})),
    ];
    assert_eq!(replay, expected);
    let mut events = client.events(&tickets::events::Input::default()).await.unwrap();
    let first = tokio::time::timeout(Duration::from_secs(5), events.next()).await.expect("the first event in time");
    assert_eq!(json(&first.unwrap().unwrap()), serde_json::json!({"kind": "created", "ticket": t1}));
}
