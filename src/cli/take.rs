use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;

use super::pr::PrArgs;
use super::{SourceArgs, report, wants_plain};
use crate::quiz::{assemble, grade_closed};
use crate::session::Session;
use crate::store::Store;

/// Take a quiz: answer every question, then grade and see the results.
///
/// Answers are saved as they are given: an interrupted take resumes where it stopped.
/// Plain mode (a line protocol for screen readers, pipes and scripts) is used with
/// --plain, when stdin or stdout is not a terminal, or when TERM=dumb.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz take                                   the quiz on the current branch's PR\n  quizz take 7 --repo octo/app                 PR 7 of octo/app\n  quizz take https://github.com/octo/app/pull/7 --plain --post\n  quizz take --demo\n  quizz take --file comment.md\n  printf '1\\nf\\n\\n' | quizz take --demo --plain --json > results.json\n\n\
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
    let mut session =
        Session::open(store.clone(), loaded).context("cannot open the saved answers")?;
    // The full-screen UI is not built yet: every take uses the line protocol for now.
    let _ = wants_plain(args.plain);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut prompts: Box<dyn Write> = if args.json {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    };
    super::status::mention_outbox(&store, &mut prompts)?;
    crate::plain::ask_all(&mut session, &mut input, &mut prompts)?;

    let results = assemble(
        &session.quiz,
        &grade_closed(&session.quiz, &session.answers()),
    );
    session.set_results(&results)?;
    if args.json {
        println!("{}", results.to_pretty_json());
    } else {
        writeln!(prompts)?;
        report::print_results(&mut prompts, &session.quiz, &session.answers(), &results)?;
    }
    if let Some(take) = &pr_take {
        super::post::after_take(take, &results, args.pr.choice(), &mut input, &mut prompts)?;
    }
    Ok(())
}
