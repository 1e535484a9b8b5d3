//! The command line: arguments, dispatch, and how errors become exit codes.

/// `println!` that returns the error instead of panicking, so a closed pipe
/// (`quizz show --demo | head -1`) ends the command quietly; secrets are masked.
macro_rules! outln {
    () => {
        outln!("")
    };
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let line = format!($($arg)*);
        writeln!(std::io::stdout(), "{}", $crate::redact::redact(&line))?;
    }};
}

/// `eprintln!` that never panics: a closed or broken stderr (`2>&-`, a reader that went
/// away, a terminal that hung up) loses the line, not the exit status; secrets are masked,
/// and at a terminal the line wraps between words ([`err_line`]).
macro_rules! errln {
    () => {
        errln!("")
    };
    ($($arg:tt)*) => {{
        $crate::cli::err_line(&format!($($arg)*));
    }};
}

mod auth;
mod completions;
mod doctor;
mod fetch;
mod generate;
mod generate_pr;
mod grade;
mod grading;
mod growing;
mod mermaid;
mod post;
mod pr;
mod report;
mod results;
mod show;
mod status;
mod take;
mod wrapped;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::comment::CommentError;
use crate::quiz::FormatError;
use crate::source::{QuizSource, SourceError};

#[derive(Parser)]
#[command(
    name = "quizz",
    version,
    about = "Take a quiz on your pull request in the terminal (the bot's, or one quizz writes from the diff), and grade it.",
    long_about = "Take the quiz on your pull request, right in the terminal, and grade it: the one a bot posted, \
        or one quizz has an LLM write from the diff (of the PR, or of your branch before you push).\n\n\
        A quiz is the JSON state inside a bot comment's `<details><summary>Quiz state (used by the CLI)</summary>` \
        block; quizz reads it from the whole comment (as posted, or copied from the rendered page) or from the bare JSON.",
    after_help = "Examples:\n  \
        quizz take                  the quiz on the current branch's pull request\n  \
        quizz take 7                the quiz on PR 7 of this repository (none? quizz offers to write one)\n  \
        quizz take --demo           the built-in demo quiz\n  \
        quizz take --file quiz.md   a quiz saved from a PR comment\n  \
        quizz take --local          no bot? quiz yourself on this branch's change\n  \
        quizz generate --local      write that quiz (JSON) without taking it\n  \
        quizz generate 7            write PR 7's quiz from its diff\n  \
        quizz show quiz.md --json   the normalized quiz state\n  \
        quizz grade --demo          grade the saved answers (open ones by an LLM)\n  \
        quizz status                attempts in progress, results waiting\n  \
        quizz doctor                which LLM grader is used, and why\n  \
        quizz grade --quiz quiz.md --answers answers.json\n\n\
        Exit status: 0 ok, 1 runtime failure, 2 unusable input or arguments."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Take(take::TakeArgs),
    Show(show::ShowArgs),
    Grade(grade::GradeArgs),
    Doctor(doctor::DoctorArgs),
    Fetch(fetch::FetchArgs),
    Generate(generate::GenerateArgs),
    Post(post::PostArgs),
    Status(status::StatusArgs),
    Results(results::ResultsArgs),
    Auth(auth::AuthArgs),
    Mermaid(mermaid::MermaidArgs),
    Completions(completions::CompletionsArgs),
    Man(completions::ManArgs),
}

/// Where a command reads its quiz: the demo, a file, or `-` for stdin.
#[derive(Args, Debug, Clone)]
pub struct SourceArgs {
    /// Use the demo quiz compiled into quizz (PR #7, all four question types).
    #[arg(long, conflicts_with = "file")]
    demo: bool,
    /// A quiz file: quiz-state JSON, or a whole comment in markdown (`-` reads stdin).
    #[arg(long, short = 'f', value_name = "SOURCE")]
    file: Option<PathBuf>,
}

impl SourceArgs {
    /// The arguments that name this quiz again on a command line (`--demo`, `--file X`).
    fn command_args(&self) -> String {
        match &self.file {
            Some(path) => format!("--file {}", grade::shell_word(path)),
            None => "--demo".to_string(),
        }
    }

