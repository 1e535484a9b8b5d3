//! The drawing surface a graph is drawn on: the canvas, who holds each cell (so no line
//! overlaps another, a box or a label), and the plan's coordinates turned into canvas
//! cells. Shared by the layered drawing and the back edges routed round the outside.

use crate::canvas::Canvas;
use crate::glyphs::{DOWN, Dir4, Glyphs, LEFT, LineKind, RIGHT, UP};
use crate::graph::ids::{EdgeId, Id, IdVec, NodeId, SegId};
use crate::graph::layout::{Frame, Plan};
use crate::style::Style;
use crate::text::{display_width, max_width};

/// Why a drawing stopped: the caller tries another stage (and in the end the compact list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawError {
    /// a back edge taken out of the layers found no way round (the same layering with its
    /// ports spread wider finds none either)
    NoWayRound,
    /// something would overlap, or could not be placed: what
    Overlap(&'static str),
}

impl From<&'static str> for DrawError {
    fn from(what: &'static str) -> Self {
        DrawError::Overlap(what)
    }
}

pub(super) const BLOCK: u32 = u32::MAX;
/// Frame owners start here (one owner per subgraph, so frames never overlap each other).
pub(super) const FRAME: u32 = u32::MAX / 2;

/// The owner of edge `e`'s cells (0 is no one's).
pub(super) fn edge_owner(e: EdgeId) -> u32 {
    e.index() as u32 + 1
}

#[derive(Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Occ {
    pub(super) h: u32,
    pub(super) v: u32,
    pub(super) corner: bool,
}

/// Who holds each cell: a grid that grows on write (most drawings are small).
pub(super) struct Occupancy {
    pub(super) rows: Vec<Vec<Occ>>,
    /// capacity of each new row
    pub(super) row_capacity: usize,
}

impl Occupancy {
    pub(super) fn with_capacity(rows: usize, cols: usize) -> Self {
        Occupancy {
            rows: Vec::with_capacity(rows),
            row_capacity: cols,
        }
    }

    pub(super) fn get(&self, &(row, col): &(usize, usize)) -> Option<&Occ> {
        self.rows
            .get(row)
            .and_then(|r| r.get(col))
            .filter(|o| **o != Occ::default())
    }

    /// The `w` cells of `row` from `col` (grown as [`Self::entry`] grows one), to fill a
    /// box's or a label's row at once.
    pub(super) fn run(&mut self, row: usize, col: usize, w: usize) -> &mut [Occ] {
        if w == 0 {
            return &mut [];
        }
        let end = col + w;
        if self.rows.len() <= row {
            let cap = self.row_capacity;
            self.rows.resize_with(row + 1, || Vec::with_capacity(cap));
        }
        let r = &mut self.rows[row];
        if r.len() < end {
            r.resize(end, Occ::default());
        }
        &mut r[col..end]
    }

    pub(super) fn entry(&mut self, (row, col): (usize, usize)) -> &mut Occ {
        if self.rows.len() <= row {
            let cap = self.row_capacity;
            self.rows.resize_with(row + 1, || Vec::with_capacity(cap));
        }
        let r = &mut self.rows[row];
        if r.len() <= col {
            r.resize(col + 1, Occ::default());
        }
        &mut r[col]
    }
}

pub(super) struct Plane<'a> {
    pub(super) plan: &'a Plan,
    pub(super) canvas: Canvas,
    pub(super) glyphs: Glyphs,
    pub(super) occ: Occupancy,
    pub(super) off: i64,
    pub(super) reversed: bool,
    /// canvas (row, col) of each node's box
    pub(super) box_at: IdVec<NodeId, (usize, usize)>,
    /// canvas corner points of each segment's line
    pub(super) paths: IdVec<SegId, Vec<(usize, usize)>>,
    /// labels shown as footnotes under the drawing, in marker order
    pub(super) footnotes: Vec<String>,
    /// the columns the drawing may take
    pub(super) width: usize,
    /// every edge label placed so far, to check each reads as its own edge's
    pub(super) labels: Vec<PlacedLabel>,
}

