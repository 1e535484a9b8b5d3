//! Flowcharts, state and class diagrams: one graph model, one layered layout, drawn on a
//! character grid; a compact edge list when the drawing cannot fit.

mod compact;
mod cross;
mod draw;
mod layout;
mod legend;
mod model;
mod parse_class;
mod parse_flowchart;
mod parse_state;
mod rank;
mod refs;
mod route;
mod shapes;

use std::borrow::Cow;

use crate::mermaid::style::{Line, Style};
use crate::mermaid::{Form, RenderOptions, Want};
use model::Graph;

pub fn render_flowchart(
    header: &str,
    body: &str,
    opts: &RenderOptions,
    want: Want,
) -> Result<(Vec<Line>, Form), String> {
    let g = parse_flowchart::parse(header, body)?;
    Ok(render_graph(&g, opts, want))
}

pub fn render_state(
    body: &str,
    opts: &RenderOptions,
    want: Want,
) -> Result<(Vec<Line>, Form), String> {
    let g = parse_state::parse(body)?;
    Ok(render_graph(&g, opts, want))
}

pub fn render_class(
    body: &str,
    opts: &RenderOptions,
    want: Want,
) -> Result<(Vec<Line>, Form), String> {
    let g = parse_class::parse(body)?;
    Ok(render_graph(&g, opts, want))
}

/// A subgraph with no member has no frame to draw.
fn has_empty_cluster(g: &Graph) -> bool {
    (0..g.clusters.len()).any(|c| {
        !g.nodes
            .iter()
            .any(|n| g.cluster_path(n.cluster).contains(&c))
    })
}

/// The drawing, or the compact list when no stage fits.
pub fn render_graph(g: &Graph, opts: &RenderOptions, want: Want) -> (Vec<Line>, Form) {
    if want != Want::Compact
        && let Some(lines) = draw_fitted(g, opts, want)
    {
        return (lines, Form::Drawing);
    }
    let mut lines = compact::render(g, opts.width, opts.ascii);
    if lines.is_empty() {
        lines.push(Line::styled("(empty diagram)", Style::Dim));
    }
    (lines, Form::Compact)
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
        .map(|l| crate::mermaid::text::display_width(l))
        .max()
        .unwrap_or(0);
    let mut out = Vec::new();
    let mut stage = |sep: usize, wrap: usize| {
        for spread in [2, 4] {
            out.push(layout::Params { sep, wrap, spread });
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

/// Try every stage in the graph's direction, then turned; the first drawing that fits.
fn draw_fitted(g: &Graph, opts: &RenderOptions, want: Want) -> Option<Vec<Line>> {
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
    if std::env::var_os("MM_DEBUG").is_some() {
        for e in &g.edges {
            eprintln!(
                "edge {}->{} ff {:?} tf {:?}",
                g.nodes[e.from].id, g.nodes[e.to].id, e.from_frame, e.to_frame
            );
        }
        for (i, it) in ranked.items.iter().enumerate() {
            eprintln!(
                "item {i} {:?} layer {}",
                it.node.map(|n| &g.nodes[n].id),
                it.layer
            );
        }
    }
    let big = ranked.items.len() > 300;
    let params = stages(&g, big);
    let own = g.direction;
    let turn = match want {
        Want::Turned => vec![own.turned()],
        _ if big => vec![own],
        _ => vec![own, own.turned()],
    };
    for dir in turn {
        for &p in &params {
            // Each stage either draws without any overlap or reports why it cannot.
            let plan = match layout::plan(&g, &ranked, dir, p) {
                Ok(plan) => plan,
                Err(e) => {
                    if std::env::var_os("MM_DEBUG").is_some() {
                        eprintln!("{dir:?} {p:?}: plan: {e}");
                    }
                    continue;
                }
            };
            if plan.width > opts.width {
                if std::env::var_os("MM_DEBUG").is_some() {
                    eprintln!("{dir:?} {p:?}: width {}", plan.width);
                }
                continue;
            }
            let mut lines = match draw::draw(&g, &ranked, &plan, opts.ascii) {
                Ok(l) => l,
                Err(e) => {
                    if std::env::var_os("MM_DEBUG").is_some() {
                        eprintln!("{dir:?} {p:?}: draw: {e}");
                    }
                    continue;
                }
            };
            if lines.iter().all(|l| l.width() <= opts.width) {
                if dir != own {
                    let note = if dir.horizontal() {
                        "drawn left to right to fit"
                    } else {
                        "drawn top-down to fit"
                    };
                    lines.insert(0, Line::styled(note, Style::Dim));
                }
                lines.extend(legend::drawn(&g, opts));
                return Some(lines);
            }
        }
    }
    None
}
