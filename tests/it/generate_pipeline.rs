//! The pipeline: a plan, streamed, then one drafter per slot in parallel, each started as
//! soon as its slot is written, against the fake Messages API (routed by the forced tool
//! and by the slot the drafter's message names). `cargo bench --bench pipeline` measures it
//! against the one-call design.

use std::path::Path;
use std::time::Duration;

use quizz::generate::input::Marked;
use quizz::generate::schema::{QuestionType, drafted_question_schema};
use quizz::generate::{
    Cancel, Context, GenerateError, Input, PrFile, Stage, check_generated, prepare_pr,
    select_generator, write_quiz_pipelined, write_quiz_single,
};
use quizz::llm::EnvSnapshot;
use quizz::quiz::{QuestionKind, Quiz};
use serde_json::{Value, json};

use crate::messages_fake::fake_messages::{FakeMessages, Recorded, Reply};

/// The change: 40 lines of src/retry.rs, all new.
fn input() -> Input {
    let text: String = (1..=40).map(|i| format!("line {i}\n")).collect();
    let file = PrFile {
        filename: "src/retry.rs".into(),
        status: "modified".into(),
        additions: 3,
        deletions: 1,
        patch: Some("@@ -1,2 +1,4 @@\n fn send() {\n-    once()\n+    retry()\n".into()),
        previous_filename: None,
        sha: Some("abc".into()),
    };
    prepare_pr(
        &[file],
        &Marked::none(),
        &mut |_| Some(text.clone().into_bytes()),
        100_000,
    )
}

const KINDS: [&str; 6] = ["mcq", "mermaid", "mcq", "tf", "mcq", "open"];

fn plan(kinds: &[&str]) -> Value {
    let slots: Vec<Value> = kinds
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            json!({"type": kind, "focus": format!("focus of slot {}", i + 1),
                   "misconception": "that send retries forever",
                   "diagram": if *kind == "mermaid" { "the call order of send and retry" } else { "" },
                   "anchor": null})
        })
        .collect();
    json!({ "slots": slots })
}

const FLOW_A: &str = "flowchart TD\n    A[read config] --> B{valid?}\n    B -- yes --> C[start]\n    B -- no --> D[exit 2]";
const FLOW_B: &str = "flowchart TD\n    A[read config] --> B{valid?}\n    B -- yes --> C[start]\n    B -- no --> D[exit 1]";
const FLOW_C: &str =
    "flowchart TD\n    A[read config] --> B{valid?}\n    B -- yes --> C[start]\n    B -- no --> C";
const FLOW_D: &str = "flowchart TD\n    A[read config] --> B{valid?}\n    B -- no --> C[start]\n    B -- yes --> D[exit 2]";

/// A sound question of `kind` (as a drafter submits it: no id), its right answer first,
/// `pad` put in its prompt (a code excerpt, for realistic sizes).
fn question(kind: &str, n: usize, pad: &str) -> Value {
    let anchor = json!({"path": "src/retry.rs", "start_line": n, "end_line": n + 1});
    match kind {
        "mcq" => json!({"type": "mcq",
            "prompt": format!("{pad}Question {n}: when does `send` give up?"),
            "options": ["after one retry", "never, it loops", "at once on any error"],
            "answer": "after one retry",
            "explanation": "retry() tries once more, then returns the error.",
            "anchor": anchor}),
        "tf" => json!({"type": "tf",
            "prompt": format!("{pad}Question {n}: `send` calls `retry_send` at most once."),
            "answer": true, "explanation": "The retry sits outside any loop.", "anchor": anchor}),
        "open" => json!({"type": "open",
            "prompt": format!("{pad}Question {n}: why retry only once?"),
            "rubric": ["a second failure means the server is down, not a blip",
                       "more retries would hold the user's terminal for longer"],
            "anchor": null}),
        _ => json!({"type": "mermaid",
            "prompt": format!("{pad}Question {n}: which diagram shows what happens to the config?"),
            "options": {"A": FLOW_A, "B": FLOW_B, "C": FLOW_C, "D": FLOW_D},
            "answer": "A", "explanation": "A bad config exits with status 2.", "anchor": null}),
    }
}

/// An mcq whose answer is none of its options (fails a check).
fn broken(n: usize) -> Value {
    let mut q = question("mcq", n, "");
    q["answer"] = json!("after two retries");
    q
}

