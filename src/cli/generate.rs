//! `quizz generate --local`: a quiz for the current branch's change, written by the model
//! (or the one written earlier for the same change), and the flags `take --local` shares.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::Args;

use crate::generate::cache::{self, QuizKey};
use crate::generate::{
    Cancel, Context, DEFAULT_BUDGET_CHARS, Input, LocalOptions, Stage, Uncommitted, prepare_local,
    repository, select_generator, write_quiz,
};
use crate::llm::{EnvSnapshot, Selection};
use crate::quiz::Quiz;
use crate::store::{Origin, Store};

/// Write a quiz for your branch's change with an LLM, before any bot does.
///
/// Reads the change since the branch left BASE (what a pull request would show), leaves
/// out lockfiles, generated, vendored and binary files (and says so), asks the model for a
/// quiz in quizz's schema, checks it as quizz checks every quiz (every diagram drawn at 75
/// columns), and has the model repair what fails. The quiz is kept: the same change, model
/// and prompt give it back without asking the model again (--regenerate asks anew).
/// The model is chosen as for grading (`quizz doctor` shows which).
#[derive(Args)]
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
    if args.local.include_uncommitted && args.local.local.is_none() {
        return Err(super::UsageError(
            "--include-uncommitted is about this branch: add --local".into(),
        )
        .into());
    }
    let store = Store::open_default()?;
    let cwd = std::env::current_dir()?;
    let questions = args.questions.map(usize::from);
    let quiz = match &args.pr {
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
                Some(quiz) => quiz,
                None => return Ok(()),
            }
        }
        None => local_quiz(&args.local, questions, &store, &cwd)?.quiz,
    };
    let text = if args.markdown {
        crate::comment::render_quiz_comment(&quiz)
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
    let (top, repository_id) = repository(dir).map_err(usage)?;
    let opts = LocalOptions {
        base: args.local.clone().filter(|b| !b.trim().is_empty()),
        include_uncommitted: args.include_uncommitted,
        budget: DEFAULT_BUDGET_CHARS,
    };
    let input = prepare_local(&top, &opts).map_err(usage)?;
    say_reading(&input);
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
    if !args.regenerate
        && let Some((quiz, path)) = cache::load(store, &key)
    {
        errln!(
            "quizz: the quiz written earlier for this change ({}); --regenerate writes a fresh one",
            path.display()
        );
        return Ok(LocalQuiz { quiz, origin, top });
    }
    let job = Job {
        selection,
        input,
        context: Context {
            repository: Some(repository_id),
            pr: None,
            questions,
        },
        key,
    };
    let quiz = job.write(store, &mut say_stage, &Cancel::new())?;
    Ok(LocalQuiz { quiz, origin, top })
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

pub(super) fn say_reading(input: &Input) {
    errln!(
        "quizz: reading the diff: {}",
        crate::text::sanitize_line(&input.summary())
    );
    if let Uncommitted::LeftOut { files } = input.uncommitted {
        errln!(
            "quizz: {} uncommitted: left out of the quiz (add --include-uncommitted to quiz them too)",
            crate::text::plural(files, "file is", "files are")
        );
    }
}

pub(super) fn say_stage(stage: &Stage) {
    match stage {
        Stage::Asking {
            backend,
            model,
            round: 0,
        } => {
            let wait = if std::io::stderr().is_terminal() {
                " (this takes a minute or two)"
            } else {
                ""
            };
            errln!(
                "quizz: asking the model ({backend}, {}){wait}…",
                crate::text::sanitize_line(model)
            );
        }
        Stage::Asking { round, .. } => errln!("quizz: asking again (repair {round})…"),
        Stage::Ready { questions, kept } => errln!(
            "quizz: quiz ready: {} (kept in {})",
            crate::text::plural(*questions, "question", "questions"),
            kept.display()
        ),
        Stage::Checking { usage, .. } => match usage.describe() {
            Some(reported) => errln!("quizz: checking the quiz (the model answered: {reported})…"),
            None => errln!("quizz: checking the quiz…"),
        },
        Stage::Repairing { checks } => {
            errln!(
                "quizz: repairing: {} failed:",
                crate::text::plural(checks.len(), "check", "checks")
            );
            say_checks(checks);
        }
        Stage::Planned { slots } => {
            errln!(
                "quizz: planned {}; writing them in parallel…",
                crate::text::plural(slots.len(), "question", "questions")
            );
            for (i, slot) in slots.iter().enumerate() {
                errln!("  q{}. {}", i + 1, crate::text::sanitize_line(slot));
            }
        }
        Stage::QuestionReady { question, .. } => errln!(
            "quizz: question {} is ready",
            crate::text::sanitize_line(&question.id)
        ),
        Stage::Redrafting { index, checks } => {
            errln!(
                "quizz: question q{} kept failing its checks; writing it afresh:",
                index + 1
            );
            say_checks(checks);
        }
        Stage::QuestionDropped { index, checks } => {
            errln!(
                "quizz: question q{} is left out: it failed its checks again:",
                index + 1
            );
            say_checks(checks);
        }
    }
}

fn say_checks(checks: &[String]) {
    for c in checks {
        errln!("  - {}", crate::text::sanitize_line(c));
    }
}