/// A placed edge label: its edge's owner and the (row, col, width) of each of its lines.
pub(super) struct PlacedLabel {
    pub(super) owner: u32,
    pub(super) lines: Vec<(usize, usize, usize)>,
}

impl Plane<'_> {
    pub(super) fn main(&self, m: usize) -> usize {
        if self.reversed {
            self.plan.main_total - 1 - m
        } else {
            m
        }
    }

    pub(super) fn cross(&self, c: i64) -> usize {
        (c + self.off).max(0) as usize
    }

    /// Canvas (row, col) of a plane point.
    pub(super) fn at(&self, m: usize, c: i64) -> (usize, usize) {
        let (m, c) = (self.main(m), self.cross(c));
        if self.plan.horizontal { (c, m) } else { (m, c) }
    }

    /// Direction on the canvas of "towards higher main".
    pub(super) fn forward(&self) -> Dir4 {
        match (self.plan.horizontal, self.reversed) {
            (false, false) => Dir4::Down,
            (false, true) => Dir4::Up,
            (true, false) => Dir4::Right,
            (true, true) => Dir4::Left,
        }
    }

    pub(super) fn backward(&self) -> Dir4 {
        match self.forward() {
            Dir4::Down => Dir4::Up,
            Dir4::Up => Dir4::Down,
            Dir4::Right => Dir4::Left,
            Dir4::Left => Dir4::Right,
        }
    }

    pub(super) fn block(&mut self, row: usize, col: usize) {
        *self.occ.entry((row, col)) = Occ {
            h: BLOCK,
            v: BLOCK,
            corner: true,
        };
    }

    pub(super) fn block_rect(&mut self, row: usize, col: usize, w: usize, h: usize) {
        const BLOCKED: Occ = Occ {
            h: BLOCK,
            v: BLOCK,
            corner: true,
        };
        for rr in row..row + h {
            self.occ.run(rr, col, w).fill(BLOCKED);
        }
    }

    /// Claim a cell for `owner` running horizontally or vertically.
    pub(super) fn claim(
        &mut self,
        row: usize,
        col: usize,
        horizontal: bool,
        owner: u32,
        corner: bool,
    ) -> Result<(), DrawError> {
        claim_occ(self.occ.entry((row, col)), horizontal, owner, corner)
    }

    /// A straight canvas line between two points sharing a row or a column.
    pub(super) fn line(
        &mut self,
        a: (usize, usize),
        b: (usize, usize),
        kind: LineKind,
        owner: u32,
        corners: (bool, bool),
    ) -> Result<(), DrawError> {
        if a.0 == b.0 {
            let (c0, c1) = (a.1.min(b.1), a.1.max(b.1));
            // the row's cells at once (a drawing that fails here is dropped whole)
            for (c, o) in (c0..).zip(self.occ.run(a.0, c0, c1 - c0 + 1)) {
                let corner = (c == a.1 && corners.0) || (c == b.1 && corners.1);
                claim_occ(o, true, owner, corner)?;
            }
            if c0 != c1 {
                self.canvas.hline(a.0, c0, c1, kind, Style::Arrow);
            }
        } else {
            let (r0, r1) = (a.0.min(b.0), a.0.max(b.0));
            for r in r0..=r1 {
                let corner = (r == a.0 && corners.0) || (r == b.0 && corners.1);
                self.claim(r, a.1, false, owner, corner)?;
            }
            if r0 != r1 {
                self.canvas.vline(a.1, r0, r1, kind, Style::Arrow);
            }
        }
        Ok(())
    }

    /// A polyline through plane points.
    pub(super) fn polyline(
        &mut self,
        pts: &[(usize, i64)],
        kind: LineKind,
        owner: u32,
    ) -> Result<(), DrawError> {
        let pts: Vec<(usize, usize)> = pts.iter().map(|&(m, c)| self.at(m, c)).collect();
        if pts.len() == 1 || pts.windows(2).all(|w| w[0] == w[1]) {
            let p = pts[0];
            self.claim(p.0, p.1, !self.plan.horizontal, owner, false)?;
            let bits = if self.plan.horizontal {
                LEFT | RIGHT
            } else {
                UP | DOWN
            };
            self.canvas.join(p.0, p.1, bits, kind, Style::Arrow);
            return Ok(());
        }
        let n = pts.len();
        for (i, w) in pts.windows(2).enumerate() {
            if w[0] != w[1] {
                self.line(w[0], w[1], kind, owner, (i > 0, i + 2 < n))?;
            }
        }
        Ok(())
    }

    /// Can text of `w` columns go at (row, col): free cells, or cells of `own` edge only,
    /// and two cells off any other label on the row (`resubmit auto approve` would read as
    /// one label)?
    pub(super) fn label_fits(&self, row: usize, col: usize, w: usize, own: u32) -> bool {
        let label_at = |c: usize| self.canvas.style_at(row, c) == Some(Style::Label);
        let near = [
            col.checked_sub(2),
            col.checked_sub(1),
            Some(col + w),
            Some(col + w + 1),
        ];
        if near.into_iter().flatten().any(label_at) {
            return false;
        }
        (col..col + w).all(|c| match self.occ.get(&(row, c)) {
            Some(o) => {
                let foreign = |x: u32| x != 0 && x != own;
                !foreign(o.h) && !foreign(o.v)
            }
            None => self.canvas.is_empty(row, c),
        })
    }

    /// Text that lands on free cells (or on the cells of `own` edge). The lines of one
    /// multi-line label are put top to bottom, each row after the last.
    pub(super) fn put_label(&mut self, row: usize, col: usize, text: &str, own: u32) {
        let w = display_width(text);
        for c in col..col + w {
            self.block(row, c);
        }
        self.canvas.text(row, col, text, Style::Label);
        let line = (row, col, w);
        match self.labels.last_mut() {
            Some(l) if l.owner == own && l.lines.last().is_some_and(|&(r, ..)| r + 1 == row) => {
                l.lines.push(line);
            }
            _ => self.labels.push(PlacedLabel {
                owner: own,
                lines: vec![line],
            }),
        }
    }

    /// Would a label of `own` edge on `lines` (row, col, width) read as its edge's: is
    /// no other edge's line strictly nearer to it (Chebyshev distance, box borders and
    /// frames aside) than the nearest cell of its own, and none right beside it on its
    /// row ([`Plane::foreign_beside`])? A user reads a label as the nearest line's.
    pub(super) fn nearest_is_own(&self, own: u32, lines: &[(usize, usize, usize)]) -> bool {
        let distance = |row: usize, col: usize| {
            lines
                .iter()
                .map(|&(r, c, w)| {
                    let dc = if col < c {
                        c - col
                    } else {
                        col.saturating_sub(c + w.max(1) - 1)
                    };
                    row.abs_diff(r).max(dc)
                })
                .min()
                .unwrap_or(usize::MAX)
        };
        // Rings of growing distance round the label's box: a cell `d` off the box is at
        // least `d` from the label, so once `d` passes the nearest line found, no farther
        // cell can change which edge is nearer.
        let Some(r0) = lines.iter().map(|l| l.0).min() else {
            return true;
        };
        let r1 = lines.iter().map(|l| l.0).max().unwrap_or(r0);
        let c0 = lines.iter().map(|l| l.1).min().unwrap_or(0);
        let c1 = lines
            .iter()
            .map(|l| l.1 + l.2.max(1) - 1)
            .max()
            .unwrap_or(c0);
        let rows = self.occ.rows.len();
        let cols = self.occ.rows.iter().map(Vec::len).max().unwrap_or(0);
        let (mut mine, mut others) = (usize::MAX, usize::MAX);
        for d in 0..=rows.max(cols) {
            if d > mine.min(others) {
                break;
            }
            let (top, bottom) = (r0.saturating_sub(d), (r1 + d).min(rows.saturating_sub(1)));
            let (left, right) = (c0.saturating_sub(d), c1 + d);
            for row in top..=bottom {
                let Some(cells) = self.occ.rows.get(row) else {
                    continue;
                };
                let off_row = r0.saturating_sub(row).max(row.saturating_sub(r1));
                let last = right.min(cells.len().saturating_sub(1));
                // Rows inside the ring hold it at their two ends only (a step from one to
                // the other; no boxed iterator per row and ring)
                let step = if off_row == d {
                    1
                } else if right > left {
                    right - left
                } else {
                    usize::MAX
                };
                for col in (left..=last).step_by(step) {
                    let off = off_row.max(c0.saturating_sub(col).max(col.saturating_sub(c1)));
                    if off != d {
                        continue;
                    }
                    let o = &cells[col];
                    let edges = [o.h, o.v].into_iter().filter(|&x| x != 0 && x < FRAME);
                    let (own_here, other_here) =
                        edges.fold((false, false), |(a, b), x| (a || x == own, b || x != own));
                    if !own_here && !other_here {
                        continue;
                    }
                    let dist = distance(row, col);
                    if own_here {
                        mine = mine.min(dist);
                    }
                    if other_here {
                        others = others.min(dist);
                    }
                }
            }
        }
        mine <= others && !self.foreign_beside(own, lines)
    }

    /// Does another edge's line run right beside one of a label's lines, on its row (at
    /// most one cell off either end), with none of its own edge's as near on that row?
    /// `│ merge()` reads as the vertical line's label even with its own edge under it.
    fn foreign_beside(&self, own: u32, lines: &[(usize, usize, usize)]) -> bool {
        let edges_at = |row: usize, col: usize| {
            self.occ.get(&(row, col)).map_or((false, false), |o| {
                let edges = [o.h, o.v].into_iter().filter(|&x| x != 0 && x < FRAME);
                edges.fold((false, false), |(m, f), x| (m || x == own, f || x != own))
            })
        };
        lines.iter().any(|&(row, col, w)| {
            let near = |d: usize| {
                let left = col
                    .checked_sub(d)
                    .map_or((false, false), |c| edges_at(row, c));
                let right = edges_at(row, col + w.max(1) - 1 + d);
                (left.0 || right.0, left.1 || right.1)
            };
            (1..=2)
                .map(near)
                .find(|&(mine, foreign)| mine || foreign)
                .is_some_and(|(mine, _)| !mine)
        })
    }

    /// The first placed label that another edge's line sits nearer to than its own (see
    /// [`Plane::nearest_is_own`]), as (owner, row, col) of its first line.
    pub(super) fn misread_label(&self) -> Option<(u32, usize, usize)> {
        self.labels
            .iter()
            .find(|l| !self.nearest_is_own(l.owner, &l.lines))
            .and_then(|l| l.lines.first().map(|&(r, c, _)| (l.owner, r, c)))
    }

    /// A multi-line label at the first of `spots` (top-left corners) where every line fits;
    /// lines are centred on the widest one.
    pub(super) fn label_at_first(
        &mut self,
        spots: &[(usize, usize)],
        lines: &[String],
        own: u32,
    ) -> Result<(), DrawError> {
        let w = max_width(lines);
        let spot = spots.iter().copied().find(|&(row, col)| {
            lines.iter().enumerate().all(|(k, line)| {
                let lw = display_width(line);
                self.label_fits(row + k, col + (w - lw) / 2, lw, own)
            }) && self.nearest_is_own(own, &label_lines(row, col, lines))
        });
        let (row, col) = spot.ok_or("an edge label overlaps")?;
        for (k, line) in lines.iter().enumerate() {
            let lw = display_width(line);
            self.put_label(row + k, col + (w - lw) / 2, line, own);
        }
        Ok(())
    }

    /// Canvas rectangle (top, left, bottom, right) of a frame.
    pub(super) fn frame_rect(&self, f: &Frame) -> (usize, usize, usize, usize) {
        let a = self.at(f.main0, f.cross0);
        let b = self.at(f.main1, f.cross1);
        (a.0.min(b.0), a.1.min(b.1), a.0.max(b.0), a.1.max(b.1))
    }
}

