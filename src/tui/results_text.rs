//! The results' text: the total, then each question with its text, your answer as
//! written, the right one, the explanation, the rubric and the grader's feedback. Built
//! by the view; drawn by `ui::results`.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::quiz::{OPEN_PASS_SCORE, Question, QuestionKind, QuestionResult, Results};
use crate::text::sanitize_line;
use crate::tui::action::Action;
use crate::tui::app::{App, GradeRow, NoPost, Posting};
use crate::tui::keymap::{Context, key_for};
use crate::tui::markdown;
use crate::tui::theme::Theme;
use crate::tui::view::{RESULTS_INDENT as INDENT, RESULTS_LABEL as LABEL};
use crate::tui::wrap::{labelled, wrap_line};

pub struct ResultsText {
    pub lines: Vec<Line<'static>>,
    /// The first row of each question's block, in quiz order.
    pub question_rows: Vec<usize>,
}

/// A bar of `score` percent in `cells` cells; the number is always printed beside it.
fn bar(score: u32, cells: usize) -> String {
    let filled = (score.min(100) as usize * cells).div_ceil(100);
    format!("{}{}", "█".repeat(filled), "░".repeat(cells - filled))
}

pub fn build(app: &App, width: usize) -> ResultsText {
    let mut text = ResultsText {
        lines: Vec::new(),
        question_rows: Vec::new(),
    };
    let Some(results) = &app.results else {
        return text;
    };
    summary(app, results, width, &mut text.lines);
    for (i, q) in app.session.quiz.questions.iter().enumerate() {
        text.lines.push(Line::default());
        text.question_rows.push(text.lines.len());
        question(app, results, i, q, width, &mut text.lines);
    }
    text
}

fn summary(app: &App, results: &Results, width: usize, out: &mut Vec<Line<'static>>) {
    let theme = app.settings.theme;
    let correct = results.per_question.iter().filter(|r| r.correct).count();
    let total = Line::from(vec![
        Span::styled(format!("Total {}%", results.total_score), theme.title()),
        Span::raw(format!(
            " · {correct} of {} correct",
            app.session.quiz.questions.len()
        )),
        Span::styled(
            if results.pending.is_empty() {
                String::new()
            } else {
                format!(" · provisional: {} pending", results.pending.len())
            },
            theme.warn(),
        ),
    ]);
    out.extend(wrap_line(&total, width));
    if let Some(line) = results.calibration_line() {
        out.extend(markdown::plain(&line, width, theme.dim()));
    }
    let earlier = &app.session.attempt().earlier_scores;
    if !earlier.is_empty() {
        let list: Vec<String> = earlier.iter().map(|s| format!("{s}%")).collect();
        out.extend(markdown::plain(
            &format!("Earlier attempts: {}", list.join(", ")),
            width,
            theme.dim(),
        ));
    }
    out.extend(markdown::plain(
        &format!("Next: {}", posting(app)),
        width,
        theme.dim(),
    ));
    if !results.pending.is_empty() {
        let later = format!(
            "Pending open answers: grade them later with `{}`",
            app.settings.grade_later
        );
        out.extend(markdown::plain(&later, width, theme.warn()));
    }
}

/// What happens to these results, in words, with the key that posts them.
pub fn posting(app: &App) -> String {
    match &app.settings.posting {
        Posting::Nowhere(why) => {
            let how = match why {
                NoPost::File => " (`quizz take N` takes PR N's quiz and posts its results)",
                NoPost::Demo | NoPost::Local => "",
            };
            format!("not posted: {}; its results stay here{how}.", why.why())
        }
        Posting::WrittenHere { pr } => format!(
            "not posted: quizz wrote this quiz (it is in no comment of {}), so these results stay on this machine.",
            sanitize_line(pr)
        ),
        Posting::OnKey { pr } => format!(
            "press {} to post these results to {} and quit; {} quits without posting.",
            key_for(Context::Results, &Action::Post),
            sanitize_line(pr),
            key_for(Context::Results, &Action::Yes),
        ),
        Posting::OnExit { pr } => {
            format!("posted to {} when you quit (--post).", sanitize_line(pr))
        }
        Posting::Off => "not posted (--no-post).".into(),
    }
}

