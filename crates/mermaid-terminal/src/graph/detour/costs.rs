//! What entering each cell of a route's grid costs, worked out for the whole grid at once
//! (the search's bound asks about nearly every cell): first what the plane holds in and
//! round the grid, copied to one flat array, then each cell's cost read off its
//! neighbours there.

use super::{BORDER, BY_LABEL, CROSS, Grid, NEAR_LABEL, PARALLEL};
use crate::graph::plane::{BLOCK, FRAME, Occ, Plane};
use crate::style::Style;

/// Marks a cell a line cannot enter.
pub(super) const WALL: u32 = 1 << 20;
/// the cell is a crossing (no turning on it)
const CROSSING: u32 = 1 << 30;
/// next to a box, a label or a note: only a port may touch one
const NEAR: u32 = 1 << 29;
const COST: u32 = NEAR - 1;

/// What the plane holds at a cell, as flags.
const BLOCKED: u16 = 1;
/// blocked by an edge label's text
const LABEL: u16 = 1 << 1;
/// a line runs horizontally (vertically) through it
const H_LINE: u16 = 1 << 2;
const V_LINE: u16 = 1 << 3;
/// how a line running horizontally (vertically) passes it: two bits from this shift
const H_PASS: u16 = 4;
const V_PASS: u16 = 6;
const CROSSES: u16 = 1;
const WALLED: u16 = 2;
/// an edge (not a box, a label or a frame) holds it
const EDGE: u16 = 1 << 8;

/// How far round a cell its cost looks (a label three cells along a crossed line).
const REACH: usize = 3;

/// Per cell and way of running through it (`[vertical, horizontal]`, cell `row * cols +
/// col`): the extra cost over a plain step (or [`WALL`]), whether it is a crossing, and
/// whether it is next to a box; worked out when first asked (the search visits a part of
/// the grid) from the plane's flat copy, and kept for the rest of the route.
pub(super) struct Costs<'a> {
    held: Held<'a>,
    /// per cell of the plane's copy (laid out as it): the ways a step may enter it, as
    /// [`open_ways`] works them out
    open: &'a [u8],
    grid: Grid,
    /// per cell: [`UNKNOWN`], or both ways' costs with the [`CROSSING`] and [`NEAR`] flags
    per_cell: &'a mut [[u32; 2]],
    /// the cells worked out, to forget after the search
    known: &'a mut Vec<u32>,
}

const UNKNOWN: [u32; 2] = [u32::MAX; 2];

/// The buffers of [`Costs`], kept from one search to the next (blank between them).
#[derive(Default)]
pub(super) struct Room {
    flags: Vec<u16>,
    open: Vec<u8>,
    per_cell: Vec<[u32; 2]>,
    known: Vec<u32>,
}

impl<'a> Costs<'a> {
    /// The costs of `grid` on `p`, in `room`.
    pub(super) fn new(p: &Plane, grid: Grid, room: &'a mut Room) -> Self {
        let Room {
            flags,
            open,
            per_cell,
            known,
        } = room;
        if per_cell.len() < grid.rows * grid.cols {
            per_cell.resize(grid.rows * grid.cols, UNKNOWN);
        }
        let held = copy_plane(p, grid, flags);
        open_ways(&held, grid, open);
        Costs {
            held,
            open,
            grid,
            per_cell,
            known,
        }
    }

    /// (extra cost or [`WALL`], a crossing, next to a box) of entering the cell at index
    /// `at` (`cell`) running horizontally or not.
    #[inline]
    pub(super) fn at(
        &mut self,
        at: usize,
        cell: (usize, usize),
        horizontal: bool,
    ) -> (u32, bool, bool) {
        if self.per_cell[at] == UNKNOWN {
            self.per_cell[at] = cell_costs(&self.held, self.grid, cell);
            self.known.push(at as u32);
        }
        let v = self.per_cell[at][usize::from(horizontal)];
        (v & COST, v & CROSSING != 0, v & NEAR != 0)
    }

    /// Can a line enter `cell` running `[vertically, horizontally]` (next to a box only at
    /// a goal)? What [`Costs::at`] tells, looked up in [`open_ways`]'s table.
    #[inline]
    pub(super) fn entries(&self, (row, col): (usize, usize), goal: bool) -> [bool; 2] {
        let ways = self.open[row * self.held.cols + col - self.held.left];
        let ways = if goal { ways >> AT_GOAL } else { ways };
        [ways & OPEN_V != 0, ways & OPEN_H != 0]
    }

