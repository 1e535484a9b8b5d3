//! The cheapest way round for a back edge: A* over states (cell × way of travel) on the
//! grid. Its bound is the fewest steps from a state's cell to a goal round what cannot be
//! entered (counted back from the goals once per route) plus the fewest turns from its
//! way to a goal's way of arrival on an empty grid. The distance to the target's box it
//! had before was so loose against the costs (a crossing is worth 40 steps) that the
//! search flooded most of the grid; with this bound it expands a third as many states.
//! Among routes of equal cost it may pick another than before (none costs more).

use super::costs::{self, Costs, WALL};
use super::{Grid, Port, STEP, TURN, index, opposite};
use crate::graph::plane::Plane;

/// The search's buffers, kept from one search to the next: allocating them afresh (and
/// the page faults of memory just returned) was a fifth of a route's time. Between
/// searches `dist`, `prev`, `goal` and `steps` are blank (unreached, no goal, far): a
/// search blanks only what it touched, as clearing a whole grid cost more than a small
/// search.
#[derive(Default)]
pub(super) struct Scratch {
    costs: costs::Room,
    goal: Vec<u8>,
    dist: Vec<u32>,
    prev: Vec<u32>,
    buckets: Buckets,
    /// per cell: the fewest steps from it to a goal, or [`FAR`]
    steps: Vec<u32>,
    /// the cells `steps` holds a number for, in the order found
    stepped: Vec<u32>,
    row_class: Vec<[u16; 4]>,
    col_class: Vec<[u16; 4]>,
}

/// Grow `v` to `len` entries of `blank` (never shrinks: longer is as good).
fn at_least<T: Copy>(v: &mut Vec<T>, len: usize, blank: T) {
    if v.len() < len {
        v.resize(len, blank);
    }
}

/// The cheapest way (as states: cell × direction of travel, `cell * 4 + way`) from one of
/// `starts` to one of `goals`, arriving as each goal wants; `None` when there is none.
pub(super) fn search(
    scratch: &mut Scratch,
    p: &Plane,
    grid: Grid,
    starts: &[Port],
    goals: &[Port],
) -> Option<Vec<usize>> {
    let cells = grid.rows * grid.cols;
    let Scratch {
        costs,
        goal,
        dist,
        prev,
        buckets,
        steps,
        stepped,
        row_class,
        col_class,
    } = scratch;
    at_least(goal, cells, 0);
    at_least(dist, cells * 4, u32::MAX);
    at_least(prev, cells * 4, u32::MAX);
    at_least(steps, cells, FAR);
    // which way a line must arrive at each goal cell
    for port in goals {
        goal[port.cell.0 * grid.cols + port.cell.1] |= 1 << index(opposite(port.out));
    }
    let costs = Costs::new(p, grid, costs);
    stepped.clear();
    steps_to_goals(&costs, grid, (goal, goals), steps, stepped);
    buckets.clear();
    let mut queue = Queue {
        costs,
        bound: Bound::new(steps, goals, grid, (row_class, col_class)),
        grid,
        goal,
        dist,
        prev,
        buckets,
        expanded: 0,
    };
    let found = queue.cheapest(starts);
    let expanded = queue.expanded;
    crate::graph::work::count(|w| w.expanded += expanded);
    let path = found.map(|end| path_back(queue.prev, end));
    queue.forget();
    queue.costs.forget();
    for port in goals {
        goal[port.cell.0 * grid.cols + port.cell.1] = 0;
    }
    for &at in stepped.iter() {
        steps[at as usize] = FAR;
    }
    path
}

/// No way to a goal from the cell.
const FAR: u32 = u32::MAX;

