use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;

use super::{SourceArgs, report, wants_plain};
use crate::grade::{EnvSnapshot, select_grader};
use crate::session::Session;
use crate::store::{Origin, Store};
use crate::tui::Settings;
use crate::tui::theme::Theme;

/// Take a quiz: answer every question, then grade and see the results.
///
/// Answers are saved as they are given: an interrupted take resumes where it stopped.
/// Plain mode (a line protocol for screen readers, pipes and scripts) is used with
/// --plain, when stdin or stdout is not a terminal, or when TERM=dumb.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz take --demo\n  quizz take --file comment.md\n  printf '1\\nf\\n\\n' | quizz take --demo --plain --json > results.json\n\n\
Plain protocol: each question is printed with numbered options; type the option number (mcq),\n\
t/f/true/false (tf), the label or its number (mermaid), or lines of text ended by a line\n\
holding only '.' (open). An empty line leaves a question as it is; end of input stops early."
)]
pub struct TakeArgs {
    #[command(flatten)]
    source: SourceArgs,
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
    let loaded = args.source.source()?.load()?;
    let store = Store::open_default()?;
    let session = Session::open(store, loaded).context("cannot open the saved answers")?;
    if wants_plain(args.plain || args.json) {
        run_plain(session, args)
    } else {
        run_tui(session, args)
    }
}

fn run_tui(session: Session, args: &TakeArgs) -> Result<()> {
    let after_grading = match &session.origin {
        Origin::Demo => "not posted: the demo quiz has no pull request.".to_string(),
        Origin::File(_) => {
            "not posted: a quiz from a file has no pull request to post to.".to_string()
        }
        Origin::PullRequest { .. } => {
            "not posted: posting to GitHub is not available in this version.".to_string()
        }
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
        grade_later: format!("quizz grade {}", args.source.command_args()),
    };
    let app = crate::tui::run(session, settings, selection.grader)?;
    let mut out = std::io::stdout();
    match &app.results {
        Some(results) => {
            report::print_results(&mut out, &app.session.quiz, &app.session.answers(), results)?;
        }
        None => writeln!(
            out,
            "Answers saved ({} of {}). Run the same command to carry on.",
            app.session.answered_count(),
            app.session.quiz.questions.len()
        )?,
    }
    Ok(())
}

fn run_plain(mut session: Session, args: &TakeArgs) -> Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut prompts: Box<dyn Write> = if args.json {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    };
    crate::plain::ask_all(&mut session, &mut input, &mut prompts)?;

    let retry = format!("quizz grade {}", args.source.command_args());
    let results =
        super::grading::grade_take(&session.quiz, &session.answers(), &mut prompts, &retry)?;
    session.set_results(&results)?;
    if args.json {
        println!("{}", results.to_pretty_json());
    } else {
        writeln!(prompts)?;
        report::print_results(&mut prompts, &session.quiz, &session.answers(), &results)?;
    }
    Ok(())
}
