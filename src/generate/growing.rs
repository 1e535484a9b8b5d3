//! A quiz being written a question at a time (the pipeline's stages): which slots are
//! ready, which are still being written and which were left out, and the quiz of the ready
//! ones in slot order, taken while the rest are written. Once every slot is in, that quiz
//! is the one the pipeline returns (the same questions, ids and order).

use super::Stage;
use super::cache::{self, QuizKey};
use super::checks::MIN_QUESTIONS;
use crate::quiz::{Question, Quiz, WIRE_VERSION};
use crate::session::Session;
use crate::store::StoreError;

/// What was kept of a quiz whose writing stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// These many questions are the quiz, kept for the change with their answers.
    Quiz(usize),
    /// Too few questions were written for a quiz: nothing is kept.
    TooFew(usize),
}

/// One slot of the plan.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // a few a quiz
pub enum Slot {
    Writing,
    Ready(Question),
    /// It kept failing its checks: the quiz goes on without it.
    Dropped,
}

/// What a stage changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grew {
    Nothing,
    Planned,
    /// Slot `slot`'s question is ready: it is question `position` (from 0) of the quiz now.
    Arrived {
        slot: usize,
        position: usize,
    },
    Dropped {
        slot: usize,
    },
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Growing {
    pub slots: Vec<Slot>,
    pub pr_number: u64,
}

impl Growing {
    pub fn new(pr_number: u64) -> Self {
        Self {
            slots: Vec::new(),
            pr_number,
        }
    }

    /// Applies one stage of the writing.
    pub fn apply(&mut self, stage: &Stage) -> Grew {
        match stage {
            Stage::Planned { slots } => {
                self.slots = vec![Slot::Writing; slots.len()];
                Grew::Planned
            }
            Stage::QuestionReady { index, question } => {
                self.reach(*index);
                self.slots[*index] = Slot::Ready(question.clone());
                Grew::Arrived {
                    slot: *index,
                    position: self.position_of(*index).unwrap_or(0),
                }
            }
            Stage::QuestionDropped { index, .. } => {
                self.reach(*index);
                self.slots[*index] = Slot::Dropped;
                Grew::Dropped { slot: *index }
            }
            _ => Grew::Nothing,
        }
    }

    fn reach(&mut self, index: usize) {
        if self.slots.len() <= index {
            self.slots.resize(index + 1, Slot::Writing);
        }
    }

    /// The ready questions, in slot order, as a quiz.
    pub fn quiz(&self) -> Quiz {
        Quiz {
            version: WIRE_VERSION.to_string(),
            pr_number: self.pr_number,
            questions: self
                .slots
                .iter()
                .filter_map(|s| match s {
                    Slot::Ready(q) => Some(q.clone()),
                    _ => None,
                })
                .collect(),
            extra: serde_json::Map::new(),
        }
    }

    /// The writing stopped (asked to, or failed): the questions written so far are the
    /// quiz, kept under `key` as a whole quiz would be, and `session`'s answers move to it.
    pub fn keep(&self, key: &QuizKey, session: &mut Session) -> Result<Kept, StoreError> {
        let ready = self.ready();
        if ready < MIN_QUESTIONS {
            return Ok(Kept::TooFew(ready));
        }
        let quiz = self.quiz();
        cache::save(session.store(), key, &quiz)?;
        session.grow(quiz);
        session.settle()?;
        Ok(Kept::Quiz(ready))
    }

    /// As [`Self::keep`], for a process that cannot reach its session (an ending signal):
    /// the answers are the ones saved at `writing`.
    pub fn keep_saved(
        &self,
        key: &QuizKey,
        store: &crate::store::Store,
        origin: &crate::store::Origin,
        writing: &std::path::Path,
    ) -> Result<Kept, StoreError> {
        let ready = self.ready();
        if ready < MIN_QUESTIONS {
            return Ok(Kept::TooFew(ready));
        }
        let quiz = self.quiz();
        cache::save(store, key, &quiz)?;
        store.settle_writing_attempt(writing, origin, &quiz)?;
        Ok(Kept::Quiz(ready))
    }

