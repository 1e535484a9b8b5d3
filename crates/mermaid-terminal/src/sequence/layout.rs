//! Lifeline drawing and the width-fitting stages (natural gaps, tight gaps, wrapped labels).

use crate::RenderOptions;
use crate::canvas::Canvas;
use crate::glyphs::{DOWN, Dir4, Glyphs, Head, LineKind, UP};
use crate::sequence::columns::{Columns, lower_row, shared_columns};
use crate::sequence::compact;
use crate::sequence::model::{Arrow, Diagram, NotePos, ParticipantId, PerParticipant};
use crate::sequence::prepare::{
    Item, Labels, Names, Prepared, Wrapped, prepare, widest_label, with_names, wrap_floors,
    wrap_labels,
};
use crate::style::{Line, Style};
use crate::text::{clusters, display_width, max_width, wrap_fields};
use std::cell::RefCell;

/// How far a message label may move off its centre to clear the lifelines it passes.
const NUDGE: usize = 4;

/// Labels are never wrapped narrower than this (the compact form takes over instead).
const MIN_WRAP: usize = 8;

/// Try the lifeline drawing: natural gaps, tight gaps, participant names wrapped in their
/// boxes, then labels wrapped at decreasing widths, last the boxes in two rows; `None`
/// when nothing fits.
pub fn render_fitted(d: &Diagram, opts: &RenderOptions) -> Option<Vec<Line>> {
    render_fitted_all(std::slice::from_ref(d), opts)?.pop()
}

/// The diagrams laid out on shared lifeline columns (they have the same participants: the
/// options of a question), so they line up column for column; `None` when they do not all
/// fit the width.
pub fn render_fitted_all(ds: &[Diagram], opts: &RenderOptions) -> Option<Vec<Vec<Line>>> {
    let whole: Vec<Labels> = ds.iter().map(Labels::new).collect();
    fit_all(&whole, ds, opts).or_else(|| {
        // a name cut after its `_` or `-` (`pg_try_` `advisory_lock(`) reads worse than
        // one whole: only when nothing else fits, and where a label has one
        if !whole.iter().any(|l| l.has_joiners_wider_than(MIN_WRAP)) {
            return None;
        }
        let cut: Vec<Labels> = whole.iter().map(Labels::with_names_cut).collect();
        fit_all(&cut, ds, opts)
    })
}

/// The width search of [`render_fitted_all`] over labels cut as `labels` says.
fn fit_all(labels: &[Labels], ds: &[Diagram], opts: &RenderOptions) -> Option<Vec<Vec<Line>>> {
    let fits = |cols: &[Columns]| cols.iter().all(|c| c.width <= opts.width);
    let whole: Vec<Prepared> = labels
        .iter()
        .map(|l| prepare(l, usize::MAX, Names::Whole, &[]))
        .collect();
    for pad in [2, 0] {
        let cols = shared_columns(&whole, pad);
        if fits(&cols)
            && let Some(lines) = draw_all(&whole, &cols, ds, opts)
        {
            return Some(lines);
        }
    }
    // Narrower: names wrapped in their boxes, labels wrapped, or both; fewest rows first.
    let search = Search {
        floors: labels.iter().map(|l| wrap_floors(l, MIN_WRAP)).collect(),
        labels,
        wrapped: RefCell::new(Vec::new()),
        widest: whole.iter().map(widest_label).max().unwrap_or(0),
        width: opts.width,
    };
    let mut candidates = search.stages(Names::Whole);
    // one-word names wrap into themselves: those stages were the ones just made
    if !labels.iter().all(Labels::narrow_names_are_whole) {
        candidates.extend(search.stages(Names::Narrow));
    }
    candidates.sort_by_key(|(ps, _)| ps.iter().map(height).sum::<usize>());
    if let Some(lines) = candidates
        .iter()
        .find_map(|(ps, cols)| draw_all(ps, cols, ds, opts))
    {
        return Some(lines);
    }
    // Boxes that hug their names, only when padded ones leave no room; then boxes in two
    // rows, when side by side they do not fit.
    let mut last_resorts = vec![Names::Tight];
    if ds.iter().all(can_stagger) {
        last_resorts.extend([Names::Staggered, Names::TightStaggered]);
    }
    last_resorts.into_iter().find_map(|names| {
        search
            .stages(names)
            .iter()
            .find_map(|(ps, cols)| draw_all(ps, cols, ds, opts))
    })
}

