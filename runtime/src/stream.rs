//! Stream frames checked against the contract as they pass: each item against the item schema,
//! the terminal frame against its schema, exactly once and last.

use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::Value;

use crate::error::AppError;
use crate::http::{Frame, JsonFrames};

type Checked = Result<Frame<Value, Value>, AppError>;

/// What a stream is checked against.
pub(crate) struct Rules {
    pub(crate) item: Option<std::sync::Arc<jsonschema::Validator>>,
    pub(crate) terminal: Option<std::sync::Arc<jsonschema::Validator>>,
    /// The stream must end with a terminal frame.
    pub(crate) needs_terminal: bool,
}

/// Wraps `frames` so a frame that breaks the contract becomes an `INTERNAL_SERVER_ERROR` and
/// ends the stream, as a handler answer that breaks `output` does.
pub(crate) fn checked(frames: JsonFrames, rules: Rules) -> JsonFrames {
    Box::pin(CheckedFrames { frames, rules, terminal_seen: false, done: false })
}

struct CheckedFrames {
    frames: JsonFrames,
    rules: Rules,
    terminal_seen: bool,
    done: bool,
}

impl CheckedFrames {
    fn check(&mut self, frame: Checked) -> Checked {
        let frame = frame?;
        if self.terminal_seen {
            return Err(crate::validation::broken("the stream went on after its terminal frame"));
        }
        let (validator, what) = match &frame {
            Frame::Item(_) => (self.rules.item.as_deref(), "a stream item breaks the contract's item schema"),
            Frame::Terminal(_) if !self.rules.needs_terminal => {
                return Err(crate::validation::broken("this stream declares no terminal frame"));
            }
            Frame::Terminal(_) => (self.rules.terminal.as_deref(), "the terminal frame breaks its schema"),
        };
        let value = match &frame {
            Frame::Item(v) | Frame::Terminal(v) => v,
        };
        if let Some(errors) = validator.and_then(|v| crate::validation::violations(v, value)) {
            return Err(crate::validation::breaks(what, errors));
        }
        self.terminal_seen = matches!(frame, Frame::Terminal(_));
        Ok(frame)
    }
}

impl futures_core::Stream for CheckedFrames {
    type Item = Checked;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Checked>> {
        if self.done {
            return Poll::Ready(None);
        }
        match self.frames.as_mut().poll_next(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Some(frame)) => {
                let checked = self.check(frame);
                self.done = checked.is_err();
                Poll::Ready(Some(checked))
            }
            Poll::Ready(None) => {
                self.done = true;
                if self.rules.needs_terminal && !self.terminal_seen {
                    let e = crate::validation::broken("the stream ended without its terminal frame");
                    return Poll::Ready(Some(Err(e)));
                }
                Poll::Ready(None)
            }
        }
    }
}
