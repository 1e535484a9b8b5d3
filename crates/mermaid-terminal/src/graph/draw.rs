//! Draw a planned graph on the canvas, checking as it goes that no edge overlaps another
//! edge, a box, a frame or a label. An overlapping edge is an error: the caller then tries
//! another stage, ending with the compact list. An ambiguous picture is never returned.
//!
//! [`draw`] runs in phases: boxes and notes, frames, edges segment by segment (with their
//! heads), edge labels, frame titles, self-loops, free notes.

use crate::canvas::Canvas;
use crate::glyphs::{DOWN, Dir4, Glyphs, Head, LEFT, LineKind, RIGHT, UP};
use crate::graph::detour;
use crate::graph::ids::{EdgeId, GapId, Id, IdVec, ItemId, SegId};
use crate::graph::layout::{NotePlan, Plan, lower_frame, lower_head, upper_frame, upper_head};
use crate::graph::model::{Graph, NoteSide, Shape};
use crate::graph::plane::{
    DrawError, FRAME, Occ, Occupancy, Plane, bit, edge_owner, footnote, label_lines, marker_glyph,
};
use crate::graph::rank::{Ranked, Seg};
use crate::graph::route::LabelAt;
use crate::graph::shapes;
use crate::style::{Line, Style};
use crate::text::{display_width, max_width, wrap};

/// A finished drawing, turned into lines only when chosen.
pub struct Drawing {
    canvas: Canvas,
    footnotes: Vec<String>,
    /// cells where two edges cross
    pub crossings: usize,
}

impl Drawing {
    /// Labels shown under the drawing instead of beside their edges.
    pub fn footnotes(&self) -> usize {
        self.footnotes.len()
    }

    pub fn lines(&self, plan: &Plan, ascii: bool) -> Vec<Line> {
        let mut lines = self.canvas.lines();
        for (k, text) in self.footnotes.iter().enumerate() {
            let mut line = Line::styled(format!("{} ", marker_glyph(k)), Style::Arrow);
            line.push(text.clone(), Style::Label);
            lines.push(line);
        }
        free_notes(&mut lines, plan, Glyphs::new(ascii));
        lines
    }
}

/// Draw the plan; `Err` on any overlap.
/// `width`: the columns the drawing may take (lines routed round the outside keep within).
pub fn draw(
    g: &Graph,
    r: &Ranked,
    plan: &Plan,
    ascii: bool,
    width: usize,
) -> Result<Drawing, DrawError> {
    let glyphs = Glyphs::new(ascii);
    // Leftmost cross coordinate of anything drawn (labels may hang left of their edge).
    let mut min_cross = plan.cross.iter().copied().min().unwrap_or(0);
    for f in &plan.frames {
        min_cross = min_cross.min(f.cross0);
    }
    if !plan.horizontal {
        for l in plan.label_at.iter().flatten() {
            if let LabelAt::Rows { cross, .. } | LabelAt::OnTrack { cross } = l {
                min_cross = min_cross.min(*cross);
            }
        }
    }
    // LR: columns along the flow; rows are a guess
    let (rows, cols) = if plan.horizontal {
        (16, plan.width)
    } else {
        (plan.main_total, plan.width)
    };
    let mut p = Plane {
        plan,
        canvas: Canvas::with_capacity(glyphs, rows, cols + 1),
        glyphs,
        occ: Occupancy::with_capacity(rows, cols + 1),
        off: -min_cross + detour::margin(r, plan) as i64,
        reversed: plan.dir.reversed(),
        box_at: IdVec::filled(g.nodes.len(), (0, 0)),
        paths: IdVec::filled(r.segs.len(), Vec::new()),
        footnotes: Vec::new(),
        width,
        labels: Vec::new(),
    };
    boxes(&mut p, g, r);
    for note in plan.notes.iter().filter(|n| n.node.is_some()) {
        node_note(&mut p, note);
    }
    frames(&mut p, g)?;
    for si in r.segs.ids() {
        segment(&mut p, g, r, si)?;
    }
    for si in r.segs.ids() {
        edge_label(&mut p, r, si)?;
    }
    // each spot a label took passed this check when given (see `Plane::nearest_is_own`)
    debug_assert_eq!(
        p.misread_label(),
        None,
        "an edge label (owner, row, col) sits nearer another edge than its own"
    );
    frame_titles(&mut p)?;
    for &ei in &r.loops {
        self_loop(&mut p, g, ei)?;
    }
    detour::route_all(&mut p, g, r)?;
    // lines drawn after the labels (self-loops, detours) must not come nearer to one
    // than its own edge either: then another stage is tried
    if p.misread_label().is_some() {
        return Err("an edge label sits nearer another edge than its own".into());
    }
    if !r.lanes.is_empty() {
        p.canvas.trim_leading();
    }
    let crossing = |o: &&Occ| o.h != 0 && o.v != 0 && o.h < FRAME && o.v < FRAME && o.h != o.v;
    let crossings = (p.occ.rows.iter())
        .map(|row| row.iter().filter(crossing).count())
        .sum();
    Ok(Drawing {
        canvas: p.canvas,
        footnotes: p.footnotes,
        crossings,
    })
}

