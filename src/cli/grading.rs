//! Grading with progress lines, shared by `take` (plain mode) and `grade`.

use std::io::{IsTerminal, Write};

use anyhow::Result;

use crate::grade::{
    BackendKind, DEFAULT_CONCURRENCY, EnvSnapshot, GRADER_SETUP, GradeEvent, Selection,
    grade_blocking, keep_previous, select_grader,
};
use crate::quiz::{Answers, Outcome, QuestionKind, Quiz, Results, assemble, grade_closed};
use crate::text::{output_width, plural, sanitize_line, wrap_with};

/// What grading did, for the caller's summary and exit status.
pub struct Graded {
    pub outcomes: Vec<Outcome>,
    /// Open answers whose grading failed (they stay pending).
    pub failed: Vec<String>,
}

/// Grades a take: every open answer through the environment's backend (if any), with
/// progress lines on `out`; returns the results to save and show.
pub fn grade_take(
    quiz: &Quiz,
    answers: &Answers,
    out: &mut dyn Write,
    retry_command: &str,
) -> Result<Results> {
    let closed = grade_closed(quiz, answers);
    let selection = select_grader(&EnvSnapshot::from_process());
    let graded = grade_with_progress(quiz, answers, &closed, &selection, DEFAULT_CONCURRENCY, out)?;
    summarise(&graded, &selection, out, Some(retry_command))?;
    Ok(assemble(quiz, &graded.outcomes))
}

/// Grades the open answers a graded attempt still has pending, keeping every grade it has;
/// `None` when nothing changed (nothing pending, no grader, or every call failed), so the
/// saved results stay as they are.
pub fn grade_pending(
    quiz: &Quiz,
    answers: &Answers,
    saved: &Results,
    out: &mut dyn Write,
    retry_command: &str,
) -> Result<Option<Results>> {
    if saved.pending.is_empty() {
        return Ok(None);
    }
    let previous = keep_previous(quiz, answers, &saved.outcomes(quiz));
    let selection = select_grader(&EnvSnapshot::from_process());
    let graded = grade_with_progress(
        quiz,
        answers,
        &previous,
        &selection,
        DEFAULT_CONCURRENCY,
        out,
    )?;
    summarise(&graded, &selection, out, Some(retry_command))?;
    let results = assemble(quiz, &graded.outcomes);
    Ok((results.pending.len() < saved.pending.len()).then_some(results))
}

/// Grades the open answers still pending in `previous`, printing a line when each starts,
/// ends, or fails. With no backend, says so and leaves them pending.
pub fn grade_with_progress(
    quiz: &Quiz,
    answers: &Answers,
    previous: &[Outcome],
    selection: &Selection,
    concurrency: usize,
    out: &mut dyn Write,
) -> Result<Graded> {
    let to_grade = quiz
        .questions
        .iter()
        .zip(previous)
        .filter(|(q, o)| {
            matches!(q.kind, QuestionKind::Open { .. })
                && **o == Outcome::Pending
                && answers.get(&q.id).is_some()
        })
        .count();
    let Some(grader) = selection
        .grader
        .as_ref()
        .map(|g| g.grader.clone())
        .filter(|_| to_grade > 0)
    else {
        return Ok(Graded {
            outcomes: keep_previous(quiz, answers, previous),
            failed: Vec::new(),
        });
    };
    let concurrency = concurrency.max(1);
    writeln!(
        out,
        "Grading {} with {} (model {}), {} at a time…",
        plural(to_grade, "open answer", "open answers"),
        describe(selection),
        sanitize_line(&selection.model),
        concurrency.min(to_grade)
    )?;
    out.flush()?;
    let mut failed = Vec::new();
    let mut write_error = None;
    let outcomes = grade_blocking(quiz, answers, previous, grader, concurrency, |event| {
        let line = match event {
            GradeEvent::Started { question_id } => {
                format!("  grading {}…", sanitize_line(question_id))
            }
            GradeEvent::Finished {
                question_id,
                outcome: Ok(grade),
            } => format!("  graded  {}: {}%", sanitize_line(question_id), grade.score),
            GradeEvent::Finished {
                question_id,
                outcome: Err(e),
            } => {
                failed.push(question_id.clone());
                format!("  failed  {}: {}", sanitize_line(question_id), e.to_line())
            }
        };
        if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
            write_error.get_or_insert(e);
        }
    })?;
    if let Some(e) = write_error {
        return Err(e.into());
    }
    Ok(Graded { outcomes, failed })
}

/// The closing lines: what stays pending and the command that grades just those
/// (`None`: the command that is running, which is then said to run again).
pub fn summarise(
    graded: &Graded,
    selection: &Selection,
    out: &mut dyn Write,
    retry_command: Option<&str>,
) -> Result<()> {
    let width = output_width(std::io::stdout().is_terminal() || std::io::stderr().is_terminal());
    let (note, then) = if !graded.failed.is_empty() {
        let ids: Vec<String> = graded.failed.iter().map(|i| sanitize_line(i)).collect();
        let note = format!(
            "{} could not be graded ({}); {} pending.",
            plural(ids.len(), "open answer", "open answers"),
            ids.join(", "),
            if ids.len() == 1 {
                "it stays"
            } else {
                "they stay"
            }
        );
        let then = match retry_command {
            Some(command) => format!("Re-grade just those with: {command}"),
            None => "Run this command again to re-grade just those.".to_string(),
        };
        (note, then)
    } else if selection.backend == BackendKind::None && graded.outcomes.contains(&Outcome::Pending)
    {
        // QUIZZ_GRADER's own reason (turned off, or its backend is missing); else the ways.
        let note = match selection.reasons.last().filter(|_| selection.forced) {
            Some(why) => format!(
                "no grader for open answers ({}): they stay pending.",
                sanitize_line(why)
            ),
            None => format!(
                "no grader for open answers: they stay pending. To grade them, {GRADER_SETUP}."
            ),
        };
        let then = match retry_command {
            Some(command) => format!("`quizz doctor` says more; then grade them with: {command}"),
            None => "`quizz doctor` says more; then run this command again.".to_string(),
        };
        (note, then)
    } else {
        return Ok(());
    };
    for line in wrap_with(&note, width, "note: ", "      ") {
        writeln!(out, "{line}")?;
    }
    // The line with the command is not wrapped: the command stays whole, to be copied.
    writeln!(out, "      {then}")?;
    Ok(())
}

fn describe(selection: &Selection) -> String {
    match selection.backend {
        BackendKind::ClaudeCli => format!(
            "the claude CLI ({})",
            selection
                .claude_bin
                .as_deref()
                .map_or_else(String::new, |p| sanitize_line(&p.display().to_string()))
        ),
        BackendKind::AnthropicApiKey | BackendKind::AnthropicBearer => {
            format!("the Messages API at {}", sanitize_line(&selection.base_url))
        }
        BackendKind::None => "no grader".into(),
    }
}
