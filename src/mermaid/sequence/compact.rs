//! The compact form that always fits: one row per message, indented inside blocks,
//! participant ids with a legend for aliases and for the arrow glyphs used.

use crate::mermaid::RenderOptions;
use crate::mermaid::glyphs::{Dir4, Glyphs, Head, LineKind};
use crate::mermaid::sequence::model::{Arrow, Diagram, Event, NotePos};
use crate::mermaid::sequence::prepare::{block_text, message_text};
use crate::mermaid::style::{Line, Style};
use crate::mermaid::text::{display_width, pad_right, wrap_hard};

/// Label columns narrower than this move the label to its own row.
const MIN_LABEL: usize = 12;

/// Three-column arrow token, e.g. `──▶`, `┄┄▷`, `◀─▶` (ASCII: `-->`, `..)`, `<->`).
pub fn arrow_token(g: Glyphs, a: Arrow) -> String {
    let shaft = g.hshaft(a.line);
    let head = g.head(a.head, Dir4::Right);
    match (a.head, a.both) {
        (Head::None, _) => format!("{shaft}{shaft}{shaft}"),
        (_, true) => format!("{}{shaft}{head}", g.head(a.head, Dir4::Left)),
        _ => format!("{shaft}{shaft}{head}"),
    }
}

fn describe(a: Arrow) -> &'static str {
    match (a.line, a.head, a.both) {
        (LineKind::Dotted, _, true) => "dotted, both ways",
        (_, _, true) => "solid, both ways",
        (LineKind::Dotted, Head::Arrow, _) => "dotted",
        (_, Head::Arrow, _) => "solid",
        (LineKind::Dotted, Head::Open, _) => "dotted async",
        (_, Head::Open, _) => "async",
        (LineKind::Dotted, Head::Cross, _) => "dotted cross",
        (_, Head::Cross, _) => "cross",
        (LineKind::Dotted, _, _) => "dotted, no head",
        _ => "solid, no head",
    }
}

/// Lay `items` out as `a  b  c` rows no wider than `width`.
fn legend_rows(items: &[String], width: usize, style: Style) -> Vec<Line> {
    let mut rows = Vec::new();
    let mut cur = String::new();
    for item in items {
        if !cur.is_empty() && display_width(&cur) + 2 + display_width(item) > width {
            rows.push(Line::styled(std::mem::take(&mut cur), style));
        }
        if !cur.is_empty() {
            cur.push_str("  ");
        }
        cur.push_str(item);
    }
    if !cur.is_empty() {
        rows.push(Line::styled(cur, style));
    }
    rows
}

/// Push `prefix` then `text` wrapped into the columns left; continuation rows are indented.
fn push_wrapped(
    out: &mut Vec<Line>,
    mut first: Line,
    text_lines: &[String],
    style: Style,
    width: usize,
) {
    let used = first.width();
    let (indent, avail) = if width.saturating_sub(used) >= MIN_LABEL {
        (used, width - used)
    } else {
        (4.min(width), width.saturating_sub(4))
    };
    let mut pieces: Vec<String> = text_lines
        .iter()
        .flat_map(|l| wrap_hard(l, avail.max(1)))
        .collect();
    if pieces.is_empty() {
        out.push(first);
        return;
    }
    if indent == used {
        first.push(pieces.remove(0), style);
    }
    out.push(first);
    for p in pieces {
        let mut l = Line::styled(" ".repeat(indent), Style::Plain);
        l.push(p, style);
        out.push(l);
    }
}

