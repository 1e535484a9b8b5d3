//! Flowcharts, state and class diagrams: one graph model, one layered layout, drawn on a
//! character grid; a compact edge list when the drawing cannot fit.

mod align;
mod compact;
mod cross;
mod cycles;
mod detour;
mod draw;
mod ids;
mod items;
mod layout;
mod legend;
mod memo;
mod model;
mod parse_class;
mod parse_flowchart;
mod parse_state;
mod plane;
mod rank;
mod refs;
mod regions;
mod route;
mod shapes;
mod work;

use std::borrow::Cow;
use std::cell::OnceCell;
use std::rc::Rc;

use crate::style::{Line, Style};
use crate::{Form, Output, RegionLayout, RenderOptions, Want};
use ids::{IdVec, ItemId};
use model::Graph;

pub fn render_flowchart(
    header: &str,
    body: &str,
    opts: &RenderOptions,
    want: Want,
) -> Result<Output, String> {
    let g = parse_flowchart::parse(header, body)?;
    Ok(render_graph(&g, opts, want))
}

pub fn render_state(body: &str, opts: &RenderOptions, want: Want) -> Result<Output, String> {
    let g = parse_state::parse(body)?;
    Ok(render_graph(&g, opts, want))
}

/// What a flowchart says, item by item (see [`crate::items`]).
pub fn flowchart_items(header: &str, body: &str) -> Result<Vec<crate::items::Item>, String> {
    Ok(items::items(&parse_flowchart::parse(header, body)?))
}

/// What a state diagram says, item by item.
pub fn state_items(body: &str) -> Result<Vec<crate::items::Item>, String> {
    Ok(items::items(&parse_state::parse(body)?))
}

/// What a class diagram says, item by item.
pub fn class_items(body: &str) -> Result<Vec<crate::items::Item>, String> {
    Ok(items::items(&parse_class::parse(body)?))
}

/// The drawing of a flowchart, state or class diagram (by `kind`) with the labels of its
/// items `differing` in stand-in letters, or their edges in another line (see
/// [`items::with_stand_ins`]); `None` when it is no graph or none of them is drawn so.
pub(crate) fn drawn_with_stand_ins(
    kind: crate::DiagramKind,
    header: &str,
    body: &str,
    differing: &[&str],
    shown: crate::compare::Shown,
    opts: &RenderOptions,
    want: Want,
) -> Option<Vec<Line>> {
    let g = match kind {
        crate::DiagramKind::Flowchart => parse_flowchart::parse(header, body),
        crate::DiagramKind::State => parse_state::parse(body),
        crate::DiagramKind::Class => parse_class::parse(body),
        _ => return None,
    }
    .ok()?;
    let g = items::with_stand_ins(&g, differing, shown)?;
    Some(render_graph(&g, opts, want).lines)
}

pub fn render_class(body: &str, opts: &RenderOptions, want: Want) -> Result<Output, String> {
    let g = parse_class::parse(body)?;
    Ok(render_graph(&g, opts, want))
}

/// A subgraph with no member has no frame to draw.
fn has_empty_cluster(g: &Graph) -> bool {
    g.clusters.ids().any(|c| {
        !g.nodes
            .iter()
            .any(|n| g.cluster_path(n.cluster).contains(&c))
    })
}

/// The drawing, or the compact list when no stage fits.
pub fn render_graph(g: &Graph, opts: &RenderOptions, want: Want) -> Output {
    if want != Want::Compact
        && let Some((lines, dir, regions)) = draw_regions_fitted(g, opts, want)
    {
        return Output {
            lines,
            form: Form::Drawing,
            turned: dir != g.direction,
            across: dir.horizontal(),
            regions,
        };
    }
    let mut lines = compact::render(g, opts.width, opts.ascii);
    if lines.is_empty() {
        lines.push(Line::styled("(empty diagram)", Style::Dim));
    }
    Output {
        lines,
        form: Form::Compact,
        turned: false,
        across: false,
        regions: RegionLayout::None,
    }
}

