//! The line protocol: questions as numbered text, answers as typed lines.
//!
//! For screen readers, pipes and scripts. Every answer is saved through the session as
//! soon as it is entered, exactly like the TUI does. Text is wrapped at word boundaries to
//! [`PlainOptions::width`].

pub mod code;

use std::io::{BufRead, Write};

use anyhow::Result;

use crate::quiz::{Question, QuestionKind};
use crate::session::Session;
use crate::text::{plural, sanitize, sanitize_line, wrap, wrap_with};

/// How a plain take asks.
#[derive(Debug, Clone)]
pub struct PlainOptions {
    /// Right or wrong, and the explanation, right after each closed answer.
    pub practice: bool,
    /// Practice asks `Confidence (1-5, Enter to skip):` before the reveal.
    pub ask_confidence: bool,
    /// Columns to wrap text to.
    pub width: usize,
    /// Input is a terminal: end of input with questions unanswered asks before grading.
    pub can_ask: bool,
    /// Lines about the pull request: `octo/app#7 · Fix the parser · by alice`, who took it.
    pub pull_request: Vec<String>,
    /// Each anchored question's code, printed after its prompt.
    pub code: crate::code::CodeBook,
    /// `Covers 3 of 5 changed files`, when the PR's files are known.
    pub coverage: Option<crate::code::Coverage>,
    pub decor: code::Decor,
}

impl Default for PlainOptions {
    fn default() -> Self {
        Self {
            practice: false,
            ask_confidence: false,
            width: 80,
            can_ask: false,
            pull_request: Vec::new(),
            code: crate::code::CodeBook::default(),
            coverage: None,
            decor: code::Decor::default(),
        }
    }
}

/// What to do once the questions are asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// Grade the answers given.
    Grade,
    /// Stop without grading (end of input, and the taker said not to grade yet).
    Stop,
}

/// The rest of a quiz still being written, for a take that asks each question as soon as
/// it is ready.
pub trait Rest {
    /// Applies what the writing told since (each stage said on stderr), the questions that
    /// arrived put into `session`'s quiz. `wait`: blocks (saying what it waits for) until
    /// a question arrives or the quiz is whole.
    fn news(&mut self, session: &mut Session, wait: bool) -> Result<()>;
    /// Every question is in (or the writing ended, and what was written is the quiz).
    fn is_whole(&self) -> bool;
    /// How many questions the quiz will have.
    fn planned(&self) -> usize;
    /// Input ended: stop the writing and keep what was written.
    fn stop(&mut self, session: &mut Session) -> Result<()>;
}

/// Asks the questions in order, from the first unanswered one (every one when all are
/// answered); returns when the last one is answered or input ends.
pub fn ask_all(
    session: &mut Session,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    opts: &PlainOptions,
) -> Result<Finish> {
    ask_growing(session, input, out, opts, None)
}

