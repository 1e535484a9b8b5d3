use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::comment::render_results_comment;
use crate::quiz::{Answers, assemble, grade_closed};
use crate::source::{QuizSource, SourceError, read_text};

/// Grade an answers file against a quiz and print the results.
///
/// Closed questions (mcq, tf, mermaid) are graded here; open answers are reported as
/// pending until a grader is available.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz grade --quiz comment.md --answers answers.json\n  quizz grade --quiz quiz.json --answers answers.json --json\n\n\
The answers file is the original Answers model:\n  {\"version\":\"1\",\"pr_number\":7,\"entries\":[{\"question_id\":\"q1\",\"value\":\"<option text>\"}]}\n\
value: the option text (mcq), the label (mermaid), \"true\"/\"false\" (tf), free text (open)."
)]
pub struct GradeArgs {
    /// The quiz: quiz-state JSON or a whole comment in markdown (`-` reads stdin).
    #[arg(long, value_name = "SOURCE")]
    quiz: PathBuf,
    /// The answers file (JSON, the Answers model).
    #[arg(long, value_name = "ANSWERS.json")]
    answers: PathBuf,
    /// Print the results state JSON instead of the markdown results comment.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &GradeArgs) -> Result<()> {
    let loaded = QuizSource::File(args.quiz.clone()).load()?;
    let text = read_text(&args.answers)?;
    let answers = Answers::parse(&text).map_err(|source| SourceError::Format {
        name: args.answers.display().to_string(),
        source,
    })?;
    let results = assemble(&loaded.quiz, &grade_closed(&loaded.quiz, &answers));
    if args.json {
        println!("{}", results.to_pretty_json());
    } else {
        println!("{}", render_results_comment(&results)?);
    }
    if !results.pending.is_empty() {
        eprintln!(
            "note: {} open answer(s) pending ({}): no grader is available in this build yet",
            results.pending.len(),
            results.pending.join(", ")
        );
    }
    Ok(())
}
