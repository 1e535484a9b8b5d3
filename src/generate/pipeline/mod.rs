//! Writing a quiz as a plan, then its questions in parallel: a short planning call chooses
//! the slots (`plan`), then one drafting call per slot (`draft`), a few at once, each held
//! on its own to every check of a question and repaired alone. Each question is told to
//! the caller as it passes ([`Stage::QuestionReady`]), so the first can be taken while the
//! rest are written; the whole quiz is checked once all are in.

mod draft;
mod plan;

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard, PoisonError};

use futures_util::StreamExt as _;
use futures_util::stream::FuturesUnordered;
use serde_json::Value;
use tokio::sync::mpsc::{self, UnboundedSender};

use super::checks::{MIN_QUESTIONS, check_generated};
use super::input::Input;
use super::prompt::{Context, change_message};
use super::run::{Cancel, GenerateError, Stage, backend_to_ask, failed, save_raw, stage_of};
use super::schema::drafted_question_schema;
use crate::llm::{Ask, Llm, LlmError, Progress, Selection, run_blocking};
use crate::quiz::{Question, Quiz, WIRE_VERSION, validate};

pub use draft::{DRAFT_TOOL, Planned, accept_question, draft_message, slot_id};
pub use plan::{
    PLAN_TOOL, Plan, Slot, accept_plan, accept_plan_after, check_plan, check_plan_so_far,
    plan_schema,
};

/// The planner's system prompt.
pub const PLAN_SYSTEM: &str = include_str!("plan.md");
/// A drafter's system prompt.
pub const DRAFT_SYSTEM: &str = include_str!("draft.md");

/// Drafters at once: the Messages API answers several requests side by side; each CLI
/// drafter is a process of its own reading the repository, and costs more.
pub fn concurrency(llm: &Llm) -> usize {
    match llm {
        Llm::Messages(_) => 4,
        Llm::Cli(_) => 2,
    }
}

type Stages = UnboundedSender<Stage>;

/// Plans a quiz of `input` through `selection`'s backend, then has its questions written
/// in parallel ([`concurrency`] at a time), each repaired alone within the backend's
/// limits. A question that keeps failing is written afresh once, then left out (a
/// [`Stage::QuestionDropped`]) while at least two remain. `cancel` drops every call in
/// flight. A plan or a quiz that stays invalid has its last raw answer saved in
/// `failed_dir`.
pub fn write_quiz_pipelined(
    selection: &Selection,
    input: &Input,
    context: &Context,
    failed_dir: &std::path::Path,
    on_stage: &mut dyn FnMut(&Stage),
    cancel: &Cancel,
) -> Result<Quiz, GenerateError> {
    let llm = backend_to_ask(selection, cancel)?;
    let job = Job {
        llm: &llm,
        model: &selection.model,
        input,
        context,
        failed_dir,
        pr_number: context.pr.as_ref().map_or(0, |p| p.number),
    };
    let outcome = run_blocking(
        |tx| {
            let job = &job;
            async move {
                // Dropping the pipeline on cancel drops every request (or CLI child) in it.
                tokio::select! {
                    quiz = job.run(&tx) => Some(quiz),
                    () = cancel.cancelled() => None,
                }
            }
        },
        |stage: &Stage| on_stage(stage),
    );
    outcome
        .map_err(GenerateError::Llm)?
        .unwrap_or(Err(GenerateError::Cancelled))
}

struct Job<'a> {
    llm: &'a Llm,
    model: &'a str,
    input: &'a Input,
    context: &'a Context,
    failed_dir: &'a std::path::Path,
    pr_number: u64,
}

/// Why a slot has no question.
enum Undrafted {
    /// It failed its checks on both tries: the last checks and answer.
    Failed {
        attempts: u32,
        checks: Vec<String>,
        raw: String,
    },
    /// The backend failed (the whole generation stops).
    Llm(LlmError),
}

/// The slots that passed their checks while the plan was being written, in order: each
/// one's drafter is started at once, and the complete plan keeps them as they are.
#[derive(Default)]
struct Early {
    slots: Vec<Slot>,
}

/// Output tokens so far of every call of the generation (the planner's and each
/// drafter's, each round apart), told as one count: the screen's line for the stage that
/// runs shows the total.
#[derive(Default)]
struct Tally {
    tokens: Mutex<HashMap<(Option<usize>, u32), u64>>,
}

impl Tally {
    /// Counts `output_tokens` for `drafter`'s (`None`: the planner's) round `round`, and
    /// returns the total.
    fn count(&self, drafter: Option<usize>, round: u32, output_tokens: u64) -> u64 {
        let mut tokens = self.tokens.lock().unwrap_or_else(PoisonError::into_inner);
        tokens.insert((drafter, round), output_tokens);
        tokens.values().sum()
    }

