//! An origin on a loopback port that records what reached it: how many requests, the last one's
//! path and query, and its `Authorization`. Shared by the tests of remote services.

use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};

use axum::extract::Request;
use axum::middleware::Next;

/// What the origin received.
#[derive(Clone, Default)]
pub(crate) struct Seen(
    pub(crate) Arc<AtomicUsize>,
    pub(crate) Arc<Mutex<String>>,
    pub(crate) Arc<Mutex<Option<String>>>,
);

impl Seen {
    /// How many requests reached the origin.
    pub(crate) fn count(&self) -> usize {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// Serves `router` on a loopback port, recording each request in `seen`; returns the base URL.
pub(crate) async fn origin(router: axum::Router, seen: &Seen) -> String {
    let seen = seen.clone();
    let router = router.layer(axum::middleware::from_fn(move |req: Request, next: Next| {
        let seen = seen.clone();
        async move {
            seen.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            *seen.1.lock().unwrap() = req.uri().to_string();
            let authorization = req.headers().get("authorization").and_then(|v| v.to_str().ok());
            *seen.2.lock().unwrap() = authorization.map(str::to_owned);
            next.run(req).await
        }
    }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    base
}
