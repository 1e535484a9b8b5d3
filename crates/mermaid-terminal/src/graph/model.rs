//! The graph shared by flowcharts, state and class diagrams.

use crate::glyphs::{Head, LineKind};
use crate::graph::ids::{ClusterId, EdgeId, IdVec, NodeId};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    TopDown,
    BottomUp,
    LeftRight,
    RightLeft,
}

impl Direction {
    pub fn parse(s: &str) -> Option<Direction> {
        match s.trim().to_ascii_uppercase().as_str() {
            "TD" | "TB" | "V" => Some(Direction::TopDown),
            "BT" | "^" => Some(Direction::BottomUp),
            "LR" | ">" => Some(Direction::LeftRight),
            "RL" | "<" => Some(Direction::RightLeft),
            _ => None,
        }
    }

    pub fn horizontal(self) -> bool {
        matches!(self, Direction::LeftRight | Direction::RightLeft)
    }

    pub fn reversed(self) -> bool {
        matches!(self, Direction::BottomUp | Direction::RightLeft)
    }

    /// The same flow turned a quarter: LR <-> TD, RL <-> BT.
    pub fn turned(self) -> Direction {
        match self {
            Direction::TopDown => Direction::LeftRight,
            Direction::BottomUp => Direction::RightLeft,
            Direction::LeftRight => Direction::TopDown,
            Direction::RightLeft => Direction::BottomUp,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Rect,
    Round,
    Stadium,
    Subroutine,
    Cylinder,
    Circle,
    DoubleCircle,
    Rhombus,
    Hexagon,
    /// `[/ /]`
    LeanRight,
    /// `[\ \]`
    LeanLeft,
    /// `[/ \]`
    Trapezoid,
    /// `[\ /]`
    TrapezoidAlt,
    /// `> ]`
    Asymmetric,
    /// state `[*]` as a source
    Start,
    /// state `[*]` as a target
    End,
    /// state `<<fork>>` / `<<join>>`
    Bar,
    /// state `<<choice>>`
    Choice,
}

impl Shape {
    /// Drawn as one mark on the line rather than a box (`[*]`, fork/join bars, choices).
    pub fn is_point(self) -> bool {
        matches!(self, Shape::Start | Shape::End | Shape::Bar | Shape::Choice)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub id: String,
    pub label: Vec<String>,
    pub shape: Shape,
    /// extra compartments under the label (class members, state descriptions)
    pub sections: Vec<Vec<String>>,
    pub cluster: Option<ClusterId>,
    /// label or shape given explicitly
    pub defined: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
    pub label: Vec<String>,
    pub line: LineKind,
    /// head at `to`
    pub head: Head,
    /// head at `from`
    pub tail: Head,
    pub invisible: bool,
    /// the edge leaves the frame of this subgraph (composite state), not the node `from`
    pub from_frame: Option<ClusterId>,
    /// the edge ends at the frame of this subgraph (composite state), not at the node `to`
    pub to_frame: Option<ClusterId>,
}

/// Which side of its node a note sits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteSide {
    Left,
    Right,
}

/// A note (state and class diagrams): beside its node, or free when `node` is `None`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub node: Option<NodeId>,
    pub side: NoteSide,
    pub text: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    pub id: String,
    pub title: String,
    pub parent: Option<ClusterId>,
    /// `Some(k)`: the k-th concurrent region (from 1) of the composite state `parent`,
    /// drawn as a dashed frame with no title
    pub region: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    pub direction: Direction,
    pub nodes: IdVec<NodeId, Node>,
    pub edges: IdVec<EdgeId, Edge>,
    pub clusters: IdVec<ClusterId, Cluster>,
    pub notes: Vec<Note>,
    /// the directions subgraphs ask for of their own (drawn in the graph's direction)
    pub inner_directions: Vec<(ClusterId, Direction)>,
    /// a state diagram's: its subgraphs are composite states, each kept whole. An edge
    /// between a member and a state outside keeps that state above or below the whole
    /// frame, as one from the frame itself does; a back edge to or from a frame may be
    /// routed round the outside.
    pub composite_states: bool,
}

impl Graph {
    pub fn new(direction: Direction) -> Self {
        Graph {
            direction,
            nodes: IdVec::new(),
            edges: IdVec::new(),
            clusters: IdVec::new(),
            notes: Vec::new(),
            inner_directions: Vec::new(),
            composite_states: false,
        }
    }

    /// Index of node `id`, created (labelled with its id) on first use.
    pub fn node(&mut self, id: &str, cluster: Option<ClusterId>) -> NodeId {
        if let Some(i) = self.nodes.position(|n| n.id == id) {
            if self.nodes[i].cluster.is_none() {
                self.nodes[i].cluster = cluster;
            }
            return i;
        }
        self.nodes.push(Node {
            id: id.to_string(),
            label: vec![id.to_string()],
            shape: Shape::Rect,
            sections: Vec::new(),
            cluster,
            defined: false,
        })
    }

    /// What a cluster is called in words: its title, or for a concurrent region (which
    /// has none) `region 2 of Busy`.
    pub fn cluster_name(&self, c: ClusterId) -> String {
        let cluster = &self.clusters[c];
        match (cluster.region, cluster.parent) {
            (Some(k), Some(p)) => format!("region {k} of {}", self.cluster_name(p)),
            _ => cluster.title.clone(),
        }
    }

    /// Depth of a cluster (1 = top level).
    pub fn cluster_depth(&self, c: ClusterId) -> usize {
        let mut d = 1;
        let mut cur = self.clusters[c].parent;
        while let Some(p) = cur {
            d += 1;
            cur = self.clusters[p].parent;
            if d > self.clusters.len() {
                break;
            }
        }
        d
    }

    /// True when `inner` is cluster `c` or lies inside it: `cluster_path(inner)` holds
    /// `c`, without making the list.
    pub fn within(&self, inner: Option<ClusterId>, c: ClusterId) -> bool {
        let mut cur = inner;
        let mut seen = 0;
        while let Some(x) = cur {
            if x == c {
                return true;
            }
            seen += 1;
            if seen > self.clusters.len() {
                break;
            }
            cur = self.clusters[x].parent;
        }
        false
    }

    /// Every cluster's [`Self::cluster_path`], made once for code that asks for many.
    pub fn cluster_paths(&self) -> ClusterPaths {
        ClusterPaths(
            self.clusters
                .ids()
                .map(|c| self.cluster_path(Some(c)))
                .collect(),
        )
    }

    /// Chain of clusters from the top level down to `c` (inclusive).
    pub fn cluster_path(&self, c: Option<ClusterId>) -> Vec<ClusterId> {
        let mut path = Vec::new();
        let mut cur = c;
        while let Some(x) = cur {
            path.push(x);
            cur = self.clusters[x].parent;
            if path.len() > self.clusters.len() {
                break;
            }
        }
        path.reverse();
        path
    }
}

/// Each cluster's chain from the top level down to it (see [`Graph::cluster_paths`]).
#[derive(Debug, Clone)]
pub struct ClusterPaths(IdVec<ClusterId, Vec<ClusterId>>);

impl ClusterPaths {
    /// The chain down to `c` (empty for none): [`Graph::cluster_path`] without a new list.
    pub fn of(&self, c: Option<ClusterId>) -> &[ClusterId] {
        c.map_or(&[], |c| &self.0[c])
    }
}
