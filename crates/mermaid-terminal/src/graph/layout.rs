//! Geometry of the layered layout on a character grid, in (main, cross) coordinates:
//! main runs along the flow (rows for TD, columns for LR), cross across it.
//!
//! [`plan`] runs in phases: node sizes (with notes and self-loops), cross positions,
//! ports, channel tracks and label slots in every gap between layers, the layer range of
//! each subgraph frame, main positions, then the frames' rectangles.

use crate::glyphs::{Head, LineKind};
use crate::graph::cross::{cross_positions, resolve_frames};
use crate::graph::model::{Direction, Graph, NoteSide, Shape};
use crate::graph::rank::Ranked;
use crate::graph::route::{LabelAt, assign_tracks, place_labels_td};
use crate::graph::shapes::{self, NodeText};
use crate::text::{display_width, max_width, wrap_all};

/// Notes are wrapped to at most this many columns.
const NOTE_WRAP: usize = 28;

/// Layout knobs for one fitting stage.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// spacing between neighbours in a layer
    pub sep: usize,
    /// wrap width for labels (`usize::MAX`: none)
    pub wrap: usize,
    /// distance between ports on a TD box side (wider leaves room for labels)
    pub spread: usize,
    /// columns the layers are spread apart from the start (a label that would be a
    /// footnote gets room beside its edge)
    pub widen: usize,
}

/// Slots of one gap between layer k and k+1, as absolute main coordinates.
#[derive(Debug, Clone, Default)]
pub struct Gap {
    pub end: usize,
    pub track0: usize,
    pub label0: usize,
    pub label_len: usize,
}

#[derive(Debug, Clone)]
pub struct Frame {
    pub cluster: usize,
    pub main0: usize,
    pub main1: usize,
    pub cross0: i64,
    pub cross1: i64,
    /// cross position of the title on the top border
    pub title_at: i64,
}

/// A note beside its node: text, size on the canvas, and the side it was given.
#[derive(Debug, Clone)]
pub struct NotePlan {
    pub node: Option<usize>,
    pub side: NoteSide,
    pub lines: Vec<String>,
    /// canvas (width, height) of the note box
    pub size: (usize, usize),
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub dir: Direction,
    pub horizontal: bool,
    pub texts: Vec<NodeText>,
    /// box size of each node in canvas terms (width, height)
    pub boxes: Vec<(usize, usize)>,
    /// cross offset of each node's box inside its item (a note on the near side)
    pub box_off: Vec<i64>,
    pub cross: Vec<i64>,
    pub band_start: Vec<usize>,
    pub gaps: Vec<Gap>,
    /// per segment: (upper port, lower port) cross coordinates
    pub ports: Vec<(i64, i64)>,
    pub tracks: Vec<Option<usize>>,
    /// per segment: where its edge label goes (only on one segment of each edge)
    pub label_at: Vec<Option<LabelAt>>,
    pub edge_labels: Vec<Vec<String>>,
    /// per edge: its label as written (lines joined by spaces), for a footnote
    pub edge_text: Vec<String>,
    pub frames: Vec<Frame>,
    /// index into `frames` of each cluster's frame
    pub frame_of: Vec<Option<usize>>,
    pub notes: Vec<NotePlan>,
    pub main_total: usize,
    /// columns the drawing needs (an estimate the drawing confirms)
    pub width: usize,
}

impl Plan {
    /// The frame drawn for `cluster`.
    pub fn frame(&self, cluster: usize) -> Option<&Frame> {
        self.frame_of[cluster].map(|f| &self.frames[f])
    }
}

/// Cross margin a subgraph frame takes on each side of its content.
pub fn frame_margin(horizontal: bool) -> usize {
    if horizontal { 1 } else { 2 }
}

/// The frame an edge's upper end (in layer order) leaves, if it names a subgraph.
pub fn upper_frame(g: &Graph, r: &Ranked, edge: usize) -> Option<usize> {
    let e = &g.edges[edge];
    if r.reversed[edge] {
        e.to_frame
    } else {
        e.from_frame
    }
}

/// The frame an edge's lower end (in layer order) reaches, if it names a subgraph.
pub fn lower_frame(g: &Graph, r: &Ranked, edge: usize) -> Option<usize> {
    let e = &g.edges[edge];
    if r.reversed[edge] {
        e.from_frame
    } else {
        e.to_frame
    }
}

pub fn upper_head(g: &Graph, r: &Ranked, edge: usize) -> Head {
    let e = &g.edges[edge];
    if r.reversed[edge] { e.head } else { e.tail }
}

pub fn lower_head(g: &Graph, r: &Ranked, edge: usize) -> Head {
    let e = &g.edges[edge];
    if r.reversed[edge] { e.tail } else { e.head }
}

