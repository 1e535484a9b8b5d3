//! A diagram's shape in numbers, without laying it out: its kind, its direction, how many
//! nodes (participants) and edges (messages) it has. What a check needs to say that four
//! options are alike.

use super::{
    DiagramKind, MAX_SOURCE_BYTES, graph, kind_of, sequence, split_header, strip_front_matter,
};

/// A diagram's kind, direction and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outline {
    /// The diagram type its header names.
    pub kind: DiagramKind,
    /// `TD`, `BT`, `LR` or `RL` for a graph; `None` for a sequence diagram.
    pub direction: Option<&'static str>,
    /// Nodes of a graph, participants of a sequence diagram.
    pub nodes: usize,
    /// Visible edges of a graph, messages of a sequence diagram.
    pub edges: usize,
}

/// The outline of a diagram this crate draws, or why it cannot be read.
pub fn outline(source: &str) -> Result<Outline, String> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err("diagram too large".into());
    }
    let body = strip_front_matter(source);
    let (header, rest) = split_header(body.text).ok_or("no diagram type found (empty source)")?;
    let keyword = header
        .split(|c: char| c.is_whitespace() || c == ';')
        .next()
        .unwrap_or("");
    let kind = kind_of(keyword);
    if matches!(kind, DiagramKind::Unsupported | DiagramKind::Unknown) {
        return Err(format!(
            "{keyword:?} is not a diagram kind drawn here (flowchart, sequence, state, class)"
        ));
    }
    if kind == DiagramKind::Sequence {
        let (nodes, edges) = sequence::outline(rest)?;
        return Ok(Outline {
            kind,
            direction: None,
            nodes,
            edges,
        });
    }
    let (nodes, edges, direction) = graph::outline(kind, header, rest)?;
    Ok(Outline {
        kind,
        direction: Some(direction),
        nodes,
        edges,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_direction() {
        let o = outline("flowchart LR\nA[x] --> B{y}\nB -- no --> C\nB ~~~ D").unwrap();
        assert_eq!(o.kind, DiagramKind::Flowchart);
        assert_eq!(o.direction, Some("LR"));
        assert_eq!((o.nodes, o.edges), (4, 2));
        let s = outline("sequenceDiagram\nparticipant A\nparticipant B\nA->>B: hi\nB-->>A: ok")
            .unwrap();
        assert_eq!(
            (s.kind, s.direction, s.nodes, s.edges),
            (DiagramKind::Sequence, None, 2, 2)
        );
        assert!(outline("pie\n\"a\": 1").is_err());
    }
}