/// Phase 1: node boxes.
fn boxes(p: &mut Plane, g: &Graph, r: &Ranked) {
    let plan = p.plan;
    for (i, it) in r.items.iter_enumerated() {
        let Some(n) = it.node else { continue };
        let (w, h) = plan.boxes[n];
        let (bm, bc) = (plan.band_start[it.layer], plan.cross[i] + plan.box_off[n]);
        let msz = if plan.horizontal { w } else { h };
        let a = p.at(bm, bc);
        let b = p.at(bm + msz - 1, bc);
        let (row, col) = (a.0.min(b.0), a.1.min(b.1));
        p.box_at[n] = (row, col);
        let glyphs = p.glyphs;
        shapes::draw(
            &mut p.canvas,
            glyphs,
            &plan.texts[n],
            (row, col),
            (w, h),
            plan.horizontal,
        );
        p.block_rect(row, col, w, h);
        bare_point(p, g, r, i, (row, col));
    }
}

/// A `[*]` or a choice widened only for edges that its subgraph's frame sends out (drawn
/// from the frame's border, not from the point) or for invisible edges keeps no bar there:
/// it would join nothing. Its bar spans the ports that meet it, if any.
fn bare_point(p: &mut Plane, g: &Graph, r: &Ranked, item: ItemId, (row, col): (usize, usize)) {
    let Some(n) = r.items[item].node else { return };
    let shape = p.plan.texts[n].shape;
    let (w, h) = p.plan.boxes[n];
    let horizontal = p.plan.horizontal;
    let len = if horizontal { h } else { w };
    if !shape.is_point() || shape == Shape::Bar || len <= 1 {
        return;
    }
    let base = if horizontal { row } else { col };
    let (mut lo, mut hi) = (len / 2, len / 2);
    // an invisible edge (one that only keeps regions apart) draws nothing to join
    for (si, s) in r
        .segs
        .iter_enumerated()
        .filter(|(_, s)| !g.edges[s.edge].invisible)
    {
        let at = if s.upper == item && !(s.first && upper_frame(g, r, s.edge).is_some()) {
            p.plan.ports[si].0
        } else if s.lower == item && !(s.last && lower_frame(g, r, s.edge).is_some()) {
            p.plan.ports[si].1
        } else {
            continue;
        };
        let off = p.cross(at).saturating_sub(base);
        lo = lo.min(off);
        hi = hi.max(off);
    }
    for k in (0..len).filter(|&k| k < lo || k > hi) {
        let (rr, cc) = if horizontal {
            (row + k, col)
        } else {
            (row, col + k)
        };
        p.canvas.put(rr, cc, ' ', Style::Plain);
    }
}