/// Compute the whole geometry; `Err` when something cannot be placed without overlap.
pub fn plan(g: &Graph, r: &Ranked, dir: Direction, p: Params) -> Result<Plan, String> {
    let mut b = Builder::new(g, r, dir, p);
    b.sizes()?;
    b.frame_layers();
    // A label with no room beside its edge: spread the layers wider and route again, at
    // last make it a footnote. A frame title with no room between the edges that cross its
    // border: widen the frame.
    let mut spread = p.widen;
    for _ in 0..6 {
        b.place_cross(spread)?;
        b.assign_ports();
        match b.route_gaps(spread >= 16) {
            Ok(()) => {}
            Err(Routing::Label) => {
                spread += 8;
                continue;
            }
            Err(Routing::Edges(e)) => return Err(e),
        }
        b.main_positions();
        if b.frames() {
            return Ok(b.finish());
        }
    }
    Err("no room for a subgraph title".into())
}

/// Why a gap could not be routed.
enum Routing {
    /// edges would be confused
    Edges(String),
    /// a label has no room beside its edge
    Label,
}

/// The state of a plan between its phases.
struct Builder<'a> {
    g: &'a Graph,
    r: &'a Ranked,
    p: Params,
    dir: Direction,
    horizontal: bool,
    texts: Vec<NodeText>,
    edge_labels: Vec<Vec<String>>,
    notes: Vec<NotePlan>,
    /// segments whose port is on each item's side facing the previous / next layer
    side_a: Vec<Vec<usize>>,
    side_b: Vec<Vec<usize>>,
    /// distance between neighbouring ports on a side
    spacing: usize,
    boxes: Vec<(usize, usize)>,
    box_off: Vec<i64>,
    csize: Vec<usize>,
    msize: Vec<usize>,
    paths: Vec<Vec<usize>>,
    cross: Vec<i64>,
    ports: Vec<(i64, i64)>,
    gap_segs: Vec<Vec<usize>>,
    tracks: Vec<Option<usize>>,
    gap_tracks: Vec<usize>,
    label_at: Vec<Option<LabelAt>>,
    gap_label_len: Vec<usize>,
    /// first and last layer of each cluster (`usize::MAX`, 0 when empty)
    c_lo: Vec<usize>,
    c_hi: Vec<usize>,
    /// depths of frames opening right before layer l (outer first) / closing after it
    /// (inner first)
    opens: Vec<Vec<usize>>,
    closes: Vec<Vec<usize>>,
    /// main row of the border of the frame at (layer, depth)
    open_row: Vec<Vec<(usize, usize)>>,
    close_row: Vec<Vec<(usize, usize)>>,
    band_start: Vec<usize>,
    band_size: Vec<usize>,
    gaps: Vec<Gap>,
    frames: Vec<Frame>,
    frame_of: Vec<Option<usize>>,
    /// TD: least width of each cluster's frame (its title, clear of crossing edges)
    min_w: Vec<i64>,
    main_total: usize,
}

impl<'a> Builder<'a> {
    fn new(g: &'a Graph, r: &'a Ranked, dir: Direction, p: Params) -> Self {
        let horizontal = dir.horizontal();
        let texts = g
            .nodes
            .iter()
            .map(|n| NodeText {
                shape: n.shape,
                label: wrap_all(&n.label, p.wrap),
                sections: n
                    .sections
                    .iter()
                    .map(|s| wrap_all(s, p.wrap.saturating_add(4)))
                    .collect(),
            })
            .collect();
        let edge_labels = g.edges.iter().map(|e| wrap_all(&e.label, p.wrap)).collect();
        let n_items = r.items.len();
        let mut side_a: Vec<Vec<usize>> = vec![Vec::new(); n_items];
        let mut side_b: Vec<Vec<usize>> = vec![Vec::new(); n_items];
        for (si, s) in r.segs.iter().enumerate() {
            side_b[s.upper].push(si);
            side_a[s.lower].push(si);
        }
        let layers = r.layers.len();
        let mut gap_segs: Vec<Vec<usize>> = vec![Vec::new(); layers.saturating_sub(1)];
        for (si, s) in r.segs.iter().enumerate() {
            gap_segs[r.items[s.upper].layer].push(si);
        }
        let paths = r
            .items
            .iter()
            .map(|it| g.cluster_path(it.cluster))
            .collect();
        Builder {
            g,
            r,
            p,
            dir,
            horizontal,
            texts,
            edge_labels,
            notes: Vec::new(),
            side_a,
            side_b,
            spacing: if horizontal { 1 } else { p.spread.max(2) },
            boxes: vec![(1, 1); g.nodes.len()],
            box_off: vec![0; g.nodes.len()],
            csize: vec![1; n_items],
            msize: vec![1; n_items],
            paths,
            cross: Vec::new(),
            ports: vec![(0, 0); r.segs.len()],
            gap_segs,
            tracks: vec![None; r.segs.len()],
            gap_tracks: vec![0; layers.saturating_sub(1)],
            label_at: vec![None; r.segs.len()],
            gap_label_len: vec![0; layers.saturating_sub(1)],
            c_lo: vec![usize::MAX; g.clusters.len()],
            c_hi: vec![0; g.clusters.len()],
            opens: vec![Vec::new(); layers],
            closes: vec![Vec::new(); layers],
            open_row: vec![Vec::new(); layers],
            close_row: vec![Vec::new(); layers],
            band_start: vec![0; layers],
            band_size: Vec::new(),
            gaps: vec![Gap::default(); layers.saturating_sub(1)],
            frames: Vec::new(),
            frame_of: vec![None; g.clusters.len()],
            min_w: g
                .clusters
                .iter()
                .map(|c| display_width(&c.title) as i64 + 4)
                .collect(),
            main_total: 0,
        }
    }

