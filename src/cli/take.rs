use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;

use super::pr::{PostChoice, PrArgs};
use super::{SourceArgs, report, wants_plain};
use crate::github::PrTake;
use crate::grade::{EnvSnapshot, select_grader};
use crate::session::Session;
use crate::store::{Origin, Store};
use crate::tui::Settings;
use crate::tui::app::Exit;
use crate::tui::theme::Theme;

/// Take a quiz: answer every question, then grade and see the results.
///
/// Answers are saved as they are given: an interrupted take resumes where it stopped.
/// Plain mode (a line protocol for screen readers, pipes and scripts) is used with
/// --plain, when stdin or stdout is not a terminal, or when TERM=dumb.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz take                                   the quiz on the current branch's PR\n  quizz take 7 --repo octo/app                 PR 7 of octo/app\n  quizz take https://github.com/octo/app/pull/7 --plain --post\n  quizz take --demo\n  quizz take --demo --practice                 see right or wrong as you answer\n  quizz take --file comment.md\n  printf '1\\nf\\n\\n' | quizz take --demo --plain --json > results.json\n\n\
Plain protocol: each question is printed with numbered options; type the option number (mcq),\n\
t/f/true/false (tf), the label or its number (mermaid), or lines of text ended by a line\n\
holding only '.' (open). An empty line leaves a question as it is; end of input stops early."
)]
pub struct TakeArgs {
    #[command(flatten)]
    source: SourceArgs,
    #[command(flatten)]
    pr: PrArgs,
    /// Use the line protocol instead of the full-screen UI.
    #[arg(long)]
    plain: bool,
    /// Print the results state as JSON on stdout (everything else goes to stderr).
    #[arg(long)]
    json: bool,
    /// Practice: show right or wrong, and the explanation, as soon as you answer.
    #[arg(long)]
    practice: bool,
}

pub fn run(args: &TakeArgs) -> Result<()> {
    let store = Store::open_default()?;
    let from_pr = !args.source.demo && args.source.file.is_none();
    let pr_take = if from_pr {
        let cwd = std::env::current_dir()?;
        Some(crate::github::open_take(
            &args.pr.options(),
            store.clone(),
            &cwd,
        )?)
    } else {
        None
    };
    let loaded = match &pr_take {
        Some(t) => t.loaded.clone(),
        None => args.source.source()?.load()?,
    };
    let session = Session::open(store.clone(), loaded).context("cannot open the saved answers")?;
    if wants_plain(args.plain || args.json) {
        run_plain(session, args, &store, pr_take.as_ref())
    } else {
        run_tui(session, args, &store, pr_take.as_ref())
    }
}

/// The command that grades this quiz's pending open answers later.
fn grade_later(args: &TakeArgs) -> String {
    format!("quizz grade {}", args.source.command_args())
}

fn run_tui(
    mut session: Session,
    args: &TakeArgs,
    store: &Store,
    pr_take: Option<&PrTake>,
) -> Result<()> {
    let mut waiting = Vec::new();
    super::status::mention_outbox(store, &mut waiting)?;
    session.notes.extend(
        String::from_utf8_lossy(&waiting)
            .lines()
            .map(|l| l.trim_start_matches("Note: ").to_string()),
    );
    let choice = args.pr.choice();
    let (after_grading, can_post) = match (&session.origin, pr_take, choice) {
        (Origin::Demo, ..) => (
            "not posted: the demo quiz has no pull request.".to_string(),
            false,
        ),
        (Origin::File(_), ..) => (
            "not posted: a quiz from a file has no pull request to post to.".to_string(),
            false,
        ),
        (_, Some(take), PostChoice::Yes) => (
            format!("posted to {} when you quit (--post).", take.pr),
            false,
        ),
        (_, _, PostChoice::No) => ("not posted (--no-post).".to_string(), false),
        (_, Some(take), PostChoice::Ask) => (
            format!(
                "press P to post these results to {} and quit; q quits without posting.",
                take.pr
            ),
            true,
        ),
        (_, None, _) => ("not posted.".to_string(), false),
    };
    let selection = select_grader(&EnvSnapshot::from_process());
    let grader_label = match &selection.grader {
        Some(_) => format!(
            "{} · model {}",
            selection.backend.describe(),
            selection.model
        ),
        None => "no grader configured: open answers stay pending (see quizz doctor)".to_string(),
    };
    let settings = Settings {
        practice: args.practice,
        theme: Theme::from_env(),
        grader_label,
        grader_available: selection.grader.is_some(),
        after_grading,
        grade_later: grade_later(args),
        can_post,
    };
    let app = crate::tui::run(session, settings, selection.grader)?;
    let mut out = std::io::stdout();
    let Some(results) = &app.results else {
        writeln!(
            out,
            "Answers saved ({} of {}). Run the same command to carry on.",
            app.session.answered_count(),
            app.session.quiz.questions.len()
        )?;
        return Ok(());
    };
    report::print_results(&mut out, &app.session.quiz, &app.session.answers(), results)?;
    if let Some(take) = pr_take {
        // The confirmation was given (or refused) in the UI: P on the results, or --post.
        let confirmed = app.exit == Some(Exit::QuitAndPost) || choice == PostChoice::Yes;
        if confirmed {
            let mut no_input = std::io::empty();
            super::post::after_take(take, results, PostChoice::Yes, &mut no_input, &mut out)?;
        } else if choice != PostChoice::No {
            writeln!(
                out,
                "Not posted. To post these results, run the same command again with --post and submit."
            )?;
        }
    }
    Ok(())
}

fn run_plain(
    mut session: Session,
    args: &TakeArgs,
    store: &Store,
    pr_take: Option<&PrTake>,
) -> Result<()> {
    if let Some(owner) = session.busy() {
        anyhow::bail!(
            "this quiz is open in another quizz ({owner}): finish there, or close it and run this again"
        );
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut prompts: Box<dyn Write> = if args.json {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    };
    super::status::mention_outbox(store, &mut prompts)?;
    crate::plain::ask_all(&mut session, &mut input, &mut prompts)?;

    let results = super::grading::grade_take(
        &session.quiz,
        &session.answers(),
        &mut prompts,
        &grade_later(args),
    )?;
    session.set_results(&results)?;
    session.flush()?;
    if args.json {
        outln!("{}", results.to_pretty_json());
    } else {
        writeln!(prompts)?;
        report::print_results(&mut prompts, &session.quiz, &session.answers(), &results)?;
    }
    if let Some(take) = pr_take {
        super::post::after_take(take, &results, args.pr.choice(), &mut input, &mut prompts)?;
    }
    Ok(())
}
