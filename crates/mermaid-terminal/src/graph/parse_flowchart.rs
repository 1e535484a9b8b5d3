//! flowchart / graph parser: nodes with shapes, chains, `&` fans, both label syntaxes,
//! nested subgraphs. Styling statements are accepted and ignored; anything else is an error.

use crate::glyphs::{Head, LineKind};
use crate::graph::ids::{ClusterId, NodeId};
use crate::graph::model::{Cluster, Direction, Edge, Graph, Shape};
use crate::text::{collapse_spaces, label_lines, sanitize, truncate};

/// Parse a flowchart. `header` is the `graph TD; A-->B` line (statements may follow `;`).
pub fn parse(header: &str, body: &str) -> Result<Graph, String> {
    let mut words = header.splitn(2, |c: char| c.is_whitespace() || c == ';');
    words.next();
    let after = words.next().unwrap_or("").trim();
    let (dir_word, rest) = match after.split_once(|c: char| c.is_whitespace() || c == ';') {
        Some((d, r)) => (d, r),
        None => (after, ""),
    };
    let (direction, header_rest) = match Direction::parse(dir_word) {
        Some(d) => (d, rest),
        None if dir_word.is_empty() => (Direction::TopDown, ""),
        None => (Direction::TopDown, after),
    };
    let mut p = Parser {
        g: Graph::new(direction),
        stack: Vec::new(),
    };
    for raw in header_rest.lines().chain(body.lines()) {
        let line = strip_comment(raw);
        for stmt in split_statements(line) {
            let stmt = stmt.trim();
            if stmt.is_empty() {
                continue;
            }
            p.statement(stmt)
                .map_err(|e| format!("{e}: `{}`", truncate(&sanitize(stmt), 40, false)))?;
        }
    }
    if !p.stack.is_empty() {
        return Err("a subgraph is not closed with `end`".into());
    }
    if p.g.nodes.is_empty() {
        return Err("flowchart has no nodes".into());
    }
    Ok(p.g)
}

/// Drop a `%%` comment outside quotes.
pub fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    let b = line.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'"' {
            quoted = !quoted;
        } else if !quoted && c == b'%' && b.get(i + 1) == Some(&b'%') {
            return &line[..i];
        }
    }
    line
}