    /// Phase 1: the box of every node, grown for its ports, its self-loop and its notes.
    fn sizes(&mut self) -> Result<(), String> {
        let (g, r, horizontal) = (self.g, self.r, self.horizontal);
        let mut loop_of = vec![None; g.nodes.len()];
        for &e in &r.loops {
            let n = g.edges[e].from;
            if loop_of[n].is_some() {
                return Err("two self-loops on one node".into());
            }
            loop_of[n] = Some(e);
        }
        // Notes: one per side of a node (several on one side are joined).
        for note in &g.notes {
            let lines = wrap_all(&note.text, self.p.wrap.min(NOTE_WRAP));
            // A self-loop takes the right side (TD) / the bottom (LR): the note goes opposite.
            let side = match note.node {
                Some(n) if loop_of[n].is_some() => NoteSide::Left,
                _ => note.side,
            };
            if let Some(prev) = self
                .notes
                .iter_mut()
                .find(|x| x.node.is_some() && x.node == note.node && x.side == side)
            {
                prev.lines.extend(lines);
            } else {
                self.notes.push(NotePlan {
                    node: note.node,
                    side,
                    lines,
                    size: (0, 0),
                });
            }
        }
        for n in &mut self.notes {
            n.size = (max_width(&n.lines) + 4, n.lines.len() + 2);
        }
        for (i, it) in r.items.iter().enumerate() {
            let Some(n) = it.node else { continue };
            let (mut w, mut h) = shapes::size(&self.texts[n]);
            let point = self.texts[n].shape.is_point();
            // a point is not widened for the edges its frame sends and takes
            let own = |side: usize, list: &[usize]| {
                list.iter()
                    .filter(|&&si| !(point && self.via_frame(si, side)))
                    .count()
            };
            let k = own(0, &self.side_a[i]).max(own(1, &self.side_b[i]));
            let need = (k.max(1) - 1) * self.spacing + if point { 1 } else { 3 };
            let loop_w = loop_of[n].map(|e| max_width(&self.edge_labels[e]));
            if horizontal {
                h = h.max(need + usize::from(self.texts[n].shape == Shape::Cylinder));
                if loop_w.is_some() && point {
                    w = 3;
                }
            } else {
                w = w.max(need);
                if loop_w.is_some() && h < 4 {
                    h = 4;
                }
            }
            // Odd cross sizes put every box centre on a whole cell, so chains line up straight.
            if horizontal {
                h += 1 - h % 2;
            } else {
                w += 1 - w % 2;
            }
            self.boxes[n] = (w, h);
            let (mut cs, mut ms) = if horizontal { (h, w) } else { (w, h) };
            if let Some(lw) = loop_w {
                if horizontal {
                    cs += 2;
                    ms = ms.max(5 + lw + usize::from(lw > 0));
                } else {
                    cs += 3 + if lw > 0 { lw + 1 } else { 0 };
                }
            }
            for note in self.notes.iter().filter(|x| x.node == Some(n)) {
                let (nw, nh) = note.size;
                // TD: beside the box with a two-cell connector; LR: under or over it.
                let (extra, along) = if horizontal {
                    (nh + 1, nw)
                } else {
                    (nw + 2, nh)
                };
                cs += extra;
                ms = ms.max(along);
                if note.side == NoteSide::Left {
                    self.box_off[n] = extra as i64;
                }
            }
            self.csize[i] = cs;
            self.msize[i] = ms;
        }
        Ok(())
    }

