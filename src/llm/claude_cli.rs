//! The `claude` CLI (Claude Code) as a subprocess: for subscription users, and gateways
//! such as `OpenRouter` (the CLI reads `ANTHROPIC_BASE_URL` and `ANTHROPIC_AUTH_TOKEN`).
//!
//! `claude -p --output-format json --json-schema <schema> --tools "" --system-prompt <…>
//! --model <m> --max-turns 3 --no-session-persistence --setting-sources "" --strict-mcp-config`
//! (or read-only tools in the repository, [`CliTools`]), the prompt on stdin, a wall-clock
//! limit that kills the child and its process group. With `stream` (generation) the run
//! uses `--output-format stream-json --verbose --include-partial-messages` and its events
//! are read line by line as they come (`events`). The last JSON object the CLI prints
//! (`type: "result"`) must hold `structured_output` with `is_error: false`; every other
//! shape is a failure with the CLI's own message.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

use super::error::clip;
use super::{
    Ask, LlmError, Progress, Reporter, Usage, Validator, invalid_output, repair_text, some_checks,
};
use crate::text::sanitize_line;

mod events;

pub use events::ToolUse;

/// Which tools the model may use in a run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum CliTools {
    /// None (`--tools ""`), run outside any repository: grading.
    #[default]
    None,
    /// `Read`, `Grep` and `Glob`, pre-approved, everything else denied without asking
    /// (`--permission-mode dontAsk`), run in `repo` so the model can read the change's code.
    ReadOnly { repo: PathBuf },
}

/// The read-only tools of [`CliTools::ReadOnly`].
pub const READ_ONLY_TOOLS: &str = "Read,Grep,Glob";

/// Limits of the CLI backend. The default is grading's: no tools, 3 turns, 120 s.
#[derive(Debug, Clone)]
pub struct ClaudeCliConfig {
    /// Wall-clock limit for one run; the child is killed past it.
    pub timeout: Duration,
    /// `CLAUDE_CODE_MAX_RETRIES` for the child (its default retries a 429 for minutes).
    pub max_retries: u32,
    /// `--max-turns`: room for the CLI's own in-band schema retries (and tool use).
    pub max_turns: u32,
    /// Where the CLI takes its credentials from, to name it when they are refused:
    /// `ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`, or its own login.
    pub credentials: String,
    pub tools: CliTools,
    /// Runs again, with a prompt listing the failed checks, when quizz's validator rejects
    /// the `structured_output` (the CLI already retries what its schema rejects).
    pub repairs: u32,
    /// `--output-format stream-json --verbose --include-partial-messages`: the run's
    /// events are read as they come and reported ([`Progress::Working`], and
    /// [`Progress::Item`] for each element of the answer's top-level arrays).
    pub stream: bool,
}

impl Default for ClaudeCliConfig {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(120),
            max_retries: 2,
            max_turns: 3,
            credentials: "its own login (run `claude`, then /login)".into(),
            tools: CliTools::None,
            repairs: 0,
            stream: false,
        }
    }
}

/// Asks the model by running the `claude` CLI, once per round.
#[derive(Debug, Clone)]
pub struct ClaudeCli {
    bin: PathBuf,
    model: String,
    config: ClaudeCliConfig,
}

impl ClaudeCli {
    pub fn new(bin: &Path, model: &str, config: ClaudeCliConfig) -> Self {
        Self {
            bin: bin.to_path_buf(),
            model: model.to_string(),
            config,
        }
    }

    pub fn config(&self) -> &ClaudeCliConfig {
        &self.config
    }

