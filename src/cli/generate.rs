//! `quizz generate --local`: a quiz for the current branch's change, written by the model
//! (or the one written earlier for the same change), and the flags `take --local` shares.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::Args;

use crate::generate::cache::{self, QuizKey};
use crate::generate::{
    Cancel, Context, DEFAULT_BUDGET_CHARS, GenerateError, Generator, Input, LocalOptions, Stage,
    prepare_local, repository, select_generator, write_quiz,
};
use crate::llm::{EnvSnapshot, Selection};
use crate::quiz::Quiz;
use crate::store::{Origin, Store};
use crate::tui::generating::{
    GenerationOutcome, GenerationScreen, GrowingOutcome, WriteJob, run_generation,
    run_generation_growing,
};

/// Write a quiz with an LLM: for a pull request (and post it, as a quiz bot), or for your
/// branch before you push.
///
/// For a PR (`quizz generate 7`), reads its diff from your clone when it has the PR's
/// commits, else from GitHub; with --post, posts the quiz as the bot's comment, once per
/// head commit. With --local, reads the change since the branch left BASE (what a pull
/// request would show). Either way it leaves
/// out lockfiles, generated, vendored and binary files (and says so), asks the model for a
/// quiz in quizz's schema, checks it as quizz checks every quiz (every diagram drawn at 75
/// columns), and has the model repair what fails. The quiz is kept: the same change, model
/// and prompt give it back without asking the model again (--regenerate asks anew).
/// The model is chosen as for grading (`quizz doctor` shows which).
#[derive(Args)]
#[allow(clippy::struct_excessive_bools)] // one flag each, as clap reads them
#[command(after_help = "Examples:\n  \
        quizz generate --local                    this branch's quiz as JSON\n  \
        quizz generate --local main --out q.json  since main, into q.json\n  \
        quizz generate --local --markdown         as the bot's PR comment\n  \
        quizz generate --local --questions 4      four questions\n  \
        quizz generate --local --regenerate       a fresh quiz, not the kept one\n  \
        quizz generate 7 --repo octo/app          PR 7's quiz, from its diff\n  \
        quizz generate 7 --post                   post it on PR 7, as a quiz bot does\n  \
        quizz generate 7 --post --yes             the same, without asking (CI)\n  \
        quizz take --local                        write it and take it at once\n\n\
        Stages (reading the diff, asking the model, checking, repairing) are told on stderr.\n\n\
        Exit status: 0 written, 1 no quiz (no model, a failure, or a quiz that kept failing the \
        checks: its last answer is saved and named), 2 unusable arguments or repository.")]
pub struct GenerateArgs {
    /// The pull request to write a quiz for: a number (7), a URL, or OWNER/REPO#7.
    #[arg(value_name = "PR", conflicts_with = "local")]
    pr: Option<String>,
    /// The repository for a PR number: [HOST/]OWNER/REPO (default: `GH_REPO`, else the git
    /// remotes: upstream, github, origin).
    #[arg(
        long,
        short = 'R',
        value_name = "[HOST/]OWNER/REPO",
        conflicts_with = "local"
    )]
    repo: Option<String>,
    #[command(flatten)]
    local: LocalArgs,
    /// Write the quiz to FILE instead of stdout (atomically).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print the quiz state JSON (the default).
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// Print the quiz as the bot's pull-request comment (markdown with the state block).
    #[arg(long)]
    markdown: bool,
    /// How many questions to ask for, 2 to 10 (default: the model sizes the quiz by the
    /// change).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=10))]
    questions: Option<u8>,
    /// Post the quiz on the PR as a comment, as a quiz bot does (one per head commit: the
    /// same head again posts nothing unless --regenerate). Anyone who opens the comment
    /// can read the answers: quizz asks first.
    #[arg(long, requires = "pr")]
    post: bool,
    /// With --post: do not ask (for scripts and CI, where stdin is no terminal).
    #[arg(long, requires = "post")]
    yes: bool,
}

