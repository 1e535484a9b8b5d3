use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;

use super::{SourceArgs, report, wants_plain};
use crate::session::Session;
use crate::store::Store;

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
}

pub fn run(args: &TakeArgs) -> Result<()> {
    let loaded = args.source.source()?.load()?;
    let store = Store::open_default()?;
    let mut session = Session::open(store, loaded).context("cannot open the saved answers")?;
    // The full-screen UI is not built yet: every take uses the line protocol for now.
    let _ = wants_plain(args.plain);
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
