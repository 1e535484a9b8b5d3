//! The header, the question strip and the footer that frame every screen.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::text::{display_width, sanitize_line};
use crate::tui::app::App;
use crate::tui::keymap::{Key, hints_naming, key_label};
use ratatui::crossterm::event::KeyCode;

/// ` · read-only (T takes over)` while another window owns the attempt, ` · other window
/// closed (T takes over)` once it has gone; `None` in the window that owns it.
pub fn window_note(app: &App) -> Option<String> {
    let take_over = || {
        crate::tui::keymap::key_for(crate::tui::Context::Question, &crate::tui::Action::TakeOver)
    };
    if app.session.owner_closed() {
        Some(format!(
            " · other window closed ({} takes over)",
            take_over()
        ))
    } else if app.session.busy().is_some() {
        Some(format!(" · read-only ({} takes over)", take_over()))
    } else {
        None
    }
}

/// The header with the first of `titles` (longest first) that fits beside the whole
/// answered count: a shorter title goes before the count loses its word.
pub fn header(frame: &mut Frame, area: Rect, app: &App, titles: &[String]) {
    let theme = app.settings.theme;
    let width = usize::from(area.width);
    let (done, all) = (app.session.answered_count(), app.planned_count());
    let mut right = format!("{done}/{all} answered ");
    let with_quizz = |title: &String| format!(" quizz · {}", sanitize_line(title));
    let fits = |left: &String| display_width(left) + display_width(&right) < width;
    let mut left = titles
        .iter()
        .map(with_quizz)
        .find(fits)
        .or_else(|| titles.last().map(with_quizz))
        .unwrap_or_default();
    // A long title gives way: the count goes short, then the title is cut.
    if display_width(&left) + display_width(&right) + 1 > width {
        right = format!("{done}/{all} ");
    }
    let room = width.saturating_sub(display_width(&right) + 1);
    if display_width(&left) > room {
        left = super::lines::clip(&left, room);
    }
    let pad = width.saturating_sub(display_width(&left) + display_width(&right));
    let line = Line::from(vec![
        Span::styled(left, theme.title()),
        Span::raw(" ".repeat(pad)),
        Span::styled(right, theme.dim()),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

/// An answer no verdict has judged yet: not `✓`, which says "right" once graded.
pub const ANSWERED: char = '●';
/// [`ANSWERED`] as text, for the review's list.
pub const ANSWERED_MARK: &str = "●";

/// The strip's marks and what they say, for the help.
pub const STRIP_MARKS: &[(&str, &str)] = &[
    (ANSWERED_MARK, "answered, no verdict yet"),
    ("·", "not answered"),
    ("⚑", "flagged to come back to"),
    (
        "✓ ◐ ✗",
        "right, partly right, wrong: once graded (in practice, as you answer)",
    ),
    ("…", "an open answer waiting to be graded"),
    ("–", "not in the grade"),
    ("✎", "still being written"),
];

/// Every question's state at a glance: `●` answered, `·` empty, `⚑` flagged; graded (or
/// in practice) `✓` right, `◐` partial, `✗` wrong; the current one in reverse video with
/// `▸`. Scrolls to keep the current one visible.
pub fn strip(frame: &mut Frame, area: Rect, app: &App) {
    let theme = app.settings.theme;
    let current = app.current();
    let mut cells: Vec<(String, bool)> = app
        .session
        .quiz
        .questions
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let glyph = if let Some(results) = &app.results {
                graded_glyph(app, results, q)
            } else if app.session.is_flagged(&q.id) {
                '⚑'
            } else if !app.is_answered(&q.id) {
                '·'
            } else if app.settings.practice && app.results.is_none() {
                practice_glyph(app, q)
            } else {
                ANSWERED
            };
            let lead = if i == current { '▸' } else { ' ' };
            (format!("{lead}{}{glyph}", i + 1), i == current)
        })
        .collect();
    let progress = app.writing.as_ref().map(|w| {
        cells = writing_cells(&w.growing, cells.drain(..));
        w.progress(app.clock)
    });
    let current = cells.iter().position(|(_, on)| *on).unwrap_or(0);
    let width = usize::from(area.width);
    // Start far enough left that the current cell fits.
    let mut start = 0;
    while start < current
        && cells[start..=current]
            .iter()
            .map(|(c, _)| display_width(c) + 1)
            .sum::<usize>()
            > width
    {
        start += 1;
    }
    let mut spans = Vec::new();
    let mut used = 0;
    for (text, is_current) in &cells[start..] {
        let w = display_width(text) + 1;
        if used + w > width {
            break;
        }
        used += w;
        let style = if *is_current {
            theme.cursor()
        } else {
            theme.dim()
        };
        spans.push(Span::styled(text.clone(), style));
        spans.push(Span::raw(" "));
    }
    // The writing of the rest, after the cells: what runs and for how long.
    if let Some(progress) = progress {
        let room = width.saturating_sub(used + 1);
        if room > 8 {
            let text = super::lines::clip(&sanitize_line(&progress), room);
            spans.push(Span::styled(format!(" {text}"), theme.warn()));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The strip of a quiz being written: its questions' cells in slot order, with `N✎` for
/// each slot still being written (N: the place it will have); slots left out are gone.
fn writing_cells(
    growing: &crate::generate::growing::Growing,
    mut ready: impl Iterator<Item = (String, bool)>,
) -> Vec<(String, bool)> {
    use crate::generate::growing::Slot;
    let mut cells = Vec::new();
    for slot in growing.slots.iter().filter(|s| !matches!(s, Slot::Dropped)) {
        let place = cells.len() + 1;
        match slot {
            Slot::Ready(_) => cells.extend(ready.next()),
            _ => cells.push((format!(" {place}✎"), false)),
        }
    }
    cells.extend(ready);
    cells
}

/// The footer's hint while the rest of the quiz is written (after `Esc`).
const STOP: &str = " stop writing  ";

/// The keys that work here (from the keymap), or the status message when there is one.
/// When they do not all fit, the least needed go first; `? help` and `q quit` stay.
pub fn footer(frame: &mut Frame, area: Rect, app: &App) {
    let theme = app.settings.theme;
    if let Some(status) = &app.status {
        let line = Line::from(vec![
            Span::styled(" ! ", theme.warn()),
            Span::raw(sanitize_line(status)),
        ]);
        frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: true }), area);
        return;
    }
    // A notice is not a question: its keys close it.
    if matches!(app.confirm(), Some(crate::tui::app::Confirm::Notice { .. })) {
        let line = Line::from(vec![
            Span::raw(" "),
            Span::styled(
                format!(
                    "{}/{}",
                    key_label(Key::Code(KeyCode::Enter)),
                    key_label(Key::Code(KeyCode::Esc))
                ),
                theme.key(),
            ),
            Span::raw(" close"),
        ]);
        frame.render_widget(Paragraph::new(line), area);
        return;
    }
    // Two keys a hint while every main hint fits so, else one: `Space choose` rather
    // than `Space/Enter choose` and no `v`.
    // While the rest is written, Esc stops it (the keymap's Esc means nothing here).
    let stop_writing = app
        .writing
        .as_ref()
        .is_some_and(|w| w.pending() > 0 && !w.stopping)
        && matches!(
            app.context(),
            crate::tui::Context::Question | crate::tui::Context::Overview
        )
        && !app.from_review();
    let width = usize::from(area.width).saturating_sub(if stop_writing {
        key_label(crate::tui::keymap::STOP_WRITING).len() + STOP.len()
    } else {
        0
    });
    let named = |keys: usize| {
        let all = hints_naming(app.context(), &app.hint_filter(), keys);
        let keep = fitting(&all, width);
        (all, keep)
    };
    let (mut all, mut keep) = named(2);
    if all.iter().zip(&keep).any(|(h, k)| !k && h.2 <= 2) {
        (all, keep) = named(1);
    }
    let mut spans = vec![Span::raw(" ")];
    if stop_writing {
        spans.push(Span::styled(
            key_label(crate::tui::keymap::STOP_WRITING),
            theme.key(),
        ));
        spans.push(Span::raw(STOP));
    }
    for ((keys, label, _), _) in all.into_iter().zip(keep).filter(|(_, k)| *k) {
        spans.push(Span::styled(keys, theme.key()));
        spans.push(Span::raw(format!(" {label}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// Which hints fit a footer `width` columns wide, the most needed first (rank 1, 2, 3):
/// ` k label  k label  ` — the last one's two trailing spaces may fall off the edge.
fn fitting(all: &[(String, &str, u8)], width: usize) -> Vec<bool> {
    let cost =
        |(keys, label, _): &(String, &str, u8)| display_width(keys) + display_width(label) + 3;
    let mut keep = vec![false; all.len()];
    let mut used = 0;
    for rank in 1..=3 {
        for (i, hint) in all.iter().enumerate().filter(|(_, h)| h.2 == rank) {
            if used + cost(hint) <= width + 1 {
                used += cost(hint);
                keep[i] = true;
            }
        }
    }
    keep
}

/// A graded attempt's strip says what the results say: `✓` right, `◐` partial, `✗`
/// wrong, `…` pending, `·` unanswered, `–` not counted.
fn graded_glyph(app: &App, results: &crate::quiz::Results, q: &crate::quiz::Question) -> char {
    match results.result(&q.id) {
        _ if !app.is_answered(&q.id) => '·',
        Some(r) => crate::tui::results_text::verdict(q, r, app.settings.theme).0,
        None if results.pending.contains(&q.id) => '…',
        None => '–',
    }
}

/// In practice the strip says what the verdict said: `✓` right, `✗` wrong, and
/// [`ANSWERED`] for an answer with no verdict yet (an open one, or one waiting for its
/// rating).
fn practice_glyph(app: &App, q: &crate::quiz::Question) -> char {
    if !q.kind.is_closed() || app.rating() == Some(q.id.as_str()) {
        return ANSWERED;
    }
    let right = app
        .session
        .answer(&q.id)
        .and_then(|given| q.is_right(given))
        .unwrap_or(false);
    if right { '✓' } else { '✗' }
}