/// The flags of a local change, shared by `generate` and `take`.
#[derive(Args, Debug, Clone, Default)]
pub struct LocalArgs {
    /// Quiz this branch's change since it left BASE (default: the remote's default branch,
    /// else main, else master), written by the model.
    #[arg(long, value_name = "BASE", num_args = 0..=1, default_missing_value = "")]
    pub local: Option<String>,
    /// Include uncommitted work (staged, unstaged and untracked files) in the change.
    #[arg(long, requires = "local")]
    pub include_uncommitted: bool,
    /// Write a fresh quiz even when one was written for this change (or PR head) already.
    #[arg(long)]
    pub regenerate: bool,
}

/// A quiz for a local change, and what names it in the store.
pub struct LocalQuiz {
    pub quiz: Quiz,
    pub origin: Origin,
    pub top: PathBuf,
}

pub fn run(args: &GenerateArgs) -> Result<()> {
    if args.local.local.is_none() && args.pr.is_none() {
        return Err(super::UsageError(
            "say which change to write a quiz for: a pull request (quizz generate 7) or --local [BASE] (this branch's change since BASE)".into(),
        )
        .into());
    }
    if (args.post || args.yes) && args.pr.is_none() {
        return Err(super::UsageError(
            "--post posts a pull request's quiz (quizz generate 7 --post); a local change has no pull request: drop --post".into(),
        )
        .into());
    }
    if args.local.include_uncommitted && args.local.local.is_none() {
        return Err(super::UsageError(
            "--include-uncommitted is about this branch: add --local".into(),
        )
        .into());
    }
    let store = Store::open_default()?;
    let cwd = std::env::current_dir()?;
    let questions = args.questions.map(usize::from);
    let (quiz, head) = match &args.pr {
        Some(pr) => {
            let request = super::generate_pr::PrRequest {
                pr: pr.clone(),
                repo: args.repo.clone(),
                regenerate: args.local.regenerate,
                questions,
                post: args.post,
                yes: args.yes,
            };
            match super::generate_pr::generate(&request, &store, &cwd)? {
                // Posted: printed only when asked for (a bot's log needs no answer key).
                Some(_) if args.post && !(args.json || args.markdown || args.out.is_some()) => {
                    return Ok(());
                }
                Some((quiz, head)) => (quiz, Some(head)),
                None => return Ok(()),
            }
        }
        None => (local_quiz(&args.local, questions, &store, &cwd)?.quiz, None),
    };
    let text = if args.markdown {
        // A PR's quiz names its head, as the bot's comment does (one quiz per push).
        match &head {
            Some(head) => crate::comment::render_written_quiz_comment(&quiz, head),
            None => crate::comment::render_quiz_comment(&quiz),
        }
    } else {
        quiz.to_pretty_json()
    };
    if let Some(path) = &args.out {
        crate::store::write_user_file(path, format!("{}\n", text.trim_end()).as_bytes())?;
        errln!("quizz: wrote {}", path.display());
    } else {
        outln!("{}", text.trim_end());
    }
    Ok(())
}

/// Prepares the change in `dir`'s repository, then gives the quiz kept for it or has the
/// model write one (and keeps it). Stage lines go to stderr.
pub fn local_quiz(
    args: &LocalArgs,
    questions: Option<usize>,
    store: &Store,
    dir: &Path,
) -> Result<LocalQuiz> {
    let mut plan = plan_local(args, questions, store, dir)?;
    if let Some(made) = plan.kept_quiz() {
        return Ok(made);
    }
    say_reading(&plan.job.input);
    let made = plan.made();
    let quiz = plan.job.write(store, &mut say_stage, &Cancel::new())?;
    Ok(made(quiz))
}

/// `take --local` in plain mode: as [`local_quiz`], but a quiz written a question at a
/// time comes back as soon as its first question is ready, with the rest to come.
pub fn local_quiz_plain(
    args: &LocalArgs,
    store: &Store,
    dir: &Path,
) -> Result<(LocalQuiz, Option<super::growing::PlainRest>)> {
    let mut plan = plan_local(args, None, store, dir)?;
    if let Some(made) = plan.kept_quiz() {
        return Ok((made, None));
    }
    say_reading(&plan.job.input);
    let made = plan.made();
    let (quiz, rest) = super::growing::write_plain(plan.job, store)?;
    Ok((made(quiz), rest))
}

