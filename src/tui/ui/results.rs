//! The results: the total, then each question with its text, your answer as written, the
//! right one, the explanation, the rubric and the grader's feedback (the view's text, see
//! [`crate::tui::results_text`]), the question under the cursor highlighted.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};

use super::chrome;
use crate::tui::app::{App, ResultsScreen};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, at: &ResultsScreen) {
    let [main, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    let inner = main.inner(ratatui::layout::Margin::new(1, 0));
    if let Some(text) = &app.view.results {
        let scroll = usize::from(at.scroll).min(text.lines.len());
        let end = (scroll + text.height).min(text.lines.len());
        let visible = &text.lines[scroll..end];
        frame.render_widget(super::lines::Lines(visible), inner);
        if let Some(&start) = text.starts.get(at.cursor)
            && let Some(r) = start.checked_sub(scroll).filter(|r| *r < visible.len())
        {
            let row = visible[r].clone().patch_style(app.settings.theme.cursor());
            let y = inner.y + u16::try_from(r).unwrap_or(u16::MAX);
            let at = Rect::new(inner.x, y, inner.width, 1);
            frame.render_widget(super::lines::Lines(&[row]), at);
        }
    }
    chrome::footer(frame, footer, app);
}
