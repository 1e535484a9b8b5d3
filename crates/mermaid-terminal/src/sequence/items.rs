//! A sequence diagram as comparable items (see [`crate::items`]): participants by
//! the name their box shows, then every event in order, inside its blocks.

use crate::compare::Shown;
use crate::glyphs::{Glyphs, LineKind};
use crate::items::{Item, ItemKind, stand_in_all};
use crate::sequence::compact::{arrow_token, end_names};
use crate::sequence::model::{Diagram, Event, NotePos, ParticipantId, PerParticipant};
use crate::sequence::prepare::block_text;

pub fn items(d: &Diagram) -> Vec<Item> {
    parts(d).into_iter().map(|(item, _)| item).collect()
}

/// What an item of a sequence diagram is drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// a participant's box
    Participant(ParticipantId),
    /// an event (by its place in [`Diagram::events`]): a message, note or block
    Event(usize),
}

/// The diagram with the texts of the items `differing` (their texts as
/// [`crate::what_differs`] keys them) in stand-in letters of the same widths, or their
/// messages' arrows in another line (dotted for solid, solid for dotted), as `shown` asks,
/// so that a drawing of it shows where they are; `None` when none of them is drawn so.
pub fn with_stand_ins(d: &Diagram, differing: &[&str], shown: Shown) -> Option<Diagram> {
    let said = parts(d);
    let items: Vec<Item> = said.iter().map(|(item, _)| item.clone()).collect();
    let keys = crate::what_differs::keyed_texts(&items);
    let mut out = d.clone();
    let mut changed = false;
    for ((_, part), key) in said.iter().zip(&keys) {
        if !differing.contains(&key.as_str()) {
            continue;
        }
        changed |= match (*part, shown) {
            (Part::Participant(p), Shown::Labels) => stand_in_all(&mut out.participants[p].label),
            (Part::Participant(_), Shown::Edges) => false,
            (Part::Event(k), _) => out.events.get_mut(k).is_some_and(|e| stand_in(e, shown)),
        };
    }
    changed.then_some(out)
}

/// An event's text in stand-in letters, or a message's arrow in another line; whether it
/// changed.
fn stand_in(e: &mut Event, shown: Shown) -> bool {
    match (e, shown) {
        (Event::Message { label, .. }, Shown::Labels) => stand_in_all(label),
        (Event::Message { arrow, .. }, Shown::Edges) => {
            // A sequence arrow is as long with either line: the layout stays.
            arrow.line = match arrow.line {
                LineKind::Solid => LineKind::Dotted,
                LineKind::Dotted | LineKind::Thick => LineKind::Solid,
            };
            true
        }
        (Event::Note { text, .. }, Shown::Labels) => stand_in_all(text),
        (Event::BlockStart { label, .. } | Event::BlockDivider { label, .. }, Shown::Labels) => {
            stand_in_all(std::slice::from_mut(label))
        }
        _ => false,
    }
}

