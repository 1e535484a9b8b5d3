//! Geometry of the layered layout on a character grid, in (main, cross) coordinates:
//! main runs along the flow (rows for TD, columns for LR), cross across it.
//!
//! [`plan`] runs in phases: node sizes (with notes and self-loops), cross positions,
//! ports, channel tracks and label slots in every gap between layers, the layer range of
//! each subgraph frame, main positions, then the frames' rectangles.

use crate::glyphs::Head;
use crate::graph::ids::{ClusterId, EdgeId, FrameId, GapId, IdVec, ItemId, NodeId, SegId};
use crate::graph::model::{Direction, Graph, NoteSide};
use crate::graph::rank::Ranked;
use crate::graph::route::LabelAt;
use crate::graph::shapes::NodeText;
use crate::text::{Cuts, display_width, max_width, wrap, wrap_all, wrap_all_cut};

mod gaps;
mod main_axis;
mod ports;
mod sizes;

/// Subgraph titles break inside words at label wraps this narrow (the last stage), only at
/// spaces above.
const TITLE_WORDS_BREAK: usize = 14;

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
    /// TD: blocks lined up with their median neighbours (see [`crate::graph::align`])
    /// instead of the barycentre placement; tried when nothing else draws
    pub aligned: Option<crate::graph::align::Blocks>,
    /// TD: a subgraph member pulled only by its neighbours inside its frame (see
    /// [`crate::graph::cross::cross_positions`]); tried when nothing else draws
    pub inside: bool,
    /// node labels may be cut after the `_` or `-` inside a name (`grade_pending_`
    /// `answers()`); tried when nothing else draws
    pub names: bool,
}

impl Params {
    /// Distance between neighbouring ports on a box side: `spread` counts only top-down.
    pub fn port_spacing(self, horizontal: bool) -> usize {
        if horizontal { 1 } else { self.spread.max(2) }
    }

    /// Knobs that size the boxes alike: lining them up or pulling them inside their frames
    /// only moves them (see [`Builder::sizes`]; `spread` left to right changes nothing).
    pub fn same_sizes(self, other: Params, horizontal: bool) -> bool {
        (self.sep, self.wrap, self.widen, self.names)
            == (other.sep, other.wrap, other.widen, other.names)
            && self.port_spacing(horizontal) == other.port_spacing(horizontal)
    }

    /// Knobs that plan alike give equal plans (`spread` left to right changes nothing).
    pub fn same_plan(self, other: Params, horizontal: bool) -> bool {
        (
            self.sep,
            self.wrap,
            self.widen,
            self.aligned,
            self.inside,
            self.names,
        ) == (
            other.sep,
            other.wrap,
            other.widen,
            other.aligned,
            other.inside,
            other.names,
        ) && self.port_spacing(horizontal) == other.port_spacing(horizontal)
    }
}

/// Slots of one gap between layer k and k+1, as absolute main coordinates.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Gap {
    pub end: usize,
    pub track0: usize,
    pub label0: usize,
    pub label_len: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub cluster: ClusterId,
    pub main0: usize,
    pub main1: usize,
    pub cross0: i64,
    pub cross1: i64,
    /// cross position of the title on the top border
    pub title_at: i64,
    /// the title's lines: the first on the top border, the others under it inside
    pub title: Vec<String>,
}

/// A note beside its node: text, size on the canvas, and the side it was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotePlan {
    pub node: Option<NodeId>,
    pub side: NoteSide,
    pub lines: Vec<String>,
    /// canvas (width, height) of the note box
    pub size: (usize, usize),
}

