//! What is on screen, measured once: the areas, the body's lines and option rows, each
//! scroll's maximum, the code panel's rows, the results' row starts, and the widths.
//!
//! `update` measures it after each action whose inputs changed ([`measure::refresh`]) and
//! clamps every scroll against it; drawing reads it and never measures or builds text.

pub mod measure;

use ratatui::text::Line;

use super::diagrams;
use super::layout::{QuestionAreas, code_beside};

/// A results block starts under its question's number, its fields under a label.
pub const RESULTS_INDENT: usize = 4;
pub const RESULTS_LABEL: usize = 13;

/// Every width, from the terminal's down: the body beside the code panel (when it sits
/// beside), each diagram under its marker, half of that for two side by side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Widths {
    pub terminal: usize,
    /// The question body's text.
    pub body: usize,
    /// One diagram option, under its marker.
    pub diagram: usize,
    /// Each of two options side by side.
    pub half: usize,
    /// The text inside the code panel.
    pub code: usize,
    /// The results' text, and a diagram in it (under its label).
    pub results: usize,
    pub results_diagram: usize,
}

impl Widths {
    /// `code_shown`: the code panel is open on this question (beside it from
    /// [`super::layout::CODE_BESIDE_FROM`] columns, else under it, where it takes no width).
    pub fn of(size: (u16, u16), code_shown: bool) -> Self {
        let beside = code_beside(size.0);
        let taken = beside.filter(|_| code_shown).unwrap_or(0);
        let body = usize::from(size.0.saturating_sub(taken).saturating_sub(2)).max(1);
        let diagram = diagrams::diagram_width(body);
        let results = usize::from(size.0.saturating_sub(2)).max(10);
        Self {
            terminal: usize::from(size.0),
            body,
            diagram,
            half: diagrams::half_width(diagram),
            code: usize::from(beside.unwrap_or(size.0).saturating_sub(2)).max(12),
            results,
            results_diagram: results
                .saturating_sub(RESULTS_INDENT + RESULTS_LABEL)
                .max(10),
        }
    }
}

/// Rows that show text in an area `height` rows tall: a text taller than its area gives
/// up the last row to say there is more.
pub fn shown_rows(lines: usize, height: usize) -> usize {
    if lines > height {
        height.saturating_sub(1)
    } else {
        height
    }
}

/// How far a text of `lines` rows scrolls in `shown` rows.
pub fn max_scroll(lines: usize, shown: usize) -> u16 {
    u16::try_from(lines.saturating_sub(shown)).unwrap_or(u16::MAX)
}

#[derive(Default)]
pub struct View {
    /// A digest of what it was measured from: measured again when that changes.
    pub inputs: Option<u64>,
    pub widths: Widths,
    /// On the question screen.
    pub question: Option<QuestionView>,
    /// On the results.
    pub results: Option<TextView>,
    /// While the help is open.
    pub help: Option<TextView>,
}

pub struct QuestionView {
    pub areas: QuestionAreas,
    pub lines: Vec<Line<'static>>,
    /// Rows `[start, end)` of each option, in choice order.
    pub option_rows: Vec<(usize, usize)>,
    /// Rows of the body's area that show text (see [`shown_rows`]).
    pub rows: usize,
    pub overflows: bool,
    pub max_scroll: u16,
    /// The open code panel, when this question has code.
    pub code: Option<CodeView>,
}

pub struct CodeView {
    /// Which question and terminal size it was wrapped for (kept while they stay).
    pub key: (usize, (u16, u16)),
    pub lines: Vec<Line<'static>>,
    /// Rows where the anchored lines start and end: `(first row, rows through the last)`.
    pub anchor: (usize, usize),
    pub max_scroll: u16,
}

/// A scrolled text: the results, the help.
pub struct TextView {
    pub lines: Vec<Line<'static>>,
    /// The results: the first row of each question's block, in quiz order.
    pub starts: Vec<usize>,
    /// Rows on screen.
    pub height: usize,
    pub max_scroll: u16,
}

impl View {
    /// The question's scroll limit, or the results' (the two screens that scroll).
    pub fn max_scroll(&self) -> u16 {
        self.question
            .as_ref()
            .map(|q| q.max_scroll)
            .or_else(|| self.results.as_ref().map(|r| r.max_scroll))
            .unwrap_or(0)
    }

    pub fn help_max_scroll(&self) -> u16 {
        self.help.as_ref().map_or(0, |h| h.max_scroll)
    }

    pub fn code_max_scroll(&self) -> u16 {
        self.question
            .as_ref()
            .and_then(|q| q.code.as_ref())
            .map_or(0, |c| c.max_scroll)
    }
}
