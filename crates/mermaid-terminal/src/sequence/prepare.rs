//! Labels wrapped to a maximum width: the input of the lifeline layout.

use crate::sequence::model::{Arrow, Diagram, Event, NotePos};
use crate::text::{display_width, max_width, wrap, wrap_all, wrap_count, wrap_into};

/// Rows a wrapped message or note may add to what its source writes; beyond that the
/// compact form reads better.
const GROWTH: usize = 5;

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
    /// participant boxes hug their names (no space inside the sides)
    pub tight: bool,
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
    /// wrapped as `Narrow`, in boxes without a space inside their sides: the last resort
    /// before the listing, for many participants with long names
    Tight,
}

/// Per event, the narrowest wrap width from `min` at which its label (a message's or a
/// note's) adds at most [`GROWTH`] rows; 0 for the other events. Each label keeps its own
/// floor, so one long note does not keep every message from wrapping narrower.
pub fn wrap_floors(d: &Diagram, min: usize) -> Vec<usize> {
    d.events
        .iter()
        .map(|e| match e {
            Event::Message { label, number, .. } => floor(&message_text(label, *number), min),
            Event::Note { text, .. } => floor(text, min),
            // frame headers are wrapped again to the frame's width when drawn
            _ => 0,
        })
        .collect()
}

/// The narrowest width from `min` at which `lines` wrap into at most `GROWTH` more rows.
fn floor(lines: &[String], min: usize) -> usize {
    let rows = |max: usize| lines.iter().map(|l| wrap_count(l, max)).sum::<usize>();
    let budget = lines.len() + GROWTH;
    let (mut lo, mut hi) = (min, max_width(lines).max(min));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if rows(mid) <= budget {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// Wrap every label to `max` columns (`usize::MAX`: no wrapping), a message or note no
/// narrower than its floor (`floors`, by event; empty: none).
pub fn prepare(d: &Diagram, max: usize, names: Names, floors: &[usize]) -> Prepared {
    let tight = names == Names::Tight;
    let names = d
        .participants
        .iter()
        .map(|p| match names {
            Names::Whole => p.label.clone(),
            Names::Narrow | Names::Tight => p.label.iter().flat_map(|l| wrap_into(l, 3)).collect(),
        })
        .collect();
    let mut depth = 0usize;
    let mut cur = 0usize;
    let items = d
        .events
        .iter()
        .enumerate()
        .map(|(i, e)| (max.max(floors.get(i).copied().unwrap_or(0)), e))
        .map(|(label_max, e)| match e {
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
                    lines: wrap_all(&text, label_max),
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
                lines: wrap_all(text, label_max),
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
        tight,
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