/// Like [`draw_fitted`], and when concurrent regions side by side do not fit, the regions
/// stacked: in the graph's own direction first, either way, before it is turned (stacked
/// only, when sibling options had to be). Also says how the regions were laid out.
fn draw_regions_fitted(
    g: &Graph,
    opts: &RenderOptions,
    want: Want,
) -> Option<(Vec<Line>, model::Direction, RegionLayout)> {
    let unstacked = match want {
        Want::StackedOwn => Want::Own,
        Want::StackedTurned => Want::Turned,
        other => other,
    };
    // each graph prepared once for every direction asked (when asked at all)
    let own = OnceCell::new();
    let fitted = |want| draw_fitted(own.get_or_init(|| Prepared::new(g)).as_ref()?, opts, want);
    let Some(stacked) = regions::stacked(g) else {
        return fitted(unstacked).map(|(l, d)| (l, d, RegionLayout::None));
    };
    let stacked_prep = OnceCell::new();
    let beside = |want| fitted(want).map(|(l, d)| (l, d, RegionLayout::Beside));
    let stack = |want| {
        let prep = stacked_prep.get_or_init(|| Prepared::new(&stacked));
        draw_fitted(prep.as_ref()?, opts, want).map(|(l, d)| (l, d, RegionLayout::Stacked))
    };
    let both = |want| beside(want).or_else(|| stack(want));
    match want {
        Want::Best => both(Want::Own).or_else(|| both(Want::Turned)),
        Want::StackedOwn | Want::StackedTurned => stack(unstacked),
        _ => both(want),
    }
}

/// Layout knobs in the order they are tried: natural spacing, tight spacing, then labels
/// wrapped narrower and narrower. The graph's own direction first; when nothing fits, the
/// same graph turned a quarter (LR drawn top-down, TD left to right).
fn stages(g: &Graph, big: bool) -> Vec<layout::Params> {
    let widest = g
        .nodes
        .iter()
        .flat_map(|n| n.label.iter().chain(n.sections.iter().flatten()))
        .chain(g.edges.iter().flat_map(|e| e.label.iter()))
        .chain(g.notes.iter().flat_map(|n| n.text.iter()))
        .chain(g.clusters.iter().map(|c| &c.title))
        .map(|l| crate::text::display_width(l))
        .max()
        .unwrap_or(0);
    let mut out = Vec::new();
    let mut stage = |sep: usize, wrap: usize| {
        for spread in [2, 4] {
            out.push(layout::Params {
                sep,
                wrap,
                spread,
                widen: 0,
                aligned: None,
                inside: false,
                names: false,
            });
        }
    };
    stage(4, usize::MAX);
    stage(2, usize::MAX);
    for w in [30usize, 24, 18, 14] {
        if w < widest {
            stage(2, w);
        }
    }
    // Big graphs: one natural and one tight attempt keep the time bounded.
    if big {
        out.truncate(3);
    }
    out
}

/// A graph ready to lay out and the layerings its searches try: made once for the names
/// pass and every direction asked, which lay out the same layers.
struct Prepared<'g> {
    g: Cow<'g, Graph>,
    ranked: rank::Ranked,
    /// too many items for the slower attempts
    big: bool,
    /// back edges that skip layers round the outside (see [`Prepared::variants`])
    laned: Option<rank::Ranked>,
    longest: Option<rank::Ranked>,
    framed: Option<rank::Ranked>,
    far: Option<rank::Ranked>,
    /// (made only when asked for: most graphs fit before)
    lowered: OnceCell<Vec<rank::Ranked>>,
    split: OnceCell<Vec<rank::Ranked>>,
}

impl<'g> Prepared<'g> {
    fn new(g: &'g Graph) -> Option<Self> {
        let (g, ranked) = prepared(g)?;
        let big = ranked.items.len() > 300;
        // Back edges that skip layers taken out and routed round the outside (when they do
        // not all find a way, only those that skip two or more), else as they are; back
        // edges naming a flowchart's subgraph stay in the layers: as they are, and with
        // their dummies moved to the far side. Back edges inside a subgraph stay in its
        // frame, unless nothing else fits.
        let (laned, longest, framed) = if big {
            (None, None, None)
        } else {
            let all = rank::laned(&g, &ranked, 2, false);
            let longest = rank::laned(&g, &ranked, 3, false)
                .filter(|l| all.as_ref().is_some_and(|a| a.lanes.len() > l.lanes.len()));
            // the last resort: back edges inside a subgraph round the outside too
            let framed = rank::laned(&g, &ranked, 2, true)
                .filter(|f| all.as_ref().is_none_or(|a| a.lanes.len() < f.lanes.len()));
            (all, longest, framed)
        };
        let far = if big || laned.is_some() {
            None
        } else {
            rank::far_side(&ranked)
        };
        Some(Prepared {
            g,
            ranked,
            big,
            laned,
            longest,
            framed,
            far,
            lowered: OnceCell::new(),
            split: OnceCell::new(),
        })
    }