    /// Cross size of a node's box (its width in TD, its height in LR).
    fn box_cross(&self, n: usize) -> usize {
        let (w, h) = self.boxes[n];
        if self.horizontal { h } else { w }
    }

    /// Phase 2: cross positions, then items pushed out of frames they do not belong to.
    /// `extra` widens the space between neighbours (to make room for labels).
    fn place_cross(&mut self, extra: usize) -> Result<(), String> {
        let (g, r, horizontal, p) = (self.g, self.r, self.horizontal, self.p);
        let margin = frame_margin(horizontal) as i64;
        let paths = &self.paths;
        let sep_between = |a: usize, b: usize| -> i64 {
            let common = paths[a]
                .iter()
                .zip(&paths[b])
                .take_while(|(x, y)| x == y)
                .count();
            let frames = (paths[a].len() - common) + (paths[b].len() - common);
            let sep = if horizontal {
                (p.sep / 4).max(1)
            } else {
                p.sep + extra
            };
            let base = if r.items[a].node.is_none() && r.items[b].node.is_none() {
                1
            } else {
                sep as i64
            };
            base.max(if frames > 0 {
                frames as i64 * margin + 1
            } else {
                0
            })
        };
        // Items line up on their box centre (doubled, to stay in integers).
        let anchor2: Vec<i64> = r
            .items
            .iter()
            .map(|it| match it.node {
                Some(n) => 2 * self.box_off[n] + self.box_cross(n) as i64 - 1,
                None => 0,
            })
            .collect();
        let mut cross = cross_positions(r, &self.csize, &anchor2, &sep_between);
        let min_w = (!horizontal).then_some(self.min_w.as_slice());
        resolve_frames(g, r, &mut cross, &self.csize, paths, margin, min_w)?;
        self.cross = cross;
        Ok(())
    }

    /// Cross range (inclusive) where ports may sit on an item.
    fn port_range(&self, i: usize) -> (i64, i64) {
        let c = self.cross[i];
        match self.r.items[i].node {
            None => (c, c),
            Some(n) => {
                let c = c + self.box_off[n];
                let len = self.box_cross(n) as i64;
                match self.texts[n].shape {
                    s if s.is_point() => (c, c + len - 1),
                    // LR: edges land on a cylinder's body, not on its lid
                    Shape::Cylinder if self.horizontal => (c + 2, c + len - 2),
                    _ => (c + 1, c + len - 2),
                }
            }
        }
    }

    /// LR: the rows of a class or state box's compartment dividers (`├───┤`), where an
    /// arrow would read as part of the divider. Absolute cross positions.
    fn divider_rows(&self, i: usize) -> Vec<i64> {
        let Some(n) = self.r.items[i].node else {
            return Vec::new();
        };
        let t = &self.texts[n];
        if !self.horizontal || t.sections.iter().all(Vec::is_empty) {
            return Vec::new();
        }
        let top = self.cross[i] + self.box_off[n];
        let mut row = t.label.len().max(1) as i64 + 1;
        let mut rows = Vec::new();
        for section in t.sections.iter().filter(|s| !s.is_empty()) {
            rows.push(top + row);
            row += section.len() as i64 + 1;
        }
        rows
    }

    /// A segment that meets item `i` on `side` (0: the side facing the previous layer) only
    /// through its subgraph's frame: drawn from the frame's border, not from the item.
    fn via_frame(&self, si: usize, side: usize) -> bool {
        let (g, r) = (self.g, self.r);
        let s = &r.segs[si];
        if side == 0 {
            s.last && lower_frame(g, r, s.edge).is_some()
        } else {
            s.first && upper_frame(g, r, s.edge).is_some()
        }
    }

    /// Cross position of the centre of item `i`'s box.
    fn center(&self, i: usize) -> i64 {
        match self.r.items[i].node {
            Some(n) => self.cross[i] + self.box_off[n] + (self.box_cross(n) as i64 - 1) / 2,
            None => self.cross[i],
        }
    }

