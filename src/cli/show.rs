use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::quiz::QuestionKind;
use crate::source::QuizSource;
use crate::text::sanitize;

/// Print a quiz in a readable form, or its normalized state as JSON.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz show comment.md\n  quizz show quiz.json --json | jq '.questions[].id'\n  quizz show comment.md --check\n  pbpaste | quizz show -\n\nExit status: 0 shown (with --check: every check passed), 1 a check failed, 2 unusable input."
)]
pub struct ShowArgs {
    /// Quiz-state JSON or a whole comment in markdown; `-` reads stdin. Omit with --demo.
    #[arg(value_name = "SOURCE", required_unless_present = "demo")]
    source: Option<PathBuf>,
    /// Show the demo quiz compiled into quizz.
    #[arg(long)]
    demo: bool,
    /// Print the normalized quiz state (`version`, `pr_number`, `questions`; unknown fields kept).
    #[arg(long)]
    json: bool,
    /// Check the quiz against the rules quizz holds the quizzes it writes to: unique ids,
    /// 2-10 questions, 3-4 distinct mcq options with the answer among them, rubrics that
    /// list claims, explanations, every diagram drawn as a picture at 75 columns and alike,
    /// and the tells that give an answer away. Lists what fails; exits 1 if anything does.
    #[arg(long, conflicts_with = "json")]
    check: bool,
}

/// Some checks failed (exit status 1): the list is already printed.
#[derive(Debug, thiserror::Error)]
#[error("{0} failed: see the list above")]
struct ChecksFailed(String);

pub fn run(args: &ShowArgs) -> Result<()> {
    let source = match &args.source {
        Some(path) => QuizSource::File(path.clone()),
        None => QuizSource::Demo,
    };
    let loaded = source.load()?;
    if args.json {
        outln!("{}", loaded.quiz.to_pretty_json());
        return Ok(());
    }
    for note in &loaded.notes {
        errln!("note: {}", sanitize(note));
    }
    if args.check {
        return check(&loaded.quiz);
    }
    let quiz = &loaded.quiz;
    let counts: Vec<String> = quiz
        .count_by_type()
        .iter()
        .map(|(t, n)| format!("{n} {t}"))
        .collect();
    let pr = if quiz.pr_number > 0 {
        format!("PR #{}", quiz.pr_number)
    } else {
        "no PR".into()
    };
    outln!(
        "Quiz for {pr}: {} questions ({})",
        quiz.questions.len(),
        counts.join(", ")
    );
    for (i, q) in quiz.questions.iter().enumerate() {
        outln!(
            "\n{}. [{}] {}",
            i + 1,
            sanitize(q.kind.type_name()),
            sanitize(&q.id)
        );
        for line in sanitize(q.prompt.trim()).lines() {
            outln!("   {line}");
        }
        if let Some(anchor) = &q.anchor {
            let lines = match (anchor.start_line, anchor.end_line) {
                (Some(a), Some(b)) => format!(":{a}-{b}"),
                (Some(a), None) => format!(":{a}"),
                _ => String::new(),
            };
            outln!("   at {}{lines}", sanitize(&anchor.path));
        }
        match &q.kind {
            QuestionKind::Mcq { options, .. } => {
                for (n, o) in options.iter().enumerate() {
                    outln!("   {}) {}", n + 1, sanitize(o).replace('\n', " "));
                }
            }
            QuestionKind::TrueFalse { .. } => outln!("   true / false"),
            QuestionKind::Open { .. } => outln!("   (free text, graded against a rubric)"),
            QuestionKind::Mermaid { options, .. } => {
                for o in options {
                    outln!("   Option {}:", sanitize(&o.label));
                    for line in sanitize(&o.source).lines() {
                        outln!("      {line}");
                    }
                }
            }
            QuestionKind::Unsupported { .. } => {
                outln!("   (unsupported question type: shown only, not counted)");
            }
        }
    }
    Ok(())
}

fn check(quiz: &crate::quiz::Quiz) -> Result<()> {
    let findings = crate::generate::check_quality(quiz);
    let questions = crate::text::plural(quiz.questions.len(), "question", "questions");
    if findings.is_empty() {
        outln!("{questions}: every check passed");
        return Ok(());
    }
    let failed = crate::text::plural(findings.len(), "check", "checks");
    outln!("{questions}: {failed} failed");
    for f in &findings {
        outln!("  ✗ {}", sanitize(&f.to_string()).replace('\n', " "));
    }
    Err(ChecksFailed(failed).into())
}