    /// The layerings tried for the first stages, in order.
    fn variants(&self) -> Vec<Variant<'_>> {
        let plain = |r| Variant { r, fallback: false };
        let fallback = |r| Variant { r, fallback: true };
        (self.laned.iter().map(plain))
            .chain(self.longest.iter().map(fallback))
            .chain(std::iter::once(plain(&self.ranked)))
            .chain(self.far.iter().map(plain))
            .chain(self.framed.iter().map(fallback))
            .collect()
    }
}

/// The graph ready to lay out: subgraph references resolved, layers ranked.
fn prepared(g: &Graph) -> Option<(Cow<'_, Graph>, rank::Ranked)> {
    work::count(|w| w.prepared += 1);
    if g.nodes.len() > 600 || has_empty_cluster(g) {
        return None;
    }
    let mut g: Cow<Graph> = match refs::resolve(g) {
        Ok(None) => Cow::Borrowed(g),
        Ok(Some(resolved)) => Cow::Owned(resolved),
        Err(()) => return None,
    };
    let mut ranked = rank::rank(&g);
    if g.edges
        .iter()
        .any(|e| e.from_frame.is_some() || e.to_frame.is_some())
    {
        // Frame ends sit on a member of the frame's first / last layer: move and re-rank.
        let mut settled = false;
        for _ in 0..3 {
            if !refs::settle(g.to_mut(), &ranked).ok()? {
                settled = true;
                break;
            }
            ranked = rank::rank(&g);
        }
        if !settled {
            return None;
        }
    }
    Some((g, ranked))
}

/// [`draw_fitted_with`] the stages of [`stages`], and when nothing fits, the whole search
/// again with node labels cut inside the names no wrap width breaks (the last resort).
fn draw_fitted(
    prep: &Prepared,
    opts: &RenderOptions,
    want: Want,
) -> Option<(Vec<Line>, model::Direction)> {
    let widths = memo::Widths::default();
    let texts = memo::Texts::default();
    let search = Search {
        g: &prep.g,
        opts,
        widths: &widths,
        texts: &texts,
    };
    draw_fitted_with(prep, &search, want, false)
        .or_else(|| draw_fitted_with(prep, &search, want, true))
}

