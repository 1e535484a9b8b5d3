//! A diagram as the items it says — participants, messages, notes and blocks; nodes,
//! edges, members and subgraphs — each as its row in the listing form, so two options
//! compare by what they say rather than by where their drawings put it.

use crate::{DiagramKind, kind_of, split_header, strip_front_matter};

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemKind {
    /// a sequence diagram's participant or actor
    Participant,
    /// a sequence diagram's message
    Message,
    /// a note
    Note,
    /// a `loop`/`alt`/`opt`/`par`/... frame or one of its sections
    Block,
    /// activate, deactivate, create, destroy
    Lifeline,
    /// a graph's direction
    Direction,
    /// a subgraph or composite state
    Subgraph,
    /// a node, state or class
    Node,
    /// an edge, transition or relation
    Edge,
    /// a class's attribute or method
    Member,
}

impl ItemKind {
    /// The word a comparison heads the item with.
    pub fn word(self) -> &'static str {
        match self {
            ItemKind::Participant => "participant",
            ItemKind::Message => "message",
            ItemKind::Note => "note",
            ItemKind::Block => "block",
            ItemKind::Lifeline => "lifeline",
            ItemKind::Direction => "direction",
            ItemKind::Subgraph => "subgraph",
            ItemKind::Node => "node",
            ItemKind::Edge => "edge",
            ItemKind::Member => "member",
        }
    }
}

/// One thing a diagram says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// What it is.
    pub kind: ItemKind,
    /// As the listing shows it (`Client ──▶ API: retry`).
    pub text: String,
    /// What options are compared by: two items are the same when their kind and key are.
    /// The text, except that a sequence event inside a block is placed by the block's kind
    /// and place, not by its condition: an `alt` whose guards are swapped differs by its
    /// two conditions, not by every message under them.
    pub key: String,
    /// The participants or nodes it involves, as they are shown.
    pub involves: Vec<String>,
    /// Its label (a message's or an edge's text): variants of one step share it.
    pub label: String,
    /// The id a participant or node has in the source (empty for other items): a node
    /// relabelled keeps it.
    pub id: String,
}

/// The items of one option, and whether their order is part of what it says (the
/// messages of a sequence diagram happen in order; a graph's edges do not).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Items {
    /// In source order.
    pub items: Vec<Item>,
    /// Their order is part of what the diagram says (a sequence diagram's messages).
    pub ordered: bool,
}

/// The items of a Mermaid source; `None` when it is no diagram this renderer reads (it
/// is shown as source then).
pub fn items_of(source: &str) -> Option<Items> {
    if source.len() > crate::MAX_SOURCE_BYTES {
        return None;
    }
    let body = strip_front_matter(source);
    if body.lines().filter(|l| !l.trim().is_empty()).count() > crate::MAX_STATEMENTS {
        return None;
    }
    let (header, rest) = split_header(body.text)?;
    let keyword = header
        .split(|c: char| c.is_whitespace() || c == ';')
        .next()
        .unwrap_or("");
    let items = match kind_of(keyword) {
        DiagramKind::Sequence => Items {
            items: crate::sequence::items(rest).ok()?,
            ordered: true,
        },
        DiagramKind::Flowchart => Items {
            items: crate::graph::flowchart_items(header, rest).ok()?,
            ordered: false,
        },
        DiagramKind::State => Items {
            items: crate::graph::state_items(rest).ok()?,
            ordered: false,
        },
        DiagramKind::Class => Items {
            items: crate::graph::class_items(rest).ok()?,
            ordered: false,
        },
        DiagramKind::Unsupported | DiagramKind::Unknown => return None,
    };
    Some(items)
}

/// Stands in for every letter and digit of `lines` (see [`stand_in`]); whether any was.
pub(crate) fn stand_in_all(lines: &mut [String]) -> bool {
    let mut changed = false;
    for line in lines {
        let other = stand_in(line);
        changed |= other != *line;
        *line = other;
    }
    changed
}

/// A text of the same width and shape, each ASCII letter and digit the next of its kind
/// (`a`→`b`, `z`→`a`, `9`→`0`): it wraps and sizes its box as the text does.
fn stand_in(text: &str) -> String {
    let next = |c: char, first: char, count: u8| -> char {
        let at = u32::from(c) - u32::from(first);
        char::from_u32(u32::from(first) + (at + 1) % u32::from(count)).unwrap_or(c)
    };
    text.chars()
        .map(|c| match c {
            'a'..='z' => next(c, 'a', 26),
            'A'..='Z' => next(c, 'A', 26),
            '0'..='9' => next(c, '0', 10),
            _ => c,
        })
        .collect()
}
