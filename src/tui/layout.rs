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
    /// The code panel, when open: beside the question on wide terminals, else under it.
    pub code: Option<Rect>,
    pub footer: Rect,
}

/// From this width the code panel sits beside the question.
pub const CODE_BESIDE_FROM: u16 = 140;

/// The code panel's width when it sits beside the question at this terminal width.
pub fn code_beside(width: u16) -> Option<u16> {
    (width >= CODE_BESIDE_FROM).then(|| (width * 45 / 100).clamp(60, 110))
}

/// The question screen's parts. `open_prompt_rows`: on an open question, the rows its
/// prompt needs; the answer box takes the rest (at least 5 rows), so neither sits in a
/// sea of blank rows.
/// `code`: the open code panel's lines and the body's (`None`: the panel is closed).
pub fn question_areas(
    area: Rect,
    open_prompt_rows: Option<usize>,
    code: Option<(usize, usize)>,
) -> QuestionAreas {
    let compact = is_compact(area);
    let [header, strip, main, footer] = Layout::vertical([
        Constraint::Length(u16::from(!compact)),
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let (main, code) = match (code, code_beside(area.width)) {
        (None, _) => (main, None),
        (Some(_), Some(panel)) => {
            let [left, right] =
                Layout::horizontal([Constraint::Min(1), Constraint::Length(panel)]).areas(main);
            (left, Some(right))
        }
        (Some((rows, body_rows)), None) => {
            // Under the question: its lines and borders, in the rows the question leaves
            // (an open question's answer box needs its own) or two fifths of them.
            let want = u16::try_from(rows + 2).unwrap_or(u16::MAX);
            let reserved = if open_prompt_rows.is_some() { 7 } else { 0 };
            let body = u16::try_from(body_rows)
                .unwrap_or(u16::MAX)
                .saturating_add(reserved);
            let spare = main.height.saturating_sub(body).max(main.height * 2 / 5);
            let height = want.min(spare).max(4.min(main.height));
            let [top, bottom] =
                Layout::vertical([Constraint::Min(1), Constraint::Length(height)]).areas(main);
            (top, Some(bottom))
        }
    };
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
        code,
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
