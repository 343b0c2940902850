//! A stream endpoint's answer read back into frames, the inverse of the adapter's framing: NDJSON
//! lines or server-sent events, envelope or bare item framing, heartbeats skipped, an error
//! frame read into its error, and no frame larger than the declared limit buffered.

use std::collections::VecDeque;

use serde_json::Value;

use crate::error::{AppError, ErrorCode, HttpErrorBody};
use crate::http::{Frame, JsonFrames};
use crate::{StreamDef, StreamFormat};

/// The most bytes one frame may take when the contract declares no `maxFrameBytes`.
const DEFAULT_MAX_FRAME: u64 = 16 * 1024 * 1024;

/// The frames of `response`, read as `def` declares them.
pub(super) fn read(response: reqwest::Response, def: &'static StreamDef) -> JsonFrames {
    let reader = Reader { response, def, buf: Vec::new(), ready: VecDeque::new(), held: None, done: false };
    Box::pin(futures_util::stream::unfold(reader, |mut r| async move { r.next().await.map(|f| (f, r)) }))
}

struct Reader {
    response: reqwest::Response,
    def: &'static StreamDef,
    /// Bytes received and not yet a whole line.
    buf: Vec<u8>,
    /// Frames read and not yet handed out.
    ready: VecDeque<Result<Frame<Value, Value>, AppError>>,
    /// Bare framing with a terminal frame: the last value read, a terminal frame if none follows.
    held: Option<Value>,
    done: bool,
}

impl Reader {
    async fn next(&mut self) -> Option<Result<Frame<Value, Value>, AppError>> {
        loop {
            if let Some(frame) = self.ready.pop_front() {
                if frame.is_err() {
                    self.done = true;
                }
                return Some(frame);
            }
            if self.done {
                return None;
            }
            match self.response.chunk().await {
                Ok(Some(bytes)) => self.take(&bytes),
                Ok(None) => self.end(),
                Err(e) => self.fail(AppError::new(ErrorCode::InternalServerError, format!("the stream broke: {e}"))),
            }
        }
    }

    /// Reads the whole lines of `bytes`; a line longer than the frame limit ends the stream.
    fn take(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
        while let Some(at) = self.buf.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=at).collect();
            self.line(String::from_utf8_lossy(&line).trim_end_matches(['\n', '\r']));
        }
        let limit = self.def.max_frame_bytes.unwrap_or(DEFAULT_MAX_FRAME).saturating_add(64);
        if self.buf.len() as u64 > limit {
            self.fail(crate::runner::broken("a frame exceeds the stream's frame size limit", Vec::new()));
        }
    }

    /// One line: an NDJSON frame, or an SSE `data:` field (other fields and comments are skipped).
    fn line(&mut self, line: &str) {
        let json = match self.def.format {
            StreamFormat::Ndjson => line,
            StreamFormat::Sse => match line.strip_prefix("data:") {
                Some(data) => data.strip_prefix(' ').unwrap_or(data),
                None => return,
            },
        };
        if json.trim().is_empty() {
            return;
        }
        match serde_json::from_str::<Value>(json) {
            Ok(value) => self.frame(value),
            Err(e) => self.fail(crate::runner::broken(&format!("a frame is not JSON: {e}"), Vec::new())),
        }
    }

    fn frame(&mut self, value: Value) {
        if !self.def.envelope {
            if self.def.terminal {
                if let Some(previous) = self.held.replace(value) {
                    self.ready.push_back(Ok(Frame::Item(previous)));
                }
            } else {
                self.ready.push_back(Ok(Frame::Item(value)));
            }
            return;
        }
        let kind = value.get("type").and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut value = value;
        let frame = match kind.as_str() {
            "heartbeat" => return,
            "item" => Ok(Frame::Item(value["item"].take())),
            "terminal" => Ok(Frame::Terminal(value["terminal"].take())),
            "error" => Err(error_frame(value["error"].take())),
            other => Err(crate::runner::broken(&format!("a frame of unknown type `{other}`"), Vec::new())),
        };
        self.ready.push_back(frame);
    }

    /// The end of the body: bare framing's last value is its terminal frame.
    fn end(&mut self) {
        if !self.buf.is_empty() {
            let rest = std::mem::take(&mut self.buf);
            self.line(String::from_utf8_lossy(&rest).trim_end_matches('\r'));
        }
        if let Some(last) = self.held.take() {
            self.ready.push_back(Ok(Frame::Terminal(last)));
        }
        self.done = true;
    }

    fn fail(&mut self, e: AppError) {
        self.buf.clear();
        self.held = None;
        self.ready.push_back(Err(e));
        self.done = true;
    }
}

/// An error frame's envelope as the error it carries.
fn error_frame(error: Value) -> AppError {
    match serde_json::from_value::<HttpErrorBody>(error) {
        Ok(body) => AppError::from(body),
        Err(e) => crate::runner::broken(&format!("an error frame does not read: {e}"), Vec::new()),
    }
}
