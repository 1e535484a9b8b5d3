//! Which backend asks the model: chosen from a snapshot of the environment, with the
//! reasons.
//!
//! Reasons name variables and say whether they are set, never their values when they are
//! secrets (keys and tokens).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Llm;
use super::claude_cli::{ClaudeCli, ClaudeCliConfig, CliTools};
use super::http::{Auth, HttpConfig, MessagesClient};

/// Where the Messages API lives unless `ANTHROPIC_BASE_URL` says otherwise.
pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
/// The model of the HTTP backend unless a variable names one (a current Sonnet; what the
/// `claude` CLI's `sonnet` alias resolves to).
pub const DEFAULT_HTTP_MODEL: &str = "claude-sonnet-5-5";
/// The variables that name the HTTP backend's model, first set wins: quizz's own, then the
/// ones the `claude` CLI and gateway set-ups use (`ANTHROPIC_DEFAULT_SONNET_MODEL` holds a
/// gateway's id such as `anthropic/claude-sonnet-4.5`).
pub const HTTP_MODEL_VARS: [&str; 3] = [
    "QUIZZ_MODEL",
    "ANTHROPIC_MODEL",
    "ANTHROPIC_DEFAULT_SONNET_MODEL",
];
/// The model given to the `claude` CLI: an alias, so gateways can remap it
/// (`ANTHROPIC_DEFAULT_SONNET_MODEL`).
pub const DEFAULT_CLI_MODEL: &str = "sonnet";

/// The ways to get a grader when there is none, in the order selection tries them.
pub const GRADER_SETUP: &str = "set ANTHROPIC_API_KEY, or install Claude Code (`claude` on PATH, \
    or CLAUDE_BIN), or set ANTHROPIC_AUTH_TOKEN (with ANTHROPIC_BASE_URL for a gateway)";

/// The variables selection reads.
const VARS: [&str; 13] = [
    "QUIZZ_GRADER",
    "QUIZZ_MODEL",
    "ANTHROPIC_MODEL",
    "QUIZZ_GRADE_TIMEOUT",
    "QUIZZ_GENERATE_TIMEOUT",
    "QUIZZ_GENERATE",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "CLAUDE_BIN",
    "CLAUDE_CODE_MAX_RETRIES",
    "ANTHROPIC_DEFAULT_SONNET_MODEL",
    "PATH",
];

/// Variables whose values are secrets: only whether they are set is ever shown.
const SECRETS: [&str; 2] = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"];

/// The part of the environment that decides the backend. Its `Debug` shows names only.
#[derive(Clone, Default)]
pub struct EnvSnapshot {
    vars: BTreeMap<String, String>,
}

impl fmt::Debug for EnvSnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EnvSnapshot")
            .field("set", &self.vars.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl EnvSnapshot {
    /// The current process's variables (only those selection reads).
    pub fn from_process() -> Self {
        Self::from_pairs(
            VARS.iter()
                .filter_map(|k| std::env::var(k).ok().map(|v| (k.to_string(), v))),
        )
    }

    /// A snapshot from explicit pairs (tests, or a caller with its own environment).
    pub fn from_pairs<K: Into<String>, V: Into<String>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        Self {
            vars: pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        }
    }

    /// The value when set (possibly empty).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str)
    }

    /// The value when set and not blank.
    fn non_empty(&self, name: &str) -> Option<&str> {
        self.get(name).filter(|v| !v.trim().is_empty())
    }

    /// How a variable was seen, for reasons: `set`, `set but empty`, `not set`.
    fn seen(&self, name: &str) -> &'static str {
        match self.get(name) {
            Some(v) if !v.trim().is_empty() => "set",
            Some(_) => "set but empty",
            None => "not set",
        }
    }

    /// Each variable selection reads (but `PATH`) and how it was seen: `not set`,
    /// `set but empty`, `set (value hidden)` for keys and tokens, else its value.
    pub fn described(&self) -> Vec<(&'static str, String)> {
        VARS.iter()
            .filter(|name| **name != "PATH")
            .map(|name| {
                let state = match self.get(name) {
                    None => "not set".to_string(),
                    Some(v) if v.trim().is_empty() => "set but empty".to_string(),
                    Some(_) if SECRETS.contains(name) => "set (value hidden)".to_string(),
                    Some(v) if *name == "ANTHROPIC_BASE_URL" => display_url(v.trim()),
                    Some(v) => super::clip(v.trim(), 200),
                };
                (*name, state)
            })
            .collect()
    }

    /// The `claude` binary: `CLAUDE_BIN` when set, else the first `claude` on `PATH`.
    fn find_claude(&self) -> Result<PathBuf, String> {
        if let Some(bin) = self.non_empty("CLAUDE_BIN") {
            let path = PathBuf::from(bin);
            return if is_executable(&path) {
                Ok(path)
            } else {
                Err(format!(
                    "CLAUDE_BIN={} is not an executable file",
                    path.display()
                ))
            };
        }
        let path_var = self.get("PATH").unwrap_or_default();
        std::env::split_paths(path_var)
            .filter(|dir| !dir.as_os_str().is_empty())
            .map(|dir| dir.join("claude"))
            .find(|candidate| is_executable(candidate))
            .ok_or_else(|| "no `claude` on PATH (and CLAUDE_BIN is not set)".to_string())
    }
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// The kinds of backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendKind {
    /// Messages API with `x-api-key: $ANTHROPIC_API_KEY`.
    AnthropicApiKey,
    /// Messages API with `Authorization: Bearer $ANTHROPIC_AUTH_TOKEN`.
    AnthropicBearer,
    /// The `claude` CLI as a subprocess.
    ClaudeCli,
    /// No grader: open answers stay pending.
    None,
}