/// The fewest steps from each cell to a goal, through cells a line may enter (turns,
/// crossings and the extra costs of a step left out): a breadth-first search back from
/// the goals. Cells it does not reach keep [`FAR`]: no goal can be reached from them.
fn steps_to_goals(
    costs: &Costs,
    grid: Grid,
    (goal, goals): (&[u8], &[Port]),
    steps: &mut [u32],
    stepped: &mut Vec<u32>,
) {
    let cols = grid.cols;
    for port in goals {
        let at = port.cell.0 * cols + port.cell.1;
        if steps[at] == FAR {
            steps[at] = 0;
            stepped.push(at as u32);
        }
    }
    let mut next = 0;
    while let Some(&to) = stepped.get(next) {
        next += 1;
        let to = to as usize;
        let (row, col) = (to / cols, to % cols);
        let d = steps[to] + 1;
        // whether a step may enter `to` [vertically, horizontally], worked out once it is
        // first asked
        let mut open: Option<[bool; 2]> = None;
        for (way, &horizontal) in WAY_HORIZONTAL.iter().enumerate() {
            // a step running `way` into `to` comes from the cell the other way
            let from = match way {
                0 if row + 1 < grid.rows => to + cols,
                1 if row > 0 => to - cols,
                2 if col + 1 < grid.cols => to + 1,
                3 if col > grid.left => to - 1,
                _ => continue,
            };
            if steps[from] != FAR {
                continue;
            }
            let open = *open.get_or_insert_with(|| costs.entries((row, col), goal[to] != 0));
            if !open[usize::from(horizontal)] {
                continue;
            }
            steps[from] = d;
            stepped.push(from as u32);
        }
    }
}

/// The lower bound on the cost left from a state: its cell's fewest steps to a goal, and
/// the fewest turns from its way to a goal's way of arrival on an empty grid.
/// The turns are looked up: a cell's row and column each fall in one of five classes
/// against each arrival's goals (before, on the first, between, on the last, after), and
/// the fewest turns are alike across a class.
struct Bound<'a> {
    steps: &'a [u32],
    /// per row: per arrival, where its class starts in `turns`
    row_class: &'a [[u16; 4]],
    /// per column: per arrival, its class's offset in `turns`
    col_class: &'a [[u16; 4]],
    /// per arrival × row class × column class × way: the fewest turns (4 when it has no
    /// goals)
    turns: [u8; TURNS],
}

const CLASSES: usize = 5;
const TURNS: usize = 4 * CLASSES * CLASSES * 4;

/// The rows and columns some cells span: `(first, last)` each.
#[derive(Clone, Copy, Debug)]
struct Span {
    rows: (usize, usize),
    cols: (usize, usize),
}

impl Span {
    fn with(span: Option<Span>, (row, col): (usize, usize)) -> Span {
        match span {
            None => Span {
                rows: (row, row),
                cols: (col, col),
            },
            Some(s) => Span {
                rows: (s.rows.0.min(row), s.rows.1.max(row)),
                cols: (s.cols.0.min(col), s.cols.1.max(col)),
            },
        }
    }
}

/// Where `x` lies against `(first, last)`: 0 before, 1 on the first, 2 between, 3 on the
/// last (when apart), 4 after.
fn class(x: usize, (first, last): (usize, usize)) -> usize {
    if x < first {
        0
    } else if x == first {
        1
    } else if x < last {
        2
    } else if x == last {
        3
    } else {
        4
    }
}

/// A coordinate of class `k` against `(first, last)` (any one: all give the same turns).
fn of_class(k: usize, (first, last): (usize, usize)) -> i64 {
    let (first, last) = (first as i64, last as i64);
    [first - 1, first, first + 1, last, last + 1][k]
}

