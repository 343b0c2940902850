//! A typed client call against a local server, beside the same request built by hand with the
//! HTTP crate (reqwest): URL, send, status, body read as the typed record. Both go over loopback
//! to the fixture's axum router on the same runtime, so the difference is the client's own work
//! (serializing the arguments, encoding the path, reading the answer back through JSON).

#[path = "../tests/directory/mod.rs"]
mod directory;

use criterion::{Criterion, criterion_group, criterion_main};
use stitchgen_generated_tests::people::{self, get, types};
use stitchgen_runtime::client::HttpClient;

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let base = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let router = stitchgen_runtime::axum::router(people::service(directory::directory()));
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        base
    });
    let client = people::Client::new(HttpClient::new(&base));
    let http = reqwest::Client::new();
    let url = format!("{base}/people/p1");
    let mut group = c.benchmark_group("get_person over loopback");
    group.bench_function("typed client", |b| {
        b.iter(|| rt.block_on(client.get(&get::Params { id: "p1".into() })).unwrap())
    });
    group.bench_function("reqwest by hand", |b| {
        b.iter(|| {
            rt.block_on(async {
                let response = http.get(&url).send().await.unwrap();
                assert!(response.status().is_success());
                let body = response.bytes().await.unwrap();
                serde_json::from_slice::<types::Person>(&body).unwrap()
            })
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
