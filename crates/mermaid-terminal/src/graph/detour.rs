//! Back edges drawn around the outside. Routed through the layers, a back edge that skips
//! a layer leaves its box downwards and climbs between the boxes it skips, crossing the
//! edges that leave them (a maze of `┼` once there are two or three). Instead, once
//! everything else is drawn, each one is routed on the grid from a side of its source box
//! to a side of its target: fewest crossings first, then fewest turns, then shortest —
//! which takes it up the outside of the drawing, one lane per edge.

use crate::glyphs::{DOWN, Dir4, Head, LEFT, RIGHT, UP};
use crate::graph::ids::{ClusterId, EdgeId, ItemId, NodeId};
use crate::graph::layout::Plan;
use crate::graph::model::Graph;
use crate::graph::plane::{BLOCK, DrawError, FRAME, Plane, bit, edge_owner, footnote};
use crate::graph::rank::Ranked;
use crate::style::Style;
use crate::text::{display_width, max_width, wrap_all};

mod costs;
mod search;

const STEP: u32 = 1;
const TURN: u32 = 3;
/// a crossing is worth a long way round
const CROSS: u32 = 40;
/// through a subgraph's border (the way into a member)
const BORDER: u32 = 10;
/// a step right beside another line running the same way (reads as a double line)
const PARALLEL: u32 = 4;
/// a crossing close to the crossed line's label (which then reads as either line's)
const NEAR_LABEL: u32 = 30;
/// a step two cells from a label (one blank cell between reads as the label's line)
const BY_LABEL: u32 = 6;

const DIRS: [Dir4; 4] = [Dir4::Up, Dir4::Down, Dir4::Left, Dir4::Right];

/// Room left of (TD) or above (LR) the layered drawing for lanes and their labels,
/// trimmed when unused.
pub fn margin(r: &Ranked, plan: &Plan) -> usize {
    if r.lanes.is_empty() {
        return 0;
    }
    let label = r
        .lanes
        .iter()
        .map(|&e| max_width(&plan.edge_labels[e]) + 2)
        .max()
        .unwrap_or(0);
    2 * r.lanes.len() + 2 + label
}

fn opposite(d: Dir4) -> Dir4 {
    match d {
        Dir4::Up => Dir4::Down,
        Dir4::Down => Dir4::Up,
        Dir4::Left => Dir4::Right,
        Dir4::Right => Dir4::Left,
    }
}

fn index(d: Dir4) -> usize {
    match d {
        Dir4::Up => 0,
        Dir4::Down => 1,
        Dir4::Left => 2,
        Dir4::Right => 3,
    }
}

fn is_horizontal(d: Dir4) -> bool {
    matches!(d, Dir4::Left | Dir4::Right)
}

/// The part of the canvas a line may take: rows below `rows`, columns from `left` to
/// below `cols`.
#[derive(Debug, Clone, Copy)]
struct Grid {
    rows: usize,
    left: usize,
    cols: usize,
}

/// The cell one step from `(row, col)` in `d`, inside the grid.
fn step((row, col): (usize, usize), d: Dir4, grid: Grid) -> Option<(usize, usize)> {
    let next = match d {
        Dir4::Up => (row.checked_sub(1)?, col),
        Dir4::Down => (row + 1, col),
        Dir4::Left => (row, col.checked_sub(1)?),
        Dir4::Right => (row, col + 1),
    };
    (next.0 < grid.rows && next.1 >= grid.left && next.1 < grid.cols).then_some(next)
}

/// Where a line may meet a node: the free cell beside it, the way that leads away from
/// the node, and the border cell it joins (`None` for a point's mark, touched as it is).
#[derive(Debug, Clone, Copy)]
struct Port {
    cell: (usize, usize),
    out: Dir4,
    border: Option<(usize, usize)>,
}

/// Cells a line can take or cross.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Free,
    /// a straight line of another edge or a frame, crossed at a right angle
    Cross,
    Wall,
}

