//! Horizontal placement of lifelines: every gap is sized to what must fit in it — a label
//! over its own arrow needs room across the arrow's whole span, not in one gap — so labels
//! never touch a lifeline's neighbour or another label.

use crate::sequence::model::{Group, NotePos, PerParticipant};
use crate::sequence::prepare::{Item, Prepared};
use crate::text::{display_width, max_width};

/// Where each lifeline goes, in absolute columns, and where each frame's sides go.
#[derive(Debug, Clone)]
pub struct Columns {
    pub x: PerParticipant<usize>,
    /// left/right half-widths of participant boxes
    pub half: PerParticipant<(usize, usize)>,
    /// per block (in opening order): its depth (1 = outermost) and its right side's column
    pub frames: Vec<(usize, usize)>,
    pub width: usize,
}

impl Columns {
    /// Column of the left frame side at `depth` (1 = outermost).
    pub fn frame_left(depth: usize) -> usize {
        2 * (depth - 1)
    }
}

/// Box width of a participant: its name with a space inside each side, or none (`tight`).
fn box_width(name: &[String], tight: bool) -> usize {
    max_width(name) + if tight { 2 } else { 4 }
}

/// `x[b] - x[a] >= d` for lifelines a < b (by their place, left to right: the gaps between
/// lifelines are counted by place too).
type Span = (usize, usize, usize);

/// Lifeline spacing needs: minimum gaps between neighbours, spans, and room at both ends.
struct Needs {
    sep: Vec<usize>,
    spans: Vec<Span>,
    left: usize,
    right: usize,
    /// notes over the last participant(s): (first, text width)
    tail_notes: Vec<(usize, usize)>,
}

impl Needs {
    /// `w` columns between lifeline `gap` and the next one (or after the last).
    fn gap(&mut self, gap: usize, w: usize, tail: usize) {
        if gap < self.sep.len() {
            self.sep[gap] = self.sep[gap].max(w);
        } else {
            self.right = self.right.max(tail);
        }
    }
}

/// True when lifeline `i` (by place) is the first or last of a `box` group.
fn in_group_edge(groups: &[Group], i: usize) -> bool {
    groups
        .iter()
        .any(|g| g.first.index() == i || g.last.index() == i)
}

fn box_needs(p: &Prepared, half: &PerParticipant<(usize, usize)>) -> Needs {
    let n = half.len();
    let in_group_edge = |i: usize| in_group_edge(p.groups, i);
    let half = half.as_slice();
    let sep = (0..n.saturating_sub(1))
        .map(|i| {
            let s = if p.staggered {
                staggered_sep(half, i)
            } else {
                half[i].1 + half[i + 1].0 + 2
            };
            if in_group_edge(i) || in_group_edge(i + 1) {
                s + 2
            } else {
                s
            }
        })
        .collect();
    let mut needs = Needs {
        sep,
        // a span per staggered pair, group and label at most: no regrowth while they come
        spans: Vec::with_capacity(n + p.groups.len() + p.items.len()),
        left: half.first().map_or(0, |h| h.0) + usize::from(in_group_edge(0)),
        right: half.last().map_or(0, |h| h.1) + usize::from(n > 0 && in_group_edge(n - 1)),
        tail_notes: Vec::new(),
    };
    if p.staggered {
        // boxes in the same row, a space between them
        for i in 0..n.saturating_sub(2) {
            needs.spans.push((i, i + 2, half[i].1 + half[i + 2].0 + 2));
        }
    }
    for g in p.groups {
        let (first, last) = (g.first.index(), g.last.index());
        let need = display_width(&g.label) + 6;
        let have = half[first].0 + half[last].1 + 3;
        if need <= have {
            continue;
        }
        if first == last {
            // One participant: the label must fit over its box; widen the space around.
            let extra = need - have;
            let w = half[first].1 + half.get(first + 1).map_or(0, |h| h.0) + 4 + extra;
            needs.gap(first, w, half[first].1 + 1 + extra);
        } else {
            needs
                .spans
                .push((first, last, need - half[first].0 - half[last].1 - 2));
        }
    }
    needs
}

/// Staggered boxes: the second, fourth, ... box (by place from 0: the odd ones) goes in
/// the lower row.
pub fn lower_row(place: usize) -> bool {
    !place.is_multiple_of(2)
}

