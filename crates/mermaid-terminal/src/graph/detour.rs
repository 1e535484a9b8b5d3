//! Back edges drawn around the outside. Routed through the layers, a back edge that skips
//! a layer leaves its box downwards and climbs between the boxes it skips, crossing the
//! edges that leave them (a maze of `┼` once there are two or three). Instead, once
//! everything else is drawn, each one is routed on the grid from a side of its source box
//! to a side of its target: fewest crossings first, then fewest turns, then shortest —
//! which takes it up the outside of the drawing, one lane per edge.

use crate::glyphs::{DOWN, Dir4, Head, LEFT, RIGHT, UP};
use crate::graph::layout::Plan;
use crate::graph::model::Graph;
use crate::graph::plane::{BLOCK, DrawError, FRAME, Plane, bit, footnote};
use crate::graph::rank::Ranked;
use crate::style::Style;
use crate::text::{display_width, max_width, wrap_all};

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

/// Is there a line (an edge's or a frame's) right beside `cell`, running the way `d` does?
fn beside_parallel(p: &Plane, cell: (usize, usize), d: Dir4, grid: Grid) -> bool {
    let horizontal = is_horizontal(d);
    let sides = if horizontal {
        [Dir4::Up, Dir4::Down]
    } else {
        [Dir4::Left, Dir4::Right]
    };
    sides.iter().any(|&s| {
        step(cell, s, grid)
            .and_then(|c| p.occ.get(&c))
            .is_some_and(|o| {
                let line = if horizontal { o.h } else { o.v };
                line != 0 && line != BLOCK
            })
    })
}

/// Is a label (or a box) within three cells of `cell` along a line running horizontally
/// (or vertically) through it?
fn label_along(p: &Plane, (row, col): (usize, usize), horizontal: bool) -> bool {
    (1..=3).any(|k| {
        let cells = if horizontal {
            [col.checked_sub(k).map(|c| (row, c)), Some((row, col + k))]
        } else {
            [row.checked_sub(k).map(|r| (r, col)), Some((row + k, col))]
        };
        cells
            .into_iter()
            .flatten()
            .any(|c| p.occ.get(&c).is_some_and(|o| o.h == BLOCK))
    })
}