/// Boxes may go in two rows when no `box` group frames them (its frame would cross the
/// lower row) and none is created later (its box is drawn where it is created), with at
/// least three participants (two fit side by side wherever the listing does not win).
fn can_stagger(d: &Diagram) -> bool {
    d.groups.is_empty() && d.participants.len() >= 3 && d.participants.iter().all(|p| !p.created)
}

/// Every diagram drawn, or `None` if any would overlap or overflow.
fn draw_all(
    ps: &[Prepared],
    cols: &[Columns],
    ds: &[Diagram],
    opts: &RenderOptions,
) -> Option<Vec<Vec<Line>>> {
    ps.iter()
        .zip(cols)
        .zip(ds)
        .map(|((p, c), d)| draw(p, c, d, opts))
        .collect()
}

/// The diagrams prepared at one wrap width, and their shared columns.
type Stage<'a> = (Vec<Prepared<'a>>, Vec<Columns>);

/// The width search over the diagrams' labels: each names layout searches the wrap widths,
/// and the labels wrapped at a width are kept for the layouts that try it again.
struct Search<'a> {
    labels: &'a [Labels<'a>],
    /// per diagram, per event: the narrowest its label wraps to
    floors: Vec<Vec<usize>>,
    /// (wrap width, per diagram its labels wrapped at it)
    wrapped: RefCell<Vec<(usize, Vec<Wrapped<'a>>)>>,
    /// the widest label (or name): wrapping there or wider changes nothing
    widest: usize,
    width: usize,
}

impl<'a> Search<'a> {
    fn fits(&self, cols: &[Columns]) -> bool {
        cols.iter().all(|c| c.width <= self.width)
    }

    /// The stages of one names layout that fit: labels unwrapped (but for whole names,
    /// tried before), then the widest wrap that fits.
    fn stages(&self, names: Names) -> Vec<Stage<'a>> {
        let mut found = Vec::new();
        let narrowest = if self.widest > MIN_WRAP {
            let narrowest = self.stage(MIN_WRAP, names);
            if !self.fits(&narrowest.1) {
                // wrapped lines are pieces of the unwrapped ones: these do not fit either
                return found;
            }
            Some(narrowest)
        } else {
            None
        };
        if names != Names::Whole {
            let unwrapped = self.stage(usize::MAX, names);
            if self.fits(&unwrapped.1) {
                found.push(unwrapped);
            }
        }
        found.extend(narrowest.map(|n| self.widest_wrap(n, names)));
        found
    }

    /// The diagrams with labels wrapped at `max` (each no narrower than its floor), on
    /// shared columns.
    fn stage(&self, max: usize, names: Names) -> Stage<'a> {
        count(|w| w.stages += 1);
        let ps: Vec<Prepared<'a>> = self
            .wrapped_at(max)
            .iter()
            .zip(self.labels)
            .map(|(w, l)| with_names(l, w, names))
            .collect();
        let cols = shared_columns(&ps, 0);
        (ps, cols)
    }

    /// Every diagram's labels wrapped at `max`, wrapped once per search.
    fn wrapped_at(&self, max: usize) -> Vec<Wrapped<'a>> {
        if let Some((_, w)) = self.wrapped.borrow().iter().find(|(m, _)| *m == max) {
            return w.clone();
        }
        count(|w| w.wraps += 1);
        let w: Vec<Wrapped<'a>> = self
            .labels
            .iter()
            .zip(&self.floors)
            .map(|(l, f)| wrap_labels(l, max, f))
            .collect();
        self.wrapped.borrow_mut().push((max, w.clone()));
        w
    }

    /// Wider label wraps need more columns but fewer rows: the widest wrap from `MIN_WRAP`
    /// up that fits, `narrowest` being the stage at `MIN_WRAP` (which fits).
    fn widest_wrap(&self, narrowest: Stage<'a>, names: Names) -> Stage<'a> {
        let mut best = narrowest;
        let (mut lo, mut hi) = (MIN_WRAP + 1, self.widest - 1);
        while lo <= hi {
            let mid = lo + (hi - lo) / 2;
            let (ps, cols) = self.stage(mid, names);
            if self.fits(&cols) {
                best = (ps, cols);
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        best
    }
}

/// Rows the drawing of `p` takes (near enough to compare stages).
fn height(p: &Prepared) -> usize {
    let header =
        (p.names.iter().map(Vec::len).max().unwrap_or(1) + 2) * if p.staggered { 2 } else { 1 };
    header
        + p.items
            .iter()
            .map(|i| match i {
                Item::Message { lines, .. } => lines.len() + 1,
                Item::Note { lines, .. } => lines.len() + 2,
                Item::Open { lines, .. } | Item::Divider { lines, .. } => lines.len().max(1),
                Item::Close => 1,
                _ => 0,
            })
            .sum::<usize>()
}

/// One message as the drawer needs it.
struct Msg<'a> {
    from: ParticipantId,
    to: ParticipantId,
    arrow: Arrow,
    lines: &'a [String],
    text: &'a [String],
    activate: bool,
    deactivate: bool,
}

struct Drawer<'a> {
    p: &'a Prepared<'a>,
    c: &'a Columns,
    g: Glyphs,
    canvas: Canvas,
    row: usize,
    alive: PerParticipant<bool>,
    active: PerParticipant<usize>,
    pending_destroy: PerParticipant<bool>,
    /// open frames: (first row, index into `Columns::frames`)
    frames: Vec<(usize, usize)>,
    /// frames opened so far
    opened: usize,
    collision: bool,
}