    /// Blank again what this search worked out.
    pub(super) fn forget(&mut self) {
        for &at in self.known.iter() {
            self.per_cell[at as usize] = UNKNOWN;
        }
        self.known.clear();
    }
}

/// The flat copy of what the plane holds, `REACH` cells past the grid on every side.
struct Held<'a> {
    flags: &'a [u16],
    left: usize,
    cols: usize,
}

impl Held<'_> {
    #[inline]
    fn at(&self, row: usize, col: usize) -> u16 {
        self.flags[row * self.cols + col - self.left]
    }
}

/// What the plane holds in the cells up, down, left and right of `cell` inside the grid
/// (as `step`), 0 outside it.
#[inline]
fn neighbours(held: &Held, grid: Grid, (row, col): (usize, usize)) -> [u16; 4] {
    [
        if row > 0 { held.at(row - 1, col) } else { 0 },
        if row + 1 < grid.rows {
            held.at(row + 1, col)
        } else {
            0
        },
        if col > grid.left {
            held.at(row, col - 1)
        } else {
            0
        },
        if col + 1 < grid.cols {
            held.at(row, col + 1)
        } else {
            0
        },
    ]
}

/// Next to a box, a label or a note?
#[inline]
fn near(around: [u16; 4]) -> bool {
    (around[0] | around[1] | around[2] | around[3]) & BLOCKED != 0
}

/// In [`open_ways`]'s table: a step may enter the cell vertically, horizontally (when it
/// is not a goal); the same for a goal from this shift.
const OPEN_V: u8 = 1;
const OPEN_H: u8 = 2;
const AT_GOAL: u8 = 2;

/// Per cell of the grid (laid out as `held`): the ways a step may enter it, not walled
/// that way and, unless it is a goal, not next to a box. Worked out for the whole grid at
/// once, row by row: the search back from the goals asks about most cells, and asking
/// cell by cell (four neighbours read with their bounds checked) was a sixth of a route.
fn open_ways(held: &Held, grid: Grid, open: &mut Vec<u8>) {
    let width = held.cols;
    open.clear();
    open.resize(grid.rows * width, 0);
    // the grid's columns in a row of `held`
    let cols = grid.left - held.left..grid.cols.saturating_sub(held.left).min(width);
    if cols.is_empty() {
        return;
    }
    let line = |row: usize| held.flags.get(row * width..(row + 1) * width);
    let blocked = |f: &u16| u8::from(f & BLOCKED != 0);
    // whole rows at a time (which the compiler runs several cells a step): first whether
    // a box is beside each cell, then the ways into it
    for (row, out) in open.chunks_exact_mut(width).enumerate() {
        let Some(here) = line(row).and_then(|l| l.get(cols.clone())) else {
            break;
        };
        let out = &mut out[cols.clone()];
        let n = out.len();
        for (o, f) in out[1..].iter_mut().zip(&here[..n - 1]) {
            *o |= blocked(f);
        }
        for (o, f) in out[..n - 1].iter_mut().zip(&here[1..]) {
            *o |= blocked(f);
        }
        let up = row.checked_sub(1).and_then(line);
        let down = line(row + 1).filter(|_| row + 1 < grid.rows);
        for next in [up, down].into_iter().flatten() {
            for (o, f) in out.iter_mut().zip(&next[cols.clone()]) {
                *o |= blocked(f);
            }
        }
        for (o, &f) in out.iter_mut().zip(here) {
            let way = |shift: u16, bit: u8| if (f >> shift) & 3 == WALLED { 0 } else { bit };
            let at_goal = way(V_PASS, OPEN_V) | way(H_PASS, OPEN_H);
            let elsewhere = if *o != 0 { 0 } else { at_goal };
            *o = elsewhere | (at_goal << AT_GOAL);
        }
    }
}

fn copy_plane<'a>(p: &Plane, grid: Grid, flags: &'a mut Vec<u16>) -> Held<'a> {
    let left = grid.left.saturating_sub(REACH);
    let cols = grid.cols + REACH;
    let width = cols - left;
    flags.clear();
    flags.reserve((grid.rows + REACH) * width);
    for row in 0..grid.rows + REACH {
        let occ = p.occ.rows.get(row).map_or(&[][..], Vec::as_slice);
        flags.extend((left..cols).map(|col| held_at(p, occ.get(col), (row, col))));
    }
    Held {
        flags,
        left,
        cols: width,
    }
}