/// Everything a drawing is made from (equal plans draw equal pictures).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub dir: Direction,
    pub horizontal: bool,
    pub texts: IdVec<NodeId, NodeText>,
    /// box size of each node in canvas terms (width, height)
    pub boxes: IdVec<NodeId, (usize, usize)>,
    /// cross offset of each node's box inside its item (a note on the near side)
    pub box_off: IdVec<NodeId, i64>,
    pub cross: IdVec<ItemId, i64>,
    pub band_start: Vec<usize>,
    pub gaps: IdVec<GapId, Gap>,
    /// per segment: (upper port, lower port) cross coordinates
    pub ports: IdVec<SegId, (i64, i64)>,
    pub tracks: IdVec<SegId, Option<usize>>,
    /// per segment: where its edge label goes (only on one segment of each edge)
    pub label_at: IdVec<SegId, Option<LabelAt>>,
    pub edge_labels: IdVec<EdgeId, Vec<String>>,
    /// per edge: its label as written (lines joined by spaces), for a footnote
    pub edge_text: IdVec<EdgeId, String>,
    pub frames: IdVec<FrameId, Frame>,
    /// each cluster's frame
    pub frame_of: IdVec<ClusterId, Option<FrameId>>,
    pub notes: Vec<NotePlan>,
    pub main_total: usize,
    /// columns the drawing needs (an estimate the drawing confirms)
    pub width: usize,
}

impl Plan {
    /// The frame drawn for `cluster`.
    pub fn frame(&self, cluster: ClusterId) -> Option<&Frame> {
        self.frame_of[cluster].map(|f| &self.frames[f])
    }
}

/// Indents of a class member's wrapped lines under its first, the widest that fits the
/// box: `-signer:` then `  AppJwtSigner` reads as one member, not two.
const MEMBER_INDENTS: [usize; 2] = [2, 1];

/// A node's sections (class members) wrapped at `max` columns, each member's later lines
/// indented under its first where the box, as wide as it is without indents (`label_w`
/// its label's width), holds them.
fn wrap_sections(sections: &[Vec<String>], label_w: usize, max: usize) -> Vec<Vec<String>> {
    let plain: Vec<Vec<String>> = sections.iter().map(|s| wrap_all(s, max)).collect();
    let room = plain.iter().map(|s| max_width(s)).fold(label_w, usize::max);
    sections
        .iter()
        .zip(plain)
        .map(|(members, plain)| {
            if plain.len() == members.len() {
                return plain; // nothing wrapped
            }
            members
                .iter()
                .flat_map(|m| member_lines(m, max, room))
                .collect()
        })
        .collect()
}

/// One member wrapped at `max`, its later lines indented within `room` columns (not
/// indented when even one column does not fit).
fn member_lines(member: &str, max: usize, room: usize) -> Vec<String> {
    let lines = wrap(member, max);
    let Some(first) = lines.first().filter(|_| lines.len() > 1) else {
        return lines;
    };
    let Some(rest) = member.strip_prefix(first.as_str()).map(str::trim_start) else {
        return lines;
    };
    for indent in MEMBER_INDENTS {
        let later = wrap(rest, room.saturating_sub(indent).max(1));
        if max_width(&later) + indent <= room {
            let pad = " ".repeat(indent);
            let indented = later.into_iter().map(|l| format!("{pad}{l}"));
            return std::iter::once(first.clone()).chain(indented).collect();
        }
    }
    lines
}

/// Cross margin a subgraph frame takes on each side of its content.
pub fn frame_margin(horizontal: bool) -> usize {
    if horizontal { 1 } else { 2 }
}

/// The frame an edge's upper end (in layer order) leaves, if it names a subgraph.
pub fn upper_frame(g: &Graph, r: &Ranked, edge: EdgeId) -> Option<ClusterId> {
    let e = &g.edges[edge];
    if r.reversed[edge] {
        e.to_frame
    } else {
        e.from_frame
    }
}

/// The frame an edge's lower end (in layer order) reaches, if it names a subgraph.
pub fn lower_frame(g: &Graph, r: &Ranked, edge: EdgeId) -> Option<ClusterId> {
    let e = &g.edges[edge];
    if r.reversed[edge] {
        e.from_frame
    } else {
        e.to_frame
    }
}

