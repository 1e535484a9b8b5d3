//! Writing a quiz for a prepared change through the chosen backend: the prompt, the
//! schema, [`accept`] as the validator, generation's limits, and each stage told to the
//! caller as it happens.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::accept::accept;
use super::input::Input;
use super::prompt::{Context, SYSTEM, user_message};
use super::schema::{TOOL_NAME, submit_quiz_schema};
use crate::llm::{
    Ask, BackendKind, EnvSnapshot, GRADER_SETUP, Limits, Llm, LlmError, Progress, Selection,
    ToolUse, Usage, run_blocking, select_backend,
};
use crate::quiz::{Question, Quiz};

const DESCRIPTION: &str = "Submit the quiz for the author of this change.";
const SHAPE: &str = "one object: {\"questions\": [...]}, each question one of mcq, tf, open, mermaid as the schema says";

/// What a generation is doing, for the line or screen that shows it.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // a few stages a generation, one a question at most
pub enum Stage {
    /// The backend is asked (round 0 first; a later round repairs).
    Asking {
        backend: &'static str,
        model: String,
        round: u32,
    },
    /// The model answered (what the backend reported of it); quizz checks its quiz.
    Checking { round: u32, usage: Usage },
    /// The model is writing (round `round`): about `output_tokens` so far; `activity` is
    /// the tool call it just made (`Read src/retry.rs`, the CLI only) when this stage is
    /// about one.
    Writing {
        round: u32,
        output_tokens: u64,
        activity: Option<ToolUse>,
    },
    /// Question `index` (from 0) of round `round` is written while the rest is not; not
    /// checked yet.
    QuestionDrafted {
        round: u32,
        index: usize,
        draft: serde_json::Value,
    },
    /// The answer failed these checks: the model is asked to fix them.
    Repairing { checks: Vec<String> },
    /// The quiz passed every check and is kept at `kept`.
    Ready { questions: usize, kept: PathBuf },
    /// The pipeline's plan: one line a question (`mcq · retry count when the first send
    /// fails`), each now written by a drafter of its own.
    Planned { slots: Vec<String> },
    /// Slot `index` (from 0) passed its checks: its question, shuffled, with its final id.
    /// Sent as each drafter finishes, so in the order they finish, never before `Planned`.
    QuestionReady { index: usize, question: Question },
    /// Slot `index`'s question kept failing these checks: it is written afresh, once.
    Redrafting { index: usize, checks: Vec<String> },
    /// Slot `index`'s question failed its checks again: the quiz goes on without it.
    QuestionDropped { index: usize, checks: Vec<String> },
    /// Slot `index` (`mcq · …`, as in [`Stage::Planned`]) passed its checks while the
    /// plan is still being written: its question is being written already. Told before
    /// `Planned`, which lists it again.
    SlotPlanned { index: usize, slot: String },
    /// Slot `index`'s drafter made a tool call (`Read src/retry.rs`: the CLI reading the
    /// repository). Its tokens count in the [`Stage::Writing`] stages told while the
    /// questions are written (the whole generation's tokens so far).
    DraftActivity { index: usize, activity: ToolUse },
}

/// How a quiz is written: one call for the whole quiz, or a plan then one call per question
/// in parallel (`QUIZZ_GENERATE=single|pipeline`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Generator {
    #[default]
    Single,
    Pipeline,
}

impl Generator {
    /// The design that writes quizzes on `backend` unless `QUIZZ_GENERATE` says otherwise:
    /// the pipeline on the Messages API (measured: question 1 in 15 s and the whole quiz
    /// in 33 s, where one call takes 80 s; `cargo bench --bench pipeline`), one call with
    /// the `claude` CLI (each drafter would be a run of its own reading the repository).
    pub fn default_for(backend: BackendKind) -> Self {
        match backend {
            BackendKind::AnthropicApiKey | BackendKind::AnthropicBearer => Self::Pipeline,
            BackendKind::ClaudeCli | BackendKind::None => Self::Single,
        }
    }

    /// The design that writes with `selection`'s backend, as this process's environment
    /// chooses it.
    pub fn chosen_for(selection: &Selection) -> Self {
        Self::from_env(&EnvSnapshot::from_process(), selection.backend).0
    }