/// The (row, col, width) of each line of a label at (row, col), centred on its widest.
pub(super) fn label_lines(row: usize, col: usize, lines: &[String]) -> Vec<(usize, usize, usize)> {
    let w = max_width(lines);
    lines
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let lw = display_width(line);
            (row + k, col + (w - lw) / 2, lw)
        })
        .collect()
}

pub(super) fn bit(d: Dir4) -> u8 {
    match d {
        Dir4::Up => UP,
        Dir4::Down => DOWN,
        Dir4::Left => LEFT,
        Dir4::Right => RIGHT,
    }
}

/// The k-th footnote marker: 1-9, then a-z.
pub(super) fn marker_glyph(k: usize) -> char {
    const MARKS: &[u8] = b"123456789abcdefghijklmnopqrstuvwxyz";
    MARKS.get(k).map_or('*', |&c| char::from(c))
}

/// A label with no room beside its edge: a marker on the edge's own line (on a straight
/// cell no other line touches), and the label as a footnote under the drawing.
pub(super) fn footnote(
    p: &mut Plane,
    path: &[(usize, usize)],
    owner: u32,
    text: String,
) -> Result<(), DrawError> {
    let mut cells = Vec::new();
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a.0 == b.0 {
            let (c0, c1) = (a.1.min(b.1), a.1.max(b.1));
            cells.extend((c0 + 1..c1).map(|c| (a.0, c)));
        } else {
            let (r0, r1) = (a.0.min(b.0), a.0.max(b.0));
            cells.extend((r0 + 1..r1).map(|r| (r, a.1)));
        }
    }
    // keep clear of the ends (heads, joins to boxes); the middle reads best
    let n = cells.len();
    let mid = n / 2;
    let free = |p: &Plane, cell: &(usize, usize)| {
        p.occ.get(cell).is_some_and(|o| {
            let mine = |x: u32| x == owner;
            (mine(o.h) && o.v == 0 || mine(o.v) && o.h == 0) && !o.corner
        })
    };
    let cell = (0..n)
        .filter(|&i| i > 0 && i + 1 < n || n <= 2)
        .filter(|&i| free(p, &cells[i]))
        .min_by_key(|&i| i.abs_diff(mid))
        .map(|i| cells[i])
        .ok_or("an edge label has no room")?;
    let mark = marker_glyph(p.footnotes.len());
    p.canvas.put(cell.0, cell.1, mark, Style::Label);
    p.block(cell.0, cell.1);
    p.footnotes.push(text);
    Ok(())
}

/// Claim one cell's occupancy for `owner` running horizontally or vertically (see
/// [`Plane::claim`]).
fn claim_occ(o: &mut Occ, horizontal: bool, owner: u32, corner: bool) -> Result<(), DrawError> {
    let (mine, other) = if horizontal { (o.h, o.v) } else { (o.v, o.h) };
    if mine == BLOCK || other == BLOCK {
        return Err("an edge runs through a box or label".into());
    }
    if mine != 0 && mine != owner {
        return Err("two edges overlap".into());
    }
    if other != 0 && other != owner && (corner || o.corner || (owner >= FRAME && other >= FRAME)) {
        return Err("an edge crosses another at a corner".into());
    }
    if horizontal {
        o.h = owner;
    } else {
        o.v = owner;
    }
    o.corner |= corner;
    Ok(())
}