/// [`ask_all`] for a quiz whose `rest` is still being written: each question is asked as
/// soon as it is ready (in the quiz's order among those ready), and it returns once every
/// one is in and asked, or input ends (the writing then stops, and what was written is
/// kept).
pub fn ask_growing(
    session: &mut Session,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    opts: &PlainOptions,
    mut rest: Option<&mut dyn Rest>,
) -> Result<Finish> {
    let input: &mut dyn BufRead = &mut NumberedInput::new(input);
    let width = opts.width;
    let total = rest
        .as_ref()
        .map_or(session.quiz.questions.len(), |r| r.planned());
    print_header(session, out, opts, total, rest.is_some())?;
    let start = first_unanswered(session).unwrap_or(0);
    let mut read = 0; // answers read in this run: none, and nothing is graded
    // Asked already (or before the first unanswered one): a question that arrives late is
    // asked after the one on screen.
    let mut asked: std::collections::BTreeSet<String> = session.quiz.questions[..start]
        .iter()
        .map(|q| q.id.clone())
        .collect();
    loop {
        if let Some(rest) = rest.as_deref_mut() {
            rest.news(session, false)?;
        }
        let next = session
            .quiz
            .questions
            .iter()
            .position(|q| !asked.contains(&q.id));
        let Some(index) = next else {
            match rest.as_deref_mut() {
                Some(rest) if !rest.is_whole() => {
                    rest.news(session, true)?;
                    continue;
                }
                _ => break,
            }
        };
        session.set_current(index);
        let Some(question) = session.question(index).cloned() else {
            break;
        };
        asked.insert(question.id.clone());
        let total = rest
            .as_ref()
            .map_or(session.quiz.questions.len(), |r| r.planned());
        print_question(
            out,
            &question,
            index,
            total,
            session.answer(&question.id),
            opts,
        )?;
        let answer = match &question.kind {
            QuestionKind::Unsupported { .. } => continue,
            QuestionKind::Open { .. } => read_open(input, out, width)?,
            _ => read_choice(input, out, &question, width)?,
        };
        match answer {
            Entry::Value(v) => {
                read += 1;
                session.set_answer(&question.id, Some(v.clone()))?;
                session.flush()?;
                if opts.practice {
                    if opts.ask_confidence && question.kind.is_closed() {
                        match read_confidence(input, out, width)? {
                            Rating::Rated(n) => session.set_confidence(&question.id, n)?,
                            Rating::Skipped => {}
                            Rating::EndOfInput => {
                                if let Some(rest) = rest.as_deref_mut() {
                                    rest.stop(session)?;
                                }
                                return end_of_input(session, input, out, opts, read);
                            }
                        }
                        session.flush()?;
                    }
                    practice_feedback(out, &question, &v, width)?;
                }
            }
            Entry::Skip => {}
            Entry::EndOfInput => {
                if let Some(rest) = rest.as_deref_mut() {
                    rest.stop(session)?;
                }
                return end_of_input(session, input, out, opts, read);
            }
        }
    }
    Ok(Finish::Grade)
}

/// The take's header: the quiz, the pull request, the notes, where it resumes, how to
/// answer. `growing`: the quiz is still being written.
fn print_header(
    session: &Session,
    out: &mut dyn Write,
    opts: &PlainOptions,
    total: usize,
    growing: bool,
) -> Result<()> {
    let width = opts.width;
    let counts: Vec<String> = session
        .quiz
        .count_by_type()
        .iter()
        .map(|(t, n)| format!("{n} {t}"))
        .collect();
    let title = if growing {
        format!(
            "Quiz: {} — {total} questions, being written: each is asked as soon as it is ready.",
            session.origin.describe()
        )
    } else {
        format!(
            "Quiz: {} — {total} questions ({}).",
            session.origin.describe(),
            counts.join(", ")
        )
    };
    print_wrapped(out, &title, width, "", "")?;
    for line in pull_request_lines(&opts.pull_request, width) {
        writeln!(out, "{line}")?;
    }
    if let Some(coverage) = &opts.coverage {
        print_coverage(out, coverage, width)?;
    }
    for note in &session.notes {
        print_wrapped(out, &sanitize(note), width, "Note: ", "      ")?;
    }
    let answered = session.answered_count();
    let start = first_unanswered(session).unwrap_or(0);
    if answered > 0 {
        let resume = if start > 0 {
            format!(
                "Resuming: {answered} of {total} answered; starting at question {}, the first unanswered one. An empty line keeps a saved answer.",
                start + 1
            )
        } else {
            format!("Resuming: {answered} of {total} answered; an empty line keeps a saved answer.")
        };
        print_wrapped(out, &resume, width, "", "")?;
    }
    if opts.practice {
        print_wrapped(
            out,
            "Practice: you see right or wrong, and the explanation, after each answer.",
            width,
            "",
            "",
        )?;
    }
    print_wrapped(
        out,
        "An empty line leaves a question as it is. End of input (Ctrl-D) stops early.",
        width,
        "",
        "",
    )?;
    Ok(())
}

/// `Pull request: octo/app#7 · …`, then the lines after it (who took the quiz) hanging
/// under the label, wrapped to `width`.
pub fn pull_request_lines(lines: &[String], width: usize) -> Vec<String> {
    let hang = "              ";
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let label = if i == 0 { "Pull request: " } else { hang };
        out.extend(wrap_with(&sanitize(line), width, label, hang));
    }
    out
}

/// The first question that can be answered and has no answer yet.
fn first_unanswered(session: &Session) -> Option<usize> {
    session.quiz.questions.iter().position(|q| {
        !matches!(q.kind, QuestionKind::Unsupported { .. })
            && session.answer(&q.id).is_none_or(|a| a.trim().is_empty())
    })
}

