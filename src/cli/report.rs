//! Results for a terminal: one line per question, what was expected where it was missed.

use std::io::Write;

use crate::quiz::{Answers, QuestionKind, Quiz, Results};
use crate::text::sanitize_line;

pub fn print_results(
    out: &mut dyn Write,
    quiz: &Quiz,
    answers: &Answers,
    results: &Results,
) -> std::io::Result<()> {
    let correct = results.per_question.iter().filter(|r| r.correct).count();
    write!(
        out,
        "Results: {}% — {correct} of {} correct",
        results.total_score,
        quiz.questions.len()
    )?;
    if results.pending.is_empty() {
        writeln!(out)?;
    } else {
        writeln!(
            out,
            " (provisional: {} open answer(s) not graded yet)",
            results.pending.len()
        )?;
    }
    for (i, q) in quiz.questions.iter().enumerate() {
        let id = sanitize_line(&q.id);
        let n = i + 1;
        if let Some(r) = results.result(&q.id) {
            let mark = if r.correct { "✓ right" } else { "✗ wrong" };
            writeln!(out, "  {n}. {mark:<8} {id:<6} {:>3}%", r.score)?;
            if !r.correct {
                let given = answers
                    .get(&q.id)
                    .map_or_else(|| "(no answer)".to_string(), sanitize_line);
                writeln!(out, "       your answer: {}", shorten(&given))?;
                if let Some(expected) = q.kind.expected_value() {
                    writeln!(
                        out,
                        "       correct:     {}",
                        shorten(&sanitize_line(&expected))
                    )?;
                }
            }
            if !r.feedback.trim().is_empty() {
                writeln!(out, "       feedback:    {}", sanitize_line(&r.feedback))?;
            }
            if let (false, Some(explanation)) = (r.correct, &q.explanation) {
                writeln!(out, "       why:         {}", sanitize_line(explanation))?;
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

fn shorten(text: &str) -> String {
    const MAX: usize = 110;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let cut: String = text.chars().take(MAX).collect();
    format!("{cut}…")
}