fn user_text(r: &Recorded) -> String {
    r.json()["messages"][0]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The slot (from 1) a drafter's message names: `Write question q3 (`.
pub(crate) fn slot_of(r: &Recorded) -> usize {
    let text = user_text(r);
    let at = text
        .find("Write question q")
        .expect("a drafter's message names its slot");
    text[at + 16..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a slot number")
}

/// A repair round (the conversation carries a tool result).
fn is_repair(r: &Recorded) -> bool {
    r.json()["messages"].as_array().is_some_and(|m| m.len() > 1)
}

fn is_redraft(r: &Recorded) -> bool {
    user_text(r).contains("An earlier try at this question")
}

/// The fake model: `plan` for the planner, `drafter(slot, request)` for each drafter.
fn model(
    plan: Value,
    drafter: impl Fn(usize, &Recorded) -> Reply + Send + Sync + 'static,
) -> FakeMessages {
    FakeMessages::start(move |r, _| match r.json()["tool_choice"]["name"].as_str() {
        Some("plan_quiz") => Reply::tool_input(plan.clone()),
        Some("submit_question") => drafter(slot_of(r), r),
        other => Reply::error(
            400,
            "invalid_request_error",
            &format!("unexpected tool {other:?}"),
        ),
    })
}

fn drafts_for(server: &FakeMessages, slot: usize) -> Vec<Recorded> {
    server
        .posts_for("submit_question")
        .into_iter()
        .filter(|r| slot_of(r) == slot)
        .collect()
}

struct Run {
    result: Result<Quiz, GenerateError>,
    stages: Vec<Stage>,
}

fn run_with(server: &FakeMessages, input: &Input, cancel: &Cancel, pipelined: bool) -> Run {
    let env = EnvSnapshot::from_pairs([
        ("ANTHROPIC_API_KEY", "k"),
        ("ANTHROPIC_BASE_URL", server.url.as_str()),
    ]);
    let selection = select_generator(&env, Path::new("/repo"));
    let failed = tempfile::tempdir().unwrap();
    let mut stages = Vec::new();
    let write = if pipelined {
        write_quiz_pipelined
    } else {
        write_quiz_single
    };
    let result = write(
        &selection,
        input,
        &Context::default(),
        failed.path(),
        &mut |s| stages.push(s.clone()),
        cancel,
    );
    Run { result, stages }
}

fn run(server: &FakeMessages) -> Run {
    run_with(server, &input(), &Cancel::new(), true)
}

/// The slots whose question was told ready, in the order they were.
fn ready_order(stages: &[Stage]) -> Vec<usize> {
    stages
        .iter()
        .filter_map(|s| match s {
            Stage::QuestionReady { index, .. } => Some(*index),
            _ => None,
        })
        .collect()
}

#[test]
fn the_plan_then_one_drafter_per_slot_side_by_side_each_told_when_ready() {
    let server = model(plan(&KINDS), |slot, _| {
        let reply = Reply::tool_input(question(KINDS[slot - 1], slot, ""));
        // Slot 3 is slow: question 1 is ready well before it.
        reply.after(Duration::from_millis(if slot == 3 { 1500 } else { 300 }))
    });
    let Run { result, stages } = run(&server);
    let quiz = result.unwrap();
    assert_eq!(server.posts_for("plan_quiz").len(), 1);
    for slot in 1..=6 {
        assert_eq!(
            drafts_for(&server, slot).len(),
            1,
            "slot {slot} is asked once"
        );
    }
    let in_flight = server.max_in_flight();
    assert!(
        (2..=4).contains(&in_flight),
        "side by side, at most 4: {in_flight}"
    );
    assert!(
        stages.contains(&Stage::Planned {
            slots: (1..=6)
                .map(|i| format!("{} · focus of slot {i}", KINDS[i - 1]))
                .collect()
        }),
        "{stages:?}"
    );
    let order = ready_order(&stages);
    let (first, third) = (
        order.iter().position(|&i| i == 0).unwrap(),
        order.iter().position(|&i| i == 2).unwrap(),
    );
    assert!(
        first < third,
        "question 1 is told before the slow question 3: {order:?}"
    );
    let planned = stages
        .iter()
        .position(|s| matches!(s, Stage::Planned { .. }))
        .unwrap();
    let told_first = stages
        .iter()
        .position(|s| matches!(s, Stage::QuestionReady { index: 0, .. }))
        .unwrap();
    assert!(planned < told_first);
    // The quiz: slot order, quizz's ids, each question as it was told, sound and shuffled.
    let ids: Vec<&str> = quiz.questions.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids, ["q1", "q2", "q3", "q4", "q5", "q6"]);
    for s in &stages {
        if let Stage::QuestionReady { index, question } = s {
            assert_eq!(&quiz.questions[*index], question, "told as kept");
        }
    }
    assert_eq!(check_generated(&quiz, &input()), Vec::new());
    let moved = quiz.questions.iter().filter(|q| match &q.kind {
        QuestionKind::Mcq { options, answer } => options[0] != *answer,
        QuestionKind::Mermaid { options, answer } => {
            options.iter().find(|o| &o.label == answer).unwrap().source != FLOW_A || answer != "A"
        }
        _ => false,
    });
    assert!(
        moved.count() > 0,
        "the answers are shuffled away from first place"
    );
    // The same change and answers give the same quiz.
    let again = model(plan(&KINDS), |slot, _| {
        Reply::tool_input(question(KINDS[slot - 1], slot, ""))
    });
    assert_eq!(run(&again).result.unwrap(), quiz);
}

#[test]
fn a_drafter_whose_answer_fails_a_check_is_repaired_alone() {
    let kinds = ["mcq", "mcq", "open"];
    let server = model(plan(&kinds), move |slot, r| {
        if slot == 2 && !is_repair(r) {
            Reply::tool_input(broken(slot))
        } else {
            Reply::tool_input(question(kinds[slot - 1], slot, ""))
        }
    });
    let Run { result, stages } = run(&server);
    let quiz = result.unwrap();
    assert_eq!(quiz.questions.len(), 3);
    assert_eq!(drafts_for(&server, 1).len(), 1);
    assert_eq!(drafts_for(&server, 3).len(), 1);
    let second = drafts_for(&server, 2);
    assert_eq!(
        second.len(),
        2,
        "slot 2 is repaired in its own conversation"
    );
    assert!(
        second[1].body.contains(
            "question q2: the answer \\\"after two retries\\\" is not one of the options"
        ),
        "{}",
        second[1].body
    );
    assert!(
        stages
            .iter()
            .any(|s| matches!(s, Stage::Repairing { checks }
            if checks.iter().all(|c| c.starts_with("question q2: ")))),
        "{stages:?}"
    );
    assert!(!stages.iter().any(|s| matches!(s, Stage::Redrafting { .. })));
}

#[test]
fn a_slot_that_keeps_failing_is_written_afresh_once_then_left_out() {
    let kinds = ["mcq", "tf", "mcq", "open"];
    let server = model(plan(&kinds), move |slot, _| {
        if slot == 3 {
            Reply::tool_input(broken(slot))
        } else {
            Reply::tool_input(question(kinds[slot - 1], slot, ""))
        }
    });
    let Run { result, stages } = run(&server);
    let quiz = result.unwrap();
    let ids: Vec<&str> = quiz.questions.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids, ["q1", "q2", "q4"], "the others keep their ids");
    let third = drafts_for(&server, 3);
    // 3 rounds (2 repairs), then a fresh try of 3 rounds told what failed.
    assert_eq!(third.len(), 6);
    assert_eq!(third.iter().filter(|r| is_redraft(r)).count(), 3);
    assert!(user_text(&third[5]).contains("- question q3: the answer \"after two retries\""));
    let redrafted = stages
        .iter()
        .position(|s| matches!(s, Stage::Redrafting { index: 2, .. }))
        .unwrap();
    let dropped = stages
        .iter()
        .position(|s| {
            matches!(s, Stage::QuestionDropped { index: 2, checks }
            if checks[0].starts_with("question q3: the answer"))
        })
        .unwrap();
    assert!(redrafted < dropped);
    assert!(!ready_order(&stages).contains(&2));
    assert_eq!(check_generated(&quiz, &input()), Vec::new());
}

