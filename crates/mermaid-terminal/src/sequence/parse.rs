//! sequenceDiagram parser. Anything not understood is an error (shown as a fallback reason),
//! never silently dropped.

use crate::glyphs::{Head, LineKind};
use crate::sequence::model::{
    Arrow, BlockKind, Diagram, Event, Group, NotePos, Participant, ParticipantId,
};
use crate::text::{collapse_spaces, label_lines, sanitize, truncate};
use std::borrow::Cow;

/// Arrow tokens, longest first within each family.
const ARROWS: &[(&str, LineKind, Head, bool)] = &[
    ("<<-->>", LineKind::Dotted, Head::Arrow, true),
    ("<<->>", LineKind::Solid, Head::Arrow, true),
    ("-->>", LineKind::Dotted, Head::Arrow, false),
    ("->>", LineKind::Solid, Head::Arrow, false),
    ("--)", LineKind::Dotted, Head::Open, false),
    ("-)", LineKind::Solid, Head::Open, false),
    ("-->", LineKind::Dotted, Head::None, false),
    ("->", LineKind::Solid, Head::None, false),
];
/// Cross arrows are looked for only when no other arrow is present (`-x` also occurs in names).
const CROSS_ARROWS: &[(&str, LineKind, Head, bool)] = &[
    ("--x", LineKind::Dotted, Head::Cross, false),
    ("-x", LineKind::Solid, Head::Cross, false),
];

struct Parser {
    d: Diagram,
    /// open blocks; `None` marks a `box`
    stack: Vec<Option<BlockKind>>,
    open_group: Option<OpenBox>,
    number: Option<(usize, usize)>,
    pending_create: Option<ParticipantId>,
}

/// A `box` being declared: its label, and its first and last participant so far.
struct OpenBox {
    label: String,
    members: Option<(ParticipantId, ParticipantId)>,
}

/// Parse the statements after the `sequenceDiagram` header.
pub fn parse(body: &str) -> Result<Diagram, String> {
    let mut p = Parser {
        // about an event a line: grown once, not doubling from empty
        d: Diagram {
            events: Vec::with_capacity(body.lines().count()),
            ..Diagram::default()
        },
        stack: Vec::new(),
        open_group: None,
        number: None,
        pending_create: None,
    };
    for raw in body.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with("%%") {
            continue;
        }
        let line = line.strip_suffix(';').unwrap_or(line).trim_end();
        p.statement(line)
            .map_err(|e| format!("{e}: `{}`", truncate(&sanitize(line), 40, false)))?;
    }
    if !p.stack.is_empty() || p.open_group.is_some() {
        return Err("a block is not closed with `end`".into());
    }
    if p.d.participants.is_empty() {
        return Err("sequence diagram has no participants".into());
    }
    Ok(p.d)
}

/// Split `word rest` on the first whitespace.
fn first_word(s: &str) -> (&str, &str) {
    match s.split_once(char::is_whitespace) {
        Some((a, b)) => (a, b.trim()),
        None => (s, ""),
    }
}

fn clean_name(s: &str) -> Cow<'_, str> {
    let s = s.trim();
    let s = s
        .strip_prefix('"')
        .and_then(|x| x.strip_suffix('"'))
        .unwrap_or(s);
    // most names are plain: nothing to strip or collapse, and no copy to look one up
    let plain = s.bytes().all(|b| (0x20..0x7f).contains(&b))
        && !s.contains("  ")
        && !s.starts_with(' ')
        && !s.ends_with(' ');
    if plain {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(collapse_spaces(&sanitize(s)))
    }
}

fn is_color(word: &str) -> bool {
    let w = word.to_ascii_lowercase();
    w.starts_with("rgb(")
        || w.starts_with("rgba(")
        || w.starts_with("hsl(")
        || w.starts_with('#')
        || matches!(
            w.as_str(),
            "transparent"
                | "red"
                | "green"
                | "blue"
                | "yellow"
                | "orange"
                | "purple"
                | "pink"
                | "gray"
                | "grey"
                | "white"
                | "black"
                | "aqua"
                | "cyan"
                | "lightblue"
                | "lightgreen"
                | "lightgray"
                | "lightgrey"
                | "lightyellow"
                | "teal"
                | "navy"
                | "olive"
                | "maroon"
                | "lime"
                | "silver"
                | "fuchsia"
                | "magenta"
                | "beige"
                | "tan"
                | "gold"
                | "coral"
                | "salmon"
                | "violet"
                | "indigo"
                | "aliceblue"
                | "lavender"
        )
}