fn pass(p: &Plane, cell: (usize, usize), horizontal: bool) -> Pass {
    match p.occ.get(&cell) {
        None if p.canvas.is_empty(cell.0, cell.1) => Pass::Free,
        None => Pass::Wall,
        Some(o) => {
            let mine = if horizontal { o.h } else { o.v };
            if o.h == BLOCK || o.v == BLOCK || mine != 0 || o.corner {
                return Pass::Wall;
            }
            if p.canvas.is_line(cell.0, cell.1) {
                Pass::Cross
            } else {
                Pass::Wall
            }
        }
    }
}

/// Does an edge (not a box, a label or a frame) hold the cell?
fn edge_at(p: &Plane, cell: (usize, usize)) -> bool {
    p.occ
        .get(&cell)
        .is_some_and(|o| (o.h != 0 && o.h < FRAME) || (o.v != 0 && o.v < FRAME))
}

/// The free cells around node `n` a line can leave or reach it from: on the straight part
/// of each side, a cell clear of the corners when the side is long enough, never next to
/// another edge's end.
fn ports(p: &Plane, n: NodeId, grid: Grid) -> Vec<Port> {
    side_ports(
        p,
        p.box_at[n],
        p.plan.boxes[n],
        p.plan.texts[n].shape.is_point(),
        grid,
    )
}

/// The ports of an edge's end: on the border of the subgraph's frame it names (a back
/// edge to a composite state), else round its node.
fn end_ports(p: &Plane, frame: Option<ClusterId>, n: NodeId, grid: Grid) -> Vec<Port> {
    let Some(f) = frame.and_then(|c| p.plan.frame(c)) else {
        return ports(p, n, grid);
    };
    let (r0, c0, r1, c1) = p.frame_rect(f);
    side_ports(p, (r0, c0), (c1 + 1 - c0, r1 + 1 - r0), false, grid)
}

/// The free cells round the rectangle at `(row, col)` of size `(w, h)` (see [`ports`]);
/// a point shape is left from its mark.
fn side_ports(
    p: &Plane,
    (row, col): (usize, usize),
    (w, h): (usize, usize),
    point: bool,
    grid: Grid,
) -> Vec<Port> {
    let mut out = Vec::new();
    let mut consider = |border: (usize, usize), d: Dir4, straight: Option<u8>| {
        if let Some(bits) = straight
            && p.canvas.line_bits(border.0, border.1) != Some(bits)
        {
            return;
        }
        let Some(cell) = step(border, d, grid) else {
            return;
        };
        if pass(p, cell, is_horizontal(d)) != Pass::Free {
            return;
        }
        let beside = if is_horizontal(d) {
            [Dir4::Up, Dir4::Down]
        } else {
            [Dir4::Left, Dir4::Right]
        };
        if beside
            .iter()
            .any(|&s| step(cell, s, grid).is_some_and(|c| edge_at(p, c)))
        {
            return;
        }
        out.push(Port {
            cell,
            out: d,
            border: straight.map(|_| border),
        });
    };
    if point {
        let mark = (row + h / 2, col + w / 2);
        for d in DIRS {
            consider(mark, d, None);
        }
        return out;
    }
    // inner cells of a side, a cell off each corner when the side has room
    let inner = |len: usize| if len >= 5 { 2..len - 2 } else { 1..len - 1 };
    for c in inner(w) {
        consider((row, col + c), Dir4::Up, Some(LEFT | RIGHT));
        consider((row + h - 1, col + c), Dir4::Down, Some(LEFT | RIGHT));
    }
    for r in inner(h) {
        consider((row + r, col), Dir4::Left, Some(UP | DOWN));
        consider((row + r, col + w - 1), Dir4::Right, Some(UP | DOWN));
    }
    out
}

thread_local! {
    static SCRATCH: std::cell::RefCell<search::Scratch> = std::cell::RefCell::default();
}

