//! The Anthropic Messages API over HTTPS (reqwest with rustls).
//!
//! `anthropic-version: 2023-06-01`, the caller's tool forced through `tool_choice`, no
//! extended thinking (forcing and thinking do not mix). The API does not check tool input
//! against the schema: the input goes through the caller's validator, and an invalid one is
//! answered with an `is_error` tool result listing every failed check so the model corrects
//! itself, at most `invalid_output_retries` times.
//! 429, 529 and 5xx are retried, honouring `retry-after`, with capped, jittered backoff.
//! With `stream` (generation) the reply comes as server-sent events (`stream`): an `error`
//! event mid-stream counts as its HTTP status, a stream cut before `message_stop` fails.

mod stream;

use std::fmt;
use std::time::{Duration, Instant};

use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{Value, json};

use super::error::clip;
use super::{
    Ask, LlmError, Progress, Reporter, Usage, Validator, invalid_output, repair_text, some_checks,
};

const API_VERSION: &str = "2023-06-01";

/// How the request is authenticated. `Debug` never shows the secret.
#[derive(Clone, PartialEq, Eq)]
pub enum Auth {
    /// `x-api-key`, from `ANTHROPIC_API_KEY`.
    ApiKey(String),
    /// `Authorization: Bearer`, from `ANTHROPIC_AUTH_TOKEN`.
    Bearer(String),
}

impl Auth {
    /// The environment variable the secret came from.
    pub fn variable(&self) -> &'static str {
        match self {
            Self::ApiKey(_) => "ANTHROPIC_API_KEY",
            Self::Bearer(_) => "ANTHROPIC_AUTH_TOKEN",
        }
    }
}

impl fmt::Debug for Auth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Auth({}: hidden)", self.variable())
    }
}

/// Timeouts, retries and limits of the HTTP backend. The default is grading's: a short
/// answer (1,024 tokens) within 120 s; a quiz needs far more of both.
#[derive(Debug, Clone)]
pub struct HttpConfig {
    /// The whole request, reply included.
    pub request_timeout: Duration,
    pub connect_timeout: Duration,
    /// Attempts for one call when the API answers 429, 529 or 5xx (or cannot be reached).
    pub max_attempts: u32,
    /// First backoff delay when no `retry-after` is given; doubles each time.
    pub backoff_base: Duration,
    pub backoff_cap: Duration,
    /// A `retry-after` longer than this is not waited for: the call fails and says so.
    pub max_retry_after: Duration,
    /// In-band corrections of an invalid answer (or a reply without the tool call).
    pub invalid_output_retries: u32,
    pub max_tokens: u32,
    /// Ask for the reply as server-sent events (`stream: true`) and report it as it comes:
    /// [`Progress::Streaming`], and [`Progress::Item`] for each element of the tool
    /// input's top-level arrays as soon as it is complete.
    pub stream: bool,
    /// The variable that named the model (`None`: quizz's default), so an API that does
    /// not know the model gets an error naming what to set.
    pub model_from: Option<String>,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            request_timeout: Duration::from_secs(120),
            connect_timeout: Duration::from_secs(10),
            max_attempts: 4,
            backoff_base: Duration::from_millis(500),
            backoff_cap: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
            invalid_output_retries: 2,
            max_tokens: 1024,
            stream: false,
            model_from: None,
        }
    }
}

/// Asks the model through `POST {base}/v1/messages`. `Debug` never shows the secret.
#[derive(Debug, Clone)]
pub struct MessagesClient {
    client: reqwest::Client,
    url: String,
    model: String,
    auth: Auth,
    config: HttpConfig,
}

impl MessagesClient {
    pub fn new(
        base_url: &str,
        model: &str,
        auth: Auth,
        config: HttpConfig,
    ) -> Result<Self, LlmError> {
        let url = format!("{}/v1/messages", base_url.trim_end_matches('/'));
        let client = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .timeout(config.request_timeout)
            .user_agent(concat!("quizz/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| LlmError::Network {
                url: url.clone(),
                message: e.to_string(),
            })?;
        Ok(Self {
            client,
            url,
            model: model.to_string(),
            auth,
            config,
        })
    }