    /// The design for `backend`: `QUIZZ_GENERATE`'s choice, else [`Generator::default_for`];
    /// and what was read of the variable.
    pub fn from_env(env: &EnvSnapshot, backend: BackendKind) -> (Self, Option<String>) {
        match env.get("QUIZZ_GENERATE").map(str::trim) {
            None | Some("") => (Self::default_for(backend), None),
            Some("single") => (
                Self::Single,
                Some("QUIZZ_GENERATE is set: one call writes the quiz".into()),
            ),
            Some("pipeline") => (
                Self::Pipeline,
                Some(
                    "QUIZZ_GENERATE is set: a plan, then one call per question in parallel".into(),
                ),
            ),
            Some(_) => (
                Self::default_for(backend),
                Some(format!(
                    "QUIZZ_GENERATE is neither single nor pipeline: {}",
                    Self::default_for(backend).describe()
                )),
            ),
        }
    }

    /// The design in words: `one call for the whole quiz`.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Single => "one call for the whole quiz",
            Self::Pipeline => "a plan, then one call per question in parallel",
        }
    }
}

impl Stage {
    /// A stage that is over as soon as it is told (a file the model read, a question
    /// written): an event under the stage that runs.
    pub fn is_event(&self) -> bool {
        matches!(
            self,
            Self::QuestionDrafted { .. }
                | Self::QuestionReady { .. }
                | Self::SlotPlanned { .. }
                | Self::DraftActivity { .. }
                | Self::Writing {
                    activity: Some(_),
                    ..
                }
        )
    }

    /// The stage in a few words, for a stage line or the generation screen (the model's
    /// name is untrusted text: sanitize before drawing). Repairing's checks are not in it.
    pub fn summary(&self) -> String {
        match self {
            Self::Asking {
                backend,
                model,
                round: 0,
            } => format!("asking the model ({backend}, {model})"),
            Self::Asking { round, .. } => format!("asking again (repair {round})"),
            Self::Checking { usage, .. } => match usage.describe() {
                Some(reported) => format!("checking the quiz (the model answered: {reported})"),
                None => "checking the quiz".to_string(),
            },
            Self::Repairing { checks } => format!(
                "repairing: {} failed:",
                crate::text::plural(checks.len(), "check", "checks")
            ),
            Self::Writing {
                activity: Some(used),
                ..
            } => doing(used),
            Self::Writing { output_tokens, .. } => format!(
                "writing… {} {}",
                crate::text::thousands(*output_tokens),
                if *output_tokens == 1 {
                    "token"
                } else {
                    "tokens"
                }
            ),
            Self::QuestionDrafted { index, .. } => format!("question {} written", index + 1),
            Self::Planned { slots } => format!(
                "planned {}; writing them in parallel",
                crate::text::plural(slots.len(), "question", "questions")
            ),
            Self::QuestionReady { question, .. } => format!("question {} is ready", question.id),
            Self::Redrafting { index, .. } => format!(
                "question q{} kept failing its checks; writing it afresh:",
                index + 1
            ),
            Self::QuestionDropped { index, .. } => format!(
                "question q{} is left out: it failed its checks again:",
                index + 1
            ),
            Self::SlotPlanned { index, slot } => {
                format!("planned q{}: {slot}; writing it now", index + 1)
            }
            Self::DraftActivity { index, activity } => {
                format!("q{}: {}", index + 1, doing(activity))
            }
            Self::Ready { questions, kept } => format!(
                "quiz ready: {} (kept in {})",
                crate::text::plural(*questions, "question", "questions"),
                kept.display()
            ),
        }
    }
}

/// A tool call of the model's, as words: `reading src/retry.rs`, `searching for retry_send`.
pub fn doing(used: &crate::llm::ToolUse) -> String {
    let what = match used.tool.as_str() {
        "Read" => "reading",
        "Grep" => "searching for",
        "Glob" => "listing",
        other => other,
    };
    format!("{what} {}", used.target).trim_end().to_string()
}

