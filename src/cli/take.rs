use std::io::{IsTerminal, Write};

use anyhow::{Context, Result};
use clap::Args;

use super::generate::LocalArgs;
use super::generate_pr::{self, GenerateChoice, GenerateChoiceArgs};
use super::post::TakePost;
use super::pr::{PostChoice, PrArgs};
use super::{SourceArgs, report, wants_plain};
use crate::github::{OpenPr, PrQuiz, PrTake};
use crate::grade::{EnvSnapshot, select_grader};
use crate::plain::{Finish, PlainOptions};
use crate::session::Session;
use crate::store::Store;
use crate::tui::theme::Theme;
use crate::tui::{NoPost, Posting, PullRequestInfo, Settings};

/// Take a quiz: answer every question, then grade and see the results.
///
/// Answers are saved as they are given: an interrupted take resumes where it stopped.
/// Plain mode (a line protocol for screen readers, pipes and scripts) is used with
/// --plain, when stdin or stdout is not a terminal, or when TERM=dumb.
#[derive(Args)]
#[command(after_help = "Examples:\n  \
        quizz take                     the quiz on the current branch's PR\n  \
        quizz take 7 --repo octo/app   PR 7 of octo/app\n  \
        quizz take --demo              the built-in demo quiz\n  \
        quizz take --demo --practice   see right or wrong as you answer\n  \
        quizz take --file comment.md   a quiz saved from a PR comment\n  \
        quizz take --local             no bot: the LLM quizzes you on this branch\n  \
        quizz take --local main        since main (--include-uncommitted: and your work)\n  \
        quizz take 7 --generate        PR 7 has no quiz: the LLM writes one from its diff\n  \
        quizz take https://github.com/octo/app/pull/7 --plain --post\n  \
        printf '1\\nf\\n\\n' | quizz take --demo --plain --json > results.json\n  \
        quizz take 7 --new-attempt     start again (earlier scores are kept)\n\n\
        Plain protocol: each question is printed with numbered options; type the option number (mcq), \
        t/f/true/false (tf), the label or its number (mermaid), or lines of text ended by a line \
        holding only '.' (open). An empty line leaves a question as it is. A take that was \
        interrupted starts again at the first unanswered question. End of input (Ctrl-D) stops \
        early: at a terminal quizz asks before grading with questions unanswered, otherwise it \
        says how many stay unanswered and grades the answers given; input that ends before any \
        answer grades nothing. A graded attempt is final: taking it again shows its results and \
        grades only the open answers still pending (--new-attempt starts again). Every answer is \
        saved as it is given: Ctrl-C stops at once and loses none.\n\n\
        Exit status: 1 also when the results were to be posted (--post, or y) and could not be: \
        they wait in the outbox for `quizz post`.")]
#[allow(clippy::struct_excessive_bools)] // one flag each, as clap reads them
pub struct TakeArgs {
    #[command(flatten)]
    source: SourceArgs,
    #[command(flatten)]
    pr: PrArgs,
    #[command(flatten)]
    local: LocalArgs,
    #[command(flatten)]
    generation: GenerateChoiceArgs,
    /// Use the line protocol instead of the full-screen UI.
    #[arg(long)]
    plain: bool,
    /// Print the results state as JSON on stdout (everything else goes to stderr).
    #[arg(long)]
    json: bool,
    /// Practice: show right or wrong, and the explanation, as soon as you answer (after
    /// asking how sure you are: 1–5, any other key skips). `[take] practice = true` in the
    /// config file makes it the default.
    #[arg(long, conflicts_with = "exam")]
    practice: bool,
    /// Exam: right answers only after submitting, even when the config makes practice the
    /// default.
    #[arg(long)]
    exam: bool,
    /// Leave the mouse to the terminal (text selection) instead of scrolling with the wheel;
    /// `[ui] mouse = false` in the config file does the same.
    #[arg(long)]
    no_mouse: bool,
    /// Start a new attempt: clear the saved answers (and results) first. A graded
    /// attempt's score is kept among the earlier attempts.
    #[arg(long)]
    new_attempt: bool,
}

