//! Horizontal placement of lifelines: every gap is sized to what must fit in it, so labels
//! never touch a lifeline or another label.

use crate::mermaid::sequence::model::NotePos;
use crate::mermaid::sequence::prepare::{Item, Prepared};
use crate::mermaid::text::{display_width, max_width};

/// Where each lifeline goes, in absolute columns, and the frame columns.
#[derive(Debug, Clone)]
pub struct Columns {
    pub x: Vec<usize>,
    /// left/right half-widths of participant boxes
    pub half: Vec<(usize, usize)>,
    /// rightmost content column (frames go outside)
    pub right: usize,
    pub depth: usize,
    pub width: usize,
}

impl Columns {
    /// Column of the left frame side at `depth` (1 = outermost).
    pub fn frame_left(depth: usize) -> usize {
        2 * (depth - 1)
    }

    pub fn frame_right(&self, depth: usize) -> usize {
        self.right + 2 * (self.depth - depth + 1)
    }
}

/// Box width of a participant.
pub fn box_width(name: &[String]) -> usize {
    max_width(name) + 4
}

/// Compute lifeline columns with `pad` extra spaces in every label gap.
pub fn columns(p: &Prepared, pad: usize) -> Columns {
    let n = p.names.len();
    let half: Vec<(usize, usize)> = p
        .names
        .iter()
        .map(|name| {
            let w = box_width(name);
            let l = (w - 1) / 2;
            (l, w - 1 - l)
        })
        .collect();
    let mut sep = vec![0usize; n.saturating_sub(1)];
    let mut left_need = half.first().map_or(0, |h| h.0);
    let mut right_need = half.last().map_or(0, |h| h.1);
    let in_group_edge = |i: usize| p.groups.iter().any(|g| g.1 == i || g.2 == i);
    for i in 0..sep.len() {
        let mut s = half[i].1 + half[i + 1].0 + 2;
        if in_group_edge(i) || in_group_edge(i + 1) {
            s += 2;
        }
        sep[i] = s;
    }
    if in_group_edge(0) {
        left_need += 1;
    }
    if n > 0 && in_group_edge(n - 1) {
        right_need += 1;
    }
    // Span constraints: x[b] - x[a] >= d, for notes over several participants and groups.
    let mut spans: Vec<(usize, usize, usize)> = Vec::new();
    // notes over the last participant(s): (first, text width)
    let mut tail_notes: Vec<(usize, usize)> = Vec::new();
    for g in &p.groups {
        let need = display_width(&g.0) + 6;
        let have = half[g.1].0 + half[g.2].1 + 3;
        if need > have {
            if g.1 == g.2 {
                // One participant: the label must fit over its box; widen the space around.
                let extra = need - have;
                if g.1 + 1 < n {
                    sep[g.1] = sep[g.1].max(half[g.1].1 + half[g.1 + 1].0 + 4 + extra);
                } else {
                    right_need = right_need.max(half[g.1].1 + 1 + extra);
                }
            } else {
                spans.push((g.1, g.2, need - half[g.1].0 - half[g.2].1 - 2));
            }
        }
    }
    let need_gap =
        |sep: &mut Vec<usize>, right_need: &mut usize, gap: usize, w: usize, tail: usize| {
            if gap + 1 < n {
                sep[gap] = sep[gap].max(w);
            } else {
                *right_need = (*right_need).max(tail);
            }
        };
    for item in &p.items {
        match item {
            Item::Message {
                from, to, lines, ..
            } => {
                let lw = max_width(lines);
                let (from, to) = (*from, *to);
                if from == to {
                    let w = if lw == 0 { 5 } else { lw + 6 + pad };
                    need_gap(&mut sep, &mut right_need, from, w, lw + 5);
                } else {
                    let gap = if from < to { from } else { from - 1 };
                    if lw > 0 {
                        sep[gap] = sep[gap].max(lw + 3 + pad);
                    }
                }
            }
            Item::Note {
                pos,
                first,
                last,
                lines,
            } => {
                let nw = max_width(lines);
                match pos {
                    NotePos::Right => {
                        need_gap(&mut sep, &mut right_need, *first, nw + 7 + pad, nw + 5);
                    }
                    NotePos::Left => {
                        if *first == 0 {
                            left_need = left_need.max(nw + 5);
                        } else {
                            sep[first - 1] = sep[first - 1].max(nw + 7 + pad);
                        }
                    }
                    NotePos::Over => {
                        left_need = left_need.max(if *first == 0 { 2 } else { 0 });
                        if last + 1 < n {
                            spans.push((*first, last + 1, nw + 3 + pad));
                        } else {
                            tail_notes.push((*first, nw));
                        }
                    }
                }
            }
            Item::Open { lines } | Item::Divider { lines } => {
                let lw = max_width(lines);
                need_gap(&mut sep, &mut right_need, 0, lw + 3 + pad, lw + 3);
            }
            _ => {}
        }
    }
    // Widen the last gap of each span that is still short (shortest spans first).
    spans.sort_by_key(|s| s.1 - s.0);
    let mut x = vec![0usize; n];
    let place = |sep: &[usize], x: &mut Vec<usize>| {
        for i in 1..n {
            x[i] = x[i - 1] + sep[i - 1];
        }
    };
    place(&sep, &mut x);
    for &(a, b, d) in &spans {
        let have = x[b] - x[a];
        if have < d {
            sep[b - 1] += d - have;
            place(&sep, &mut x);
        }
    }
    if let Some(&last) = x.last() {
        for &(first, nw) in &tail_notes {
            // the box runs from x[first] - 2 to x[first] + nw + 1, at least to last + 2
            right_need = right_need
                .max((x[first] + nw + 1).saturating_sub(last))
                .max(2);
        }
    }
    let depth = p.depth;
    let left = 2 * depth + left_need;
    for xi in &mut x {
        *xi += left;
    }
    let right = x.last().map_or(left, |&l| l + right_need);
    let width = right + 2 * depth + 1;
    Columns {
        x,
        half,
        right,
        depth,
        width,
    }
}