pub fn upper_head(g: &Graph, r: &Ranked, edge: EdgeId) -> Head {
    let e = &g.edges[edge];
    if r.reversed[edge] { e.head } else { e.tail }
}

pub fn lower_head(g: &Graph, r: &Ranked, edge: EdgeId) -> Head {
    let e = &g.edges[edge];
    if r.reversed[edge] { e.tail } else { e.head }
}

/// Why there is no plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unplanned {
    /// the boxes alone need more columns than allowed (known before placing them)
    TooWide,
    /// something cannot be placed without overlap: what
    Failed(String),
}

/// A plan's boxes sized and its texts wrapped, not yet placed.
pub struct Sized<'a>(Builder<'a>);

/// Everything a plan is placed from beside the graph, its layers and its direction: stages
/// whose wraps give the same texts (no label as wide as the wraps between) place alike.
#[derive(Debug, PartialEq, Eq)]
pub struct PlanKey {
    /// (sep, widen, port spacing, no wrap, titles broken inside words)
    knobs: (usize, usize, usize, bool, bool),
    aligned: Option<crate::graph::align::Blocks>,
    inside: bool,
    texts: IdVec<NodeId, NodeText>,
    edge_labels: IdVec<EdgeId, Vec<String>>,
    titles: IdVec<ClusterId, Vec<String>>,
    notes: Vec<NotePlan>,
}

/// The node texts and edge labels of a stage, wrapped: they depend only on its wrap and
/// on whether names may be cut (see [`Wrapped::of`]).
#[derive(Clone)]
pub struct Wrapped {
    texts: IdVec<NodeId, NodeText>,
    edge_labels: IdVec<EdgeId, Vec<String>>,
}

impl Wrapped {
    /// The texts of `g` wrapped at `p.wrap` (names cut when `p.names`).
    pub fn of(g: &Graph, p: Params) -> Self {
        super::work::count(|w| w.wrapped += 1);
        let texts = g
            .nodes
            .iter()
            .map(|n| {
                let label = if p.names {
                    wrap_all_cut(&n.label, p.wrap, Cuts::Names)
                } else {
                    wrap_all(&n.label, p.wrap)
                };
                let sections =
                    wrap_sections(&n.sections, max_width(&label), p.wrap.saturating_add(4));
                NodeText {
                    shape: n.shape,
                    label,
                    sections,
                }
            })
            .collect();
        let edge_labels = g.edges.iter().map(|e| wrap_all(&e.label, p.wrap)).collect();
        Wrapped { texts, edge_labels }
    }

    /// Knobs that wrap alike.
    pub fn same_wrap(p: Params, q: Params) -> bool {
        (p.wrap, p.names) == (q.wrap, q.names)
    }
}

/// The boxes of stage `p` sized, its texts `wrapped` for it; `Err` when something cannot
/// be placed.
pub fn sized<'a>(
    g: &'a Graph,
    r: &'a Ranked,
    dir: Direction,
    p: Params,
    wrapped: Wrapped,
) -> Result<Sized<'a>, String> {
    super::work::count(|w| w.sized += 1);
    let mut b = Builder::new(g, r, dir, p, wrapped);
    b.sizes()?;
    Ok(Sized(b))
}

impl Sized<'_> {
    /// The columns any plan of these boxes takes at least (see [`Builder::least_width`]):
    /// more than allowed, the stage is given up before it is placed.
    pub fn least_width(&self) -> usize {
        self.0.least_width()
    }

    /// What the placement depends on (the phases after the sizes read only these, the
    /// graph, its layers and its direction).
    pub fn key(&self) -> PlanKey {
        let b = &self.0;
        let p = b.p;
        PlanKey {
            knobs: (
                p.sep,
                p.widen,
                b.spacing,
                p.wrap == usize::MAX,
                p.wrap <= TITLE_WORDS_BREAK,
            ),
            aligned: p.aligned,
            inside: p.inside,
            texts: b.texts.clone(),
            edge_labels: b.edge_labels.clone(),
            titles: b.titles.clone(),
            notes: b.notes.clone(),
        }
    }

    /// The whole geometry; `Err` when something cannot be placed without overlap, or,
    /// given up once the boxes are placed across, when they alone span more than
    /// `within` columns.
    pub fn place(self, within: usize) -> Result<Plan, Unplanned> {
        self.0.place_all(within)
    }
}