impl BackendKind {
    pub fn describe(self) -> &'static str {
        match self {
            Self::AnthropicApiKey => "Anthropic Messages API (x-api-key from ANTHROPIC_API_KEY)",
            Self::AnthropicBearer => {
                "Anthropic Messages API (bearer token from ANTHROPIC_AUTH_TOKEN)"
            }
            Self::ClaudeCli => "the claude CLI (subprocess)",
            Self::None => "none: open answers stay pending",
        }
    }
}

/// The limits a caller wants of either backend (its timeouts, tokens, tools, repairs);
/// selection fills in what the environment says (the model's variable, the CLI's
/// credentials and retries).
#[derive(Debug, Clone, Default)]
pub struct Limits {
    pub http: HttpConfig,
    pub cli: ClaudeCliConfig,
}

impl Limits {
    /// Writing a quiz: a long answer (16,000 tokens) within 10 minutes, streamed so its
    /// progress and each question are reported as they arrive; on the CLI the read-only
    /// tools in `repo` and 30 turns to read the change; 2 repair rounds.
    pub fn generation(repo: &Path) -> Self {
        Self::generation_within(repo, Duration::from_secs(600))
    }

    /// Generation's limits, each request (or CLI run) within `timeout`.
    pub fn generation_within(repo: &Path, timeout: Duration) -> Self {
        Self {
            http: HttpConfig {
                request_timeout: timeout,
                max_tokens: 16_000,
                invalid_output_retries: 2,
                stream: true,
                ..HttpConfig::default()
            },
            cli: ClaudeCliConfig {
                timeout,
                max_turns: 30,
                tools: CliTools::ReadOnly {
                    repo: repo.to_path_buf(),
                },
                repairs: 2,
                stream: true,
                ..ClaudeCliConfig::default()
            },
        }
    }
}

/// A number of seconds from `var` (more than 0, at most `max`), else `default`; what was
/// read is said in `reasons` (`quizz doctor` shows them).
pub fn seconds_from(
    env: &EnvSnapshot,
    var: &str,
    default: Duration,
    max: u32,
    per: &str,
    reasons: &mut Vec<String>,
) -> Duration {
    let Some(raw) = env.get(var).filter(|v| !v.trim().is_empty()) else {
        return default;
    };
    match raw.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= f64::from(max) => {
            reasons.push(format!("{var} is set: {s} s {per}"));
            Duration::from_secs_f64(s)
        }
        _ => {
            reasons.push(format!(
                "{var} is not a number of seconds (0 to {max}): using {}",
                default.as_secs()
            ));
            default
        }
    }
}

/// The chosen backend, and why.
#[derive(Clone)]
pub struct Selection {
    /// The backend, configured with the caller's [`Limits`]; `None`: no backend.
    pub llm: Option<Llm>,
    pub backend: BackendKind,
    pub model: String,
    /// The variable that named `model`; `None`: quizz's default.
    pub model_from: Option<&'static str>,
    /// The Messages API base URL the backend talks to (the CLI reads it from the
    /// environment itself), shown without credentials or query.
    pub base_url: String,
    /// The `claude` binary when that backend was chosen.
    pub claude_bin: Option<PathBuf>,
    /// How the choice was made, one short sentence each; never a secret's value.
    pub reasons: Vec<String>,
    /// `QUIZZ_GRADER` made the choice (the last reason then says why there is no grader).
    pub forced: bool,
    /// `QUIZZ_GRADER` asks for a grader quizz cannot have, in one line: a set-up to fix
    /// (`none`, asked for, is not one).
    pub unusable: Option<String>,
}