/// Staggered boxes: between lifelines `i` and `i + 1`, the lower box keeps a space off its
/// neighbour's lifeline, which runs down past it.
fn staggered_sep(half: &[(usize, usize)], i: usize) -> usize {
    if lower_row(i) {
        half[i].1 + 2
    } else {
        half[i + 1].0 + 2
    }
}

/// Half-widths of every participant box.
fn halves(p: &Prepared) -> PerParticipant<(usize, usize)> {
    p.names.map(|name| {
        let w = box_width(name, p.tight);
        let l = (w - 1) / 2;
        (l, w - 1 - l)
    })
}

/// What the messages, notes and frames of `p` need, with `pad` extra spaces around every
/// label.
fn needs(p: &Prepared, half: &PerParticipant<(usize, usize)>, pad: usize) -> Needs {
    let n = p.names.len();
    let mut needs = box_needs(p, half);
    // Frames run below the participant boxes: they only keep clear of the lifelines.
    needs.left = needs.left.max(2 * p.depth + usize::from(p.depth > 0));
    for item in p.items.iter() {
        match item {
            Item::Message {
                from, to, lines, ..
            } => {
                let lw = lines.width;
                let (a, b) = ((*from).min(*to).index(), (*from).max(*to).index());
                if a == b {
                    let w = if lw == 0 { 5 } else { lw + 6 + pad };
                    needs.gap(a, w, lw + 5);
                } else if lw > 0 {
                    // over its own arrow, a space from each end
                    needs.spans.push((a, b, lw + 3 + pad));
                }
            }
            Item::Note {
                pos,
                first,
                last,
                lines,
                ..
            } => {
                let nw = lines.width;
                let (first, last) = (first.index(), last.index());
                match pos {
                    NotePos::Right => needs.gap(first, nw + 7 + pad, nw + 5),
                    NotePos::Left if first == 0 => needs.left = needs.left.max(nw + 5),
                    NotePos::Left => needs.sep[first - 1] = needs.sep[first - 1].max(nw + 7 + pad),
                    NotePos::Over => {
                        if first == 0 {
                            needs.left = needs.left.max(2);
                        }
                        if last + 1 < n {
                            needs.spans.push((first, last + 1, nw + 3 + pad));
                        } else {
                            needs.tail_notes.push((first, nw));
                        }
                    }
                }
            }
            Item::Open { lines, .. } | Item::Divider { lines, .. } => {
                // the frame's text starts after the first lifeline, over as many gaps as needed
                let lw = lines.width + 2;
                if n > 1 {
                    needs.spans.push((0, n - 1, lw + 1 + pad));
                } else {
                    needs.right = needs.right.max(lw + 1);
                }
            }
            _ => {}
        }
    }
    needs
}

/// Lifeline columns meeting every need: each x as small as they allow (a longest path
/// from the first lifeline).
fn place(mut needs: Needs, n: usize) -> (Vec<usize>, usize) {
    let mut x = vec![0usize; n];
    for j in 1..n {
        x[j] = x[j - 1] + needs.sep[j - 1];
        for &(a, b, d) in &needs.spans {
            if b == j {
                x[j] = x[j].max(x[a] + d);
            }
        }
    }
    if let Some(&last) = x.last() {
        for &(first, nw) in &needs.tail_notes {
            // the box runs from x[first] - 2 to x[first] + nw + 1, at least to last + 2
            needs.right = needs
                .right
                .max((x[first] + nw + 1).saturating_sub(last))
                .max(2);
        }
    }
    for xi in &mut x {
        *xi += needs.left;
    }
    let right = x.last().map_or(needs.left, |&l| l + needs.right);
    (x, right)
}

/// The columns of `p` on lifelines `x`, its content ending at `right`.
fn finish(
    p: &Prepared,
    x: PerParticipant<usize>,
    half: PerParticipant<(usize, usize)>,
    right: usize,
) -> Columns {
    let frames = frame_sides(p, &x);
    let width = frames
        .iter()
        .map(|f| f.1 + 1)
        .max()
        .unwrap_or(0)
        .max(right + 1);
    Columns {
        x,
        half,
        frames,
        width,
    }
}