    /// Phase 3: ports spread evenly on each side, ordered by where the other end is. The
    /// edges a subgraph's frame sends or takes through a `[*]` inside it leave (or reach)
    /// the frame's border away from the point's own edges, so no line seems to run through
    /// the point and out of the frame.
    fn assign_ports(&mut self) {
        let r = self.r;
        let mut via_frames: Vec<(usize, usize)> = Vec::new(); // (side, segment)
        for i in 0..r.items.len() {
            let (lo, hi) = self.port_range(i);
            let point = r.items[i]
                .node
                .is_some_and(|n| self.texts[n].shape.is_point());
            for side in 0..2 {
                let mut list = if side == 0 {
                    self.side_a[i].clone()
                } else {
                    self.side_b[i].clone()
                };
                if point {
                    let (framed, own): (Vec<usize>, Vec<usize>) =
                        list.iter().partition(|&&si| self.via_frame(si, side));
                    via_frames.extend(framed.into_iter().map(|si| (side, si)));
                    list = own;
                }
                if list.is_empty() {
                    continue;
                }
                self.sort_by_other_end(&mut list, side);
                let spots = self.spread(list.len(), (lo, hi), &self.divider_rows(i));
                for (&si, pos) in list.iter().zip(spots) {
                    self.set_port(si, side, pos);
                }
            }
        }
        self.frame_ports(&via_frames);
    }

    /// Order a side's segments by where their other end is (back edges to the outside).
    fn sort_by_other_end(&self, list: &mut [usize], side: usize) {
        let r = self.r;
        list.sort_by_key(|&si| {
            let s = &r.segs[si];
            let other = if side == 0 { s.upper } else { s.lower };
            let back = i64::from(r.reversed[s.edge]);
            (self.center(other), back, s.edge)
        });
    }

    /// `k` ports spread evenly and centred in `lo..=hi`, off the given divider rows.
    fn spread(&self, k: usize, (lo, hi): (i64, i64), dividers: &[i64]) -> Vec<i64> {
        let k = k as i64;
        let spacing = self.spacing as i64;
        let span = (k - 1) * spacing;
        let start = lo + ((hi - lo) - span).max(0) / 2;
        let mut spots: Vec<i64> = (0..k).map(|j| (start + j * spacing).min(hi)).collect();
        off_dividers(&mut spots, dividers, (lo, hi));
        spots
    }

    fn set_port(&mut self, si: usize, side: usize, pos: i64) {
        if side == 0 {
            self.ports[si].1 = pos;
        } else {
            self.ports[si].0 = pos;
        }
    }

    /// Ports for the segments that meet a `[*]` only through its frame: spread over the
    /// frame's members, clear of the ports already on that border (and, leaving, of the
    /// point's own).
    fn frame_ports(&mut self, via_frames: &[(usize, usize)]) {
        let (g, r) = (self.g, self.r);
        let mut groups: Vec<((usize, usize), Vec<usize>)> = Vec::new();
        for &(side, si) in via_frames {
            let s = &r.segs[si];
            let frame = if side == 0 {
                lower_frame(g, r, s.edge)
            } else {
                upper_frame(g, r, s.edge)
            };
            let Some(c) = frame else { continue };
            match groups.iter_mut().find(|(key, _)| *key == (c, side)) {
                Some((_, list)) => list.push(si),
                None => groups.push(((c, side), vec![si])),
            }
        }
        for ((c, side), mut list) in groups {
            let members = (0..r.items.len()).filter(|&i| self.paths[i].contains(&c));
            let (lo, hi) = members.fold((i64::MAX, i64::MIN), |(lo, hi), i| {
                (
                    lo.min(self.cross[i]),
                    hi.max(self.cross[i] + self.csize[i] as i64 - 1),
                )
            });
            if lo > hi {
                continue;
            }
            // the gap the border faces, and what already crosses it there
            let at = if side == 0 {
                r.segs[list[0]].lower
            } else {
                r.segs[list[0]].upper
            };
            let layer = r.items[at].layer;
            let gap = if side == 0 {
                layer.checked_sub(1)
            } else {
                Some(layer)
            };
            let mut taken: Vec<i64> = gap
                .and_then(|k| self.gap_segs.get(k))
                .into_iter()
                .flatten()
                .filter(|si| !list.contains(si))
                .map(|&si| {
                    if side == 0 {
                        self.ports[si].1
                    } else {
                        self.ports[si].0
                    }
                })
                .collect();
            // leaving: clear of the point and its own ports too, so no line seems to run
            // through it and out (arriving over the start point reads as it means)
            // (when there is room)
            let mut near_point = Vec::new();
            if side == 1 {
                let mut own = vec![self.center(at)];
                for &si in self.side_a[at].iter().chain(&self.side_b[at]) {
                    if !list.contains(&si) {
                        own.extend([self.ports[si].0, self.ports[si].1]);
                    }
                }
                near_point.extend(own.iter().flat_map(|&x| [x - 1, x, x + 1]));
            }
            self.sort_by_other_end(&mut list, side);
            let spots = self.spread(list.len(), (lo, hi), &[]);
            for (&si, want) in list.iter().zip(spots) {
                let free = |avoid: &[i64]| {
                    (0..=(hi - lo))
                        .flat_map(|d| [want + d, want - d])
                        .find(|p| (lo..=hi).contains(p) && !taken.contains(p) && !avoid.contains(p))
                };
                let pos = free(&near_point).or_else(|| free(&[])).unwrap_or(want);
                taken.push(pos);
                self.set_port(si, side, pos);
            }
        }
    }

