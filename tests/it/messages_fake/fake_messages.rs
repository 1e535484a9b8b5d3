//! A fake Anthropic Messages API on 127.0.0.1, scriptable per test.
//!
//! Speaks HTTP/1.1 (keep-alive, content-length or chunked request bodies) and answers
//! `POST /v1/messages` with a message as JSON, or as a server-sent event stream when the
//! request says `"stream": true` (as the `claude` CLI asks: it first sends `HEAD`, then
//! `POST /v1/messages?beta=true`; quizz asks when it writes a quiz), at a rate of output
//! tokens per second when the reply says, with an `error` event or a cut on demand. Each
//! connection is served on its own task, so calls are answered at the same time. Every
//! request is recorded for assertions.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// When the request was read whole.
    pub at: Instant,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// The text of the first user message (a string, or its text blocks one per line).
    pub fn first_user_text(&self) -> String {
        match &self.json()["messages"][0]["content"] {
            Value::String(s) => s.clone(),
            Value::Array(blocks) => blocks
                .iter()
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        }
    }

    /// The tool a reply must call: the CLI's `StructuredOutput`, or the forced tool.
    fn tool_name(&self) -> String {
        let body = self.json();
        let tools: Vec<&str> = body["tools"]
            .as_array()
            .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
            .unwrap_or_default();
        if tools.contains(&"StructuredOutput") {
            return "StructuredOutput".into();
        }
        body["tool_choice"]["name"]
            .as_str()
            .or_else(|| tools.first().copied())
            .unwrap_or("submit_grade")
            .to_string()
    }
}

/// What the server answers to one `POST /v1/messages`.
#[derive(Debug, Clone)]
pub struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Body,
    delay: Duration,
    /// Output tokens per second of a streamed reply (a token is 4 characters of the
    /// text or JSON written); `None`: as fast as it can.
    rate: Option<f64>,
    end: StreamEnd,
}

/// How a streamed reply ends.
#[derive(Debug, Clone)]
enum StreamEnd {
    Whole,
    /// An `error` event once this many characters of content were sent.
    Error {
        after: usize,
        kind: String,
        message: String,
    },
    /// The stream stops (the body ends) once this many characters were sent.
    Cut {
        after: usize,
    },
}

#[derive(Debug, Clone)]
enum Body {
    /// Content blocks of a message; `tool_use` blocks get the request's tool name.
    Message {
        blocks: Vec<Value>,
        stop: String,
    },
    Error {
        kind: String,
        message: String,
    },
}

impl Reply {
    /// The model calls the grading tool with `{"score", "feedback"}`.
    pub fn grade(score: i64, feedback: &str) -> Self {
        Self::tool_input(json!({"score": score, "feedback": feedback}))
    }

    /// The model calls the grading tool with any input.
    pub fn tool_input(input: Value) -> Self {
        Self::message(
            vec![json!({"type": "tool_use", "input": input})],
            "tool_use",
        )
    }

    /// The model calls the grading tool with `input` and reaches its output limit there
    /// (`stop_reason: max_tokens`).
    pub fn cut_tool_input(input: Value) -> Self {
        Self::message(
            vec![json!({"type": "tool_use", "input": input})],
            "max_tokens",
        )
    }

    /// The model calls the tool `name` (not the forced or output tool) with `input`.
    pub fn tool_call(name: &str, input: Value) -> Self {
        Self::message(
            vec![json!({"type": "tool_use", "name": name, "input": input})],
            "tool_use",
        )
    }

    /// The model answers in text and calls no tool.
    pub fn text(text: &str) -> Self {
        Self::message(vec![json!({"type": "text", "text": text})], "end_turn")
    }

    fn message(blocks: Vec<Value>, stop: &str) -> Self {
        Self {
            status: 200,
            headers: Vec::new(),
            body: Body::Message {
                blocks,
                stop: stop.into(),
            },
            delay: Duration::ZERO,
            rate: None,
            end: StreamEnd::Whole,
        }
    }