/// Draw the prepared diagram; `None` if anything would overlap or overflow.
fn draw(p: &Prepared, c: &Columns, d: &Diagram, opts: &RenderOptions) -> Option<Vec<Line>> {
    let mut dr = Drawer {
        p,
        c,
        g: Glyphs::new(opts.ascii),
        // rows as wide as the columns from the start (grown cell by cell they reallocate),
        // about as many as the drawing takes (the list of rows is not regrown either)
        canvas: Canvas::with_capacity(Glyphs::new(opts.ascii), height(p), c.width),
        row: 0,
        alive: p.created.map(|c| !c),
        active: p.created.map(|_| 0),
        pending_destroy: p.created.map(|_| false),
        frames: Vec::new(),
        opened: 0,
        collision: false,
    };
    dr.header();
    for item in p.items.iter() {
        dr.item(item);
    }
    for i in p.names.ids() {
        if dr.pending_destroy[i] {
            dr.destroy(i);
        }
    }
    if dr.collision || dr.canvas.width() > opts.width {
        return None;
    }
    // The canvas's lines are no wider than the canvas (checked above); the title and the
    // legend are measured.
    let mut lines = dr.canvas.into_lines();
    if let Some(title) = &p.title {
        let title = Line::styled(*title, Style::Label);
        if title.width() > opts.width {
            return None;
        }
        lines.insert(0, title);
    }
    // Kinds that differ by one glyph (▶/▷, ─/┄) are named under the drawing.
    let legend = compact::legend(d, opts);
    if legend.iter().any(|l| l.width() > opts.width) {
        return None;
    }
    lines.extend(legend);
    Some(lines)
}