/// Why no quiz was written, with what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error("no model to write the quiz: {GRADER_SETUP}. `quizz doctor` shows what quizz sees")]
    NoBackend,
    #[error(
        "no model to write the quiz: QUIZZ_GRADER=none turns the model off, for writing quizzes as for grading; unset it (or set it to anthropic or claude)"
    )]
    TurnedOff,
    #[error("{}; try again {}", .0.to_line(), retry_when(.0))]
    RateLimited(LlmError),
    #[error(
        "the model's quiz failed quizz's checks {attempts} times in a row:\n{}\n{}. Run the same command again for a new try.",
        checks.iter().map(|c| format!("  - {c}")).collect::<Vec<_>>().join("\n"),
        saved_note(.raw_saved.as_deref())
    )]
    Invalid {
        attempts: u32,
        checks: Vec<String>,
        raw_saved: Option<PathBuf>,
    },
    #[error("{}", .0.to_line())]
    Llm(LlmError),
    /// The user stopped it ([`Cancel::cancel`]): the model's run was stopped, nothing kept.
    #[error("cancelled: no quiz was written")]
    Cancelled,
}

/// Stops a generation from another thread (Esc on the generation screen): the model's
/// request is dropped, which kills a `claude` CLI child and its process group.
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    flag: Arc<AtomicBool>,
    notify: Arc<tokio::sync::Notify>,
}

impl Cancel {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
        self.notify.notify_one();
    }

    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Resolves once [`Cancel::cancel`] was called (at once when it was already).
    pub async fn cancelled(&self) {
        while !self.is_cancelled() {
            self.notify.notified().await;
        }
    }
}

impl GenerateError {
    /// Why `selection` has no model, as the error that says what to do.
    pub fn no_backend(selection: &Selection) -> Self {
        if selection
            .reasons
            .iter()
            .any(|r| r.starts_with("QUIZZ_GRADER=none "))
        {
            Self::TurnedOff
        } else {
            Self::NoBackend
        }
    }
}

fn retry_when(e: &LlmError) -> String {
    match e {
        LlmError::RateLimited {
            retry_after_secs: Some(s),
            ..
        } => format!("in {s} s"),
        _ => "in a minute".into(),
    }
}

fn saved_note(path: Option<&Path>) -> String {
    path.map_or_else(
        || "Its last answer could not be saved".to_string(),
        |p| format!("Its last answer is saved in {}", p.display()),
    )
}

/// The backend that writes quizzes: the grader's choice from the environment, with
/// generation's limits (the CLI reads `repo` with read-only tools; each request within
/// `QUIZZ_GENERATE_TIMEOUT` seconds, else 10 minutes).
pub fn select_generator(env: &EnvSnapshot, repo: &Path) -> Selection {
    let mut reasons = Vec::new();
    let timeout = crate::llm::seconds_from(
        env,
        "QUIZZ_GENERATE_TIMEOUT",
        std::time::Duration::from_secs(600),
        7200,
        "per request",
        &mut reasons,
    );
    let mut chosen = select_backend(env, &Limits::generation_within(repo, timeout));
    reasons.extend(Generator::from_env(env, chosen.backend).1);
    chosen.reasons.splice(0..0, reasons);
    chosen
}

/// Writes a quiz of `input` by the design [`Generator::from_env`] chooses for the backend:
/// [`write_quiz_single`] or [`super::pipeline::write_quiz_pipelined`].
pub fn write_quiz(
    selection: &Selection,
    input: &Input,
    context: &Context,
    failed_dir: &Path,
    on_stage: &mut dyn FnMut(&Stage),
    cancel: &Cancel,
) -> Result<Quiz, GenerateError> {
    let write = match Generator::chosen_for(selection) {
        Generator::Single => write_quiz_single,
        Generator::Pipeline => super::pipeline::write_quiz_pipelined,
    };
    write(selection, input, context, failed_dir, on_stage, cancel)
}

