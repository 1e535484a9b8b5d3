//! stateDiagram / stateDiagram-v2 parser: states, `[*]` start/end, labelled transitions,
//! composite states (as clusters), concurrent regions (`--`, as dashed clusters inside
//! their composite), choice/fork/join, notes.

use crate::glyphs::{Head, LineKind};
use crate::graph::ids::{ClusterId, NodeId};
use crate::graph::model::{Cluster, Direction, Edge, Graph, Note, NoteSide, Shape};
use crate::graph::parse_flowchart::strip_comment;
use crate::text::{collapse_spaces, label_lines, sanitize, truncate};

pub fn parse(body: &str) -> Result<Graph, String> {
    let mut p = Parser {
        g: Graph {
            composite_states: true,
            ..Graph::new(Direction::TopDown)
        },
        stack: Vec::new(),
        starts: Vec::new(),
        open_note: None,
        split: false,
    };
    for raw in body.lines() {
        let stmt = strip_comment(raw).trim();
        if stmt.is_empty() {
            continue;
        }
        if let Some(note) = &mut p.open_note {
            if stmt == "end note" || stmt == "end" {
                p.g.notes.extend(p.open_note.take());
            } else {
                note.text.extend(label_lines(stmt));
            }
            continue;
        }
        p.statement(stmt)
            .map_err(|e| format!("{e}: `{}`", truncate(&sanitize(stmt), 40, false)))?;
    }
    if p.open_note.is_some() {
        return Err("a note is not closed with `end note`".into());
    }
    if !p.stack.is_empty() {
        return Err("a composite state is not closed with `}`".into());
    }
    if p.g.nodes.is_empty() {
        return Err("state diagram has no states".into());
    }
    Ok(p.g)
}

struct Parser {
    g: Graph,
    stack: Vec<ClusterId>,
    /// `(scope, is_end)` -> node, so each composite state has its own start and end
    starts: Vec<((Option<ClusterId>, bool), NodeId)>,
    /// a multi-line `note ... end note` being read
    open_note: Option<Note>,
    /// a `--` was read: the next state named starts the composite's next region (a
    /// trailing `--` then makes no empty region)
    split: bool,
}

fn clean(s: &str) -> String {
    let s = s.trim();
    let s = s.split(":::").next().unwrap_or(s);
    collapse_spaces(&sanitize(s))
}

impl Parser {
    /// The composite state (or region) that what is named now belongs to.
    fn scope(&mut self) -> Option<ClusterId> {
        if std::mem::take(&mut self.split) {
            self.next_region();
        }
        self.stack.last().copied()
    }

    /// Does anything belong to cluster `c` directly yet?
    fn has_members(&self, c: ClusterId) -> bool {
        self.g.nodes.iter().any(|n| n.cluster == Some(c))
            || self.g.clusters.iter().any(|x| x.parent == Some(c))
    }

    /// Close the region being read and open the next one of the same composite. At the
    /// first `--` what the composite holds so far becomes its first region, its `[*]`
    /// with it.
    fn next_region(&mut self) {
        let Some(&top) = self.stack.last() else {
            return;
        };
        let (composite, k) = match (self.g.clusters[top].region, self.g.clusters[top].parent) {
            (Some(k), Some(parent)) => {
                self.stack.pop();
                (parent, k + 1)
            }
            _ if !self.has_members(top) => return, // `--` before anything: nothing to split
            _ => {
                let first = self.region(top, 1);
                self.adopt(top, first);
                (top, 2)
            }
        };
        let next = self.region(composite, k);
        self.stack.push(next);
    }

    /// A new, still empty, region `k` of `composite`.
    fn region(&mut self, composite: ClusterId, k: usize) -> ClusterId {
        let id = format!("{} -- {k}", self.g.clusters[composite].id);
        self.g.clusters.push(Cluster {
            id,
            title: String::new(),
            parent: Some(composite),
            region: Some(k),
        })
    }