impl Drawer<'_> {
    /// Reserve `k` rows, drawing the lifelines through them.
    fn rows(&mut self, k: usize) -> usize {
        let start = self.row;
        for r in start..start + k {
            for i in self.c.x.ids() {
                if self.alive[i] {
                    let kind = if self.active[i] > 0 {
                        LineKind::Thick
                    } else {
                        LineKind::Solid
                    };
                    self.canvas
                        .join(r, self.c.x[i], UP | DOWN, kind, Style::Border);
                }
            }
        }
        self.row += k;
        start
    }

    /// Write a label, noting any overlap (the caller then tries a wider layout).
    fn label(&mut self, row: usize, col: usize, text: &str, style: Style) {
        let w = display_width(text);
        if !self.canvas.is_free(row, col, col + w) {
            self.collision = true;
        }
        self.canvas.text(row, col, text, style);
    }

    /// Write a message label that may cover the lifelines it passes over (a message that
    /// skips a participant), noting any other overlap.
    fn label_over(&mut self, row: usize, col: usize, text: &str) {
        let w = display_width(text);
        let free = (col..col + w).all(|c| self.on_lifeline(c) || self.canvas.is_empty(row, c));
        if !free {
            self.collision = true;
        }
        self.canvas.text(row, col, text, Style::Label);
    }

    /// True when column `c` is a lifeline's.
    fn on_lifeline(&self, c: usize) -> bool {
        self.c.x.as_slice().contains(&c)
    }

    fn header(&mut self) {
        if !self.p.groups.is_empty() {
            let r = self.rows(1);
            for g in self.p.groups {
                let (a, b, label) = (g.first, g.last, &g.label);
                let l = self.c.x[a] - self.c.half[a].0 - 1;
                let rr = self.c.x[b] + self.c.half[b].1 + 1;
                self.canvas.hline(r, l, rr, LineKind::Solid, Style::Block);
                self.canvas.join(r, l, DOWN, LineKind::Solid, Style::Block);
                self.canvas.join(r, rr, DOWN, LineKind::Solid, Style::Block);
                self.canvas.round(r, l);
                self.canvas.round(r, rr);
                if !label.is_empty() {
                    let text = format!(" {label} ");
                    self.canvas.text(r, l + 2, &text, Style::Block);
                }
            }
            // The corners point down into the row below; give that row's cells nothing.
        }
        let h = self
            .p
            .names
            .ids()
            .filter(|&i| !self.p.created[i])
            .map(|i| self.p.names[i].len())
            .max()
            .unwrap_or(1)
            + 2;
        let top = self.row;
        for i in self.p.names.ids() {
            if !self.p.created[i] {
                let lower = self.p.staggered && lower_row(i.index());
                self.participant_box(i, if lower { top + h } else { top }, h);
            }
        }
        self.row = top + h;
        if self.p.staggered {
            // the upper boxes' lifelines run down past the lower row
            for r in top + h..top + 2 * h {
                for i in self.c.x.ids().filter(|i| !lower_row(i.index())) {
                    self.canvas
                        .join(r, self.c.x[i], UP | DOWN, LineKind::Solid, Style::Border);
                }
            }
            self.row += h;
        }
    }

    fn participant_box(&mut self, i: ParticipantId, top: usize, h: usize) {
        let x = self.c.x[i];
        let (l, r) = self.c.half[i];
        let (c0, c1) = (x - l, x + r);
        let bottom = top + h - 1;
        self.canvas
            .rect(top, c0, bottom, c1, LineKind::Solid, Style::Participant);
        if self.p.actors[i] {
            for (row, col) in [(top, c0), (top, c1), (bottom, c0), (bottom, c1)] {
                self.canvas.round(row, col);
            }
        }
        self.canvas
            .join(bottom, x, DOWN, LineKind::Solid, Style::Participant);
        let name = &self.p.names[i];
        let inner = c1 - c0 - 1;
        for (k, line) in name.iter().enumerate() {
            let w = display_width(line);
            let col = c0 + 1 + (inner - w) / 2;
            self.canvas.text(top + 1 + k, col, line, Style::Participant);
        }
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Message {
                from,
                to,
                arrow,
                lines,
                text,
                activate,
                deactivate,
            } => {
                let m = Msg {
                    from: *from,
                    to: *to,
                    arrow: *arrow,
                    lines,
                    text,
                    activate: *activate,
                    deactivate: *deactivate,
                };
                if from == to {
                    self.self_message(&m);
                } else {
                    self.message(&m);
                }
                for p in [*from, *to] {
                    if self.pending_destroy[p] {
                        self.destroy(p);
                    }
                }
            }
            Item::Note {
                pos,
                first,
                last,
                lines,
                text,
            } => self.note(*pos, (*first, *last), lines, text),
            Item::Open { lines, text } => {
                let k = self.opened;
                self.opened += 1;
                let r = self.frame_rule(k, lines, text, LineKind::Solid);
                self.frames.push((r, k));
            }
            Item::Divider { lines, text } => {
                if let Some(&(_, k)) = self.frames.last() {
                    self.frame_rule(k, lines, text, LineKind::Dotted);
                }
            }
            Item::Close => {
                if let Some((start, k)) = self.frames.pop() {
                    let r = self.rows(1);
                    let (depth, rr) = self.c.frames[k];
                    let l = Columns::frame_left(depth);
                    self.canvas.hline(r, l, rr, LineKind::Solid, Style::Block);
                    self.canvas
                        .vline(l, start, r, LineKind::Solid, Style::Block);
                    self.canvas
                        .vline(rr, start, r, LineKind::Solid, Style::Block);
                }
            }
            Item::Activate(i) => self.active[*i] += 1,
            Item::Deactivate(i) => self.active[*i] = self.active[*i].saturating_sub(1),
            Item::Create(i) => {
                let h = self.p.names[*i].len() + 2;
                let top = self.rows(h);
                self.participant_box(*i, top, h);
                self.alive[*i] = true;
            }
            Item::Destroy(i) => self.pending_destroy[*i] = true,
        }
    }

    /// Frame `k`'s top rule or a divider, with its text starting in the first gap.
    fn frame_rule(&mut self, k: usize, lines: &[String], text: &str, kind: LineKind) -> usize {
        let (depth, rr) = self.c.frames[k];
        let l = Columns::frame_left(depth);
        let col = self.c.x.as_slice().first().map_or(l + 2, |x| x + 1);
        // The header runs along the rule, over the lifelines: as wide as the frame allows
        // (its rows below would cover them).
        let rewrapped = rewrap(lines, &[text.to_string()], rr.saturating_sub(col + 4));
        let lines = rewrapped.as_deref().unwrap_or(lines);
        let r = self.rows(lines.len().max(1));
        self.canvas.hline(r, l, rr, kind, Style::Block);
        for (k, line) in lines.iter().enumerate() {
            if k == 0 {
                // Overwrites the rule itself: check only against other text.
                self.canvas.text(r, col, &format!(" {line} "), Style::Block);
            } else {
                let w = display_width(line);
                let free = (col + 1..col + 1 + w)
                    .all(|c| self.on_lifeline(c) || self.canvas.is_empty(r + k, c));
                self.collision |= !free;
                self.canvas.text(r + k, col + 1, line, Style::Block);
            }
        }
        r
    }

    fn destroy(&mut self, i: ParticipantId) {
        self.pending_destroy[i] = false;
        let r = self.rows(1);
        let mark = if self.g.ascii { 'X' } else { '╳' };
        self.canvas.put(r, self.c.x[i], mark, Style::Warning);
        self.alive[i] = false;
    }

    fn message(&mut self, m: &Msg) {
        let Msg {
            from,
            to,
            arrow:
                Arrow {
                    line: kind,
                    head,
                    both,
                },
            lines,
            text,
            activate,
            deactivate,
        } = *m;
        let (xs, xt) = (self.c.x[from], self.c.x[to]);
        let (lo, hi) = (xs.min(xt), xs.max(xt));
        // The gaps were sized to the widest wrapped label; an arrow spanning more room
        // than its label was wrapped to takes fewer rows.
        let rewrapped = rewrap(lines, text, (hi - lo).saturating_sub(3));
        let lines = rewrapped.as_deref().unwrap_or(lines);
        let top = self.rows(lines.len());
        let w = max_width(lines);
        // Centred over its own arrow, covering the lifelines a long message passes (a label
        // off to one side would read as a message to the neighbour) mid-word only: a
        // lifeline beside or under a label's end or a space reads as the text cut there.
        let first = lo + 2;
        let last = hi.saturating_sub(w + 1).max(first);
        let centre = (lo + hi)
            .div_ceil(2)
            .saturating_sub(w / 2)
            .clamp(first, last);
        let touches = |c: usize, line: &str| {
            self.c
                .x
                .iter()
                .filter(|&&x| x != lo && x != hi)
                .any(|&x| !clear_of(line, c, x))
        };
        let off_lines = |c: usize, line: &str| {
            let last = hi.saturating_sub(display_width(line) + 1).max(first);
            (0..=NUDGE)
                .flat_map(|d| [c + d, c.saturating_sub(d)])
                .filter(|&c| (first..=last).contains(&c))
                .find(|&c| !touches(c, line))
                .unwrap_or(c)
        };
        let widest = lines.iter().find(|l| display_width(l) == w);
        let col = widest.map_or(centre, |l| off_lines(centre, l));
        for (k, line) in lines.iter().enumerate() {
            let lw = display_width(line);
            // each line centred under the widest, and clear of the lifelines it passes
            let c = off_lines(col + (w - lw) / 2, line);
            self.label_over(top + k, c, line);
        }
        if activate {
            self.active[to] += 1;
        }
        let r = self.rows(1);
        let right = xt > xs;
        let (toward, back) = if right {
            (Dir4::Right, Dir4::Left)
        } else {
            (Dir4::Left, Dir4::Right)
        };
        let end = if head == Head::None {
            xt
        } else if right {
            xt - 1
        } else {
            xt + 1
        };
        let start = if both && head != Head::None {
            if right { xs + 1 } else { xs - 1 }
        } else {
            xs
        };
        self.canvas.hline(r, start, end, kind, Style::Arrow);
        if head != Head::None {
            self.canvas
                .put(r, end, self.g.head(head, toward), Style::Arrow);
            if both {
                let start = if right { xs + 1 } else { xs - 1 };
                self.canvas
                    .put(r, start, self.g.head(head, back), Style::Arrow);
            }
        }
        if deactivate {
            self.active[from] = self.active[from].saturating_sub(1);
        }
    }

    fn self_message(&mut self, m: &Msg) {
        let Msg {
            from: p,
            arrow:
                Arrow {
                    line: kind,
                    head,
                    both,
                },
            lines,
            activate,
            deactivate,
            ..
        } = *m;
        let x = self.c.x[p];
        if activate {
            self.active[p] += 1;
        }
        let k = lines.len().max(1);
        let top = self.rows(k + 1);
        let bottom = top + k;
        self.canvas.hline(top, x, x + 3, kind, Style::Arrow);
        self.canvas.join(top, x + 3, DOWN, kind, Style::Arrow);
        self.canvas.vline(x + 3, top, bottom, kind, Style::Arrow);
        let back_start = if head == Head::None { x } else { x + 1 };
        self.canvas
            .hline(bottom, back_start, x + 3, kind, Style::Arrow);
        self.canvas.join(bottom, x + 3, UP, kind, Style::Arrow);
        if head != Head::None {
            self.canvas
                .put(bottom, x + 1, self.g.head(head, Dir4::Left), Style::Arrow);
            if both {
                self.canvas
                    .put(top, x + 1, self.g.head(head, Dir4::Left), Style::Arrow);
            }
        }
        for (i, line) in lines.iter().enumerate() {
            self.label(top + i, x + 5, line, Style::Label);
        }
        if deactivate {
            self.active[p] = self.active[p].saturating_sub(1);
        }
    }

    fn note(
        &mut self,
        pos: NotePos,
        (first, last): (ParticipantId, ParticipantId),
        lines: &[String],
        text: &[String],
    ) {
        let (x0, x1) = (self.c.x[first], self.c.x[last]);
        // A note over several lifelines is as wide as they are: its text wrapped to that.
        let rewrapped = if pos == NotePos::Over {
            rewrap(lines, text, (x1 + 1).saturating_sub(x0))
        } else {
            None
        };
        let lines = rewrapped.as_deref().unwrap_or(lines);
        let nw = max_width(lines);
        let (c0, c1) = match pos {
            NotePos::Right => (x0 + 2, x0 + nw + 5),
            NotePos::Left => (x0 - nw - 5, x0 - 2),
            NotePos::Over => (x0 - 2, (x0 + nw + 1).max(x1 + 2)),
        };
        let h = lines.len().max(1) + 2;
        let top = self.rows(h);
        let g = self.g;
        let (tl, tr, bl, br, hz, vt) = if g.ascii {
            ('+', '+', '+', '+', '-', '|')
        } else {
            ('┌', '┐', '└', '┘', '─', '│')
        };
        for r in top..top + h {
            for c in c0..=c1 {
                let ch = match (r == top, r == top + h - 1, c == c0, c == c1) {
                    (true, _, true, _) => tl,
                    (true, _, _, true) => tr,
                    (_, true, true, _) => bl,
                    (_, true, _, true) => br,
                    (true, _, _, _) | (_, true, _, _) => hz,
                    (_, _, true, _) | (_, _, _, true) => vt,
                    _ => ' ',
                };
                if pos != NotePos::Over && !self.canvas.is_empty(r, c) {
                    self.collision = true;
                }
                self.canvas.put(r, c, ch, Style::Note);
            }
        }
        for (k, line) in lines.iter().enumerate() {
            self.canvas.text(top + 1 + k, c0 + 2, line, Style::Note);
        }
    }
}