impl fmt::Debug for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Selection")
            .field("backend", &self.backend)
            .field("model", &self.model)
            .field("model_from", &self.model_from)
            .field("base_url", &self.base_url)
            .field("claude_bin", &self.claude_bin)
            .field("reasons", &self.reasons)
            .field("forced", &self.forced)
            .field("unusable", &self.unusable)
            .finish_non_exhaustive()
    }
}

/// Chooses the backend: `QUIZZ_GRADER` when set; else `ANTHROPIC_API_KEY` (non-empty) →
/// Messages API; else a `claude` binary (`CLAUDE_BIN` or `PATH`) → the CLI; else
/// `ANTHROPIC_AUTH_TOKEN` → Messages API with a bearer token; else none.
pub fn select_backend(env: &EnvSnapshot, limits: &Limits) -> Selection {
    let mut reasons = Vec::new();
    let base_url = env
        .non_empty("ANTHROPIC_BASE_URL")
        .map_or(DEFAULT_BASE_URL, str::trim)
        .trim_end_matches('/')
        .to_string();
    let choice = choose(env, &mut reasons);
    let mut selection = Selection {
        llm: None,
        backend: BackendKind::None,
        model: String::new(),
        model_from: None,
        base_url: display_url(&base_url),
        claude_bin: None,
        reasons,
        forced: env.non_empty("QUIZZ_GRADER").is_some(),
        unusable: None,
    };
    match choice {
        Choice::Http(auth) => {
            let (model, from) = http_model(env);
            selection.reasons.push(match from {
                Some(var) => format!("model {model} from {var}"),
                None => format!(
                    "model {model}: quizz's default ({} are not set)",
                    HTTP_MODEL_VARS.join(", ")
                ),
            });
            selection.model_from = from;
            selection.backend = match auth {
                Auth::ApiKey(_) => BackendKind::AnthropicApiKey,
                Auth::Bearer(_) => BackendKind::AnthropicBearer,
            };
            let config = HttpConfig {
                model_from: from.map(str::to_string),
                ..limits.http.clone()
            };
            match MessagesClient::new(&base_url, &model, auth, config) {
                Ok(client) => selection.llm = Some(Llm::Messages(client)),
                Err(e) => {
                    selection.backend = BackendKind::None;
                    selection.reasons.push(e.to_line());
                }
            }
            selection.model = model;
        }
        Choice::Cli(bin) => {
            let user_model = env.non_empty("QUIZZ_MODEL").map(|m| m.trim().to_string());
            if let Some(m) = &user_model {
                selection
                    .reasons
                    .push(format!("model {m} from QUIZZ_MODEL"));
                selection.model_from = Some("QUIZZ_MODEL");
            }
            let model = user_model.unwrap_or_else(|| DEFAULT_CLI_MODEL.to_string());
            let mut config = limits.cli.clone();
            if env.non_empty("ANTHROPIC_API_KEY").is_some() {
                config.credentials = "ANTHROPIC_API_KEY".into();
            } else if env.non_empty("ANTHROPIC_AUTH_TOKEN").is_some() {
                config.credentials = "ANTHROPIC_AUTH_TOKEN".into();
            }
            if let Some(n) = env
                .non_empty("CLAUDE_CODE_MAX_RETRIES")
                .and_then(|v| v.trim().parse::<u32>().ok())
            {
                config.max_retries = n.min(10);
            }
            selection.llm = Some(Llm::Cli(ClaudeCli::new(&bin, &model, config)));
            selection.backend = BackendKind::ClaudeCli;
            selection.claude_bin = Some(bin);
            selection.model = model;
        }
        Choice::Unusable(problem) => selection.unusable = Some(problem),
        Choice::None => {}
    }
    selection
}

/// The HTTP backend's model and the variable that named it: the first of
/// [`HTTP_MODEL_VARS`] that is set and not blank, else [`DEFAULT_HTTP_MODEL`].
pub fn http_model(env: &EnvSnapshot) -> (String, Option<&'static str>) {
    HTTP_MODEL_VARS
        .iter()
        .find_map(|var| {
            env.non_empty(var)
                .map(|m| (m.trim().to_string(), Some(*var)))
        })
        .unwrap_or_else(|| (DEFAULT_HTTP_MODEL.to_string(), None))
}