/// `take --local` in the full-screen UI: the quiz kept for the change, or one the model
/// writes on the generation screen (and that is kept). `None`: none was written (the
/// taker cancelled; said on stdout). Written a question at a time (the pipeline), the
/// quiz comes back as soon as its first question is ready, with the rest to come.
pub fn local_quiz_on_screen(
    args: &LocalArgs,
    store: &Store,
    dir: &Path,
) -> Result<Option<(LocalQuiz, Option<Rest>)>> {
    let mut plan = plan_local(args, None, store, dir)?;
    if let Some(made) = plan.kept_quiz() {
        return Ok(Some((made, None)));
    }
    let screen = plan.job.screen(plan.origin.describe(), None)?;
    let made = plan.made();
    Ok(plan
        .job
        .write_on_screen(screen, store)?
        .map(|(quiz, rest)| (made(quiz), rest)))
}

/// The rest of a quiz taken while it is written: what is known of it, and what brings it.
pub struct Rest {
    pub writing: crate::tui::rest::Writing,
    pub feed: crate::tui::generating::Feed,
}

impl Rest {
    /// Where the answers are saved until the quiz is whole.
    pub fn attempt_path(&self, store: &Store, origin: &Origin) -> PathBuf {
        store.writing_attempt_path(origin, &self.writing.key.writing_name())
    }
}

/// Runs `job` on the generation screen: the quiz it wrote, or `None` when the user left
/// or cancelled (said on stdout once the terminal is restored). A failure is the error.
pub fn write_on_screen(screen: GenerationScreen, job: impl WriteJob) -> Result<Option<Quiz>> {
    ended(run_generation(screen, job)?)
}

fn ended(outcome: GenerationOutcome) -> Result<Option<Quiz>> {
    match outcome {
        GenerationOutcome::Written(quiz) => Ok(Some(quiz)),
        GenerationOutcome::Declined => {
            outln!("No quiz was written.");
            Ok(None)
        }
        GenerationOutcome::Cancelled => {
            outln!("No quiz was written (cancelled).");
            Ok(None)
        }
        GenerationOutcome::Failed(e) => Err(e),
    }
}

/// A local change read for the model: the quiz kept for it, or the job that writes one.
struct LocalPlan {
    job: Job,
    kept: Option<(Quiz, PathBuf)>,
    origin: Origin,
    top: PathBuf,
}

/// Reads the change in `dir`'s repository and looks for the quiz kept for it (none with
/// --regenerate).
fn plan_local(
    args: &LocalArgs,
    questions: Option<usize>,
    store: &Store,
    dir: &Path,
) -> Result<LocalPlan> {
    let (top, repository_id) = repository(dir).map_err(usage)?;
    let opts = LocalOptions {
        base: args.local.clone().filter(|b| !b.trim().is_empty()),
        include_uncommitted: args.include_uncommitted,
        budget: DEFAULT_BUDGET_CHARS,
    };
    let input = prepare_local(&top, &opts).map_err(usage)?;
    if input.given().next().is_none() {
        return Err(super::UsageError(format!("no change to quiz: {}", input.summary())).into());
    }
    let selection = select_generator(&EnvSnapshot::from_process(), &top);
    let key = QuizKey {
        repository: repository_id.clone(),
        digest: input.digest.clone(),
        model: selection.model.clone(),
    };
    let origin = Origin::Local {
        repository: repository_id.clone(),
        digest: input.digest.clone(),
    };
    let kept = (!args.regenerate)
        .then(|| cache::load(store, &key))
        .flatten();
    Ok(LocalPlan {
        job: Job {
            selection,
            input,
            context: Context {
                repository: Some(repository_id),
                pr: None,
                questions,
            },
            key,
        },
        kept,
        origin,
        top,
    })
}

