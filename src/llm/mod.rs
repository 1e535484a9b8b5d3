//! Asking a model for structured output: one call, two backends, shared by grading and by
//! quiz generation.
//!
//! The backend is chosen from the environment ([`select_backend`]): the Anthropic Messages
//! API over HTTPS ([`MessagesClient`]), or the `claude` CLI as a subprocess ([`ClaudeCli`]).
//! Either way the caller gives an [`Ask`] (system prompt, user message, a tool name and its
//! JSON Schema) and a validator that turns the model's JSON into its answer or lists every
//! check it fails; [`Llm::ask`] returns the answer, or an [`LlmError`] that says why not.
//! Failed checks go back to the model within a repair budget: an `is_error` tool result on
//! the Messages API, a new run listing them on the CLI.

mod blocking;
mod claude_cli;
mod error;
mod http;
pub mod json_items;
mod select;

use serde_json::Value;

pub use blocking::run_blocking;
pub use claude_cli::{
    ClaudeCli, ClaudeCliConfig, CliTools, READ_ONLY_TOOLS, ToolUse, claude_version,
    structured_output,
};
pub use error::{LlmError, clip, secs};
pub use http::{Auth, HttpConfig, MessagesClient};
pub use select::{
    BackendKind, DEFAULT_BASE_URL, DEFAULT_CLI_MODEL, DEFAULT_HTTP_MODEL, EnvSnapshot,
    GRADER_SETUP, HTTP_MODEL_VARS, Limits, Selection, http_model, seconds_from, select_backend,
};

/// One request for structured output.
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    pub system: &'a str,
    pub user: &'a str,
    /// The forced tool of the Messages API (the CLI names its own `StructuredOutput`).
    pub tool: &'a str,
    /// The tool's description.
    pub description: &'a str,
    /// The JSON Schema of the tool's input (of `structured_output` on the CLI).
    pub schema: &'a Value,
    /// The answer's noun in messages: `grade`, `quiz`.
    pub what: &'static str,
    /// The answer's shape in a few words, for the reminders that ask for it again
    /// (`exactly two fields: "score", …`).
    pub shape: &'a str,
}

/// Turns the model's JSON into the caller's answer, or lists every check it fails (each a
/// sentence the model can act on).
pub type Validator<'a, T> = dyn Fn(&Value) -> Result<T, Vec<String>> + Sync + 'a;

/// Hears a call's [`Progress`].
pub type Reporter<'a> = dyn Fn(Progress) + Sync + 'a;

/// What a call reports while it runs. Round 0 is the first ask; each later round repairs
/// the answer before it.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// Round `round` is sent (on the CLI: a run starts).
    Asking { round: u32 },
    /// The model answered round `round`; what the backend reported of it.
    Answered { round: u32, usage: Usage },
    /// The answer of round `round` failed these checks: the next round asks for a repair.
    Repairing { round: u32, checks: Vec<String> },
    /// Round `round`'s reply is arriving (a streamed Messages API reply): `chars` of it so
    /// far, about `output_tokens` (the API's count once it gives one, else 4 characters a
    /// token). Told at most every 250 ms while bytes arrive.
    Streaming {
        round: u32,
        output_tokens: u64,
        chars: usize,
    },
    /// Round `round`'s CLI run is working (`--output-format stream-json`): `activity` is
    /// the tool call it just made when this report is about one (else `None`: tokens only),
    /// after `turns` API turns and about `output_tokens` output tokens in all.
    Working {
        round: u32,
        activity: Option<ToolUse>,
        turns: u64,
        output_tokens: u64,
    },
    /// An element of the answer's top-level array `array` (a quiz's `questions`) is whole
    /// while the rest is still being written: element `index` of round `round`, unchecked.
    Item {
        round: u32,
        array: String,
        index: usize,
        value: Value,
    },
}

/// What a backend reports of one round, where it does: tokens (both backends), turns and
/// cost (the CLI).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Usage {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub turns: Option<u64>,
    pub cost_usd: Option<f64>,
}