/// The graph's own direction first; when nothing fits, turned a quarter (LR drawn
/// top-down, TD left to right). Returns the lines and whether they are turned. `names`:
/// the stages of [`names_cut`] (`None` when the graph has no name to cut).
fn draw_fitted_with<'a>(
    prep: &'a Prepared,
    search: &Search<'a, '_>,
    want: Want,
    names: bool,
) -> Option<(Vec<Line>, model::Direction)> {
    let (g, ranked, big) = (&prep.g, &prep.ranked, prep.big);
    let params = stages(g, big);
    let params = if names {
        Some(names_cut(g, &params)).filter(|named| !named.is_empty())?
    } else {
        params
    };
    let variants = prep.variants();
    // The last resort, top-down: the boxes lined up with their neighbours, so a chain of
    // decisions does not drift sideways (what draws without it draws as before); in long
    // blocks, then in pairs.
    let lined = |blocks| -> Vec<layout::Params> {
        let aligned = Some(blocks);
        params
            .iter()
            .map(|&p| layout::Params { aligned, ..p })
            .collect()
    };
    let (long, pairs) = (lined(align::Blocks::Long), lined(align::Blocks::Pairs));
    let first = |dir| search.first_fit(&variants, dir, &params);
    let lined_up = |dir: model::Direction| {
        let worth = !big && !dir.horizontal();
        worth.then(|| {
            search
                .first_fit(&variants, dir, &long)
                .or_else(|| search.first_fit(&variants, dir, &pairs))
        })?
    };
    // When nothing else fits: sinks moved down out of a layer wider than the next, their
    // back edges round the outside, else as they are. Then, only when the direction is
    // free (siblings asked to turn alike keep the drawings they had): sinks of the last
    // layer moved to a new one under it.
    let knobs = [&params[..], &long, &pairs];
    let lowered_in = |dir| {
        let rs = (prep.lowered).get_or_init(|| layerings(g, ranked, big, rank::lowered));
        search.first_fit_lined(&plain_variants(rs), dir, knobs)
    };
    let split_in = |dir| {
        let rs = (prep.split).get_or_init(|| layerings(g, ranked, big, rank::split_bottom));
        search.first_fit_lined(&plain_variants(rs), dir, knobs)
    };
    // The very last, top-down: frame members pulled only by their neighbours in the frame.
    let inside = pulled_inside(&params);
    let inside_in = |dir: model::Direction| {
        let worth = !big && !dir.horizontal() && !g.clusters.is_empty();
        worth.then(|| search.first_fit(&variants, dir, &inside))?
    };
    let fit = |dir| {
        first(dir)
            .or_else(|| lined_up(dir))
            .or_else(|| lowered_in(dir))
    };
    let own = g.direction;
    let (mut lines, dir) = if want == Want::Turned {
        (fit(own.turned())?, own.turned())
    } else if want == Want::Own {
        (fit(own)?, own)
    } else {
        // Turned only when the source's direction does not fit: a tall TB drawing that
        // fits stays top-down (it was turned at 160 columns, its siblings not).
        match first(own) {
            Some(lines) => (lines, own),
            None if big => return None,
            None => {
                let down = if own.horizontal() { own.turned() } else { own };
                let drawn = |lines: Option<Vec<Line>>, dir| lines.map(|l| (l, dir));
                drawn(first(own.turned()), own.turned())
                    .or_else(|| drawn(lined_up(down), down))
                    .or_else(|| drawn(lowered_in(own), own))
                    .or_else(|| (own != down).then(|| drawn(lowered_in(down), down))?)
                    .or_else(|| drawn(split_in(own), own))
                    .or_else(|| (own != down).then(|| drawn(split_in(down), down))?)
                    .or_else(|| drawn(inside_in(down), down))?
            }
        }
    };
    if dir != own {
        // Say the direction the picture runs in: `flowchart RL` turned runs bottom-up.
        lines.insert(0, Line::styled(turned_note(dir), Style::Dim));
    }
    let inner = inner_direction_notes(g, dir);
    let at = usize::from(dir != own);
    lines.splice(at..at, inner);
    lines.extend(legend::drawn(g, search.opts));
    Some((lines, dir))
}

/// A line for each subgraph written with a direction of its own across the one drawn:
/// a composite state's `direction LR` is drawn in the diagram's direction, and says so.
fn inner_direction_notes(g: &Graph, dir: model::Direction) -> Vec<Line> {
    g.inner_directions
        .iter()
        .filter(|(_, d)| d.horizontal() != dir.horizontal())
        .map(|&(c, _)| {
            let how = if dir.horizontal() {
                "left to right"
            } else {
                "top-down"
            };
            let title = &g.clusters[c].title;
            Line::styled(format!("{title} drawn {how} to fit"), Style::Dim)
        })
        .collect()
}

/// One way to lay a graph out, and whether it is only worth trying when no way before it
/// fitted.
struct Variant<'a> {
    r: &'a rank::Ranked,
    fallback: bool,
}

/// The wrapping stages again with node labels cut after the `_` and `-` inside names, when
/// a node's label has a word wider than the narrowest wrap with one inside (else none: a
/// graph whose names are short is not laid out twice).
fn names_cut(g: &Graph, params: &[layout::Params]) -> Vec<layout::Params> {
    let Some(narrowest) = params.iter().map(|p| p.wrap).min() else {
        return Vec::new();
    };
    let cuttable = g.nodes.iter().flat_map(|n| &n.label).any(|l| {
        l.split(' ')
            .any(|w| crate::text::display_width(w) > narrowest && w.contains(['_', '-']))
    });
    if !cuttable {
        return Vec::new();
    }
    params
        .iter()
        .filter(|p| p.wrap != usize::MAX)
        .map(|&p| layout::Params { names: true, ..p })
        .collect()
}

