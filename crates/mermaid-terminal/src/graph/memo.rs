//! The stages of one layout variant that come out alike, planned and drawn once: knobs
//! that plan the same way (`spread` left to right), wraps that wrap no text differently,
//! and different knobs that happen to give an equal plan (ports that had no room to
//! spread). Drawing a plan can route back
//! edges for milliseconds; the same plan always draws the same picture.

use std::cell::RefCell;
use std::rc::Rc;

use super::Stage;
use super::draw::Drawing;
use super::layout::{Params, Plan, PlanKey, Sized, Unplanned, Wrapped};
use super::model::{Direction, Graph};
use super::rank::Ranked;

/// What came of drawing a plan.
type Drawn = Result<Rc<Drawing>, Stage>;

/// What the stages of one variant in one direction planned and drew so far.
#[derive(Default)]
pub(super) struct Stages {
    /// knobs and their plan (or why nothing could be placed)
    planned: Vec<(Params, Result<Rc<Plan>, Unplanned>)>,
    /// what the placement depended on and what came of it
    placed: Vec<(PlanKey, Result<Rc<Plan>, Unplanned>)>,
    /// plans drawn and what came of each
    drawn: Vec<(Rc<Plan>, Drawn)>,
}

impl Stages {
    /// The plan of `p` (the stage `at`), sized by `size`, unless knobs that plan alike
    /// made it already. A stage whose boxes alone are wider than `within` is given up and
    /// not kept: asked again, it is planned.
    pub(super) fn plan<'a>(
        &mut self,
        at: StageAt<'a, '_>,
        p: Params,
        within: usize,
        size: impl FnOnce() -> Result<Sized<'a>, String>,
    ) -> Result<Rc<Plan>, Unplanned> {
        let horizontal = at.dir.horizontal();
        if let Some((_, known)) = self
            .planned
            .iter()
            .find(|(q, _)| q.same_plan(p, horizontal))
        {
            return known.clone();
        }
        let made = self.placed(at, p, size, within);
        if made != Err(Unplanned::TooWide) {
            self.planned.push((p, made.clone()));
        }
        made
    }

    /// The boxes sized by `size` placed, unless boxes and texts placed alike were already
    /// (a placement given up at `within` is not kept).
    fn placed<'a>(
        &mut self,
        at: StageAt<'a, '_>,
        p: Params,
        size: impl FnOnce() -> Result<Sized<'a>, String>,
        within: usize,
    ) -> Result<Rc<Plan>, Unplanned> {
        if at.widths.least(at.r, at.dir, p).is_some_and(|w| w > within) {
            return Err(Unplanned::TooWide);
        }
        let sized = size().map_err(Unplanned::Failed)?;
        let least = sized.least_width();
        at.widths.note(at.r, at.dir, p, least);
        if least > within {
            return Err(Unplanned::TooWide);
        }
        let key = sized.key();
        if let Some((_, known)) = self.placed.iter().find(|(k, _)| *k == key) {
            return known.clone();
        }
        let made = sized.place(within).map(Rc::new);
        if made != Err(Unplanned::TooWide) {
            self.placed.push((key, made.clone()));
        }
        made
    }

    /// The drawing of `plan`, made by `draw` unless an equal plan was drawn already.
    pub(super) fn draw(
        &mut self,
        plan: &Rc<Plan>,
        draw: impl FnOnce() -> Result<Drawing, Stage>,
    ) -> Drawn {
        if let Some((_, known)) = self
            .drawn
            .iter()
            .find(|(q, _)| Rc::ptr_eq(q, plan) || q == plan)
        {
            return known.clone();
        }
        super::work::count(|w| w.drawn += 1);
        let made = draw().map(Rc::new);
        self.drawn.push((Rc::clone(plan), made.clone()));
        made
    }
}

/// Which stage is planned: its layering and direction, and the least widths known of the
/// search it is part of.
#[derive(Clone, Copy)]
pub(super) struct StageAt<'a, 'w> {
    pub(super) r: &'a Ranked,
    pub(super) dir: Direction,
    pub(super) widths: &'w Widths<'a>,
}

/// The least width of the boxes of each stage sized so far in one search of a graph's
/// drawing (every direction, layering and knobs tried): the lined-up and pulled-inside
/// attempts size their boxes as the plain ones did, so a stage too wide by its boxes
/// alone is sized once, not once per attempt.
#[derive(Default)]
pub(super) struct Widths<'a> {
    /// (layering, direction, knobs, least width)
    known: RefCell<Vec<(&'a Ranked, Direction, Params, usize)>>,
}

impl<'a> Widths<'a> {
    /// The least width of `p`'s boxes on layering `r`, if sized before (the same layering:
    /// the same one in memory, it lives as long as the search).
    fn least(&self, r: &'a Ranked, dir: Direction, p: Params) -> Option<usize> {
        let horizontal = dir.horizontal();
        (self.known.borrow().iter())
            .find(|(q, d, k, _)| std::ptr::eq(*q, r) && *d == dir && k.same_sizes(p, horizontal))
            .map(|known| known.3)
    }

    /// Keep the least width of `p`'s boxes on layering `r`.
    fn note(&self, r: &'a Ranked, dir: Direction, p: Params, least: usize) {
        if self.least(r, dir, p).is_none() {
            self.known.borrow_mut().push((r, dir, p, least));
        }
    }
}

/// The texts of each wrap wrapped once in one search of a graph's drawing: every layering,
/// direction and spacing at that wrap boxes the same texts.
#[derive(Default)]
pub(super) struct Texts {
    /// (knobs, their texts wrapped)
    known: RefCell<Vec<(Params, Wrapped)>>,
}

impl Texts {
    /// `g`'s texts wrapped for stage `p`.
    pub(super) fn of(&self, g: &Graph, p: Params) -> Wrapped {
        if let Some((_, known)) =
            (self.known.borrow().iter()).find(|(q, _)| Wrapped::same_wrap(*q, p))
        {
            return known.clone();
        }
        let made = Wrapped::of(g, p);
        self.known.borrow_mut().push((p, made.clone()));
        made
    }
}
