//! Routing inside a gap between two layers: channel tracks for bending edges and label
//! slots, chosen so that no two edges can be confused.

use crate::graph::ids::{IdVec, SegId};
use crate::text::max_width;

/// Where an edge label goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelAt {
    /// TD: in the gap's label rows, `row` rows down, starting at cross position `cross`
    Rows { row: usize, cross: i64 },
    /// TD: on the segment's own horizontal track, starting at `cross`
    OnTrack { cross: i64 },
    /// LR: in the gap's label columns, over the segment's lower port
    InGap,
    /// no room beside the edge: a footnote marker on the edge, the label under the drawing
    Marker,
}

/// Give every bending segment in a gap its own channel row/column without ambiguity.
pub fn assign_tracks(
    segs: &[SegId],
    ports: &IdVec<SegId, (i64, i64)>,
    tracks: &mut IdVec<SegId, Option<usize>>,
) -> Result<usize, String> {
    let mut bent: Vec<SegId> = segs
        .iter()
        .copied()
        .filter(|&s| ports[s].0 != ports[s].1)
        .collect();
    bent.sort_by_key(|&s| (ports[s].0.min(ports[s].1), ports[s].0.max(ports[s].1)));
    for &s in segs.iter().filter(|&&s| ports[s].0 == ports[s].1) {
        let x = ports[s].0;
        if segs
            .iter()
            .any(|&f| f != s && (ports[f].1 == x || ports[f].0 == x))
        {
            return Err("edges would overlap".into());
        }
    }
    // `e` leaves at the column where `f` arrives: `e` must turn on a track above `f`'s.
    let before = |e: SegId, f: SegId| ports[e].0 == ports[f].1;
    for (i, &e) in bent.iter().enumerate() {
        for &f in &bent[i + 1..] {
            if ports[e].0 == ports[f].0 || ports[e].1 == ports[f].1 {
                // shared port: only possible when ports ran out of room
                return Err("edges share a port".into());
            }
        }
    }
    let mut assigned: Vec<(SegId, usize)> = Vec::new();
    let mut left = bent;
    while !left.is_empty() {
        // the first (in cross order) whose predecessors all have their tracks
        let k = left
            .iter()
            .position(|&e| !left.iter().any(|&f| f != e && before(f, e)))
            .ok_or("edges wait on each other's channels")?;
        let e = left.remove(k);
        let (ea, eb) = ports[e];
        let (e0, e1) = (ea.min(eb), ea.max(eb));
        let lowest = assigned
            .iter()
            .filter(|&&(f, _)| before(f, e))
            .map(|&(_, tf)| tf + 1)
            .max()
            .unwrap_or(0);
        // one of as many tracks as there are assigned segments is free
        let t = (lowest..=lowest + assigned.len())
            .find(|&t| {
                assigned.iter().all(|&(f, tf)| {
                    let (fa, fb) = ports[f];
                    let (f0, f1) = (fa.min(fb), fa.max(fb));
                    tf != t || e1 + 1 < f0 || f1 + 1 < e0
                })
            })
            .unwrap_or(lowest);
        tracks[e] = Some(t);
        assigned.push((e, t));
    }
    Ok(assigned.iter().map(|a| a.1 + 1).max().unwrap_or(0))
}

/// TD labels: rows under the tracks, each label on or beside its edge's last vertical.
/// `labels` pairs a segment with its label. Returns the number of label rows, `None` when a
/// label has no room beside its edge (unless `markers`: then that label becomes a footnote).
pub fn place_labels_td(
    segs: &[SegId],
    labels: &[(SegId, &Vec<String>)],
    ports: &IdVec<SegId, (i64, i64)>,
    tracks: &IdVec<SegId, Option<usize>>,
    label_at: &mut IdVec<SegId, Option<LabelAt>>,
    markers: bool,
) -> Option<usize> {
    // Every segment's lower vertical passes through all label rows.
    let verticals: Vec<(SegId, i64)> = segs.iter().map(|&s| (s, ports[s].1)).collect();
    let mut placed: Vec<(usize, usize, i64, i64)> = Vec::new(); // (row0, rows, c0, c1)
    let mut rows_used = 0usize;
    let mut order: Vec<(SegId, &Vec<String>)> = labels.to_vec();
    order.sort_by_key(|&(s, _)| ports[s].1);
    for (s, lines) in order {
        let w = max_width(lines) as i64;
        let nl = lines.len();
        let (a, b) = ports[s];
        // On its own track when the horizontal run is long enough.
        if nl == 1 && tracks[s].is_some() && (a - b).abs() >= w + 3 {
            let cross = a.min(b) + ((a - b).abs() - w + 1) / 2;
            label_at[s] = Some(LabelAt::OnTrack { cross });
            continue;
        }
        let candidates = [b - w / 2, b + 2, b - 1 - w, b + 3, b - 2 - w];
        // A label beside its edge keeps two cells from any other line on its far side, so
        // it cannot be read as that line's. (A label over its own line keeps two cells on
        // both sides.) The lines run through every label row: checked once per candidate.
        let clear_of_lines = candidates.map(|c0| {
            let c1 = c0 + w - 1;
            let (reach0, reach1) = if c1 < b {
                (c0 - 2, c1 + 1)
            } else if c0 > b {
                (c0 - 1, c1 + 2)
            } else {
                (c0 - 2, c1 + 2)
            };
            // its own line it may cover, not touch
            !verticals.iter().any(|&(f, x)| {
                if f == s {
                    x == c0 - 1 || x == c1 + 1
                } else {
                    x >= reach0 && x <= reach1
                }
            })
        });
        let mut done = false;
        if clear_of_lines.contains(&true) {
            'rows: for row in 0..24usize {
                for (&c0, _) in candidates.iter().zip(clear_of_lines).filter(|(_, ok)| *ok) {
                    let c1 = c0 + w - 1;
                    let hits_label = placed.iter().any(|&(r0, n, p0, p1)| {
                        row < r0 + n && r0 < row + nl && !(c1 + 1 < p0 || p1 + 1 < c0)
                    });
                    if !hits_label {
                        placed.push((row, nl, c0, c1));
                        label_at[s] = Some(LabelAt::Rows { row, cross: c0 });
                        rows_used = rows_used.max(row + nl);
                        done = true;
                        break 'rows;
                    }
                }
            }
        }
        if !done {
            if !markers {
                return None;
            }
            label_at[s] = Some(LabelAt::Marker);
        }
    }
    Some(rows_used)
}
