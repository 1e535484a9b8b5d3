//! Draw a planned graph on the canvas, checking as it goes that no edge overlaps another
//! edge, a box, a frame or a label. Any overlap is an error: the caller then tries another
//! stage, ending with the compact list. An ambiguous picture is never returned.

use std::collections::HashMap;

use crate::mermaid::canvas::Canvas;
use crate::mermaid::glyphs::{DOWN, Dir4, Glyphs, Head, LEFT, LineKind, RIGHT, UP};
use crate::mermaid::graph::layout::Plan;
use crate::mermaid::graph::model::Graph;
use crate::mermaid::graph::rank::Ranked;
use crate::mermaid::graph::shapes;
use crate::mermaid::style::{Line, Style};
use crate::mermaid::text::{display_width, max_width};

const BLOCK: u32 = u32::MAX;
/// Frame owners start here (one owner per subgraph, so frames never overlap each other).
const FRAME: u32 = u32::MAX / 2;

#[derive(Default, Clone, Copy)]
struct Occ {
    h: u32,
    v: u32,
    corner: bool,
}

struct Plane<'a> {
    plan: &'a Plan,
    canvas: Canvas,
    g: Glyphs,
    occ: HashMap<(usize, usize), Occ>,
    off: i64,
    reversed: bool,
    main_total: usize,
}

impl Plane<'_> {
    fn main(&self, m: usize) -> usize {
        if self.reversed {
            self.main_total - 1 - m
        } else {
            m
        }
    }

    fn cross(&self, c: i64) -> usize {
        (c + self.off).max(0) as usize
    }

    /// Canvas (row, col) of a plane point.
    fn at(&self, m: usize, c: i64) -> (usize, usize) {
        let (m, c) = (self.main(m), self.cross(c));
        if self.plan.horizontal { (c, m) } else { (m, c) }
    }

    /// Direction on the canvas of "towards higher main".
    fn forward(&self) -> Dir4 {
        match (self.plan.horizontal, self.reversed) {
            (false, false) => Dir4::Down,
            (false, true) => Dir4::Up,
            (true, false) => Dir4::Right,
            (true, true) => Dir4::Left,
        }
    }

    fn backward(&self) -> Dir4 {
        match self.forward() {
            Dir4::Down => Dir4::Up,
            Dir4::Up => Dir4::Down,
            Dir4::Right => Dir4::Left,
            Dir4::Left => Dir4::Right,
        }
    }

    fn block(&mut self, row: usize, col: usize) {
        self.occ.insert(
            (row, col),
            Occ {
                h: BLOCK,
                v: BLOCK,
                corner: true,
            },
        );
    }

    /// Claim a cell for `owner` running horizontally or vertically.
    fn claim(
        &mut self,
        row: usize,
        col: usize,
        horizontal: bool,
        owner: u32,
        corner: bool,
    ) -> Result<(), String> {
        let o = self.occ.entry((row, col)).or_default();
        let (mine, other) = if horizontal { (o.h, o.v) } else { (o.v, o.h) };
        if mine == BLOCK || other == BLOCK {
            return Err("an edge runs through a box or label".into());
        }
        if mine != 0 && mine != owner {
            return Err("two edges overlap".into());
        }
        if other != 0
            && other != owner
            && (corner || o.corner || (owner >= FRAME && other >= FRAME))
        {
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

    /// A straight canvas line between two points sharing a row or a column.
    fn line(
        &mut self,
        a: (usize, usize),
        b: (usize, usize),
        kind: LineKind,
        owner: u32,
        style: Style,
        corners: (bool, bool),
    ) -> Result<(), String> {
        if a.0 == b.0 {
            let (c0, c1) = (a.1.min(b.1), a.1.max(b.1));
            for c in c0..=c1 {
                let corner = (c == a.1 && corners.0) || (c == b.1 && corners.1);
                self.claim(a.0, c, true, owner, corner)?;
            }
            if c0 == c1 {
                return Ok(());
            }
            self.canvas.hline(a.0, c0, c1, kind, style);
        } else {
            let (r0, r1) = (a.0.min(b.0), a.0.max(b.0));
            for r in r0..=r1 {
                let corner = (r == a.0 && corners.0) || (r == b.0 && corners.1);
                self.claim(r, a.1, false, owner, corner)?;
            }
            if r0 == r1 {
                return Ok(());
            }
            self.canvas.vline(a.1, r0, r1, kind, style);
        }
        Ok(())
    }

    /// A polyline through plane points.
    fn polyline(&mut self, pts: &[(usize, i64)], kind: LineKind, owner: u32) -> Result<(), String> {
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
            if w[0] == w[1] {
                continue;
            }
            self.line(w[0], w[1], kind, owner, Style::Arrow, (i > 0, i + 2 < n))?;
        }
        Ok(())
    }

    /// Text that must land on free cells (or on the cells of `own` edge).
    fn label(&mut self, row: usize, col: usize, text: &str, own: u32) -> Result<(), String> {
        let w = display_width(text);
        for c in col..col + w {
            if let Some(o) = self.occ.get(&(row, c)) {
                let foreign = |x: u32| x != 0 && x != own;
                if foreign(o.h) || foreign(o.v) {
                    return Err("an edge label overlaps".into());
                }
            } else if !self.canvas.is_empty(row, c) {
                return Err("an edge label overlaps".into());
            }
        }
        for c in col..col + w {
            self.block(row, c);
        }
        self.canvas.text(row, col, text, Style::Label);
        Ok(())
    }
}

