//! The compact form that always fits: one row per message, indented inside blocks,
//! participant ids with a legend for aliases and for the arrow glyphs used.

use crate::RenderOptions;
use crate::glyphs::{Dir4, Glyphs, Head, LineKind};
use crate::sequence::model::{Arrow, Diagram, Event, NotePos, PerParticipant};
use crate::sequence::prepare::{block_text, message_text};
use crate::style::{Line, Style};
use crate::text::{display_width, pad_right, wrap_hard};

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

/// A message's two ends as the listing names them: `-X` when the message deactivates its
/// sender, `+Y` when it activates its target.
pub(super) fn end_names(
    from: &str,
    to: &str,
    deactivate: bool,
    activate: bool,
) -> (String, String) {
    (
        format!("{}{from}", if deactivate { "-" } else { "" }),
        format!("{}{to}", if activate { "+" } else { "" }),
    )
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

/// The arrow kinds of a diagram, in order of first use.
fn kinds(d: &Diagram) -> Vec<Arrow> {
    let mut kinds: Vec<Arrow> = Vec::new();
    for e in &d.events {
        if let Event::Message { arrow, .. } = e
            && !kinds.contains(arrow)
        {
            kinds.push(*arrow);
        }
    }
    kinds
}

/// The legend naming the arrow kinds when a diagram mixes them (always in ASCII, whose
/// arrows are less telling). Empty when there is one kind.
pub fn legend(d: &Diagram, opts: &RenderOptions) -> Vec<Line> {
    let g = Glyphs::new(opts.ascii);
    let kinds = kinds(d);
    if kinds.len() < 2 && (!opts.ascii || kinds.is_empty()) {
        return Vec::new();
    }
    let items: Vec<String> = kinds
        .iter()
        .flat_map(|a| {
            wrap_hard(
                &format!("{} {}", arrow_token(g, *a), describe(*a)),
                opts.width,
            )
        })
        .collect();
    legend_rows(&items, opts.width, Style::Dim)
}

/// Participant ids as the rows show them: ids too long for a row get a short stand-in
/// (`P3`), explained with the aliases.
fn short_ids(d: &Diagram, width: usize) -> PerParticipant<String> {
    let long = |id: &str| display_width(id) > (width / 4).max(6);
    d.participants
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if long(&p.id) {
                format!("P{}", i + 1)
            } else {
                p.id.clone()
            }
        })
        .collect()
}

/// Aliases (`IT = _invoke_tool`) and boxes, before the rows: the reader needs them first.
fn header(d: &Diagram, ids: &PerParticipant<&str>, width: usize) -> Vec<Line> {
    let aliases: Vec<String> = d
        .participants
        .iter()
        .zip(ids)
        .filter(|(p, id)| p.label.join(" ") != **id)
        .map(|(p, id)| format!("{id} = {}", p.label.join(" ")))
        .collect();
    let mut out = Vec::new();
    if aliases.iter().all(|a| display_width(a) < width / 2) {
        out = legend_rows(&aliases, width, Style::Participant);
    } else {
        for a in &aliases {
            push_wrapped(
                &mut out,
                Line::default(),
                std::slice::from_ref(a),
                Style::Participant,
                width,
            );
        }
    }
    for grp in &d.groups {
        let members = ids.span(grp.first, grp.last);
        let text = format!("box {}: {}", grp.label, members.join(", "));
        push_wrapped(&mut out, Line::default(), &[text], Style::Block, width);
    }
    out
}

/// The rows' shared layout: ids, their column width, the indent of open blocks.
struct Rows<'a> {
    ids: &'a PerParticipant<&'a str>,
    col: usize,
    width: usize,
    glyphs: Glyphs,
    depth: usize,
}

/// The indent of rows inside `depth` open blocks.
fn indent(depth: usize) -> Line {
    Line::styled("  ".repeat(depth.min(8)), Style::Plain)
}

impl Rows<'_> {
    /// One event's rows.
    fn event(&mut self, out: &mut Vec<Line>, e: &Event) {
        let (ids, width) = (self.ids, self.width);
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
                let (from_name, to_name) = end_names(ids[*from], ids[*to], *deactivate, *activate);
                let mut line = indent(self.depth);
                line.push(pad_right(&from_name, self.col), Style::Participant);
                line.push(arrow_token(self.glyphs, *arrow), Style::Arrow);
                line.push(" ", Style::Plain);
                line.push(pad_right(&to_name, self.col), Style::Participant);
                line.push(" ", Style::Plain);
                let text = message_text(label, *number);
                push_wrapped(out, line, &text, Style::Label, width);
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
                let mut line = indent(self.depth);
                line.push(place, Style::Note);
                push_wrapped(out, line, text, Style::Note, width);
            }
            Event::BlockStart { kind, label } => {
                let text = [block_text(kind.keyword(), label)];
                push_wrapped(out, indent(self.depth), &text, Style::Block, width);
                self.depth += 1;
            }
            Event::BlockDivider { keyword, label } => {
                let line = indent(self.depth.saturating_sub(1));
                push_wrapped(
                    out,
                    line,
                    &[block_text(keyword, label)],
                    Style::Block,
                    width,
                );
            }
            Event::BlockEnd => {
                self.depth = self.depth.saturating_sub(1);
                let mut line = indent(self.depth);
                line.push("end", Style::Block);
                out.push(line);
            }
            Event::Activate(p) | Event::Deactivate(p) | Event::Create(p) | Event::Destroy(p) => {
                let word = e.lifeline_word();
                let text = [format!("{word} {}", ids[*p])];
                push_wrapped(out, indent(self.depth), &text, Style::Dim, width);
            }
        }
    }
}

/// Render the compact form.
pub fn render(d: &Diagram, opts: &RenderOptions) -> Vec<Line> {
    let width = opts.width;
    let id_strings = short_ids(d, width);
    let ids: PerParticipant<&str> = id_strings.map(String::as_str);
    let marks = d.events.iter().any(|e| {
        matches!(
            e,
            Event::Message { activate: true, .. }
                | Event::Message {
                    deactivate: true,
                    ..
                }
        )
    });
    let col = ids
        .iter()
        .map(|i| display_width(i) + 1 + usize::from(marks))
        .max()
        .unwrap_or(1)
        .min((width / 4).max(4));
    let mut out = header(d, &ids, width);
    let mut rows = Rows {
        ids: &ids,
        col,
        width,
        glyphs: Glyphs::new(opts.ascii),
        depth: 0,
    };
    for e in &d.events {
        rows.event(&mut out, e);
    }
    out.extend(legend(d, opts));
    if marks {
        out.push(Line::styled("+X activates X  -X deactivates X", Style::Dim));
    }
    out
}