pub fn run(args: &TakeArgs) -> Result<()> {
    let store = Store::open_default()?;
    let local = args.local.local.is_some();
    if local && (args.source.demo || args.source.file.is_some() || args.pr.pr.is_some()) {
        return Err(super::UsageError(
            "--local quizzes this branch's change: drop --demo, --file and the PR".into(),
        )
        .into());
    }
    let from_pr = !args.source.demo && args.source.file.is_none() && !local;
    if args.pr.post && !from_pr {
        let what = if local {
            "a local change"
        } else if args.source.demo {
            "the demo quiz"
        } else {
            "a quiz from a file"
        };
        return Err(super::UsageError(format!(
            "--post: {what} has no pull request, so its results cannot be posted; drop --post (only a PR's quiz is posted: quizz take 7)"
        ))
        .into());
    }
    if (args.generation.generate || args.generation.no_generate || args.local.regenerate)
        && !(from_pr || local)
    {
        return Err(super::UsageError(
            "--generate, --no-generate and --regenerate are about a quiz quizz writes: for a PR (quizz take 7) or this branch (--local)".into(),
        )
        .into());
    }
    let plain = wants_plain(args.plain || args.json);
    // A quiz written a question at a time is taken as soon as its first question is
    // ready: `rest` brings the others.
    let (pr_take, mut rest) = if from_pr {
        let cwd = std::env::current_dir()?;
        let Some((take, rest)) = open_pr_take(args, &store, &cwd, plain)? else {
            return Ok(());
        };
        (Some(take), rest)
    } else {
        (None, None)
    };
    let mut code_dir = std::env::current_dir().unwrap_or_default();
    let loaded = match &pr_take {
        Some(t) => t.loaded.clone(),
        None if local => {
            let Some((made, more)) = local_take(args, &store, plain)? else {
                return Ok(());
            };
            rest = more;
            code_dir = made.top;
            crate::source::LoadedQuiz {
                quiz: made.quiz,
                origin: made.origin,
                notes: Vec::new(),
            }
        }
        None => args.source.source()?.load()?,
    };
    let code = code_of(args, pr_take.as_ref(), &loaded.quiz, &store, &code_dir);
    let mut session = open_session(&store, loaded, rest.as_ref())?;
    if args.new_attempt && rest.is_none() {
        start_again(&mut session)?;
    }
    let config = crate::config::take();
    let mode = Mode {
        practice: args.practice || (config.practice && !args.exam),
        confidence: config.confidence,
        mouse: !args.no_mouse && config.mouse,
    };
    let (on_screen, in_plain) = match rest {
        Some(Rest::Screen(r)) => (Some(r), None),
        Some(Rest::Plain(r)) => (None, Some(r)),
        None => (None, None),
    };
    if plain {
        run_plain(
            session,
            args,
            &store,
            pr_take.as_ref(),
            &code,
            mode,
            in_plain,
        )
    } else {
        run_tui(
            session,
            args,
            &store,
            pr_take.as_ref(),
            code,
            mode,
            on_screen,
        )
    }
}

/// The saved answers of `loaded`; of a quiz still being written, a fresh attempt saved
/// under the writing's name until the quiz is whole.
fn open_session(
    store: &Store,
    loaded: crate::source::LoadedQuiz,
    rest: Option<&Rest>,
) -> Result<Session> {
    match rest {
        Some(rest) => {
            let path = rest.attempt_path(store, &loaded.origin);
            Session::open_writing(store.clone(), loaded, path)
        }
        None => Session::open(store.clone(), loaded),
    }
    .context("cannot open the saved answers")
}

/// `take --local`'s quiz: the full-screen UI shows the writing on its own screen; plain
/// mode on stderr. `None`: none was written (the taker cancelled on the screen).
fn local_take(
    args: &TakeArgs,
    store: &Store,
    plain: bool,
) -> Result<Option<(super::generate::LocalQuiz, Option<Rest>)>> {
    let cwd = std::env::current_dir()?;
    if plain {
        let (made, more) = super::generate::local_quiz_plain(&args.local, store, &cwd)?;
        return Ok(Some((made, more.map(Rest::Plain))));
    }
    Ok(
        super::generate::local_quiz_on_screen(&args.local, store, &cwd)?
            .map(|(made, more)| (made, more.map(Rest::Screen))),
    )
}

/// The rest of a quiz taken while it is written.
enum Rest {
    Screen(super::generate::Rest),
    Plain(super::growing::PlainRest),
}

impl Rest {
    fn attempt_path(&self, store: &Store, origin: &crate::store::Origin) -> std::path::PathBuf {
        match self {
            Self::Screen(r) => r.attempt_path(store, origin),
            Self::Plain(r) => r.attempt_path(store, origin),
        }
    }
}