#[test]
fn fewer_than_two_questions_left_fails_the_generation_with_the_checks() {
    let server = model(plan(&["mcq", "open"]), |slot, _| {
        if slot == 1 {
            Reply::tool_input(broken(slot))
        } else {
            Reply::tool_input(question("open", slot, ""))
        }
    });
    let Run { result, stages } = run(&server);
    let Err(GenerateError::Invalid {
        checks, raw_saved, ..
    }) = result
    else {
        panic!("{result:?}");
    };
    assert!(
        checks[0].starts_with("question q1: the answer"),
        "{checks:?}"
    );
    assert!(raw_saved.is_some(), "the last answer is saved");
    assert!(
        !stages
            .iter()
            .any(|s| matches!(s, Stage::QuestionDropped { .. }))
    );
}

#[test]
fn a_plan_that_breaks_the_rules_is_repaired_and_drafted_in_full() {
    let server = FakeMessages::start(|r, _| match r.json()["tool_choice"]["name"].as_str() {
        Some("plan_quiz") if !is_repair(r) => Reply::tool_input(plan(&["tf", "tf", "open"])),
        Some("plan_quiz") => Reply::tool_input(plan(&["tf", "mcq", "open"])),
        _ => {
            let slot = slot_of(r);
            Reply::tool_input(question(["tf", "mcq", "open"][slot - 1], slot, ""))
        }
    });
    let quiz = run(&server).result.unwrap();
    assert_eq!(quiz.questions.len(), 3);
    let plans = server.posts_for("plan_quiz");
    assert_eq!(plans.len(), 2);
    assert!(
        plans[1].body.contains("at most one tf in a quiz"),
        "{}",
        plans[1].body
    );
    assert_eq!(server.posts_for("submit_question").len(), 3);
}