/// The ids of the questions that can be answered and have no answer.
fn unanswered(session: &Session) -> Vec<String> {
    session
        .quiz
        .questions
        .iter()
        .filter(|q| {
            !matches!(q.kind, QuestionKind::Unsupported { .. })
                && session.answer(&q.id).is_none_or(|a| a.trim().is_empty())
        })
        .map(|q| sanitize_line(&q.id))
        .collect()
}

/// Input ended at a prompt: grade when nothing is missing; else ask first when the taker
/// can answer, or say how many stay unanswered (and grade nothing when this run read no
/// answer at all: `< /dev/null` is not a take).
fn end_of_input(
    session: &Session,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    opts: &PlainOptions,
    read: usize,
) -> Result<Finish> {
    let missing = unanswered(session);
    writeln!(out)?;
    if missing.is_empty() {
        print_wrapped(
            out,
            "(input ended: every question is answered)",
            opts.width,
            "",
            "",
        )?;
        return Ok(Finish::Grade);
    }
    let n = plural(missing.len(), "question", "questions");
    if opts.can_ask {
        let verb = if missing.len() == 1 { "is" } else { "are" };
        write!(out, "{n} {verb} unanswered. Grade now? [y/N] ")?;
        out.flush()?;
        let yes = read_line(input)?
            .is_some_and(|l| matches!(l.trim().to_ascii_lowercase().as_str(), "y" | "yes"));
        if !yes {
            writeln!(out)?;
        }
        return Ok(if yes { Finish::Grade } else { Finish::Stop });
    }
    let verb = if missing.len() == 1 { "stays" } else { "stay" };
    if read == 0 {
        let text = format!(
            "(input ended before any answer was given: nothing is graded or posted; {n} {verb} unanswered)"
        );
        print_wrapped(out, &text, opts.width, "", "")?;
        return Ok(Finish::Stop);
    }
    let text = format!(
        "(input ended: {n} {verb} unanswered: {})",
        missing.join(", ")
    );
    print_wrapped(out, &text, opts.width, "", "")?;
    writeln!(out, "Grading the answers given.")?;
    Ok(Finish::Grade)
}

/// `Covers 3 of 5 changed files.`, then each file with the questions that probe it.
fn print_coverage(
    out: &mut dyn Write,
    coverage: &crate::code::Coverage,
    width: usize,
) -> std::io::Result<()> {
    writeln!(out, "{}.", coverage.line())?;
    for (file, questions) in &coverage.files {
        let probes = if questions.is_empty() {
            "no question".to_string()
        } else {
            let numbers: Vec<String> = questions.iter().map(ToString::to_string).collect();
            format!("questions {}", numbers.join(", "))
        };
        print_wrapped(out, &format!("{file}: {probes}"), width, "  ", "    ")?;
    }
    Ok(())
}

/// What the taker said when asked how sure they were.
enum Rating {
    Rated(u8),
    Skipped,
    EndOfInput,
}

/// Practice asks how sure the taker is before revealing.
fn read_confidence(input: &mut dyn BufRead, out: &mut dyn Write, width: usize) -> Result<Rating> {
    loop {
        write!(out, "Confidence (1-5, Enter to skip): ")?;
        out.flush()?;
        let line = match read_typed(input, out, width)? {
            Typed::Line(line) => line,
            Typed::Unreadable => continue,
            Typed::End => return Ok(Rating::EndOfInput),
        };
        let line = line.trim();
        if line.is_empty() {
            return Ok(Rating::Skipped);
        }
        match line.parse::<u8>() {
            Ok(n @ 1..=5) => return Ok(Rating::Rated(n)),
            _ => print_wrapped(
                out,
                "A number from 1 (guessing) to 5 (certain), or Enter to skip.",
                width,
                "",
                "",
            )?,
        }
    }
}

/// Right or wrong and the explanation, like the terminal UI's practice mode.
fn practice_feedback(out: &mut dyn Write, q: &Question, given: &str, width: usize) -> Result<()> {
    let Some(expected) = q.kind.expected_value() else {
        return Ok(());
    };
    if q.is_right(given) == Some(true) {
        writeln!(out, "✓ Right.")?;
    } else {
        let shown = match &q.kind {
            QuestionKind::Mermaid { .. } => format!("Option {expected}"),
            _ => numbered(q, &expected),
        };
        print_wrapped(
            out,
            &sanitize(&shown),
            width,
            "✗ Not quite — the answer is: ",
            "  ",
        )?;
    }
    if let Some(explanation) = q.explanation.as_deref().filter(|e| !e.trim().is_empty()) {
        print_wrapped(out, &sanitize(explanation.trim()), width, "Why: ", "     ")?;
    }
    Ok(())
}