/// A note box beside its node, joined to it by a dotted connector.
fn node_note(p: &mut Plane, note: &NotePlan) {
    let Some(n) = note.node else { return };
    let (row, col) = p.box_at[n];
    let (w, h) = p.plan.boxes[n];
    let (nw, nh) = note.size;
    let dotted = LineKind::Dotted;
    let (top, left) = if p.plan.horizontal {
        // under (right) or over (left) the box, a one-cell connector between
        let top = match note.side {
            NoteSide::Right => row + h + 1,
            NoteSide::Left => row.saturating_sub(nh + 1),
        };
        let (box_side, note_side, link) = match note.side {
            NoteSide::Right => (row + h - 1, top, row + h),
            NoteSide::Left => (row, top + nh - 1, row.saturating_sub(1)),
        };
        let x = col + 2.min(w - 1);
        let (to_note, to_box) = match note.side {
            NoteSide::Right => (DOWN, UP),
            NoteSide::Left => (UP, DOWN),
        };
        p.canvas.join(box_side, x, to_note, dotted, Style::Note);
        p.canvas.join(link, x, UP | DOWN, dotted, Style::Note);
        p.canvas.join(note_side, x, to_box, dotted, Style::Note);
        p.block(link, x);
        (top, col)
    } else {
        let left = match note.side {
            NoteSide::Right => col + w + 2,
            NoteSide::Left => col.saturating_sub(nw + 2),
        };
        let y = row + 1.min(h - 1);
        let (box_side, note_side, link0) = match note.side {
            NoteSide::Right => (col + w - 1, left, col + w),
            NoteSide::Left => (col, left + nw - 1, left + nw),
        };
        let (to_note, to_box) = match note.side {
            NoteSide::Right => (RIGHT, LEFT),
            NoteSide::Left => (LEFT, RIGHT),
        };
        p.canvas.join(y, box_side, to_note, dotted, Style::Note);
        p.canvas.hline(y, link0, link0 + 1, dotted, Style::Note);
        p.canvas.join(y, note_side, to_box, dotted, Style::Note);
        p.block(y, link0);
        p.block(y, link0 + 1);
        (row, left)
    };
    note_box(&mut p.canvas, top, left, note);
    p.block_rect(top, left, nw, nh);
}

/// Draw a note's box and text with its top-left corner at (top, left).
fn note_box(canvas: &mut Canvas, top: usize, left: usize, note: &NotePlan) {
    let (nw, nh) = note.size;
    canvas.rect(
        top,
        left,
        top + nh - 1,
        left + nw - 1,
        LineKind::Solid,
        Style::Note,
    );
    for (k, line) in note.lines.iter().enumerate() {
        canvas.text(top + 1 + k, left + 2, line, Style::Note);
    }
}

/// Notes that belong to no node, under the drawing.
fn free_notes(lines: &mut Vec<Line>, plan: &Plan, glyphs: Glyphs) {
    let mut canvas = Canvas::new(glyphs);
    let mut top = 0;
    for note in plan.notes.iter().filter(|n| n.node.is_none()) {
        note_box(&mut canvas, top, 0, note);
        top += note.size.1;
    }
    if top > 0 {
        if !lines.is_empty() {
            lines.push(Line::default());
        }
        lines.extend(canvas.into_lines());
    }
}

/// Phase 2: subgraph frames (titles come last, clear of the edges); a concurrent region's
/// dashed, as Mermaid separates regions.
fn frames(p: &mut Plane, g: &Graph) -> Result<(), DrawError> {
    for f in &p.plan.frames {
        let (r0, c0, r1, c1) = p.frame_rect(f);
        let owner = FRAME + f.cluster.index() as u32;
        let overlap = |_| DrawError::Overlap("a subgraph frame overlaps");
        for c in c0..=c1 {
            for rr in [r0, r1] {
                p.claim(rr, c, true, owner, c == c0 || c == c1)
                    .map_err(overlap)?;
            }
        }
        for rr in r0 + 1..r1 {
            for c in [c0, c1] {
                p.claim(rr, c, false, owner, false).map_err(overlap)?;
            }
        }
        let line = match g.clusters[f.cluster].region {
            Some(_) => LineKind::Dotted,
            None => LineKind::Solid,
        };
        p.canvas.rect(r0, c0, r1, c1, line, Style::Block);
    }
    Ok(())
}