    /// An API error: `{"type":"error","error":{"type": kind, "message"}}`.
    pub fn error(status: u16, kind: &str, message: &str) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: Body::Error {
                kind: kind.into(),
                message: message.into(),
            },
            delay: Duration::ZERO,
            rate: None,
            end: StreamEnd::Whole,
        }
    }

    #[must_use]
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Streamed, writes `tokens_per_second` output tokens a second (4 characters a token).
    #[must_use]
    pub fn streamed_at(mut self, tokens_per_second: f64) -> Self {
        self.rate = Some(tokens_per_second);
        self
    }

    /// Streamed, sends an `error` event of `kind` once `after` characters of content
    /// were sent, and ends there (as the API does when it is overloaded mid-reply).
    #[must_use]
    pub fn error_mid_stream(mut self, after: usize, kind: &str, message: &str) -> Self {
        self.end = StreamEnd::Error {
            after,
            kind: kind.into(),
            message: message.into(),
        };
        self
    }

    /// Streamed, stops once `after` characters of content were sent: the body ends with
    /// no `message_stop`.
    #[must_use]
    pub fn cut_mid_stream(mut self, after: usize) -> Self {
        self.end = StreamEnd::Cut { after };
        self
    }

    /// Waits this long before answering.
    #[must_use]
    pub fn after(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

type Script = dyn Fn(&Recorded, usize) -> Reply + Send + Sync;

struct State {
    requests: Mutex<Vec<Recorded>>,
    posts: AtomicUsize,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    /// When each `POST /v1/messages` reply was written to its end, with the request's tool.
    answered: Mutex<Vec<(String, Instant)>>,
    script: Box<Script>,
}

/// A running fake server; stops when dropped.
pub struct FakeMessages {
    pub url: String,
    state: Arc<State>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FakeMessages {
    /// Answers the n-th `POST /v1/messages` (from 0) with `script(request, n)`.
    pub fn start(script: impl Fn(&Recorded, usize) -> Reply + Send + Sync + 'static) -> Self {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        std_listener.set_nonblocking(true).unwrap();
        let url = format!("http://{}", std_listener.local_addr().unwrap());
        let state = Arc::new(State {
            requests: Mutex::new(Vec::new()),
            posts: AtomicUsize::new(0),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
            answered: Mutex::new(Vec::new()),
            script: Box::new(script),
        });
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let shared = Arc::clone(&state);
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = TcpListener::from_std(std_listener).unwrap();
                let accept = async {
                    loop {
                        let Ok((stream, _)) = listener.accept().await else {
                            continue;
                        };
                        let state = Arc::clone(&shared);
                        tokio::spawn(async move {
                            let _ = serve(stream, state).await;
                        });
                    }
                };
                tokio::select! {
                    () = accept => {}
                    _ = stopped => {}
                }
            });
            rt.shutdown_background();
        });
        Self {
            url,
            state,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// The replies in order; the last one repeats.
    pub fn sequence(replies: Vec<Reply>) -> Self {
        assert!(!replies.is_empty());
        Self::start(move |_, n| replies[n.min(replies.len() - 1)].clone())
    }

    /// A model that writes quizzes and grades: each forced `submit_quiz` call is answered
    /// with the next of `quizzes` (the last one repeats), any other call with `grade`.
    pub fn quiz_writer(quizzes: Vec<Reply>, grade: Reply) -> Self {
        assert!(!quizzes.is_empty());
        let asked = AtomicUsize::new(0);
        Self::start(move |request, _| {
            if request.tool_name() == "submit_quiz" {
                let n = asked.fetch_add(1, Ordering::SeqCst);
                quizzes[n.min(quizzes.len() - 1)].clone()
            } else {
                grade.clone()
            }
        })
    }

    /// The `POST /v1/messages` requests that forced the tool `name`.
    pub fn posts_for(&self, name: &str) -> Vec<Recorded> {
        self.posts()
            .into_iter()
            .filter(|r| r.json()["tool_choice"]["name"] == name)
            .collect()
    }

    /// Every request so far (HEAD and others included), in arrival order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.state.requests.lock().unwrap().clone()
    }

    /// The `POST /v1/messages` requests so far.
    pub fn posts(&self) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path.starts_with("/v1/messages"))
            .collect()
    }

    /// The model each `POST /v1/messages` asked for, in arrival order (`""` when none).
    pub fn models(&self) -> Vec<String> {
        self.posts()
            .iter()
            .map(|r| r.json()["model"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// When each reply to a call forcing the tool `name` was written to its end.
    pub fn answered_for(&self, name: &str) -> Vec<Instant> {
        self.state
            .answered
            .lock()
            .unwrap()
            .iter()
            .filter(|(tool, _)| tool == name)
            .map(|(_, at)| *at)
            .collect()
    }

    /// The most requests that were being answered at the same time.
    pub fn max_in_flight(&self) -> usize {
        self.state.max_in_flight.load(Ordering::SeqCst)
    }
}

impl Drop for FakeMessages {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn serve(mut stream: TcpStream, state: Arc<State>) -> std::io::Result<()> {
    let mut buf = Vec::new();
    loop {
        let Some(request) = read_request(&mut stream, &mut buf).await? else {
            return Ok(());
        };
        state.requests.lock().unwrap().push(request.clone());
        let is_messages = request.method == "POST" && request.path.starts_with("/v1/messages");
        if !is_messages {
            let (status, body) = match request.method.as_str() {
                "HEAD" => (200, String::new()),
                _ => (404, error_json("not_found_error", "no such endpoint")),
            };
            write_plain(
                &mut stream,
                status,
                &[],
                "application/json",
                &body,
                &request.method,
            )
            .await?;
            continue;
        }
        let n = state.posts.fetch_add(1, Ordering::SeqCst);
        let now = state.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        state.max_in_flight.fetch_max(now, Ordering::SeqCst);
        let reply = (state.script)(&request, n);
        tokio::time::sleep(reply.delay).await;
        let result = answer(&mut stream, &request, &reply, n).await;
        state
            .answered
            .lock()
            .unwrap()
            .push((request.tool_name(), Instant::now()));
        state.in_flight.fetch_sub(1, Ordering::SeqCst);
        result?;
    }
}

async fn answer(
    stream: &mut TcpStream,
    request: &Recorded,
    reply: &Reply,
    n: usize,
) -> std::io::Result<()> {
    match &reply.body {
        Body::Error { kind, message } => {
            let body = error_json(kind, message);
            write_plain(
                stream,
                reply.status,
                &reply.headers,
                "application/json",
                &body,
                "POST",
            )
            .await
        }
        Body::Message { blocks, stop } => {
            let tool = request.tool_name();
            let blocks: Vec<Value> = blocks
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let mut b = b.clone();
                    if b["type"] == "tool_use" {
                        b["id"] = json!(format!("toolu_{n}_{i}"));
                        if b.get("name").is_none() {
                            b["name"] = json!(tool);
                        }
                    }
                    b
                })
                .collect();
            let model = request.json()["model"]
                .as_str()
                .unwrap_or("fake")
                .to_string();
            if request.json()["stream"] == true {
                let events = sse_events(&blocks, stop, &model, n);
                write_sse(stream, reply, &events).await
            } else {
                let message = json!({
                    "id": format!("msg_{n}"), "type": "message", "role": "assistant",
                    "model": model, "content": blocks, "stop_reason": stop,
                    "stop_sequence": null, "usage": {"input_tokens": 20, "output_tokens": 10}
                });
                write_plain(
                    stream,
                    reply.status,
                    &reply.headers,
                    "application/json",
                    &message.to_string(),
                    "POST",
                )
                .await
            }
        }
    }
}

fn error_json(kind: &str, message: &str) -> String {
    json!({"type": "error", "error": {"type": kind, "message": message}}).to_string()
}

/// Pieces of at most 16 characters, as the API sends a reply (a few tokens an event).
fn pieces(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(16).map(|c| c.iter().collect()).collect()
}

/// The event stream of one message, as the Messages API sends it: a `ping` after
/// `message_start` and every 25 deltas, output tokens counted as 4 characters each.
fn sse_events(blocks: &[Value], stop: &str, model: &str, n: usize) -> Vec<Value> {
    let mut events = vec![
        json!({"type": "message_start", "message": {
        "id": format!("msg_{n}"), "type": "message", "role": "assistant", "model": model,
        "content": [], "stop_reason": null, "stop_sequence": null,
        "usage": {"input_tokens": 20, "output_tokens": 1}}}),
        json!({"type": "ping"}),
    ];
    let mut chars = 0;
    let mut deltas = 0;
    for (i, block) in blocks.iter().enumerate() {
        let (start, text, delta) = if block["type"] == "tool_use" {
            let start =
                json!({"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}});
            (start, block["input"].to_string(), "input_json_delta")
        } else {
            let text = block["text"].as_str().unwrap_or_default().to_string();
            (json!({"type": "text", "text": ""}), text, "text_delta")
        };
        events.push(json!({"type": "content_block_start", "index": i, "content_block": start}));
        for part in pieces(&text) {
            chars += part.chars().count();
            let field = if delta == "text_delta" {
                "text"
            } else {
                "partial_json"
            };
            events.push(json!({"type": "content_block_delta", "index": i,
                "delta": {"type": delta, field: part}}));
            deltas += 1;
            if deltas % 25 == 0 {
                events.push(json!({"type": "ping"}));
            }
        }
        events.push(json!({"type": "content_block_stop", "index": i}));
    }
    events.push(json!({"type": "message_delta",
        "delta": {"stop_reason": stop, "stop_sequence": null},
        "usage": {"output_tokens": chars.div_ceil(4)}}));
    events.push(json!({"type": "message_stop"}));
    events
}

fn head(status: u16, headers: &[(String, String)], content_type: &str, framing: &str) -> String {
    let reason = match status {
        200 => "OK",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        529 => "Overloaded",
        _ => "Status",
    };
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: {content_type}\r\n{framing}\r\nrequest-id: req_fake\r\n"
    );
    for (k, v) in headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    out
}

async fn write_plain(
    stream: &mut TcpStream,
    status: u16,
    headers: &[(String, String)],
    content_type: &str,
    body: &str,
    method: &str,
) -> std::io::Result<()> {
    let mut out = head(
        status,
        headers,
        content_type,
        &format!("content-length: {}", body.len()),
    );
    if method != "HEAD" {
        out.push_str(body);
    }
    stream.write_all(out.as_bytes()).await?;
    stream.flush().await
}

/// Server-sent events, one chunk of the chunked body per event, paced at the reply's
/// rate, ended as the reply says.
async fn write_sse(stream: &mut TcpStream, reply: &Reply, events: &[Value]) -> std::io::Result<()> {
    let mut headers = reply.headers.clone();
    headers.push(("cache-control".into(), "no-cache".into()));
    let top = head(
        reply.status,
        &headers,
        "text/event-stream",
        "transfer-encoding: chunked",
    );
    stream.write_all(top.as_bytes()).await?;
    let started = tokio::time::Instant::now();
    let mut sent = 0usize;
    for event in events {
        let delta = &event["delta"];
        let part = delta["partial_json"].as_str().or(delta["text"].as_str());
        if let Some(part) = part {
            match &reply.end {
                StreamEnd::Error {
                    after,
                    kind,
                    message,
                } if sent >= *after => {
                    let error =
                        json!({"type": "error", "error": {"type": kind, "message": message}});
                    write_event(stream, &error).await?;
                    break;
                }
                StreamEnd::Cut { after } if sent >= *after => break,
                _ => {}
            }
            sent += part.chars().count();
            if let Some(rate) = reply.rate {
                let tokens = f64::from(u32::try_from(sent).unwrap_or(u32::MAX)) / 4.0;
                let due = Duration::from_secs_f64(tokens / rate);
                tokio::time::sleep_until(started + due).await;
            }
        }
        write_event(stream, event).await?;
    }
    stream.write_all(b"0\r\n\r\n").await?;
    stream.flush().await
}

async fn write_event(stream: &mut TcpStream, event: &Value) -> std::io::Result<()> {
    let kind = event["type"].as_str().unwrap_or("message");
    let data = format!("event: {kind}\ndata: {event}\n\n");
    stream
        .write_all(format!("{:x}\r\n{data}\r\n", data.len()).as_bytes())
        .await?;
    stream.flush().await
}

/// Reads one request; `None` when the client closed the connection.
async fn read_request(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<Recorded>> {
    let header_end = loop {
        if let Some(pos) = find(buf, b"\r\n\r\n") {
            break pos;
        }
        if !fill(stream, buf).await? {
            return Ok(None);
        }
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).into_owned();
    buf.drain(..header_end + 4);
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or_default().split(' ');
    let method = first.next().unwrap_or_default().to_string();
    let path = first.next().unwrap_or_default().to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let get = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let body = if get("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        read_chunked(stream, buf).await?
    } else {
        let len: usize = get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        while buf.len() < len {
            if !fill(stream, buf).await? {
                break;
            }
        }
        buf.drain(..len.min(buf.len())).collect()
    };
    Ok(Some(Recorded {
        method,
        path,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
        at: Instant::now(),
    }))
}

async fn read_chunked(stream: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line_end = loop {
            if let Some(pos) = find(buf, b"\r\n") {
                break pos;
            }
            if !fill(stream, buf).await? {
                return Ok(body);
            }
        };
        let size_text = String::from_utf8_lossy(&buf[..line_end]).into_owned();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("0").trim(), 16)
            .unwrap_or(0);
        buf.drain(..line_end + 2);
        while buf.len() < size + 2 {
            if !fill(stream, buf).await? {
                return Ok(body);
            }
        }
        body.extend(buf.drain(..size));
        buf.drain(..2);
        if size == 0 {
            return Ok(body);
        }
    }
}

async fn fill(stream: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    buf.reserve(16 * 1024);
    Ok(stream.read_buf(buf).await? > 0)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