impl<'a> Bound<'a> {
    fn new(
        steps: &'a [u32],
        goals: &[Port],
        grid: Grid,
        (row_class, col_class): (&'a mut Vec<[u16; 4]>, &'a mut Vec<[u16; 4]>),
    ) -> Self {
        let mut arrivals: [Option<Span>; 4] = [None; 4];
        for port in goals {
            let a = &mut arrivals[index(opposite(port.out))];
            *a = Some(Span::with(*a, port.cell));
        }
        let mut turns = [4u8; TURNS];
        row_class.clear();
        row_class.resize(grid.rows, [0; 4]);
        col_class.clear();
        col_class.resize(grid.cols, [0; 4]);
        for (arrive, span) in arrivals.iter().enumerate() {
            let Some(span) = *span else {
                continue; // its entries stay 4 and every cell reads class 0
            };
            for rk in 0..CLASSES {
                for ck in 0..CLASSES {
                    let cell = (of_class(rk, span.rows), of_class(ck, span.cols));
                    for way in 0..4 {
                        let t = fewest_turns(cell, way, span, arrive);
                        turns[((arrive * CLASSES + rk) * CLASSES + ck) * 4 + way] = t as u8;
                    }
                }
            }
            for (row, c) in row_class.iter_mut().enumerate() {
                c[arrive] = ((arrive * CLASSES + class(row, span.rows)) * CLASSES * 4) as u16;
            }
            for (col, c) in col_class.iter_mut().enumerate() {
                c[arrive] = (class(col, span.cols) * 4) as u16;
            }
        }
        for (arrive, span) in arrivals.iter().enumerate() {
            if span.is_none() {
                for c in row_class.iter_mut() {
                    c[arrive] = (arrive * CLASSES * CLASSES * 4) as u16;
                }
            }
        }
        Bound {
            steps,
            row_class,
            col_class,
            turns,
        }
    }

    /// The bound of the state at cell index `at` (cell `cell`) running way `way`, or
    /// [`FAR`] when no goal can be reached from it.
    #[inline]
    fn at(&self, at: usize, (row, col): (usize, usize), way: usize) -> u32 {
        let steps = self.steps[at];
        if steps == FAR {
            return FAR;
        }
        let (rc, cc) = (self.row_class[row], self.col_class[col]);
        let turn = |a: usize| self.turns[usize::from(rc[a] + cc[a]) + way];
        let turns = turn(0).min(turn(1)).min(turn(2)).min(turn(3));
        steps + TURN * u32::from(turns)
    }
}

/// The fewest turns from `cell` running way `way` to a cell of `goals` arriving way
/// `arrive`, on an empty grid where a turn is a step the new way and U-turns are not
/// allowed.
fn fewest_turns((row, col): (i64, i64), way: usize, goals: Span, arrive: usize) -> u32 {
    let (r0, r1) = (goals.rows.0 as i64, goals.rows.1 as i64);
    let (c0, c1) = (goals.cols.0 as i64, goals.cols.1 as i64);
    // per way: how far on that way the farthest goal lies (negative: all are behind)
    let ahead = [row - r0, r1 - row, col - c0, c1 - col];
    if arrive == way || arrive == WAY_OPPOSITE[way] {
        // across the way: is a goal in line with the cell, is one off it?
        let (in_line, off_line) = if WAY_HORIZONTAL[way] {
            (r0 <= row && row <= r1, (r0, r1) != (row, row))
        } else {
            (c0 <= col && col <= c1, (c0, c1) != (col, col))
        };
        match (arrive == way, off_line) {
            (true, _) if in_line && ahead[way] >= 0 => 0,
            (true, true) if ahead[way] >= 1 => 2,
            (false, true) => 2,
            _ => 4,
        }
    } else if ahead[way] >= 0 && ahead[arrive] >= 1 {
        1
    } else {
        3
    }
}

/// The search's queue: one stack of states per queue key, all in one arena (a `Vec` per
/// key was most of the search's time in allocations).
#[derive(Default)]
struct Buckets {
    /// per key: the arena index of its top entry, or `NONE`
    head: Vec<u32>,
    arena: Vec<Entry>,
}

/// A state queued, with its cell (dividing the state by the grid's width for it was a
/// tenth of a search), the cost it was reached at (stale once reached more cheaply), and
/// the arena index of the entry under it.
#[derive(Clone, Copy)]
struct Entry {
    state: u32,
    cost: u32,
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
    fn push(&mut self, key: u32, cost: u32, s: usize, (row, col): (usize, usize)) {
        let key = key as usize;
        if self.head.len() <= key {
            self.head.resize(key + 1, NONE);
        }
        self.arena.push(Entry {
            state: s as u32,
            cost,
            row: row as u32,
            col: col as u32,
            under: self.head[key],
        });
        self.head[key] = (self.arena.len() - 1) as u32;
    }