    fn headers(&self) -> Result<HeaderMap, LlmError> {
        let mut headers = HeaderMap::new();
        headers.insert("anthropic-version", HeaderValue::from_static(API_VERSION));
        let (name, value) = match &self.auth {
            Auth::ApiKey(key) => ("x-api-key", key.clone()),
            Auth::Bearer(token) => ("authorization", format!("Bearer {token}")),
        };
        let mut value = HeaderValue::from_str(&value).map_err(|_| LlmError::Request {
            status: 0,
            message: format!(
                "{} holds characters that cannot go in an HTTP header",
                self.auth.variable()
            ),
        })?;
        value.set_sensitive(true);
        headers.insert(name, value);
        Ok(headers)
    }

    /// Asks for `ask`'s tool call and returns what `validate` makes of its input. An invalid
    /// input is answered with an `is_error` tool result listing every failed check (a reply
    /// without the call, with a reminder), at most `invalid_output_retries` times; past that
    /// the error carries the last failed checks and the raw input.
    /// `progress` hears of each round as it goes.
    pub async fn ask<T>(
        &self,
        ask: &Ask<'_>,
        validate: &Validator<'_, T>,
        progress: &Reporter<'_>,
    ) -> Result<T, LlmError> {
        let mut messages = vec![json!({"role": "user", "content": ask.user})];
        let budget = self.config.invalid_output_retries;
        for round in 0..=budget {
            progress(Progress::Asking { round });
            let reply = self.send(ask, &messages, round, progress).await?;
            progress(Progress::Answered {
                round,
                usage: Usage::tokens(reply.get("usage")),
            });
            let content = reply
                .get("content")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let tool_uses: Vec<&Value> = content
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
                .collect();
            let ours = tool_uses
                .iter()
                .find(|b| b.get("name").and_then(Value::as_str) == Some(ask.tool));
            let (checks, raw) = match ours {
                Some(block) => {
                    let input = block.get("input").unwrap_or(&Value::Null);
                    match validate(input) {
                        Ok(answer) => return Ok(answer),
                        Err(checks) => (self.named(&reply, checks), input.to_string()),
                    }
                }
                None if round == budget => {
                    return Err(LlmError::NoToolCall {
                        tool: ask.tool.to_string(),
                        attempts: round + 1,
                        reply: clip(&crate::text::sanitize_line(&text_of(&content)), 200),
                    });
                }
                None => (Vec::new(), String::new()),
            };
            if round == budget {
                return Err(invalid_output(ask, round + 1, checks, raw));
            }
            progress(Progress::Repairing {
                round,
                checks: if ours.is_some() {
                    checks.clone()
                } else {
                    vec![format!("the reply did not call the {} tool", ask.tool)]
                },
            });
            if !content.is_empty() {
                messages.push(json!({"role": "assistant", "content": content}));
            }
            messages.push(correction(ask, &tool_uses, &checks));
        }
        // The loop returns on its last round.
        Err(invalid_output(ask, budget + 1, Vec::new(), String::new()))
    }

    /// The failed checks, never none, and first the output limit when the reply hit it
    /// (a cut tool input fails checks the model cannot fix by correcting it).
    fn named(&self, reply: &Value, checks: Vec<String>) -> Vec<String> {
        let mut named = Vec::new();
        if reply.get("stop_reason").and_then(Value::as_str) == Some("max_tokens") {
            named.push(format!(
                "the reply reached the output limit ({} tokens) and was cut: submit a shorter answer",
                self.config.max_tokens
            ));
        }
        named.extend(checks);
        some_checks(named)
    }