fn bit(d: Dir4) -> u8 {
    match d {
        Dir4::Up => UP,
        Dir4::Down => DOWN,
        Dir4::Left => LEFT,
        Dir4::Right => RIGHT,
    }
}

/// Draw the plan; `Err` on any overlap.
pub fn draw(g: &Graph, r: &Ranked, plan: &Plan, ascii: bool) -> Result<Vec<Line>, String> {
    let glyphs = Glyphs::new(ascii);
    // Leftmost cross coordinate of anything drawn (labels may hang left of their edge).
    let mut min_cross = plan.cross.iter().copied().min().unwrap_or(0);
    for f in &plan.frames {
        min_cross = min_cross.min(f.cross0);
    }
    for l in plan.label_at.iter().flatten() {
        if !plan.horizontal {
            min_cross = min_cross.min(l.1);
        }
    }
    let mut p = Plane {
        plan,
        canvas: Canvas::new(glyphs),
        g: glyphs,
        occ: HashMap::new(),
        off: -min_cross,
        reversed: g.direction.reversed(),
        main_total: plan.main_total,
    };
    fill(&mut p, g, r, plan, glyphs)?;
    Ok(p.canvas.into_lines())
}

fn fill(p: &mut Plane, g: &Graph, r: &Ranked, plan: &Plan, glyphs: Glyphs) -> Result<(), String> {
    // Boxes.
    let mut box_at = vec![(0usize, 0usize); g.nodes.len()];
    for (i, it) in r.items.iter().enumerate() {
        let Some(n) = it.node else { continue };
        let (w, h) = plan.boxes[n];
        let (bm, bc) = (plan.band_start[it.layer], plan.cross[i]);
        let msz = if plan.horizontal { w } else { h };
        let a = p.at(bm, bc);
        let b = p.at(bm + msz - 1, bc);
        let (row, col) = (a.0.min(b.0), a.1.min(b.1));
        box_at[n] = (row, col);
        shapes::draw(
            &mut p.canvas,
            glyphs,
            &plan.texts[n],
            row,
            col,
            w,
            h,
            plan.horizontal,
        );
        for rr in row..row + h {
            for cc in col..col + w {
                p.block(rr, cc);
            }
        }
    }
    // Frames.
    for f in &plan.frames {
        let a = p.at(f.main0, f.cross0);
        let b = p.at(f.main1, f.cross1);
        let (r0, r1, c0, c1) = (a.0.min(b.0), a.0.max(b.0), a.1.min(b.1), a.1.max(b.1));
        for c in c0..=c1 {
            for rr in [r0, r1] {
                p.claim(rr, c, true, FRAME + f.cluster as u32, c == c0 || c == c1)
                    .map_err(|_| "a subgraph frame overlaps".to_string())?;
            }
        }
        for rr in r0 + 1..r1 {
            for c in [c0, c1] {
                p.claim(rr, c, false, FRAME + f.cluster as u32, false)
                    .map_err(|_| "a subgraph frame overlaps".to_string())?;
            }
        }
        p.canvas.rect(r0, c0, r1, c1, LineKind::Solid, Style::Block);
    }
    // Edges, segment by segment.
    let fwd = p.forward();
    let back = p.backward();
    for (si, s) in r.segs.iter().enumerate() {
        let e = &g.edges[s.edge];
        if e.invisible {
            continue;
        }
        let owner = s.edge as u32 + 1;
        let (a, b) = plan.ports[si];
        let up_item = &r.items[s.upper];
        let low_item = &r.items[s.lower];
        let gap = &plan.gaps[up_item.layer];
        let mstart = match up_item.node {
            Some(n) => {
                let (w, h) = plan.boxes[n];
                plan.band_start[up_item.layer] + if plan.horizontal { w } else { h }
            }
            None => plan.band_start[up_item.layer],
        };
        let mend = gap.end - 1;
        let mut pts = vec![(mstart, a)];
        if let Some(t) = plan.tracks[si] {
            let mt = gap.track0 + t;
            pts.push((mt, a));
            pts.push((mt, b));
        }
        pts.push((mend, b));
        p.polyline(&pts, e.line, owner)?;
        // Connect the first/last cell toward the box or the dummy line it continues.
        let (r0, c0) = p.at(mstart, a);
        p.canvas.join(r0, c0, bit(back), e.line, Style::Arrow);
        let (r1, c1) = p.at(mend, b);
        p.canvas.join(r1, c1, bit(fwd), e.line, Style::Arrow);
        let (uh, lh) = if r.reversed[s.edge] {
            (e.head, e.tail)
        } else {
            (e.tail, e.head)
        };
        if s.first {
            if uh == Head::None {
                if up_item.node.is_some() {
                    let (row, col) = p.at(mstart - 1, a);
                    if p.canvas.is_line(row, col) {
                        p.canvas.join(row, col, bit(fwd), e.line, Style::Border);
                    }
                }
            } else {
                let (row, col) = p.at(mstart, a);
                p.canvas.put(row, col, glyphs.head(uh, back), Style::Arrow);
            }
        }
        if s.last {
            if lh == Head::None {
                if low_item.node.is_some() {
                    let (row, col) = p.at(mend + 1, b);
                    if p.canvas.is_line(row, col) {
                        p.canvas.join(row, col, bit(back), e.line, Style::Border);
                    }
                }
            } else {
                let (row, col) = p.at(mend, b);
                p.canvas.put(row, col, glyphs.head(lh, fwd), Style::Arrow);
            }
        }
        // Label.
        if let Some((row_off, c0)) = plan.label_at[si] {
            let lines = &plan.edge_labels[s.edge];
            if plan.horizontal {
                let a0 = p.at(gap.label0, b);
                let a1 = p.at(gap.label0 + gap.label_len - 1, b);
                let col = a0.1.min(a1.1) + 1;
                let n = lines.len();
                for (k, line) in lines.iter().enumerate() {
                    let row = (a0.0 + k + 1).checked_sub(n).ok_or("label above the top")?;
                    p.label(row, col, line, owner)?;
                }
            } else if row_off == crate::mermaid::graph::layout::ON_TRACK {
                let t = plan.tracks[si].ok_or("label on a missing track")?;
                let (row, col) = p.at(gap.track0 + t, c0);
                p.label(row, col, &lines.join(" "), owner)?;
            } else {
                let w = max_width(lines);
                for (k, line) in lines.iter().enumerate() {
                    let (row, col) = p.at(gap.label0 + row_off + k, c0);
                    let lw = display_width(line);
                    p.label(row, col + (w - lw) / 2, line, owner)?;
                }
            }
        }
    }
    // Frame titles last: on the first stretch of the top border that no edge crosses.
    for f in &plan.frames {
        let title = &g.clusters[f.cluster].title;
        if title.is_empty() {
            continue;
        }
        let a = p.at(f.main0, f.cross0);
        let b = p.at(f.main1, f.cross1);
        let (c0, c1) = (a.1.min(b.1), a.1.max(b.1));
        let text = format!(" {title} ");
        let w = display_width(&text);
        let free = |p: &Plane, r0: usize, start: usize| {
            (start..start + w).all(|c| {
                p.occ
                    .get(&(r0, c))
                    .is_some_and(|o| o.v == 0 && o.h >= FRAME)
            })
        };
        // top border first, else the bottom one
        let (r0, start) = [a.0.min(b.0), a.0.max(b.0)]
            .into_iter()
            .find_map(|r0| {
                (c0 + 2..(c1 + 1).saturating_sub(w))
                    .find(|&s| free(p, r0, s))
                    .map(|s| (r0, s))
            })
            .ok_or("no room for a subgraph title")?;
        for c in start..start + w {
            p.block(r0, c);
        }
        p.canvas.text(r0, start, &text, Style::Block);
    }
    // Self loops.
    for &ei in &r.loops {
        let e = &g.edges[ei];
        let n = e.from;
        let (row, col) = box_at[n];
        let (w, h) = plan.boxes[n];
        let owner = ei as u32 + 1;
        let label = plan.edge_labels[ei].join(" ");
        if plan.horizontal {
            let r1 = row + h - 1;
            let (x0, x1) = (col + 1.min(w - 1), col + 3.min(w - 1));
            p.canvas.join(r1, x1, DOWN, e.line, Style::Border);
            p.line(
                (r1 + 1, x1),
                (r1 + 2, x1),
                e.line,
                owner,
                Style::Arrow,
                (false, true),
            )?;
            p.line(
                (r1 + 2, x1),
                (r1 + 2, x0),
                e.line,
                owner,
                Style::Arrow,
                (true, true),
            )?;
            p.line(
                (r1 + 2, x0),
                (r1 + 1, x0),
                e.line,
                owner,
                Style::Arrow,
                (true, false),
            )?;
            if e.head == Head::None {
                p.canvas.join(r1, x0, DOWN, e.line, Style::Border);
            } else {
                p.canvas
                    .put(r1 + 1, x0, glyphs.head(e.head, Dir4::Up), Style::Arrow);
            }
            if !label.is_empty() {
                p.label(r1 + 2, x1 + 2, &label, owner)?;
            }
        } else {
            let c1 = col + w - 1;
            p.canvas.join(row + 1, c1, RIGHT, e.line, Style::Border);
            p.line(
                (row + 1, c1 + 1),
                (row + 1, c1 + 2),
                e.line,
                owner,
                Style::Arrow,
                (false, true),
            )?;
            p.line(
                (row + 1, c1 + 2),
                (row + 2, c1 + 2),
                e.line,
                owner,
                Style::Arrow,
                (true, true),
            )?;
            p.line(
                (row + 2, c1 + 2),
                (row + 2, c1 + 1),
                e.line,
                owner,
                Style::Arrow,
                (true, false),
            )?;
            if e.head == Head::None {
                p.canvas.join(row + 2, c1, RIGHT, e.line, Style::Border);
            } else {
                p.canvas.put(
                    row + 2,
                    c1 + 1,
                    glyphs.head(e.head, Dir4::Left),
                    Style::Arrow,
                );
            }
            if !label.is_empty() {
                p.label(row + 1, c1 + 4, &label, owner)?;
            }
        }
    }
    let _ = p.g;
    Ok(())
}