    /// The generation's tokens so far, when `progress` of `drafter`'s call (`None`: the
    /// planner's) is a count of its own.
    fn writing(&self, drafter: Option<usize>, progress: &Progress) -> Option<Stage> {
        let (Progress::Streaming {
            round,
            output_tokens,
            ..
        }
        | Progress::Working {
            round,
            activity: None,
            output_tokens,
            ..
        }) = progress
        else {
            return None;
        };
        Some(Stage::Writing {
            round: 0,
            output_tokens: self.count(drafter, *round, *output_tokens),
            activity: None,
        })
    }
}

/// What a drafter's progress tells the caller: the generation's tokens so far, and each
/// tool call it makes (the CLI reading the repository) as its own stage.
fn drafter_stage(index: usize, progress: Progress, tally: &Tally) -> Option<Stage> {
    if let Some(writing) = tally.writing(Some(index), &progress) {
        return Some(writing);
    }
    match progress {
        Progress::Repairing { checks, .. } => Some(Stage::Repairing { checks }),
        Progress::Working {
            round,
            activity: Some(activity),
            output_tokens,
            ..
        } => {
            tally.count(Some(index), round, output_tokens);
            Some(Stage::DraftActivity { index, activity })
        }
        // Streaming and Working without a tool call are counted above.
        Progress::Streaming { .. }
        | Progress::Working { activity: None, .. }
        | Progress::Asking { .. }
        | Progress::Answered { .. }
        | Progress::Item { .. } => None,
    }
}

/// Slots that wait for a drafter, and what is known of the plan.
struct Drafting {
    /// The complete plan, once it passed its checks.
    plan: Option<Plan>,
    /// Slots due a drafter, in order; `asked`: every slot ever queued.
    queue: VecDeque<usize>,
    asked: Vec<usize>,
    ready: Vec<(usize, Question)>,
    /// Slots left out, with why (decided once the plan's size is known).
    failed: Vec<(usize, u32, Vec<String>, String)>,
}

impl Drafting {
    fn queue(&mut self, index: usize) {
        if !self.asked.contains(&index) {
            self.asked.push(index);
            self.queue.push_back(index);
        }
    }

    /// Slot `index` passed its checks while the plan is written: its drafter is due.
    fn slot_planned(&mut self, early: &Mutex<Early>, index: usize, stages: &Stages) {
        let line = lock(early).slots.get(index).map(Slot::line);
        if let Some(slot) = line {
            let _ = stages.send(Stage::SlotPlanned { index, slot });
            self.queue(index);
        }
    }
}