/// The PR's quiz: the one posted, else (agreed to, or kept from an earlier take on the
/// same head commit) one quizz writes from the PR's diff.
/// The PR's quiz: the one posted, else (agreed to, or kept from an earlier take on the
/// same head commit) one quizz writes from the PR's diff — on the generation screen in the
/// full-screen UI, with stage lines in plain mode. `None`: the taker declined or cancelled
/// on the screen (said on stdout).
fn open_pr_take(
    args: &TakeArgs,
    store: &Store,
    cwd: &std::path::Path,
    in_plain_mode: bool,
) -> Result<Option<(PrTake, Option<Rest>)>> {
    let mut missing =
        match crate::github::open_take_or_missing(&args.pr.options(), store.clone(), cwd)? {
            PrQuiz::Posted(take) => return Ok(Some((*take, None))),
            PrQuiz::Missing(missing) => *missing,
        };
    let choice = args.generation.choice();
    let can_write =
        crate::generate::select_generator(&crate::llm::EnvSnapshot::from_process(), cwd)
            .llm
            .is_some();
    // No writer, or none wanted: the take ends as it would without one (--generate with no
    // model says why below).
    if choice == GenerateChoice::No
        || !generate_pr::is_missing(&missing.why)
        || (!can_write && choice == GenerateChoice::Ask)
    {
        return Err(missing.why.into());
    }
    if args.pr.post {
        return Err(super::UsageError(format!(
            "--post: {}, so there are no results to post (a quiz quizz writes stays on this machine); drop --post",
            missing.why
        ))
        .into());
    }
    // The screen asks itself (y writes, q leaves); plain mode asks on stderr.
    let on_screen = !in_plain_mode;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut decide = |m: &OpenPr, selection: &crate::llm::Selection| {
        if on_screen {
            return Ok(selection.llm.is_some() || choice == GenerateChoice::Yes);
        }
        generate_pr::agree(m, selection, choice, &mut input, &mut std::io::stderr())
    };
    let Some(plan) = generate_pr::plan(
        &mut missing,
        args.local.regenerate,
        None,
        store,
        cwd,
        &mut decide,
    )?
    else {
        return Err(missing.why.into());
    };
    let mut notes = vec![written_note(&missing, &plan)];
    let mut rest = None;
    let quiz = match plan.prepared {
        generate_pr::PrPrepared::ToWrite(job) if on_screen => {
            let offer = (choice == GenerateChoice::Ask).then(|| missing.why.to_string());
            let screen = job.screen(missing.header(), offer)?;
            let Some((quiz, more)) = job.write_on_screen(screen, store)? else {
                return Ok(None);
            };
            rest = more.map(Rest::Screen);
            quiz
        }
        generate_pr::PrPrepared::ToWrite(job) => {
            super::generate::say_reading(&job.input);
            let (quiz, more) = super::growing::write_plain(*job, store)?;
            rest = more.map(Rest::Plain);
            quiz
        }
        prepared @ generate_pr::PrPrepared::Kept { .. } => generate_pr::write_with_lines(
            generate_pr::PrPlan {
                head: plan.head,
                prepared,
            },
            store,
        )?,
    };
    notes.extend(earlier_quiz_note(store, &missing.pr.origin(), &quiz));
    Ok(Some((missing.into_take(quiz, notes), rest)))
}

/// A PR's quiz is new after a push: the results of the one before stay saved, and are said
/// to (the newest graded attempt at another quiz of the same PR).
fn earlier_quiz_note(
    store: &Store,
    origin: &crate::store::Origin,
    quiz: &crate::quiz::Quiz,
) -> Option<String> {
    let key = origin.key_path().to_string_lossy().into_owned();
    let digest = quiz.digest();
    let earlier = store
        .list_attempts()
        .into_iter()
        .filter(|s| s.attempt.origin == key && s.attempt.quiz_digest != digest)
        .filter_map(|s| {
            let results = s.attempt.graded()?;
            Some((
                s.attempt
                    .graded_at_ms
                    .unwrap_or(s.attempt.updated_at * 1000),
                results,
            ))
        })
        .max_by_key(|(at, _)| *at)?;
    Some(format!(
        "your results of an earlier quiz on this PR ({}%, graded {}) stay saved; this quiz is for its new head",
        earlier.1.total_score,
        crate::text::time_ago(earlier.0 / 1000)
    ))
}