/// Asks `selection`'s backend for a whole quiz of `input` in one call, checks it with
/// [`accept`] (repairs within the limits), and returns it. A quiz that stays invalid has
/// its last raw answer saved in `failed_dir`.
pub fn write_quiz_single(
    selection: &Selection,
    input: &Input,
    context: &Context,
    failed_dir: &Path,
    on_stage: &mut dyn FnMut(&Stage),
    cancel: &Cancel,
) -> Result<Quiz, GenerateError> {
    let llm = backend_to_ask(selection, cancel)?;
    let pr_number = context.pr.as_ref().map_or(0, |p| p.number);
    let user = user_message(input, context);
    let schema = submit_quiz_schema();
    let backend = llm.name();
    let model = selection.model.clone();
    let validate = |value: &serde_json::Value| {
        accept(value, input, pr_number)
            .map_err(|findings| findings.iter().map(ToString::to_string).collect())
    };
    let outcome = run_blocking(
        |tx| {
            let (llm, user, schema, validate) = (&llm, &user, &schema, &validate);
            async move {
                let ask = Ask {
                    system: SYSTEM,
                    user,
                    tool: TOOL_NAME,
                    description: DESCRIPTION,
                    schema,
                    what: "quiz",
                    shape: SHAPE,
                };
                let report = move |p: Progress| {
                    let _ = tx.send(p);
                };
                // Dropping the ask on cancel drops its request or its CLI child.
                tokio::select! {
                    answer = llm.ask_reporting(&ask, validate, &report) => Some(answer),
                    () = cancel.cancelled() => None,
                }
            }
        },
        |progress: &Progress| {
            if let Some(stage) = stage_of(progress, backend, &model) {
                on_stage(&stage);
            }
        },
    );
    let Some(answer) = outcome.map_err(GenerateError::Llm)? else {
        return Err(GenerateError::Cancelled);
    };
    answer.map_err(|e| failed(e, failed_dir, &input.digest))
}

/// The backend a generation asks, unless there is none or it is cancelled already.
pub(super) fn backend_to_ask(selection: &Selection, cancel: &Cancel) -> Result<Llm, GenerateError> {
    if cancel.is_cancelled() {
        return Err(GenerateError::Cancelled);
    }
    selection
        .llm
        .clone()
        .ok_or_else(|| GenerateError::no_backend(selection))
}

/// Why a call wrote nothing, as a generation's error (an answer that stayed invalid is
/// saved in `failed_dir`).
pub(super) fn failed(e: LlmError, failed_dir: &Path, digest: &str) -> GenerateError {
    match e {
        LlmError::InvalidOutput {
            attempts,
            checks,
            raw,
            ..
        } => GenerateError::Invalid {
            attempts,
            checks,
            raw_saved: save_raw(failed_dir, digest, &raw),
        },
        e @ (LlmError::RateLimited { .. } | LlmError::Overloaded { .. }) => {
            GenerateError::RateLimited(e)
        }
        e => GenerateError::Llm(e),
    }
}

/// The stage a backend's progress stands for (`None`: nothing to show).
pub(super) fn stage_of(progress: &Progress, backend: &'static str, model: &str) -> Option<Stage> {
    Some(match progress {
        Progress::Asking { round } => Stage::Asking {
            backend,
            model: model.to_string(),
            round: *round,
        },
        Progress::Answered { round, usage } => Stage::Checking {
            round: *round,
            usage: usage.clone(),
        },
        Progress::Repairing { checks, .. } => Stage::Repairing {
            checks: checks.clone(),
        },
        Progress::Streaming {
            round,
            output_tokens,
            ..
        } => Stage::Writing {
            round: *round,
            output_tokens: *output_tokens,
            activity: None,
        },
        Progress::Working {
            round,
            activity,
            output_tokens,
            ..
        } => Stage::Writing {
            round: *round,
            output_tokens: *output_tokens,
            activity: activity.clone(),
        },
        Progress::Item {
            round,
            array,
            index,
            value,
        } if array == "questions" => Stage::QuestionDrafted {
            round: *round,
            index: *index,
            draft: value.clone(),
        },
        Progress::Item { .. } => return None,
    })
}

