//! The review: every question with its state, the start of its text and your answer.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::chrome;
use super::lines::clip;
use crate::quiz::QuestionKind;
use crate::text::{display_width, plural, sanitize_line};
use crate::tui::action::Action;
use crate::tui::app::App;
use crate::tui::keymap::{Context, key_for};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, cursor: usize) {
    let theme = app.settings.theme;
    let [title, list, footer] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let total = app.question_count();
    let answered = app.session.answered_count();
    let flagged = app.session.flagged_count();
    let mut summary = if answered == total {
        format!(" Review: all {total} answered")
    } else {
        format!(" Review: {answered} of {total} answered")
    };
    if answered < total {
        summary.push_str(&format!(" · {} unanswered", total - answered));
    }
    if flagged > 0 {
        summary.push_str(&format!(" · {}", plural(flagged, "flagged", "flagged")));
    }
    summary.push_str(&format!(
        ". {} submits{}.",
        key_for(Context::Review, &Action::Submit),
        if answered < total || flagged > 0 {
            " (asks first)"
        } else {
            ""
        }
    ));
    // A window taken over says so on every screen, not only on a question's.
    if let Some(note) = super::chrome::window_note(app) {
        summary.push_str(&note);
    }
    // Two rows: a narrow terminal wraps the note of a read-only window onto the second.
    frame.render_widget(
        Paragraph::new(Line::styled(summary, theme.title())).wrap(Wrap { trim: false }),
        title,
    );

    let width = usize::from(list.width);
    let height = usize::from(list.height).max(1);
    // Keep the cursor in view; the first and last rows say when there is more.
    let first = cursor.saturating_sub(height.saturating_sub(2).max(1));
    let more_above = first > 0;
    let more_below = first + height < total;
    let mut lines: Vec<Line> = app
        .session
        .quiz
        .questions
        .iter()
        .enumerate()
        .skip(first)
        .take(height)
        .map(|(i, q)| row(app, (i, cursor), q, width))
        .collect();
    if more_above && let Some(top) = lines.first_mut() {
        *top = Line::styled(format!(" ▲ {first} more above"), theme.dim());
    }
    if more_below && let Some(bottom) = lines.last_mut() {
        *bottom = Line::styled(
            format!(" ▼ {} more below", total - first - height + 1),
            theme.dim(),
        );
    }
    frame.render_widget(Paragraph::new(lines), list);
    chrome::footer(frame, footer, app);
}

/// Question `i`'s row; highlighted when it is under the cursor.
fn row(
    app: &App,
    (i, cursor): (usize, usize),
    q: &crate::quiz::Question,
    width: usize,
) -> Line<'static> {
    let theme = app.settings.theme;
    let (glyph, state_style) = if app.session.is_flagged(&q.id) {
        ("⚑", theme.flag())
    } else if app.is_answered(&q.id) {
        (chrome::ANSWERED_MARK, theme.answered())
    } else {
        ("·", theme.warn())
    };
    let lead = format!(" {:>2}. ", i + 1);
    let kind = format!(" {:<7} ", q.kind.type_name());
    let answer = app.session.answer(&q.id).map_or_else(
        || "unanswered".to_string(),
        |a| match &q.kind {
            QuestionKind::Mermaid { .. } => format!("Option {a}"),
            _ => sanitize_line(&a.replace('`', "")),
        },
    );
    let room = width.saturating_sub(display_width(&lead) + 1 + display_width(&kind));
    // The question's start takes what the answer leaves, at least half.
    let answer_room = (room / 2).min(display_width(&answer) + 3);
    let prompt = clip(
        &sanitize_line(&q.prompt.replace('`', "")),
        room.saturating_sub(answer_room),
    );
    let pad = room
        .saturating_sub(display_width(&prompt))
        .saturating_sub(answer_room);
    let line = Line::from(vec![
        Span::raw(lead),
        Span::styled(glyph, state_style),
        Span::styled(kind, theme.dim()),
        Span::raw(prompt),
        Span::raw(" ".repeat(pad)),
        Span::styled(
            format!(" → {}", clip(&answer, answer_room.saturating_sub(3))),
            if app.is_answered(&q.id) {
                ratatui::style::Style::new()
            } else {
                theme.warn()
            },
        ),
    ]);
    if i == cursor {
        line.style(theme.cursor())
    } else {
        line
    }
}