/// What a drawing turned to fit says of the direction it runs in.
fn turned_note(dir: model::Direction) -> &'static str {
    match dir {
        model::Direction::LeftRight => "drawn left to right to fit",
        model::Direction::RightLeft => "drawn right to left to fit",
        model::Direction::TopDown => "drawn top-down to fit",
        model::Direction::BottomUp => "drawn bottom-up to fit",
    }
}

/// The same stages with frame members pulled only by their neighbours inside the frame.
fn pulled_inside(params: &[layout::Params]) -> Vec<layout::Params> {
    params
        .iter()
        .map(|&p| layout::Params { inside: true, ..p })
        .collect()
}

/// The layerings `rank` makes of `r` (none for a big graph).
fn layerings(
    g: &Graph,
    r: &rank::Ranked,
    big: bool,
    rank: fn(&Graph, &rank::Ranked) -> Vec<rank::Ranked>,
) -> Vec<rank::Ranked> {
    if big { Vec::new() } else { rank(g, r) }
}

/// Each layering a variant of its own, none a fallback.
fn plain_variants(rs: &[rank::Ranked]) -> Vec<Variant<'_>> {
    rs.iter().map(|r| Variant { r, fallback: false }).collect()
}

/// One search for a graph's drawing: what every attempt in it shares.
struct Search<'a, 'w> {
    g: &'a Graph,
    opts: &'a RenderOptions,
    /// the least widths of the stages sized so far
    widths: &'w memo::Widths<'a>,
    /// the texts of each wrap tried so far
    texts: &'w memo::Texts,
}