/// Why the results of a quiz quizz wrote are not posted.
fn written_here_line(take: &PrTake) -> String {
    format!(
        "Not posted: quizz wrote this quiz here, and it is in no comment of {}; these results stay on this machine.",
        take.pr
    )
}

/// The overview's note on a quiz quizz wrote for a PR.
fn written_note(missing: &OpenPr, plan: &generate_pr::PrPlan) -> String {
    let when = match &plan.prepared {
        generate_pr::PrPrepared::Kept { .. } => "written earlier by quizz",
        generate_pr::PrPrepared::ToWrite(_) => "written by quizz",
    };
    format!(
        "no quiz is posted on {}: this one was {when} from its diff at {} and stays on this machine",
        missing.pr,
        plan.head.get(..7).unwrap_or(&plan.head)
    )
}

/// `--new-attempt`: clears the saved answers, keeping a graded attempt's score.
fn start_again(session: &mut Session) -> Result<()> {
    if let Some(owner) = session.busy() {
        anyhow::bail!(
            "--new-attempt: this quiz is open in another quizz ({owner}): close it there first"
        );
    }
    let graded = session.attempt().results.is_some();
    if graded || session.answered_count() > 0 {
        session.new_attempt()?;
        session.notes.push(if graded {
            "new attempt: the answers are cleared; the earlier score is kept".into()
        } else {
            "new attempt: the saved answers are cleared".into()
        });
    }
    Ok(())
}

/// What the overview says of the pull request.
fn pull_request_info(t: &PrTake) -> PullRequestInfo {
    PullRequestInfo {
        title: t
            .pull
            .as_ref()
            .map(|p| p.title.clone())
            .filter(|t| !t.trim().is_empty()),
        author: t
            .pull
            .as_ref()
            .map(|p| format!("@{}", p.author))
            .filter(|a| a.len() > 1),
        takers: t.takers_line(),
    }
}

/// How this take runs, from the flags and the config file.
#[derive(Clone, Copy)]
struct Mode {
    practice: bool,
    confidence: bool,
    mouse: bool,
}

/// The code each anchored question points at, and what the quiz covers of the PR.
pub struct QuizCode {
    pub book: crate::code::CodeBook,
    pub coverage: Option<crate::code::Coverage>,
    /// Where the code is read (questions that arrive later are read there too).
    pub dir: std::path::PathBuf,
}

fn code_of(
    args: &TakeArgs,
    pr_take: Option<&PrTake>,
    quiz: &crate::quiz::Quiz,
    store: &Store,
    cwd: &std::path::Path,
) -> QuizCode {
    let anchored = quiz.questions.iter().filter(|q| q.anchor.is_some()).count();
    if pr_take.is_some() && anchored > 0 && std::io::stderr().is_terminal() {
        errln!(
            "quizz: reading the code {} {} at…",
            crate::text::plural(anchored, "question", "questions"),
            if anchored == 1 { "points" } else { "point" }
        );
    }
    let book = read_code(args, pr_take, quiz, store, cwd);
    let coverage = pr_take
        .and_then(|t| t.changed_files.as_deref())
        .map(|files| crate::code::Coverage::of(quiz, files));
    QuizCode {
        book,
        coverage,
        dir: cwd.to_path_buf(),
    }
}

/// The code `quiz`'s anchored questions point at: the demo's sample, the clone around
/// `cwd`, or the PR's head commit. Also for questions that arrive while the UI is open.
fn read_code(
    args: &TakeArgs,
    pr_take: Option<&PrTake>,
    quiz: &crate::quiz::Quiz,
    store: &Store,
    cwd: &std::path::Path,
) -> crate::code::CodeBook {
    use crate::code::{CodeContext, collect};
    match pr_take {
        _ if quiz.questions.iter().all(|q| q.anchor.is_none()) => crate::code::CodeBook::default(),
        None if args.source.demo => collect(quiz, &CodeContext::Demo),
        None => collect(quiz, &CodeContext::File { cwd }),
        Some(take) => collect(
            quiz,
            &CodeContext::PullRequest {
                pr: &take.pr,
                head_sha: take.pull.as_ref().and_then(|p| p.head_sha.as_deref()),
                cwd,
                conn: (!take.offline).then_some(&take.conn),
                store,
            },
        ),
    }
}