/// True when `line`, written from column `c`, leaves column `x` (a lifeline) clear: no
/// cell of it within one column of `x`, or letters at `x` and on both sides of it.
fn clear_of(line: &str, c: usize, x: usize) -> bool {
    let end = c + display_width(line);
    if x + 1 < c || x > end {
        return true;
    }
    if x < c + 1 || x + 2 > end {
        return false;
    }
    let bytes = line.as_bytes();
    if bytes.iter().all(|b| (0x20..0x7f).contains(b)) {
        // printable ASCII (most labels): a column a byte, so the three columns around
        // `x` are three bytes, looked at without walking the clusters before them
        return !bytes[x - 1 - c..=x + 1 - c].contains(&b' ');
    }
    let mut col = c;
    for (cluster, w) in clusters(line) {
        if col + w > x - 1 && col <= x + 1 && cluster.trim().is_empty() {
            return false;
        }
        col += w;
    }
    true
}

/// `text` wrapped again to `room` columns when that takes fewer rows than `lines` and
/// every line fits.
fn rewrap(lines: &[String], text: &[String], room: usize) -> Option<Vec<String>> {
    if room <= max_width(lines) || lines.len() <= text.len() {
        return None;
    }
    let wider: Vec<String> = text.iter().flat_map(|l| wrap_fields(l, room)).collect();
    (wider.len() < lines.len() && max_width(&wider) <= room).then_some(wider)
}

