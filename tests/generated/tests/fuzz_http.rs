//! A bounded mutation fuzzer over the axum adapter's request reading, on the wire: requests
//! mutated from valid ones (path and its percent-encoding, query, headers, JSON and multipart
//! bodies) are written to a real listener serving the helpdesk and the people directory. No
//! request may panic the server, hang it, or make it allocate without bound. Runs for
//! `STITCHGEN_HTTP_FUZZ_SECONDS` (default 10). Deterministic: a failure names its seed.

mod desk;
mod directory;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use stitchgen_tests::random::Rng;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Panics anywhere in this process (the server's tasks included), counted by the panic hook.
static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Valid requests to start from: method, target, headers, body.
const SEEDS: &[(&str, &str, &str, &str)] = &[
    ("GET", "/api/tickets?tag=a&tag=b&limit=7", "", ""),
    ("GET", "/api/tickets/T-000001", "", ""),
    ("HEAD", "/api/tickets/T-000001", "", ""),
    ("GET", "/api/tickets/files/2026/11/a.pdf", "", ""),
    ("GET", "/api/tickets/export?status=open", "", ""),
    ("DELETE", "/api/tickets/T-000001", "", ""),
    (
        "POST",
        "/api/tickets",
        "content-type: application/json\r\n",
        r#"{"subject":"hi","customerId":"7f1b8a52-1a43-4ac5-8b6b-3f3c0c5e9a01","tags":["a"],"priority":"high"}"#,
    ),
    (
        "POST",
        "/api/tickets/webhooks/mail",
        "content-type: application/json\r\n",
        r#"{"from":"a@b.example","subject":"hi"}"#,
    ),
    (
        "POST",
        "/api/tickets/T-000001/attachments",
        "content-type: multipart/form-data; boundary=XyZ\r\n",
        "--XyZ\r\ncontent-disposition: form-data; name=\"file\"; filename=\"a.png\"\r\ncontent-type: image/png\r\n\r\nPNG\r\n--XyZ\r\ncontent-disposition: form-data; name=\"note\"\r\n\r\ntwo screenshots\r\n--XyZ--\r\n",
    ),
    ("GET", "/people/p1", "", ""),
    ("GET", "/people?team=core&limit=2", "", ""),
    ("PATCH", "/people/p1", "content-type: application/merge-patch+json\r\n", r#"{"team":"kernel"}"#),
    (
        "POST",
        "/people",
        "content-type: application/json\r\n",
        r#"{"name":"Ken","email":"ken@example.com","team":"os"}"#,
    ),
];

/// What stresses a reader: encodings, dot segments, separators, odd JSON and multipart text.
const TOKENS: &[&str] = &[
    "%2e%2e",
    "%2E",
    "..",
    ".",
    "/",
    "//",
    "%2F",
    "%",
    "%zz",
    "%ff%fe",
    "%00",
    "?",
    "&",
    "=",
    "#",
    "+",
    "[]",
    "[0]",
    "\\",
    ";",
    "é",
    "\u{202e}",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "null",
    "1e999999",
    "-0",
    "\"\\ud800\"",
    "\"\\u0000\"",
    "--XyZ",
    "--XyZ--",
    "\r\n",
    "\r\n\r\n",
    "content-disposition: form-data; name=\"file\"",
    "filename=\"../../x\"",
    "content-type: text/plain",
    "boundary=",
    "; charset=utf-16",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut text = text.to_owned();
    for _ in 0..1 + rng.below(4) {
        let at = boundary(&text, rng.below(text.len() + 1));
        match rng.below(6) {
            0 => text.insert_str(at, TOKENS[rng.below(TOKENS.len())]),
            1 => {
                let end = boundary(&text, at + rng.below(16));
                text.replace_range(at..end.max(at), "");
            }
            2 => text.truncate(at),
            3 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                text.insert_str(at, &token.repeat(1 + rng.below(2_000)));
            }
            4 => text.insert_str(at, &"[".repeat(1 + rng.below(5_000))),
            _ => {
                let end = boundary(&text, at + rng.below(32));
                let piece = text[at..end.max(at)].to_owned();
                text.insert_str(at, &piece);
            }
        }
    }
    text
}

fn boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len())).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0)
}