    /// The command line, environment and working folder of one run (the prompt goes on
    /// stdin). `--setting-sources ""` loads no settings file at all, so neither the user's
    /// nor a repository's `.claude/settings.json` (whose hooks a hostile branch controls)
    /// takes part; `--strict-mcp-config` starts no MCP server.
    pub fn command(&self, system_prompt: &str, schema: &Value) -> Command {
        let schema = schema.to_string();
        let turns = self.config.max_turns.to_string();
        let mut cmd = child_command(&self.bin);
        if self.config.stream {
            cmd.args(["-p", "--output-format", "stream-json", "--verbose"])
                .arg("--include-partial-messages");
        } else {
            cmd.args(["-p", "--output-format", "json"]);
        }
        cmd.arg("--json-schema").arg(&schema);
        match &self.config.tools {
            CliTools::None => {
                cmd.args(["--tools", ""]);
                // Out of the repository: no project CLAUDE.md or settings reach the model.
                cmd.current_dir(std::env::temp_dir());
            }
            CliTools::ReadOnly { repo } => {
                cmd.args(["--tools", READ_ONLY_TOOLS])
                    .args(["--allowedTools", READ_ONLY_TOOLS])
                    .args(["--permission-mode", "dontAsk"]);
                cmd.current_dir(repo);
            }
        }
        cmd.arg("--system-prompt")
            .arg(system_prompt)
            .args(["--model", &self.model, "--max-turns", &turns])
            .args(["--no-session-persistence", "--setting-sources", ""])
            .arg("--strict-mcp-config")
            .env(
                "CLAUDE_CODE_MAX_RETRIES",
                self.config.max_retries.to_string(),
            )
            .stdin(Stdio::piped());
        cmd
    }

    /// Asks for `ask`'s schema through `--json-schema` and returns what `validate` makes of
    /// the `structured_output`. When `validate` rejects it, runs again (at most `repairs`
    /// times) with the user message followed by the rejected answer and every failed check;
    /// past that the error carries the last failed checks and the raw output.
    /// `progress` hears of each run as it goes.
    pub async fn ask<T>(
        &self,
        ask: &Ask<'_>,
        validate: &Validator<'_, T>,
        progress: &Reporter<'_>,
    ) -> Result<T, LlmError> {
        let budget = self.config.repairs;
        let mut user = ask.user.to_string();
        for round in 0..=budget {
            progress(Progress::Asking { round });
            let (output, usage) = self.run_once(ask, &user, round, progress).await?;
            progress(Progress::Answered { round, usage });
            let checks = match validate(&output) {
                Ok(answer) => return Ok(answer),
                Err(checks) => some_checks(checks),
            };
            let raw = output.to_string();
            if round == budget {
                return Err(invalid_output(ask, round + 1, checks, raw));
            }
            user = repair_prompt(ask, &raw, &checks);
            progress(Progress::Repairing { round, checks });
        }
        // The loop returns on its last round.
        Err(invalid_output(ask, budget + 1, Vec::new(), String::new()))
    }

    /// One run with `user` on stdin: the `structured_output`, or why there is none.
    async fn run_once(
        &self,
        ask: &Ask<'_>,
        user: &str,
        round: u32,
        progress: &Reporter<'_>,
    ) -> Result<(Value, Usage), LlmError> {
        let mut child = self.command(ask.system, ask.schema).spawn().map_err(|e| {
            let message = if e.kind() == std::io::ErrorKind::NotFound {
                "not found; install Claude Code (npm install -g @anthropic-ai/claude-code) or set CLAUDE_BIN".to_string()
            } else {
                e.to_string()
            };
            LlmError::CliMissing {
                path: self.bin.display().to_string(),
                message,
            }
        })?;
        // Dropped with this future: after the output, on timeout, or when the call is
        // abandoned (the UI closed), the whole group is killed.
        let _group = crate::children::ChildGroup::register(child.id());
        if let Some(mut stdin) = child.stdin.take() {
            let user = user.to_string();
            // Written alongside the wait so a child that does not read cannot block us.
            tokio::spawn(async move {
                let _ = stdin.write_all(user.as_bytes()).await;
                let _ = stdin.shutdown().await;
            });
        }
        // Dropping the future on timeout drops the child, which kills it (kill_on_drop),
        // and then its group.
        let (code, stdout, stderr) = if self.config.stream {
            let repo = match &self.config.tools {
                CliTools::ReadOnly { repo } => Some(repo.as_path()),
                CliTools::None => None,
            };
            let watcher = events::RunWatcher::new(round, repo);
            tokio::time::timeout(self.config.timeout, watch(&mut child, watcher, progress)).await
        } else {
            tokio::time::timeout(self.config.timeout, async {
                let output = child.wait_with_output().await?;
                Ok((
                    output.status.code(),
                    String::from_utf8_lossy(&output.stdout).into_owned(),
                    String::from_utf8_lossy(&output.stderr).into_owned(),
                ))
            })
            .await
        }
        .map_err(|_| LlmError::CliTimeout {
            after: self.config.timeout,
        })?
        .map_err(|e: std::io::Error| LlmError::Cli {
            message: format!("cannot read its output: {e}"),
        })?;
        interpret(ask.what, &self.config.credentials, code, &stdout, &stderr)
    }
}