/// The command that grades this quiz's pending open answers later, whole so it can be
/// copied into a shell: a PR's (or the branch's) graded quiz taken again in plain mode
/// grades just what is pending (`g` on the UI's overview does the same); a file's or the
/// demo's by `quizz grade`.
fn grade_later(args: &TakeArgs, pr_take: Option<&PrTake>) -> String {
    match pr_take {
        Some(take) => format!("quizz take {} --plain", take.pr),
        None if args.local.local.is_some() => "quizz take --local --plain".into(),
        None => format!("quizz grade {}", args.source.command_args()),
    }
}

/// The command that carries on with this attempt: the same quiz, without the flags that
/// start over (`--new-attempt`, `--regenerate`, `--generate`).
fn carry_on(args: &TakeArgs, pr_take: Option<&PrTake>) -> String {
    let mut command = match pr_take {
        Some(take) => format!("quizz take {}", take.pr),
        None if args.local.local.is_some() => {
            let mut c = "quizz take --local".to_string();
            if let Some(base) = args.local.local.as_deref().filter(|b| !b.trim().is_empty()) {
                c.push(' ');
                c.push_str(&super::grade::shell_word(std::path::Path::new(base)));
            }
            if args.local.include_uncommitted {
                c.push_str(" --include-uncommitted");
            }
            c
        }
        None => format!("quizz take {}", args.source.command_args()),
    };
    if args.plain {
        command.push_str(" --plain");
    }
    command
}

/// A post the taker asked for failed: the take exits with status 1 (scripts rely on it).
fn post_failed(outcome: TakePost) -> Result<()> {
    if outcome == TakePost::Failed {
        anyhow::bail!("the results were not posted; they wait in the outbox for `quizz post`");
    }
    Ok(())
}

/// Where the full-screen take's results go, and why nowhere when they go nowhere.
fn posting(args: &TakeArgs, pr_take: Option<&PrTake>) -> Posting {
    match (pr_take, args.pr.choice()) {
        (None, _) if args.local.local.is_some() => Posting::Nowhere(NoPost::Local),
        (None, _) if args.source.demo => Posting::Nowhere(NoPost::Demo),
        (None, _) => Posting::Nowhere(NoPost::File),
        (Some(take), _) if take.written_here() => Posting::WrittenHere {
            pr: take.pr.to_string(),
        },
        (Some(_), PostChoice::No) => Posting::Off,
        (Some(take), PostChoice::Yes) => Posting::OnExit {
            pr: take.pr.to_string(),
        },
        (Some(take), PostChoice::Ask) => Posting::OnKey {
            pr: take.pr.to_string(),
        },
    }
}

fn run_tui(
    mut session: Session,
    args: &TakeArgs,
    store: &Store,
    pr_take: Option<&PrTake>,
    code: QuizCode,
    mode: Mode,
    rest: Option<super::generate::Rest>,
) -> Result<()> {
    let waiting = store.outbox_list().len();
    if waiting > 0 {
        session.notes.push(if waiting == 1 {
            "1 result from an earlier take waits to be posted: `quizz status` lists it, `quizz post` sends it.".to_string()
        } else {
            format!(
                "{waiting} results from earlier takes wait to be posted: `quizz status` lists them, `quizz post` sends them."
            )
        });
    }
    let choice = args.pr.choice();
    let posting = posting(args, pr_take);
    let selection = select_grader(&EnvSnapshot::from_process());
    let settings = Settings {
        practice: mode.practice,
        theme: Theme::from_env(),
        mouse: mode.mouse,
        no_grader_why: selection.why_none(),
        grader: selection.grader,
        posting,
        grade_later: grade_later(args, pr_take),
        pr: pr_take.map(pull_request_info),
        code: std::sync::Arc::new(code.book),
        coverage: code.coverage,
        hyperlinks: crate::text::hyperlinks_supported(),
        ask_confidence: mode.confidence,
    };
    let finished = match rest {
        Some(rest) => {
            let read =
                move |quiz: &crate::quiz::Quiz| read_code(args, pr_take, quiz, store, &code.dir);
            crate::tui::run_growing(session, settings, rest.writing, rest.feed, &read)?
        }
        None => crate::tui::run(session, settings)?,
    };
    // The UI caught the ending signals; posting after it must still stop on one.
    crate::signals::exit_on_signals(None);
    // Printed after the UI: posting and outbox lines wrap between words, not inside one.
    let mut out = super::wrapped::Wrapped::new(
        std::io::stdout(),
        crate::text::output_width(std::io::stdout().is_terminal()),
    );
    if let Some(note) = &finished.writing_note {
        writeln!(out, "{}", crate::text::sanitize_line(note))?;
    }
    let Some(results) = &finished.results else {
        if let Some(owner) = finished.session.busy() {
            writeln!(
                out,
                "This window was read-only: the answers are saved by the other quizz ({owner})."
            )?;
        } else {
            writeln!(
                out,
                "Answers saved ({} of {}). To carry on: `{}`.",
                finished.session.answered_count(),
                finished.session.quiz.questions.len(),
                carry_on(args, pr_take)
            )?;
        }
        return Ok(());
    };
    let mut session = finished.session;
    report::print_results(&mut out, &session.quiz, &session.answers(), results)?;
    for (id, reason) in &finished.failures {
        writeln!(
            out,
            "Grading {} failed: {}",
            crate::text::sanitize_line(id),
            crate::text::sanitize_line(reason)
        )?;
    }
    if !results.pending.is_empty() {
        writeln!(
            out,
            "{} pending: grade {} with `{}`.",
            crate::text::plural(results.pending.len(), "open answer", "open answers"),
            if results.pending.len() == 1 {
                "it"
            } else {
                "them"
            },
            grade_later(args, pr_take)
        )?;
    }
    match pr_take {
        Some(take) if take.written_here() => Ok(writeln!(out, "{}", written_here_line(take))?),
        Some(take) => post_after_ui(&mut session, take, results, finished.post, choice, &mut out),
        None => Ok(()),
    }
}