/// The width search's work, counted for tests (a deterministic measure of speed): stages
/// laid out, and widths the labels were wrapped at.
#[derive(Debug, Default, Clone, Copy)]
struct Work {
    stages: usize,
    wraps: usize,
}

#[cfg(test)]
thread_local! {
    static WORK: std::cell::Cell<Work> = const { std::cell::Cell::new(Work { stages: 0, wraps: 0 }) };
}

/// Count some work (nothing outside tests).
#[cfg_attr(not(test), allow(unused_variables))]
fn count(add: impl FnOnce(&mut Work)) {
    #[cfg(test)]
    WORK.with(|w| {
        let mut now = w.get();
        add(&mut now);
        w.set(now);
    });
}

#[cfg(test)]
mod tests {
    use super::{WORK, Work};
    use crate::{Form, RenderOptions, render};

    /// Six participants with long names, drawn at 75 columns only with their boxes in two
    /// rows: the last of five names layouts.
    const SIX_WIDE: &str = include_str!("../../tests/fixtures/sequence/six-wide-participants.mmd");

    /// Four layouts fail at 75 columns: each stops at its narrowest wrap (its unwrapped
    /// labels cannot fit either), and a width's labels are wrapped once for all of them
    /// (12 stages laid out and 12 label wraps when each layout wrapped its own, the
    /// unwrapped stage first).
    #[test]
    fn layouts_that_cannot_fit_stop_at_their_narrowest_wrap_and_share_wraps() {
        WORK.with(|w| w.set(Work::default()));
        let r = render(
            SIX_WIDE,
            &RenderOptions {
                width: 75,
                ascii: false,
            },
        );
        let work = WORK.with(std::cell::Cell::take);
        let text: Vec<String> = r.lines.iter().map(crate::Line::text).collect();
        assert_eq!(r.form, Form::Drawing, "{}", text.join("\n"));
        assert!(work.stages <= 9 && work.wraps <= 7, "{work:?}");
    }

    /// The stages a render lays out at `width`, and its form.
    fn stages_at(src: &str, width: usize) -> (usize, Form) {
        WORK.with(|w| w.set(Work::default()));
        let r = render(
            src,
            &RenderOptions {
                width,
                ascii: false,
            },
        );
        (WORK.with(std::cell::Cell::take).stages, r.form)
    }

    /// A diagram listed whatever its labels' wraps is searched again with its names cut
    /// only when a word too wide for the narrowest wrap has a `_` or `-` to cut after:
    /// short ones (`id_1`, `re-try`) cannot help, and the search is not repeated for them.
    #[test]
    fn names_are_cut_in_a_second_search_only_when_a_long_one_could_be() {
        let plain = "sequenceDiagram
    participant A as Alpha
    participant B as Bravo
    participant C as Charlie
    A->>B: send the record with its number one
    B->>C: pass it on and try again later";
        let short = plain
            .replace("number one", "id_1")
            .replace("try again", "re-try");
        let long = plain.replace("number one", "record_number_one");
        let (plain_stages, form) = stages_at(plain, 20);
        assert_eq!(form, Form::Compact);
        assert_eq!(stages_at(&short, 20).0, plain_stages);
        assert!(stages_at(&long, 20).0 > plain_stages);
    }
}
