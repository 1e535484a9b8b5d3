//! Phases 5 to 7 of a plan: the layers each subgraph frame spans, the position of every
//! layer along the flow, and the frames' rectangles.

use super::{Builder, Frame, Gap, frame_margin, lower_frame, lower_head, upper_frame, upper_head};
use crate::glyphs::{Head, LineKind};
use crate::graph::ids::{ClusterId, GapId, IdVec, SegId};
use crate::graph::route::LabelAt;
use crate::text::{display_width, max_width, wrap};

/// Lines a frame title is wrapped to at most to keep its frame narrow.
const TITLE_LINES_MOST: usize = 4;

impl Builder<'_> {
    /// Phase 5: which layers each frame spans, and the frame slots of every gap.
    pub(super) fn frame_layers(&mut self) {
        let g = self.g;
        for (i, it) in self.r.items.iter_enumerated() {
            for &c in &self.paths[i] {
                self.c_lo[c] = self.c_lo[c].min(it.layer);
                self.c_hi[c] = self.c_hi[c].max(it.layer);
            }
        }
        for c in g.clusters.ids() {
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
    pub(super) fn any_seg(&self, k: GapId, f: impl Fn(SegId) -> bool) -> bool {
        self.gap_segs[k]
            .iter()
            .any(|&si| !self.g.edges[self.r.segs[si].edge].invisible && f(si))
    }

    /// A head lands on (or leaves) a box in gap `k`, next to layer k (upper) / k+1 (lower).
    pub(super) fn has_upper_head(&self, k: GapId) -> bool {
        let (g, r) = (self.g, self.r);
        self.any_seg(k, |si| {
            let s = &r.segs[si];
            s.first && upper_head(g, r, s.edge) != Head::None && upper_frame(g, r, s.edge).is_none()
        })
    }

    pub(super) fn has_lower_head(&self, k: GapId) -> bool {
        let (g, r) = (self.g, self.r);
        self.any_seg(k, |si| {
            let s = &r.segs[si];
            s.last && lower_head(g, r, s.edge) != Head::None && lower_frame(g, r, s.edge).is_none()
        })
    }

    /// An edge of gap `k` ends at a frame of depth `d` opening below the gap.
    pub(super) fn frame_head(&self, k: GapId, d: usize) -> bool {
        let (g, r) = (self.g, self.r);
        self.any_seg(k, |si| {
            let s = &r.segs[si];
            s.last && lower_frame(g, r, s.edge).is_some_and(|c| g.cluster_depth(c) == d)
        })
    }

    /// An edge of gap `k` with a tail head leaves a frame of depth `d` closing above the gap.
    pub(super) fn frame_tail(&self, k: GapId, d: usize) -> bool {
        let (g, r) = (self.g, self.r);
        self.any_seg(k, |si| {
            let s = &r.segs[si];
            s.first
                && upper_head(g, r, s.edge) != Head::None
                && upper_frame(g, r, s.edge).is_some_and(|c| g.cluster_depth(c) == d)
        })
    }

    /// Rows under the top borders of the frames of depth `d` opening before layer `l`
    /// for their titles' second and later lines.
    fn title_rows(&self, l: usize, d: usize) -> usize {
        self.g
            .clusters
            .ids()
            .filter(|&c| self.c_lo[c] == l && self.g.cluster_depth(c) == d)
            .map(|c| self.titles[c].len().saturating_sub(1))
            .max()
            .unwrap_or(0)
    }

    /// Phase 6: main positions of bands, gaps and frame borders.
    pub(super) fn main_positions(&mut self) {
        let (g, r) = (self.g, self.r);
        let layers = r.layers.len();
        self.band_size = r
            .layers
            .iter()
            .map(|l| l.iter().map(|&i| self.msize[i]).max().unwrap_or(1))
            .collect();
        if self.horizontal {
            // LR: a frame spans from its open slot to its close slot; make sure the title fits.
            for c in g.clusters.ids() {
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
            main += 1 + self.title_rows(0, d);
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
            let k = GapId::below(l);
            let start = main;
            main += usize::from(self.has_upper_head(k));
            for &d in &self.closes[l] {
                self.close_row[l].push((d, main));
                main += 1 + usize::from(self.frame_tail(k, d));
            }
            // LR: one shaft cell before the first turn keeps turns off the box corners
            if self.horizontal && self.gap_tracks[k] > 0 {
                main += 1;
            }
            let track0 = main;
            main += self.gap_tracks[k];
            let label0 = main;
            main += self.gap_label_len[k];
            let segs = &self.gap_segs[k];
            // a visible shaft cell (labels may cover a straight edge) so line kinds show
            let short_jog = segs
                .iter()
                .any(|&si| (self.ports[si].0 - self.ports[si].1).abs() == 1);
            if !self.horizontal && ((self.gap_tracks[k] == 0 && !segs.is_empty()) || short_jog) {
                main += 1;
            }
            // The part next to the lower layer: frame heads and borders, then box heads.
            let tail: usize = self.opens[l + 1]
                .iter()
                .map(|&d| 1 + usize::from(self.frame_head(k, d)) + self.title_rows(l + 1, d))
                .sum::<usize>()
                + usize::from(self.has_lower_head(k));
            // At least one shaft cell besides the head (two for dotted edges) so line kinds
            // stay visible.
            let dotted = self.any_seg(k, |si| g.edges[r.segs[si].edge].line == LineKind::Dotted);
            let min = if self.horizontal {
                3
            } else {
                2 + usize::from(dotted)
            };
            main = (main + tail).max(start + min);
            let mut row = main - tail;
            for &d in &self.opens[l + 1] {
                row += usize::from(self.frame_head(k, d));
                self.open_row[l + 1].push((d, row));
                row += 1 + self.title_rows(l + 1, d);
            }
            self.gaps[k] = Gap {
                end: main,
                track0,
                label0,
                label_len: self.gap_label_len[k],
            };
        }
        self.main_total = main;
    }

    /// Phase 7: frame rectangles, innermost first so outer ones can include them; each
    /// title on the top border, clear of the edges that cross it. `false` when a frame had
    /// to be widened for its title (the cross placement must then run again).
    pub(super) fn frames(&mut self, widen_for_labels: bool) -> bool {
        let g = self.g;
        let mut fits = true;
        self.frames = IdVec::new();
        let margin = frame_margin(self.horizontal) as i64;
        let mut order: Vec<ClusterId> = g
            .clusters
            .ids()
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
            for (i, path) in self.paths.iter_enumerated() {
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
            let (left, right) = self.label_room[c];
            let (c0, mut c1) = (c0 - margin - left, c1 + margin + right);
            let mut title_at = c0 + 2;
            if let Some((lo, hi)) = self.inner_labels(c) {
                // a label that would lie on or past the border: room for it next time
                let (out_left, out_right) = (c0 + 1 - lo, hi + 1 - c1);
                if widen_for_labels && (out_left > 0 || out_right > 0) {
                    let room = &mut self.label_room[c];
                    room.0 += out_left.max(0);
                    room.1 += out_right.max(0);
                    fits = false;
                }
            }
            if !self.horizontal {
                c1 = c1.max(c0 + self.min_w[c]);
                // Edges crossing the top border: keep the title between them.
                let crossing: Vec<i64> = GapId::above(lo)
                    .into_iter()
                    .flat_map(|k| &self.gap_segs[k])
                    .filter(|&&si| {
                        let s = &self.r.segs[si];
                        self.paths[s.lower].contains(&c) && !self.paths[s.upper].contains(&c)
                    })
                    .map(|&si| self.ports[si].1)
                    .collect();
                let place = |title_w: i64| {
                    let mut at = c0 + 2;
                    while crossing.iter().any(|&x| x >= at - 1 && x <= at + title_w) {
                        at += 1;
                    }
                    at
                };
                // A title wrapped narrower than its frame turned out takes fewer lines
                // where it fits as it is (the rows are laid out again).
                let room = (c1 - c0 - 4).max(0) as usize;
                if self.titles[c].len() > 1 && room > max_width(&self.titles[c]) {
                    let wider = wrap(&g.clusters[c].title, room);
                    let wider_w = max_width(&wider) as i64 + 2;
                    if wider.len() < self.titles[c].len() && place(wider_w) + wider_w <= c1 {
                        self.titles[c] = wider;
                        fits = false;
                    }
                }
                let mut title_w = max_width(&self.titles[c]) as i64 + 2;
                title_at = place(title_w);
                if title_at + title_w > c1
                    && let Some(narrower) = self.narrower_title(c, &place, title_at + title_w)
                {
                    self.titles[c] = narrower;
                    title_w = max_width(&self.titles[c]) as i64 + 2;
                    title_at = place(title_w);
                    fits = false;
                }
                if title_at + title_w > c1 {
                    self.min_w[c] = self.min_w[c].max(title_at + title_w - c0);
                    fits = false;
                }
            }
            let frame = self.frames.push(Frame {
                cluster: c,
                main0,
                main1,
                cross0: c0,
                cross1: c1,
                title_at,
                title: self.titles[c].clone(),
            });
            self.frame_of[c] = Some(frame);
        }
        fits
    }

    /// TD, past the natural stage: cluster `c`'s title wrapped narrower when edges crossing
    /// the top border push it so far right that its frame would grow: the wrap that ends
    /// nearest the left (fewest lines on a tie, four at most), if it ends before `end`.
    /// `place` finds where a title that wide starts. Broken at spaces, inside a word only
    /// at the narrowest stage, as the title was.
    fn narrower_title(
        &self,
        c: ClusterId,
        place: &dyn Fn(i64) -> i64,
        end: i64,
    ) -> Option<Vec<String>> {
        if self.p.wrap == usize::MAX {
            return None;
        }
        let title = &self.g.clusters[c].title;
        let widest_word = title.split(' ').map(display_width).max().unwrap_or(0);
        let floor = if self.p.wrap <= super::TITLE_WORDS_BREAK {
            1
        } else {
            widest_word
        };
        let mut best: Option<(i64, Vec<String>)> = None;
        for max in (floor..max_width(&self.titles[c])).rev() {
            let lines = wrap(title, max);
            if lines.len() > TITLE_LINES_MOST {
                break;
            }
            let w = max_width(&lines) as i64 + 2;
            let ends = place(w) + w;
            if ends < end && best.as_ref().is_none_or(|b| ends < b.0) {
                best = Some((ends, lines));
            }
        }
        best.map(|b| b.1)
    }

    /// The cross range (first and last cell) the planned labels of the edges inside
    /// cluster `c` take, TD a blank cell each side; `None` when there are none. Left to
    /// right, a label of several lines stands over its edge (its last line on it), so it
    /// needs rows above the edge; one line lies on the edge itself.
    fn inner_labels(&self, c: ClusterId) -> Option<(i64, i64)> {
        let (g, r) = (self.g, self.r);
        let inside = |si: SegId| {
            let s = &r.segs[si];
            self.paths[s.upper].contains(&c)
                && self.paths[s.lower].contains(&c)
                && !(s.first && upper_frame(g, r, s.edge).is_some())
                && !(s.last && lower_frame(g, r, s.edge).is_some())
        };
        r.segs
            .ids()
            .filter(|&si| inside(si))
            .filter_map(|si| {
                let lines = &self.edge_labels[r.segs[si].edge];
                let beside = |cross: i64, w: usize| (cross - 1, cross + w as i64);
                match self.label_at[si]? {
                    LabelAt::Rows { cross, .. } => Some(beside(cross, max_width(lines))),
                    LabelAt::OnTrack { cross } => {
                        Some(beside(cross, display_width(&lines.join(" "))))
                    }
                    LabelAt::InGap if lines.len() > 1 => {
                        // a row under a border reads well: no blank one
                        let edge = self.ports[si].1;
                        Some((edge + 1 - lines.len() as i64, edge))
                    }
                    LabelAt::InGap | LabelAt::Marker => None,
                }
            })
            .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
    }
}
