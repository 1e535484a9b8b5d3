//! Labels wrapped to a maximum width: the input of the lifeline layout.

use crate::sequence::model::{Arrow, Diagram, Event, NotePos};
use crate::text::{display_width, max_width, wrap, wrap_all, wrap_into};

#[derive(Debug, Clone)]
pub enum Item {
    Message {
        from: usize,
        to: usize,
        arrow: Arrow,
        lines: Vec<String>,
        /// the label unwrapped, to wrap again to the room its arrow leaves
        text: Vec<String>,
        activate: bool,
        deactivate: bool,
    },
    Note {
        pos: NotePos,
        first: usize,
        last: usize,
        lines: Vec<String>,
        /// the text unwrapped, to wrap again to the width of what a note over spans
        text: Vec<String>,
    },
    /// a frame opens (`depth` counts from 1 = outermost)
    Open {
        lines: Vec<String>,
        /// the header unwrapped, to wrap again to the frame's width
        text: String,
    },
    Divider {
        lines: Vec<String>,
        text: String,
    },
    Close,
    Activate(usize),
    Deactivate(usize),
    Create(usize),
    Destroy(usize),
}

#[derive(Debug, Clone)]
pub struct Prepared {
    pub names: Vec<Vec<String>>,
    pub actors: Vec<bool>,
    pub created: Vec<bool>,
    pub items: Vec<Item>,
    pub groups: Vec<(String, usize, usize)>,
    pub depth: usize,
    pub title: Option<String>,
}

/// The label of a message, with its autonumber.
pub fn message_text(label: &[String], number: Option<usize>) -> Vec<String> {
    let mut lines = label.to_vec();
    if let Some(n) = number
        && let Some(first) = lines.first_mut()
    {
        *first = if first.is_empty() {
            format!("{n}.")
        } else {
            format!("{n}. {first}")
        };
    }
    if lines.iter().all(String::is_empty) {
        return Vec::new();
    }
    lines
}

/// Text of a frame header: `loop [every 5s]`.
pub fn block_text(keyword: &str, label: &str) -> String {
    if label.is_empty() {
        keyword.to_string()
    } else {
        format!("{keyword} [{label}]")
    }
}

/// How participant names are laid out in their boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// one line each (as written)
    Whole,
    /// each line wrapped into at most three, as narrow as code-friendly breaks allow
    Narrow,
}

/// Wrap every label to `max` columns (`usize::MAX`: no wrapping).
pub fn prepare(d: &Diagram, max: usize, names: Names) -> Prepared {
    let names = d
        .participants
        .iter()
        .map(|p| match names {
            Names::Whole => p.label.clone(),
            Names::Narrow => p.label.iter().flat_map(|l| wrap_into(l, 3)).collect(),
        })
        .collect();
    let mut depth = 0usize;
    let mut cur = 0usize;
    let items = d
        .events
        .iter()
        .map(|e| match e {
            Event::Message {
                from,
                to,
                arrow,
                label,
                activate,
                deactivate,
                number,
            } => {
                let text = message_text(label, *number);
                Item::Message {
                    from: *from,
                    to: *to,
                    arrow: *arrow,
                    lines: wrap_all(&text, max),
                    text,
                    activate: *activate,
                    deactivate: *deactivate,
                }
            }
            Event::Note {
                pos,
                first,
                last,
                text,
            } => Item::Note {
                pos: *pos,
                first: *first,
                last: *last,
                lines: wrap_all(text, max),
                text: text.clone(),
            },
            Event::BlockStart { kind, label } => {
                cur += 1;
                depth = depth.max(cur);
                let text = block_text(kind.keyword(), label);
                Item::Open {
                    lines: wrap(&text, max),
                    text,
                }
            }
            Event::BlockDivider { keyword, label } => {
                let text = block_text(keyword, label);
                Item::Divider {
                    lines: wrap(&text, max),
                    text,
                }
            }
            Event::BlockEnd => {
                cur = cur.saturating_sub(1);
                Item::Close
            }
            Event::Activate(p) => Item::Activate(*p),
            Event::Deactivate(p) => Item::Deactivate(*p),
            Event::Create(p) => Item::Create(*p),
            Event::Destroy(p) => Item::Destroy(*p),
        })
        .collect();
    Prepared {
        names,
        actors: d.participants.iter().map(|p| p.actor).collect(),
        created: d.participants.iter().map(|p| p.created).collect(),
        items,
        groups: d
            .groups
            .iter()
            .map(|g| (g.label.clone(), g.first, g.last))
            .collect(),
        depth,
        title: d.title.clone(),
    }
}

/// Widest label of the diagram (messages, notes, frames), for the wrap search.
pub fn widest_label(p: &Prepared) -> usize {
    p.items
        .iter()
        .map(|i| match i {
            Item::Message { lines, .. }
            | Item::Note { lines, .. }
            | Item::Open { lines, .. }
            | Item::Divider { lines, .. } => max_width(lines),
            _ => 0,
        })
        .chain(p.names.iter().map(|n| max_width(n)))
        .chain(p.groups.iter().map(|g| display_width(&g.0)))
        .max()
        .unwrap_or(0)
}