/// Drop a leading colour (`rgb(1, 2, 3)`, `#abc`, a CSS colour name) from a box/rect line.
fn strip_color(rest: &str) -> &str {
    let lower = rest.to_ascii_lowercase();
    if (lower.starts_with("rgb") || lower.starts_with("hsl"))
        && let Some(end) = rest.find(')')
    {
        return rest[end + 1..].trim();
    }
    let (w, tail) = first_word(rest);
    if is_color(w) { tail } else { rest }
}

impl Parser {
    fn participant(&mut self, id: &str) -> Result<ParticipantId, String> {
        let id = clean_name(id);
        if id.is_empty() {
            return Err("missing participant name".into());
        }
        if let Some(i) = self.d.participants.position(|p| p.id == id) {
            return Ok(i);
        }
        Ok(self.d.participants.push(Participant {
            label: label_lines(&id),
            id: id.into_owned(),
            actor: false,
            created: false,
        }))
    }

    fn declare(&mut self, rest: &str, actor: bool, created: bool) -> Result<ParticipantId, String> {
        let (id, alias) = match rest.split_once(" as ") {
            Some((id, alias)) => (id, Some(alias)),
            None => (rest, None),
        };
        if id.contains("@{") {
            return Err("participant metadata is not supported".into());
        }
        let name = clean_name(id);
        let existed = self.d.participants.iter().any(|p| p.id == name);
        let i = self.participant(id)?;
        let p = &mut self.d.participants[i];
        if let Some(alias) = alias {
            let lines = label_lines(alias.trim());
            if lines.iter().any(|l| !l.is_empty()) {
                p.label = lines;
            }
        }
        p.actor = actor;
        if created {
            if existed {
                return Err("`create` of a participant that already exists".into());
            }
            p.created = true;
            self.pending_create = Some(i);
            self.d.events.push(Event::Create(i));
        }
        if let Some(b) = &mut self.open_group {
            let (first, last) = b.members.unwrap_or((i, i));
            let declared_now = i.index() + 1 == self.d.participants.len();
            if !declared_now && !(first..=last).contains(&i) {
                return Err("box around an already declared participant".into());
            }
            b.members = Some((first, i));
        }
        Ok(i)
    }

    fn statement(&mut self, line: &str) -> Result<(), String> {
        let (kw, rest) = first_word(line);
        if let Some(done) = self.declaration(kw, rest) {
            return done;
        }
        if let Some(done) = self.block(kw, rest) {
            return done;
        }
        if kw.eq_ignore_ascii_case("note") {
            return self.note(rest);
        }
        if self.open_group.is_some() {
            return Err("only participants may be declared inside a `box`".into());
        }
        self.message(line)
    }

    /// Participants, their life (create, destroy, activations), numbering and titles;
    /// `None` when `kw` is not one of those.
    fn declaration(&mut self, kw: &str, rest: &str) -> Option<Result<(), String>> {
        Some(match kw {
            "participant" | "actor" => self.declare(rest, kw == "actor", false).map(drop),
            // Typed participants are drawn as boxes; the type stays visible as a «stereotype»
            // line, so two diagrams that differ only in a participant's type still differ.
            "database" | "boundary" | "control" | "entity" | "collections" | "queue" => {
                self.declare(rest, false, false).map(|i| {
                    let label = &mut self.d.participants[i].label;
                    let tag = format!("«{kw}»");
                    if label.first() != Some(&tag) {
                        label.insert(0, tag);
                    }
                })
            }
            "create" => {
                let (kw2, rest2) = first_word(rest);
                if matches!(kw2, "participant" | "actor") {
                    self.declare(rest2, kw2 == "actor", true).map(drop)
                } else {
                    Err("expected `create participant` or `create actor`".into())
                }
            }
            "destroy" | "activate" | "deactivate" => self.participant(rest).map(|i| {
                self.d.events.push(match kw {
                    "activate" => Event::Activate(i),
                    "deactivate" => Event::Deactivate(i),
                    _ => Event::Destroy(i),
                });
            }),
            "autonumber" => {
                let nums: Vec<usize> = rest
                    .split_whitespace()
                    .filter_map(|w| w.parse().ok())
                    .collect();
                self.number = match (rest, nums.as_slice()) {
                    ("off", _) => None,
                    (_, [start, step, ..]) => Some((*start, (*step).max(1))),
                    (_, [start]) => Some((*start, 1)),
                    _ => Some((1, 1)),
                };
                Ok(())
            }
            "title" | "accTitle" | "accTitle:" | "title:" | "accDescr" | "accDescr:" => {
                if kw.starts_with("title") {
                    self.d.title = Some(collapse_spaces(&sanitize(rest.trim_start_matches(':'))));
                }
                Ok(())
            }
            "link" | "links" | "properties" | "details" => Ok(()),
            _ => return None,
        })
    }

