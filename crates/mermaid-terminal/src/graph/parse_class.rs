//! classDiagram parser: classes with members, annotations, generics, relationships with
//! labels and cardinalities, namespaces (as clusters), notes.

use crate::glyphs::{Head, LineKind};
use crate::graph::ids::{ClusterId, NodeId};
use crate::graph::model::{Cluster, Direction, Edge, Graph, Note, NoteSide, Shape};
use crate::graph::parse_flowchart::strip_comment;
use crate::text::{collapse_spaces, label_lines, sanitize, truncate};

pub fn parse(body: &str) -> Result<Graph, String> {
    let mut p = Parser {
        g: Graph::new(Direction::TopDown),
        open_class: None,
        stack: Vec::new(),
    };
    for raw in body.lines() {
        let stmt = strip_comment(raw).trim();
        if stmt.is_empty() {
            continue;
        }
        p.statement(stmt)
            .map_err(|e| format!("{e}: `{}`", truncate(&sanitize(stmt), 40, false)))?;
    }
    if p.open_class.is_some() || !p.stack.is_empty() {
        return Err("a class or namespace is not closed with `}`".into());
    }
    if p.g.nodes.is_empty() && p.g.notes.is_empty() {
        return Err("class diagram has no classes".into());
    }
    Ok(p.g)
}

struct Parser {
    g: Graph,
    open_class: Option<NodeId>,
    stack: Vec<ClusterId>,
}

