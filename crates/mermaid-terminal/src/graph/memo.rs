//! The stages of one layout variant that come out alike, planned and drawn once: knobs
//! that plan the same way (`spread` left to right), and different knobs that happen to
//! give an equal plan (ports that had no room to spread). Drawing a plan can route back
//! edges for milliseconds; the same plan always draws the same picture.

use std::rc::Rc;

use super::Stage;
use super::draw::Drawing;
use super::layout::{Params, Plan};

/// What the stages of one variant in one direction planned and drew so far.
#[derive(Default)]
pub(super) struct Stages {
    /// knobs and their plan (`None`: nothing could be placed)
    planned: Vec<(Params, Option<Plan>)>,
    /// plans drawn and what came of each
    drawn: Vec<(Plan, Result<Rc<Drawing>, Stage>)>,
}

impl Stages {
    /// The plan of `p`, made by `plan` unless knobs that plan alike made it already.
    pub(super) fn plan(
        &mut self,
        p: Params,
        horizontal: bool,
        plan: impl FnOnce() -> Option<Plan>,
    ) -> Option<Plan> {
        if let Some((_, known)) = self
            .planned
            .iter()
            .find(|(q, _)| q.same_plan(p, horizontal))
        {
            return known.clone();
        }
        let made = plan();
        self.planned.push((p, made.clone()));
        made
    }

    /// The drawing of `plan`, made by `draw` unless an equal plan was drawn already.
    pub(super) fn draw(
        &mut self,
        plan: &Plan,
        draw: impl FnOnce() -> Result<Drawing, Stage>,
    ) -> Result<Rc<Drawing>, Stage> {
        if let Some((_, known)) = self.drawn.iter().find(|(q, _)| q == plan) {
            return known.clone();
        }
        let made = draw().map(Rc::new);
        self.drawn.push((plan.clone(), made.clone()));
        made
    }
}