    /// Boxes and blocks: opening, dividing, closing; `None` when `kw` is none of those.
    fn block(&mut self, kw: &str, rest: &str) -> Option<Result<(), String>> {
        match kw {
            "box" => {
                if self.open_group.is_some() || !self.stack.is_empty() {
                    return Some(Err("`box` inside another block".into()));
                }
                let label = collapse_spaces(&sanitize(strip_color(rest)));
                self.open_group = Some(OpenBox {
                    label,
                    members: None,
                });
                self.stack.push(None);
                return Some(Ok(()));
            }
            "end" if rest.is_empty() => {
                return Some(match self.stack.pop() {
                    Some(None) => {
                        if let Some(OpenBox {
                            label,
                            members: Some((first, last)),
                        }) = self.open_group.take()
                        {
                            self.d.groups.push(Group { label, first, last });
                        }
                        Ok(())
                    }
                    Some(Some(_)) => {
                        self.d.events.push(Event::BlockEnd);
                        Ok(())
                    }
                    None => Err("`end` without an open block".into()),
                });
            }
            _ => {}
        }
        let block = match kw {
            "loop" => Some(BlockKind::Loop),
            "alt" => Some(BlockKind::Alt),
            "opt" => Some(BlockKind::Opt),
            "par" | "par_over" => Some(BlockKind::Par),
            "critical" => Some(BlockKind::Critical),
            "break" => Some(BlockKind::Break),
            "rect" => Some(BlockKind::Rect),
            _ => None,
        };
        if let Some(kind) = block {
            if self.open_group.is_some() {
                return Some(Err("block inside a `box`".into()));
            }
            if self.stack.len() >= 16 {
                return Some(Err("blocks nested too deeply".into()));
            }
            let label = if kind == BlockKind::Rect {
                String::new()
            } else {
                collapse_spaces(&sanitize(rest))
            };
            self.stack.push(Some(kind));
            self.d.events.push(Event::BlockStart { kind, label });
            return Some(Ok(()));
        }
        let keyword = match kw {
            "else" => "else",
            "and" => "and",
            "option" => "option",
            _ => return None,
        };
        if !matches!(self.stack.last(), Some(Some(k)) if k.divider() == Some(kw)) {
            return Some(Err(format!("`{kw}` outside its block")));
        }
        self.d.events.push(Event::BlockDivider {
            keyword,
            label: collapse_spaces(&sanitize(rest)),
        });
        Some(Ok(()))
    }

    fn note(&mut self, rest: &str) -> Result<(), String> {
        let (place, text) = rest.split_once(':').ok_or("note without `:`")?;
        let place = collapse_spaces(place);
        let (pos, who) = if let Some(w) = place.strip_prefix("left of ") {
            (NotePos::Left, w)
        } else if let Some(w) = place.strip_prefix("right of ") {
            (NotePos::Right, w)
        } else if let Some(w) = place.strip_prefix("over ") {
            (NotePos::Over, w)
        } else {
            return Err("note must be `left of`, `right of` or `over`".into());
        };
        let mut names = who.split(',');
        let a = self.participant(names.next().unwrap_or(""))?;
        let b = match names.next() {
            Some(n) if pos == NotePos::Over => self.participant(n)?,
            Some(_) => return Err("only `note over` may name two participants".into()),
            None => a,
        };
        if names.next().is_some() {
            return Err("a note spans at most two participants".into());
        }
        let (first, last) = (a.min(b), a.max(b));
        self.d.events.push(Event::Note {
            pos,
            first,
            last,
            text: label_lines(text.trim()),
        });
        Ok(())
    }

