//! Writing a quiz as a plan, then its questions in parallel: a short planning call chooses
//! the slots (`plan`), then one drafting call per slot (`draft`), a few at once, each held
//! on its own to every check of a question and repaired alone. Each question is told to
//! the caller as it passes ([`Stage::QuestionReady`]), so the first can be taken while the
//! rest are written; the whole quiz is checked once all are in.

mod draft;
mod plan;

use futures_util::StreamExt as _;
use futures_util::stream;
use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;

use super::checks::{MIN_QUESTIONS, check_generated};
use super::input::Input;
use super::prompt::{Context, change_message};
use super::run::{Cancel, GenerateError, Stage, backend_to_ask, failed, save_raw, stage_of};
use super::schema::drafted_question_schema;
use crate::llm::{Ask, Llm, LlmError, Progress, Selection, run_blocking};
use crate::quiz::{Question, Quiz, WIRE_VERSION, validate};

pub use draft::{DRAFT_TOOL, accept_question, draft_message, slot_id};
pub use plan::{PLAN_TOOL, Plan, Slot, accept_plan, check_plan, plan_schema};

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

impl Job<'_> {
    async fn run(&self, stages: &Stages) -> Result<Quiz, GenerateError> {
        let plan = self.plan(stages).await?;
        let _ = stages.send(Stage::Planned {
            slots: plan.slots.iter().map(Slot::line).collect(),
        });
        let n = plan.slots.len();
        let mut ready: Vec<Option<Question>> = vec![None; n];
        let mut left_out = 0;
        let mut drafts = stream::iter(0..n)
            .map(|index| self.draft(&plan, index, stages))
            .buffer_unordered(concurrency(self.llm));
        while let Some((index, drafted)) = drafts.next().await {
            match drafted {
                Ok(question) => {
                    let _ = stages.send(Stage::QuestionReady {
                        index,
                        question: question.clone(),
                    });
                    ready[index] = Some(question);
                }
                Err(Undrafted::Failed {
                    attempts,
                    checks,
                    raw,
                }) => {
                    left_out += 1;
                    if n - left_out < MIN_QUESTIONS {
                        // Returning drops the drafters still at work.
                        return Err(GenerateError::Invalid {
                            attempts,
                            checks,
                            raw_saved: save_raw(self.failed_dir, &self.input.digest, &raw),
                        });
                    }
                    let _ = stages.send(Stage::QuestionDropped { index, checks });
                }
                Err(Undrafted::Llm(e)) => {
                    return Err(failed(e, self.failed_dir, &self.input.digest));
                }
            }
        }
        drop(drafts);
        self.assemble(ready.into_iter().flatten().collect())
    }

    /// The planning call, its plan held to [`check_plan`].
    async fn plan(&self, stages: &Stages) -> Result<Plan, GenerateError> {
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
        let validate = |value: &Value| accept_plan(value, self.input, self.context.questions);
        let (backend, model) = (self.llm.name(), self.model);
        let report = |p: Progress| {
            if let Some(stage) = stage_of(&p, backend, model) {
                let _ = stages.send(stage);
            }
        };
        self.llm
            .ask_reporting(&ask, &validate, &report)
            .await
            .map_err(|e| failed(e, self.failed_dir, &self.input.digest))
    }

    /// Slot `index`'s question: one drafting call (its repairs within the backend's
    /// limits), and a fresh one told what failed when that one's answer stays invalid.
    async fn draft(
        &self,
        plan: &Plan,
        index: usize,
        stages: &Stages,
    ) -> (usize, Result<Question, Undrafted>) {
        let slot = &plan.slots[index];
        let first = draft_message(self.input, self.context, plan, index);
        let schema = drafted_question_schema(slot.kind);
        let validate =
            |value: &Value| accept_question(value, slot, index, self.input, self.pr_number);
        let report = |p: Progress| {
            if let Progress::Repairing { checks, .. } = p {
                let _ = stages.send(Stage::Repairing { checks });
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
