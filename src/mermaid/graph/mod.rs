//! Flowcharts, state and class diagrams: one graph model, one layered layout, drawn on a
//! character grid; a compact edge list when the drawing cannot fit.

mod compact;
mod cross;
mod draw;
mod layout;
mod model;
mod parse_class;
mod parse_flowchart;
mod parse_state;
mod rank;
mod route;
mod shapes;

use crate::mermaid::style::{Line, Style};
use crate::mermaid::{Form, RenderOptions};
use model::Graph;

pub fn render_flowchart(
    header: &str,
    body: &str,
    opts: &RenderOptions,
    form: Form,
) -> Result<Vec<Line>, String> {
    let g = parse_flowchart::parse(header, body)?;
    Ok(render_graph(&g, opts, form))
}

pub fn render_state(body: &str, opts: &RenderOptions, form: Form) -> Result<Vec<Line>, String> {
    let g = parse_state::parse(body)?;
    Ok(render_graph(&g, opts, form))
}

pub fn render_class(body: &str, opts: &RenderOptions, form: Form) -> Result<Vec<Line>, String> {
    let g = parse_class::parse(body)?;
    Ok(render_graph(&g, opts, form))
}

/// Nodes whose id names a subgraph (edges to a whole subgraph) are listed, not drawn.
/// Empty subgraphs have no frame to draw either.
fn links_to_cluster(g: &Graph) -> bool {
    let edge_to_cluster = g
        .nodes
        .iter()
        .any(|n| !n.defined && g.clusters.iter().any(|c| c.id == n.id));
    let empty = (0..g.clusters.len()).any(|c| {
        !g.nodes
            .iter()
            .any(|n| g.cluster_path(n.cluster).contains(&c))
    });
    edge_to_cluster || empty
}

/// Stages: natural spacing, tight spacing, wrapped labels, then the compact list.
pub fn render_graph(g: &Graph, opts: &RenderOptions, form: Form) -> Vec<Line> {
    if form == Form::Best && g.nodes.len() <= 600 && !links_to_cluster(g) {
        let ranked = rank::rank(g);
        let widest = g
            .nodes
            .iter()
            .flat_map(|n| n.label.iter())
            .chain(g.edges.iter().flat_map(|e| e.label.iter()))
            .map(|l| crate::mermaid::text::display_width(l))
            .max()
            .unwrap_or(0);
        let mut attempts: Vec<layout::Params> = Vec::new();
        let mut stage = |sep: usize, wrap: usize| {
            for spread in [2, 4] {
                attempts.push(layout::Params { sep, wrap, spread });
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
        if ranked.items.len() > 300 {
            attempts.truncate(3);
        }
        for params in attempts {
            // Each stage either draws without any overlap or reports why it cannot.
            let Ok(plan) = layout::plan(g, &ranked, params) else {
                continue;
            };
            let Ok(lines) = draw::draw(g, &ranked, &plan, opts.ascii) else {
                continue;
            };
            if lines.iter().all(|l| l.width() <= opts.width) {
                return lines;
            }
        }
    }
    let mut lines = compact::render(g, opts.width, opts.ascii);
    if lines.is_empty() {
        lines.push(Line::styled("(empty diagram)", Style::Dim));
    }
    lines
}