    /// One call, retried on 429/529/5xx and unreachable hosts.
    async fn send(
        &self,
        ask: &Ask<'_>,
        messages: &[Value],
        round: u32,
        progress: &Reporter<'_>,
    ) -> Result<Value, LlmError> {
        let mut body = json!({
            "model": self.model,
            "max_tokens": self.config.max_tokens,
            "temperature": 0,
            "system": ask.system,
            "messages": messages,
            "tools": [{
                "name": ask.tool,
                "description": ask.description,
                "input_schema": ask.schema,
            }],
            "tool_choice": {"type": "tool", "name": ask.tool},
        });
        if self.config.stream {
            body["stream"] = json!(true);
        }
        let headers = self.headers()?;
        let max_attempts = self.config.max_attempts.max(1);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let sent = self
                .client
                .post(&self.url)
                .headers(headers.clone())
                .json(&body)
                .send()
                .await;
            let response = match sent {
                Ok(r) => r,
                Err(e) if e.is_timeout() => return Err(self.timeout()),
                Err(e) if e.is_connect() && attempt < max_attempts => {
                    tokio::time::sleep(self.backoff(attempt)).await;
                    continue;
                }
                Err(e) => return Err(self.network(&e)),
            };
            let status = response.status().as_u16();
            let (status, retry_after, message) = if !response.status().is_success() {
                let retry_after = retry_after(response.headers());
                let text = response.text().await.unwrap_or_default();
                (status, retry_after, api_message(&text))
            } else if self.config.stream {
                // An `error` event mid-stream is the same error as its HTTP status.
                match self.read_stream(response, ask, round, progress).await? {
                    Ok(message) => return Ok(message),
                    Err((status, message)) => (status, None, message),
                }
            } else {
                return match response.json::<Value>().await {
                    Ok(v) => Ok(v),
                    Err(e) if e.is_timeout() => Err(self.timeout()),
                    Err(e) => Err(LlmError::Request {
                        status,
                        message: format!("the reply is not the JSON of a message: {e}"),
                    }),
                };
            };
            let transient = status == 429 || status == 529 || (500..=599).contains(&status);
            if matches!(status, 401 | 403) {
                return Err(LlmError::Auth {
                    variable: self.auth.variable().to_string(),
                    status,
                });
            }
            if !transient {
                let hint = if model_not_found(status, &message) {
                    self.model_hint()
                } else {
                    String::new()
                };
                return Err(LlmError::Request {
                    status,
                    message: format!("{message}{hint}"),
                });
            }
            let too_long = retry_after.filter(|d| *d > self.config.max_retry_after);
            if attempt >= max_attempts || too_long.is_some() {
                let retry_after_secs = retry_after.map(|d| d.as_secs());
                return Err(match status {
                    429 => LlmError::RateLimited {
                        attempts: attempt,
                        retry_after_secs,
                    },
                    529 => LlmError::Overloaded { attempts: attempt },
                    _ => LlmError::Server {
                        status,
                        attempts: attempt,
                        message,
                    },
                });
            }
            let wait = retry_after.map_or_else(|| self.backoff(attempt), with_jitter);
            tokio::time::sleep(wait).await;
        }
    }

    /// Reads a streamed reply: the message it makes, or the status and summary of the
    /// `error` event that ended it. `progress` hears how far it is at most every 250 ms
    /// (so at least once a second while bytes arrive, the API's pings included), and of
    /// each element of the tool input's top-level arrays as soon as it is complete.
    async fn read_stream(
        &self,
        mut response: reqwest::Response,
        ask: &Ask<'_>,
        round: u32,
        progress: &Reporter<'_>,
    ) -> Result<Result<Value, (u16, String)>, LlmError> {
        const EVERY: Duration = Duration::from_millis(250);
        let mut reader = stream::EventReader::default();
        let mut message = stream::StreamedMessage::new(ask.tool);
        let mut told: Option<Instant> = None;
        loop {
            let chunk = match response.chunk().await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => break,
                Err(e) if e.is_timeout() => return Err(self.timeout()),
                Err(e) => return Err(self.cut(message.chars, Some(&e))),
            };
            for event in reader.push(&chunk) {
                match message.apply(&event) {
                    Ok(items) => {
                        for item in items {
                            progress(Progress::Item {
                                round,
                                array: item.array,
                                index: item.index,
                                value: item.value,
                            });
                        }
                    }
                    Err(stream::StreamError::Api { status, message }) => {
                        return Ok(Err((status, message)));
                    }
                    Err(stream::StreamError::Garbled(message)) => {
                        return Err(LlmError::Request {
                            status: 200,
                            message,
                        });
                    }
                }
            }
            if message.complete {
                return Ok(Ok(message.into_message()));
            }
            if told.is_none_or(|t| t.elapsed() >= EVERY) {
                told = Some(Instant::now());
                progress(Progress::Streaming {
                    round,
                    output_tokens: message.output_tokens(),
                    chars: message.chars,
                });
            }
        }
        Err(self.cut(message.chars, None))
    }

    /// A stream that ended before `message_stop`.
    fn cut(&self, chars: usize, error: Option<&reqwest::Error>) -> LlmError {
        LlmError::StreamCut {
            url: self.url.clone(),
            chars,
            message: error.map_or_else(
                || "the connection closed".to_string(),
                |e| match self.network(e) {
                    LlmError::Network { message, .. } => message,
                    other => other.to_string(),
                },
            ),
        }
    }

    /// What to set when the API does not know the model: the variable that named it, or
    /// the ones that can.
    fn model_hint(&self) -> String {
        match self.config.model_from.as_deref() {
            Some("QUIZZ_MODEL") => format!(
                "; the model {:?} (from QUIZZ_MODEL) is not known there: set QUIZZ_MODEL to a model id this API or gateway knows",
                self.model
            ),
            Some(var) => format!(
                "; the model {:?} (from {var}) is not known there: set QUIZZ_MODEL (or {var}) to a model id this API or gateway knows",
                self.model
            ),
            None => format!(
                "; the model {:?} (quizz's default) is not known there: set QUIZZ_MODEL (or ANTHROPIC_DEFAULT_SONNET_MODEL, as for the claude CLI) to a model id this API or gateway knows",
                self.model
            ),
        }
    }

    /// Exponential backoff from `backoff_base`, capped, with jitter (between 50 % and 100 %).
    fn backoff(&self, attempt: u32) -> Duration {
        let exp = self
            .config
            .backoff_base
            .saturating_mul(1u32 << attempt.saturating_sub(1).min(16));
        let capped = exp.min(self.config.backoff_cap);
        capped.mul_f64(0.5 + fastrand::f64() * 0.5)
    }

    fn timeout(&self) -> LlmError {
        LlmError::Timeout {
            after: self.config.request_timeout,
        }
    }

    fn network(&self, e: &reqwest::Error) -> LlmError {
        let mut message = e.to_string();
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            message = format!("{message}: {s}");
            source = s.source();
        }
        LlmError::Network {
            url: self.url.clone(),
            message: clip(&crate::text::sanitize_line(&message), 300),
        }
    }
}