/// Split on `;` outside quotes and brackets.
pub fn split_statements(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quoted, mut start) = (0i32, false, 0);
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '[' | '(' | '{' if !quoted => depth += 1,
            ']' | ')' | '}' if !quoted => depth -= 1,
            ';' if !quoted && depth <= 0 => {
                out.push(&line[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&line[start..]);
    out
}

struct Parser {
    g: Graph,
    stack: Vec<ClusterId>,
}

const IGNORED: &[&str] = &[
    "classDef",
    "class",
    "style",
    "linkStyle",
    "click",
    "accTitle",
    "accTitle:",
    "accDescr",
    "accDescr:",
];

impl Parser {
    fn statement(&mut self, stmt: &str) -> Result<(), String> {
        let (kw, rest) = stmt
            .split_once(char::is_whitespace)
            .map_or((stmt, ""), |(a, b)| (a, b.trim()));
        if IGNORED.contains(&kw) || kw.starts_with("accDescr{") {
            return Ok(());
        }
        match kw {
            "subgraph" => return self.subgraph(rest),
            "end" if rest.is_empty() => {
                return self
                    .stack
                    .pop()
                    .map(|_| ())
                    .ok_or_else(|| "`end` without `subgraph`".to_string());
            }
            "direction" => {
                let d = Direction::parse(rest).ok_or("unknown direction")?;
                // Inside a subgraph the override only changes the look; the arrows keep the meaning.
                if self.stack.is_empty() {
                    self.g.direction = d;
                }
                return Ok(());
            }
            _ => {}
        }
        self.chain(stmt)
    }

    fn subgraph(&mut self, rest: &str) -> Result<(), String> {
        if self.stack.len() >= 8 {
            return Err("subgraphs nested too deeply".into());
        }
        let rest = rest.trim();
        let (id, title) = if let Some(open) = rest.find('[') {
            let id = rest[..open].trim();
            let title = rest[open + 1..]
                .trim_end()
                .strip_suffix(']')
                .ok_or("subgraph title without `]`")?;
            (id.to_string(), unquote(title))
        } else if rest.starts_with('"') {
            let t = unquote(rest);
            (t.clone(), t)
        } else {
            (rest.to_string(), rest.to_string())
        };
        let id = if id.is_empty() { title.clone() } else { id };
        let title = label_lines(&title).join(" ");
        let c = self.g.clusters.push(Cluster {
            id,
            title,
            parent: self.stack.last().copied(),
            region: None,
        });
        self.stack.push(c);
        Ok(())
    }

    fn chain(&mut self, stmt: &str) -> Result<(), String> {
        let mut cur = Cursor { s: stmt, pos: 0 };
        let mut prev = self.group(&mut cur)?;
        loop {
            cur.skip_ws();
            if cur.done() {
                break;
            }
            let link = parse_link(&mut cur).ok_or("expected an arrow")?;
            cur.skip_ws();
            let next = self.group(&mut cur)?;
            for &a in &prev {
                for &b in &next {
                    self.g.edges.push(Edge {
                        from: a,
                        to: b,
                        label: link.label.clone(),
                        line: link.line,
                        head: link.head,
                        tail: link.tail,
                        invisible: link.invisible,
                        from_frame: None,
                        to_frame: None,
                    });
                }
            }
            if self.g.edges.len() > 4000 {
                return Err("too many edges".into());
            }
            prev = next;
        }
        Ok(())
    }

    /// `A & B[x] & C`
    fn group(&mut self, cur: &mut Cursor) -> Result<Vec<NodeId>, String> {
        let mut ids = vec![self.node(cur)?];
        loop {
            let save = cur.pos;
            cur.skip_ws();
            if cur.eat("&") {
                cur.skip_ws();
                ids.push(self.node(cur)?);
            } else {
                cur.pos = save;
                return Ok(ids);
            }
        }
    }

    fn node(&mut self, cur: &mut Cursor) -> Result<NodeId, String> {
        cur.skip_ws();
        let id = cur.ident();
        if id.is_empty() {
            return Err("expected a node".into());
        }
        let id = sanitize(&id);
        let cluster = self.stack.last().copied();
        let i = self.g.node(&id, cluster);
        if cur.rest().starts_with("@{") {
            return Err("`@{ }` node metadata is not supported".into());
        }
        if let Some((shape, label)) = parse_shape(cur)? {
            let n = &mut self.g.nodes[i];
            n.shape = shape;
            n.label = label_lines(&label);
            n.defined = true;
        }
        // `:::class` suffix
        if cur.eat(":::") {
            cur.ident();
        }
        Ok(i)
    }
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    s.strip_prefix('"')
        .and_then(|x| x.strip_suffix('"'))
        .unwrap_or(s)
        .to_string()
}

pub struct Cursor<'a> {
    pub s: &'a str,
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }
    pub fn done(&self) -> bool {
        self.pos >= self.s.len()
    }
    pub fn skip_ws(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start().len();
    }
    pub fn eat(&mut self, t: &str) -> bool {
        if self.rest().starts_with(t) {
            self.pos += t.len();
            true
        } else {
            false
        }
    }
    /// A node id: letters, digits, `_`, and `-`/`.` when they do not start an arrow.
    pub fn ident(&mut self) -> String {
        let start = self.pos;
        let r = self.rest();
        let mut end = 0;
        let mut chars = r.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let next = chars.peek().map(|x| x.1);
            let ok = c.is_alphanumeric()
                || c == '_'
                || (matches!(c, '-' | '.')
                    && next.is_some_and(|n| n.is_alphanumeric() || n == '_')
                    && i > 0);
            if !ok {
                break;
            }
            end = i + c.len_utf8();
        }
        self.pos = start + end;
        r[..end].to_string()
    }
}

/// Shapes: opener, closer, shape. Longest openers first.
const SHAPES: &[(&str, &str, Shape)] = &[
    ("(((", ")))", Shape::DoubleCircle),
    ("((", "))", Shape::Circle),
    ("([", "])", Shape::Stadium),
    ("[[", "]]", Shape::Subroutine),
    ("[(", ")]", Shape::Cylinder),
    ("[/", "/]", Shape::LeanRight),
    ("[/", "\\]", Shape::Trapezoid),
    ("[\\", "\\]", Shape::LeanLeft),
    ("[\\", "/]", Shape::TrapezoidAlt),
    ("{{", "}}", Shape::Hexagon),
    ("[", "]", Shape::Rect),
    ("(", ")", Shape::Round),
    ("{", "}", Shape::Rhombus),
    (">", "]", Shape::Asymmetric),
];