/// Phase 3: one piece of an edge between two layers, with the heads at its ends.
fn segment(p: &mut Plane, g: &Graph, r: &Ranked, si: SegId) -> Result<(), DrawError> {
    let plan = p.plan;
    let s: &Seg = &r.segs[si];
    let e = &g.edges[s.edge];
    if e.invisible {
        return Ok(());
    }
    let owner = edge_owner(s.edge);
    let (a, b) = plan.ports[si];
    let up_item = &r.items[s.upper];
    let low_item = &r.items[s.lower];
    let gap = &plan.gaps[GapId::below(up_item.layer)];
    let from_frame = if s.first {
        upper_frame(g, r, s.edge).and_then(|c| plan.frame(c))
    } else {
        None
    };
    let to_frame = if s.last {
        lower_frame(g, r, s.edge).and_then(|c| plan.frame(c))
    } else {
        None
    };
    // The line starts right below its box (or on its frame's border) and ends right above
    // the next one (or on the frame's border).
    let mstart = match (from_frame, up_item.node) {
        (Some(f), _) => f.main1,
        (None, Some(n)) => {
            let (w, h) = plan.boxes[n];
            plan.band_start[up_item.layer] + if plan.horizontal { w } else { h }
        }
        (None, None) => plan.band_start[up_item.layer],
    };
    let mend = match to_frame {
        Some(f) => f.main0,
        None => gap.end - 1,
    };
    let mut pts = vec![(mstart, a)];
    if let Some(t) = plan.tracks[si] {
        let mt = gap.track0 + t;
        pts.push((mt, a));
        pts.push((mt, b));
    }
    pts.push((mend, b));
    p.polyline(&pts, e.line, owner)?;
    p.paths[si] = pts.iter().map(|&(m, c)| p.at(m, c)).collect();
    let (fwd, back) = (p.forward(), p.backward());
    let glyphs = p.glyphs;
    // Connect the end cells toward the box or the dummy line they continue.
    if from_frame.is_none() {
        let (r0, c0) = p.at(mstart, a);
        p.canvas.join(r0, c0, bit(back), e.line, Style::Arrow);
    }
    if to_frame.is_none() {
        let (r1, c1) = p.at(mend, b);
        p.canvas.join(r1, c1, bit(fwd), e.line, Style::Arrow);
    }
    let (uh, lh) = (upper_head(g, r, s.edge), lower_head(g, r, s.edge));
    if s.first {
        // on a frame the head sits in the row after the border
        let m = mstart + usize::from(from_frame.is_some());
        if uh != Head::None {
            let (row, col) = p.at(m, a);
            p.canvas.put(row, col, glyphs.head(uh, back), Style::Arrow);
        } else if from_frame.is_none() && up_item.node.is_some() {
            let (row, col) = p.at(mstart - 1, a);
            if p.canvas.is_line(row, col) {
                p.canvas.join(row, col, bit(fwd), e.line, Style::Border);
            }
        }
    }
    if s.last {
        let m = mend - usize::from(to_frame.is_some());
        if lh != Head::None {
            let (row, col) = p.at(m, b);
            p.canvas.put(row, col, glyphs.head(lh, fwd), Style::Arrow);
        } else if to_frame.is_none() && low_item.node.is_some() {
            let (row, col) = p.at(mend + 1, b);
            if p.canvas.is_line(row, col) {
                p.canvas.join(row, col, bit(back), e.line, Style::Border);
            }
        }
    }
    Ok(())
}