    /// The segment that carries an edge's label: the one at the edge's source.
    fn label_seg(&self, si: usize) -> bool {
        let s = &self.r.segs[si];
        let at_source = if self.r.reversed[s.edge] {
            s.last
        } else {
            s.first
        };
        !self.edge_labels[s.edge].is_empty() && !self.g.edges[s.edge].invisible && at_source
    }

    /// Phase 4: channel tracks and label slots, gap by gap (a label with no room becomes a
    /// footnote when `markers`).
    fn route_gaps(&mut self, markers: bool) -> Result<(), Routing> {
        self.tracks.fill(None);
        self.label_at.fill(None);
        for k in 0..self.gap_segs.len() {
            let segs = &self.gap_segs[k];
            self.gap_tracks[k] =
                assign_tracks(segs, &self.ports, &mut self.tracks).map_err(Routing::Edges)?;
            let labelled: Vec<usize> = segs
                .iter()
                .copied()
                .filter(|&si| self.label_seg(si))
                .collect();
            if self.horizontal {
                let w = labelled
                    .iter()
                    .map(|&si| max_width(&self.edge_labels[self.r.segs[si].edge]))
                    .max()
                    .unwrap_or(0);
                self.gap_label_len[k] = if w > 0 { w + 2 } else { 2 };
                for &si in &labelled {
                    self.label_at[si] = Some(LabelAt::InGap);
                }
            } else {
                let labels: Vec<(usize, &Vec<String>)> = labelled
                    .iter()
                    .map(|&si| (si, &self.edge_labels[self.r.segs[si].edge]))
                    .collect();
                self.gap_label_len[k] = place_labels_td(
                    segs,
                    &labels,
                    &self.ports,
                    &self.tracks,
                    &mut self.label_at,
                    markers,
                )
                .ok_or(Routing::Label)?;
            }
        }
        Ok(())
    }

    /// Phase 5: which layers each frame spans, and the frame slots of every gap.
    fn frame_layers(&mut self) {
        let g = self.g;
        for (i, it) in self.r.items.iter().enumerate() {
            for &c in &self.paths[i] {
                self.c_lo[c] = self.c_lo[c].min(it.layer);
                self.c_hi[c] = self.c_hi[c].max(it.layer);
            }
        }
        for c in 0..g.clusters.len() {
            if self.c_lo[c] == usize::MAX {
                continue;
            }
            let d = g.cluster_depth(c);
            if !self.opens[self.c_lo[c]].contains(&d) {
                self.opens[self.c_lo[c]].push(d);
            }
            if !self.closes[self.c_hi[c]].contains(&d) {
                self.closes[self.c_hi[c]].push(d);
            }
        }
        for v in &mut self.opens {
            v.sort_unstable();
        }
        for v in &mut self.closes {
            v.sort_unstable_by(|a, b| b.cmp(a));
        }
    }

    /// Does any visible segment of gap `k` match `f`?
    fn any_seg(&self, k: usize, f: impl Fn(usize) -> bool) -> bool {
        self.gap_segs[k]
            .iter()
            .any(|&si| !self.g.edges[self.r.segs[si].edge].invisible && f(si))
    }

    /// A head lands on (or leaves) a box in gap `k`, next to layer k (upper) / k+1 (lower).
    fn has_upper_head(&self, k: usize) -> bool {
        let (g, r) = (self.g, self.r);
        self.any_seg(k, |si| {
            let s = &r.segs[si];
            s.first && upper_head(g, r, s.edge) != Head::None && upper_frame(g, r, s.edge).is_none()
        })
    }

    fn has_lower_head(&self, k: usize) -> bool {
        let (g, r) = (self.g, self.r);
        self.any_seg(k, |si| {
            let s = &r.segs[si];
            s.last && lower_head(g, r, s.edge) != Head::None && lower_frame(g, r, s.edge).is_none()
        })
    }

    /// An edge of gap `k` ends at a frame of depth `d` opening below the gap.
    fn frame_head(&self, k: usize, d: usize) -> bool {
        let (g, r) = (self.g, self.r);
        self.any_seg(k, |si| {
            let s = &r.segs[si];
            s.last && lower_frame(g, r, s.edge).is_some_and(|c| g.cluster_depth(c) == d)
        })
    }