/// One request on the wire: the request line and headers, then the body, as mutated.
fn request(rng: &mut Rng) -> Vec<u8> {
    let (method, target, headers, body) = SEEDS[rng.below(SEEDS.len())];
    let target = if rng.below(3) > 0 { mutate(target, rng) } else { target.to_owned() };
    let headers = if rng.below(4) == 0 { mutate(headers, rng) } else { headers.to_owned() };
    let body = if !body.is_empty() && rng.below(3) > 0 { mutate(body, rng) } else { body.to_owned() };
    // Mostly the true length; sometimes a lie either way, which the server must survive.
    let length = match rng.below(8) {
        0 => body.len() + rng.below(1 << 20),
        1 => body.len().saturating_sub(rng.below(8)),
        _ => body.len(),
    };
    let head = format!(
        "{method} {target} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer agent\r\n{headers}content-length: {length}\r\nconnection: close\r\n\r\n"
    );
    [head.into_bytes(), body.into_bytes()].concat()
}

/// The process's peak resident memory, in bytes, where the system says it.
fn peak_rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

async fn serve(router: axum::Router) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    addr
}

/// Writes `bytes`, closes the writing half, reads the answer to its end.
async fn exchange(addr: std::net::SocketAddr, bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    // The server may answer (and close) before it has read all of a refused request.
    let _ = stream.write_all(bytes).await;
    let _ = stream.shutdown().await;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.or_else(|e| match e.kind() {
        std::io::ErrorKind::ConnectionReset => Ok(0),
        _ => Err(e),
    })?;
    Ok(answer)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_requests_never_panic_hang_or_exhaust_the_adapter() {
    let seconds: u64 = std::env::var("STITCHGEN_HTTP_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        previous(info);
    }));
    let desk = serve(desk::app()).await;
    let people =
        stitchgen_runtime::axum::HttpApi::new(stitchgen_generated_tests::people::service(directory::directory()))
            .identify(|_| std::future::ready(Ok(stitchgen_runtime::Ctx::with_identity("root", ["admin"]))))
            .router();
    let people = serve(people).await;
    let before = peak_rss();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut rng = Rng(0x5717_c46e_4771_0001);
    let (mut runs, mut answered) = (0u64, 0u64);
    while Instant::now() < deadline && runs < 100_000 {
        let seed = rng.0;
        let bytes = request(&mut rng);
        let addr = if bytes.windows(7).any(|w| w == b"/people") { people } else { desk };
        let answer = tokio::time::timeout(Duration::from_secs(5), exchange(addr, &bytes)).await;
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(600)]).into_owned();
        let answer = answer.unwrap_or_else(|_| panic!("no answer in 5 s at seed {seed:#x}:\n{text}"));
        let answer = answer.unwrap_or_else(|e| panic!("{e} at seed {seed:#x}:\n{text}"));
        assert_eq!(PANICS.load(Ordering::SeqCst), 0, "a panic at seed {seed:#x}:\n{text}");
        if answer.starts_with(b"HTTP/1.1 ") {
            let status = String::from_utf8_lossy(&answer[9..12.min(answer.len())]).into_owned();
            // 500 is this service breaking its contract: no request may cause it.
            assert_ne!(status, "500", "at seed {seed:#x}:\n{text}\n{}", String::from_utf8_lossy(&answer));
            answered += 1;
        }
        runs += 1;
    }
    let grown = peak_rss().zip(before).map(|(after, before)| after.saturating_sub(before));
    eprintln!("{runs} mutated requests, {answered} answered, none panicked; peak memory grew {grown:?} bytes");
    assert!(runs > 100, "too few runs to mean anything: {runs}");
    assert!(answered * 2 > runs, "most requests should get an answer: {answered} of {runs}");
    if let Some(grown) = grown {
        assert!(grown < 256 << 20, "peak memory grew {grown} bytes");
    }
}