impl<'a> Search<'a, '_> {
    /// [`Search::first_fit`] with the stages `knobs[0]`, then top-down with the boxes lined up in long
    /// blocks (`knobs[1]`), then in pairs (`knobs[2]`); `None` when there is no variant.
    fn first_fit_lined(
        &self,
        variants: &[Variant<'a>],
        dir: model::Direction,
        knobs: [&[layout::Params]; 3],
    ) -> Option<Vec<Line>> {
        if variants.is_empty() {
            return None;
        }
        let lined = !dir.horizontal();
        let with = |p: &[layout::Params]| self.first_fit(variants, dir, p);
        with(knobs[0])
            .or_else(|| lined.then(|| with(knobs[1]))?)
            .or_else(|| lined.then(|| with(knobs[2]))?)
    }

    /// The drawing in direction `dir` with the fewest crossings (the first variant on a tie),
    /// each variant at the first stage where it fits.
    fn first_fit(
        &self,
        variants: &[Variant<'a>],
        dir: model::Direction,
        params: &[layout::Params],
    ) -> Option<Vec<Line>> {
        // (footnotes, crossings): a label under the drawing is worse than a crossing
        let mut best: Option<((usize, usize), Vec<Line>)> = None;
        let mut spare = SPARE_DRAWS;
        for v in variants {
            if best.as_ref().is_some_and(|b| b.0 == (0, 0) || v.fallback) {
                continue;
            }
            // once a drawing has every label beside its edge, later variants compete with
            // their first stage that fits, as before footnotes counted
            let settled = best.as_ref().is_some_and(|b| b.0.0 == 0);
            // such a drawing is beaten only by one with fewer crossings
            if let Some(((0, crossings), _)) = best
                && least_crossings(self.g, v.r) >= crossings
            {
                continue;
            }
            if let Some((cost, lines)) = self.variant_fit(v.r, dir, params, settled, &mut spare)
                && best.as_ref().is_none_or(|b| cost < b.0)
            {
                best = Some((cost, lines));
            }
        }
        best.map(|b| b.1)
    }
}

/// The fewest cells where two edges cross in any drawing of layering `r`: the pairs of
/// segments, in each gap, whose ends are in opposite orders in the two layers. Why each
/// such pair crosses at a cell of its own: cross placement keeps each layer's items in
/// order and apart, so ports on distinct items keep their items' order; a segment runs
/// down from its upper port, along its track, down to its lower port, all within its
/// gap's rows, and every segment of the gap ends on the same row; two such paths with
/// their ends swapped meet, and a drawing where they meet at anything but one running
/// across the other (an overlap, a corner) fails. That cell holds the two edges, one
/// each way, and no other pair of them, and the gaps' rows are apart. Segments from or
/// to a frame's border, and of invisible edges, are not counted (not drawn between two
/// items' ports); neither are two from, or two to, one item (their ports may go either
/// way).
fn least_crossings(g: &Graph, r: &rank::Ranked) -> usize {
    let mut at: IdVec<ItemId, usize> = IdVec::filled(r.items.len(), 0);
    for layer in &r.layers {
        for (k, &i) in layer.iter().enumerate() {
            at[i] = k;
        }
    }
    let on_a_frame = |s: &rank::Seg| {
        (s.first && layout::upper_frame(g, r, s.edge).is_some())
            || (s.last && layout::lower_frame(g, r, s.edge).is_some())
    };
    let drawn_between_items = |s: &&rank::Seg| !g.edges[s.edge].invisible && !on_a_frame(s);
    let mut by_gap: Vec<Vec<&rank::Seg>> = vec![Vec::new(); r.layers.len()];
    for s in r.segs.iter().filter(drawn_between_items) {
        by_gap[r.items[s.upper].layer].push(s);
    }
    let swapped = |s: &rank::Seg, t: &rank::Seg| {
        s.upper != t.upper
            && s.lower != t.lower
            && (at[s.upper] < at[t.upper]) != (at[s.lower] < at[t.lower])
    };
    by_gap
        .iter()
        .map(|segs| {
            let pairs = segs.iter().enumerate();
            pairs
                .map(|(k, s)| segs[k + 1..].iter().filter(|t| swapped(s, t)).count())
                .sum::<usize>()
        })
        .sum()
}

/// Layouts tried, per direction, past a drawing that fits with footnotes to find one
/// without (each can route back edges for milliseconds).
const SPARE_DRAWS: usize = 4;

impl<'a> Search<'a, '_> {
    /// One variant at its first stage that fits with every label beside its edge, else at
    /// the first that fits with footnotes: ((footnotes, crossings), lines). A footnote is the
    /// last resort, after the labels wrapped narrower and the layers spread apart.
    /// `first_only`: the first stage that fits, footnotes or not.
    fn variant_fit(
        &self,
        r: &'a rank::Ranked,
        dir: model::Direction,
        params: &[layout::Params],
        first_only: bool,
        spare: &mut usize,
    ) -> Option<((usize, usize), Vec<Line>)> {
        let opts = self.opts;
        // A stage too wide with ports close together is too wide with them spread too, and
        // a back edge with no way round finds none with them spread either.
        let mut hopeless: Option<(usize, usize)> = None;
        let mut footnoted: Option<((usize, usize), Vec<Line>)> = None;
        let mut stages = memo::Stages::default();
        for &p in params {
            if hopeless == Some((p.sep, p.wrap)) {
                continue;
            }
            // looking past a drawing with footnotes costs from the graph's spare attempts
            if footnoted.is_some() {
                if *spare == 0 {
                    break;
                }
                *spare -= 1;
            }
            // Until a stage fits, one too wide and one that cannot be placed are alike (the
            // same knobs spread wider are no narrower): a stage may stop at its width's lower
            // bound. After, a stage that could not be placed still costs a spare attempt.
            let bounded = footnoted.is_none();
            let (plan, mut drawing) = match self.draw_stage(r, dir, p, bounded, &mut stages) {
                Ok(drawn) => drawn,
                Err(Stage::TooWide | Stage::NoWayRound) => {
                    hopeless = Some((p.sep, p.wrap));
                    continue;
                }
                Err(Stage::Overlap) => continue,
            };
            let mut plan = plan;
            // Footnotes: the same stage with the layers spread apart may give them room.
            for widen in [8, 16] {
                if drawing.footnotes() == 0 || first_only || *spare == 0 {
                    break;
                }
                *spare -= 1;
                let wider = layout::Params { widen, ..p };
                match self.draw_stage(r, dir, wider, false, &mut stages) {
                    Ok((wider, d)) if d.footnotes() < drawing.footnotes() => {
                        (plan, drawing) = (wider, d);
                    }
                    Ok(_) | Err(Stage::Overlap) => {}
                    Err(Stage::TooWide | Stage::NoWayRound) => break,
                }
            }
            let cost = (drawing.footnotes(), drawing.crossings);
            let kept =
                cost.0 == 0 || first_only || footnoted.as_ref().is_none_or(|f| cost.0 < f.0.0);
            if !kept {
                continue; // no better than the footnoted drawing kept: its lines are not needed
            }
            let lines = drawing.lines(&plan, opts.ascii);
            if lines.iter().all(|l| l.width() <= opts.width) {
                if cost.0 == 0 || first_only {
                    return Some((cost, lines));
                }
                if footnoted.as_ref().is_none_or(|f| cost.0 < f.0.0) {
                    footnoted = Some((cost, lines));
                }
            }
        }
        footnoted
    }
}