    fn message(&mut self, line: &str) -> Result<(), String> {
        let (head, text) = split_label(line);
        let (pos, tok) = find_arrow(head).ok_or("not a sequence statement")?;
        let (token, kind, arrow_head, both) = tok;
        let from_raw = head[..pos].trim();
        let mut to_raw = head[pos + token.len()..].trim();
        let from_raw = from_raw.strip_suffix("()").unwrap_or(from_raw);
        let mut activate = false;
        let mut deactivate = false;
        if let Some(r) = to_raw.strip_prefix('+') {
            activate = true;
            to_raw = r.trim_start();
        } else if let Some(r) = to_raw.strip_prefix('-') {
            deactivate = true;
            to_raw = r.trim_start();
        }
        let to_raw = to_raw.strip_prefix("()").unwrap_or(to_raw);
        if from_raw.trim().is_empty() || to_raw.trim().is_empty() {
            return Err("message without sender or receiver".into());
        }
        let from = self.participant(from_raw)?;
        let to = self.participant(to_raw)?;
        if let Some(c) = self.pending_create.take()
            && c != to
            && c != from
        {
            return Err("`create` must be followed by a message to the new participant".into());
        }
        let number = self.number.map(|(n, step)| {
            self.number = Some((n + step, step));
            n
        });
        let arrow = Arrow {
            line: kind,
            head: arrow_head,
            both,
        };
        self.d.events.push(Event::Message {
            from,
            to,
            arrow,
            label: label_lines(text.unwrap_or("").trim()),
            activate,
            deactivate,
            number,
        });
        Ok(())
    }
}

/// Split `head: label` at the first colon outside quotes.
fn split_label(line: &str) -> (&str, Option<&str>) {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ':' if !quoted => return (&line[..i], Some(&line[i + 1..])),
            _ => {}
        }
    }
    (line, None)
}

type ArrowTok = (&'static str, LineKind, Head, bool);

/// Find the arrow in `head` (outside quotes). Returns its byte position and token.
fn find_arrow(head: &str) -> Option<(usize, ArrowTok)> {
    find_in(head, ARROWS).or_else(|| find_in(head, CROSS_ARROWS))
}

fn find_in(head: &str, set: &[ArrowTok]) -> Option<(usize, ArrowTok)> {
    let mut quoted = false;
    for (i, c) in head.char_indices() {
        if c == '"' {
            quoted = !quoted;
            continue;
        }
        if quoted || (c != '<' && c != '-') {
            continue;
        }
        if let Some(t) = set.iter().find(|t| head[i..].starts_with(t.0)) {
            return Some((i, *t));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_aliases_and_arrows() {
        let d = parse("participant IT as _invoke_tool\nIT->>DA: go\nDA--xIT: no\nDA-)IT: async")
            .unwrap_or_default();
        assert_eq!(d.participants.len(), 2);
        assert_eq!(
            d.participants[ParticipantId::new(0)].label,
            vec!["_invoke_tool"]
        );
        assert_eq!(d.events.len(), 3);
    }

    #[test]
    fn dashed_names() {
        let d = parse("Alice-in-Wonderland->Bob: hi").unwrap_or_default();
        assert_eq!(
            d.participants[ParticipantId::new(0)].id,
            "Alice-in-Wonderland"
        );
    }

    /// Messages, notes and boxes name participants by id, in the order they are declared.
    #[test]
    fn ends_and_boxes_are_participant_ids() {
        let d = parse(
            "box Quiz side\nparticipant T as TUI\nparticipant G as generator\nend\n\
             participant API as GitHub API\nT->>API: GET /pulls/42\nNote over G,API: cached",
        )
        .unwrap_or_default();
        let id = |name: &str| d.participants.position(|p| p.id == name);
        assert_eq!(
            d.participants
                .ids()
                .map(ParticipantId::index)
                .collect::<Vec<_>>(),
            [0, 1, 2]
        );
        assert_eq!(
            (d.groups[0].first, d.groups[0].last),
            (ParticipantId::new(0), ParticipantId::new(1))
        );
        assert!(matches!(d.events[0], Event::Message { from, to, .. }
            if Some(from) == id("T") && Some(to) == id("API")));
        assert!(matches!(d.events[1], Event::Note { first, last, .. }
            if Some(first) == id("G") && Some(last) == id("API")));
        let names = d.participants.map(|p| p.label.join(" "));
        assert_eq!(
            names.span(d.groups[0].first, d.groups[0].last),
            ["TUI", "generator"]
        );
    }

    #[test]
    fn rejects_unknown() {
        assert!(parse("A->>B: x\nfoo bar").is_err());
        assert!(parse("loop x\nA->>B: y").is_err());
    }
}