/// Phase 4: an edge label at its planned spot, or beside its edge when that is taken.
fn edge_label(p: &mut Plane, r: &Ranked, si: SegId) -> Result<(), DrawError> {
    let plan = p.plan;
    let Some(at) = plan.label_at[si] else {
        return Ok(());
    };
    let s = &r.segs[si];
    let owner = edge_owner(s.edge);
    let lines = &plan.edge_labels[s.edge];
    let gap = &plan.gaps[GapId::below(r.items[s.upper].layer)];
    let (_, b) = plan.ports[si];
    let w = max_width(lines);
    let n = lines.len();
    let spots: Vec<(usize, usize)> = match at {
        LabelAt::InGap => {
            // over the line, else under it, sliding along the gap's label columns
            let a0 = p.at(gap.label0, b);
            let a1 = p.at(gap.label0 + gap.label_len - 1, b);
            let (row, col0) = (a0.0, a0.1.min(a1.1) + 1);
            let slack = gap.label_len.saturating_sub(w + 1);
            let mut spots = Vec::new();
            for shift in 0..=slack {
                if let Some(above) = (row + 1).checked_sub(n) {
                    spots.push((above, col0 + shift));
                }
                spots.push((row + 1, col0 + shift));
            }
            spots
        }
        LabelAt::OnTrack { cross } => {
            // a line cell of its own kept each side: `deploy()┼` reads as the crossing's
            let t = plan.tracks[si].ok_or("label on a missing track")?;
            let (row, col) = p.at(gap.track0 + t, cross);
            let one_line = [lines.join(" ")];
            let clear = spaced(p, row, col, &one_line, owner);
            clear.then_some((row, col)).into_iter().collect()
        }
        LabelAt::Rows { row, cross } => {
            let (row, col) = p.at(gap.label0 + row, cross);
            vec![(row, col)]
        }
        LabelAt::Marker => Vec::new(),
    };
    let placed = match at {
        LabelAt::OnTrack { .. } => p.label_at_first(&spots, &[lines.join(" ")], owner),
        _ => p.label_at_first(&spots, lines, owner),
    };
    if placed.is_ok() {
        return Ok(());
    }
    // no room where planned: moved along the edge, then wrapped narrower where planned,
    // then wrapped and moved, and only then a footnote
    let path = p.paths[si].clone();
    if along_edge(p, &path, lines, owner) {
        return Ok(());
    }
    let text = p.plan.edge_text[s.edge].clone();
    let narrower = narrower_wraps(&text, w);
    // beside the edge in the planned rows (one cell off it, never over it, so the line
    // and its head stay whole), or the planned spot with the label's right end kept
    let edge_col = p.at(gap.label0, b).1;
    let beside = |p: &Plane, wrapped: &[String]| -> Vec<(usize, usize)> {
        let ww = max_width(wrapped);
        let shift = w.saturating_sub(ww);
        spots
            .iter()
            .flat_map(|&(row, col)| {
                let left = edge_col.checked_sub(ww + 1).map(|c| (row, c));
                let kept = (
                    row,
                    if col + w <= edge_col {
                        col + shift
                    } else {
                        col
                    },
                );
                [Some((row, edge_col + 2)), left, Some(kept)]
            })
            .flatten()
            .filter(|&(row, col)| {
                untouched(p, row, col, wrapped) && spaced(p, row, col, wrapped, owner)
            })
            .collect()
    };
    let in_place = !matches!(at, LabelAt::OnTrack { .. })
        && narrower.iter().any(|wrapped| {
            p.label_at_first(&beside(p, wrapped), wrapped, owner)
                .is_ok()
        });
    if in_place
        || narrower
            .iter()
            .any(|wrapped| along_edge(p, &path, wrapped, owner))
    {
        return Ok(());
    }
    footnote(p, &path, owner, text)
}

/// A label's text wrapped narrower than `w` columns, one wrap per line count (two to
/// four, the widest of each), broken at spaces only: never inside a word while the text
/// has a space to break at.
fn narrower_wraps(text: &str, w: usize) -> Vec<Vec<String>> {
    let widest_word = text.split(' ').map(display_width).max().unwrap_or(0);
    let mut out: Vec<Vec<String>> = Vec::new();
    for max in (widest_word..w).rev() {
        let wrapped = wrap(text, max);
        let more = out.last().is_none_or(|l| wrapped.len() > l.len());
        if wrapped.len() > 4 {
            break;
        }
        if wrapped.len() > 1 && more {
            out.push(wrapped);
        }
    }
    out
}