impl Builder<'_> {
    /// The columns any plan of these boxes takes at least, never more than
    /// [`Builder::width`] of the finished plan: left to right, every layer as long as its
    /// longest box and every gap as long as its label slot, and at least 3 (see
    /// `main_positions`: a gap takes its label slot and more, its bands grow only for frame
    /// titles); top-down, every layer as wide as its boxes side by side, their least
    /// distances apart (cross placement keeps neighbours that far apart, pushing frames out
    /// only widens).
    fn least_width(&self) -> usize {
        let free_notes = self.free_notes_width();
        let boxes = if self.horizontal {
            let bands: usize = (self.r.layers.iter())
                .map(|l| l.iter().map(|&i| self.msize[i]).max().unwrap_or(1))
                .sum();
            let gaps: usize = (self.gap_segs.ids())
                .map(|k| self.label_len_lr(k).max(3))
                .sum();
            bands + gaps
        } else {
            let row = |l: &[ItemId]| {
                let apart: i64 = l
                    .windows(2)
                    .map(|w| self.sep_between(w[0], w[1], self.p.widen))
                    .sum();
                l.iter().map(|&i| self.csize[i]).sum::<usize>()
                    + apart.max(0) as usize
                    + 2 * self.framed_on_each_side(l)
            };
            let rows = self.r.layers.iter().map(|l| row(l)).max().unwrap_or(0);
            rows.max(self.widest_frame_title())
        };
        boxes.max(free_notes)
    }

    /// TD: columns of frame border and margin at least on each side of a layer's boxes:
    /// every item sits inside the frames of its path, each frame a margin outside its
    /// members and the frames inside it (`frames`), so whichever box is outermost has as
    /// many margins beside it as the fewest frames any item of the layer is in.
    fn framed_on_each_side(&self, layer: &[ItemId]) -> usize {
        let fewest = layer.iter().map(|&i| self.paths[i].len()).min();
        fewest.unwrap_or(0) * frame_margin(false)
    }

    /// TD: the widest frame's least width: `frames` makes each as wide as its title
    /// asks (`min_w`, which only grows), its border cells included.
    fn widest_frame_title(&self) -> usize {
        (self.g.clusters.ids().filter(|&c| self.has_member(c)))
            .map(|c| self.min_w[c].max(0) as usize + 1)
            .max()
            .unwrap_or(0)
    }

    /// Some item of the layers lies inside cluster `c` (its frame is drawn).
    fn has_member(&self, c: ClusterId) -> bool {
        self.paths.iter().any(|path| path.contains(&c))
    }

    /// Left to right: the length of gap `k`'s label slot, as routing it gives (its widest
    /// label and a cell either side; known from the texts alone, before any placement).
    fn label_len_lr(&self, k: GapId) -> usize {
        let widest = (self.gap_segs[k].iter())
            .filter(|&&si| self.label_seg(si))
            .map(|&si| max_width(&self.edge_labels[self.r.segs[si].edge]))
            .max()
            .unwrap_or(0);
        if widest > 0 { widest + 2 } else { 2 }
    }

    /// The phases after the sizes: cross positions, ports, gaps, main positions, frames.
    fn place_all(mut self, within: usize) -> Result<Plan, Unplanned> {
        super::work::count(|w| w.placed += 1);
        // the lower bound a stage may be given up at holds for every plan placed
        #[cfg(debug_assertions)]
        let least = self.least_width();
        let p = self.p;
        self.frame_layers();
        // A label with no room beside its edge: spread the layers wider and route again, at
        // last make it a footnote. A frame title with no room between the edges that cross its
        // border: widen the frame.
        let mut spread = p.widen;
        for round in 0..6 {
            self.place_cross(spread).map_err(Unplanned::Failed)?;
            // the boxes already span more than allowed: no label or frame narrows the plan
            if self.boxes_span() > within {
                return Err(Unplanned::TooWide);
            }
            self.assign_ports();
            match self.route_gaps(spread >= 16) {
                Ok(()) => {}
                Err(Routing::Label) => {
                    spread += 8;
                    continue;
                }
                Err(Routing::Edges(e)) => return Err(Unplanned::Failed(e)),
            }
            self.main_positions();
            // frames widen for their labels in the first rounds, then take them as they are
            if self.frames(round < 3) {
                let plan = self.finish();
                #[cfg(debug_assertions)]
                assert!(least <= plan.width, "{least} > {}", plan.width);
                return Ok(plan);
            }
        }
        Err(Unplanned::Failed("no room for a subgraph title".into()))
    }

    /// TD: the columns from the first box's left edge to the last's right edge (left to
    /// right: 0, the layers' lengths are not placed yet); never more than
    /// [`Builder::width`].
    fn boxes_span(&self) -> usize {
        if self.horizontal {
            return 0;
        }
        let lo = self.cross.iter().copied().min();
        let hi = (self.cross.iter_enumerated())
            .map(|(i, &c)| c + self.csize[i] as i64)
            .max();
        match (lo, hi) {
            (Some(lo), Some(hi)) => (hi - lo).max(0) as usize,
            _ => 0,
        }
    }
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
    texts: IdVec<NodeId, NodeText>,
    edge_labels: IdVec<EdgeId, Vec<String>>,
    notes: Vec<NotePlan>,
    /// segments whose port is on each item's side facing the previous / next layer
    side_a: IdVec<ItemId, Vec<SegId>>,
    side_b: IdVec<ItemId, Vec<SegId>>,
    /// distance between neighbouring ports on a side
    spacing: usize,
    boxes: IdVec<NodeId, (usize, usize)>,
    box_off: IdVec<NodeId, i64>,
    csize: IdVec<ItemId, usize>,
    msize: IdVec<ItemId, usize>,
    paths: IdVec<ItemId, Vec<ClusterId>>,
    cross: IdVec<ItemId, i64>,
    ports: IdVec<SegId, (i64, i64)>,
    gap_segs: IdVec<GapId, Vec<SegId>>,
    tracks: IdVec<SegId, Option<usize>>,
    gap_tracks: IdVec<GapId, usize>,
    label_at: IdVec<SegId, Option<LabelAt>>,
    gap_label_len: IdVec<GapId, usize>,
    /// first and last layer of each cluster (`usize::MAX`, 0 when empty)
    c_lo: IdVec<ClusterId, usize>,
    c_hi: IdVec<ClusterId, usize>,
    /// depths of frames opening right before layer l (outer first) / closing after it
    /// (inner first)
    opens: Vec<Vec<usize>>,
    closes: Vec<Vec<usize>>,
    /// main row of the border of the frame at (layer, depth)
    open_row: Vec<Vec<(usize, usize)>>,
    close_row: Vec<Vec<(usize, usize)>>,
    band_start: Vec<usize>,
    band_size: Vec<usize>,
    gaps: IdVec<GapId, Gap>,
    frames: IdVec<FrameId, Frame>,
    frame_of: IdVec<ClusterId, Option<FrameId>>,
    /// each cluster's title, wrapped like the labels in TD (one line in LR)
    titles: IdVec<ClusterId, Vec<String>>,
    /// TD: least width of each cluster's frame (its title, clear of crossing edges)
    min_w: IdVec<ClusterId, i64>,
    /// TD: cells each cluster's frame reaches out left and right of its members, to hold
    /// the labels of the edges inside it
    label_room: IdVec<ClusterId, (i64, i64)>,
    main_total: usize,
}