/// Writes `text` wrapped to `width`, `first` before its first line and `rest` before the others.
fn print_wrapped(
    out: &mut dyn Write,
    text: &str,
    width: usize,
    first: &str,
    rest: &str,
) -> std::io::Result<()> {
    for line in wrap_with(text, width, first, rest) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Interrupting a plain take (Ctrl-C, or SIGTERM, SIGHUP, SIGQUIT) ends the `claude`
/// graders it started, says that the answers are saved (each one is saved as it is
/// given), then ends the process with 128 + the signal's number (130 for Ctrl-C), as a
/// shell does.
pub fn say_saved_on_interrupt() {
    crate::signals::exit_on_signals(Some(SAVED_ON_INTERRUPT));
}

/// What a plain take says when an ending signal stops it.
pub const SAVED_ON_INTERRUPT: &str =
    "Interrupted: every answer you gave is saved. Run the same command to carry on.";

/// The output of a plain take. When the input is piped the typed answer is not echoed, so
/// a prompt's line stays open: it is ended before the next output (a note, a hint, the
/// grading) instead of that output being glued to the prompt.
pub struct PromptLines<W: Write> {
    inner: W,
    piped: bool,
    /// A prompt was flushed without ending its line: the answer is read next.
    open: bool,
    at_line_start: bool,
}

impl<W: Write> PromptLines<W> {
    /// `piped`: the input is not a terminal (no echo ends the prompt's line).
    pub fn new(inner: W, piped: bool) -> Self {
        Self {
            inner,
            piped,
            open: false,
            at_line_start: true,
        }
    }
}

impl<W: Write> Write for PromptLines<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if std::mem::take(&mut self.open) && self.piped && !buf.starts_with(b"\n") {
            self.inner.write_all(b"\n")?;
        }
        let n = self.inner.write(buf)?;
        if n > 0 {
            self.at_line_start = buf[n - 1] == b'\n';
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.at_line_start {
            self.open = true;
        }
        self.inner.flush()
    }
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
    opts: &PlainOptions,
) -> Result<()> {
    let width = opts.width;
    writeln!(
        out,
        "\n── Question {} of {total} · {} · {} ──",
        index + 1,
        kind_label(&q.kind),
        sanitize(&q.id)
    )?;
    print_wrapped(out, &sanitize(q.prompt.trim()), width, "", "")?;
    if let Some(snippet) = opts.code.get(&q.id) {
        code::print(out, snippet, opts.decor, width)?;
    }
    match &q.kind {
        QuestionKind::Mcq { options, .. } => {
            writeln!(out)?;
            for (i, o) in options.iter().enumerate() {
                let number = format!("  {}) ", i + 1);
                let hang = " ".repeat(number.len());
                print_wrapped(out, &sanitize_line(o), width, &number, &hang)?;
            }
        }
        QuestionKind::TrueFalse { .. } => writeln!(out, "\n  t) true\n  f) false")?,
        QuestionKind::Mermaid { options, .. } => {
            for (i, o) in options.iter().enumerate() {
                writeln!(out, "\n  {}) Option {}:", i + 1, sanitize_line(&o.label))?;
                let source = sanitize(&o.source);
                print_wrapped(out, source.trim_end(), width, "      ", "      ")?;
            }
        }
        QuestionKind::Open { .. } => {}
        QuestionKind::Unsupported { .. } => {
            print_wrapped(
                out,
                "(This question type is not supported by this quizz: skipped, not counted.)",
                width,
                "",
                "",
            )?;
        }
    }
    if let Some(saved) = saved.filter(|s| !s.trim().is_empty()) {
        print_wrapped(
            out,
            &sanitize(&numbered(q, saved)),
            width,
            "Saved answer: ",
            "              ",
        )?;
    }
    Ok(())
}