/// Parse a shape bracket at the cursor, if any.
fn parse_shape(cur: &mut Cursor) -> Result<Option<(Shape, String)>, String> {
    let r = cur.rest();
    let Some(&(open, _, _)) = SHAPES.iter().find(|(o, _, _)| r.starts_with(o)) else {
        return Ok(None);
    };
    let inner_start = open.len();
    let inner = &r[inner_start..];
    // A quoted label may contain any bracket.
    let (label, after) = if inner.trim_start().starts_with('"') {
        let lead = inner.len() - inner.trim_start().len();
        let q = &inner[lead + 1..];
        let end = q.find('"').ok_or("unterminated quote")?;
        (q[..end].to_string(), lead + 1 + end + 1)
    } else {
        (String::new(), 0)
    };
    for &(_, close, shape) in SHAPES.iter().filter(|(o, _, _)| *o == open) {
        let found = if after > 0 {
            let tail = &inner[after..];
            let t = tail.trim_start();
            t.starts_with(close)
                .then(|| (label.clone(), after + (tail.len() - t.len())))
        } else {
            find_close(inner, open, close).map(|end| (inner[..end].to_string(), end))
        };
        if let Some((text, end)) = found {
            cur.pos += inner_start + end + close.len();
            let text = text.trim();
            let text = if matches!(
                shape,
                Shape::LeanRight | Shape::LeanLeft | Shape::Trapezoid | Shape::TrapezoidAlt
            ) {
                text
            } else {
                text.trim_matches('"')
            };
            return Ok(Some((shape, text.to_string())));
        }
    }
    Err(format!("unclosed `{open}`"))
}

/// Position of `close` in `s`, skipping nested brackets of the opener's kind.
fn find_close(s: &str, open: &str, close: &str) -> Option<usize> {
    let o = open.chars().next().unwrap_or('[');
    let c_first = close.chars().next().unwrap_or(']');
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        if depth == 0 && s[i..].starts_with(close) {
            // For `[/ /]` vs `[/ \]` the closer's first char is part of the label syntax.
            return Some(i);
        }
        if c == o && o != '>' {
            depth += 1;
        } else if c == c_first && depth > 0 && matches!(c, ']' | ')' | '}') {
            depth -= 1;
        }
    }
    None
}

pub struct Link {
    pub line: LineKind,
    pub head: Head,
    pub tail: Head,
    pub label: Vec<String>,
    pub invisible: bool,
}

fn head_of(c: char) -> Option<Head> {
    match c {
        '>' => Some(Head::Arrow),
        'o' => Some(Head::Circle),
        'x' => Some(Head::Cross),
        _ => None,
    }
}

/// Parse an arrow (`-->`, `---`, `-.->`, `==>`, `<-->`, `--o`, `--x`, `~~~`, `-- text -->`,
/// `-->|text|`) at the cursor.
pub fn parse_link(cur: &mut Cursor) -> Option<Link> {
    let r = cur.rest();
    if let Some(stripped) = r.strip_prefix("~~~") {
        let n = 3 + stripped.len() - stripped.trim_start_matches('~').len();
        cur.pos += n;
        return Some(Link {
            line: LineKind::Solid,
            head: Head::None,
            tail: Head::None,
            label: Vec::new(),
            invisible: true,
        });
    }
    let (tail, body_start) = if r.starts_with('<') {
        (Head::Arrow, 1)
    } else {
        (Head::None, 0)
    };
    let body = &r[body_start..];
    let (line, len) = shaft(body)?;
    let mut used = body_start + len;
    let mut rest = &r[used..];
    let mut head = Head::None;
    let mut label = Vec::new();
    let dotted_open = line == LineKind::Dotted && !body[..len].ends_with('-');
    if let Some(h) = rest
        .chars()
        .next()
        .and_then(head_of)
        .filter(|_| !dotted_open)
    {
        // `--o`/`--x` only when not the start of a word-like label (`-- ok -->`)
        head = h;
        used += 1;
        rest = &r[used..];
    } else if (len == 2 && line != LineKind::Dotted) || dotted_open {
        let n;
        (label, head, n) = label_in_shaft(rest, line)?;
        used += n;
        rest = &r[used..];
    }
    if head == Head::None && tail != Head::None {
        // `<--` alone is not Mermaid
        return None;
    }
    cur.pos += used;
    let trimmed = rest.trim_start();
    if let Some(after) = trimmed.strip_prefix('|') {
        let end = after.find('|')?;
        label = label_lines(after[..end].trim().trim_matches('"'));
        cur.pos += (rest.len() - trimmed.len()) + 1 + end + 1;
    }
    let label = label
        .into_iter()
        .map(|l| collapse_spaces(&l))
        .filter(|l| !l.is_empty())
        .collect();
    Some(Link {
        line,
        head,
        tail,
        label,
        invisible: false,
    })
}