impl<'a> Builder<'a> {
    fn new(g: &'a Graph, r: &'a Ranked, dir: Direction, p: Params, wrapped: Wrapped) -> Self {
        let horizontal = dir.horizontal();
        let Wrapped { texts, edge_labels } = wrapped;
        let n_items = r.items.len();
        let mut side_a: IdVec<ItemId, Vec<SegId>> = IdVec::filled(n_items, Vec::new());
        let mut side_b: IdVec<ItemId, Vec<SegId>> = IdVec::filled(n_items, Vec::new());
        for (si, s) in r.segs.iter_enumerated() {
            side_b[s.upper].push(si);
            side_a[s.lower].push(si);
        }
        let layers = r.layers.len();
        let gap_count = layers.saturating_sub(1);
        let mut gap_segs: IdVec<GapId, Vec<SegId>> = IdVec::filled(gap_count, Vec::new());
        for (si, s) in r.segs.iter_enumerated() {
            gap_segs[GapId::below(r.items[s.upper].layer)].push(si);
        }
        let titles: IdVec<ClusterId, Vec<String>> = g
            .clusters
            .iter()
            .map(|c| {
                // a title is a name: broken at its spaces, inside a word (`src/` `store/`)
                // only at the narrowest wrap
                let widest_word = c.title.split(' ').map(display_width).max().unwrap_or(0);
                if horizontal {
                    vec![c.title.clone()]
                } else if p.wrap <= TITLE_WORDS_BREAK {
                    wrap(&c.title, p.wrap)
                } else {
                    wrap(&c.title, p.wrap.max(widest_word))
                }
            })
            .collect();
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
            spacing: p.port_spacing(horizontal),
            boxes: IdVec::filled(g.nodes.len(), (1, 1)),
            box_off: IdVec::filled(g.nodes.len(), 0),
            csize: IdVec::filled(n_items, 1),
            msize: IdVec::filled(n_items, 1),
            paths,
            cross: IdVec::new(),
            ports: IdVec::filled(r.segs.len(), (0, 0)),
            gap_segs,
            tracks: IdVec::filled(r.segs.len(), None),
            gap_tracks: IdVec::filled(gap_count, 0),
            label_at: IdVec::filled(r.segs.len(), None),
            gap_label_len: IdVec::filled(gap_count, 0),
            c_lo: IdVec::filled(g.clusters.len(), usize::MAX),
            c_hi: IdVec::filled(g.clusters.len(), 0),
            opens: vec![Vec::new(); layers],
            closes: vec![Vec::new(); layers],
            open_row: vec![Vec::new(); layers],
            close_row: vec![Vec::new(); layers],
            band_start: vec![0; layers],
            band_size: Vec::new(),
            gaps: IdVec::filled(gap_count, Gap::default()),
            frames: IdVec::new(),
            frame_of: IdVec::filled(g.clusters.len(), None),
            min_w: titles.iter().map(|t| max_width(t) as i64 + 4).collect(),
            label_room: IdVec::filled(g.clusters.len(), (0, 0)),
            titles,
            main_total: 0,
        }
    }

    /// The widest note attached to no node (drawn on its own row, whatever the layout).
    fn free_notes_width(&self) -> usize {
        self.notes
            .iter()
            .filter(|n| n.node.is_none())
            .map(|n| n.size.0)
            .max()
            .unwrap_or(0)
    }

    /// Canvas columns the drawing needs.
    fn width(&self) -> usize {
        let free_notes = self.free_notes_width();
        if self.horizontal {
            return self.main_total.max(free_notes);
        }
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        for (i, &c) in self.cross.iter_enumerated() {
            lo = lo.min(c);
            hi = hi.max(c + self.csize[i] as i64 - 1);
        }
        for f in &self.frames {
            lo = lo.min(f.cross0);
            hi = hi.max(f.cross1);
        }
        for (si, at) in self.label_at.iter_enumerated() {
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
