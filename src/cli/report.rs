//! Results for a terminal: one line per question, what was expected where it was missed.

use std::io::{IsTerminal, Write};

use crate::quiz::{Answers, QuestionKind, Quiz, Results};
use crate::text::{display_width, output_width, plural, sanitize, sanitize_line, wrap_with};

/// [`print_results_at`] wrapped to the terminal's width (80 when stdout is not a terminal).
pub fn print_results(
    out: &mut dyn Write,
    quiz: &Quiz,
    answers: &Answers,
    results: &Results,
) -> std::io::Result<()> {
    let width = output_width(std::io::stdout().is_terminal());
    print_results_at(out, quiz, answers, results, width)
}

/// Every question's outcome; answers, expected answers, feedback and explanations are
/// printed whole (never cut), wrapped at word boundaries to `width` columns.
pub fn print_results_at(
    out: &mut dyn Write,
    quiz: &Quiz,
    answers: &Answers,
    results: &Results,
    width: usize,
) -> std::io::Result<()> {
    let correct = results.per_question.iter().filter(|r| r.correct).count();
    let mut head = format!(
        "Results: {}% — {correct} of {} correct",
        results.total_score,
        quiz.questions.len()
    );
    if !results.pending.is_empty() {
        head.push_str(&format!(
            " (provisional: {} not graded yet)",
            plural(results.pending.len(), "open answer", "open answers")
        ));
    }
    labelled(out, "", &head, width)?;
    if let Some(line) = results.calibration_line() {
        labelled(out, "", &line, width)?;
    }
    for (i, q) in quiz.questions.iter().enumerate() {
        let id = sanitize_line(&q.id);
        let n = i + 1;
        if let Some(r) = results.result(&q.id) {
            let mark = if r.correct { "✓ right" } else { "✗ wrong" };
            let flag = r
                .calibration()
                .map_or_else(String::new, |c| format!("  ({})", c.label()));
            writeln!(out, "  {n}. {mark:<8} {id:<6} {:>3}%{flag}", r.score)?;
            if !r.correct {
                let given = answers
                    .get(&q.id)
                    .map_or_else(|| "(no answer)".to_string(), |a| sanitize(a).into_owned());
                labelled(out, "       your answer: ", &given, width)?;
                if let Some(expected) = q.kind.expected_value() {
                    labelled(out, "       correct:     ", &sanitize(&expected), width)?;
                }
            }
            if !r.feedback.trim().is_empty() {
                labelled(
                    out,
                    "       feedback:    ",
                    &sanitize(r.feedback.trim()),
                    width,
                )?;
            }
            if let (false, Some(explanation)) = (r.correct, &q.explanation) {
                labelled(
                    out,
                    "       why:         ",
                    &sanitize(explanation.trim()),
                    width,
                )?;
            }
        } else if results.pending.contains(&q.id) {
            writeln!(
                out,
                "  {n}. … pending {id:<6}   open answer, not graded yet"
            )?;
        } else if let QuestionKind::Unsupported { type_name } = &q.kind {
            writeln!(
                out,
                "  {n}. – skipped {id:<6}   type {:?} is not supported; not counted",
                sanitize_line(type_name)
            )?;
        }
    }
    Ok(())
}

/// `label` then `text` (all its lines) wrapped to `width`, continuation lines indented
/// under the text.
fn labelled(out: &mut dyn Write, label: &str, text: &str, width: usize) -> std::io::Result<()> {
    let hang = " ".repeat(display_width(label));
    for line in wrap_with(text, width, label, &hang) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