impl Job<'_> {
    async fn run(&self, stages: &Stages) -> Result<Quiz, GenerateError> {
        let early = Mutex::new(Early::default());
        let tally = Tally::default();
        let (slot_tx, mut slot_rx) = mpsc::unbounded_channel::<usize>();
        let planning = self.plan(stages, &early, &slot_tx, &tally);
        let mut planning = std::pin::pin!(planning);
        let mut state = Drafting {
            plan: None,
            queue: VecDeque::new(),
            asked: Vec::new(),
            ready: Vec::new(),
            failed: Vec::new(),
        };
        let mut drafts = FuturesUnordered::new();
        loop {
            while drafts.len() < concurrency(self.llm)
                && let Some(index) = state.queue.pop_front()
            {
                let (slots, planned) = match &state.plan {
                    Some(plan) => (plan.slots.clone(), Planned::Whole),
                    None => (lock(&early).slots.clone(), Planned::SoFar),
                };
                drafts.push(self.draft(slots, planned, index, stages, &tally));
            }
            if state.plan.is_some() && drafts.is_empty() {
                break;
            }
            tokio::select! {
                plan = &mut planning, if state.plan.is_none() => {
                    let plan = plan?;
                    while let Ok(index) = slot_rx.try_recv() {
                        state.slot_planned(&early, index, stages);
                    }
                    let _ = stages.send(Stage::Planned {
                        slots: plan.slots.iter().map(Slot::line).collect(),
                    });
                    for index in 0..plan.slots.len() {
                        state.queue(index);
                    }
                    state.plan = Some(plan);
                    // Held until the plan was told, so that a caller knows their number.
                    for (index, question) in &state.ready {
                        let (index, question) = (*index, question.clone());
                        let _ = stages.send(Stage::QuestionReady { index, question });
                    }
                    self.left_out(&state, stages, 0)?;
                }
                Some(index) = slot_rx.recv(), if state.plan.is_none() => {
                    state.slot_planned(&early, index, stages);
                }
                Some((index, drafted)) = drafts.next(), if !drafts.is_empty() => match drafted {
                    Ok(question) => {
                        if state.plan.is_some() {
                            let question = question.clone();
                            let _ = stages.send(Stage::QuestionReady { index, question });
                        }
                        state.ready.push((index, question));
                    }
                    Err(Undrafted::Failed { attempts, checks, raw }) => {
                        state.failed.push((index, attempts, checks, raw));
                        if state.plan.is_some() {
                            self.left_out(&state, stages, state.failed.len() - 1)?;
                        }
                    }
                    Err(Undrafted::Llm(e)) => {
                        return Err(failed(e, self.failed_dir, &self.input.digest));
                    }
                },
            }
        }
        drop(drafts);
        let mut ready = state.ready;
        ready.sort_by_key(|(index, _)| *index);
        self.assemble(ready.into_iter().map(|(_, q)| q).collect())
    }

    /// Tells the slots of `state.failed[from..]` left out, or fails the generation when
    /// fewer than [`MIN_QUESTIONS`] of the plan's would be left (the plan is known).
    fn left_out(
        &self,
        state: &Drafting,
        stages: &Stages,
        from: usize,
    ) -> Result<(), GenerateError> {
        let n = state.plan.as_ref().map_or(0, |p| p.slots.len());
        for (i, (index, attempts, checks, raw)) in state.failed.iter().enumerate().skip(from) {
            if n - (i + 1).min(n) < MIN_QUESTIONS {
                // Returning drops the drafters still at work.
                return Err(GenerateError::Invalid {
                    attempts: *attempts,
                    checks: checks.clone(),
                    raw_saved: save_raw(self.failed_dir, &self.input.digest, raw),
                });
            }
            let _ = stages.send(Stage::QuestionDropped {
                index: *index,
                checks: checks.clone(),
            });
        }
        Ok(())
    }

    /// The planning call, streamed: each slot that passes its checks on its own as soon
    /// as it is written (after the ones before it) is kept in `early` and told on `slots`,
    /// for its drafter to start at once. The whole plan is then held to [`check_plan`]
    /// around the slots kept: a repair changes only the slots after them.
    async fn plan(
        &self,
        stages: &Stages,
        early: &Mutex<Early>,
        slots: &mpsc::UnboundedSender<usize>,
        tally: &Tally,
    ) -> Result<Plan, GenerateError> {
        let mut user = change_message(
            self.input,
            self.context,
            "Plan a quiz for the author of this change.",
            true,
        );
        user.push_str(&format!("\nSubmit the plan with the {PLAN_TOOL} tool.\n"));
        let schema = plan_schema();
        let ask = Ask {
            system: PLAN_SYSTEM,
            user: &user,
            tool: PLAN_TOOL,
            description: "Submit the plan of the quiz: one slot per question, in order.",
            schema: &schema,
            what: "plan",
            shape: "one object: {\"slots\": [...]}, each slot with type, focus, misconception, diagram and anchor",
        };
        let asked = self.context.questions;
        let validate =
            |value: &Value| accept_plan_after(value, &lock(early).slots, self.input, asked);
        let (backend, model) = (self.llm.name(), self.model);
        let report = |p: Progress| match p {
            Progress::Item {
                array,
                index,
                value,
                ..
            } if array == "slots" => {
                let mut early = lock(early);
                if index != early.slots.len() {
                    return;
                }
                let Ok(slot) = serde_json::from_value::<Slot>(value) else {
                    return;
                };
                early.slots.push(slot);
                if check_plan_so_far(&early.slots, self.input, asked).is_empty() {
                    let _ = slots.send(index);
                } else {
                    early.slots.pop();
                }
            }
            p => {
                let stage = tally
                    .writing(None, &p)
                    .or_else(|| stage_of(&p, backend, model));
                if let Some(stage) = stage {
                    let _ = stages.send(stage);
                }
            }
        };
        self.llm
            .ask_reporting(&ask, &validate, &report)
            .await
            .map_err(|e| failed(e, self.failed_dir, &self.input.digest))
    }

    /// Slot `index`'s question: one drafting call (its repairs within the backend's
    /// limits), and a fresh one told what failed when that one's answer stays invalid.
    /// `slots`: the plan as far as it is known when the drafter starts.
    async fn draft(
        &self,
        slots: Vec<Slot>,
        planned: Planned,
        index: usize,
        stages: &Stages,
        tally: &Tally,
    ) -> (usize, Result<Question, Undrafted>) {
        let slot = &slots[index];
        let first = draft_message(self.input, self.context, &slots, planned, index);
        let schema = drafted_question_schema(slot.kind);
        let validate =
            |value: &Value| accept_question(value, slot, index, self.input, self.pr_number);
        let report = |p: Progress| {
            if let Some(stage) = drafter_stage(index, p, tally) {
                let _ = stages.send(stage);
            }
        };
        let mut user = first.clone();
        let mut last = None;
        for again in [false, true] {
            let ask = Ask {
                system: DRAFT_SYSTEM,
                user: &user,
                tool: DRAFT_TOOL,
                description: "Submit the one question of your slot.",
                schema: &schema,
                what: "question",
                shape: "one object: the question's fields as the schema says",
            };
            let (attempts, checks, raw) =
                match self.llm.ask_reporting(&ask, &validate, &report).await {
                    Ok(question) => return (index, Ok(question)),
                    Err(LlmError::InvalidOutput {
                        attempts,
                        checks,
                        raw,
                        ..
                    }) => (attempts, checks, raw),
                    Err(e @ LlmError::NoToolCall { attempts, .. }) => {
                        (attempts, vec![e.to_line()], String::new())
                    }
                    Err(e @ LlmError::CliNoStructuredOutput { .. }) => {
                        (1, vec![e.to_line()], String::new())
                    }
                    Err(e) => return (index, Err(Undrafted::Llm(e))),
                };
            if !again {
                let _ = stages.send(Stage::Redrafting {
                    index,
                    checks: checks.clone(),
                });
                user = redraft_message(&first, &checks);
            }
            last = Some(Undrafted::Failed {
                attempts,
                checks,
                raw,
            });
        }
        (
            index,
            Err(last.unwrap_or(Undrafted::Llm(LlmError::Runtime(
                "no draft was asked".into(),
            )))),
        )
    }

    /// The questions in slot order as the quiz, held to the whole quiz's checks.
    fn assemble(&self, questions: Vec<Question>) -> Result<Quiz, GenerateError> {
        let quiz = Quiz {
            version: WIRE_VERSION.to_string(),
            pr_number: self.pr_number,
            questions,
            extra: serde_json::Map::new(),
        };
        let mut checks: Vec<String> = check_generated(&quiz, self.input)
            .iter()
            .map(ToString::to_string)
            .collect();
        if checks.is_empty()
            && let Err(e) = validate(&quiz)
        {
            checks.push(e.to_string());
        }
        if checks.is_empty() {
            return Ok(quiz);
        }
        Err(GenerateError::Invalid {
            attempts: 1,
            checks,
            raw_saved: save_raw(self.failed_dir, &self.input.digest, &quiz.to_pretty_json()),
        })
    }
}