/// The label moved along its edge before it becomes a footnote: beside a vertical run (a
/// space from it) or over or under a horizontal one, a cell clear of any other line on
/// each side so it reads as this edge's. `path`: the edge's corners.
fn along_edge(p: &mut Plane, path: &[(usize, usize)], lines: &[String], owner: u32) -> bool {
    let w = max_width(lines);
    let n = lines.len();
    let mut spots: Vec<(usize, usize)> = Vec::new();
    for pair in path.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if a.1 == b.1 {
            let (r0, r1) = (a.0.min(b.0), a.0.max(b.0));
            for row in r0 + 1..r1 {
                // the label's rows centred on `row`, kept inside the run
                let top = row.saturating_sub(n / 2).max(r0 + 1);
                if top + n > r1 {
                    continue;
                }
                spots.push((top, a.1 + 2));
                if let Some(c) = a.1.checked_sub(w + 1) {
                    spots.push((top, c));
                }
            }
        } else {
            let (c0, c1) = (a.1.min(b.1), a.1.max(b.1));
            // a cell off the corners' verticals; a one-line label also on the run itself,
            // a line cell kept each side (where the planner writes it when there is room)
            for c in c0 + 2..c1 {
                if c + w < c1 {
                    if n == 1 {
                        spots.push((a.0, c));
                    }
                    if let Some(top) = a.0.checked_sub(n) {
                        spots.push((top, c));
                    }
                    spots.push((a.0 + 1, c));
                }
            }
        }
    }
    let spot = spots.into_iter().find(|&(row, col)| {
        col + w < p.width
            && lines.iter().enumerate().all(|(k, line)| {
                let lw = display_width(line);
                p.label_fits(row + k, col + (w - lw) / 2, lw, owner)
            })
            && spaced(p, row, col, lines, owner)
            && p.nearest_is_own(owner, &label_lines(row, col, lines))
    });
    let Some((row, col)) = spot else {
        return false;
    };
    for (k, line) in lines.iter().enumerate() {
        let lw = display_width(line);
        p.put_label(row + k, col + (w - lw) / 2, line, owner);
    }
    true
}

/// Are the cells a label at (row, col) would take, centred on its widest line, free of
/// everything, its own edge too?
fn untouched(p: &Plane, row: usize, col: usize, lines: &[String]) -> bool {
    let w = max_width(lines);
    lines.iter().enumerate().all(|(k, line)| {
        let lw = display_width(line);
        let c = col + (w - lw) / 2;
        (c..c + lw).all(|c| p.occ.get(&(row + k, c)).is_none() && p.canvas.is_empty(row + k, c))
    })
}

/// Does every line of a label at (row, col), centred on its widest, have a cell clear of
/// any other edge's line (or a frame) on each side, so it reads as `owner`'s?
fn spaced(p: &Plane, row: usize, col: usize, lines: &[String], owner: u32) -> bool {
    let clear = |row: usize, col: usize| {
        p.occ.get(&(row, col)).is_none_or(|o| {
            let foreign = |x: u32| x != 0 && x != owner;
            !foreign(o.h) && !foreign(o.v)
        })
    };
    let w = max_width(lines);
    lines.iter().enumerate().all(|(k, line)| {
        let lw = display_width(line);
        let c = col + (w - lw) / 2;
        c > 0 && clear(row + k, c - 1) && clear(row + k, c + lw)
    })
}