    /// The entry on top of key `key`'s stack.
    #[inline]
    fn pop(&mut self, key: usize) -> Option<Entry> {
        let top = *self.head.get(key)?;
        let e = *self.arena.get(top as usize)?;
        self.head[key] = e.under;
        Some(e)
    }
}

/// One search's state.
struct Queue<'a> {
    costs: Costs<'a>,
    bound: Bound<'a>,
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
            let way = index(port.out);
            let s = (port.cell.0 * cols + port.cell.1) * 4 + way;
            self.reach(s, 0, port.cell, way, u32::MAX);
        }
        let mut key = 0;
        while key < self.buckets.head.len() {
            while let Some(e) = self.buckets.pop(key) {
                let s = e.state as usize;
                if self.dist[s] != e.cost {
                    continue; // reached again more cheaply since
                }
                let way = s % 4;
                if self.goal[s / 4] & (1 << way) != 0 {
                    return Some(s);
                }
                self.expanded += 1;
                self.expand(s, e.cost, (e.row as usize, e.col as usize), way);
            }
            key += 1;
        }
        None
    }

    /// Every step from state `s` (reached at `cost`, at `cell`, running the way with index
    /// `way`) that is cheaper than known. Ways and cells as indices: this loop is most of
    /// a route's time.
    fn expand(&mut self, s: usize, cost: u32, (row, col): (usize, usize), way: usize) {
        let grid = self.grid;
        let at = row * grid.cols + col;
        let (_, crossing, _) = self.costs.at(at, (row, col), WAY_HORIZONTAL[way]);
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
            let (enter, _, near) = self.costs.at(to, next, horizontal);
            if enter >= WALL || (near && !at_goal) {
                continue;
            }
            let mut c = cost + STEP + enter;
            if next_way != way {
                c += TURN;
            }
            self.reach(to * 4 + next_way, c, next, next_way, s as u32);
        }
    }

    /// Queue state `s` (at `cell`, running `way`) reached at `cost` from state `from`,
    /// unless it was reached as cheaply before or no goal can be reached from it.
    #[inline]
    fn reach(&mut self, s: usize, cost: u32, cell: (usize, usize), way: usize, from: u32) {
        if cost >= self.dist[s] {
            return;
        }
        let bound = self.bound.at(s / 4, cell, way);
        if bound == FAR {
            return;
        }
        self.dist[s] = cost;
        self.prev[s] = from;
        self.buckets.push(cost + bound, cost, s, cell);
    }

    /// Blank what this search touched: every state reached was queued.
    fn forget(&mut self) {
        for e in &self.buckets.arena {
            self.dist[e.state as usize] = u32::MAX;
            self.prev[e.state as usize] = u32::MAX;
        }
        self.buckets.clear();
    }
}

/// Per way index (the order of `DIRS`, as `index` numbers them): the way back, and
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

#[cfg(test)]
mod tests {
    use super::{Bound, Span, TURN, WAY_OPPOSITE, fewest_turns};
    use crate::glyphs::Dir4;
    use crate::graph::detour::{Grid, Port, index, opposite};
    use std::collections::VecDeque;

