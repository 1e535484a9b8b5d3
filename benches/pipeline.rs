//! Issue 21's "Measured": how soon question 1 can be answered, and when the whole quiz is
//! ready, for the one-call design and for the pipeline (a streamed plan, each slot's
//! question drafted as soon as the slot is written, four at once), side by side. The fake
//! Messages API writes the realistic quiz (6 questions, one mermaid with four diagrams,
//! about 4,000 output tokens) at a model's pace: a fixed wait before the first token of
//! every call, then so many output tokens a second (4 characters a token). quizz runs the
//! generation as `quizz generate` does (streamed, every check, the shuffle).
//!
//! `cargo bench --bench pipeline` (about 7 minutes: it waits at the model's pace);
//! `QUIZZ_BENCH_SPEEDUP=10` divides every wait for a quicker look. Under `cargo test` it
//! is a smoke run, 1000 times faster.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::cast_precision_loss)]

#[path = "support/mod.rs"]
mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use quizz::generate::input::Marked;
use quizz::generate::{
    Cancel, Context, Stage, prepare_pr, select_generator, write_quiz_pipelined, write_quiz_single,
};
use quizz::llm::EnvSnapshot;
use serde_json::{Value, json};
use support::fake_messages::{FakeMessages, Recorded, Reply};

/// The planner's answer for the realistic quiz: its six slots, a line or two each.
fn plan(quiz: &Value) -> Value {
    let focus = [
        (
            "what happens to a request sent after a 529",
            "that an overloaded reply is final",
        ),
        (
            "when a retry-after header beats the backoff",
            "that the header is always obeyed",
        ),
        (
            "the order of take, the cache, the model and the checks",
            "that questions are shown before they are checked",
        ),
        (
            "what a cancelled generation keeps",
            "that cancelling loses the answers given",
        ),
        (
            "how a stream cut mid-reply is reported",
            "that a cut stream is parsed as far as it went",
        ),
        (
            "why question 1 is checked before the rest is written",
            "that early questions wait for the whole quiz",
        ),
    ];
    let slots: Vec<Value> = quiz["questions"]
        .as_array()
        .unwrap()
        .iter()
        .zip(focus)
        .map(|(q, (focus, misconception))| {
            let diagram = if q["type"] == "mermaid" {
                "the call order of take, cache, model and checks when a quiz streams"
            } else {
                ""
            };
            json!({"type": q["type"], "focus": focus, "misconception": misconception,
                   "diagram": diagram, "anchor": null})
        })
        .collect();
    json!({ "slots": slots })
}

/// The slot (from 1) a drafter's message names: `Write question q3 (`.
fn slot_of(r: &Recorded) -> usize {
    let text = r.first_user_text();
    let at = text.find("Write question q").expect("a drafter's message");
    text[at + 16..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a slot number")
}

/// What the model answers to `r`: the whole quiz, the plan, or one slot's question.
fn answer(r: &Recorded, quiz: &Value) -> Value {
    match r.json()["tool_choice"]["name"].as_str() {
        Some("submit_quiz") => quiz.clone(),
        Some("plan_quiz") => plan(quiz),
        _ => {
            let mut q = quiz["questions"][slot_of(r) - 1].clone();
            q.as_object_mut().unwrap().remove("id");
            q
        }
    }
}

struct Case {
    name: &'static str,
    first_token: Duration,
    tokens_per_second: f64,
}

/// Seconds (at the model's pace) until question 1 was written, until it could be
/// answered (passed its checks), until the whole quiz was ready; and the output tokens of
/// every call.
struct Timing {
    q1_written: f64,
    q1_answerable: f64,
    whole: f64,
    tokens: usize,
    calls: usize,
}

fn measure(case: &Case, pipelined: bool, speedup: f64, quiz: &Value) -> Timing {
    let (rate, wait) = (
        case.tokens_per_second * speedup,
        case.first_token.div_f64(speedup),
    );
    let written = quiz.clone();
    let server = FakeMessages::start(move |r, _| {
        Reply::tool_input(answer(r, &written))
            .streamed_at(rate)
            .after(wait)
    });
    let env = EnvSnapshot::from_pairs([
        ("ANTHROPIC_API_KEY", "k"),
        ("ANTHROPIC_BASE_URL", server.url.as_str()),
    ]);
    let selection = select_generator(&env, Path::new("."));
    let input = prepare_pr(&[], &Marked::none(), &mut |_| None, 1000);
    let failed = tempfile::tempdir().unwrap();
    let write = if pipelined {
        write_quiz_pipelined
    } else {
        write_quiz_single
    };
    let start = Instant::now();
    let (mut q1_written, mut q1_answerable) = (None, None);
    let at = |start: Instant| start.elapsed().as_secs_f64() * speedup;
    let written = write(
        &selection,
        &input,
        &Context::default(),
        failed.path(),
        &mut |stage| match stage {
            Stage::QuestionDrafted { index: 0, .. } => {
                q1_written.get_or_insert(at(start));
            }
            Stage::QuestionReady { index: 0, .. } => {
                q1_written.get_or_insert(at(start));
                q1_answerable.get_or_insert(at(start));
            }
            _ => {}
        },
        &Cancel::new(),
    )
    .unwrap_or_else(|e| panic!("the bench quiz must pass: {e}"));
    let whole = at(start);
    assert_eq!(written.questions.len(), 6);
    let posts = server.posts();
    Timing {
        q1_written: q1_written.unwrap_or(whole),
        // One call: nothing is checked, so nothing answerable, before the whole quiz.
        q1_answerable: q1_answerable.unwrap_or(whole),
        whole,
        tokens: posts
            .iter()
            .map(|r| answer(r, quiz).to_string().len().div_ceil(4))
            .sum(),
        calls: posts.len(),
    }
}

fn main() {
    let speedup = support::speedup();
    let quiz = support::realistic_quiz::quiz();
    let plan_tokens = plan(&quiz).to_string().len().div_ceil(4);
    println!(
        "the quiz: 6 questions, about {} output tokens in one call; the plan: about {plan_tokens} tokens",
        quiz.to_string().len().div_ceil(4)
    );
    println!("seconds at the model's pace (the fake waits 1/{speedup} of them)");
    if speedup > 10.0 {
        println!("a smoke run: quizz's own time is multiplied too, only --bench measures");
    }
    println!();
    println!(
        "| model | design | calls | output tokens | q1 written | q1 answerable | whole quiz |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|");
    let cases = [
        Case {
            name: "1 s to the first token, 50 tokens/s",
            first_token: Duration::from_secs(1),
            tokens_per_second: 50.0,
        },
        Case {
            name: "3 s per call, 20 tokens/s",
            first_token: Duration::from_secs(3),
            tokens_per_second: 20.0,
        },
    ];
    for case in &cases {
        for (design, pipelined) in [("one call", false), ("pipeline", true)] {
            let t = measure(case, pipelined, speedup, &quiz);
            println!(
                "| {} | {design} | {} | {} | {:.1} | {:.1} | {:.1} |",
                case.name, t.calls, t.tokens, t.q1_written, t.q1_answerable, t.whole
            );
        }
    }
}
