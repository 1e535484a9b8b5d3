//! Phase 4 of a plan: channel tracks and label slots in every gap between two layers.

use super::{Builder, Routing};
use crate::graph::ids::SegId;
use crate::graph::route::{LabelAt, assign_tracks, place_labels_td};

impl Builder<'_> {
    /// The segment that carries an edge's label: the one at the edge's source.
    pub(super) fn label_seg(&self, si: SegId) -> bool {
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
    pub(super) fn route_gaps(&mut self, markers: bool) -> Result<(), Routing> {
        self.tracks.fill(None);
        self.label_at.fill(None);
        for k in self.gap_segs.ids() {
            let segs = &self.gap_segs[k];
            self.gap_tracks[k] =
                assign_tracks(segs, &self.ports, &mut self.tracks).map_err(Routing::Edges)?;
            let labelled: Vec<SegId> = segs
                .iter()
                .copied()
                .filter(|&si| self.label_seg(si))
                .collect();
            if self.horizontal {
                self.gap_label_len[k] = self.label_len_lr(k);
                for &si in &labelled {
                    self.label_at[si] = Some(LabelAt::InGap);
                }
            } else {
                let labels: Vec<(SegId, &Vec<String>)> = labelled
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
}