/// The posting step after the UI, where the confirmation was given (or refused): `P` on
/// the results, or --post.
fn post_after_ui(
    session: &mut Session,
    take: &PrTake,
    results: &crate::quiz::Results,
    pressed_post: bool,
    choice: PostChoice,
    out: &mut dyn Write,
) -> Result<()> {
    if pressed_post || choice == PostChoice::Yes {
        let mut no_input = std::io::empty();
        return post_take(session, take, results, PostChoice::Yes, &mut no_input, out);
    }
    if choice != PostChoice::No {
        writeln!(
            out,
            "Not posted. To post these results, run the same command again with --post and submit."
        )?;
    }
    Ok(())
}

fn run_plain(
    mut session: Session,
    args: &TakeArgs,
    store: &Store,
    pr_take: Option<&PrTake>,
    code: &QuizCode,
    mode: Mode,
    mut rest: Option<super::growing::PlainRest>,
) -> Result<()> {
    if let Some(owner) = session.busy() {
        anyhow::bail!(
            "this quiz is open in another quizz ({owner}): finish there, or close it and run this again"
        );
    }
    let stdin = std::io::stdin();
    let can_ask = stdin.is_terminal();
    if args.json && !args.plain && can_ask && std::io::stderr().is_terminal() {
        errln!(
            "--json takes the quiz in plain mode (the line protocol): questions here, on stderr; the results JSON on stdout."
        );
    }
    let mut input = stdin.lock();
    let (prompts, to_terminal): (Box<dyn Write>, bool) = if args.json {
        (Box::new(std::io::stderr()), std::io::stderr().is_terminal())
    } else {
        (Box::new(std::io::stdout()), std::io::stdout().is_terminal())
    };
    // Piped answers are not echoed: what follows a prompt starts on its own line.
    let mut prompts = crate::plain::PromptLines::new(prompts, !can_ask);
    let opts = PlainOptions {
        practice: mode.practice,
        ask_confidence: mode.confidence,
        width: crate::text::output_width(to_terminal),
        can_ask,
        pull_request: pr_take
            .map(|t| {
                std::iter::once(t.header_line())
                    .chain(t.takers_line())
                    .collect()
            })
            .unwrap_or_default(),
        code: code.book.clone(),
        coverage: code.coverage.clone(),
        decor: crate::plain::code::Decor {
            color: to_terminal && !Theme::from_env().no_color,
            hyperlinks: to_terminal && crate::text::hyperlinks_supported(),
        },
    };
    match &rest {
        // The rest being written: what was written is kept with the answers.
        Some(rest) => rest.keep_on_signals(store, &session.origin, session.path()),
        None => crate::plain::say_saved_on_interrupt(),
    }
    super::status::mention_outbox(store, &mut prompts)?;
    let retry = grade_later(args, pr_take);
    let Some((mut results, graded_now)) = plain_results(
        &mut session,
        &mut input,
        &mut prompts,
        &opts,
        &retry,
        &carry_on(args, pr_take),
        rest.as_mut().map(|r| r as &mut dyn crate::plain::Rest),
    )?
    else {
        return Ok(());
    };
    if graded_now {
        results.set_confidence(&session.attempt().confidence);
        session.set_results(&results)?;
        session.flush()?;
    }
    if args.json {
        outln!("{}", results.to_pretty_json());
    } else {
        writeln!(prompts)?;
        report::print_results_at(
            &mut prompts,
            &session.quiz,
            &session.answers(),
            &results,
            opts.width,
        )?;
    }
    let Some(take) = pr_take else {
        return Ok(());
    };
    if take.written_here() {
        writeln!(prompts, "{}", written_here_line(take))?;
        return Ok(());
    }
    if let Some(at) = session.attempt().posted_at.filter(|_| !graded_now) {
        writeln!(
            prompts,
            "These results were posted to {} {}.",
            take.pr,
            crate::text::time_ago(at)
        )?;
        return Ok(());
    }
    post_take(
        &mut session,
        take,
        &results,
        args.pr.choice(),
        &mut input,
        &mut prompts,
    )
}