#[test]
fn cancel_stops_every_drafter_in_flight() {
    let server = model(plan(&KINDS), |slot, _| {
        Reply::tool_input(question(KINDS[slot - 1], slot, "")).after(Duration::from_secs(30))
    });
    let cancel = Cancel::new();
    let input = input();
    let run = std::thread::scope(|scope| {
        scope.spawn(|| {
            // The plan and four drafters (the bound): then cancel.
            for _ in 0..500 {
                if server.posts().len() >= 5 {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            cancel.cancel();
        });
        run_with(&server, &input, &cancel, true)
    });
    assert!(
        matches!(run.result, Err(GenerateError::Cancelled)),
        "{:?}",
        run.result
    );
    assert!(ready_order(&run.stages).is_empty());
    assert_eq!(server.max_in_flight(), 4);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        server.posts_for("submit_question").len(),
        4,
        "the two slots waiting for a place are never asked"
    );
}

/// The plan's schema and each drafter's go through the real CLI's `--json-schema` as they
/// are (which JSON Schema features it takes is not documented).
#[test]
fn the_cli_takes_the_plan_and_question_schemas() {
    let Some(real) = crate::messages_fake::claude_bin() else {
        return;
    };
    let mut cases = vec![(quizz::generate::pipeline::plan_schema(), plan(&KINDS))];
    for (kind, n) in [(QuestionType::Mcq, 1), (QuestionType::Mermaid, 2)] {
        cases.push((
            drafted_question_schema(kind),
            question(kind.as_str(), n, ""),
        ));
    }
    for (schema, answer) in cases {
        let home = tempfile::tempdir().unwrap();
        let server = FakeMessages::sequence(vec![Reply::tool_input(answer.clone())]);
        let out = crate::generate_schema_cli::claude_with(&real, home.path(), &server, &schema);
        assert_eq!(crate::generate_schema_cli::structured(&out), answer);
    }
}

/// The stage's position in `stages`.
fn position(stages: &[Stage], what: impl Fn(&Stage) -> bool) -> usize {
    stages
        .iter()
        .position(what)
        .unwrap_or_else(|| panic!("{stages:?}"))
}

#[test]
fn a_slots_drafter_starts_before_the_plans_last_slot_is_written() {
    // The plan streams at 60 tokens a second (about 3 s for its six slots).
    let server = FakeMessages::start(|r, _| {
        if r.json()["tool_choice"]["name"] == "plan_quiz" {
            return Reply::tool_input(plan(&KINDS)).streamed_at(60.0);
        }
        let slot = slot_of(r);
        Reply::tool_input(question(KINDS[slot - 1], slot, ""))
    });
    let Run { result, stages } = run(&server);
    let quiz = result.unwrap();
    assert_eq!(quiz.questions.len(), 6);
    let plan_done = server.answered_for("plan_quiz")[0];
    let first = &drafts_for(&server, 1)[0];
    assert!(
        first.at < plan_done,
        "slot 1's drafter is asked while the plan is still being written"
    );
    let told = user_text(first);
    assert!(told.contains("The quiz's plan so far"), "{told}");
    assert!(told.contains("q1. mcq · focus of slot 1"), "{told}");
    assert!(!told.contains("q6. "), "{told}");
    for slot in 1..=6 {
        assert_eq!(drafts_for(&server, slot).len(), 1, "slot {slot}");
    }
    let early = position(
        &stages,
        |s| matches!(s, Stage::SlotPlanned { index: 0, slot } if slot == "mcq · focus of slot 1"),
    );
    let planned = position(&stages, |s| matches!(s, Stage::Planned { .. }));
    let ready = position(&stages, |s| {
        matches!(s, Stage::QuestionReady { index: 0, .. })
    });
    assert!(early < planned, "{stages:?}");
    assert!(
        planned < ready,
        "a question is told once the plan's size is known"
    );
}

#[test]
fn a_plan_whose_whole_check_fails_keeps_the_slots_drafted_already() {
    // The first plan's slots 1 and 2 pass on their own, slot 3 is a second tf; the repair
    // rewrites every slot, but only slots 3 and 4 are taken from it.
    let first = plan(&["mcq", "tf", "tf", "open"]);
    let mut repaired = plan(&["tf", "mcq", "mcq", "open"]);
    for slot in repaired["slots"].as_array_mut().unwrap() {
        slot["focus"] = json!(format!("rewritten {}", slot["focus"].as_str().unwrap()));
    }
    let kinds = ["mcq", "tf", "mcq", "open"];
    let server = FakeMessages::start(move |r, _| match r.json()["tool_choice"]["name"].as_str() {
        Some("plan_quiz") if !is_repair(r) => Reply::tool_input(first.clone()),
        Some("plan_quiz") => Reply::tool_input(repaired.clone()),
        _ => {
            let slot = slot_of(r);
            Reply::tool_input(question(kinds[slot - 1], slot, ""))
        }
    });
    let Run { result, stages } = run(&server);
    let quiz = result.unwrap();
    let plans = server.posts_for("plan_quiz");
    assert_eq!(plans.len(), 2);
    assert!(
        plans[1]
            .body
            .contains("slots 1-2 are already being written and are kept as they are"),
        "{}",
        plans[1].body
    );
    assert!(plans[1].body.contains("at most one tf in a quiz"));
    for slot in 1..=2 {
        let drafts = drafts_for(&server, slot);
        assert_eq!(drafts.len(), 1, "slot {slot} is drafted once");
        let told = user_text(&drafts[0]);
        assert!(
            told.contains(&format!("Focus: focus of slot {slot}\n")),
            "{told}"
        );
    }
    let third = user_text(&drafts_for(&server, 3)[0]);
    assert!(
        third.contains("Focus: rewritten focus of slot 3"),
        "{third}"
    );
    assert_eq!(server.posts_for("submit_question").len(), 4);
    assert!(
        stages.contains(&Stage::Planned {
            slots: vec![
                "mcq · focus of slot 1".into(),
                "tf · focus of slot 2".into(),
                "mcq · rewritten focus of slot 3".into(),
                "open · rewritten focus of slot 4".into(),
            ]
        }),
        "{stages:?}"
    );
    let kinds_kept: Vec<&str> = quiz
        .questions
        .iter()
        .map(|q| match q.kind {
            QuestionKind::Mcq { .. } => "mcq",
            QuestionKind::TrueFalse { .. } => "tf",
            QuestionKind::Open { .. } => "open",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds_kept, kinds);
    assert_eq!(check_generated(&quiz, &input()), Vec::new());
}

#[test]
fn the_drafters_tokens_so_far_are_told_while_they_write() {
    // The plan comes at once; each question streams for about a second.
    let server = model(plan(&KINDS), |slot, _| {
        Reply::tool_input(question(KINDS[slot - 1], slot, "")).streamed_at(120.0)
    });
    let Run { result, stages } = run(&server);
    result.unwrap();
    let planned = position(&stages, |s| matches!(s, Stage::Planned { .. }));
    let last_ready = stages
        .iter()
        .rposition(|s| matches!(s, Stage::QuestionReady { .. }))
        .unwrap();
    let counts: Vec<u64> = stages[planned..last_ready]
        .iter()
        .filter_map(|s| match s {
            Stage::Writing {
                output_tokens,
                activity: None,
                ..
            } => Some(*output_tokens),
            _ => None,
        })
        .collect();
    assert!(
        counts.len() >= 6,
        "tokens are told while the questions are written: {stages:?}"
    );
    assert!(
        counts.windows(2).all(|w| w[0] <= w[1]),
        "the generation's count only grows: {counts:?}"
    );
    assert!(counts.last() > counts.first(), "{counts:?}");
}