fn question(
    app: &App,
    results: &Results,
    i: usize,
    q: &Question,
    width: usize,
    out: &mut Vec<Line<'static>>,
) {
    let theme = app.settings.theme;
    let inner = width.saturating_sub(INDENT).max(10);
    let field_width = inner.saturating_sub(LABEL).max(8);
    let result = results.result(&q.id);
    out.extend(wrap_line(&head(app, results, i, q, result, width), width));
    let indent = |lines: Vec<Line<'static>>| {
        lines.into_iter().map(|l| {
            let mut spans = vec![Span::raw(" ".repeat(INDENT))];
            spans.extend(l.spans);
            Line::from(spans).style(l.style)
        })
    };
    out.extend(indent(markdown::render(&q.prompt, inner, theme)));
    let field = |label: &str, lines: Vec<Line<'static>>, style: Style| {
        indent(labelled(
            Span::styled(label.to_string(), style),
            LABEL,
            lines,
        ))
    };
    let answer = app.session.answer(&q.id).filter(|a| !a.trim().is_empty());
    let shown = |a: &str| match &q.kind {
        QuestionKind::Mermaid { .. } => format!("Option {}", sanitize_line(a)),
        _ => a.to_string(),
    };
    // An open answer as written; a picked option as the quiz words it (markdown).
    let answer_lines = match answer {
        None => vec![Line::styled("(none)", theme.dim())],
        Some(a) if matches!(q.kind, QuestionKind::Open { .. }) => {
            markdown::plain(a, field_width, Style::new())
        }
        Some(a) => markdown::render(&shown(a), field_width, theme),
    };
    out.extend(field("Your answer", answer_lines, theme.dim()));
    let wrong = result.is_some_and(|r| !r.correct);
    if wrong && let Some(picked) = answer {
        out.extend(diagram(app, i, picked));
    }
    if let Some(expected) = q.kind.expected_value().filter(|_| wrong) {
        out.extend(field(
            "Correct",
            markdown::render(&shown(&expected), field_width, theme),
            theme.right(),
        ));
        out.extend(diagram(app, i, &expected));
    }
    if let Some(explanation) = q.explanation.as_deref().filter(|e| !e.trim().is_empty()) {
        out.extend(field(
            "Why",
            markdown::render(explanation, field_width, theme),
            theme.dim(),
        ));
    }
    if let QuestionKind::Open { rubric } = &q.kind
        && !rubric.trim().is_empty()
    {
        out.extend(field(
            "Rubric",
            markdown::render(rubric, field_width, theme),
            theme.dim(),
        ));
    }
    if let Some(r) = result.filter(|r| !r.feedback.trim().is_empty()) {
        out.extend(field(
            "Feedback",
            markdown::render(&r.feedback, field_width, theme),
            theme.dim(),
        ));
    }
    if let Some(reason) = failure(app, &q.id) {
        out.extend(field(
            "Not graded",
            markdown::plain(&reason, field_width, Style::new()),
            theme.warn(),
        ));
    }
}

fn head(
    app: &App,
    results: &Results,
    i: usize,
    q: &Question,
    result: Option<&QuestionResult>,
    width: usize,
) -> Line<'static> {
    let theme = app.settings.theme;
    let id = sanitize_line(&q.id);
    let kind = q.kind.type_name();
    let bar_cells = if width >= 70 { 20 } else { 10 };
    let n = format!("{:>2}. ", i + 1);
    if let Some(r) = result {
        let (mark, style) = mark(q, r, theme);
        let mut spans = vec![
            Span::raw(n),
            Span::styled(mark, style),
            Span::raw(format!(" · {id} · {kind} ")),
            Span::styled(bar(r.score, bar_cells), style),
            Span::raw(format!(" {:>3}%", r.score)),
        ];
        if let Some(c) = r.calibration() {
            spans.push(Span::styled(format!(" · {}", c.label()), theme.warn()));
        }
        Line::from(spans)
    } else if results.pending.contains(&q.id) {
        let why = if failure(app, &q.id).is_some() {
            "grading failed"
        } else {
            "not graded yet"
        };
        Line::from(vec![
            Span::raw(n),
            Span::styled("… pending", theme.warn()),
            Span::raw(format!(" · {id} · {kind} · {why}")),
        ])
    } else {
        Line::from(vec![
            Span::raw(n),
            Span::styled("– skipped", theme.dim()),
            Span::raw(format!(" · {id} · {kind} · not counted")),
        ])
    }
}

/// Right, wrong, or for an open answer between the two, partial with its percentage.
pub fn mark(q: &Question, r: &QuestionResult, theme: Theme) -> (String, Style) {
    let (glyph, style) = verdict(q, r, theme);
    let word = match glyph {
        '✓' => "right".to_string(),
        '◐' => format!("partial {}%", r.score),
        _ => "wrong".to_string(),
    };
    (format!("{glyph} {word}"), style)
}

/// The one-cell verdict (`✓` right, `◐` partial, `✗` wrong) and its style.
pub fn verdict(q: &Question, r: &QuestionResult, theme: Theme) -> (char, Style) {
    let open = matches!(q.kind, QuestionKind::Open { .. });
    if r.correct {
        ('✓', theme.right())
    } else if open && r.score > 0 && r.score < OPEN_PASS_SCORE {
        ('◐', theme.warn())
    } else {
        ('✗', theme.wrong())
    }
}

/// Why grading this question failed, from this session's grading.
fn failure(app: &App, id: &str) -> Option<String> {
    app.grading
        .as_ref()?
        .rows
        .iter()
        .find(|(rid, _)| rid == id)
        .and_then(|(_, row)| match row {
            GradeRow::Failed { reason } => Some(sanitize_line(reason)),
            _ => None,
        })
}

/// A mermaid option drawn under its field, from the diagrams `update` keeps ready.
fn diagram(app: &App, question: usize, label: &str) -> Vec<Line<'static>> {
    let Some(cache) = &app.result_diagrams else {
        return Vec::new();
    };
    cache
        .drawn
        .iter()
        .find(|(i, l, _)| *i == question && l == label)
        .map(|(_, _, lines)| {
            lines
                .iter()
                .map(|l| {
                    let mut spans = vec![Span::raw(" ".repeat(INDENT + LABEL))];
                    spans.extend(l.spans.iter().cloned());
                    Line::from(spans)
                })
                .collect()
        })
        .unwrap_or_default()
}
