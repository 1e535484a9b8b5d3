//! `QUIZZ_GENERATE=pipeline`: a plan, then one drafter per slot in parallel, against the
//! fake Messages API (routed by the forced tool and by the slot the drafter's message
//! names). A measured run compares it with the one-call design:
//! `cargo test --test it generate_pipeline::measure -- --ignored --nocapture`.

use std::path::Path;
use std::time::{Duration, Instant};

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
fn a_plan_that_breaks_the_rules_is_repaired_before_any_drafter_starts() {
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

// ---- measured: one call against the pipeline --------------------------------------------

/// Modelled time is this many times the time the measured run waits.
const SCALE: f64 = 10.0;

/// A reply that takes as long as a model would to write it: `fixed` seconds, then its
/// output at `rate` tokens a second (4 characters a token).
fn paced(input: Value, fixed: f64, rate: f64) -> Reply {
    #[allow(clippy::cast_precision_loss)]
    let tokens = input.to_string().len() as f64 / 4.0;
    Reply::tool_input(input).after(Duration::from_secs_f64((fixed + tokens / rate) / SCALE))
}

/// A code excerpt of about `chars` characters for a question's prompt.
fn excerpt(chars: usize) -> String {
    let mut s = String::from("```rust\n");
    let mut i = 0;
    while s.len() < chars {
        s.push_str(&format!(
            "    let value_{i} = config.lookup(\"key_{i}\")?; // stage {i} hands it on\n"
        ));
        i += 1;
    }
    s.push_str("```\n\n");
    s
}

/// The realistic quiz: 6 questions, one mermaid (four diagrams), about 4,000 output tokens.
fn realistic(n: usize) -> Value {
    let pad = excerpt(if KINDS[n - 1] == "mermaid" {
        1500
    } else {
        2350
    });
    question(KINDS[n - 1], n, &pad)
}

struct Timing {
    first: f64,
    q1: f64,
    all: f64,
    tokens: usize,
}

/// The realistic quiz in one `submit_quiz` answer.
fn realistic_quiz() -> Value {
    let questions: Vec<Value> = (1..=6)
        .map(|n| {
            let mut q = realistic(n);
            q["id"] = json!(format!("q{n}"));
            q
        })
        .collect();
    json!({ "questions": questions })
}

/// What the fake answers to `r`, paced or not.
fn realistic_answer(r: &Recorded) -> Value {
    match r.json()["tool_choice"]["name"].as_str() {
        Some("submit_quiz") => realistic_quiz(),
        Some("plan_quiz") => plan(&KINDS),
        _ => realistic(slot_of(r)),
    }
}

fn measure_one(pipelined: bool, fixed: f64, rate: f64) -> Timing {
    let server = FakeMessages::start(move |r, _| paced(realistic_answer(r), fixed, rate));
    let start = Instant::now();
    let (mut first, mut q1) = (None, None);
    let write = if pipelined {
        write_quiz_pipelined
    } else {
        write_quiz_single
    };
    let env = EnvSnapshot::from_pairs([
        ("ANTHROPIC_API_KEY", "k"),
        ("ANTHROPIC_BASE_URL", server.url.as_str()),
    ]);
    let failed = tempfile::tempdir().unwrap();
    let quiz = write(
        &select_generator(&env, Path::new("/repo")),
        &input(),
        &Context::default(),
        failed.path(),
        &mut |s| {
            if let Stage::QuestionReady { index, .. } = s {
                let at = start.elapsed().as_secs_f64() * SCALE;
                first.get_or_insert(at);
                if *index == 0 {
                    q1 = Some(at);
                }
            }
        },
        &Cancel::new(),
    )
    .unwrap();
    let all = start.elapsed().as_secs_f64() * SCALE;
    assert_eq!(quiz.questions.len(), 6);
    let tokens = server
        .posts()
        .iter()
        .map(|r| realistic_answer(r).to_string().len() / 4)
        .sum();
    Timing {
        first: first.unwrap_or(all),
        q1: q1.unwrap_or(all),
        all,
        tokens,
    }
}

/// Not a test: prints the figures of issue 21's "Measured" section.
#[test]
#[ignore = "a measured run (about a minute): --ignored --nocapture"]
fn measure() {
    println!("\nmodelled seconds (the fake waits 1/{SCALE} of them); 4 characters a token");
    println!(
        "{:<28} {:<9} {:>8} {:>8} {:>8} {:>8}",
        "model", "design", "tokens", "first", "q1", "all"
    );
    for (label, fixed, rate) in [
        ("1 s per call + 50 tok/s", 1.0, 50.0),
        ("3 s per call + 20 tok/s", 3.0, 20.0),
    ] {
        for (design, pipelined) in [("one call", false), ("pipeline", true)] {
            let t = measure_one(pipelined, fixed, rate);
            println!(
                "{label:<28} {design:<9} {:>8} {:>8.1} {:>8.1} {:>8.1}",
                t.tokens, t.first, t.q1, t.all
            );
        }
    }
}