impl Usage {
    /// `12,345 tokens in, 3,210 out · 7 turns · $0.12`: what is known, or `None`.
    pub fn describe(&self) -> Option<String> {
        let mut parts = Vec::new();
        match (self.input_tokens, self.output_tokens) {
            (Some(i), Some(o)) => parts.push(format!(
                "{} tokens in, {} out",
                crate::text::thousands(i),
                crate::text::thousands(o)
            )),
            (None, Some(o)) => parts.push(format!("{} tokens out", crate::text::thousands(o))),
            (Some(i), None) => parts.push(format!("{} tokens in", crate::text::thousands(i))),
            (None, None) => {}
        }
        if let Some(t) = self.turns {
            parts.push(crate::text::plural(
                usize::try_from(t).unwrap_or(usize::MAX),
                "turn",
                "turns",
            ));
        }
        if let Some(c) = self.cost_usd {
            parts.push(format!("${c:.2}"));
        }
        (!parts.is_empty()).then(|| parts.join(" · "))
    }

    /// The token counts of a `usage` object (a message's, or a CLI result's).
    fn tokens(usage: Option<&Value>) -> Self {
        let count = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64);
        Self {
            input_tokens: count("input_tokens"),
            output_tokens: count("output_tokens"),
            ..Self::default()
        }
    }
}

/// A chosen backend, ready to ask.
#[derive(Debug, Clone)]
pub enum Llm {
    Messages(MessagesClient),
    Cli(ClaudeCli),
}

impl Llm {
    /// Asks for `ask` and returns what `validate` makes of the model's output: its answer,
    /// or every check the output fails (sent back to the model within the backend's repair
    /// budget).
    pub async fn ask<T, V>(&self, ask: &Ask<'_>, validate: &V) -> Result<T, LlmError>
    where
        V: Fn(&Value) -> Result<T, Vec<String>> + Sync,
    {
        self.ask_reporting(ask, validate, &|_| {}).await
    }

    /// [`Llm::ask`], telling `progress` of each round as it goes (for a screen that shows
    /// what is happening: asking, what the backend reported, which checks failed).
    pub async fn ask_reporting<T>(
        &self,
        ask: &Ask<'_>,
        validate: &Validator<'_, T>,
        progress: &Reporter<'_>,
    ) -> Result<T, LlmError> {
        match self {
            Self::Messages(client) => client.ask(ask, validate, progress).await,
            Self::Cli(cli) => cli.ask(ask, validate, progress).await,
        }
    }

    /// A short name for messages, such as `Anthropic Messages API`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Messages(_) => "Anthropic Messages API",
            Self::Cli(_) => "claude CLI",
        }
    }
}

/// The checks an answer failed, never none (a validator that rejects without a reason
/// still gets its answer asked again).
fn some_checks(checks: Vec<String>) -> Vec<String> {
    if checks.is_empty() {
        vec!["the answer was rejected".into()]
    } else {
        checks
    }
}

/// The failure of a call whose every round was rejected: the last checks and raw output.
fn invalid_output(ask: &Ask<'_>, attempts: u32, checks: Vec<String>, raw: String) -> LlmError {
    LlmError::InvalidOutput {
        what: ask.what,
        attempts,
        checks: some_checks(checks),
        raw,
    }
}

/// What the model is told when its answer failed quizz's checks: each check, then the call
/// to make again. One check reads as one sentence; several as a list.
fn repair_text(ask: &Ask<'_>, tool: &str, checks: &[String]) -> String {
    let (what, shape) = (ask.what, ask.shape);
    match checks {
        [one] => format!("Invalid {what}: {one}. Call {tool} again with {shape}."),
        many => {
            let list = many.iter().map(|c| format!("- {c}")).collect::<Vec<_>>();
            format!(
                "Invalid {what}: {} checks failed:\n{}\nFix every one and call {tool} again with {shape}.",
                many.len(),
                list.join("\n")
            )
        }
    }
}