    fn source(&self) -> Result<QuizSource, SourceError> {
        match (&self.file, self.demo) {
            (Some(path), _) => Ok(QuizSource::File(path.clone())),
            (None, true) => Ok(QuizSource::Demo),
            (None, false) => Err(SourceError::Read {
                name: "quiz".into(),
                cause: std::io::Error::other(
                    "say which quiz to use: --demo, or --file SOURCE (a quiz file or a saved comment)",
                ),
            }),
        }
    }
}

/// Writes `question` (ending in `[y/N] `), reads one line, and says whether it was y or
/// yes (anything else, or the end of input, is no).
pub(crate) fn ask_yes_no(
    question: &str,
    input: &mut dyn std::io::BufRead,
    out: &mut dyn std::io::Write,
) -> std::io::Result<bool> {
    write!(out, "{question}")?;
    out.flush()?;
    let mut line = String::new();
    input.read_line(&mut line)?;
    Ok(matches!(
        line.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    crate::logging::init();
    let outcome = match cli.command {
        Command::Take(args) => take::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Grade(args) => grade::run(&args),
        Command::Doctor(args) => doctor::run(&args),
        Command::Fetch(args) => fetch::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Post(args) => post::run(&args),
        Command::Status(args) => status::run(&args),
        Command::Results(args) => results::run(&args),
        Command::Auth(args) => auth::run(&args),
        Command::Mermaid(args) => mermaid::run(&args),
        Command::Completions(args) => completions::run_completions(&args),
        Command::Man(args) => completions::run_man(&args),
    };
    match outcome {
        // The UI closed on a signal (`kill -TERM`): 128 + its number, as a shell says it.
        Ok(()) => crate::signals::received().map_or(ExitCode::SUCCESS, |number| {
            u8::try_from(128 + number).map_or(ExitCode::FAILURE, ExitCode::from)
        }),
        // The reader went away (`| head`): nothing to say, as git and gh do.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // Each cause once: errors here say their cause or chain it, never both.
            errln!(
                "quizz: error: {}",
                crate::text::sanitize(&format!("{err:#}"))
            );
            ExitCode::from(exit_code(&err))
        }
    }
}

/// One line on stderr, secrets masked. At a terminal it wraps between words to the
/// terminal's width, as plain output on stdout does; in a pipe or a log each line stays
/// whole, for whatever reads it line by line.
pub(crate) fn err_line(line: &str) {
    use std::io::Write as _;
    let line = crate::redact::redact(line);
    let mut err = std::io::stderr().lock();
    let _ = if err.is_terminal() {
        let width = crate::text::output_width(true);
        writeln!(err, "{}", crate::text::wrap(&line, width).join("\n"))
    } else {
        writeln!(err, "{line}")
    };
}

/// Arguments that cannot be used together, or input that cannot be used (exit status 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct UsageError(pub String);

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// 2 when the input or the arguments cannot be used, 1 for failures while running.
fn exit_code(err: &anyhow::Error) -> u8 {
    let unusable = err.chain().any(|c| {
        c.is::<SourceError>()
            || c.is::<UsageError>()
            || c.is::<CommentError>()
            || c.is::<FormatError>()
            || c.is::<crate::github::ResolveError>()
            || c.downcast_ref::<crate::github::PrError>()
                .is_some_and(crate::github::PrError::is_usage)
    });
    if unusable { 2 } else { 1 }
}

/// Plain mode when asked, or when a full-screen UI cannot work here.
fn wants_plain(asked: bool) -> bool {
    asked
        || !std::io::stdin().is_terminal()
        || !std::io::stdout().is_terminal()
        || std::env::var_os("TERM").is_some_and(|t| t == "dumb")
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use crate::store::StoreError;

    /// A store error says its cause, and the whole chain printed as the edge prints it says
    /// it once (a cause both shown and chained was once stripped by matching texts).
    #[test]
    fn each_cause_is_said_once() {
        let io = std::io::Error::other("disk full");
        let store = StoreError::Write {
            path: PathBuf::from("x"),
            cause: io,
        };
        assert!(std::error::Error::source(&store).is_none());
        let err = anyhow::Error::new(store).context("cannot save the answers");
        assert_eq!(
            format!("{err:#}"),
            "cannot save the answers: cannot write x: disk full"
        );
    }
}