impl LocalPlan {
    /// The quiz written earlier for this change, said on stderr with the change read.
    fn kept_quiz(&mut self) -> Option<LocalQuiz> {
        let (quiz, path) = self.kept.take()?;
        say_reading(&self.job.input);
        errln!(
            "quizz: the quiz written earlier for this change ({}); --regenerate writes a fresh one",
            path.display()
        );
        Some(self.made()(quiz))
    }

    /// What names a quiz of this change in the store, once it is written.
    fn made(&self) -> impl FnOnce(Quiz) -> LocalQuiz + use<> {
        let (origin, top) = (self.origin.clone(), self.top.clone());
        move |quiz| LocalQuiz { quiz, origin, top }
    }
}

/// A quiz to be written: the backend, the prepared change, what the prompt says of it,
/// and the key it is kept under.
pub struct Job {
    pub selection: Selection,
    pub input: Input,
    pub context: Context,
    pub key: QuizKey,
}

impl Job {
    /// The generation screen for this job: what it is for (`title`), the change read, the
    /// backend; `offer`: ask first, saying why. No backend: the error that says how to set
    /// one up.
    pub fn screen(&self, title: String, offer: Option<String>) -> Result<GenerationScreen> {
        let Some(llm) = &self.selection.llm else {
            return Err(GenerateError::no_backend(&self.selection).into());
        };
        Ok(GenerationScreen {
            title,
            reading: reading_lines(&self.input),
            backend: llm.name().to_string(),
            model: self.selection.model.clone(),
            offer,
            theme: crate::tui::theme::Theme::from_env(),
        })
    }

    /// Writes the quiz on the generation screen: the whole quiz (the one-call design), or
    /// as soon as its first question is ready, that much and the [`Rest`] (the pipeline).
    /// `None`: the user left or cancelled (said on stdout). A failure is the error.
    pub fn write_on_screen(
        self,
        screen: GenerationScreen,
        store: &Store,
    ) -> Result<Option<(Quiz, Option<Rest>)>> {
        let store = store.clone();
        if Generator::chosen_for(&self.selection) != Generator::Pipeline {
            let written = write_on_screen(screen, move |on_stage, cancel| {
                self.write(&store, on_stage, cancel)
            })?;
            return Ok(written.map(|quiz| (quiz, None)));
        }
        let key = self.key.clone();
        let pr_number = self.context.pr.as_ref().map_or(0, |p| p.number);
        let job = move |on_stage: &mut dyn FnMut(&Stage), cancel: &Cancel| {
            self.write(&store, on_stage, cancel)
        };
        match run_generation_growing(screen, job, pr_number)? {
            GrowingOutcome::Ended(outcome) => Ok(ended(outcome)?.map(|quiz| (quiz, None))),
            GrowingOutcome::FirstReady { growing, feed } => {
                let summary = feed
                    .stages
                    .last()
                    .map(|(_, s)| s.summary())
                    .unwrap_or_default();
                let quiz = growing.quiz();
                let writing = crate::tui::rest::Writing::new(growing, key, feed.started, summary);
                Ok(Some((quiz, Some(Rest { writing, feed }))))
            }
        }
    }

    /// Has the model write the quiz (each stage told to `on_stage`; `cancel` stops it),
    /// then keeps it. A cancelled or failed write keeps nothing.
    pub fn write(
        self,
        store: &Store,
        on_stage: &mut dyn FnMut(&Stage),
        cancel: &Cancel,
    ) -> Result<Quiz> {
        let quiz = write_quiz(
            &self.selection,
            &self.input,
            &self.context,
            &failed_dir(store),
            on_stage,
            cancel,
        )?;
        let path = cache::save(store, &self.key, &quiz).context("cannot keep the quiz")?;
        tracing::info!("quiz kept in {}", path.display());
        on_stage(&Stage::Ready {
            questions: quiz.questions.len(),
            kept: path,
        });
        Ok(quiz)
    }
}