/// What the plane holds at `cell`, whose occupant is `o` (as [`pass`] and [`edge_at`]
/// read it).
fn held_at(p: &Plane, o: Option<&Occ>, (row, col): (usize, usize)) -> u16 {
    let walled = (WALLED << H_PASS) | (WALLED << V_PASS);
    let Some(o) = o.filter(|o| **o != Occ::default()) else {
        return if p.canvas.is_empty(row, col) {
            0
        } else {
            walled
        };
    };
    let line = |x: u32| x != 0 && x != BLOCK;
    let mut f = 0;
    if o.h == BLOCK {
        f |= BLOCKED;
        if p.canvas.style_at(row, col) == Some(Style::Label) {
            f |= LABEL;
        }
    }
    if line(o.h) {
        f |= H_LINE;
    }
    if line(o.v) {
        f |= V_LINE;
    }
    if (o.h != 0 && o.h < FRAME) || (o.v != 0 && o.v < FRAME) {
        f |= EDGE;
    }
    if o.h == BLOCK || o.v == BLOCK || o.corner || !p.canvas.is_line(row, col) {
        return f | walled;
    }
    let pass_bits = |mine: u32| if mine != 0 { WALLED } else { CROSSES };
    f | (pass_bits(o.h) << H_PASS) | (pass_bits(o.v) << V_PASS)
}

/// The costs of entering `cell` running `[vertically, horizontally]`, as the search reads
/// them.
fn cell_costs(held: &Held, grid: Grid, (row, col): (usize, usize)) -> [u32; 2] {
    let here = held.at(row, col);
    let around = neighbours(held, grid, (row, col));
    let [up, down, left, right] = around;
    let near = near(around);
    let flags = if near { NEAR } else { 0 };
    if here == 0 && (up | down | left | right) == 0 {
        // open ground, the most of a grid: free both ways, nothing beside
        let c = if label_two_off(held, (row, col)) {
            BY_LABEL
        } else {
            0
        };
        return [c; 2];
    }
    let walled = |shift: u16| (here >> shift) & 3 == WALLED;
    if walled(H_PASS) && walled(V_PASS) {
        return [WALL | flags; 2];
    }
    let by_label = !near && label_two_off(held, (row, col));
    let cost = |horizontal: bool| {
        let shift = if horizontal { H_PASS } else { V_PASS };
        let mut c = match (here >> shift) & 3 {
            WALLED => return WALL | flags,
            CROSSES if here & EDGE != 0 => CROSS,
            CROSSES => BORDER,
            _ => 0,
        };
        let crossing = if c > 0 { CROSSING } else { 0 };
        if c == CROSS && label_across(held, (row, col), horizontal) {
            c += NEAR_LABEL;
        }
        // a line right beside, running the same way
        let beside = if horizontal {
            (up | down) & H_LINE
        } else {
            (left | right) & V_LINE
        };
        if beside != 0 {
            c += PARALLEL;
        }
        if by_label {
            c += BY_LABEL;
        }
        c | crossing | flags
    };
    [cost(false), cost(true)]
}
/// Is a label (or a box) within three cells of `cell` along the line a step running
/// horizontally (or not) crosses there?
fn label_across(held: &Held, (row, col): (usize, usize), horizontal: bool) -> bool {
    (1..=REACH).any(|k| {
        let cells = if horizontal {
            [row.checked_sub(k).map(|r| (r, col)), Some((row + k, col))]
        } else {
            [
                col.checked_sub(k)
                    .filter(|&c| c >= held.left)
                    .map(|c| (row, c)),
                Some((row, col + k)),
            ]
        };
        cells
            .into_iter()
            .flatten()
            .any(|(r, c)| held.at(r, c) & BLOCKED != 0)
    })
}

/// Is an edge label two cells from `cell` (left, right, above or below)?
#[inline]
fn label_two_off(held: &Held, (row, col): (usize, usize)) -> bool {
    let label = |r: usize, c: usize| held.at(r, c) & LABEL != 0;
    label(row, col + 2)
        || label(row + 2, col)
        || (col >= held.left + 2 && label(row, col - 2))
        || (row >= 2 && label(row - 2, col))
}
