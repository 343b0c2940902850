//! A stream endpoint's frames on the wire: NDJSON lines or server-sent events, envelope or bare
//! item framing, heartbeats, and the declared frame size, lifetime and idle limits.

use std::time::Duration;

use ::axum::body::{Body, Bytes};
use ::axum::http::{HeaderValue, header};
use ::axum::response::Response;
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::time::{Instant, Interval, MissedTickBehavior};

use crate::{AppError, ErrorCode, Frame, JsonFrames, StreamDef, StreamFormat};

/// The streaming response of `frames`, framed as `def` declares.
pub(super) fn response(frames: JsonFrames, def: &'static StreamDef) -> Response {
    let heartbeat = def.heartbeat_ms.filter(|ms| *ms > 0 && def.envelope).map(|ms| {
        let period = Duration::from_millis(ms);
        let mut interval = tokio::time::interval_at(Instant::now() + period, period);
        interval.set_missed_tick_behavior(MissedTickBehavior::Delay);
        interval
    });
    let state = Wire {
        frames,
        def,
        heartbeat,
        ends_at: def.lifetime_ms.map(|ms| Instant::now() + Duration::from_millis(ms)),
        last_item: Instant::now(),
        done: false,
    };
    let body = futures_util::stream::unfold(state, |mut wire| async move {
        let bytes = wire.next_frame().await?;
        Some((Ok::<_, std::convert::Infallible>(bytes), wire))
    });
    let media = match def.format {
        StreamFormat::Ndjson => "application/x-ndjson",
        StreamFormat::Sse => "text/event-stream",
    };
    let mut res = Response::new(Body::from_stream(body));
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(media));
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    res
}

struct Wire {
    frames: JsonFrames,
    def: &'static StreamDef,
    heartbeat: Option<Interval>,
    ends_at: Option<Instant>,
    last_item: Instant,
    done: bool,
}

/// What goes on the wire next.
enum Next {
    Frame(Result<Frame<Value, Value>, AppError>),
    End,
    Heartbeat,
    Idle,
}

impl Wire {
    async fn next_frame(&mut self) -> Option<Bytes> {
        if self.done {
            return None;
        }
        let idle = self.def.idle_timeout_seconds.map(|s| self.last_item + Duration::from_secs(s));
        let next = tokio::select! {
            frame = self.frames.next() => frame.map_or(Next::End, Next::Frame),
            _ = tick(self.heartbeat.as_mut()) => Next::Heartbeat,
            _ = sleep_until(self.ends_at) => Next::End,
            _ = sleep_until(idle) => Next::Idle,
        };
        let value = match next {
            Next::End => return self.finish(),
            Next::Heartbeat => json!({ "type": "heartbeat" }),
            Next::Idle => {
                let secs = self.def.idle_timeout_seconds.unwrap_or_default();
                self.error(AppError::new(ErrorCode::Timeout, format!("no item for {secs} s; the stream is closed")))?
            }
            Next::Frame(Err(e)) => self.error(e)?,
            Next::Frame(Ok(frame)) => {
                self.last_item = Instant::now();
                self.framed(frame)
            }
        };
        let line = serde_json::to_string(&value).unwrap_or_default();
        if let Some(max) = self.def.max_frame_bytes
            && line.len() as u64 > max
        {
            let e =
                crate::validation::broken(&format!("a frame of {} bytes exceeds maxFrameBytes ({max})", line.len()));
            let value = self.error(e)?;
            return Some(self.encode(&serde_json::to_string(&value).unwrap_or_default()));
        }
        Some(self.encode(&line))
    }

    fn framed(&self, frame: Frame<Value, Value>) -> Value {
        match (frame, self.def.envelope) {
            (Frame::Item(v), true) => json!({ "type": "item", "item": v }),
            (Frame::Terminal(v), true) => json!({ "type": "terminal", "terminal": v }),
            (Frame::Item(v) | Frame::Terminal(v), false) => v,
        }
    }

    /// The error frame, and the end of the stream. Bare item framing has no error frame: the
    /// stream ends without its terminal frame, which is how its reader tells a failure.
    fn error(&mut self, e: AppError) -> Option<Value> {
        self.done = true;
        self.def.envelope.then(|| json!({ "type": "error", "error": e.http_envelope() }))
    }

    fn finish(&mut self) -> Option<Bytes> {
        self.done = true;
        None
    }

    fn encode(&self, json: &str) -> Bytes {
        Bytes::from(match self.def.format {
            StreamFormat::Ndjson => format!("{json}\n"),
            StreamFormat::Sse => format!("data: {json}\n\n"),
        })
    }
}

async fn tick(interval: Option<&mut Interval>) {
    match interval {
        Some(i) => {
            i.tick().await;
        }
        None => std::future::pending().await,
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