    /// An edge of gap `k` with a tail head leaves a frame of depth `d` closing above the gap.
    fn frame_tail(&self, k: usize, d: usize) -> bool {
        let (g, r) = (self.g, self.r);
        self.any_seg(k, |si| {
            let s = &r.segs[si];
            s.first
                && upper_head(g, r, s.edge) != Head::None
                && upper_frame(g, r, s.edge).is_some_and(|c| g.cluster_depth(c) == d)
        })
    }

    /// Phase 6: main positions of bands, gaps and frame borders.
    fn main_positions(&mut self) {
        let (g, r) = (self.g, self.r);
        let layers = r.layers.len();
        self.band_size = r
            .layers
            .iter()
            .map(|l| l.iter().map(|&i| self.msize[i]).max().unwrap_or(1))
            .collect();
        if self.horizontal {
            // LR: a frame spans from its open slot to its close slot; make sure the title fits.
            for c in 0..g.clusters.len() {
                if self.c_lo[c] == usize::MAX {
                    continue;
                }
                let need = display_width(&g.clusters[c].title) + 5;
                let have: usize = (self.c_lo[c]..=self.c_hi[c])
                    .map(|l| self.band_size[l])
                    .sum::<usize>()
                    + 2;
                if need > have {
                    self.band_size[self.c_hi[c]] += need - have;
                }
            }
        }
        for rows in self.open_row.iter_mut().chain(self.close_row.iter_mut()) {
            rows.clear();
        }
        let mut main = 0;
        for &d in &self.opens[0] {
            self.open_row[0].push((d, main));
            main += 1;
        }
        for l in 0..layers {
            self.band_start[l] = main;
            main += self.band_size[l];
            if l + 1 == layers {
                for &d in &self.closes[l] {
                    self.close_row[l].push((d, main));
                    main += 1;
                }
                continue;
            }
            let start = main;
            main += usize::from(self.has_upper_head(l));
            for &d in &self.closes[l] {
                self.close_row[l].push((d, main));
                main += 1 + usize::from(self.frame_tail(l, d));
            }
            // LR: one shaft cell before the first turn keeps turns off the box corners
            if self.horizontal && self.gap_tracks[l] > 0 {
                main += 1;
            }
            let track0 = main;
            main += self.gap_tracks[l];
            let label0 = main;
            main += self.gap_label_len[l];
            let segs = &self.gap_segs[l];
            // a visible shaft cell (labels may cover a straight edge) so line kinds show
            let short_jog = segs
                .iter()
                .any(|&si| (self.ports[si].0 - self.ports[si].1).abs() == 1);
            if !self.horizontal && ((self.gap_tracks[l] == 0 && !segs.is_empty()) || short_jog) {
                main += 1;
            }
            // The part next to the lower layer: frame heads and borders, then box heads.
            let tail: usize = self.opens[l + 1]
                .iter()
                .map(|&d| 1 + usize::from(self.frame_head(l, d)))
                .sum::<usize>()
                + usize::from(self.has_lower_head(l));
            // At least one shaft cell besides the head (two for dotted edges) so line kinds
            // stay visible.
            let dotted = self.any_seg(l, |si| g.edges[r.segs[si].edge].line == LineKind::Dotted);
            let min = if self.horizontal {
                3
            } else {
                2 + usize::from(dotted)
            };
            main = (main + tail).max(start + min);
            let mut row = main - tail;
            for &d in &self.opens[l + 1] {
                row += usize::from(self.frame_head(l, d));
                self.open_row[l + 1].push((d, row));
                row += 1;
            }
            self.gaps[l] = Gap {
                end: main,
                track0,
                label0,
                label_len: self.gap_label_len[l],
            };
        }
        self.main_total = main;
    }