/// Why a stage drew nothing.
#[derive(Debug, Clone, Copy)]
enum Stage {
    TooWide,
    /// something would overlap (or could not be placed)
    Overlap,
    /// a back edge taken out of the layers found no way round
    NoWayRound,
}

impl<'a> Search<'a, '_> {
    /// One stage: plan, check the width, draw (each only once for what the variant's
    /// earlier stages planned or drew alike). `bounded`: a stage whose boxes alone are too
    /// wide may be given up as too wide before it is planned (it might not have been
    /// placeable either).
    fn draw_stage(
        &self,
        r: &'a rank::Ranked,
        dir: model::Direction,
        p: layout::Params,
        bounded: bool,
        stages: &mut memo::Stages,
    ) -> Result<(Rc<layout::Plan>, Rc<draw::Drawing>), Stage> {
        let (g, opts) = (self.g, self.opts);
        // Each stage either draws without any overlap or reports why it cannot.
        let within = if bounded { opts.width } else { usize::MAX };
        let at = memo::StageAt {
            r,
            dir,
            widths: self.widths,
        };
        let plan = stages
            .plan(at, p, within, || {
                layout::sized(g, r, dir, p, self.texts.of(g, p))
            })
            .map_err(|e| match e {
                layout::Unplanned::TooWide => Stage::TooWide,
                layout::Unplanned::Failed(_) => Stage::Overlap,
            })?;
        if plan.width > opts.width {
            return Err(Stage::TooWide);
        }
        let drawing = stages.draw(&plan, || {
            draw::draw(g, r, &plan, opts.ascii, opts.width).map_err(|e| match e {
                plane::DrawError::NoWayRound => Stage::NoWayRound,
                plane::DrawError::Overlap(_) => Stage::Overlap,
            })
        })?;
        // the bound a layering is passed over at holds for every drawing
        #[cfg(debug_assertions)]
        {
            let least = least_crossings(g, r);
            assert!(
                least <= drawing.crossings,
                "{least} > {}",
                drawing.crossings
            );
        }
        Ok((plan, drawing))
    }
}

/// Nodes, visible edges and direction of a flowchart, state or class diagram body.
pub fn outline(
    kind: crate::DiagramKind,
    header: &str,
    body: &str,
) -> Result<(usize, usize, &'static str), String> {
    use crate::DiagramKind;
    let g = match kind {
        DiagramKind::Flowchart => parse_flowchart::parse(header, body)?,
        DiagramKind::State => parse_state::parse(body)?,
        DiagramKind::Class => parse_class::parse(body)?,
        _ => return Err("not a graph".into()),
    };
    let direction = match g.direction {
        model::Direction::TopDown => "TD",
        model::Direction::BottomUp => "BT",
        model::Direction::LeftRight => "LR",
        model::Direction::RightLeft => "RL",
    };
    let edges = g.edges.iter().filter(|e| !e.invisible).count();
    Ok((g.nodes.len(), edges, direction))
}

#[cfg(test)]
mod tests {
    use crate::graph::work::take;
    use crate::{RenderOptions, render_plain};

    /// Rendered at `width`: the text and the stages sized on the way.
    fn sized_at(source: &str, width: usize) -> (String, usize) {
        take();
        let opts = RenderOptions {
            width,
            ascii: false,
        };
        let text = render_plain(source, &opts);
        (text, take().sized)
    }

    #[test]
    fn a_stage_too_wide_by_its_boxes_is_sized_once_per_search() {
        // Six wide steps fanned out of one, then a chain: too wide at 60 columns at every
        // wrap, either way; the lined-up and pulled-inside attempts sized each stage again (50 sized, 28 now).
        let fan = "flowchart TD
    Start[quizz generate runs] --> A[read the configuration file]
    Start --> B[validate every option field]
    Start --> C[connect to the claude child]
    Start --> D[write the quiz to the cache]
    Start --> E[print the summary table]
    Start --> F[report each failing option]
    F --> G[retry the failed options] --> H[parse every mermaid block]
    H --> I[store the accepted quiz]";
        let (text, sized) = sized_at(fan, 60);
        assert!(text.contains("validate every option field"), "{text}");
        assert!(!text.contains('┌'), "listed, not drawn: {text}");
        assert!(sized <= 30, "{sized} stages sized\n{text}");
    }

