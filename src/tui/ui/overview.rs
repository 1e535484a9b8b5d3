//! The first screen: which quiz, where it came from, how it is graded, where you are.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{chrome, source_title};
use crate::quiz::QuestionKind;
use crate::text::{plural, sanitize_line};
use crate::tui::action::Action;
use crate::tui::app::App;
use crate::tui::keymap::{Context, key_for};
use crate::tui::markdown;
use crate::tui::wrap::labelled;

const LABEL: usize = 11;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let [main, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    let inner = main.inner(ratatui::layout::Margin::new(2, 1));
    let width = usize::from(inner.width).max(20);
    let mut lines = lines(app, width, MAX_FILES_SHOWN);
    // A long list of changed files gives way, so the prompt to start stays on screen.
    let over = lines.len().saturating_sub(usize::from(inner.height));
    if over > 0 && app.settings.coverage.is_some() {
        lines = self::lines(app, width, MAX_FILES_SHOWN.saturating_sub(over + 1));
    }
    frame.render_widget(Paragraph::new(lines), inner);
    chrome::footer(frame, footer, app);
}

/// `Quiz on PR #7`; a local change's names its repository (the header's `local quiz`
/// would read "Quiz on local quiz").
fn overview_title(app: &App) -> String {
    match &app.session.origin {
        origin @ crate::store::Origin::Local { .. } => {
            sanitize_line(&format!("Quiz on {}", origin.describe()))
        }
        _ => format!("Quiz on {}", source_title(app)),
    }
}

fn lines(app: &App, width: usize, max_files: usize) -> Vec<Line<'static>> {
    let theme = app.settings.theme;
    let quiz = &app.session.quiz;
    let text_width = width.saturating_sub(LABEL).max(10);
    let mut out = vec![
        Line::styled(overview_title(app), theme.title()),
        Line::default(),
    ];
    let mut field = |label: &str, text: &str, style: Style| {
        out.extend(labelled(
            Span::styled(label.to_string(), style),
            LABEL,
            markdown::plain(text, text_width, Style::new()),
        ));
    };
    if let Some(pr) = &app.settings.pr {
        if let Some(title) = &pr.title {
            field("Title", title, theme.dim());
        }
        if let Some(author) = &pr.author {
            field("Author", author, theme.dim());
        }
        if let Some(takers) = &pr.takers {
            field("Taken", takers, theme.dim());
        }
    }
    field("From", &app.session.origin.describe(), theme.dim());
    let counts: Vec<String> = quiz
        .count_by_type()
        .iter()
        .map(|(t, n)| format!("{n} {}", sanitize_line(t)))
        .collect();
    field(
        "Questions",
        &format!("{} ({})", quiz.questions.len(), counts.join(", ")),
        theme.dim(),
    );
    let has_open = quiz
        .questions
        .iter()
        .any(|q| matches!(q.kind, QuestionKind::Open { .. }));
    match &app.settings.grader {
        Some(g) if has_open => field(
            "Grading",
            &format!("open answers by {} · model {}", g.backend, g.model),
            theme.dim(),
        ),
        None if has_open => field(
            "Grading",
            &match &app.settings.no_grader_why {
                Some(why) => format!(
                    "no grader ({}): open answers stay pending (see quizz doctor)",
                    sanitize_line(why)
                ),
                None => "no grader set up: open answers stay pending until one is \
                         (see quizz doctor)"
                    .to_string(),
            },
            theme.warn(),
        ),
        _ => {}
    }
    if app.settings.practice {
        field(
            "Mode",
            "practice: right or wrong shown as you answer",
            theme.dim(),
        );
    }
    if let Some(coverage) = &app.settings.coverage {
        field(
            "Covers",
            &coverage.line().replacen("Covers ", "", 1),
            theme.dim(),
        );
    }
    state_fields(app, &mut field);
    if let Some(coverage) = &app.settings.coverage {
        out.push(Line::default());
        out.push(Line::styled(
            "Changed files and the questions on them",
            theme.dim(),
        ));
        out.extend(changed_files(coverage, width, theme, max_files));
    }
    out.push(Line::default());
    out.extend(markdown::plain(&prompt(app), width, Style::new()));
    out
}