/// An mcq answer with the number it is typed as (`2) text`); any other answer as it is.
fn numbered(q: &Question, value: &str) -> String {
    match (&q.kind, q.choice_of(value)) {
        (QuestionKind::Mcq { .. }, Some(i)) => format!("{}) {value}", i + 1),
        _ => value.to_string(),
    }
}

/// A line of input that is not UTF-8 text (the taker is asked again; the take goes on).
#[derive(Debug, thiserror::Error)]
#[error("Line {0} of the input is not UTF-8 text, so it cannot be read; type it again.")]
struct UnreadableLine(usize);

/// The taker's input, numbering the lines [`BufRead::read_line`] reads (the only way the
/// line protocol reads), so an unreadable one can be named.
struct NumberedInput<'a> {
    inner: &'a mut dyn BufRead,
    lines: usize,
}

impl<'a> NumberedInput<'a> {
    fn new(inner: &'a mut dyn BufRead) -> Self {
        Self { inner, lines: 0 }
    }
}

impl std::io::Read for NumberedInput<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf)
    }
}

impl BufRead for NumberedInput<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.inner.consume(amt);
    }

    /// The whole line is consumed even when it is not UTF-8, so the next read is the next line.
    fn read_line(&mut self, buf: &mut String) -> std::io::Result<usize> {
        let mut bytes = Vec::new();
        let n = self.inner.read_until(b'\n', &mut bytes)?;
        if n == 0 {
            return Ok(0);
        }
        self.lines += 1;
        match String::from_utf8(bytes) {
            Ok(text) => {
                buf.push_str(&text);
                Ok(n)
            }
            Err(_) => Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                UnreadableLine(self.lines),
            )),
        }
    }
}

/// A line the taker typed at a prompt.
enum Typed {
    Line(String),
    /// Not UTF-8 text: said so, to be asked again.
    Unreadable,
    End,
}

/// The next line; one that is not UTF-8 text is named (the take goes on), any other
/// error stands.
fn read_typed(input: &mut dyn BufRead, out: &mut dyn Write, width: usize) -> Result<Typed> {
    let e = match read_line(input) {
        Ok(Some(line)) => return Ok(Typed::Line(line)),
        Ok(None) => return Ok(Typed::End),
        Err(e) => e,
    };
    let unreadable = e
        .downcast_ref::<std::io::Error>()
        .and_then(|io| io.get_ref())
        .and_then(|inner| inner.downcast_ref::<UnreadableLine>());
    match unreadable {
        Some(line) => {
            print_wrapped(out, &line.to_string(), width, "", "")?;
            Ok(Typed::Unreadable)
        }
        None => Err(e),
    }
}

fn read_line(input: &mut dyn BufRead) -> Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim_end_matches(['\n', '\r']).to_string()))
}

fn read_choice(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    q: &Question,
    width: usize,
) -> Result<Entry> {
    loop {
        write!(out, "{}: ", ask_hint(q))?;
        out.flush()?;
        let line = match read_typed(input, out, width)? {
            Typed::Line(line) => line,
            Typed::Unreadable => continue,
            Typed::End => return Ok(Entry::EndOfInput),
        };
        if line.trim().is_empty() {
            return Ok(Entry::Skip);
        }
        match parse_choice(q, &line) {
            Ok(value) => return Ok(Entry::Value(value)),
            Err(why) => print_wrapped(out, &why, width, "", "")?,
        }
    }
}