    #[test]
    fn a_left_to_right_stage_too_wide_by_its_labels_is_not_placed() {
        // Left to right, each gap holds its labels' slot: the boxes are narrow, the
        // labels alone make every stage wider than 60 columns (six plans placed before,
        // one now: the top-down drawing).
        let chain = "flowchart LR
    A[parse] -->|the options are read back from the cache| B[check]
    B -->|every mermaid block in the quiz parses| C[store]
    C -->|the accepted quiz is written out| D[done]";
        take();
        let opts = RenderOptions {
            width: 60,
            ascii: false,
        };
        let text = render_plain(chain, &opts);
        let work = take();
        assert!(text.starts_with("drawn top-down to fit"), "{text}");
        assert!(work.placed <= 1, "{work:?}\n{text}");
    }

    /// Too wide at 60 columns at every stage, either way, names cut or not: a fan of
    /// calls whose names no wrap breaks.
    const CALLS: &str = "flowchart TD
    Start[quizz generate runs] --> A[read_configuration_file]
    Start --> B[validate_every_option_field]
    Start --> C[connect_to_the_claude_child]
    Start --> D[write_the_quiz_to_the_cache]
    Start --> E[print_the_summary_table]
    Start --> F[report_each_failing_option]
    F --> G[retry_the_failed_options] --> H[parse_every_mermaid_block]";

    fn work_at(source: &str, width: usize) -> (String, crate::graph::work::Work) {
        take();
        let opts = RenderOptions {
            width,
            ascii: false,
        };
        let text = render_plain(source, &opts);
        (text, take())
    }

    #[test]
    fn each_wrap_is_wrapped_once_per_search() {
        // Every layering, direction and spacing at one wrap boxes the same texts: seven
        // wraps, names cut and not (the texts were wrapped for each of the 36 stages
        // sized).
        let (text, work) = work_at(CALLS, 60);
        assert!(text.contains("validate_every_option_field"), "{text}");
        assert!(!text.contains('┌'), "listed, not drawn: {text}");
        assert!(work.wrapped <= 10, "{work:?}");
    }

    #[test]
    fn the_names_pass_lays_out_the_layers_of_the_first() {
        // The second pass, with names cut, lays out the same graph and layers (it was
        // resolved and ranked again, its back edges taken out again).
        let (text, work) = work_at(CALLS, 60);
        assert!(!text.contains('┌'), "listed, not drawn: {text}");
        assert_eq!(work.prepared, 1, "{work:?}");
    }

    #[test]
    fn a_stage_too_wide_for_a_frame_title_is_not_placed() {
        // Unwrapped, the subgraph's title alone is wider than 60 columns: those stages are
        // given up before they are placed (three plans placed before, one now).
        let framed = "flowchart TD
    subgraph pipeline [the quiz generation pipeline that runs inside the claude child]
        A[outline] --> B[options]
    end
    B --> C[cache]";
        let (text, work) = work_at(framed, 60);
        assert!(text.contains("outline"), "{text}");
        assert!(work.placed <= 1, "{work:?}\n{text}");
    }

    #[test]
    fn a_layering_whose_order_crosses_as_often_is_not_drawn() {
        // A retry loop drawn with one crossing, its back edges round the outside: the
        // layering as ranked, its back edges in the layers, crosses at least once by its
        // order alone and is not laid out (it was placed and drawn, to lose the tie).
        let retry = "flowchart TD
    Q[take the next job] --> F[fetch the page]
    F --> C{status?}
    C -- 429 --> B[back off and wait]
    B --> F
    C -- 5xx --> T[retry on another mirror]
    T --> F
    C -- 200 --> P[parse the body]
    P -.-> Q";
        let (text, work) = work_at(retry, 75);
        assert!(text.contains("another mirror"), "{text}");
        assert!(work.placed <= 1 && work.drawn <= 1, "{work:?}\n{text}");
    }
}
