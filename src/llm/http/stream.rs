//! A message read as server-sent events (`"stream": true`), without the IO: bytes become
//! events ([`EventReader`]), events become the message the non-streaming API would have
//! returned ([`StreamedMessage`]), and each element of the forced tool's top-level arrays
//! is handed out as soon as it is complete.

use serde_json::{Map, Value, json};

use crate::llm::json_items::{Item, ItemScanner};

/// One server-sent event: its `event:` name and its `data:` lines joined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Event {
    pub name: String,
    pub data: String,
}

/// Splits a byte stream into events, whatever the chunk boundaries.
#[derive(Debug, Default)]
pub(super) struct EventReader {
    pending: Vec<u8>,
    name: String,
    data: Vec<String>,
}

impl EventReader {
    /// Reads `bytes` and returns the events they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Event> {
        self.pending.extend_from_slice(bytes);
        let mut events = Vec::new();
        let mut start = 0;
        while let Some(offset) = self.pending[start..].iter().position(|b| *b == b'\n') {
            let end = start + offset;
            let raw = &self.pending[start..end];
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let line = String::from_utf8_lossy(raw).into_owned();
            start = end + 1;
            if line.is_empty() {
                if !self.data.is_empty() {
                    events.push(Event {
                        name: std::mem::take(&mut self.name),
                        data: std::mem::take(&mut self.data).join("\n"),
                    });
                }
                self.name.clear();
                continue;
            }
            let (field, value) = line.split_once(':').unwrap_or((&line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "event" => self.name = value.to_string(),
                "data" => self.data.push(value.to_string()),
                _ => {}
            }
        }
        self.pending.drain(..start);
        events
    }
}

/// Why a stream gave no message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum StreamError {
    /// An `error` event: the HTTP status its type stands for, and its summary.
    Api { status: u16, message: String },
    /// An event whose data is not JSON.
    Garbled(String),
}

/// What a stream has said so far of one message.
#[derive(Debug)]
pub(super) struct StreamedMessage {
    tool: String,
    content: Vec<Value>,
    /// The tool input text of each block so far (`None` for a text block).
    inputs: Vec<Option<String>>,
    scanners: Vec<Option<ItemScanner>>,
    stop_reason: Value,
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    /// Characters of text and tool input received.
    pub chars: usize,
    /// `message_stop` arrived: the message is whole.
    pub complete: bool,
}

impl StreamedMessage {
    /// A message whose calls of `tool` have their array elements handed out.
    pub fn new(tool: &str) -> Self {
        Self {
            tool: tool.to_string(),
            content: Vec::new(),
            inputs: Vec::new(),
            scanners: Vec::new(),
            stop_reason: Value::Null,
            input_tokens: None,
            output_tokens: None,
            chars: 0,
            complete: false,
        }
    }

    /// Output tokens so far: the API's count once it gave one, else about 4 characters a
    /// token of what arrived.
    pub fn output_tokens(&self) -> u64 {
        let estimate = u64::try_from(self.chars.div_ceil(4)).unwrap_or(u64::MAX);
        self.output_tokens.unwrap_or(0).max(estimate)
    }

    /// Applies one event; returns the array elements it completed.
    pub fn apply(&mut self, event: &Event) -> Result<Vec<Item>, StreamError> {
        let data: Value = serde_json::from_str(&event.data).map_err(|e| {
            StreamError::Garbled(format!("the API sent an event that is not JSON: {e}"))
        })?;
        let kind = data
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or(&event.name);
        let index = data
            .get("index")
            .and_then(Value::as_u64)
            .and_then(|i| usize::try_from(i).ok());
        match (kind, index) {
            // Its output count (1) says nothing yet: the count comes with message_delta.
            ("message_start", _) => {
                self.input_tokens = count(data.pointer("/message/usage"), "input_tokens");
            }
            ("content_block_start", Some(i)) => {
                let block = data.get("content_block").cloned().unwrap_or(Value::Null);
                self.open(i, block);
            }
            ("content_block_delta", Some(i)) => return Ok(self.delta(i, data.get("delta"))),
            ("content_block_stop", Some(i)) => self.close(i),
            ("message_delta", _) => {
                if let Some(stop) = data.pointer("/delta/stop_reason") {
                    self.stop_reason = stop.clone();
                }
                if let Some(out) = count(data.get("usage"), "output_tokens") {
                    self.output_tokens = Some(out);
                }
            }
            ("message_stop", _) => self.complete = true,
            ("error", _) => return Err(api_error(data.get("error"))),
            _ => {}
        }
        Ok(Vec::new())
    }

    fn open(&mut self, i: usize, block: Value) {
        if self.content.len() <= i {
            self.content.resize(i + 1, Value::Null);
            self.inputs.resize(i + 1, None);
            self.scanners.resize_with(i + 1, || None);
        }
        let is_tool = block.get("type").and_then(Value::as_str) == Some("tool_use");
        let ours = block.get("name").and_then(Value::as_str) == Some(self.tool.as_str());
        self.inputs[i] = is_tool.then(String::new);
        self.scanners[i] = (is_tool && ours).then(ItemScanner::new);
        self.content[i] = block;
    }

    fn delta(&mut self, i: usize, delta: Option<&Value>) -> Vec<Item> {
        let field = |k: &str| delta.and_then(|d| d.get(k)).and_then(Value::as_str);
        if let Some(part) = field("partial_json")
            && let Some(Some(input)) = self.inputs.get_mut(i)
        {
            input.push_str(part);
            self.chars += part.chars().count();
            return self
                .scanners
                .get_mut(i)
                .and_then(Option::as_mut)
                .map(|s| s.feed(part))
                .unwrap_or_default();
        }
        if let Some(text) = field("text")
            && let Some(Value::Object(block)) = self.content.get_mut(i)
        {
            self.chars += text.chars().count();
            let mut whole = block
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            whole.push_str(text);
            block.insert("text".into(), Value::String(whole));
        }
        Vec::new()
    }