    /// Phase 7: frame rectangles, innermost first so outer ones can include them; each
    /// title on the top border, clear of the edges that cross it. `false` when a frame had
    /// to be widened for its title (the cross placement must then run again).
    fn frames(&mut self) -> bool {
        let g = self.g;
        let mut fits = true;
        self.frames.clear();
        let margin = frame_margin(self.horizontal) as i64;
        let mut order: Vec<usize> = (0..g.clusters.len())
            .filter(|&c| self.c_lo[c] != usize::MAX)
            .collect();
        order.sort_by_key(|&c| std::cmp::Reverse(g.cluster_depth(c)));
        let row_at =
            |rows: &[(usize, usize)], d: usize| rows.iter().find(|x| x.0 == d).map_or(0, |x| x.1);
        for c in order {
            let (lo, hi) = (self.c_lo[c], self.c_hi[c]);
            let d = g.cluster_depth(c);
            let main0 = row_at(&self.open_row[lo], d);
            let main1 = row_at(&self.close_row[hi], d);
            let mut c0 = i64::MAX;
            let mut c1 = i64::MIN;
            for (i, path) in self.paths.iter().enumerate() {
                if path.contains(&c) {
                    c0 = c0.min(self.cross[i]);
                    c1 = c1.max(self.cross[i] + self.csize[i] as i64 - 1);
                }
            }
            for f in &self.frames {
                if f.cluster != c && g.cluster_path(Some(f.cluster)).contains(&c) {
                    c0 = c0.min(f.cross0);
                    c1 = c1.max(f.cross1);
                }
            }
            let (c0, mut c1) = (c0 - margin, c1 + margin);
            if !self.horizontal {
                c1 = c1.max(c0 + self.min_w[c]);
            }
            let title_w = display_width(&g.clusters[c].title) as i64 + 2;
            let mut title_at = c0 + 2;
            if !self.horizontal {
                // Edges crossing the top border: keep the title between them.
                let crossing: Vec<i64> = self.gap_segs[lo.saturating_sub(1)]
                    .iter()
                    .filter(|_| lo > 0)
                    .filter(|&&si| {
                        let s = &self.r.segs[si];
                        self.paths[s.lower].contains(&c) && !self.paths[s.upper].contains(&c)
                    })
                    .map(|&si| self.ports[si].1)
                    .collect();
                while crossing
                    .iter()
                    .any(|&x| x >= title_at - 1 && x <= title_at + title_w)
                {
                    title_at += 1;
                }
                if title_at + title_w > c1 {
                    self.min_w[c] = self.min_w[c].max(title_at + title_w - c0);
                    fits = false;
                }
            }
            self.frame_of[c] = Some(self.frames.len());
            self.frames.push(Frame {
                cluster: c,
                main0,
                main1,
                cross0: c0,
                cross1: c1,
                title_at,
            });
        }
        fits
    }

    /// Canvas columns the drawing needs.
    fn width(&self) -> usize {
        let free_notes = self
            .notes
            .iter()
            .filter(|n| n.node.is_none())
            .map(|n| n.size.0)
            .max()
            .unwrap_or(0);
        if self.horizontal {
            return self.main_total.max(free_notes);
        }
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        for (i, &c) in self.cross.iter().enumerate() {
            lo = lo.min(c);
            hi = hi.max(c + self.csize[i] as i64 - 1);
        }
        for f in &self.frames {
            lo = lo.min(f.cross0);
            hi = hi.max(f.cross1);
        }
        for (si, at) in self.label_at.iter().enumerate() {
            if let Some(LabelAt::Rows { cross, .. } | LabelAt::OnTrack { cross }) = at {
                let w = max_width(&self.edge_labels[self.r.segs[si].edge]) as i64;
                lo = lo.min(*cross);
                hi = hi.max(cross + w - 1);
            }
        }
        if lo > hi {
            return free_notes;
        }
        ((hi - lo + 1) as usize).max(free_notes)
    }

    fn finish(self) -> Plan {
        let width = self.width();
        Plan {
            dir: self.dir,
            horizontal: self.horizontal,
            texts: self.texts,
            boxes: self.boxes,
            box_off: self.box_off,
            cross: self.cross,
            band_start: self.band_start,
            gaps: self.gaps,
            ports: self.ports,
            tracks: self.tracks,
            label_at: self.label_at,
            edge_labels: self.edge_labels,
            edge_text: self.g.edges.iter().map(|e| e.label.join(" ")).collect(),
            frames: self.frames,
            frame_of: self.frame_of,
            notes: self.notes,
            main_total: self.main_total,
            width,
        }
    }
}

/// Moves a side's ports off divider rows, in order: the whole group shifted (least
/// first), else packed into the free rows nearest where they were; when the rows are too
/// few, they stay.
fn off_dividers(spots: &mut [i64], dividers: &[i64], (lo, hi): (i64, i64)) {
    let clear = |p: &i64| !dividers.contains(p);
    if spots.iter().all(clear) {
        return;
    }
    let fits = |d: i64| {
        spots
            .iter()
            .all(|&p| (lo..=hi).contains(&(p + d)) && clear(&(p + d)))
    };
    if let Some(d) = (1..=3).flat_map(|d| [d, -d]).find(|&d| fits(d)) {
        for p in spots.iter_mut() {
            *p += d;
        }
        return;
    }
    let free: Vec<i64> = (lo..=hi).filter(clear).collect();
    let k = spots.len();
    if free.len() < k {
        return;
    }
    let mean: i64 = spots.iter().sum();
    let best = (0..=free.len() - k)
        .min_by_key(|&s| (free[s..s + k].iter().sum::<i64>() - mean).abs())
        .unwrap_or(0);
    spots.copy_from_slice(&free[best..best + k]);
}