/// Render the compact form.
pub fn render(d: &Diagram, opts: &RenderOptions) -> Vec<Line> {
    let g = Glyphs::new(opts.ascii);
    let width = opts.width;
    let mut out = Vec::new();
    // Ids too long for a row get a short stand-in (`P3`), explained in the legend.
    let long = |id: &str| display_width(id) > (width / 4).max(6);
    let id_strings: Vec<String> = d
        .participants
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if long(&p.id) {
                format!("P{}", i + 1)
            } else {
                p.id.clone()
            }
        })
        .collect();
    let ids: Vec<&str> = id_strings.iter().map(String::as_str).collect();
    let col = ids
        .iter()
        .map(|i| display_width(i) + 1)
        .max()
        .unwrap_or(1)
        .min((width / 4).max(4));
    // Legend of aliases first: the reader needs it before the rows.
    let aliases: Vec<String> = d
        .participants
        .iter()
        .zip(&ids)
        .filter(|(p, id)| p.label.join(" ") != **id)
        .map(|(p, id)| format!("{id} = {}", p.label.join(" ")))
        .collect();
    let mut legend = Vec::new();
    for a in &aliases {
        push_wrapped(
            &mut legend,
            Line::default(),
            std::slice::from_ref(a),
            Style::Participant,
            width,
        );
    }
    if aliases.iter().all(|a| display_width(a) < width / 2) {
        legend = legend_rows(&aliases, width, Style::Participant);
    }
    out.extend(legend);
    for grp in &d.groups {
        let members: Vec<&str> = ids[grp.first..=grp.last.min(ids.len() - 1)].to_vec();
        let text = format!("box {}: {}", grp.label, members.join(", "));
        push_wrapped(&mut out, Line::default(), &[text], Style::Block, width);
    }
    let mut depth = 0usize;
    let mut kinds: Vec<Arrow> = Vec::new();
    for e in &d.events {
        let indent = "  ".repeat(depth.min(8));
        match e {
            Event::Message {
                from,
                to,
                arrow,
                label,
                activate,
                deactivate,
                number,
            } => {
                if !kinds.contains(arrow) {
                    kinds.push(*arrow);
                }
                let mut to_name = ids[*to].to_string();
                if *activate {
                    to_name.insert(0, '+');
                } else if *deactivate {
                    to_name.insert(0, '-');
                }
                let mut line = Line::styled(indent.clone(), Style::Plain);
                line.push(pad_right(ids[*from], col), Style::Participant);
                line.push(arrow_token(g, *arrow), Style::Arrow);
                line.push(" ", Style::Plain);
                line.push(pad_right(&to_name, col), Style::Participant);
                line.push(" ", Style::Plain);
                push_wrapped(
                    &mut out,
                    line,
                    &message_text(label, *number),
                    Style::Label,
                    width,
                );
            }
            Event::Note {
                pos,
                first,
                last,
                text,
            } => {
                let place = match pos {
                    NotePos::Left => format!("note left of {}: ", ids[*first]),
                    NotePos::Right => format!("note right of {}: ", ids[*first]),
                    NotePos::Over if first == last => format!("note over {}: ", ids[*first]),
                    NotePos::Over => format!("note over {},{}: ", ids[*first], ids[*last]),
                };
                let mut line = Line::styled(indent, Style::Plain);
                line.push(place, Style::Note);
                push_wrapped(&mut out, line, text, Style::Note, width);
            }
            Event::BlockStart { kind, label } => {
                push_wrapped(
                    &mut out,
                    Line::styled(indent, Style::Plain),
                    &[block_text(kind.keyword(), label)],
                    Style::Block,
                    width,
                );
                depth += 1;
            }
            Event::BlockDivider { keyword, label } => {
                let indent = "  ".repeat(depth.saturating_sub(1).min(8));
                push_wrapped(
                    &mut out,
                    Line::styled(indent, Style::Plain),
                    &[block_text(keyword, label)],
                    Style::Block,
                    width,
                );
            }
            Event::BlockEnd => {
                depth = depth.saturating_sub(1);
                let mut line = Line::styled("  ".repeat(depth.min(8)), Style::Plain);
                line.push("end", Style::Block);
                out.push(line);
            }
            Event::Activate(p) | Event::Deactivate(p) | Event::Create(p) | Event::Destroy(p) => {
                let word = match e {
                    Event::Activate(_) => "activate",
                    Event::Deactivate(_) => "deactivate",
                    Event::Create(_) => "create",
                    _ => "destroy",
                };
                push_wrapped(
                    &mut out,
                    Line::styled(indent, Style::Plain),
                    &[format!("{word} {}", ids[*p])],
                    Style::Dim,
                    width,
                );
            }
        }
    }
    let legend: Vec<String> = kinds
        .iter()
        .map(|a| format!("{} {}", arrow_token(g, *a), describe(*a)))
        .collect();
    if kinds.len() > 1 || opts.ascii {
        out.extend(legend_rows(&legend, width, Style::Dim));
    }
    out
}