    /// Move what `composite` holds directly (states, inner composites, its `[*]`) into
    /// its region `first`.
    fn adopt(&mut self, composite: ClusterId, first: ClusterId) {
        let from = Some(composite);
        for n in self.g.nodes.iter_mut().filter(|n| n.cluster == from) {
            n.cluster = Some(first);
        }
        for c in self.g.clusters.ids() {
            if c != first && self.g.clusters[c].parent == from {
                self.g.clusters[c].parent = Some(first);
            }
        }
        for ((scope, _), _) in self.starts.iter_mut().filter(|((s, _), _)| *s == from) {
            *scope = Some(first);
        }
    }

    /// `}`: close the composite state, and the region of it being read.
    fn close(&mut self) -> Result<(), String> {
        self.split = false;
        let c = self
            .stack
            .pop()
            .ok_or_else(|| "`}` without a composite state".to_string())?;
        if self.g.clusters[c].region.is_some() {
            self.stack.pop();
        }
        Ok(())
    }

    fn endpoint(&mut self, raw: &str, is_target: bool) -> Result<NodeId, String> {
        let name = clean(raw);
        if name.is_empty() {
            return Err("missing state name".into());
        }
        if name == "[*]" {
            let key = (self.scope(), is_target);
            if let Some(&(_, n)) = self.starts.iter().find(|(k, _)| *k == key) {
                return Ok(n);
            }
            let id = format!(
                "[*]{}#{}",
                if is_target { "end" } else { "start" },
                self.starts.len()
            );
            let scope = self.scope();
            let n = self.g.node(&id, scope);
            self.g.nodes[n].shape = if is_target { Shape::End } else { Shape::Start };
            self.g.nodes[n].label = vec![String::new()];
            self.g.nodes[n].defined = true;
            self.starts.push((key, n));
            return Ok(n);
        }
        let scope = self.scope();
        Ok(self.g.node(&name, scope))
    }

    fn statement(&mut self, stmt: &str) -> Result<(), String> {
        let (kw, rest) = stmt
            .split_once(char::is_whitespace)
            .map_or((stmt, ""), |(a, b)| (a, b.trim()));
        match kw {
            "direction" => {
                let d = Direction::parse(rest).ok_or("unknown direction")?;
                match self.scope() {
                    None => self.g.direction = d,
                    Some(c) => self.g.inner_directions.push((c, d)),
                }
                return Ok(());
            }
            "classDef" | "class" | "style" | "accTitle" | "accTitle:" | "accDescr"
            | "accDescr:" | "click" => return Ok(()),
            "note" => return self.note(rest),
            "--" => {
                if self.stack.is_empty() {
                    return Err("`--` outside a composite state".into());
                }
                self.split = true;
                return Ok(());
            }
            "}" => return self.close(),
            "state" => return self.state(rest),
            _ => {}
        }
        if let Some((a, b)) = stmt.split_once("-->") {
            let (b, label) = match b.split_once(':') {
                Some((b, l)) => (b, l.trim()),
                None => (b, ""),
            };
            let from = self.endpoint(a, false)?;
            let to = self.endpoint(b, true)?;
            let label = if label.is_empty() {
                Vec::new()
            } else {
                label_lines(label)
            };
            self.g.edges.push(Edge {
                from,
                to,
                label,
                line: LineKind::Solid,
                head: Head::Arrow,
                tail: Head::None,
                invisible: false,
                from_frame: None,
                to_frame: None,
            });
            return Ok(());
        }
        if let Some((name, desc)) = stmt.split_once(':') {
            let n = self.endpoint(name, false)?;
            let node = &mut self.g.nodes[n];
            if node.sections.is_empty() {
                node.sections.push(Vec::new());
            }
            node.sections[0].extend(label_lines(desc.trim()));
            return Ok(());
        }
        if stmt.contains(char::is_whitespace) || stmt.contains(['{', '}', '<', '>', '-']) {
            return Err("not a state statement".into());
        }
        self.endpoint(stmt, false).map(|_| ())
    }

