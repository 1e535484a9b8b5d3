//! Geometry of the layered layout on a character grid, in (main, cross) coordinates:
//! main runs along the flow (rows for TD, columns for LR), cross across it.
//! Cross positions, ports, channel tracks in every gap between layers, label slots,
//! subgraph frames.

use crate::mermaid::glyphs::Head;
use crate::mermaid::graph::cross::{cross_positions, resolve_frames};
use crate::mermaid::graph::model::{Graph, Shape};
use crate::mermaid::graph::rank::Ranked;
use crate::mermaid::graph::route::{assign_tracks, place_labels_td};
use crate::mermaid::graph::shapes::{self, NodeText};
use crate::mermaid::text::{display_width, max_width, wrap_all};

/// Layout knobs for one fitting stage.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// spacing between neighbours in a layer
    pub sep: usize,
    /// wrap width for labels (`usize::MAX`: none)
    pub wrap: usize,
    /// distance between ports on a TD box side (wider leaves room for labels)
    pub spread: usize,
}

/// Slots of one gap between layer k and k+1, as absolute main coordinates.
#[derive(Debug, Clone, Default)]
pub struct Gap {
    pub start: usize,
    pub end: usize,
    pub track0: usize,
    pub label0: usize,
    pub label_len: usize,
}

#[derive(Debug, Clone)]
pub struct Frame {
    pub cluster: usize,
    pub main0: usize,
    pub main1: usize,
    pub cross0: i64,
    pub cross1: i64,
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub horizontal: bool,
    pub texts: Vec<NodeText>,
    /// box size of each node in canvas terms (width, height)
    pub boxes: Vec<(usize, usize)>,
    pub cross: Vec<i64>,
    pub band_start: Vec<usize>,
    pub gaps: Vec<Gap>,
    /// per segment: (upper port, lower port) cross coordinates
    pub ports: Vec<(i64, i64)>,
    pub tracks: Vec<Option<usize>>,
    /// per segment: label row offset inside its gap (TD) and its cross start;
    /// row offset `ON_TRACK` puts the label on the segment's own track
    pub label_at: Vec<Option<(usize, i64)>>,
    pub edge_labels: Vec<Vec<String>>,
    pub frames: Vec<Frame>,
    pub main_total: usize,
}

/// Marker row offset: the label sits on the edge's own horizontal track.
pub const ON_TRACK: usize = usize::MAX;

/// Cross margin a subgraph frame takes on each side of its content.
pub fn frame_margin(horizontal: bool) -> usize {
    if horizontal { 1 } else { 2 }
}

fn upper_head(g: &Graph, r: &Ranked, edge: usize) -> Head {
    let e = &g.edges[edge];
    if r.reversed[edge] { e.head } else { e.tail }
}

fn lower_head(g: &Graph, r: &Ranked, edge: usize) -> Head {
    let e = &g.edges[edge];
    if r.reversed[edge] { e.tail } else { e.head }
}