/// Route every taken-out back edge, the shortest spans first so longer ones go round
/// them; `Err` when one has no way round.
pub fn route_all(p: &mut Plane, g: &Graph, r: &Ranked) -> Result<(), DrawError> {
    let mut order = r.lanes.clone();
    let span = |e: EdgeId| {
        let edge = &g.edges[e];
        let layer = |n| r.items[ItemId::of_node(n)].layer;
        layer(edge.from).abs_diff(layer(edge.to))
    };
    order.sort_by_key(|&e| (span(e), e));
    for e in order {
        if g.edges[e].invisible {
            continue;
        }
        route(p, g, e, r.lanes.len())?;
    }
    Ok(())
}

/// The grid searched: what is drawn plus room round it (above and left were kept by
/// [`margin`]), no wider than the drawing may be.
fn grid(p: &Plane, extra: usize, lanes: usize) -> Grid {
    let (first, last) = p.canvas.col_range().unwrap_or((0, 0));
    let rows = p.canvas.height() + extra;
    if p.plan.horizontal {
        // columns run along the flow from 0
        return Grid {
            rows,
            left: 0,
            cols: (last + 1 + extra).min(p.width),
        };
    }
    // Room on either side for every lane and the widest label: a way round further out
    // than that is never the cheapest, and searching the terminal's whole width cost
    // milliseconds at 160 columns.
    let room = p
        .plan
        .edge_labels
        .iter()
        .map(|l| max_width(l))
        .max()
        .unwrap_or(0)
        + 3 * lanes
        + 6;
    let slack = p.width.saturating_sub(last + 1 - first).min(room);
    Grid {
        rows,
        left: first.saturating_sub(slack),
        cols: last + 1 + slack,
    }
}

fn route(p: &mut Plane, g: &Graph, e: EdgeId, lanes: usize) -> Result<(), DrawError> {
    let edge = &g.edges[e];
    let grid = grid(p, 6, lanes);
    let cols = grid.cols;
    let starts = end_ports(p, edge.from_frame, edge.from, grid);
    let goals = end_ports(p, edge.to_frame, edge.to, grid);
    let path = SCRATCH
        .with(|scratch| search::search(&mut scratch.borrow_mut(), p, grid, &starts, &goals))
        .ok_or(DrawError::NoWayRound)?;
    let end = path[path.len() - 1];
    let state = |cell: (usize, usize), d: Dir4| (cell.0 * cols + cell.1) * 4 + index(d);
    let cell_of = |s: usize| ((s / 4) / cols, (s / 4) % cols);
    let first = cell_of(path[0]);
    let last = cell_of(end);
    let start = starts
        .iter()
        .find(|port| port.cell == first && state(port.cell, port.out) == path[0])
        .copied()
        .ok_or("a back edge lost its start")?;
    let arrive = DIRS[end % 4];
    let target = goals
        .iter()
        .find(|port| port.cell == last && port.out == opposite(arrive))
        .copied()
        .ok_or("a back edge lost its end")?;
    // corner points: the ends and every cell where the way turns
    let mut corners = vec![first];
    for w in path.windows(2) {
        if w[0] % 4 != w[1] % 4 {
            corners.push(cell_of(w[0]));
        }
    }
    corners.push(last);
    corners.dedup();
    draw_path(p, g, e, &corners, (start, target))
}

/// Lay the routed line on the canvas, with its ends joined to (or pointing at) the boxes,
/// then its label.
fn draw_path(
    p: &mut Plane,
    g: &Graph,
    e: EdgeId,
    corners: &[(usize, usize)],
    (start, target): (Port, Port),
) -> Result<(), DrawError> {
    let edge = &g.edges[e];
    let owner = edge_owner(e);
    let kind = edge.line;
    if corners.len() < 2 {
        return Err("a back edge too short to draw".into());
    }
    let n = corners.len();
    for (i, w) in corners.windows(2).enumerate() {
        p.line(w[0], w[1], kind, owner, (i > 0, i + 2 < n))?;
    }
    let glyphs = p.glyphs;
    let ends = [(start, edge.tail), (target, edge.head)];
    for (port, head) in ends {
        let (row, col) = port.cell;
        let inward = opposite(port.out);
        if head == Head::None {
            p.canvas.join(row, col, bit(inward), kind, Style::Arrow);
            if let Some(b) = port.border {
                p.canvas.join(b.0, b.1, bit(port.out), kind, Style::Border);
            }
        } else {
            p.canvas
                .put(row, col, glyphs.head(head, inward), Style::Arrow);
        }
    }
    let lines = &p.plan.edge_labels[e];
    if lines.is_empty() {
        return Ok(());
    }
    let lines = lines.clone();
    if !label(p, corners, &lines, e) {
        footnote(p, corners, owner, p.plan.edge_text[e].clone())?;
    }
    Ok(())
}

