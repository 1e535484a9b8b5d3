//! Phase 1 and 2 of a plan: the box of every node (grown for its ports, its self-loop
//! and its notes), and where each box sits across the flow.

use super::{Builder, NOTE_WRAP, NotePlan, frame_margin};
use crate::graph::align::aligned_positions;
use crate::graph::cross::{FrameRoom, cross_positions, resolve_frames};
use crate::graph::ids::{EdgeId, IdVec, ItemId, NodeId, SegId};
use crate::graph::model::{NoteSide, Shape};
use crate::graph::shapes::{self};
use crate::text::{max_width, wrap_all};

impl Builder<'_> {
    /// Phase 1: the box of every node, grown for its ports, its self-loop and its notes.
    pub(super) fn sizes(&mut self) -> Result<(), String> {
        let (g, r, horizontal) = (self.g, self.r, self.horizontal);
        let mut loop_of: IdVec<NodeId, Option<EdgeId>> = IdVec::filled(g.nodes.len(), None);
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
        for (i, it) in r.items.iter_enumerated() {
            let Some(n) = it.node else { continue };
            let (mut w, mut h) = shapes::size(&self.texts[n]);
            let point = self.texts[n].shape.is_point();
            // a point is not widened for the edges its frame sends and takes
            let own = |side: usize, list: &[SegId]| {
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

    /// Least cross distance between neighbours `a` and `b` of a layer (more with frames
    /// between them), the layers spread `extra` apart.
    pub(super) fn sep_between(&self, a: ItemId, b: ItemId, extra: usize) -> i64 {
        let (r, paths, p) = (self.r, &self.paths, self.p);
        let margin = frame_margin(self.horizontal) as i64;
        let common = paths[a]
            .iter()
            .zip(&paths[b])
            .take_while(|(x, y)| x == y)
            .count();
        let frames = (paths[a].len() - common) + (paths[b].len() - common);
        let sep = if self.horizontal {
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
    }

    /// Cross size of a node's box (its width in TD, its height in LR).
    pub(super) fn box_cross(&self, n: NodeId) -> usize {
        let (w, h) = self.boxes[n];
        if self.horizontal { h } else { w }
    }

    /// Phase 2: cross positions, then items pushed out of frames they do not belong to.
    /// `extra` widens the space between neighbours (to make room for labels).
    pub(super) fn place_cross(&mut self, extra: usize) -> Result<(), String> {
        let (g, r, horizontal) = (self.g, self.r, self.horizontal);
        let margin = frame_margin(horizontal) as i64;
        let paths = &self.paths;
        let sep_between = |a: ItemId, b: ItemId| self.sep_between(a, b, extra);
        // Items line up on their box centre (doubled, to stay in integers).
        let anchor2: IdVec<ItemId, i64> = r
            .items
            .iter()
            .map(|it| match it.node {
                Some(n) => 2 * self.box_off[n] + self.box_cross(n) as i64 - 1,
                None => 0,
            })
            .collect();
        let aligned = (self.p.aligned)
            .filter(|_| !horizontal)
            .and_then(|b| aligned_positions(r, &self.csize, &anchor2, &sep_between, b));
        let inside = (self.p.inside && !horizontal).then_some(paths);
        let mut cross = aligned
            .unwrap_or_else(|| cross_positions(r, &self.csize, &anchor2, &sep_between, inside));
        let min_w = (!horizontal).then_some(&self.min_w);
        let room = FrameRoom {
            min_w,
            labels: &self.label_room,
        };
        resolve_frames(g, r, &mut cross, &self.csize, paths, margin, room)?;
        self.cross = cross;
        Ok(())
    }
}