/// The results of a plain take, and whether they were graded now: a graded attempt's
/// (its pending open answers graded, nothing else), else the questions asked and graded.
/// `None` when the take stopped before grading.
fn plain_results(
    session: &mut Session,
    input: &mut dyn std::io::BufRead,
    prompts: &mut dyn Write,
    opts: &PlainOptions,
    retry: &str,
    carry_on: &str,
    rest: Option<&mut dyn crate::plain::Rest>,
) -> Result<Option<(crate::quiz::Results, bool)>> {
    if let Some(saved) = session.attempt().graded() {
        // Graded already: final, as in the terminal UI.
        show_graded(session, opts, prompts)?;
        let regraded = super::grading::grade_pending(
            &session.quiz,
            &session.answers(),
            &saved,
            prompts,
            retry,
        )?;
        return Ok(Some(match regraded {
            Some(results) => (results, true),
            None => (saved, false),
        }));
    }
    if crate::plain::ask_growing(session, input, prompts, opts, rest)? == Finish::Stop {
        writeln!(
            prompts,
            "Answers saved ({} of {}), not graded. To carry on: `{carry_on}`.",
            session.answered_count(),
            session.quiz.questions.len()
        )?;
        return Ok(None);
    }
    let results = super::grading::grade_take(&session.quiz, &session.answers(), prompts, retry)?;
    Ok(Some((results, true)))
}

/// Posts (or queues) a PR take's results as chosen; exits 1 when a post asked for failed.
fn post_take(
    session: &mut Session,
    take: &PrTake,
    results: &crate::quiz::Results,
    choice: PostChoice,
    input: &mut dyn std::io::BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let stamp = session.attempt().stamp();
    let outcome = super::post::after_take(take, results, stamp.as_ref(), choice, input, out)?;
    if outcome == TakePost::Posted {
        session.mark_posted()?;
    }
    post_failed(outcome)
}

/// The header of a graded attempt taken again: what it is, the pull request, the notes,
/// and how to start again.
fn show_graded(session: &Session, opts: &PlainOptions, out: &mut dyn Write) -> Result<()> {
    use crate::text::{sanitize, wrap_with};
    let attempt = session.attempt();
    let title = format!(
        "Quiz: {} — graded {} ({} of {} answered).",
        session.origin.describe(),
        crate::text::time_ago(
            attempt
                .graded_at_ms
                .map_or(attempt.updated_at, |ms| ms / 1000)
        ),
        session.answered_count(),
        session.quiz.questions.len()
    );
    let mut lines = wrap_with(&sanitize(&title), opts.width, "", "");
    lines.extend(crate::plain::pull_request_lines(
        &opts.pull_request,
        opts.width,
    ));
    for note in &session.notes {
        lines.extend(wrap_with(&sanitize(note), opts.width, "Note: ", "      "));
    }
    lines.extend(wrap_with(
        "This attempt is graded, and final: its results follow, and only open answers still \
         pending are graded. To take the quiz again, add --new-attempt (this score is kept \
         among the earlier attempts).",
        opts.width,
        "",
        "",
    ));
    for line in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