/// The user turn that asks the model to correct itself: an `is_error` tool result for each
/// tool call (ours lists every failed check), or a plain reminder when it called none.
fn correction(ask: &Ask<'_>, tool_uses: &[&Value], checks: &[String]) -> Value {
    let tool = ask.tool;
    if tool_uses.is_empty() {
        return json!({"role": "user", "content": format!(
            "You did not call the {tool} tool. Call it now, once, with {}.", ask.shape
        )});
    }
    let results: Vec<Value> = tool_uses
        .iter()
        .map(|b| {
            let id = b.get("id").cloned().unwrap_or(Value::Null);
            let text = if b.get("name").and_then(Value::as_str) == Some(tool) {
                repair_text(ask, tool, checks)
            } else {
                format!("Unknown tool: only {tool} exists.")
            };
            json!({"type": "tool_result", "tool_use_id": id, "is_error": true, "content": text})
        })
        .collect();
    json!({"role": "user", "content": results})
}

fn text_of(content: &[Value]) -> String {
    content
        .iter()
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `retry-after-ms`, or `retry-after` in seconds (an HTTP date is ignored: backoff applies).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let get = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    if let Some(ms) = get("retry-after-ms").and_then(|v| v.parse::<f64>().ok())
        && ms.is_finite()
        && ms >= 0.0
    {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    get("retry-after")
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
}

/// At least what was asked, plus up to 10 % so parallel calls do not retry in lockstep.
fn with_jitter(wait: Duration) -> Duration {
    wait + wait.mul_f64(fastrand::f64() * 0.1)
}

/// `type: message` from the API's error JSON, else the start of the body; safe to print.
fn api_message(body: &str) -> String {
    let parsed = serde_json::from_str::<Value>(body).ok();
    let error = parsed.as_ref().and_then(|v| v.get("error"));
    let text = match error {
        Some(e) => {
            let kind = e.get("type").and_then(Value::as_str).unwrap_or("error");
            let msg = e.get("message").and_then(Value::as_str).unwrap_or_default();
            format!("{kind}: {msg}")
        }
        None if body.trim().is_empty() => "no details".to_string(),
        None => body.to_string(),
    };
    clip(&crate::text::sanitize_line(text.trim()), 300)
}

/// A 404, or an error whose message says the model is unknown (gateways answer 400 with
/// "model not found", "is not a valid model ID", "model ... does not exist").
fn model_not_found(status: u16, message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    status == 404
        || (m.contains("model")
            && [
                "not found",
                "not_found",
                "not a valid",
                "does not exist",
                "unknown",
                "invalid model",
                "not supported",
                "no endpoints",
            ]
            .iter()
            .any(|p| m.contains(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_milliseconds() {
        let mut h = HeaderMap::new();
        h.insert("retry-after", HeaderValue::from_static("2"));
        assert_eq!(retry_after(&h), Some(Duration::from_secs(2)));
        h.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(retry_after(&h), Some(Duration::from_millis(250)));
        let mut h = HeaderMap::new();
        h.insert(
            "retry-after",
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(retry_after(&h), None);
    }

    #[test]
    fn backoff_is_capped_and_jittered() {
        let g = MessagesClient::new(
            "http://127.0.0.1:9",
            "m",
            Auth::ApiKey("k".into()),
            HttpConfig::default(),
        )
        .unwrap();
        for attempt in 1..40 {
            let d = g.backoff(attempt);
            assert!(d <= Duration::from_secs(8), "{attempt}: {d:?}");
        }
        let first = g.backoff(1);
        assert!(first >= Duration::from_millis(250) && first <= Duration::from_millis(500));
    }

    #[test]
    fn unknown_models_are_recognised() {
        assert!(model_not_found(404, "not_found_error: model: x"));
        assert!(model_not_found(
            400,
            "invalid_request_error: z-ai/glm-9 is not a valid model ID"
        ));
        assert!(model_not_found(400, "Model not found"));
        assert!(!model_not_found(
            400,
            "invalid_request_error: max_tokens: too large"
        ));
        let g = |from: Option<&str>| {
            MessagesClient::new(
                "http://127.0.0.1:9",
                "z-ai/glm-4.7",
                Auth::Bearer("t".into()),
                HttpConfig {
                    model_from: from.map(str::to_string),
                    ..HttpConfig::default()
                },
            )
            .unwrap()
            .model_hint()
        };
        let hint = g(Some("ANTHROPIC_DEFAULT_SONNET_MODEL"));
        assert!(
            hint.contains("(from ANTHROPIC_DEFAULT_SONNET_MODEL)")
                && hint.contains("set QUIZZ_MODEL (or ANTHROPIC_DEFAULT_SONNET_MODEL)"),
            "{hint}"
        );
        assert!(g(None).contains("quizz's default"));
        assert!(g(Some("QUIZZ_MODEL")).contains("set QUIZZ_MODEL to"));
    }

    #[test]
    fn auth_debug_hides_the_secret() {
        let a = Auth::Bearer("tok-123".into());
        assert!(!format!("{a:?}").contains("tok-123"));
    }

    #[test]
    fn api_errors_are_summarised() {
        assert_eq!(
            api_message(
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
            ),
            "overloaded_error: Overloaded"
        );
        assert_eq!(api_message(""), "no details");
    }
}