/// A slot's second try: its message, and what the first try kept failing (at temperature
/// 0 the same message would get the same answer).
fn redraft_message(first: &str, checks: &[String]) -> String {
    let mut m = first.to_string();
    m.push_str("\nAn earlier try at this question kept failing these checks; write it afresh so that none applies:\n");
    for c in checks {
        m.push_str("- ");
        m.push_str(&crate::text::sanitize_line(c));
        m.push('\n');
    }
    m
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ToolUse;

    #[test]
    fn drafters_progress_is_the_generations_tokens_and_each_file_read() {
        let tally = Tally::default();
        assert_eq!(tally.count(None, 0, 200), 200, "the planner's");
        let streaming = |round, output_tokens| Progress::Streaming {
            round,
            output_tokens,
            chars: 0,
        };
        let writing = |output_tokens| Stage::Writing {
            round: 0,
            output_tokens,
            activity: None,
        };
        assert_eq!(
            drafter_stage(0, streaming(0, 50), &tally),
            Some(writing(250))
        );
        assert_eq!(
            drafter_stage(3, streaming(0, 30), &tally),
            Some(writing(280))
        );
        assert_eq!(
            drafter_stage(0, streaming(0, 90), &tally),
            Some(writing(320)),
            "a drafter's later count replaces its earlier one"
        );
        assert_eq!(
            drafter_stage(0, streaming(1, 10), &tally),
            Some(writing(330)),
            "a repair round adds to the rounds before it"
        );
        let read = ToolUse {
            tool: "Read".into(),
            target: "src/retry.rs".into(),
        };
        let working = Progress::Working {
            round: 0,
            activity: Some(read.clone()),
            turns: 2,
            output_tokens: 40,
        };
        let stage = drafter_stage(1, working, &tally).unwrap();
        assert_eq!(
            stage,
            Stage::DraftActivity {
                index: 1,
                activity: read
            }
        );
        assert_eq!(stage.summary(), "q2: reading src/retry.rs");
        assert!(stage.is_event());
        assert_eq!(tally.count(None, 0, 200), 370, "its tokens are counted");
        assert_eq!(
            drafter_stage(1, Progress::Asking { round: 0 }, &tally),
            None
        );
    }
}