/// Reads a streaming run's output line by line as it comes, telling `progress` what
/// `watcher` makes of each line, until the run ends: its exit code, the lines that are not
/// partial-message events (the `result` among them), and its stderr.
async fn watch(
    child: &mut tokio::process::Child,
    mut watcher: events::RunWatcher,
    progress: &Reporter<'_>,
) -> std::io::Result<(Option<i32>, String, String)> {
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let lines = async {
        let mut kept = String::new();
        let Some(stdout) = stdout else {
            return Ok(kept);
        };
        let mut reader = BufReader::new(stdout);
        let mut line = Vec::new();
        loop {
            line.clear();
            if reader.read_until(b'\n', &mut line).await? == 0 {
                return Ok::<_, std::io::Error>(kept);
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end();
            for p in watcher.line(text) {
                progress(p);
            }
            if !events::is_stream_event(text) {
                kept.push_str(text);
                kept.push('\n');
            }
        }
    };
    let errors = async {
        let mut text = Vec::new();
        if let Some(mut stderr) = stderr {
            stderr.read_to_end(&mut text).await?;
        }
        Ok::<_, std::io::Error>(String::from_utf8_lossy(&text).into_owned())
    };
    let (kept, errors) = tokio::join!(lines, errors);
    let status = child.wait().await?;
    Ok((status.code(), kept?, errors?))
}

/// The prompt of a repair run: the CLI keeps no session, so the request again, then the
/// rejected answer (as data) and every check it failed.
fn repair_prompt(ask: &Ask<'_>, raw: &str, checks: &[String]) -> String {
    format!(
        "{}\n\nYour previous answer, below, was rejected by checks the schema cannot express. \
         Answer again with the whole {what}, every check fixed.\n\n\
         <previous_answer>\n{}\n</previous_answer>\n\n{}",
        ask.user,
        clip(
            &raw.replace("</previous_answer>", "<\\/previous_answer>"),
            60_000
        ),
        repair_text(ask, "StructuredOutput", checks),
        what = ask.what,
    )
}

/// What one run of the CLI means (its exit code, stdout and stderr): the
/// `structured_output` it ended with, or why there is none, naming `what` was asked for.
pub fn structured_output(
    what: &'static str,
    credentials: &str,
    code: Option<i32>,
    stdout: &str,
    stderr: &str,
) -> Result<Value, LlmError> {
    interpret(what, credentials, code, stdout, stderr).map(|(output, _)| output)
}

/// [`structured_output`], and what the run reported of its turns, tokens and cost.
fn interpret(
    what: &'static str,
    credentials: &str,
    code: Option<i32>,
    stdout: &str,
    stderr: &str,
) -> Result<(Value, Usage), LlmError> {
    let Some(result) = last_result(stdout) else {
        let status = code.map_or_else(
            || "killed by a signal".to_string(),
            |c| format!("exit status {c}"),
        );
        let said = last_lines(stderr).or_else(|| last_lines(stdout));
        return Err(LlmError::Cli {
            message: match said {
                Some(s) => format!("{status}, no result; it said: {s}"),
                None => format!("{status}, no result and no message"),
            },
        });
    };
    let field = |k: &str| result.get(k);
    let subtype = field("subtype").and_then(Value::as_str).unwrap_or("");
    let is_error = field("is_error").and_then(Value::as_bool).unwrap_or(false);
    let said = cli_message(&result);
    if is_error || subtype != "success" {
        let status = field("api_error_status").and_then(Value::as_u64);
        let message = match (subtype, status) {
            (_, Some(401 | 403)) => format!(
                "the API refused its credentials from {credentials} (HTTP {}): {said}",
                status.unwrap_or_default()
            ),
            (_, Some(429)) => format!("rate limited (HTTP 429), retries exhausted: {said}"),
            (_, Some(529)) => {
                format!("the API is overloaded (HTTP 529), retries exhausted: {said}")
            }
            (_, Some(s)) => format!("API error (HTTP {s}): {said}"),
            ("error_max_turns", None) => {
                format!(
                    "it reached its turn limit without a valid {what} (error_max_turns): {said}"
                )
            }
            ("error_max_structured_output_retries", None) => format!(
                "the model's output never matched the {what} schema (error_max_structured_output_retries): {said}"
            ),
            (other, None) => format!("{}: {said}", if other.is_empty() { "error" } else { other }),
        };
        return Err(LlmError::Cli {
            message: clip(&sanitize_line(&message), 400),
        });
    }
    match field("structured_output") {
        Some(v) if !v.is_null() => Ok((v.clone(), usage_of(&result))),
        _ => Err(LlmError::CliNoStructuredOutput {
            what,
            reply: clip(
                &sanitize_line(field("result").and_then(Value::as_str).unwrap_or_default()),
                200,
            ),
        }),
    }
}

/// What a result reports: `usage`'s tokens, `num_turns`, `total_cost_usd`.
fn usage_of(result: &Value) -> Usage {
    Usage {
        turns: result.get("num_turns").and_then(Value::as_u64),
        cost_usd: result.get("total_cost_usd").and_then(Value::as_f64),
        ..Usage::tokens(result.get("usage"))
    }
}

/// The last JSON object with `"type": "result"`: the whole output (`--output-format
/// json`), or the last such line (stream-json or noise before it).
fn last_result(stdout: &str) -> Option<Value> {
    let is_result = |v: &Value| v.get("type").and_then(Value::as_str) == Some("result");
    if let Ok(v) = serde_json::from_str::<Value>(stdout.trim()) {
        if is_result(&v) {
            return Some(v);
        }
        if let Value::Array(items) = v {
            return items.into_iter().rev().find(is_result);
        }
    }
    stdout
        .lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
        .find(is_result)
}

/// The CLI's own words: `result`, else `errors`, else the subtype.
fn cli_message(result: &Value) -> String {
    if let Some(text) = result.get("result").and_then(Value::as_str)
        && !text.trim().is_empty()
    {
        return clip(&sanitize_line(text.trim()), 300);
    }
    if let Some(errors) = result.get("errors").and_then(Value::as_array) {
        let list: Vec<&str> = errors.iter().filter_map(Value::as_str).collect();
        if !list.is_empty() {
            return clip(&sanitize_line(&list.join("; ")), 300);
        }
    }
    "no message".into()
}

fn last_lines(text: &str) -> Option<String> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return None;
    }
    let tail = lines[lines.len().saturating_sub(3)..].join(" | ");
    Some(clip(&sanitize_line(&tail), 300))
}

