//! A quiz for a pull request that has none: its diff read from the local clone when that
//! has the PR's commits, else from GitHub; kept per head commit, model and prompt version.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::Args;

use super::generate::{Job, say_reading, say_stage};
use crate::generate::cache::{self, QuizKey};
use crate::generate::{
    Cancel, Context, DEFAULT_BUDGET_CHARS, Input, Marked, PrText, has_commits, prepare_commits,
    prepare_pr, select_generator,
};
use crate::github::{OpenPr, PrError, PrRef, PullInfo};
use crate::llm::{EnvSnapshot, Selection};
use crate::quiz::Quiz;
use crate::store::Store;

/// Whole files read from GitHub for one quiz, at most (one request each); the diff of every
/// file is given regardless.
const MAX_TEXTS_FROM_GITHUB: usize = 30;

/// What a PR's description says to skip the quiz (case does not matter).
const SKIP_MARK: &str = "quiz: skip";

/// `--generate` / `--no-generate`: what `take` does on a PR without a quiz.
#[derive(Args, Debug, Clone, Default)]
pub struct GenerateChoiceArgs {
    /// On a PR with no quiz (or none from a trusted author): have the model write one
    /// without asking.
    #[arg(long, conflicts_with = "no_generate")]
    pub generate: bool,
    /// On a PR with no quiz: do not offer to write one.
    #[arg(long)]
    pub no_generate: bool,
}

/// Whether to write a quiz for a PR that has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenerateChoice {
    Yes,
    No,
    Ask,
}

impl GenerateChoiceArgs {
    pub fn choice(&self) -> GenerateChoice {
        if self.generate {
            GenerateChoice::Yes
        } else if self.no_generate {
            GenerateChoice::No
        } else {
            GenerateChoice::Ask
        }
    }
}

/// A PR's quiz: the one kept for its head, or the job that writes it.
pub enum PrPrepared {
    Kept { quiz: Quiz, path: PathBuf },
    ToWrite(Box<Job>),
}

/// What is known of the PR before the model is asked: enough to say what will happen.
pub struct PrPlan {
    pub head: String,
    pub prepared: PrPrepared,
}

/// Why no quiz can be written for a PR, worded for the user.
fn cannot(missing: &OpenPr, why: &str) -> anyhow::Error {
    anyhow::anyhow!("cannot write a quiz for {}: {why}", missing.pr)
}

/// Reads the PR (title, body, commits), refuses a `quiz: skip` PR, then gives the quiz
/// kept for its head commit, or — once `decide` agrees to have this backend write one —
/// prepares the change for the model. `None`: `decide` said no.
pub fn plan(
    missing: &mut OpenPr,
    regenerate: bool,
    questions: Option<usize>,
    store: &Store,
    cwd: &Path,
    decide: &mut dyn FnMut(&OpenPr, &Selection) -> Result<bool>,
) -> Result<Option<PrPlan>> {
    if missing.offline {
        return Err(cannot(
            missing,
            "GitHub cannot be reached, and the pull request's diff comes from it",
        ));
    }
    let pull = missing
        .pull()
        .with_context(|| format!("cannot read pull request {}", missing.pr))?;
    if pull.body.to_ascii_lowercase().contains(SKIP_MARK) {
        return Err(super::UsageError(format!(
            "{}: its description says `{SKIP_MARK}`, so quizz writes no quiz for it",
            missing.pr
        ))
        .into());
    }
    let Some(head) = pull.head_sha.clone().filter(|h| is_sha(h)) else {
        return Err(cannot(
            missing,
            "GitHub did not say the pull request's head commit",
        ));
    };
    let clone = clone_with(cwd, &pull, &head);
    let repo_dir = clone
        .clone()
        .map_or_else(|| store.scratch_dir(), Ok)
        .context("cannot make a folder for the model to work in")?;
    let selection = select_generator(&EnvSnapshot::from_process(), &repo_dir);
    let key = pr_key(&missing.pr, &head, &selection.model);
    if !regenerate && let Some((quiz, path)) = cache::load(store, &key) {
        return Ok(Some(PrPlan {
            head,
            prepared: PrPrepared::Kept { quiz, path },
        }));
    }
    if !decide(missing, &selection)? {
        return Ok(None);
    }
    let input = match (clone.as_deref(), pull.base_sha.as_deref()) {
        (Some(dir), Some(base)) => prepare_commits(dir, base, &head, DEFAULT_BUDGET_CHARS)
            .with_context(|| {
                format!(
                    "cannot read the change of {} in {}",
                    missing.pr,
                    dir.display()
                )
            })?,
        _ => from_github(missing, &head)?,
    };
    if input.given().next().is_none() {
        return Err(super::UsageError(format!(
            "{}: nothing in it to quiz ({})",
            missing.pr,
            input.summary()
        ))
        .into());
    }
    let context = Context {
        repository: Some(format!("{}/{}", missing.pr.owner, missing.pr.repo)),
        pr: Some(PrText {
            number: missing.pr.number,
            title: pull.title.clone(),
            body: pull.body.clone(),
        }),
        questions,
    };
    Ok(Some(PrPlan {
        head,
        prepared: PrPrepared::ToWrite(Box::new(Job {
            selection,
            input,
            context,
            key,
        })),
    }))
}

