use std::time::Duration;

use thiserror::Error;

/// Why a call to the model gave no valid answer. Messages never hold a key or a token;
/// `what` is the noun of the answer asked for (`grade`, `quiz`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LlmError {
    #[error("the API refused the credentials from {variable} (HTTP {status}): check that variable")]
    Auth { variable: String, status: u16 },
    #[error("rate limited (HTTP 429) after {}{}", attempts_text(*.attempts), wait_note(*.retry_after_secs))]
    RateLimited {
        attempts: u32,
        retry_after_secs: Option<u64>,
    },
    #[error("the API is overloaded (HTTP 529) after {}; try again later", attempts_text(*.attempts))]
    Overloaded { attempts: u32 },
    #[error("the API failed with HTTP {status} after {}: {message}", attempts_text(*.attempts))]
    Server {
        status: u16,
        attempts: u32,
        message: String,
    },
    #[error("the API rejected the request (HTTP {status}): {message}")]
    Request { status: u16, message: String },
    #[error("no reply within {}; gave up", secs(*.after))]
    Timeout { after: Duration },
    #[error("cannot reach {url}: {message}")]
    Network { url: String, message: String },
    /// A streamed reply stopped before its end (`message_stop`).
    #[error(
        "the reply from {url} stopped after {chars} characters, before its end ({message}); try again"
    )]
    StreamCut {
        url: String,
        chars: usize,
        message: String,
    },
    /// Every round's answer failed quizz's checks: the last round's failed checks, and its
    /// raw output (the tool input or `structured_output`, as JSON) for the user to inspect.
    #[error("the model's {what} was invalid {} in a row: {}", times_text(*.attempts), .checks.join("; "))]
    InvalidOutput {
        what: &'static str,
        attempts: u32,
        checks: Vec<String>,
        raw: String,
    },
    #[error("the model never called the {tool} tool ({}){}", attempts_text(*.attempts), reply_note(.reply))]
    NoToolCall {
        tool: String,
        attempts: u32,
        reply: String,
    },
    #[error("cannot run the claude CLI at {path}: {message}")]
    CliMissing { path: String, message: String },
    #[error("the claude CLI did not finish within {} and was stopped", secs(*.after))]
    CliTimeout { after: Duration },
    #[error("the claude CLI failed: {message}")]
    Cli { message: String },
    #[error("the claude CLI finished without a structured {what} (it never called its output tool){}", reply_note(.reply))]
    CliNoStructuredOutput { what: &'static str, reply: String },
    #[error("cannot start the runtime that calls the model: {0}")]
    Runtime(String),
}

/// `1.5 s`, `120 s`.
pub fn secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if (s - s.round()).abs() < 0.05 {
        format!("{s:.0} s")
    } else {
        format!("{s:.1} s")
    }
}

/// "1 attempt", "3 attempts".
fn attempts_text(n: u32) -> String {
    crate::text::plural(n as usize, "attempt", "attempts")
}

/// "1 time", "3 times".
fn times_text(n: u32) -> String {
    crate::text::plural(n as usize, "time", "times")
}

fn wait_note(secs: Option<u64>) -> String {
    secs.map_or_else(String::new, |s| format!("; the API asks to wait {s} s"))
}

fn reply_note(reply: &str) -> String {
    if reply.trim().is_empty() {
        String::new()
    } else {
        format!("; it replied: {reply:?}")
    }
}

impl LlmError {
    /// A one-line message that is safe to print: control sequences removed, length capped.
    pub fn to_line(&self) -> String {
        clip(&crate::text::sanitize_line(&self.to_string()), 400)
    }
}

/// At most `max` characters, with `…` when cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max).collect();
    cut.push('…');
    cut
}