/// Lifeline columns with `pad` extra spaces around every label, shared by diagrams with the
/// same participants (the options of a question) so they line up column for column: every
/// diagram's needs at once.
pub fn shared_columns(ps: &[Prepared], pad: usize) -> Vec<Columns> {
    let Some(first) = ps.first() else {
        return Vec::new();
    };
    let n = first.names.len();
    let half = halves(first);
    let mut all = needs(first, &half, pad);
    for p in &ps[1..] {
        let more = needs(p, &half, pad);
        for (a, b) in all.sep.iter_mut().zip(&more.sep) {
            *a = (*a).max(*b);
        }
        all.spans.extend(more.spans);
        all.tail_notes.extend(more.tail_notes);
        all.left = all.left.max(more.left);
        all.right = all.right.max(more.right);
    }
    let (x, right) = place(all, n);
    let x: PerParticipant<usize> = x.into_iter().collect();
    let mut half = half;
    if first.tight {
        half = pad_where_room(&half, &x, right, first.groups);
    }
    // the last diagram takes the columns, the others a copy (most searches lay out one)
    let Some((last, others)) = ps.split_last() else {
        return Vec::new();
    };
    let mut out: Vec<Columns> = others
        .iter()
        .map(|p| finish(p, x.clone(), half.clone(), right))
        .collect();
    out.push(finish(last, x, half, right));
    out
}

/// Tight boxes get their inner spaces back (one more column each side) where the
/// lifelines leave room: a space stays between neighbouring boxes, and a box at the edge
/// of a `box` group keeps the group's sides clear.
fn pad_where_room(
    half: &PerParticipant<(usize, usize)>,
    x: &PerParticipant<usize>,
    right: usize,
    groups: &[Group],
) -> PerParticipant<(usize, usize)> {
    let mut half = half.as_slice().to_vec();
    let x = x.as_slice();
    for i in 0..half.len() {
        let (l, r) = half[i];
        let left_ok = match i.checked_sub(1) {
            // the left side moves to x - l - 1, a space off the previous box's right side
            Some(prev) => x[prev] + half[prev].1 + 2 < x[i] - l,
            None => x[i] > l,
        };
        let right_ok = match x.get(i + 1) {
            Some(&next) => x[i] + r + 1 + 2 <= next - half[i + 1].0,
            None => x[i] + r < right,
        };
        if left_ok && right_ok && !in_group_edge(groups, i) {
            half[i] = (l + 1, r + 1);
        }
    }
    half.into_iter().collect()
}

/// The rightmost column an item draws on.
fn item_right(item: &Item, x: &PerParticipant<usize>) -> usize {
    match item {
        Item::Message {
            from, to, lines, ..
        } => {
            if from == to {
                x[*from] + 4 + if lines.is_empty() { 0 } else { lines.width + 1 }
            } else {
                x[*from].max(x[*to])
            }
        }
        Item::Note {
            pos,
            first,
            last,
            lines,
            ..
        } => {
            let nw = lines.width;
            match pos {
                NotePos::Right => x[*first] + nw + 5,
                NotePos::Left => x[*first],
                NotePos::Over => (x[*first] + nw + 1).max(x[*last] + 2),
            }
        }
        Item::Open { lines, .. } | Item::Divider { lines, .. } => x
            .as_slice()
            .first()
            .map_or(0, |x0| x0 + 2 + lines.width + 1),
        _ => 0,
    }
}

/// Each frame's right side: clear of the last lifeline and of everything inside the frame
/// (a wide note after a loop does not stretch the loop), two columns outside any frame
/// nested in it.
fn frame_sides(p: &Prepared, x: &PerParticipant<usize>) -> Vec<(usize, usize)> {
    let base = x.as_slice().last().map_or(0, |l| l + 1);
    // (depth, content right) of the frames still open, innermost last
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for item in p.items.iter() {
        match item {
            Item::Open { .. } => {
                open.push((out.len(), item_right(item, x).max(base)));
                out.push((open.len(), 0));
            }
            Item::Close => {
                if let Some((k, inner)) = open.pop() {
                    let side = inner + 2;
                    out[k].1 = side;
                    if let Some(parent) = open.last_mut() {
                        parent.1 = parent.1.max(side);
                    }
                }
            }
            _ => {
                let r = item_right(item, x);
                if let Some(top) = open.last_mut() {
                    top.1 = top.1.max(r);
                }
            }
        }
    }
    out
}