    /// A tool block's input, parsed once it is whole. A cut one (the output limit) becomes
    /// `{}`, so the validator names what is missing and the reply can be sent back.
    fn close(&mut self, i: usize) {
        let Some(Some(text)) = self.inputs.get(i) else {
            return;
        };
        let input = if text.trim().is_empty() {
            Value::Object(Map::new())
        } else {
            serde_json::from_str(text).unwrap_or_else(|_| Value::Object(Map::new()))
        };
        if let Some(Value::Object(block)) = self.content.get_mut(i) {
            block.insert("input".into(), input);
        }
    }

    /// The message as the non-streaming API returns it (the parts quizz reads).
    pub fn into_message(mut self) -> Value {
        // A block the stream never closed (its input is read as far as it went).
        for i in 0..self.content.len() {
            self.close(i);
        }
        let content: Vec<Value> = self.content.into_iter().filter(|b| !b.is_null()).collect();
        json!({
            "content": content,
            "stop_reason": self.stop_reason,
            "usage": {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens},
        })
    }
}

fn count(usage: Option<&Value>, key: &str) -> Option<u64> {
    usage.and_then(|u| u.get(key)).and_then(Value::as_u64)
}

/// An `error` event as the HTTP status the same error has outside a stream, so the retries
/// and the failures are the same.
fn api_error(error: Option<&Value>) -> StreamError {
    let kind = error
        .and_then(|e| e.get("type"))
        .and_then(Value::as_str)
        .unwrap_or("api_error");
    let message = error
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let status = match kind {
        "overloaded_error" => 529,
        "rate_limit_error" => 429,
        "authentication_error" => 401,
        "permission_error" => 403,
        "not_found_error" => 404,
        "invalid_request_error" => 400,
        "request_too_large" => 413,
        _ => 500,
    };
    StreamError::Api {
        status,
        message: crate::llm::clip(
            &crate::text::sanitize_line(&format!("{kind}: {message}")),
            300,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sse(events: &[Value]) -> String {
        let mut text = String::new();
        for e in events {
            let kind = e["type"].as_str().unwrap();
            text.push_str(&format!("event: {kind}\ndata: {e}\n\n"));
        }
        text
    }

    fn tool_stream(input: &str) -> Vec<Value> {
        let mut events = vec![
            json!({"type": "message_start", "message": {"usage": {"input_tokens": 20, "output_tokens": 1}}}),
            json!({"type": "ping"}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Here "}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "it is."}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "t1", "name": "submit_quiz", "input": {}}}),
        ];
        for part in input.as_bytes().chunks(7) {
            events.push(json!({"type": "content_block_delta", "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": std::str::from_utf8(part).unwrap()}}));
        }
        events.push(json!({"type": "content_block_stop", "index": 1}));
        events.push(json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 42}}));
        events.push(json!({"type": "message_stop"}));
        events
    }

    fn read(bytes: &[u8], split: usize) -> (Result<StreamedMessage, StreamError>, Vec<Item>) {
        let mut reader = EventReader::default();
        let mut message = StreamedMessage::new("submit_quiz");
        let mut items = Vec::new();
        for chunk in bytes.chunks(split) {
            for event in reader.push(chunk) {
                match message.apply(&event) {
                    Ok(found) => items.extend(found),
                    Err(e) => return (Err(e), items),
                }
            }
        }
        (Ok(message), items)
    }

    #[test]
    fn a_streamed_tool_call_becomes_the_message_with_its_questions_on_the_way() {
        let input = json!({"questions": [{"id": "q1"}, {"id": "q2", "p": "a}b"}]});
        let text = sse(&tool_stream(&input.to_string())).replace('\n', "\r\n");
        for split in [1, 3, 64, 100_000] {
            let (message, items) = read(text.as_bytes(), split);
            let message = message.unwrap();
            assert!(message.complete);
            assert_eq!(message.output_tokens(), 42);
            assert_eq!(items.len(), 2, "split {split}");
            assert_eq!(items[1].value, json!({"id": "q2", "p": "a}b"}));
            let value = message.into_message();
            assert_eq!(
                value["content"][0],
                json!({"type": "text", "text": "Here it is."})
            );
            assert_eq!(value["content"][1]["input"], input);
            assert_eq!(value["content"][1]["id"], "t1");
            assert_eq!(value["stop_reason"], "tool_use");
            assert_eq!(
                value["usage"],
                json!({"input_tokens": 20, "output_tokens": 42})
            );
        }
    }

    #[test]
    fn an_error_event_stands_for_its_http_status() {
        let mut events = tool_stream("{\"questions\": [");
        events.truncate(8);
        events.push(json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}));
        let (message, _) = read(sse(&events).as_bytes(), 10);
        assert_eq!(
            message.unwrap_err(),
            StreamError::Api {
                status: 529,
                message: "overloaded_error: Overloaded".into()
            }
        );
    }

    #[test]
    fn a_stream_without_message_stop_is_not_complete() {
        let mut events = tool_stream("{\"questions\": []}");
        events.pop();
        let (message, _) = read(sse(&events).as_bytes(), 5);
        assert!(!message.unwrap().complete);
    }

    #[test]
    fn a_cut_tool_input_becomes_an_empty_object() {
        let mut events = tool_stream("{\"questions\": [{\"id\"");
        events.retain(|e| e["type"] != "content_block_stop" || e["index"] != 1);
        let (message, items) = read(sse(&events).as_bytes(), 5);
        assert!(items.is_empty());
        let value = message.unwrap().into_message();
        assert_eq!(value["content"][1]["input"], json!({}));
    }
}
