//! The generated typed client (runtime feature `client`) against the fixture's own axum router on
//! a loopback port: every HTTP operation of `people` called through its typed method (`count`, a
//! runtime tool, has no route), success
//! answers equal to the handler's, declared errors back as their registry code, invalid input
//! refused before sending with validation on and by the server with it off.

mod directory;

use std::time::Duration;

use directory::{directory, person};
use stitchgen_generated_tests::people::{self, Client, create, get, list, update};
use stitchgen_runtime::Ctx;
use stitchgen_runtime::client::{ClientError, HttpClient};

/// Serves the directory on a loopback port; a bearer token `admin` is an identity with scope
/// `admin`. Returns the base URL.
async fn serve() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = stitchgen_runtime::axum::HttpApi::new(people::service(directory()))
        .identify(|headers| match headers.get("authorization").and_then(|v| v.to_str().ok()) {
            Some("Bearer admin") => Ctx::with_identity("root", ["admin"]),
            _ => Ctx::anonymous(),
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
    assert_eq!((listed.total, json(&listed.people)), (2, json(&[person("p1", "Ada", "core")])));
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
    assert_eq!((created.id.as_str(), created.email.as_str()), ("p9", "ed@example.com"));
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
