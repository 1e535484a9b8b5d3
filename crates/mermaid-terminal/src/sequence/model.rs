//! The parsed sequence diagram.

use crate::glyphs::{Head, LineKind};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Participant {
    /// The name used in statements.
    pub id: String,
    /// What is shown (the alias when `as` is given), one entry per line.
    pub label: Vec<String>,
    pub actor: bool,
    /// Declared with `create`: the box is drawn where it is created.
    pub created: bool,
}

/// A message arrow: shaft kind, head, and whether it has heads at both ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrow {
    pub line: LineKind,
    pub head: Head,
    pub both: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotePos {
    Left,
    Right,
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    Loop,
    Alt,
    Opt,
    Par,
    Critical,
    Break,
    Rect,
}

impl BlockKind {
    pub fn keyword(self) -> &'static str {
        match self {
            BlockKind::Loop => "loop",
            BlockKind::Alt => "alt",
            BlockKind::Opt => "opt",
            BlockKind::Par => "par",
            BlockKind::Critical => "critical",
            BlockKind::Break => "break",
            BlockKind::Rect => "rect",
        }
    }

    /// The divider keyword allowed inside this block (`else`, `and`, `option`).
    pub fn divider(self) -> Option<&'static str> {
        match self {
            BlockKind::Alt => Some("else"),
            BlockKind::Par => Some("and"),
            BlockKind::Critical => Some("option"),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Message {
        from: usize,
        to: usize,
        arrow: Arrow,
        label: Vec<String>,
        /// `+` on the target: activate it.
        activate: bool,
        /// `-` on the target: deactivate the sender.
        deactivate: bool,
        number: Option<usize>,
    },
    Note {
        pos: NotePos,
        first: usize,
        last: usize,
        text: Vec<String>,
    },
    BlockStart {
        kind: BlockKind,
        label: String,
    },
    BlockDivider {
        keyword: &'static str,
        label: String,
    },
    BlockEnd,
    Activate(usize),
    Deactivate(usize),
    Create(usize),
    Destroy(usize),
}

impl Event {
    /// The keyword of an event on a lifeline (`activate`, `deactivate`, `create`,
    /// `destroy`); empty for other events.
    pub fn lifeline_word(&self) -> &'static str {
        match self {
            Event::Activate(_) => "activate",
            Event::Deactivate(_) => "deactivate",
            Event::Create(_) => "create",
            Event::Destroy(_) => "destroy",
            _ => "",
        }
    }
}

/// A `box` group around consecutive participants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub label: String,
    pub first: usize,
    pub last: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagram {
    pub participants: Vec<Participant>,
    pub events: Vec<Event>,
    pub groups: Vec<Group>,
    pub title: Option<String>,
}
