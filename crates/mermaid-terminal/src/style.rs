//! Styled output: the renderer returns lines of spans; the caller decides colours.

use crate::text::display_width;

/// What a piece of output text represents (the caller maps this to colours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Style {
    /// anything else (spaces, source text)
    #[default]
    Plain,
    /// a box's or a frame's border
    Border,
    /// a participant's, node's or state's name
    Participant,
    /// lines and arrow heads
    Arrow,
    /// a message's or an edge's label, a title
    Label,
    /// a note's text
    Note,
    /// loop/alt/opt/... frames and subgraph frames
    Block,
    /// secondary text: legends, the fallback's frame
    Dim,
    /// the reason a diagram is shown as source
    Warning,
}

/// A run of text sharing one style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// The text (sanitized, one row).
    pub text: String,
    /// What it represents.
    pub style: Style,
}

/// One output row.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line {
    /// The runs, left to right.
    pub spans: Vec<Span>,
}

impl Line {
    /// A line holding one span.
    pub fn styled(text: impl Into<String>, style: Style) -> Self {
        let mut line = Line::default();
        line.push(text, style);
        line
    }

    /// Append text, merging with the previous span when the style is the same.
    pub fn push(&mut self, text: impl Into<String>, style: Style) {
        let text = text.into();
        if text.is_empty() {
            return;
        }
        match self.spans.last_mut() {
            Some(last) if last.style == style => last.text.push_str(&text),
            _ => self.spans.push(Span { text, style }),
        }
    }

    /// Append borrowed text (no allocation when it extends the last span).
    pub fn push_str(&mut self, text: &str, style: Style) {
        if text.is_empty() {
            return;
        }
        match self.spans.last_mut() {
            Some(last) if last.style == style => last.text.push_str(text),
            _ => self.spans.push(Span {
                text: text.to_string(),
                style,
            }),
        }
    }

    /// Display width in terminal columns.
    pub fn width(&self) -> usize {
        self.spans.iter().map(|s| display_width(&s.text)).sum()
    }

    /// The plain text of the line.
    pub fn text(&self) -> String {
        self.spans.iter().map(|s| s.text.as_str()).collect()
    }

    /// Remove trailing spaces (the canvas pads cells with spaces).
    pub fn trim_end(&mut self) {
        while let Some(last) = self.spans.last_mut() {
            let trimmed = last.text.trim_end_matches(' ').len();
            last.text.truncate(trimmed);
            if last.text.is_empty() {
                self.spans.pop();
            } else {
                break;
            }
        }
    }
}
