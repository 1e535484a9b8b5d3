//! Phase 3 of a plan: where each edge leaves and reaches a box, spread evenly along its
//! side, off the rows a divider takes, and through a subgraph's frame.

use super::{Builder, lower_frame, lower_head, upper_frame, upper_head};
use crate::glyphs::Head;
use crate::graph::align::centre_ports;
use crate::graph::ids::{ClusterId, GapId, ItemId, SegId};
use crate::graph::model::Shape;

impl Builder<'_> {
    /// Cross range (inclusive) where ports may sit on an item.
    pub(super) fn port_range(&self, i: ItemId) -> (i64, i64) {
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
    pub(super) fn divider_rows(&self, i: ItemId) -> Vec<i64> {
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
    pub(super) fn via_frame(&self, si: SegId, side: usize) -> bool {
        let (g, r) = (self.g, self.r);
        let s = &r.segs[si];
        if side == 0 {
            s.last && lower_frame(g, r, s.edge).is_some()
        } else {
            s.first && upper_frame(g, r, s.edge).is_some()
        }
    }

    /// Cross position of the centre of item `i`'s box.
    pub(super) fn center(&self, i: ItemId) -> i64 {
        match self.r.items[i].node {
            Some(n) => self.cross[i] + self.box_off[n] + (self.box_cross(n) as i64 - 1) / 2,
            None => self.cross[i],
        }
    }

    /// Phase 3: ports spread evenly on each side, ordered by where the other end is. The
    /// edges a subgraph's frame sends or takes through a `[*]` inside it leave (or reach)
    /// the frame's border away from the point's own edges, so no line seems to run through
    /// the point and out of the frame.
    pub(super) fn assign_ports(&mut self) {
        let r = self.r;
        let mut via_frames: Vec<(usize, SegId)> = Vec::new(); // (side, segment)
        for i in r.items.ids() {
            let mut first_side: Vec<i64> = Vec::new();
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
                    let (framed, own): (Vec<SegId>, Vec<SegId>) =
                        list.iter().partition(|&&si| self.via_frame(si, side));
                    via_frames.extend(framed.into_iter().map(|si| (side, si)));
                    list = own;
                }
                if list.is_empty() {
                    continue;
                }
                self.sort_by_other_end(&mut list, side);
                let mut spots = self.spread(list.len(), (lo, hi), &self.divider_rows(i));
                if self.p.aligned.is_some() {
                    let straight = self.lined_up_with(i, side, &list);
                    centre_ports(&mut spots, straight, self.center(i), (lo, hi));
                }
                self.incoming_on_mark(i, side, &mut list, &mut spots);
                if point {
                    self.apart_from_other_side(i, &first_side, &mut spots);
                    first_side.clone_from(&spots);
                }
                for (&si, pos) in list.iter().zip(spots) {
                    self.set_port(si, side, pos);
                }
            }
        }
        self.frame_ports(&via_frames);
    }

    /// Which of a side's segments (by place in `list`) runs to an item whose centre is in
    /// line with item `i`'s.
    fn lined_up_with(&self, i: ItemId, side: usize, list: &[SegId]) -> Option<usize> {
        let r = self.r;
        list.iter().position(|&si| {
            let s = &r.segs[si];
            let other = if side == 0 { s.upper } else { s.lower };
            self.center(other) == self.center(i)
        })
    }

    /// An arrow into a `<<choice>>` ends on its `◆`, not on the bar beside it: the first
    /// incoming segment takes the spot nearest the mark, moved onto it, and the others
    /// keep their order over the spots left.
    fn incoming_on_mark(&self, i: ItemId, side: usize, list: &mut Vec<SegId>, spots: &mut [i64]) {
        let (g, r) = (self.g, self.r);
        let Some(n) = r.items[i]
            .node
            .filter(|&n| self.texts[n].shape == Shape::Choice)
        else {
            return;
        };
        let head = |si: SegId| {
            let edge = r.segs[si].edge;
            if side == 0 {
                lower_head(g, r, edge)
            } else {
                upper_head(g, r, edge)
            }
        };
        let Some(at) = list.iter().position(|&si| head(si) != Head::None) else {
            return;
        };
        // the mark sits at the middle cell of the point's line (see `shapes::draw_point`)
        let mark = self.port_range(i).0 + self.box_cross(n) as i64 / 2;
        let Some(near) = (0..spots.len()).min_by_key(|&k| (spots[k] - mark).abs()) else {
            return;
        };
        spots[near] = mark;
        let incoming = list.remove(at);
        list.insert(near, incoming);
    }

    /// A point is one cell thick: a port off its mark on one side and one at the same cell
    /// on the other meet there (`◆┤`), and two edges seem to split at one exit. Side 1's
    /// ports off the mark move to cells side 0 leaves free, keeping their order.
    fn apart_from_other_side(&self, i: ItemId, other: &[i64], spots: &mut [i64]) {
        let Some(n) = self.r.items[i].node else {
            return;
        };
        let (lo, hi) = self.port_range(i);
        let mark = lo + self.box_cross(n) as i64 / 2;
        let shared = |x: i64| x != mark && other.contains(&x);
        if !spots.iter().any(|&x| shared(x)) {
            return;
        }
        let off_mark = spots.iter().filter(|&&x| x != mark).count();
        let free: Vec<i64> = (lo..=hi)
            .filter(|&x| x != mark && !other.contains(&x))
            .collect();
        if free.len() < off_mark {
            return;
        }
        // the free cells nearest the ones asked for, in cross order
        let mut chosen: Vec<i64> = Vec::new();
        for &x in spots.iter().filter(|&&x| x != mark) {
            let near = free
                .iter()
                .copied()
                .filter(|c| !chosen.contains(c))
                .min_by_key(|&c| (c - x).abs());
            chosen.extend(near);
        }
        chosen.sort_unstable();
        let mut next = chosen.into_iter();
        for x in spots.iter_mut().filter(|x| **x != mark) {
            if let Some(c) = next.next() {
                *x = c;
            }
        }
    }

    /// Order a side's segments by where their other end is (back edges to the outside).
    pub(super) fn sort_by_other_end(&self, list: &mut [SegId], side: usize) {
        let r = self.r;
        list.sort_by_key(|&si| {
            let s = &r.segs[si];
            let other = if side == 0 { s.upper } else { s.lower };
            let back = i64::from(r.reversed[s.edge]);
            (self.center(other), back, s.edge)
        });
    }

    /// `k` ports spread evenly and centred in `lo..=hi`, off the given divider rows.
    pub(super) fn spread(&self, k: usize, (lo, hi): (i64, i64), dividers: &[i64]) -> Vec<i64> {
        let k = k as i64;
        let spacing = self.spacing as i64;
        let span = (k - 1) * spacing;
        let start = lo + ((hi - lo) - span).max(0) / 2;
        let mut spots: Vec<i64> = (0..k).map(|j| (start + j * spacing).min(hi)).collect();
        off_dividers(&mut spots, dividers, (lo, hi));
        spots
    }

    pub(super) fn set_port(&mut self, si: SegId, side: usize, pos: i64) {
        if side == 0 {
            self.ports[si].1 = pos;
        } else {
            self.ports[si].0 = pos;
        }
    }

    /// Ports for the segments that meet a `[*]` only through its frame: spread over the
    /// frame's members, clear of the ports already on that border (and, leaving, of the
    /// point's own).
    pub(super) fn frame_ports(&mut self, via_frames: &[(usize, SegId)]) {
        let (g, r) = (self.g, self.r);
        let mut groups: Vec<((ClusterId, usize), Vec<SegId>)> = Vec::new();
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
            let members = r.items.ids().filter(|&i| self.paths[i].contains(&c));
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
                GapId::above(layer)
            } else {
                Some(GapId::below(layer))
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