fn ask_hint(q: &Question) -> String {
    match &q.kind {
        QuestionKind::Mcq { options, .. } => format!("Answer (1-{})", options.len()),
        QuestionKind::TrueFalse { .. } => "Answer (t/f)".into(),
        QuestionKind::Mermaid { options, .. } => {
            let labels: Vec<String> = options.iter().map(|o| sanitize_line(&o.label)).collect();
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
            .and_then(|i| q.value_of(i))
            .ok_or_else(|| {
                format!(
                    "Not an option: type a number from 1 to {}, or an empty line to skip.",
                    options.len()
                )
            }),
        QuestionKind::TrueFalse { .. } => q
            .choice_of(typed)
            .and_then(|i| q.value_of(i))
            .ok_or_else(|| "Type t, f, true or false, or an empty line to skip.".to_string()),
        QuestionKind::Mermaid { options, .. } => {
            // A number, the label as written, or the label in another case (typed `d`
            // stores `D`: the stored answer is always the quiz's own label).
            let by_number = typed.parse::<usize>().ok().and_then(|n| n.checked_sub(1));
            by_number
                .filter(|&i| i < options.len())
                .or_else(|| q.choice_of(typed))
                .or_else(|| {
                    options
                        .iter()
                        .position(|o| o.label.eq_ignore_ascii_case(typed))
                })
                .and_then(|i| q.value_of(i))
                .ok_or_else(|| {
                    let labels: Vec<String> =
                        options.iter().map(|o| sanitize_line(&o.label)).collect();
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
fn read_open(input: &mut dyn BufRead, out: &mut dyn Write, width: usize) -> Result<Entry> {
    for line in wrap(
        "Type your answer; end it with a line holding only '.' (an empty first line skips):",
        width,
    ) {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    let mut lines: Vec<String> = Vec::new();
    loop {
        let line = match read_typed(input, out, width)? {
            Typed::Line(line) => line,
            Typed::Unreadable => continue,
            Typed::End if lines.is_empty() => return Ok(Entry::EndOfInput),
            Typed::End => return Ok(Entry::Value(lines.join("\n"))),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::QuizSource;
    use crate::store::Store;

    /// Input that ends (like Ctrl-D at a terminal) after each of its parts, then reads on.
    struct Typed {
        parts: std::collections::VecDeque<Vec<u8>>,
        pos: usize,
    }

    impl Typed {
        fn new(parts: &[&str]) -> Self {
            Self {
                parts: parts.iter().map(|p| p.as_bytes().to_vec()).collect(),
                pos: 0,
            }
        }
    }

    impl std::io::Read for Typed {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let available = self.fill_buf()?;
            let n = available.len().min(buf.len());
            buf[..n].copy_from_slice(&available[..n]);
            self.consume(n);
            Ok(n)
        }
    }

    impl BufRead for Typed {
        fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
            if self.parts.front().is_some_and(|p| self.pos >= p.len()) {
                // The end of one part reads as the end of input, once.
                self.parts.pop_front();
                self.pos = 0;
                return Ok(&[]);
            }
            Ok(self.parts.front().map_or(&[][..], |p| &p[self.pos..]))
        }

        fn consume(&mut self, amt: usize) {
            self.pos += amt;
        }
    }

    fn demo(dir: &std::path::Path) -> Session {
        let loaded = QuizSource::Demo.load().unwrap();
        Session::open(Store::at(dir), loaded).unwrap()
    }

    fn run(
        session: &mut Session,
        input: &mut dyn BufRead,
        opts: &PlainOptions,
    ) -> (Finish, String) {
        let mut out = Vec::new();
        let finish = ask_all(session, input, &mut out, opts).unwrap();
        (finish, String::from_utf8(out).unwrap())
    }

    #[test]
    fn end_of_input_at_a_terminal_asks_before_grading() {
        let dir = tempfile::tempdir().unwrap();
        let opts = PlainOptions {
            can_ask: true,
            ..PlainOptions::default()
        };
        // Ctrl-D after one answer, then "n": stop without grading.
        let mut session = demo(dir.path());
        let mut input = std::io::Cursor::new(b"1\n".to_vec());
        let (finish, out) = run(&mut session, &mut input, &opts);
        assert!(
            out.contains("5 questions are unanswered. Grade now? [y/N]"),
            "{out}"
        );
        assert_eq!(finish, Finish::Stop);
        // Resumed: Ctrl-D, then "y": grade.
        drop(session);
        let mut session = demo(dir.path());
        let mut input = Typed::new(&["", "y\n"]);
        let (finish, out) = run(&mut session, &mut input, &opts);
        assert!(
            out.contains("starting at question 2, the first unanswered one"),
            "{out}"
        );
        assert!(out.contains("Grade now? [y/N]"), "{out}");
        assert_eq!(finish, Finish::Grade);
    }

    #[test]
    fn end_of_input_that_cannot_ask_says_how_many_stay_unanswered() {
        let dir = tempfile::tempdir().unwrap();
        let mut session = demo(dir.path());
        let mut input = std::io::Cursor::new(b"1\nf\n".to_vec());
        let (finish, out) = run(&mut session, &mut input, &PlainOptions::default());
        assert_eq!(finish, Finish::Grade);
        assert!(
            out.contains(
                "(input ended: 4 questions stay unanswered: q3, q4, q5, q6)\nGrading the answers given."
            ),
            "{out}"
        );
    }

    #[test]
    fn input_that_ends_before_any_answer_grades_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut session = demo(dir.path());
        let mut input = std::io::Cursor::new(Vec::new());
        let wide = PlainOptions {
            width: 200,
            ..PlainOptions::default()
        };
        let (finish, out) = run(&mut session, &mut input, &wide);
        assert_eq!(finish, Finish::Stop, "{out}");
        assert!(
            out.contains("(input ended before any answer was given: nothing is graded or posted; 6 questions stay unanswered)"),
            "{out}"
        );
        // Saved answers from an earlier run, none read now: still nothing graded.
        session.set_answer("q1", Some("x".into())).unwrap();
        let mut input = std::io::Cursor::new(Vec::new());
        assert_eq!(
            run(&mut session, &mut input, &PlainOptions::default()).0,
            Finish::Stop
        );
    }

    #[test]
    fn the_pull_request_label_is_written_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut session = demo(dir.path());
        let opts = PlainOptions {
            pull_request: vec![
                "octo/app#7 · Fix it".into(),
                "1 person took this quiz · best 97%".into(),
            ],
            ..PlainOptions::default()
        };
        let mut input = std::io::Cursor::new(b"1\n".to_vec());
        let (_, out) = run(&mut session, &mut input, &opts);
        assert!(
            out.contains("Pull request: octo/app#7 · Fix it\n              1 person took this quiz · best 97%\n"),
            "{out}"
        );
        assert_eq!(out.matches("Pull request:").count(), 1, "{out}");
    }

    /// A typed label is the quiz's own label: `d` saves `D`, and of two labels that differ
    /// only by case the one typed exactly is taken (the first in another case once was).
    #[test]
    fn a_typed_label_saves_the_quiz_spelling() {
        let quiz = crate::quiz::parse_quiz(
            r#"{"version":"1","pr_number":1,"questions":[
            {"type":"mermaid","id":"m","prompt":"Pick","options":{"A":"graph TD","a":"graph LR","D":"graph BT"},"answer":"a"}]}"#,
        )
        .unwrap();
        let q = &quiz.questions[0];
        assert_eq!(parse_choice(q, "d").as_deref(), Ok("D"));
        assert_eq!(parse_choice(q, "a").as_deref(), Ok("a"));
        assert_eq!(parse_choice(q, "A").as_deref(), Ok("A"));
        assert_eq!(parse_choice(q, "2").as_deref(), Ok("a"));
    }

    #[test]
    fn practice_says_right_or_wrong_and_why() {
        let dir = tempfile::tempdir().unwrap();
        let quiz = crate::quiz::parse_quiz(
            r#"{"version":"1","pr_number":1,"questions":[
            {"type":"mcq","id":"a","prompt":"Pick","options":["x","y"],"answer":"y","explanation":"Because y."},
            {"type":"tf","id":"b","prompt":"True?","answer":true}]}"#,
        )
        .unwrap();
        let loaded = crate::source::LoadedQuiz {
            quiz,
            origin: crate::store::Origin::Demo,
            notes: Vec::new(),
        };
        let mut session = Session::open(Store::at(dir.path()), loaded).unwrap();
        let opts = PlainOptions {
            practice: true,
            ..PlainOptions::default()
        };
        let mut input = std::io::Cursor::new(b"1\nt\n".to_vec());
        let (_, out) = run(&mut session, &mut input, &opts);
        assert!(
            out.contains("✗ Not quite — the answer is: 2) y\nWhy: Because y.\n"),
            "{out}"
        );
        assert!(out.contains("✓ Right."), "{out}");
    }

    #[test]
    fn text_is_wrapped_to_the_width_between_words() {
        let dir = tempfile::tempdir().unwrap();
        let mut session = demo(dir.path());
        let opts = PlainOptions {
            width: 40,
            ..PlainOptions::default()
        };
        let mut input = std::io::Cursor::new(b"1\nf\n2\n".to_vec());
        let (_, out) = run(&mut session, &mut input, &opts);
        for line in out
            .lines()
            .filter(|l| !l.starts_with("──") && !l.starts_with("      "))
        {
            assert!(
                crate::text::display_width(line) <= 40 || !line.trim().contains(' '),
                "{line:?}"
            );
        }
    }
}