/// A back edge's label, at the first run of its line from its source that has room: on
/// a horizontal run long enough (over the line), beside a vertical one (wrapped narrower
/// when it does not fit) with a clear cell between; `false` when none has room.
fn label(p: &mut Plane, corners: &[(usize, usize)], lines: &[String], e: EdgeId) -> bool {
    let owner = edge_owner(e);
    // on one line as written (wrapped lines joined would read `a/ b` for `a/b`)
    let one = p.plan.edge_text[e].clone();
    let w1 = display_width(&one);
    let grid = grid(p, 0, p.width);
    let mut forms = vec![lines.to_vec()];
    for wrap in [20, 14, 10] {
        let narrower = wrap_all(lines, wrap);
        if forms
            .last()
            .is_some_and(|f| max_width(&narrower) < max_width(f))
        {
            forms.push(narrower);
        }
    }
    for pair in corners.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if a.0 == b.0 {
            let (c0, c1) = (a.1.min(b.1), a.1.max(b.1));
            if c1 - c0 >= w1 + 3 {
                let col = c0 + (c1 - c0 + 1 - w1) / 2;
                if p.label_fits(a.0, col, w1, owner) && p.nearest_is_own(owner, &[(a.0, col, w1)]) {
                    p.put_label(a.0, col, &one, owner);
                    return true;
                }
            }
        } else if forms
            .iter()
            .any(|form| beside(p, (a, b), form, owner, grid))
        {
            return true;
        }
    }
    false
}

/// A label beside the vertical run `a`→`b` of its line, as near `a` (the source's end)
/// as it fits, with a clear cell on both sides of the text so it cannot be read as
/// another line's.
fn beside(
    p: &mut Plane,
    (a, b): ((usize, usize), (usize, usize)),
    lines: &[String],
    owner: u32,
    grid: Grid,
) -> bool {
    let w = max_width(lines);
    let nl = lines.len();
    if a.0.abs_diff(b.0) <= nl + 1 {
        return false;
    }
    let (lo, hi) = (a.0.min(b.0) + 1, a.0.max(b.0) - nl);
    let tops: Vec<usize> = if a.0 > b.0 {
        (lo..=hi).rev().collect()
    } else {
        (lo..=hi).collect()
    };
    let x = a.1;
    let sides = [Some(x + 2), x.checked_sub(w + 1)];
    for top in tops {
        for left in sides
            .into_iter()
            .flatten()
            .filter(|&l| l >= grid.left && l + w < grid.cols)
        {
            let blank = |p: &Plane, c: (usize, usize)| {
                c.1 == x || (p.occ.get(&c).is_none() && p.canvas.is_empty(c.0, c.1))
            };
            let clear = (top..top + nl).all(|row| {
                p.label_fits(row, left, w, owner)
                    && (left == 0 || blank(p, (row, left - 1)))
                    && blank(p, (row, left + w))
            });
            let own_nearest = || {
                let rows: Vec<_> = (top..top + nl).map(|row| (row, left, w)).collect();
                p.nearest_is_own(owner, &rows)
            };
            if clear && own_nearest() {
                for (k, line) in lines.iter().enumerate() {
                    p.put_label(top + k, left, line, owner);
                }
                return true;
            }
        }
    }
    false
}