/// Graded or how far you got, earlier attempts, another window, notes.
fn state_fields(app: &App, field: &mut impl FnMut(&str, &str, Style)) {
    let theme = app.settings.theme;
    let quiz = &app.session.quiz;
    let answered = app.session.answered_count();
    if let Some(results) = &app.results {
        let pending = if results.pending.is_empty() {
            String::new()
        } else {
            format!(
                " · {} pending",
                plural(results.pending.len(), "open answer", "open answers")
            )
        };
        let posted = match (app.session.attempt().posted_at, &app.settings.posting) {
            (Some(at), _) => format!("posted {}", crate::text::time_ago(at)),
            (None, crate::tui::app::Posting::Nowhere(why)) => {
                format!("kept on this machine ({})", why.why())
            }
            (None, crate::tui::app::Posting::WrittenHere { .. }) => {
                "kept on this machine (quizz wrote this quiz)".into()
            }
            (None, _) => "not posted yet".into(),
        };
        field(
            "Graded",
            &format!("{}%{pending} · {posted}", results.total_score),
            theme.right(),
        );
    } else if answered > 0 {
        field(
            "Resuming",
            &format!(
                "{answered} of {} answered, at question {}",
                quiz.questions.len(),
                app.current() + 1
            ),
            theme.dim(),
        );
    }
    let earlier = &app.session.attempt().earlier_scores;
    if !earlier.is_empty() {
        let list: Vec<String> = earlier.iter().map(|s| format!("{s}%")).collect();
        field("Earlier", &list.join(", "), theme.dim());
    }
    if let Some(owner) = app.session.busy() {
        field(
            "Read-only",
            &format!(
                "this quiz is open in another quizz ({owner}); answers here are not saved. Press {} to take over (that window then stops saving).",
                key_for(Context::Overview, &Action::TakeOver)
            ),
            theme.warn(),
        );
    }
    for note in &app.session.notes {
        field("Note", note, theme.warn());
    }
}

/// What to press next.
fn prompt(app: &App) -> String {
    let answered = app.session.answered_count();
    let key = |action: Action| key_for(Context::Overview, &action);
    if app.session.busy().is_some() {
        format!(
            "Press {} to take over, {} to look around (read-only), {} to quit.",
            key(Action::TakeOver),
            key(Action::Start),
            key(Action::Quit),
        )
    } else if app.results.is_some() {
        let grade = if app.results.as_ref().is_some_and(|r| !r.pending.is_empty()) {
            format!(", {} to grade what is pending", key(Action::GradePending))
        } else {
            String::new()
        };
        format!(
            "This attempt is graded. Press {} to see the results{grade}, {} to start a new attempt (answers cleared, scores kept), {} for every key.",
            key(Action::ShowResults),
            key(Action::NewAttempt),
            key(Action::ToggleHelp),
        )
    } else {
        format!(
            "Press {} to {}, {} for every key, {} to quit. Answers are saved as you go.",
            key(Action::Start),
            if answered > 0 { "carry on" } else { "start" },
            key(Action::ToggleHelp),
            key(Action::Quit),
        )
    }
}

/// Changed files listed on the overview at most; the rest are counted.
const MAX_FILES_SHOWN: usize = 8;

/// The PR's changed files under the coverage line, each with the questions that probe it
/// (files the quiz covers first).
fn changed_files(
    coverage: &crate::code::Coverage,
    width: usize,
    theme: crate::tui::theme::Theme,
    max_files: usize,
) -> Vec<Line<'static>> {
    let mut files: Vec<&(String, Vec<usize>)> = coverage.files.iter().collect();
    files.sort_by_key(|(_, qs)| qs.is_empty());
    let indent = "  ".to_string();
    let mut out: Vec<Line<'static>> = files
        .iter()
        .take(max_files)
        .map(|(file, questions)| {
            let probes = if questions.is_empty() {
                "—".to_string()
            } else {
                let numbers: Vec<String> = questions.iter().map(|n| format!("q{n}")).collect();
                numbers.join(" ")
            };
            let room = width.saturating_sub(indent.len() + crate::text::display_width(&probes) + 2);
            let name = crate::text::ellipsize_start(file, room.max(8));
            let style = if questions.is_empty() {
                theme.dim()
            } else {
                Style::new()
            };
            Line::from(vec![
                Span::raw(indent.clone()),
                Span::styled(name, style),
                Span::raw("  "),
                Span::styled(probes, theme.dim()),
            ])
        })
        .collect();
    if files.len() > max_files {
        out.push(Line::styled(
            format!("{indent}… and {} more", files.len() - max_files),
            theme.dim(),
        ));
    }
    out
}