/// Is an edge label two cells from `cell` (left, right, above or below)?
fn label_within_two(p: &Plane, (row, col): (usize, usize)) -> bool {
    let label = |c: (usize, usize)| {
        p.occ.get(&c).is_some_and(|o| o.h == BLOCK)
            && p.canvas.style_at(c.0, c.1) == Some(Style::Label)
    };
    let around = [
        Some((row, col + 2)),
        col.checked_sub(2).map(|c| (row, c)),
        Some((row + 2, col)),
        row.checked_sub(2).map(|r| (r, col)),
    ];
    around.into_iter().flatten().any(label)
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
fn ports(p: &Plane, n: usize, grid: Grid) -> Vec<Port> {
    let (row, col) = p.box_at[n];
    let (w, h) = p.plan.boxes[n];
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
    if p.plan.texts[n].shape.is_point() {
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

/// Marks a cell a line cannot enter.
const WALL: u32 = 1 << 20;

/// What entering each cell of the grid costs, worked out when the search first asks
/// (it visits a part of the grid) and kept for the rest of the route.
struct StepCosts<'a, 'p> {
    p: &'a Plane<'p>,
    grid: Grid,
    /// per cell and way (`[vertical, horizontal]`): [`UNKNOWN`], or the extra cost over a
    /// plain step (or [`WALL`]) with the [`CROSSING`] and [`NEAR`] flags
    memo: &'a mut [[u32; 2]],
    /// the cells worked out, to forget after the search
    known: &'a mut Vec<u32>,
}

const UNKNOWN: u32 = u32::MAX;
/// the cell is a crossing (no turning on it)
const CROSSING: u32 = 1 << 30;
/// next to a box, a label or a note: only a port may touch one
const NEAR: u32 = 1 << 29;
const COST: u32 = NEAR - 1;

impl<'a, 'p> StepCosts<'a, 'p> {
    /// `memo`: at least a grid's cells, all [`UNKNOWN`].
    fn new(
        p: &'a Plane<'p>,
        grid: Grid,
        memo: &'a mut [[u32; 2]],
        known: &'a mut Vec<u32>,
    ) -> Self {
        StepCosts {
            p,
            grid,
            memo,
            known,
        }
    }

    /// (extra cost or [`WALL`], a crossing, next to a box) of entering `cell` (at index
    /// `at` of the grid) running horizontally or not.
    #[inline]
    fn get_at(&mut self, at: usize, cell: (usize, usize), horizontal: bool) -> (u32, bool, bool) {
        let o = usize::from(horizontal);
        if self.memo[at][o] == UNKNOWN {
            if self.memo[at][1 - o] == UNKNOWN {
                self.known.push(at as u32);
            }
            self.memo[at][o] = self.work_out(cell, horizontal);
        }
        let v = self.memo[at][o];
        (v & COST, v & CROSSING != 0, v & NEAR != 0)
    }

    // kept out of line: the search mostly asks again for what it knows
    #[inline(never)]
    fn work_out(&self, cell: (usize, usize), horizontal: bool) -> u32 {
        let (p, grid) = (self.p, self.grid);
        let near = DIRS.iter().any(|&d| {
            step(cell, d, grid)
                .and_then(|c| p.occ.get(&c))
                .is_some_and(|o| o.h == BLOCK)
        });
        let flags = if near { NEAR } else { 0 };
        let mut c = match pass(p, cell, horizontal) {
            Pass::Wall => return WALL | flags,
            Pass::Free => 0,
            Pass::Cross if edge_at(p, cell) => CROSS,
            Pass::Cross => BORDER,
        };
        let crossing = if c > 0 { CROSSING } else { 0 };
        if c == CROSS && label_along(p, cell, !horizontal) {
            c += NEAR_LABEL;
        }
        let d = if horizontal { Dir4::Right } else { Dir4::Down };
        if beside_parallel(p, cell, d, grid) {
            c += PARALLEL;
        }
        if !near && label_within_two(p, cell) {
            c += BY_LABEL;
        }
        c | crossing | flags
    }
}

/// The search's buffers, kept from one search to the next: allocating them afresh (and
/// the page faults of memory just returned) was a fifth of a route's time. Between
/// searches every entry is blank (unknown, unreached): a search blanks only what it
/// touched, as clearing a whole grid cost more than a small search.
#[derive(Default)]
struct Scratch {
    memo: Vec<[u32; 2]>,
    known: Vec<u32>,
    goal: Vec<u8>,
    dist: Vec<u32>,
    prev: Vec<u32>,
    buckets: Buckets,
}

/// Grow `v` to `len` entries of `blank` (never shrinks: longer is as good).
fn at_least<T: Copy>(v: &mut Vec<T>, len: usize, blank: T) {
    if v.len() < len {
        v.resize(len, blank);
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// Route every taken-out back edge, the shortest spans first so longer ones go round
/// them; `Err` when one has no way round.
pub fn route_all(p: &mut Plane, g: &Graph, r: &Ranked) -> Result<(), DrawError> {
    let mut order = r.lanes.clone();
    let span = |e: usize| {
        let edge = &g.edges[e];
        r.items[edge.from].layer.abs_diff(r.items[edge.to].layer)
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

fn route(p: &mut Plane, g: &Graph, e: usize, lanes: usize) -> Result<(), DrawError> {
    let edge = &g.edges[e];
    let grid = grid(p, 6, lanes);
    let cols = grid.cols;
    let starts = ports(p, edge.from, grid);
    let goals = ports(p, edge.to, grid);
    let path = SCRATCH
        .with(|scratch| search(&mut scratch.borrow_mut(), p, edge.to, grid, &starts, &goals))
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

/// The search's queue: one stack of states per cost bound, all in one arena (a `Vec` per
/// bound was most of the search's time in allocations).
#[derive(Default)]
struct Buckets {
    /// per bound: the arena index of its top entry, or `NONE`
    head: Vec<u32>,
    arena: Vec<Entry>,
}

/// A state queued, with its cell (dividing the state by the grid's width for it was a
/// tenth of a search), and the arena index of the entry under it.
#[derive(Clone, Copy)]
struct Entry {
    state: u32,
    row: u32,
    col: u32,
    under: u32,
}

const NONE: u32 = u32::MAX;

impl Buckets {
    fn clear(&mut self) {
        self.head.clear();
        self.arena.clear();
    }

    #[inline]
    fn push(&mut self, f: u32, s: usize, (row, col): (usize, usize)) {
        let f = f as usize;
        if self.head.len() <= f {
            self.head.resize(f + 1, NONE);
        }
        self.arena.push(Entry {
            state: s as u32,
            row: row as u32,
            col: col as u32,
            under: self.head[f],
        });
        self.head[f] = (self.arena.len() - 1) as u32;
    }

    /// The state on top of bound `f`'s stack, and its cell.
    #[inline]
    fn pop(&mut self, f: usize) -> Option<(usize, (usize, usize))> {
        let top = *self.head.get(f)?;
        let e = *self.arena.get(top as usize)?;
        self.head[f] = e.under;
        Some((e.state as usize, (e.row as usize, e.col as usize)))
    }
}

/// The cheapest way (as states: cell × direction of travel) from one of `starts` to one of
/// `goals`, arriving towards the target; `None` when there is none.
fn search(
    scratch: &mut Scratch,
    p: &Plane,
    target: usize,
    grid: Grid,
    starts: &[Port],
    goals: &[Port],
) -> Option<Vec<usize>> {
    let cells = grid.rows * grid.cols;
    let Scratch {
        memo,
        known,
        goal,
        dist,
        prev,
        buckets,
    } = scratch;
    at_least(memo, cells, [UNKNOWN; 2]);
    at_least(goal, cells, 0);
    at_least(dist, cells * 4, u32::MAX);
    at_least(prev, cells * 4, u32::MAX);
    // which way a line must arrive at each goal cell
    for port in goals {
        goal[port.cell.0 * grid.cols + port.cell.1] |= 1 << index(opposite(port.out));
    }
    buckets.clear();
    known.clear();
    let mut queue = Queue {
        costs: StepCosts::new(p, grid, memo, known),
        bound: Bound::round(p, target),
        grid,
        goal,
        dist,
        prev,
        buckets,
        expanded: 0,
    };
    let found = queue.cheapest(starts);
    let expanded = queue.expanded;
    super::work::count(|w| w.expanded += expanded);
    let path = found.map(|end| path_back(prev, end));
    // blank again what this search touched: every state reached was queued
    for e in &buckets.arena {
        dist[e.state as usize] = u32::MAX;
        prev[e.state as usize] = u32::MAX;
    }
    for &at in known.iter() {
        memo[at as usize] = [UNKNOWN; 2];
    }
    for port in goals {
        goal[port.cell.0 * grid.cols + port.cell.1] = 0;
    }
    path
}

/// A lower bound on the steps left: the distance to the ring of cells round the target's
/// box (the search is A* towards it).
#[derive(Clone, Copy)]
struct Bound {
    rows: (usize, usize),
    cols: (usize, usize),
}

impl Bound {
    fn round(p: &Plane, target: usize) -> Self {
        let (trow, tcol) = p.box_at[target];
        let (tw, th) = p.plan.boxes[target];
        Bound {
            rows: (trow.saturating_sub(1), trow + th),
            cols: (tcol.saturating_sub(1), tcol + tw),
        }
    }

    fn at(self, (row, col): (usize, usize)) -> u32 {
        let (r0, r1) = self.rows;
        let (c0, c1) = self.cols;
        let dr = r0.saturating_sub(row) + row.saturating_sub(r1);
        let dc = c0.saturating_sub(col) + col.saturating_sub(c1);
        u32::try_from(dr + dc).unwrap_or(u32::MAX / 4)
    }
}

/// One search's state: states are cell × direction of travel (`cell * 4 + way`).
struct Queue<'a> {
    costs: StepCosts<'a, 'a>,
    bound: Bound,
    grid: Grid,
    /// per cell: the ways a line may arrive at it to end there
    goal: &'a [u8],
    /// cheapest cost found to each state
    dist: &'a mut [u32],
    /// the state each was reached from
    prev: &'a mut [u32],
    buckets: &'a mut Buckets,
    /// states expanded so far
    expanded: usize,
}

impl Queue<'_> {
    /// The first goal state reached, the cheapest: with a bucket queue, as costs are
    /// small integers and the bound is consistent, so buckets fill in order.
    fn cheapest(&mut self, starts: &[Port]) -> Option<usize> {
        let cols = self.grid.cols;
        for port in starts {
            let s = (port.cell.0 * cols + port.cell.1) * 4 + index(port.out);
            self.dist[s] = 0;
            self.buckets.push(self.bound.at(port.cell), s, port.cell);
        }
        let mut f = 0;
        while f < self.buckets.head.len() {
            while let Some((s, cell)) = self.buckets.pop(f) {
                let at = s / 4;
                let cost = self.dist[s];
                if cost + self.bound.at(cell) != f as u32 {
                    continue; // reached again more cheaply since
                }
                let way = s % 4;
                if self.goal[at] & (1 << way) != 0 {
                    return Some(s);
                }
                self.expanded += 1;
                self.expand(s, cost, cell, way);
            }
            f += 1;
        }
        None
    }

    /// Every step from state `s` (reached at `cost`, at `cell`, running the way with index
    /// `way`) that is cheaper than known. Ways and cells as indices: this loop is most of
    /// a route's time.
    fn expand(&mut self, s: usize, cost: u32, (row, col): (usize, usize), way: usize) {
        let grid = self.grid;
        let at = row * grid.cols + col;
        let (_, crossing, _) = self.costs.get_at(at, (row, col), WAY_HORIZONTAL[way]);
        for (next_way, &horizontal) in WAY_HORIZONTAL.iter().enumerate() {
            // no U-turns; no turn on a crossing
            if next_way == WAY_OPPOSITE[way] || (crossing && next_way != way) {
                continue;
            }
            // the neighbour that way, inside the grid (as `step`)
            let (next, to) = match next_way {
                0 if row > 0 => ((row - 1, col), at - grid.cols),
                1 if row + 1 < grid.rows => ((row + 1, col), at + grid.cols),
                2 if col > grid.left => ((row, col - 1), at - 1),
                3 if col + 1 < grid.cols => ((row, col + 1), at + 1),
                _ => continue,
            };
            let at_goal = self.goal[to] & (1 << next_way) != 0;
            let (enter, _, near) = self.costs.get_at(to, next, horizontal);
            if enter >= WALL || (near && !at_goal) {
                continue;
            }
            let mut c = cost + STEP + enter;
            if next_way != way {
                c += TURN;
            }
            let ns = to * 4 + next_way;
            if c < self.dist[ns] {
                self.dist[ns] = c;
                self.prev[ns] = s as u32;
                self.buckets.push(c + self.bound.at(next), ns, next);
            }
        }
    }
}

/// Per way index (the order of [`DIRS`], as [`index`] numbers them): the way back, and
/// whether it runs horizontally.
const WAY_OPPOSITE: [usize; 4] = [1, 0, 3, 2];
const WAY_HORIZONTAL: [bool; 4] = [false, false, true, true];

/// The states from a start to `end`, following `prev` back.
fn path_back(prev: &[u32], end: usize) -> Vec<usize> {
    let mut path = vec![end];
    while let Some(&before) = prev.get(*path.last().unwrap_or(&end)) {
        if before == u32::MAX {
            break;
        }
        path.push(before as usize);
    }
    path.reverse();
    path
}

/// Lay the routed line on the canvas, with its ends joined to (or pointing at) the boxes,
/// then its label.
fn draw_path(
    p: &mut Plane,
    g: &Graph,
    e: usize,
    corners: &[(usize, usize)],
    (start, target): (Port, Port),
) -> Result<(), DrawError> {
    let edge = &g.edges[e];
    let owner = e as u32 + 1;
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
    if !label(p, corners, &lines, owner) {
        footnote(p, corners, owner, p.plan.edge_text[e].clone())?;
    }
    Ok(())
}

/// A back edge's label, at the first run of its line from its source that has room: on
/// a horizontal run long enough (over the line), beside a vertical one (wrapped narrower
/// when it does not fit) with a clear cell between; `false` when none has room.
fn label(p: &mut Plane, corners: &[(usize, usize)], lines: &[String], owner: u32) -> bool {
    // on one line as written (wrapped lines joined would read `a/ b` for `a/b`)
    let one = p.plan.edge_text[owner as usize - 1].clone();
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
                if p.label_fits(a.0, col, w1, owner) {
                    p.put_label(a.0, col, &one);
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
            if clear {
                for (k, line) in lines.iter().enumerate() {
                    p.put_label(top + k, left, line);
                }
                return true;
            }
        }
    }
    false
}
