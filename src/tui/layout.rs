//! Where things go. Shared by drawing and by `update` (which scrolls options into view).

use ratatui::layout::{Constraint, Layout, Rect};

/// Below this the UI shows a "terminal too small" note instead.
pub const MIN_WIDTH: u16 = 30;
pub const MIN_HEIGHT: u16 = 8;

/// Narrow or short terminals hide secondary panes (the header line).
pub fn is_compact(area: Rect) -> bool {
    area.width < 60 || area.height < 16
}

pub struct QuestionAreas {
    pub header: Option<Rect>,
    pub strip: Rect,
    pub body: Rect,
    /// The answer box of an open question.
    pub answer: Option<Rect>,
    pub footer: Rect,
}

/// The question screen's parts. `open_prompt_rows`: on an open question, the rows its
/// prompt needs; the answer box takes the rest (at least 5 rows), so neither sits in a
/// sea of blank rows.
pub fn question_areas(area: Rect, open_prompt_rows: Option<usize>) -> QuestionAreas {
    let compact = is_compact(area);
    let [header, strip, main, footer] = Layout::vertical([
        Constraint::Length(u16::from(!compact)),
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let (body, answer) = if let Some(prompt) = open_prompt_rows {
        let prompt = u16::try_from(prompt).unwrap_or(u16::MAX);
        let floor = 5.min(main.height.saturating_sub(2));
        let answer_height = main
            .height
            .saturating_sub(prompt.max(2))
            .max(floor)
            .min(main.height.saturating_sub(2));
        let [body, answer] =
            Layout::vertical([Constraint::Min(1), Constraint::Length(answer_height)]).areas(main);
        (body, Some(answer))
    } else {
        (main, None)
    };
    QuestionAreas {
        header: (!compact).then_some(header),
        strip,
        body,
        answer,
        footer,
    }
}

/// A box of at most `width`×`height`, centred in `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}