/// The cache key of a PR's quiz: the repository and PR, then its head commit as the digest.
pub fn pr_key(pr: &PrRef, head: &str, model: &str) -> QuizKey {
    QuizKey {
        repository: format!("{}#{}", pr.repo_ref(), pr.number),
        digest: head.to_ascii_lowercase(),
        model: model.to_string(),
    }
}

fn is_sha(s: &str) -> bool {
    (7..=64).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The clone around `cwd`, when it has the PR's head (and base) commits.
fn clone_with(cwd: &Path, pull: &PullInfo, head: &str) -> Option<PathBuf> {
    let (top, _) = crate::generate::repository(cwd).ok()?;
    let base = pull.base_sha.as_deref()?;
    has_commits(&top, &[base, head]).then_some(top)
}

/// The change as GitHub lists it: every file's hunks, and whole texts at the head for
/// the first files that fit (one request each, at most [`MAX_TEXTS_FROM_GITHUB`]).
fn from_github(missing: &OpenPr, head: &str) -> Result<Input> {
    if std::io::stderr().is_terminal() {
        errln!(
            "quizz: reading the changed files of {} from GitHub…",
            missing.pr
        );
    }
    let files = missing
        .files()
        .with_context(|| format!("cannot read the changed files of {}", missing.pr))?;
    let mut asked = 0;
    let mut text_at_head = |path: &str| {
        if asked >= MAX_TEXTS_FROM_GITHUB {
            return None;
        }
        asked += 1;
        missing.text_at(head, path).map(String::into_bytes)
    };
    Ok(prepare_pr(
        &files,
        &Marked::none(),
        &mut text_at_head,
        DEFAULT_BUDGET_CHARS,
    ))
}

/// Whether to write a quiz for `missing` with `selection`'s backend: `--generate`,
/// `--no-generate`, or a question at a terminal (a take that cannot ask does not write
/// one). Says what quizz found and which backend would write it.
pub fn agree(
    missing: &OpenPr,
    selection: &Selection,
    choice: GenerateChoice,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<bool> {
    if choice == GenerateChoice::No {
        return Ok(false);
    }
    let Some(llm) = &selection.llm else {
        // Nothing to offer: the take ends as it would without quizz's writer, unless the
        // writer was asked for.
        if choice == GenerateChoice::Yes {
            return Err(anyhow::anyhow!(
                "{}; and quizz cannot write one: {}",
                missing.why,
                crate::generate::GenerateError::no_backend(selection)
            ));
        }
        return Ok(false);
    };
    let backend = format!(
        "{} ({})",
        llm.name(),
        crate::text::sanitize_line(&selection.model)
    );
    if !std::io::stdin().is_terminal() && choice != GenerateChoice::Yes {
        // The take ends with the reason as its error: said once, after this hint.
        writeln!(
            out,
            "quizz: this take cannot ask (stdin is not a terminal): add --generate to have {backend} write a quiz from its diff"
        )?;
        return Ok(false);
    }
    writeln!(out, "quizz: {}.", missing.why)?;
    if choice == GenerateChoice::Yes {
        writeln!(
            out,
            "quizz: writing one from its diff with {backend} (--generate)."
        )?;
        return Ok(true);
    }
    let question =
        format!("Write a quiz from its diff with {backend}? It stays on this machine. [y/N] ");
    Ok(super::ask_yes_no(&question, input, out)?)
}

/// Writes the quiz of `plan` with stage lines on stderr (plain mode, `quizz generate`).
pub fn write_with_lines(plan: PrPlan, store: &Store) -> Result<Quiz> {
    match plan.prepared {
        PrPrepared::Kept { quiz, path } => {
            errln!(
                "quizz: the quiz written earlier for this head commit ({}); --regenerate writes a fresh one",
                path.display()
            );
            Ok(quiz)
        }
        PrPrepared::ToWrite(job) => {
            say_reading(&job.input);
            job.write(store, &mut say_stage, &Cancel::new())
        }
    }
}

/// `quizz generate 7 [--post [--yes]]`: what was asked.
pub struct PrRequest {
    pub pr: String,
    pub repo: Option<String>,
    pub regenerate: bool,
    pub questions: Option<usize>,
    pub post: bool,
    pub yes: bool,
}

/// Why posting the quiz needs a yes: what the comment gives away.
const READABLE: &str = "The quiz comment shows every question, and its state block holds every answer: anyone who opens the comment can read them.";

/// `quizz generate 7`: the quiz kept for the PR's head commit, or one written now; with
/// `--post`, posted on the PR as a quiz bot does, once per head commit. `None`: nothing to
/// print (the head's quiz is posted already, or posting was declined). With the quiz, the
/// head commit it was written for.
pub fn generate(request: &PrRequest, store: &Store, cwd: &Path) -> Result<Option<(Quiz, String)>> {
    let stdin = std::io::stdin();
    if request.post && !request.yes && !stdin.is_terminal() {
        return Err(super::UsageError(format!(
            "--post: {}; quizz asks before posting, and cannot ask here (stdin is not a terminal): add --yes",
            READABLE.replacen("The quiz", "the quiz", 1).trim_end_matches('.')
        ))
        .into());
    }
    let opts = crate::github::PrOptions {
        pr: Some(request.pr.clone()),
        repo: request.repo.clone(),
        trust: Vec::new(),
    };
    let mut target = crate::github::open_for_writing(&opts, store.clone(), cwd)?;
    for note in &target.notes {
        errln!("quizz: {}", crate::text::sanitize_line(note));
    }
    let me = if request.post { target.me() } else { None };
    if request.post && !request.regenerate {
        let head = target
            .pull()
            .with_context(|| format!("cannot read pull request {}", target.pr))?
            .head_sha
            .unwrap_or_default();
        if let Some(posted) = target.posted_for_head(&head, me.as_deref()) {
            errln!(
                "quizz: the quiz for {}'s head commit {} is posted already: {} (nothing posted; --regenerate posts a new one)",
                target.pr,
                head.get(..7).unwrap_or(&head),
                crate::text::sanitize_line(&posted.html_url)
            );
            return Ok(None);
        }
    }
    // Asked before the model is: a no costs nothing.
    if request.post && !request.yes && !confirm_post(&target.pr, &mut stdin.lock())? {
        errln!("quizz: not posted, and no quiz written.");
        return Ok(None);
    }
    let mut agreed = |_: &OpenPr, s: &Selection| {
        if s.llm.is_none() {
            return Err(crate::generate::GenerateError::no_backend(s).into());
        }
        Ok(true)
    };
    let plan = plan(
        &mut target,
        request.regenerate,
        request.questions,
        store,
        cwd,
        &mut agreed,
    )?
    .ok_or_else(|| anyhow::anyhow!("no quiz was written"))?;
    let head = plan.head.clone();
    let quiz = write_with_lines(plan, store)?;
    if request.post {
        let body = crate::comment::render_written_quiz_comment(&quiz, &head);
        let posted = target
            .post_comment(&body)
            .with_context(|| format!("cannot post the quiz on {}", target.pr))?;
        errln!(
            "quizz: posted the quiz on {}: {}",
            target.pr,
            crate::text::sanitize_line(&posted.html_url)
        );
    }
    Ok(Some((quiz, head)))
}

/// Asks at the terminal whether to post the quiz comment, saying what it gives away.
fn confirm_post(pr: &PrRef, input: &mut dyn BufRead) -> Result<bool> {
    let question = format!("{READABLE}\nPost the quiz on {pr}? [y/N] ");
    Ok(super::ask_yes_no(&question, input, &mut std::io::stderr())?)
}

/// Whether `e` says a PR has no quiz quizz could take (the cases a quiz can be written
/// for).
pub fn is_missing(e: &PrError) -> bool {
    matches!(
        e,
        PrError::NoQuiz { .. }
            | PrError::QuizDeleted { .. }
            | PrError::Untrusted { .. }
            | PrError::NoQuizInCutListing { .. }
    )
}