/// Phase 5: frame titles on the top border, on a stretch no edge crosses; a wrapped
/// title's other lines under its first, inside the frame.
fn frame_titles(p: &mut Plane) -> Result<(), DrawError> {
    for f in &p.plan.frames {
        let Some((head, rest)) = f.title.split_first() else {
            continue;
        };
        if head.is_empty() {
            continue;
        }
        let (r0, c0, _, c1) = p.frame_rect(f);
        let text = format!(" {head} ");
        let w = display_width(&text).max(max_width(rest) + 2);
        let first = if p.plan.horizontal {
            c0 + 2
        } else {
            p.cross(f.title_at).max(c0 + 2)
        };
        let free = |p: &Plane, start: usize| {
            (start..start + display_width(&text)).all(|c| {
                p.occ
                    .get(&(r0, c))
                    .is_some_and(|o| o.v == 0 && o.h >= FRAME)
            }) && rest.iter().enumerate().all(|(k, line)| {
                (start..start + display_width(line) + 2).all(|c| {
                    p.occ.get(&(r0 + 1 + k, c)).is_none() && p.canvas.is_empty(r0 + 1 + k, c)
                })
            })
        };
        let start = (first..(c1 + 1).saturating_sub(w))
            .find(|&s| free(p, s))
            .ok_or("no room for a subgraph title")?;
        for c in start..start + display_width(&text) {
            p.block(r0, c);
        }
        p.canvas.text(r0, start, &text, Style::Block);
        for (k, line) in rest.iter().enumerate() {
            for c in start..start + display_width(line) + 2 {
                p.block(r0 + 1 + k, c);
            }
            p.canvas.text(r0 + 1 + k, start + 1, line, Style::Block);
        }
    }
    Ok(())
}

/// Phase 6: a self-loop on the right of its box (TD) or under it (LR).
fn self_loop(p: &mut Plane, g: &Graph, ei: EdgeId) -> Result<(), DrawError> {
    let e = &g.edges[ei];
    let n = e.from;
    let (row, col) = p.box_at[n];
    let (w, h) = p.plan.boxes[n];
    let owner = edge_owner(ei);
    let glyphs = p.glyphs;
    if p.plan.horizontal {
        let r1 = row + h - 1;
        let (x0, x1) = (col + 1.min(w - 1), col + 3.min(w - 1));
        p.canvas.join(r1, x1, DOWN, e.line, Style::Border);
        p.line((r1 + 1, x1), (r1 + 2, x1), e.line, owner, (false, true))?;
        p.line((r1 + 2, x1), (r1 + 2, x0), e.line, owner, (true, true))?;
        p.line((r1 + 2, x0), (r1 + 1, x0), e.line, owner, (true, false))?;
        if e.head == Head::None {
            p.canvas.join(r1, x0, DOWN, e.line, Style::Border);
        } else {
            p.canvas
                .put(r1 + 1, x0, glyphs.head(e.head, Dir4::Up), Style::Arrow);
        }
        loop_label(
            p,
            ei,
            (r1 + 2, x1 + 2),
            &[(r1 + 2, x1 + 1), (r1 + 2, x0 - 1)],
        )?;
    } else {
        let c1 = col + w - 1;
        p.canvas.join(row + 1, c1, RIGHT, e.line, Style::Border);
        p.line(
            (row + 1, c1 + 1),
            (row + 1, c1 + 2),
            e.line,
            owner,
            (false, true),
        )?;
        p.line(
            (row + 1, c1 + 2),
            (row + 2, c1 + 2),
            e.line,
            owner,
            (true, true),
        )?;
        p.line(
            (row + 2, c1 + 2),
            (row + 2, c1 + 1),
            e.line,
            owner,
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
        loop_label(
            p,
            ei,
            (row + 1, c1 + 4),
            &[(row + 1, c1), (row + 1, c1 + 3)],
        )?;
    }
    Ok(())
}

/// A self-loop's label at `spot`: on one row, else in its planned lines, else wrapped
/// narrower at its spaces; a footnote on `path` only when none fits.
fn loop_label(
    p: &mut Plane,
    ei: EdgeId,
    spot: (usize, usize),
    path: &[(usize, usize)],
) -> Result<(), DrawError> {
    let owner = edge_owner(ei);
    let text = p.plan.edge_text[ei].clone();
    if text.is_empty() {
        return Ok(());
    }
    let planned = p.plan.edge_labels[ei].clone();
    let tries = std::iter::once(vec![text.clone()])
        .chain((planned.len() > 1).then_some(planned))
        .chain(narrower_wraps(&text, display_width(&text)));
    for lines in tries {
        if p.label_at_first(&[spot], &lines, owner).is_ok() {
            return Ok(());
        }
    }
    footnote(p, path, owner, text)
}
