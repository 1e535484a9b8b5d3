//! The line protocol: questions as numbered text, answers as typed lines.
//!
//! For screen readers, pipes and scripts. Every answer is saved through the session as
//! soon as it is entered, exactly like the TUI does.

use std::io::{BufRead, Write};

use anyhow::Result;

use crate::quiz::{Question, QuestionKind, parse_bool};
use crate::session::Session;
use crate::text::sanitize;

/// Asks every question in order; returns when the last one is answered or input ends.
pub fn ask_all(session: &mut Session, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    let total = session.quiz.questions.len();
    let counts: Vec<String> = session
        .quiz
        .count_by_type()
        .iter()
        .map(|(t, n)| format!("{n} {t}"))
        .collect();
    writeln!(
        out,
        "Quiz: {} — {total} questions ({}).",
        session.origin.describe(),
        counts.join(", ")
    )?;
    for note in &session.notes {
        writeln!(out, "Note: {}", sanitize(note))?;
    }
    let answered = session.answered_count();
    if answered > 0 {
        writeln!(
            out,
            "Resuming: {answered} of {total} answered; an empty line keeps a saved answer."
        )?;
    }
    writeln!(
        out,
        "An empty line leaves a question as it is. End of input stops early."
    )?;
    for index in 0..total {
        session.set_current(index);
        let Some(question) = session.question(index).cloned() else {
            break;
        };
        print_question(out, &question, index, total, session.answer(&question.id))?;
        let answer = match &question.kind {
            QuestionKind::Unsupported { .. } => continue,
            QuestionKind::Open { .. } => read_open(input, out)?,
            _ => read_choice(input, out, &question)?,
        };
        match answer {
            Entry::Value(v) => {
                session.set_answer(&question.id, Some(v))?;
                session.flush()?;
            }
            Entry::Skip => {}
            Entry::EndOfInput => {
                writeln!(
                    out,
                    "\n(input ended: the remaining questions stay as they are)"
                )?;
                break;
            }
        }
    }
    Ok(())
}

enum Entry {
    Value(String),
    Skip,
    EndOfInput,
}

fn kind_label(kind: &QuestionKind) -> String {
    match kind {
        QuestionKind::Mcq { .. } => "multiple choice".into(),
        QuestionKind::TrueFalse { .. } => "true or false".into(),
        QuestionKind::Open { .. } => "open answer".into(),
        QuestionKind::Mermaid { .. } => "pick the diagram".into(),
        QuestionKind::Unsupported { type_name } => {
            format!("unsupported type {:?}", sanitize(type_name))
        }
    }
}

fn print_question(
    out: &mut dyn Write,
    q: &Question,
    index: usize,
    total: usize,
    saved: Option<&str>,
) -> Result<()> {
    writeln!(
        out,
        "\n── Question {} of {total} · {} · {} ──",
        index + 1,
        kind_label(&q.kind),
        sanitize(&q.id)
    )?;
    writeln!(out, "{}", sanitize(q.prompt.trim()))?;
    match &q.kind {
        QuestionKind::Mcq { options, .. } => {
            writeln!(out)?;
            for (i, o) in options.iter().enumerate() {
                writeln!(out, "  {}) {}", i + 1, sanitize(o).replace('\n', " "))?;
            }
        }
        QuestionKind::TrueFalse { .. } => writeln!(out, "\n  t) true\n  f) false")?,
        QuestionKind::Mermaid { options, .. } => {
            for (i, o) in options.iter().enumerate() {
                writeln!(out, "\n  {}) Option {}:", i + 1, sanitize(&o.label))?;
                for line in sanitize(&o.source).lines() {
                    writeln!(out, "      {line}")?;
                }
            }
        }
        QuestionKind::Open { .. } => {}
        QuestionKind::Unsupported { .. } => {
            writeln!(
                out,
                "(This question type is not supported by this quizz: skipped, not counted.)"
            )?;
        }
    }
    if let Some(saved) = saved.filter(|s| !s.trim().is_empty()) {
        let shown = match &q.kind {
            QuestionKind::Mcq { options, .. } => options
                .iter()
                .position(|o| o == saved)
                .map_or_else(|| saved.to_string(), |i| format!("{}) {saved}", i + 1)),
            _ => saved.to_string(),
        };
        writeln!(out, "Saved answer: {}", sanitize(&shown))?;
    }
    Ok(())
}

fn read_line(input: &mut dyn BufRead) -> Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim_end_matches(['\n', '\r']).to_string()))
}

fn read_choice(input: &mut dyn BufRead, out: &mut dyn Write, q: &Question) -> Result<Entry> {
    loop {
        write!(out, "{}: ", ask_hint(q))?;
        out.flush()?;
        let Some(line) = read_line(input)? else {
            return Ok(Entry::EndOfInput);
        };
        if line.trim().is_empty() {
            return Ok(Entry::Skip);
        }
        match parse_choice(q, &line) {
            Ok(value) => return Ok(Entry::Value(value)),
            Err(why) => writeln!(out, "{why}")?,
        }
    }
}

fn ask_hint(q: &Question) -> String {
    match &q.kind {
        QuestionKind::Mcq { options, .. } => format!("Answer (1-{})", options.len()),
        QuestionKind::TrueFalse { .. } => "Answer (t/f)".into(),
        QuestionKind::Mermaid { options, .. } => {
            let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
            format!("Answer ({} or 1-{})", labels.join("/"), options.len())
        }
        _ => "Answer".into(),
    }
}

/// Turns a typed entry into the stored answer value, or says why it is not one.
pub fn parse_choice(q: &Question, typed: &str) -> Result<String, String> {
    let typed = typed.trim();
    match &q.kind {
        QuestionKind::Mcq { options, .. } => typed
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| options.get(i))
            .cloned()
            .ok_or_else(|| {
                format!(
                    "Not an option: type a number from 1 to {}, or an empty line to skip.",
                    options.len()
                )
            }),
        QuestionKind::TrueFalse { .. } => parse_bool(typed)
            .map(|b| b.to_string())
            .ok_or_else(|| "Type t, f, true or false, or an empty line to skip.".to_string()),
        QuestionKind::Mermaid { options, .. } => {
            let by_number = typed
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| options.get(i));
            by_number
                .or_else(|| options.iter().find(|o| o.label.eq_ignore_ascii_case(typed)))
                .map(|o| o.label.clone())
                .ok_or_else(|| {
                    let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
                    format!(
                        "Not an option: type a label ({}) or its number, or an empty line to skip.",
                        labels.join(", ")
                    )
                })
        }
        QuestionKind::Open { .. } => Ok(typed.to_string()),
        QuestionKind::Unsupported { .. } => Err("This question cannot be answered here.".into()),
    }
}

/// Lines of text ended by a line holding only `.`; an empty first line skips.
fn read_open(input: &mut dyn BufRead, out: &mut dyn Write) -> Result<Entry> {
    writeln!(
        out,
        "Type your answer; end it with a line holding only '.' (an empty first line skips):"
    )?;
    out.flush()?;
    let mut lines: Vec<String> = Vec::new();
    loop {
        let Some(line) = read_line(input)? else {
            return Ok(if lines.is_empty() {
                Entry::EndOfInput
            } else {
                Entry::Value(lines.join("\n"))
            });
        };
        if lines.is_empty() && line.trim().is_empty() {
            return Ok(Entry::Skip);
        }
        if line.trim() == "." {
            let text = lines.join("\n").trim().to_string();
            return Ok(if text.is_empty() {
                Entry::Skip
            } else {
                Entry::Value(text)
            });
        }
        lines.push(line);
    }
}
