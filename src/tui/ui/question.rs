use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::{chrome, source_title};
use crate::tui::action::Action;
use crate::tui::app::App;
use crate::tui::keymap::{Context, key_for};
use crate::tui::markdown;

pub fn draw(frame: &mut Frame, _area: Rect, app: &App) {
    let theme = app.settings.theme;
    let Some(q) = app.question() else { return };
    let Some(view) = &app.view.question else {
        return;
    };
    let areas = &view.areas;
    if let Some(header) = areas.header {
        chrome::header(frame, header, app, &titles(app, &q.id));
    }
    chrome::strip(frame, areas.strip, app);

    let max_scroll = usize::from(view.max_scroll);
    let scroll = usize::from(app.scroll()).min(max_scroll);
    let end = (scroll + view.rows).min(view.lines.len());
    let visible = &view.lines[scroll.min(end)..end];
    let body_area = areas.body.inner(ratatui::layout::Margin::new(1, 0));
    frame.render_widget(super::lines::Lines(visible), body_area);
    if view.overflows {
        let down = key_for(Context::Question, &Action::PageDown);
        let up = key_for(Context::Question, &Action::PageUp);
        let more = match (scroll > 0, scroll < max_scroll) {
            (false, _) => format!("▼ more below ({down})"),
            (true, true) => format!("▲▼ more ({up}/{down})"),
            (true, false) => format!("▲ more above ({up})"),
        };
        let label = Line::styled(more, theme.dim()).right_aligned();
        let row = Rect::new(
            areas.body.x,
            areas.body.bottom().saturating_sub(1),
            areas.body.width,
            1,
        );
        frame.render_widget(Paragraph::new(label), row);
    }

    if let Some(answer_area) = areas.answer {
        answer_box(frame, answer_area, app, &q.id);
    }
    if let (Some(code_area), Some(code), Some(lines)) = (areas.code, app.code(), &view.code) {
        super::code::draw(frame, code_area, app, code, lines);
    }
    chrome::footer(frame, areas.footer, app);
}

/// The header's title, longest first: on a narrow terminal the question's kind goes, then
/// the word "Question", before the read-only note or the answered count would be cut.
fn titles(app: &App, id: &str) -> Vec<String> {
    // read-only first: when even the shortest is too long, its end gives way
    let mut notes = String::new();
    if app.reading() {
        notes.push_str(" · graded, read only");
    } else if let Some(note) = chrome::window_note(app) {
        notes.push_str(&note);
    }
    if app.session.is_flagged(id) {
        notes.push_str(" · ⚑ flagged");
    }
    let source = source_title(app);
    let place = format!("{}/{}", app.current() + 1, app.planned_count());
    let kind = app.question().map_or("", |q| q.kind.type_name());
    let full = format!("{source} · Question {place} · {kind}");
    let without_kind = format!("{source} · Question {place}");
    let short = format!("{source} · Q{place}");
    [full, without_kind, short]
        .into_iter()
        .map(|title| title + &notes)
        .collect()
}

/// The open answer: the editor while it has the focus, else the text with a marker when it
/// is longer than the box.
fn answer_box(frame: &mut Frame, area: Rect, app: &App, id: &str) {
    let theme = app.settings.theme;
    let key = |context, action| key_for(context, &action);
    let busy = app.session.busy().is_some();
    let take_over = key(Context::Question, Action::TakeOver);
    if let Some(editor) = app.editor() {
        let (title, style) = if busy {
            (
                format!(
                    " Your draft, not saved: another window took over — {}, then {take_over} keeps it ",
                    key(Context::Editing, Action::StopEditing),
                ),
                theme.warn(),
            )
        } else {
            (
                format!(
                    " Your answer — {} done · {} next · {} $EDITOR · {} undo ",
                    key(Context::Editing, Action::StopEditing),
                    key(Context::Editing, Action::NextQuestion),
                    key(Context::Editing, Action::ExternalEditor),
                    key(Context::Editing, Action::Undo),
                ),
                theme.key(),
            )
        };
        let mut editor = editor.clone();
        editor.set_block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(style)
                .title(title),
        );
        editor.set_cursor_line_style(ratatui::style::Style::new());
        editor.set_cursor_style(theme.cursor());
        frame.render_widget(&editor, area);
        return;
    }
    let draft = app.drafts.get(id).map(|d| d.text.as_str());
    // While read-only the box shows this window's draft, so nothing typed is out of sight.
    let text = match draft {
        Some(d) if busy => Some(d),
        _ => app.session.answer(id),
    }
    .filter(|a| !a.trim().is_empty());
    // A written answer changes only after an edit key: the box says which.
    let title = if draft.is_some() && busy {
        format!(" Your draft, not saved — {take_over} takes over and keeps it ")
    } else if draft.is_some() {
        format!(
            " Your answer · your unsaved draft of it: {} opens the draft ",
            key(Context::Question, Action::StartEditing)
        )
    } else if text.is_some() && !app.reading() && !busy {
        format!(
            " Your answer — {} edits · {} $EDITOR ",
            key(Context::Question, Action::StartEditing),
            key(Context::Question, Action::ExternalEditor),
        )
    } else {
        " Your answer ".to_string()
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border())
        .title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = match text {
        Some(t) => markdown::plain(
            t,
            usize::from(inner.width).max(1),
            ratatui::style::Style::new(),
        ),
        None if app.reading() => vec![Line::styled("(no answer)", theme.dim())],
        // Letters are the answer's text here; the editor key that is no letter is named.
        None => markdown::plain(
            &format!(
                "(no answer yet — type to write, {} for $EDITOR, {} for commands)",
                crate::tui::keymap::key_label(crate::tui::keymap::Key::Ctrl('e')),
                crate::tui::keymap::key_label(crate::tui::keymap::Key::Code(
                    ratatui::crossterm::event::KeyCode::Esc
                )),
            ),
            usize::from(inner.width).max(1),
            theme.dim(),
        ),
    };
    let rows = usize::from(inner.height);
    if lines.len() > rows && rows > 0 {
        let hidden = lines.len() - (rows - 1);
        lines.truncate(rows - 1);
        let how = if app.reading() {
            "the results show it all".to_string()
        } else {
            format!("{} opens it", key(Context::Question, Action::StartEditing))
        };
        lines.push(
            Line::styled(format!("▼ {hidden} more lines · {how}"), theme.dim()).right_aligned(),
        );
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
