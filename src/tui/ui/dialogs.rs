//! Overlays: the help (from the keymap table) and the quit confirmation.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::text::display_width;
use crate::text::sanitize_line;
use crate::tui::action::Action;
use crate::tui::app::{App, Confirm};
use crate::tui::keymap::{Context, Key, key_for, key_label};
use crate::tui::layout::centered;
use ratatui::crossterm::event::KeyCode;

pub fn help(frame: &mut Frame, area: Rect, app: &App, scroll: u16) {
    let theme = app.settings.theme;
    let Some(help) = &app.view.help else { return };
    let box_area = crate::tui::help::help_box(area);
    let (total, height) = (help.lines.len(), help.height);
    let top = usize::from(scroll).min(total);
    let visible = help.lines[top..(top + height).min(total)].to_vec();
    let position = if total > height {
        format!(
            " {}–{} of {total} · {} scroll ",
            top + 1,
            (top + height).min(total),
            help_scroll_keys()
        )
    } else {
        String::new()
    };
    let close = key_for(Context::Help, &Action::ToggleHelp);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.key())
        .title(format!(" Keys — {close} closes "))
        .title_bottom(Line::from(position).right_aligned());
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(visible).block(block), box_area);
}

pub fn confirm(frame: &mut Frame, area: Rect, app: &App, confirm: &Confirm) {
    let theme = app.settings.theme;
    let (title, text, yes, no) = match confirm {
        Confirm::Notice { title, text } => {
            return notice(frame, area, app, title, &sanitize_line(text));
        }
        Confirm::Quit if app.session.busy().is_some() => (
            " Quit? ",
            "Quit this read-only window? The answers are in the other quizz window.".to_string(),
            "quit",
            "stay",
        ),
        Confirm::Quit if app.writing.as_ref().is_some_and(|w| w.pending() > 0) => (
            " Quit? ",
            quit_while_writing_text(app),
            "quit",
            "stay",
        ),
        Confirm::Quit => (
            " Quit? ",
            "Quit now? Your answers are saved: run the same command again to carry on. Nothing is graded yet.".to_string(),
            "quit",
            "stay",
        ),
        Confirm::Submit {
            unanswered,
            flagged,
        } => {
            let mut open = Vec::new();
            if *unanswered > 0 {
                open.push(format!("{unanswered} unanswered"));
            }
            if *flagged > 0 {
                open.push(format!("{flagged} flagged"));
            }
            (
                " Submit now? ",
                format!(
                    "Submit with {}? Grading shows the right answers; changing them after that is a new attempt.",
                    open.join(" and ")
                ),
                "submit",
                "go back",
            )
        }
        Confirm::NewAttempt {
            graded,
            pending,
            answered,
        } => (
            " Start a new attempt? ",
            new_attempt_text(*graded, *pending, *answered),
            "start again",
            "keep this one",
        ),
        Confirm::StopWriting { ready } => (
            " Stop writing? ",
            format!(
                "Stop writing the rest, and take the {} questions written? Your answers stay; the quiz is kept as it is (--regenerate writes a fresh one).",
                // Questions that arrived while this is asked count too.
                app.writing.as_ref().map_or(*ready, |w| w.growing.ready())
            ),
            "stop and take them",
            "keep writing",
        ),
        Confirm::ClearAnswer { id, chars } => (
            " Clear the answer? ",
            format!(
                "Clear your answer to {} ({chars} character{})? It cannot be brought back.",
                sanitize_line(id),
                if *chars == 1 { "" } else { "s" }
            ),
            "clear",
            "keep it",
        ),
    };
    // Word wrap loses a little to whole words; one spare row covers it.
    let text_rows = u16::try_from(display_width(&text).div_ceil(50)).unwrap_or(8);
    let box_area = centered(area, 58, text_rows + 4);
    let lines = vec![
        Line::from(text),
        Line::default(),
        Line::from(vec![
            Span::styled(key_for(Context::Confirm, &Action::Yes), theme.key()),
            Span::raw(format!(" {yes}   ")),
            Span::styled(key_for(Context::Confirm, &Action::No), theme.key()),
            Span::raw(format!(" {no}")),
        ]),
    ];
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.warn())
        .title(title);
    frame.render_widget(Clear, box_area);
    frame.render_widget(
        Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
        box_area,
    );
}

/// A message shown whole, wrapped in a box as wide as the screen allows (long paths too).
fn notice(frame: &mut Frame, area: Rect, app: &App, title: &str, text: &str) {
    let theme = app.settings.theme;
    let width = area.width.saturating_sub(4).clamp(20, 76);
    let inner = usize::from(width.saturating_sub(2)).max(1);
    let mut lines: Vec<Line> = crate::text::wrap(text, inner)
        .into_iter()
        .flat_map(|l| {
            // A word wider than the box (a path) is cut into pieces that fit.
            let chars: Vec<char> = l.chars().collect();
            chars
                .chunks(inner)
                .map(|c| Line::from(c.iter().collect::<String>()))
                .collect::<Vec<_>>()
        })
        .collect();
    lines.push(Line::default());
    lines.push(Line::from(vec![
        Span::styled(key_label(Key::Code(KeyCode::Enter)), theme.key()),
        Span::raw(" or "),
        Span::styled(key_label(Key::Code(KeyCode::Esc)), theme.key()),
        Span::raw(" closes (any other key closes it and goes on)"),
    ]));
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let box_area = centered(area, width, height);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.warn())
        .title(title.to_string());
    frame.render_widget(Clear, box_area);
    frame.render_widget(Paragraph::new(lines).block(block), box_area);
}

/// What `N` would throw away, said before it does: the answers, any open answers that were
/// never graded, and whether a score survives.
fn new_attempt_text(graded: bool, pending: usize, answered: usize) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let answers = format!(
        "Clear your {answered} answer{} and start again?",
        plural(answered)
    );
    if !graded {
        return format!("{answers} Nothing was graded, so no score is kept.");
    }
    if pending > 0 {
        let key = key_for(Context::Overview, &Action::GradePending);
        return format!(
            "{answers} {pending} open answer{} still wait{} for a grade and will be lost ({key} grades them first). The score so far is kept as an earlier one.",
            plural(pending),
            if pending == 1 { "s" } else { "" }
        );
    }
    format!("{answers} This attempt's score is kept as an earlier one.")
}

/// The keys that scroll the help, as the keymap names them: `j/k PgUp/PgDn g/G`.
fn help_scroll_keys() -> String {
    let key = |action| key_for(Context::Help, &action);
    format!(
        "{}/{} {}/{} {}/{}",
        key(Action::ScrollDown),
        key(Action::ScrollUp),
        key(Action::PageUp),
        key(Action::PageDown),
        key(Action::Top),
        key(Action::Bottom),
    )
}

/// Quitting while questions are still written: those are dropped, and the quiz is what
/// was written (as Esc's "stop writing" says).
fn quit_while_writing_text(app: &App) -> String {
    let (ready, pending) = app
        .writing
        .as_ref()
        .map_or((0, 0), |w| (w.growing.ready(), w.pending()));
    if ready < crate::generate::checks::MIN_QUESTIONS {
        return format!(
            "Quit now? Only {} written, too few to keep as a quiz: its answer is not kept, and the next take writes the quiz again.",
            crate::text::plural(ready, "question is", "questions are")
        );
    }
    format!(
        "Quit now? The {} written are kept with your answers; the {} still being written {} dropped (--regenerate writes a whole quiz again). Nothing is graded yet.",
        crate::text::plural(ready, "question", "questions"),
        crate::text::plural(pending, "question", "questions"),
        if pending == 1 { "is" } else { "are" }
    )
}
