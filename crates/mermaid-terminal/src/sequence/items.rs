//! A sequence diagram as comparable items (see [`crate::items`]): participants by
//! the name their box shows, then every event in order, inside its blocks.

use crate::glyphs::Glyphs;
use crate::items::{Item, ItemKind};
use crate::sequence::compact::{arrow_token, end_names};
use crate::sequence::model::{Diagram, Event, NotePos, ParticipantId, PerParticipant};
use crate::sequence::prepare::{block_text, message_text};

pub fn items(d: &Diagram) -> Vec<Item> {
    let names: PerParticipant<String> = d.participants.map(|p| p.label.join(" "));
    let glyphs = Glyphs::new(false);
    let mut out: Vec<Item> = names
        .iter()
        .zip(&d.participants)
        .map(|(n, p)| Item {
            kind: ItemKind::Participant,
            text: n.clone(),
            involves: vec![n.clone()],
            label: String::new(),
            id: p.id.clone(),
        })
        .collect();
    // The blocks an event is in: a message moved out of an `alt` says something else.
    let mut blocks: Vec<String> = Vec::new();
    let within = |blocks: &[String], text: String| {
        if blocks.is_empty() {
            text
        } else {
            format!("{} › {text}", blocks.join(" › "))
        }
    };
    let name = |i: ParticipantId| names.get(i).cloned().unwrap_or_default();
    for e in &d.events {
        let (kind, text, involves, label) = match e {
            Event::Message {
                from,
                to,
                arrow,
                label,
                activate,
                deactivate,
                number,
            } => {
                let label = message_text(label, *number).join(" ");
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
                let item = within(&blocks, text.clone());
                blocks.push(text);
                (ItemKind::Block, item, Vec::new(), label.clone())
            }
            Event::BlockDivider { keyword, label } => {
                let text = block_text(keyword, label);
                blocks.pop();
                let item = within(&blocks, text.clone());
                blocks.push(text);
                (ItemKind::Block, item, Vec::new(), label.clone())
            }
            Event::BlockEnd => {
                blocks.pop();
                continue;
            }
            Event::Activate(p) | Event::Deactivate(p) | Event::Create(p) | Event::Destroy(p) => {
                let word = e.lifeline_word();
                let text = format!("{word} {}", name(*p));
                (ItemKind::Lifeline, text, vec![name(*p)], String::new())
            }
        };
        out.push(Item {
            kind,
            text: within(&blocks_before(&blocks, kind), text),
            involves,
            label,
            id: String::new(),
        });
    }
    out
}

/// The blocks to name before an item: a block's own row already names its outer blocks.
fn blocks_before(blocks: &[String], kind: ItemKind) -> Vec<String> {
    if kind == ItemKind::Block {
        Vec::new()
    } else {
        blocks.to_vec()
    }
}