/// `bin` as quizz's child: `CLAUDE_INVOKED_BY=quizz` (user hooks use it to avoid
/// recursion), no telemetry or auto-update, output captured, and in a process group of its
/// own, killed when dropped, so a timeout or a signal ends what it started too.
fn child_command(bin: &Path) -> Command {
    let mut cmd = Command::new(bin);
    cmd.env("CLAUDE_INVOKED_BY", "quizz")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    cmd.process_group(0);
    cmd
}

/// `claude --version`, for `quizz doctor`.
pub async fn claude_version(bin: &Path) -> Result<String, LlmError> {
    let mut cmd = child_command(bin);
    cmd.arg("--version").stdin(Stdio::null());
    let child = cmd.spawn().map_err(|e| LlmError::CliMissing {
        path: bin.display().to_string(),
        message: e.to_string(),
    })?;
    let _group = crate::children::ChildGroup::register(child.id());
    let output = tokio::time::timeout(Duration::from_secs(20), child.wait_with_output())
        .await
        .map_err(|_| LlmError::CliTimeout {
            after: Duration::from_secs(20),
        })?
        .map_err(|e| LlmError::Cli {
            message: format!("cannot read its output: {e}"),
        })?;
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().next().unwrap_or_default().trim();
    if output.status.success() && !line.is_empty() {
        Ok(clip(&sanitize_line(line), 100))
    } else {
        Err(LlmError::Cli {
            message: format!("`--version` failed ({})", output.status),
        })
    }
}

#[cfg(test)]
mod tests;