/// Saves a rejected answer for the user to read (owner-only, atomically).
pub(super) fn save_raw(dir: &Path, digest: &str, raw: &str) -> Option<PathBuf> {
    let short = digest.get(..16).unwrap_or(digest);
    let path = dir.join(format!("quiz-{short}-{}.json", crate::store::now()));
    crate::store::write_atomic(&path, raw.as_bytes())
        .ok()
        .map(|()| path)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn what_the_model_does_reads_as_words() {
        let used = |tool: &str, target: &str| crate::llm::ToolUse {
            tool: tool.into(),
            target: target.into(),
        };
        assert_eq!(doing(&used("Read", "src/retry.rs")), "reading src/retry.rs");
        assert_eq!(
            doing(&used("Grep", "retry_send")),
            "searching for retry_send"
        );
        assert_eq!(doing(&used("Glob", "")), "listing");
    }

    fn cli_timeout(pairs: &[(&str, &str)]) -> (Duration, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("claude");
        std::fs::write(&bin, "#!/bin/sh\necho 2.1.332\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let mut all = vec![("PATH", dir.path().to_str().unwrap())];
        all.extend_from_slice(pairs);
        let chosen = select_generator(&EnvSnapshot::from_pairs(all), Path::new("/repo"));
        let Some(Llm::Cli(cli)) = &chosen.llm else {
            panic!("the CLI is chosen");
        };
        (cli.config().timeout, chosen.reasons.clone())
    }

    #[test]
    fn quizz_generate_timeout_sets_how_long_a_generation_may_take() {
        assert_eq!(cli_timeout(&[]).0, Duration::from_secs(600));
        let (set, reasons) = cli_timeout(&[("QUIZZ_GENERATE_TIMEOUT", "90")]);
        assert_eq!(set, Duration::from_secs(90));
        assert!(
            reasons[0].contains("QUIZZ_GENERATE_TIMEOUT is set: 90 s"),
            "{reasons:?}"
        );
        let (bad, reasons) = cli_timeout(&[("QUIZZ_GENERATE_TIMEOUT", "soon")]);
        assert_eq!(bad, Duration::from_secs(600));
        assert!(
            reasons[0].contains("not a number of seconds"),
            "{reasons:?}"
        );
    }

    #[test]
    fn quizz_generate_chooses_one_call_or_the_pipeline() {
        let read = |v: &str, on: BackendKind| {
            Generator::from_env(&EnvSnapshot::from_pairs([("QUIZZ_GENERATE", v)]), on)
        };
        let unset = |on| Generator::from_env(&EnvSnapshot::default(), on);
        assert_eq!(
            unset(BackendKind::AnthropicApiKey),
            (Generator::Pipeline, None)
        );
        assert_eq!(
            unset(BackendKind::AnthropicBearer),
            (Generator::Pipeline, None)
        );
        assert_eq!(unset(BackendKind::ClaudeCli), (Generator::Single, None));
        assert_eq!(
            read("pipeline", BackendKind::ClaudeCli).0,
            Generator::Pipeline
        );
        assert_eq!(
            read(" single ", BackendKind::AnthropicApiKey).0,
            Generator::Single
        );
        let (odd, said) = read("fast", BackendKind::AnthropicApiKey);
        assert_eq!(odd, Generator::Pipeline);
        assert_eq!(
            said.unwrap(),
            "QUIZZ_GENERATE is neither single nor pipeline: a plan, then one call per question in parallel"
        );
        let (_, reasons) = cli_timeout(&[("QUIZZ_GENERATE", "pipeline")]);
        assert!(
            reasons
                .iter()
                .any(|r| r.contains("a plan, then one call per question")),
            "{reasons:?}"
        );
    }

    #[test]
    fn a_cancelled_generation_asks_no_model() {
        let cancel = Cancel::new();
        cancel.cancel();
        let input =
            crate::generate::prepare_pr(&[], &crate::generate::Marked::none(), &mut |_| None, 1000);
        let env = EnvSnapshot::from_pairs([
            ("ANTHROPIC_API_KEY", "k"),
            ("ANTHROPIC_BASE_URL", "http://127.0.0.1:9"),
        ]);
        let selection = select_generator(&env, Path::new("/repo"));
        let dir = tempfile::tempdir().unwrap();
        let mut stages = Vec::new();
        let got = write_quiz(
            &selection,
            &input,
            &Context::default(),
            dir.path(),
            &mut |s| stages.push(s.clone()),
            &cancel,
        );
        assert!(matches!(got, Err(GenerateError::Cancelled)), "{got:?}");
        assert!(stages.is_empty());
    }
}