    pub fn ready(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| matches!(s, Slot::Ready(_)))
            .count()
    }

    /// Slots still being written.
    pub fn writing(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| matches!(s, Slot::Writing))
            .count()
    }

    /// The first question can be taken: the first slot not left out is ready.
    pub fn first_ready(&self) -> bool {
        matches!(
            self.slots.iter().find(|s| !matches!(s, Slot::Dropped)),
            Some(Slot::Ready(_))
        )
    }

    /// The slot of the quiz's question `position`.
    pub fn slot_of(&self, position: usize) -> Option<usize> {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, Slot::Ready(_)))
            .nth(position)
            .map(|(i, _)| i)
    }

    /// Where slot `slot`'s question is in the quiz, when it is ready.
    pub fn position_of(&self, slot: usize) -> Option<usize> {
        matches!(self.slots.get(slot), Some(Slot::Ready(_))).then(|| {
            self.slots[..slot]
                .iter()
                .filter(|s| matches!(s, Slot::Ready(_)))
                .count()
        })
    }

    /// The slot being written that comes next after slot `after`, else the first one being
    /// written.
    pub fn next_writing(&self, after: usize) -> Option<usize> {
        let writing = |i: &usize| matches!(self.slots[*i], Slot::Writing);
        (after + 1..self.slots.len())
            .find(writing)
            .or_else(|| (0..self.slots.len()).find(writing))
    }
}

/// What the writing's thread tells the taker (the terminal UI).
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // one at a time, straight from the channel to `update`
pub enum WritingNews {
    Stage(Stage),
    /// The whole quiz; or why not (`None`: it was cancelled).
    Done(Result<Quiz, Option<String>>),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(id: &str) -> Question {
        let quiz = crate::quiz::parse_quiz(include_str!("../../assets/demo-quiz.json")).unwrap();
        let mut q = quiz.questions[0].clone();
        q.id = id.into();
        q
    }

    fn ready(index: usize) -> Stage {
        Stage::QuestionReady {
            index,
            question: question(&format!("q{}", index + 1)),
        }
    }

    #[test]
    fn questions_take_their_slot_order_whatever_order_they_arrive_in() {
        let mut g = Growing::new(7);
        g.apply(&Stage::Planned {
            slots: vec!["a".into(), "b".into(), "c".into(), "d".into()],
        });
        assert!(!g.first_ready());
        assert_eq!(
            g.apply(&ready(2)),
            Grew::Arrived {
                slot: 2,
                position: 0
            }
        );
        assert!(!g.first_ready(), "slot 0 is still being written");
        assert_eq!(
            g.apply(&ready(0)),
            Grew::Arrived {
                slot: 0,
                position: 0
            }
        );
        assert!(g.first_ready());
        g.apply(&Stage::QuestionDropped {
            index: 1,
            checks: vec![],
        });
        let ids: Vec<String> = g.quiz().questions.iter().map(|q| q.id.clone()).collect();
        assert_eq!(ids, ["q1", "q3"]);
        assert_eq!(g.quiz().pr_number, 7);
        assert_eq!((g.ready(), g.writing()), (2, 1));
        assert_eq!(g.slot_of(1), Some(2));
        assert_eq!(g.next_writing(0), Some(3));
        assert_eq!(g.next_writing(3), Some(3));
    }

    #[test]
    fn a_first_slot_left_out_makes_the_next_one_first() {
        let mut g = Growing::new(0);
        g.apply(&Stage::Planned {
            slots: vec!["a".into(), "b".into(), "c".into()],
        });
        g.apply(&Stage::QuestionDropped {
            index: 0,
            checks: vec![],
        });
        g.apply(&ready(1));
        assert!(g.first_ready());
    }
}