/// An unreadable repository or change: the user's to fix (exit status 2).
fn usage(e: crate::generate::InputError) -> anyhow::Error {
    match e {
        crate::generate::InputError::Spawn(_) => anyhow::Error::new(e),
        other => super::UsageError(other.to_string()).into(),
    }
}

/// Where a quiz that kept failing the checks is saved: the state dir
/// (`$XDG_STATE_HOME/quizz/generate-failed`), else under the store.
fn failed_dir(store: &Store) -> PathBuf {
    directories::BaseDirs::new()
        .and_then(|b| b.state_dir().map(|d| d.join("quizz")))
        .unwrap_or_else(|| store.root().to_path_buf())
        .join("generate-failed")
}

/// What was read of the change: the diff's summary, and uncommitted work left out.
fn reading_lines(input: &Input) -> Vec<String> {
    // The summary says what was left out, uncommitted work too (once).
    vec![format!("reading the diff: {}", input.summary())]
}

pub(super) fn say_reading(input: &Input) {
    for line in reading_lines(input) {
        errln!("quizz: {}", crate::text::sanitize_line(&line));
    }
}

pub(super) fn say_stage(stage: &Stage) {
    let line = crate::text::sanitize_line(&stage.summary());
    match stage {
        Stage::Asking { round: 0, .. } => {
            let wait = if std::io::stderr().is_terminal() {
                " (this takes a minute or two)"
            } else {
                ""
            };
            errln!("quizz: {line}{wait}…");
        }
        Stage::Asking { .. } | Stage::Checking { .. } => errln!("quizz: {line}…"),
        Stage::Ready { .. }
        | Stage::QuestionDrafted { .. }
        | Stage::QuestionReady { .. }
        | Stage::DraftActivity { .. }
        | Stage::Writing {
            activity: Some(_), ..
        } => errln!("quizz: {line}"),
        Stage::Writing { output_tokens, .. } => {
            if *output_tokens > 0 && writing_due(&WRITING_TOLD, std::io::stderr().is_terminal()) {
                errln!("quizz: {line}");
            }
        }
        Stage::Repairing { checks }
        | Stage::Redrafting { checks, .. }
        | Stage::QuestionDropped { checks, .. } => {
            errln!("quizz: {line}");
            say_checks(checks);
        }
        Stage::SlotPlanned { index, .. } => {
            told_slots().push(*index);
            errln!("quizz: {line}");
        }
        // The whole plan: its slots not told one by one as they were planned.
        Stage::Planned { slots } => {
            errln!("quizz: {line}…");
            let told = std::mem::take(&mut *told_slots());
            for (i, slot) in slots.iter().enumerate().filter(|(i, _)| !told.contains(i)) {
                errln!("  q{}. {}", i + 1, crate::text::sanitize_line(slot));
            }
        }
    }
}

/// The slots of the plan told as each was planned (streamed), so the whole plan's lines
/// do not tell them again.
fn told_slots() -> std::sync::MutexGuard<'static, Vec<usize>> {
    static TOLD: std::sync::Mutex<Vec<usize>> = std::sync::Mutex::new(Vec::new());
    TOLD.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn say_checks(checks: &[String]) {
    for c in checks {
        errln!("  - {}", crate::text::sanitize_line(c));
    }
}

/// When a `writing…` line was last shown: one every 3 s at a terminal, every 15 s in a log.
static WRITING_TOLD: std::sync::Mutex<Option<std::time::Instant>> = std::sync::Mutex::new(None);

fn writing_due(told: &std::sync::Mutex<Option<std::time::Instant>>, terminal: bool) -> bool {
    let every = std::time::Duration::from_secs(if terminal { 3 } else { 15 });
    let mut told = told
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let due = told.is_none_or(|t| t.elapsed() >= every);
    if due {
        *told = Some(std::time::Instant::now());
    }
    due
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writing_line_is_not_repeated_at_once() {
        let told = std::sync::Mutex::new(None);
        assert!(writing_due(&told, true));
        assert!(!writing_due(&told, true));
    }
}
