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
    let reader =
        Reader { response, def, buf: Vec::new(), ready: VecDeque::new(), held: None, event: None, done: false };
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
    /// SSE: the `data:` lines of the event being read, joined by newlines as the format says.
    event: Option<String>,
    done: bool,
}

impl Reader {
    async fn next(&mut self) -> Option<Result<Frame<Value, Value>, AppError>> {
        loop {
            if let Some(frame) = self.ready.pop_front() {
                if frame.is_err() {
                    // An error ends the stream: nothing read after it is handed out.
                    self.ready.clear();
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
        let pending = self.buf.len() + self.event.as_ref().map_or(0, String::len);
        if pending as u64 > self.def.max_frame_bytes.unwrap_or(DEFAULT_MAX_FRAME).saturating_add(64) {
            self.fail(crate::validation::broken("a frame exceeds the stream's frame size limit"));
        }
    }

    /// One line: an NDJSON frame, or a line of an SSE event (its `data:` fields make the frame,
    /// a blank line ends it; other fields and comments are skipped).
    fn line(&mut self, line: &str) {
        match self.def.format {
            StreamFormat::Ndjson => self.json(line),
            StreamFormat::Sse if line.is_empty() => {
                if let Some(data) = self.event.take() {
                    self.json(&data);
                }
            }
            StreamFormat::Sse => {
                if let Some(data) = line.strip_prefix("data:") {
                    let data = data.strip_prefix(' ').unwrap_or(data);
                    match &mut self.event {
                        Some(event) => {
                            event.push('\n');
                            event.push_str(data);
                        }
                        None => self.event = Some(data.to_owned()),
                    }
                }
            }
        }
    }

    /// One frame's JSON text; blank text is no frame.
    fn json(&mut self, text: &str) {
        if text.trim().is_empty() {
            return;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(value) => self.frame(value),
            Err(e) => self.fail(crate::validation::broken(&format!("a frame is not JSON: {e}"))),
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
            other => Err(crate::validation::broken(&format!("a frame of unknown type `{other}`"))),
        };
        self.ready.push_back(frame);
    }

    /// The end of the body: bare framing's last value is its terminal frame.
    fn end(&mut self) {
        if !self.buf.is_empty() {
            let rest = std::mem::take(&mut self.buf);
            self.line(String::from_utf8_lossy(&rest).trim_end_matches('\r'));
        }
        // An SSE event the body ended in, without its blank line.
        if let Some(data) = self.event.take() {
            self.json(&data);
        }
        if let Some(last) = self.held.take() {
            self.ready.push_back(Ok(Frame::Terminal(last)));
        }
        self.done = true;
    }

    fn fail(&mut self, e: AppError) {
        self.buf.clear();
        self.held = None;
        self.event = None;
        self.ready.push_back(Err(e));
        self.done = true;
    }
}

/// An error frame's envelope as the error it carries.
fn error_frame(error: Value) -> AppError {
    match serde_json::from_value::<HttpErrorBody>(error) {
        Ok(body) => AppError::from(body),
        Err(e) => crate::validation::broken(&format!("an error frame does not read: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use futures_util::StreamExt;
    use serde_json::json;

    use super::*;

    fn def(format: StreamFormat, envelope: bool, terminal: bool) -> &'static StreamDef {
        Box::leak(Box::new(StreamDef {
            format,
            envelope,
            terminal,
            item_schema: "{}",
            terminal_schema: None,
            max_frame_bytes: None,
            heartbeat_ms: None,
            lifetime_ms: None,
            idle_timeout_seconds: None,
        }))
    }

    async fn frames(body: &'static str, def: &'static StreamDef) -> Vec<Result<(bool, Value), String>> {
        let response = reqwest::Response::from(::http::Response::new(body));
        let read: Vec<_> = read(response, def).collect().await;
        read.into_iter()
            .map(|f| match f {
                Ok(Frame::Item(v)) => Ok((false, v)),
                Ok(Frame::Terminal(v)) => Ok((true, v)),
                Err(e) => Err(e.code),
            })
            .collect()
    }

    #[tokio::test]
    async fn sse_events_join_their_data_lines_and_skip_heartbeats_and_comments() {
        let body = ": hello\nevent: x\ndata: {\"type\":\"item\",\ndata: \"item\":1}\n\ndata: {\"type\":\"heartbeat\"}\n\ndata: {\"type\":\"terminal\",\"terminal\":{\"n\":1}}";
        let got = frames(body, def(StreamFormat::Sse, true, true)).await;
        assert_eq!(got, [Ok((false, json!(1))), Ok((true, json!({"n": 1})))]);
    }

    #[tokio::test]
    async fn bare_ndjson_ends_with_its_terminal_frame_and_an_error_frame_ends_the_stream() {
        let got = frames("1\n2\n{\"count\":2}\n", def(StreamFormat::Ndjson, false, true)).await;
        assert_eq!(got, [Ok((false, json!(1))), Ok((false, json!(2))), Ok((true, json!({"count": 2})))]);
        let body = "{\"type\":\"item\",\"item\":1}\n{\"type\":\"error\",\"error\":{\"code\":\"TIMEOUT\",\"message\":\"idle\"}}\n{\"type\":\"item\",\"item\":2}\n";
        let got = frames(body, def(StreamFormat::Ndjson, true, false)).await;
        assert_eq!(got, [Ok((false, json!(1))), Err("TIMEOUT".to_owned())]);
    }
}