    /// `note right of X: text`, or `note left of X` opening a multi-line note.
    fn note(&mut self, rest: &str) -> Result<(), String> {
        let (place, text) = match rest.split_once(':') {
            Some((p, t)) => (p.trim(), Some(t.trim())),
            None => (rest.trim(), None),
        };
        let (side, who) = if let Some(w) = place.strip_prefix("right of ") {
            (NoteSide::Right, w)
        } else if let Some(w) = place.strip_prefix("left of ") {
            (NoteSide::Left, w)
        } else {
            return Err("a note must be `left of` or `right of` a state".into());
        };
        let node = self.endpoint(who, false)?;
        let note = Note {
            node: Some(node),
            side,
            text: text.map(label_lines).unwrap_or_default(),
        };
        if text.is_some() {
            self.g.notes.push(note);
        } else {
            self.open_note = Some(note);
        }
        Ok(())
    }

    fn state(&mut self, rest: &str) -> Result<(), String> {
        let (decl, opens) = match rest.strip_suffix('{') {
            Some(d) => (d.trim(), true),
            None => (rest, false),
        };
        // state "Long name" as Id
        let (id, label) = if let Some(q) = decl.strip_prefix('"') {
            let (label, after) = q.split_once('"').ok_or("unterminated quote")?;
            let after = after.trim();
            if after.is_empty() {
                // `state "Name" {`: the quoted name is the id
                (clean(label), None)
            } else {
                let id = after
                    .strip_prefix("as")
                    .map(str::trim)
                    .ok_or("expected `as`")?;
                (clean(id), Some(label.to_string()))
            }
        } else if let Some((id, desc)) = decl.split_once(':') {
            (clean(id), Some(desc.trim().to_string()))
        } else if let Some((id, kind)) = decl.split_once("<<") {
            let kind = kind.trim_end_matches(">>").trim();
            let n = self.endpoint(id, false)?;
            let node = &mut self.g.nodes[n];
            node.defined = true;
            match kind {
                "choice" => {
                    node.shape = Shape::Choice;
                    node.label = vec![String::new()];
                }
                "fork" | "join" => {
                    node.shape = Shape::Bar;
                    node.label = vec![String::new()];
                }
                _ => return Err(format!("state kind <<{kind}>> is not drawn")),
            }
            return Ok(());
        } else {
            (clean(decl), None)
        };
        if let Some((a, b)) = id.split_once(" as ") {
            // state Id as "x" is not valid; refuse rather than guess
            return Err(format!("unexpected `{a} as {b}`"));
        }
        if opens {
            return self.open_composite(id, label);
        }
        if let Some(c) = self
            .g
            .clusters
            .position(|c| c.id == id && c.region.is_none())
        {
            // `state "Long name" as X` after `state X { ... }`: the composite's title
            if let Some(l) = label {
                self.g.clusters[c].title = label_lines(&l).join(" ");
            }
            return Ok(());
        }
        let n = self.endpoint(&id, false)?;
        if let Some(l) = label {
            self.g.nodes[n].label = label_lines(&l);
            self.g.nodes[n].defined = true;
        }
        Ok(())
    }

    /// `state X {`: a composite state, titled by its label, else by the name a
    /// `state "Long name" as X` before it gave (that state is then the composite, so a
    /// transition to `X` ends at its frame).
    fn open_composite(&mut self, id: String, label: Option<String>) -> Result<(), String> {
        let composites = self
            .stack
            .iter()
            .filter(|&&c| self.g.clusters[c].region.is_none());
        if composites.count() >= 8 {
            return Err("composite states nested too deeply".into());
        }
        let named =
            self.g.nodes.iter_mut().find(|n| {
                n.id == id && n.defined && n.shape == Shape::Rect && n.sections.is_empty()
            });
        let declared = named.map(|n| {
            n.defined = false;
            std::mem::replace(&mut n.label, vec![id.clone()]).join(" ")
        });
        let title = match label {
            Some(l) => label_lines(&l).join(" "),
            None => declared.unwrap_or_else(|| id.clone()),
        };
        let parent = self.scope();
        let c = self.g.clusters.push(Cluster {
            id,
            title,
            parent,
            region: None,
        });
        self.stack.push(c);
        Ok(())
    }
}