/// Mermaid's generics: `Option~Session~` -> `Option<Session>`, `List~List~int~~` ->
/// `List<List<int>>`. A `~` right after a name and before more type text opens; any other
/// `~` closes the innermost open one (a stray `~` stays as it is).
pub fn generics(s: &str) -> String {
    if !s.contains('~') {
        return s.to_string();
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut open = 0usize;
    for (i, &c) in chars.iter().enumerate() {
        if c != '~' {
            out.push(c);
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let opens =
            word(prev) && next.is_some_and(|n| !n.is_whitespace() && !matches!(n, '~' | ',' | ')'));
        if opens {
            open += 1;
            out.push('<');
        } else if open > 0 {
            open -= 1;
            out.push('>');
        } else {
            out.push('~');
        }
    }
    out
}

/// `Name~T~` -> `Name<T>`
fn class_name(raw: &str) -> (String, String) {
    let raw = raw.trim();
    let (id, label) = match raw.split_once('[') {
        Some((id, l)) => (
            id.trim(),
            Some(l.trim_end_matches(']').trim().trim_matches('"')),
        ),
        None => (raw, None),
    };
    let base = id.split_once('~').map_or(id, |(b, _)| b);
    let shown = match label {
        Some(l) => l.to_string(),
        None => generics(id),
    };
    (
        collapse_spaces(&sanitize(base.trim_matches('`'))),
        collapse_spaces(&sanitize(&shown)),
    )
}

/// Relationship token: (left head, line, right head).
fn relation(tok: &str) -> Option<(Head, LineKind, Head)> {
    let end = |s: &str| match s {
        "<|" | "|>" => Some(Head::Triangle),
        "*" => Some(Head::Diamond),
        "o" => Some(Head::HollowDiamond),
        "<" | ">" => Some(Head::Arrow),
        "" => Some(Head::None),
        _ => None,
    };
    let (line, at) = if let Some(i) = tok.find("--") {
        (LineKind::Solid, i)
    } else {
        (LineKind::Dotted, tok.find("..")?)
    };
    Some((end(&tok[..at])?, line, end(&tok[at + 2..])?))
}

impl Parser {
    /// `note for Class "text"` or a free `note "text"`.
    fn note(&mut self, rest: &str) -> Result<(), String> {
        let (node, text) = if let Some(r) = rest.strip_prefix("for ") {
            let (name, text) = r
                .trim()
                .split_once(char::is_whitespace)
                .ok_or("a note needs its text")?;
            (Some(self.class(name)?), text)
        } else {
            (None, rest)
        };
        let text = text.trim();
        let text = text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .ok_or("a note's text must be in quotes")?;
        self.g.notes.push(Note {
            node,
            side: NoteSide::Right,
            text: label_lines(text),
        });
        Ok(())
    }

    fn class(&mut self, raw: &str) -> Result<NodeId, String> {
        let (id, shown) = class_name(raw);
        if id.is_empty() || id.contains(char::is_whitespace) {
            return Err("bad class name".into());
        }
        let cluster = self.stack.last().copied();
        let n = self.g.node(&id, cluster);
        let node = &mut self.g.nodes[n];
        if node.sections.is_empty() {
            node.sections = vec![Vec::new(), Vec::new()];
            node.shape = Shape::Rect;
        }
        if shown != id || !node.defined {
            let annotations: Vec<String> = node
                .label
                .iter()
                .filter(|l| l.starts_with('«'))
                .cloned()
                .collect();
            node.label = annotations;
            node.label.push(shown);
        }
        node.defined = true;
        Ok(n)
    }

    fn member(&mut self, n: NodeId, text: &str) {
        let text = generics(&collapse_spaces(&sanitize(text.trim())));
        if text.is_empty() {
            return;
        }
        if let Some(a) = text.strip_prefix("<<").and_then(|t| t.strip_suffix(">>")) {
            self.g.nodes[n].label.insert(0, format!("«{}»", a.trim()));
            return;
        }
        let section = usize::from(text.contains('('));
        self.g.nodes[n].sections[section].push(text);
    }

    fn statement(&mut self, stmt: &str) -> Result<(), String> {
        if let Some(n) = self.open_class {
            if stmt == "}" {
                self.open_class = None;
            } else {
                self.member(n, stmt);
            }
            return Ok(());
        }
        let (kw, rest) = stmt
            .split_once(char::is_whitespace)
            .map_or((stmt, ""), |(a, b)| (a, b.trim()));
        match kw {
            "direction" => {
                self.g.direction = Direction::parse(rest).ok_or("unknown direction")?;
                return Ok(());
            }
            "classDef" | "cssClass" | "style" | "click" | "callback" | "link" | "accTitle"
            | "accTitle:" | "accDescr" | "accDescr:" => {
                return Ok(());
            }
            "note" => return self.note(rest),
            "namespace" => {
                let name = rest.trim_end_matches('{').trim();
                let c = self.g.clusters.push(Cluster {
                    id: name.to_string(),
                    title: name.to_string(),
                    parent: self.stack.last().copied(),
                    region: None,
                });
                self.stack.push(c);
                return Ok(());
            }
            "}" => {
                return self
                    .stack
                    .pop()
                    .map(|_| ())
                    .ok_or_else(|| "`}` without an open block".to_string());
            }
            "class" => {
                let (decl, opens) = match rest.strip_suffix('{') {
                    Some(d) => (d.trim(), true),
                    None => (rest, false),
                };
                let decl = decl.split(":::").next().unwrap_or(decl);
                let n = self.class(decl)?;
                if opens {
                    self.open_class = Some(n);
                }
                return Ok(());
            }
            _ => {}
        }
        if let Some(a) = stmt.strip_prefix("<<") {
            let (ann, name) = a.split_once(">>").ok_or("unclosed `<<`")?;
            let n = self.class(name)?;
            self.member(n, &format!("<<{ann}>>"));
            return Ok(());
        }
        // Relationship: A ["1"] TOKEN ["*"] B [: label]
        let (head, label) = match stmt.split_once(':') {
            Some((h, l)) => (h, Some(l.trim())),
            None => (stmt, None),
        };
        if self.relationship(head, label)? {
            return Ok(());
        }
        if let Some(l) = label {
            // Member line: `Name : +field`
            let n = self.class(head)?;
            self.member(n, l);
            return Ok(());
        }
        if !stmt.contains(char::is_whitespace) {
            self.class(stmt)?;
            return Ok(());
        }
        Err("not a class statement".into())
    }

    /// `A ["1"] TOKEN ["*"] B` with its label: `false` when `head` holds no relation.
    fn relationship(&mut self, head: &str, label: Option<&str>) -> Result<bool, String> {
        let words = tokens(head);
        let Some(pos) = words
            .iter()
            .position(|w| relation(w).is_some() && (w.contains("--") || w.contains("..")))
        else {
            return Ok(false);
        };
        let (left_head, line, right_head) = relation(&words[pos]).ok_or("bad relation")?;
        let before: Vec<&String> = words[..pos].iter().collect();
        let after: Vec<&String> = words[pos + 1..].iter().collect();
        let (a, card_a) = split_card(&before, true).ok_or("bad relation")?;
        let (b, card_b) = split_card(&after, false).ok_or("bad relation")?;
        let from = self.class(&a)?;
        let to = self.class(&b)?;
        let mut text = label
            .map(|l| collapse_spaces(&sanitize(l)))
            .unwrap_or_default();
        if card_a.is_some() || card_b.is_some() {
            // A multiplicity given at one end only names that end: `1 →` or `→ *`.
            let card = match (card_a, card_b) {
                (Some(a), Some(b)) => format!("{a} → {b}"),
                (Some(a), None) => format!("{a} →"),
                (None, b) => format!("→ {}", b.unwrap_or_default()),
            };
            text = if text.is_empty() {
                card
            } else {
                format!("{text} ({card})")
            };
        }
        let label = if text.is_empty() {
            Vec::new()
        } else {
            label_lines(&text)
        };
        self.g.edges.push(Edge {
            from,
            to,
            label,
            line,
            head: right_head,
            tail: left_head,
            invisible: false,
            from_frame: None,
            to_frame: None,
        });
        Ok(true)
    }
}

/// Words, keeping quoted strings whole.
fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => {
                cur.push(c);
                quoted = !quoted;
            }
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `Name "1"` (before the arrow) or `"*" Name` (after): name and cardinality.
fn split_card(words: &[&String], before: bool) -> Option<(String, Option<String>)> {
    let quoted = |w: &str| w.starts_with('"') && w.ends_with('"') && w.len() >= 2;
    match words {
        [name] if !quoted(name) => Some(((*name).clone(), None)),
        [a, b] if before && quoted(b) => {
            Some(((*a).clone(), Some(b.trim_matches('"').to_string())))
        }
        [a, b] if !before && quoted(a) => {
            Some(((*b).clone(), Some(a.trim_matches('"').to_string())))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn label_of(body: &str) -> String {
        let g = parse(body).expect("parses");
        g.edges.iter().next().expect("an edge").label.join(" ")
    }

    /// A multiplicity at one end only is shown at that end, with no empty side (`( → 1)`).
    #[test]
    fn a_multiplicity_at_one_end_shows_no_empty_side() {
        assert_eq!(label_of("Repo --> \"1\" Policy : policy"), "policy (→ 1)");
        assert_eq!(label_of("Repo \"*\" --> Policy : uses"), "uses (* →)");
        assert_eq!(label_of("Repo \"1\" --> \"*\" Policy"), "1 → *");
    }
}