    /// The fewest turns from every state (cell × way) of an empty `n`×`n` grid to any goal
    /// in `goals` arriving `arrive`, by a 0-1 breadth-first search back from the goals.
    fn turns_by_search(n: usize, goals: Span, arrive: usize) -> Vec<u32> {
        let step = |(r, c): (usize, usize), way: usize| -> Option<(usize, usize)> {
            let next = match way {
                0 => (r.checked_sub(1)?, c),
                1 => (r + 1, c),
                2 => (r, c.checked_sub(1)?),
                _ => (r, c + 1),
            };
            (next.0 < n && next.1 < n).then_some(next)
        };
        let state = |(r, c): (usize, usize), way: usize| (r * n + c) * 4 + way;
        let mut best = vec![u32::MAX; n * n * 4];
        let mut queue = VecDeque::new();
        for r in goals.rows.0..=goals.rows.1 {
            for c in goals.cols.0..=goals.cols.1 {
                let s = state((r, c), arrive);
                best[s] = 0;
                queue.push_back(s);
            }
        }
        // back from a state (cell, way): it was reached from the cell behind, running
        // `way` (no turn) or a way across it (a turn)
        while let Some(s) = queue.pop_front() {
            let (cell, way) = ((s / 4 / n, s / 4 % n), s % 4);
            let Some(from) = step(cell, WAY_OPPOSITE[way]) else {
                continue;
            };
            for before in 0..4 {
                if before == WAY_OPPOSITE[way] {
                    continue;
                }
                let turn = u32::from(before != way);
                let t = state(from, before);
                if best[s] + turn < best[t] {
                    best[t] = best[s] + turn;
                    if turn == 0 {
                        queue.push_front(t);
                    } else {
                        queue.push_back(t);
                    }
                }
            }
        }
        best
    }

    #[test]
    fn the_fewest_turns_bound_is_what_a_search_of_an_empty_grid_finds() {
        // goals (one cell, a row, a column, as a box's side) and the cells asked about in
        // the middle of a grid with room round them
        let n = 25;
        let spans = [
            Span {
                rows: (12, 12),
                cols: (12, 12),
            },
            Span {
                rows: (10, 10),
                cols: (11, 14),
            },
            Span {
                rows: (9, 14),
                cols: (15, 15),
            },
        ];
        for goals in spans {
            for arrive in 0..4 {
                let best = turns_by_search(n, goals, arrive);
                for r in 6..19 {
                    for c in 6..19 {
                        for way in 0..4 {
                            let want = best[(r * n + c) * 4 + way];
                            let got = fewest_turns((r as i64, c as i64), way, goals, arrive);
                            assert_eq!(
                                got, want,
                                "from ({r},{c}) way {way} to {goals:?} arriving {arrive}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_bound_looks_up_the_fewest_turns_to_the_nearest_side_of_a_box() {
        // a box in rows 5..=7, columns 6..=10: ports above, below, left and right of it
        let grid = Grid {
            rows: 14,
            left: 0,
            cols: 18,
        };
        let mut all = Vec::new();
        for col in 7..=9 {
            all.push(((4, col), Dir4::Up));
            all.push(((8, col), Dir4::Down));
        }
        all.push(((6, 5), Dir4::Left));
        all.push(((6, 11), Dir4::Right));
        // and a box whose only free sides are its bottom and its right
        let some: Vec<_> = all
            .iter()
            .copied()
            .filter(|&(_, out)| matches!(out, Dir4::Down | Dir4::Right))
            .collect();
        for goals in [all, some] {
            let ports: Vec<Port> = goals
                .iter()
                .map(|&(cell, out)| Port {
                    cell,
                    out,
                    border: None,
                })
                .collect();
            let steps = vec![0; grid.rows * grid.cols];
            let (mut rows, mut cols) = (Vec::new(), Vec::new());
            let bound = Bound::new(&steps, &ports, grid, (&mut rows, &mut cols));
            for row in 0..grid.rows {
                for col in 0..grid.cols {
                    for way in 0..4 {
                        let want = goals
                            .iter()
                            .map(|&(cell, out)| {
                                let span = Span::with(None, cell);
                                fewest_turns(
                                    (row as i64, col as i64),
                                    way,
                                    span,
                                    index(opposite(out)),
                                )
                            })
                            .min()
                            .unwrap_or(4);
                        let got = bound.at(row * grid.cols + col, (row, col), way);
                        assert_eq!(got, TURN * want, "at ({row},{col}) way {way}");
                    }
                }
            }
        }
    }
}