/// Compute the whole geometry; `Err` when something cannot be placed without overlap.
pub fn plan(g: &Graph, r: &Ranked, p: Params) -> Result<Plan, String> {
    let horizontal = g.direction.horizontal();
    let texts: Vec<NodeText> = g
        .nodes
        .iter()
        .map(|n| NodeText {
            shape: n.shape,
            label: wrap_all(&n.label, p.wrap),
            sections: n
                .sections
                .iter()
                .map(|s| wrap_all(s, p.wrap.saturating_add(4)))
                .collect(),
        })
        .collect();
    let edge_labels: Vec<Vec<String>> =
        g.edges.iter().map(|e| wrap_all(&e.label, p.wrap)).collect();
    let n_items = r.items.len();
    // Ports per item side: A faces the previous layer, B the next.
    let mut side_a: Vec<Vec<usize>> = vec![Vec::new(); n_items];
    let mut side_b: Vec<Vec<usize>> = vec![Vec::new(); n_items];
    for (si, s) in r.segs.iter().enumerate() {
        side_b[s.upper].push(si);
        side_a[s.lower].push(si);
    }
    let spacing: usize = if horizontal { 1 } else { p.spread.max(2) };
    let mut boxes = vec![(1usize, 1usize); g.nodes.len()];
    let mut csize = vec![1usize; n_items];
    let mut msize = vec![1usize; n_items];
    let mut loop_of = vec![None; g.nodes.len()];
    for &e in &r.loops {
        let n = g.edges[e].from;
        if loop_of[n].is_some() {
            return Err("two self-loops on one node".into());
        }
        loop_of[n] = Some(e);
    }
    for (i, it) in r.items.iter().enumerate() {
        let Some(n) = it.node else { continue };
        let (mut w, mut h) = shapes::size(&texts[n]);
        let k = side_a[i].len().max(side_b[i].len());
        let point = matches!(texts[n].shape, Shape::Start | Shape::End | Shape::Bar);
        let need = if point {
            (k.max(1) - 1) * spacing + 1
        } else {
            (k.max(1) - 1) * spacing + 3
        };
        let loop_w = loop_of[n].map(|e| max_width(&edge_labels[e]));
        if horizontal {
            h = h.max(need);
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
        boxes[n] = (w, h);
        let (cs, ms) = if horizontal { (h, w) } else { (w, h) };
        csize[i] = cs;
        msize[i] = ms;
        if let Some(lw) = loop_w {
            if horizontal {
                csize[i] += 2;
                msize[i] = msize[i].max(5 + lw + usize::from(lw > 0));
            } else {
                csize[i] += 3 + if lw > 0 { lw + 1 } else { 0 };
            }
        }
    }
    let paths: Vec<Vec<usize>> = r
        .items
        .iter()
        .map(|it| g.cluster_path(it.cluster))
        .collect();
    let margin = frame_margin(horizontal) as i64;
    let sep_between = |a: usize, b: usize| -> i64 {
        let common = paths[a]
            .iter()
            .zip(&paths[b])
            .take_while(|(x, y)| x == y)
            .count();
        let frames = (paths[a].len() - common) + (paths[b].len() - common);
        let sep = if horizontal {
            (p.sep / 4).max(1)
        } else {
            p.sep
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
    };
    let cross = cross_positions(r, &csize, &sep_between);
    let mut cross = cross;
    resolve_frames(g, r, &mut cross, &csize, &paths, margin, horizontal)?;
    // Ports.
    let center = |i: usize, cross: &[i64]| cross[i] + (csize[i] as i64 - 1) / 2;
    let mut ports = vec![(0i64, 0i64); r.segs.len()];
    for i in 0..n_items {
        let (lo, hi) = port_range(r, &texts, &boxes, i, &cross, horizontal);
        for (side, list) in [(0, &side_a[i]), (1, &side_b[i])] {
            let mut list: Vec<usize> = list.clone();
            list.sort_by_key(|&si| {
                let s = &r.segs[si];
                let other = if side == 0 { s.upper } else { s.lower };
                (center(other, &cross), s.edge)
            });
            let k = list.len() as i64;
            if k == 0 {
                continue;
            }
            let span = (k - 1) * spacing as i64;
            let start = lo + ((hi - lo) - span).max(0) / 2;
            for (j, &si) in list.iter().enumerate() {
                let pos = (start + j as i64 * spacing as i64).min(hi);
                if side == 0 {
                    ports[si].1 = pos;
                } else {
                    ports[si].0 = pos;
                }
            }
        }
    }
    // Tracks and labels, gap by gap.
    let layers = r.layers.len();
    let mut tracks = vec![None; r.segs.len()];
    let mut gap_tracks = vec![0usize; layers.saturating_sub(1)];
    let mut gap_segs: Vec<Vec<usize>> = vec![Vec::new(); layers.saturating_sub(1)];
    for (si, s) in r.segs.iter().enumerate() {
        gap_segs[r.items[s.upper].layer].push(si);
    }
    for (k, segs) in gap_segs.iter().enumerate() {
        gap_tracks[k] = assign_tracks(segs, &ports, &mut tracks)?;
    }
    let label_seg = |si: usize| {
        let s = &r.segs[si];
        let e = &g.edges[s.edge];
        // next to the edge's source: the first piece, or the last one of a reversed edge
        let at_source = if r.reversed[s.edge] { s.last } else { s.first };
        !edge_labels[s.edge].is_empty() && !e.invisible && at_source
    };
    let mut label_at = vec![None; r.segs.len()];
    let mut gap_label_len = vec![0usize; layers.saturating_sub(1)];
    for (k, segs) in gap_segs.iter().enumerate() {
        if horizontal {
            let w = segs
                .iter()
                .filter(|&&si| label_seg(si))
                .map(|&si| max_width(&edge_labels[r.segs[si].edge]))
                .max()
                .unwrap_or(0);
            gap_label_len[k] = if w > 0 { w + 2 } else { 2 };
            for &si in segs.iter().filter(|&&si| label_seg(si)) {
                label_at[si] = Some((0, 0));
            }
        } else {
            gap_label_len[k] = place_labels_td(
                segs,
                &ports,
                &tracks,
                &|si| {
                    if label_seg(si) {
                        Some(&edge_labels[r.segs[si].edge])
                    } else {
                        None
                    }
                },
                &mut label_at,
            )?;
        }
    }
    // Frames: layer ranges, open/close slot counts.
    let mut c_lo = vec![usize::MAX; g.clusters.len()];
    let mut c_hi = vec![0usize; g.clusters.len()];
    for (i, it) in r.items.iter().enumerate() {
        for &c in &paths[i] {
            c_lo[c] = c_lo[c].min(it.layer);
            c_hi[c] = c_hi[c].max(it.layer);
        }
        let _ = i;
    }
    let depth_of = |c: usize| g.cluster_depth(c);
    // opens[l]: depths of frames opening right before layer l; closes[l]: after layer l
    let mut opens: Vec<Vec<usize>> = vec![Vec::new(); layers];
    let mut closes: Vec<Vec<usize>> = vec![Vec::new(); layers];
    for c in 0..g.clusters.len() {
        if c_lo[c] == usize::MAX {
            continue;
        }
        let d = depth_of(c);
        if !opens[c_lo[c]].contains(&d) {
            opens[c_lo[c]].push(d);
        }
        if !closes[c_hi[c]].contains(&d) {
            closes[c_hi[c]].push(d);
        }
    }
    for v in opens.iter_mut().chain(closes.iter_mut()) {
        v.sort_unstable();
    }
    // Band sizes (LR: widen for frame titles).
    let mut band_size: Vec<usize> = r
        .layers
        .iter()
        .map(|l| l.iter().map(|&i| msize[i]).max().unwrap_or(1))
        .collect();
    // Main positions.
    let has_upper_head = |k: usize| {
        gap_segs[k].iter().any(|&si| {
            r.segs[si].first
                && upper_head(g, r, r.segs[si].edge) != Head::None
                && !g.edges[r.segs[si].edge].invisible
        })
    };
    let has_lower_head = |k: usize| {
        gap_segs[k].iter().any(|&si| {
            r.segs[si].last
                && lower_head(g, r, r.segs[si].edge) != Head::None
                && !g.edges[r.segs[si].edge].invisible
        })
    };
    if horizontal {
        for c in 0..g.clusters.len() {
            if c_lo[c] == usize::MAX {
                continue;
            }
            // frame spans from its open slot to its close slot; make sure the title fits
            let need = display_width(&g.clusters[c].title) + 5;
            let have: usize = (c_lo[c]..=c_hi[c]).map(|l| band_size[l]).sum::<usize>() + 2;
            if need > have {
                band_size[c_hi[c]] += need - have;
            }
        }
    }
    let mut band_start = vec![0usize; layers];
    let mut gaps = vec![Gap::default(); layers.saturating_sub(1)];
    let mut main = opens.first().map_or(0, Vec::len);
    for l in 0..layers {
        band_start[l] = main;
        main += band_size[l];
        if l + 1 < layers {
            let start = main;
            main += usize::from(has_upper_head(l));
            main += closes[l].len();
            let track0 = main;
            main += gap_tracks[l];
            let label0 = main;
            main += gap_label_len[l];
            // a visible shaft cell (labels may cover a straight edge) so line kinds show
            let short_jog = gap_segs[l]
                .iter()
                .any(|&si| (ports[si].0 - ports[si].1).abs() == 1);
            if !horizontal && ((gap_tracks[l] == 0 && !gap_segs[l].is_empty()) || short_jog) {
                main += 1;
            }
            main += opens[l + 1].len();
            main += usize::from(has_lower_head(l));
            // at least one shaft cell besides the head, so dotted and thick stay visible
            if main - start < 2 {
                main = start + 2;
            }
            if horizontal && main - start < 3 {
                main = start + 3;
            }
            gaps[l] = Gap {
                start,
                end: main,
                track0,
                label0,
                label_len: gap_label_len[l],
            };
        }
    }
    main += closes.last().map_or(0, Vec::len);
    let main_total = main;
    // Frames, innermost first so outer ones can include them.
    let mut order: Vec<usize> = (0..g.clusters.len())
        .filter(|&c| c_lo[c] != usize::MAX)
        .collect();
    order.sort_by_key(|&c| std::cmp::Reverse(depth_of(c)));
    let mut frames: Vec<Frame> = Vec::new();
    for c in order {
        let (lo, hi) = (c_lo[c], c_hi[c]);
        let d = depth_of(c);
        let open_slot = opens[lo].iter().position(|&x| x == d).unwrap_or(0);
        let close_slot = closes[hi].iter().rev().position(|&x| x == d).unwrap_or(0);
        let main0 = if lo == 0 {
            open_slot
        } else {
            gaps[lo - 1].end - usize::from(has_lower_head(lo - 1)) - opens[lo].len() + open_slot
        };
        let main1 = if hi + 1 == layers {
            band_start[hi] + band_size[hi] + close_slot
        } else {
            gaps[hi].start + usize::from(has_upper_head(hi)) + close_slot
        };
        let mut c0 = i64::MAX;
        let mut c1 = i64::MIN;
        for (i, path) in paths.iter().enumerate() {
            if path.contains(&c) {
                c0 = c0.min(cross[i]);
                c1 = c1.max(cross[i] + csize[i] as i64 - 1);
            }
        }
        for f in &frames {
            if g.cluster_path(Some(f.cluster)).contains(&c) && f.cluster != c {
                c0 = c0.min(f.cross0);
                c1 = c1.max(f.cross1);
            }
        }
        let (c0, mut c1) = (c0 - margin, c1 + margin);
        if !horizontal {
            c1 = c1.max(c0 + display_width(&g.clusters[c].title) as i64 + 4);
        }
        frames.push(Frame {
            cluster: c,
            main0,
            main1,
            cross0: c0,
            cross1: c1,
        });
    }
    Ok(Plan {
        horizontal,
        texts,
        boxes,
        cross,
        band_start,
        gaps,
        ports,
        tracks,
        label_at,
        edge_labels,
        frames,
        main_total,
    })
}

/// Cross range (inclusive) where ports may sit on an item.
fn port_range(
    r: &Ranked,
    texts: &[NodeText],
    boxes: &[(usize, usize)],
    i: usize,
    cross: &[i64],
    horizontal: bool,
) -> (i64, i64) {
    let c = cross[i];
    match r.items[i].node {
        None => (c, c),
        Some(n) => {
            let (w, h) = boxes[n];
            let len = if horizontal { h } else { w } as i64;
            if matches!(texts[n].shape, Shape::Start | Shape::End | Shape::Bar) {
                (c, c + len - 1)
            } else {
                (c + 1, c + len - 2)
            }
        }
    }
}