/// Each item with what it is drawn from.
fn parts(d: &Diagram) -> Vec<(Item, Part)> {
    let names: PerParticipant<String> = d.participants.map(|p| p.label.join(" "));
    let glyphs = Glyphs::new(false);
    let mut out: Vec<(Item, Part)> = names
        .iter()
        .zip(d.participants.ids().zip(&d.participants))
        .map(|(n, (id, p))| {
            let item = Item {
                kind: ItemKind::Participant,
                text: n.clone(),
                key: n.clone(),
                involves: vec![n.clone()],
                label: String::new(),
                id: p.id.clone(),
            };
            (item, Part::Participant(id))
        })
        .collect();
    // The blocks an event is in: a message moved out of an `alt` says something else.
    let mut blocks = Blocks::default();
    let name = |i: ParticipantId| names.get(i).cloned().unwrap_or_default();
    for (k, e) in d.events.iter().enumerate() {
        let (kind, text, involves, label) = match e {
            Event::Message {
                from,
                to,
                arrow,
                label,
                activate,
                deactivate,
                number: _,
            } => {
                // Said without its autonumber: the number follows from the order (compared
                // as moved), and a message sent earlier must not make every later one differ.
                let label = label.join(" ");
                let (from_name, to_name) =
                    end_names(&name(*from), &name(*to), *deactivate, *activate);
                let mut text = format!("{from_name} {} {to_name}", arrow_token(glyphs, *arrow));
                if !label.is_empty() {
                    text.push_str(": ");
                    text.push_str(&label);
                }
                (ItemKind::Message, text, vec![name(*from), name(*to)], label)
            }
            Event::Note {
                pos,
                first,
                last,
                text,
            } => {
                let place = match pos {
                    NotePos::Left => format!("note left of {}", name(*first)),
                    NotePos::Right => format!("note right of {}", name(*first)),
                    NotePos::Over if first == last => format!("note over {}", name(*first)),
                    NotePos::Over => format!("note over {}, {}", name(*first), name(*last)),
                };
                let label = text.join(" ");
                let involves = vec![name(*first), name(*last)];
                (ItemKind::Note, format!("{place}: {label}"), involves, label)
            }
            Event::BlockStart { kind, label } => {
                let text = block_text(kind.keyword(), label);
                let item = blocks.item(text.clone(), label);
                blocks.start(kind.keyword(), text);
                out.push((item, Part::Event(k)));
                continue;
            }
            Event::BlockDivider { keyword, label } => {
                let text = block_text(keyword, label);
                blocks.end();
                let item = blocks.item(text.clone(), label);
                blocks.divide(text);
                out.push((item, Part::Event(k)));
                continue;
            }
            Event::BlockEnd => {
                blocks.end();
                continue;
            }
            Event::Activate(p) | Event::Deactivate(p) | Event::Create(p) | Event::Destroy(p) => {
                let word = e.lifeline_word();
                let text = format!("{word} {}", name(*p));
                (ItemKind::Lifeline, text, vec![name(*p)], String::new())
            }
        };
        let item = Item {
            kind,
            key: blocks.keyed(text.clone()),
            text: blocks.shown(text),
            involves,
            label,
            id: String::new(),
        };
        out.push((item, Part::Event(k)));
    }
    out
}

/// The blocks an event is in: shown by their conditions, compared by their kind and
/// place (`alt 2`, its `else` as `alt 2 part 1`).
#[derive(Default)]
struct Blocks {
    shown: Vec<String>,
    places: Vec<Place>,
    /// blocks started so far (numbers them)
    started: usize,
    /// the block and part [`Blocks::end`] last ended (an `else` goes on with it)
    ended: Option<String>,
    ended_part: usize,
}

/// Where an event is among the blocks: which block (its keyword and number in the
/// diagram), and which part of it (0, then one more at each `else`/`and`/`option`).
struct Place {
    block: String,
    part: usize,
}

impl Blocks {
    fn start(&mut self, keyword: &str, text: String) {
        self.shown.push(text);
        self.started += 1;
        self.places.push(Place {
            block: format!("{keyword} {}", self.started),
            part: 0,
        });
    }

    /// The next part of the block just ended by [`Blocks::end`] (an `else`).
    fn divide(&mut self, text: String) {
        self.shown.push(text);
        self.places.push(Place {
            block: self.ended.take().unwrap_or_default(),
            part: self.ended_part + 1,
        });
    }

    fn end(&mut self) {
        self.shown.pop();
        if let Some(p) = self.places.pop() {
            self.ended = Some(p.block);
            self.ended_part = p.part;
        }
    }

    /// `text` inside the blocks, as shown.
    fn shown(&self, text: String) -> String {
        within(&self.shown, text)
    }

    /// `text` inside the blocks, as compared.
    fn keyed(&self, text: String) -> String {
        let places: Vec<String> = self
            .places
            .iter()
            .map(|p| match p.part {
                0 => p.block.clone(),
                n => format!("{} part {n}", p.block),
            })
            .collect();
        within(&places, text)
    }

    /// A block's own row, inside its outer blocks.
    fn item(&self, text: String, label: &str) -> Item {
        Item {
            kind: ItemKind::Block,
            key: self.keyed(text.clone()),
            text: self.shown(text),
            involves: Vec::new(),
            label: label.to_string(),
            id: String::new(),
        }
    }
}

/// `text` inside `blocks`, `outer › inner › text`.
fn within(blocks: &[String], text: String) -> String {
    if blocks.is_empty() {
        text
    } else {
        format!("{} › {text}", blocks.join(" › "))
    }
}