/// The line a link's shaft draws and its length in bytes: `-.`…`.-` dotted, `--`… solid,
/// `==`… thick; `None` when `body` starts with no shaft.
fn shaft(body: &str) -> Option<(LineKind, usize)> {
    if body.starts_with("-.") {
        let dots = body[1..].len() - body[1..].trim_start_matches('.').len();
        let after = &body[1 + dots..];
        let dash = usize::from(after.starts_with('-'));
        Some((LineKind::Dotted, 1 + dots + dash))
    } else if body.starts_with("--") {
        Some((
            LineKind::Solid,
            body.len() - body.trim_start_matches('-').len(),
        ))
    } else if body.starts_with("==") {
        Some((
            LineKind::Thick,
            body.len() - body.trim_start_matches('=').len(),
        ))
    } else {
        None
    }
}

/// A label written inside the shaft (`-- text -->`, `-. text .->`, `== text ==>`): its
/// lines, the head the closing shaft ends in, and the bytes of `rest` taken up to there.
fn label_in_shaft(rest: &str, line: LineKind) -> Option<(Vec<String>, Head, usize)> {
    let closers: &[&str] = match line {
        LineKind::Solid => &["-->", "---", "--o", "--x"],
        LineKind::Dotted => &[".->", ".-"],
        LineKind::Thick => &["==>", "==="],
    };
    let (at, close) = closers
        .iter()
        .filter_map(|c| rest.find(c).map(|i| (i, *c)))
        .min_by_key(|x| x.0)?;
    let label = label_lines(rest[..at].trim().trim_matches('"'));
    let mut n = at + close.len();
    // extra shaft characters
    let extra = &rest[n..];
    n += extra.len() - extra.trim_start_matches(['-', '=', '.']).len();
    let last = close.chars().last().unwrap_or('-');
    let mut head = head_of(last).unwrap_or(Head::None);
    if let Some(h) = rest[n..]
        .chars()
        .next()
        .and_then(head_of)
        .filter(|_| head == Head::None && close.ends_with('-'))
    {
        head = h;
        n += 1;
    }
    Some((label, head, n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::ids::{EdgeId, Id};

    fn g(src: &str) -> Graph {
        let (h, b) = src.split_once('\n').unwrap_or((src, ""));
        parse(h, b).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn shapes_and_labels() {
        let gr = g("graph TD\nA[Start] --> B{Ok?}\nB -->|yes| C((Done))\nB -- no --> D[/Lean/]");
        assert_eq!(gr.nodes.len(), 4);
        assert_eq!(gr.nodes[NodeId::new(1)].shape, Shape::Rhombus);
        assert_eq!(gr.nodes[NodeId::new(2)].shape, Shape::Circle);
        assert_eq!(gr.nodes[NodeId::new(3)].shape, Shape::LeanRight);
        assert_eq!(gr.edges[EdgeId::new(1)].label, vec!["yes"]);
        assert_eq!(gr.edges[EdgeId::new(2)].label, vec!["no"]);
    }

    #[test]
    fn links() {
        let gr = g("graph LR\nA-.->B\nA==>C\nA<-->D\nA--oE\nA--xF\nA---G\nA -. x .-> H");
        let kinds: Vec<_> = gr.edges.iter().map(|e| (e.line, e.head, e.tail)).collect();
        assert_eq!(kinds[0], (LineKind::Dotted, Head::Arrow, Head::None));
        assert_eq!(kinds[1], (LineKind::Thick, Head::Arrow, Head::None));
        assert_eq!(kinds[2], (LineKind::Solid, Head::Arrow, Head::Arrow));
        assert_eq!(kinds[3].1, Head::Circle);
        assert_eq!(kinds[4].1, Head::Cross);
        assert_eq!(kinds[5].1, Head::None);
        assert_eq!(gr.edges[EdgeId::new(6)].label, vec!["x"]);
    }

    #[test]
    fn chains_and_fans() {
        let gr = g("graph LR; A-->B-->C\nA & B --> C & D");
        assert_eq!(gr.edges.len(), 6);
    }
}
