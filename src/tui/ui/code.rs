//! The code panel: the anchored lines of the question's file with a little context,
//! numbered, highlighted, the anchored lines marked in a column of their own (so the mark
//! survives `NO_COLOR`). Its text is the view's ([`crate::tui::code_panel`]).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use crate::code::Code;
use crate::text::display_width;
use crate::tui::action::Action;
use crate::tui::app::App;
use crate::tui::keymap::{Context, key_for};
use crate::tui::view::CodeView;

/// The panel's title: `path:41-47 · at the PR's head`.
fn title(code: &Code) -> (String, String) {
    match code {
        Code::Snippet(s) => (s.title(), format!(" · {}", s.from.label())),
        Code::Note { path, .. } => (path.clone(), String::new()),
    }
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, code: &Code, view: &CodeView) {
    let theme = app.settings.theme;
    let (path, from) = title(code);
    let max_scroll = usize::from(view.max_scroll);
    let scroll = usize::from(app.code_scroll).min(max_scroll);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border())
        .title(Line::from(vec![
            Span::raw(" "),
            Span::styled(path, theme.title()),
            Span::styled(format!("{from} "), theme.dim()),
        ]));
    if max_scroll > 0 {
        // In the answer box J and K are letters: the panel scrolls once out of it.
        let leave = if app.editor().is_some() {
            format!("{}, then ", key_for(Context::Editing, &Action::StopEditing))
        } else {
            String::new()
        };
        let keys = format!(
            " {leave}{}/{} scroll · {}/{} ",
            key_for(Context::Question, &Action::CodeDown),
            key_for(Context::Question, &Action::CodeUp),
            scroll + 1,
            max_scroll + 1
        );
        block = block.title_bottom(Line::styled(keys, theme.dim()).right_aligned());
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let visible = &view.lines[scroll.min(view.lines.len())..];
    frame.render_widget(super::lines::Lines(visible), inner);
}

/// Where the path sits on screen, for a terminal hyperlink over it: `(x, y, text, url)`.
pub fn link(app: &App) -> Option<(u16, u16, String, String)> {
    let Some(Code::Snippet(s)) = app.code() else {
        return None;
    };
    let url = s.url.clone()?;
    let area = app.view.question.as_ref()?.areas.code?;
    let text = s.title();
    // The title starts after the corner and a space; it may be cut by a narrow panel.
    let room = usize::from(area.width.saturating_sub(3));
    (display_width(&text) <= room && text.is_ascii()).then(|| (area.x + 2, area.y, text, url))
}