impl Selection {
    /// Where the model's name came from, for `quizz doctor`: `from QUIZZ_MODEL`, or
    /// `quizz's default` / `the CLI's alias, which ANTHROPIC_DEFAULT_SONNET_MODEL remaps`.
    pub fn model_origin(&self) -> String {
        match (self.model_from, self.backend) {
            (Some(var), _) => format!("from {var}"),
            (None, BackendKind::ClaudeCli) => {
                "the claude CLI's alias; ANTHROPIC_DEFAULT_SONNET_MODEL remaps it".to_string()
            }
            (None, _) => format!(
                "quizz's default: none of {} is set",
                HTTP_MODEL_VARS.join(", ")
            ),
        }
    }
}

enum Choice {
    Http(Auth),
    Cli(PathBuf),
    /// No grader, because `QUIZZ_GRADER` asks for one that cannot be had: why, in one line.
    Unusable(String),
    None,
}

fn choose(env: &EnvSnapshot, reasons: &mut Vec<String>) -> Choice {
    let key = env.non_empty("ANTHROPIC_API_KEY");
    let token = env.non_empty("ANTHROPIC_AUTH_TOKEN");
    let http = || {
        key.map(|k| Auth::ApiKey(k.trim().to_string()))
            .or_else(|| token.map(|t| Auth::Bearer(t.trim().to_string())))
    };
    if let Some(forced) = env.non_empty("QUIZZ_GRADER") {
        let forced = forced.trim().to_ascii_lowercase();
        reasons.push(format!(
            "QUIZZ_GRADER={forced} overrides the automatic choice"
        ));
        return match forced.as_str() {
            "none" => Choice::None,
            "anthropic" | "api" | "http" => {
                if let Some(auth) = http() {
                    reasons.push(format!("{} is set (value hidden)", auth.variable()));
                    Choice::Http(auth)
                } else {
                    let why = "neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set";
                    reasons.push(format!("but {why}: no grader"));
                    Choice::Unusable(format!("QUIZZ_GRADER={forced}, but {why}"))
                }
            }
            "claude" | "cli" => match env.find_claude() {
                Ok(bin) => {
                    reasons.push(format!("claude found at {}", bin.display()));
                    Choice::Cli(bin)
                }
                Err(why) => {
                    reasons.push(format!("but {why}: no grader"));
                    Choice::Unusable(format!("QUIZZ_GRADER={forced}, but {why}"))
                }
            },
            _ => {
                reasons.push(
                    "that value is not one of anthropic, claude, none: no grader".to_string(),
                );
                Choice::Unusable(format!(
                    "QUIZZ_GRADER={forced} is not one of anthropic, claude, none"
                ))
            }
        };
    }
    if let Some(k) = key {
        reasons.push("ANTHROPIC_API_KEY is set (value hidden)".into());
        return Choice::Http(Auth::ApiKey(k.trim().to_string()));
    }
    reasons.push(format!(
        "ANTHROPIC_API_KEY is {}",
        env.seen("ANTHROPIC_API_KEY")
    ));
    match env.find_claude() {
        Ok(bin) => {
            reasons.push(format!("claude found at {}", bin.display()));
            if token.is_some() || env.get("ANTHROPIC_BASE_URL").is_some() {
                reasons.push(format!(
                    "the CLI reads ANTHROPIC_AUTH_TOKEN ({}) and ANTHROPIC_BASE_URL ({}) itself",
                    env.seen("ANTHROPIC_AUTH_TOKEN"),
                    env.seen("ANTHROPIC_BASE_URL")
                ));
            }
            return Choice::Cli(bin);
        }
        Err(why) => reasons.push(why),
    }
    if let Some(t) = token {
        reasons.push("ANTHROPIC_AUTH_TOKEN is set (value hidden)".into());
        return Choice::Http(Auth::Bearer(t.trim().to_string()));
    }
    reasons.push("ANTHROPIC_AUTH_TOKEN is not set".into());
    Choice::None
}

/// A URL without user info, query or fragment: safe to print.
fn display_url(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let rest = rest
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .trim_end_matches('/');
    let (host, path) = rest.split_once('/').map_or((rest, ""), |(h, p)| (h, p));
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let sep = if path.is_empty() { "" } else { "/" };
    if scheme.is_empty() {
        format!("{host}{sep}{path}")
    } else {
        format!("{scheme}://{host}{sep}{path}")
    }
}

#[cfg(test)]
mod tests;
