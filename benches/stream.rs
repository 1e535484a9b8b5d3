//! How soon a streamed quiz shows its first question: the fake Messages API writes a
//! realistic 6-question quiz (one diagram question with four sequence diagrams, about
//! 4,000 output tokens) at a given rate, and quizz's client reads it as generation does
//! (streamed, each question told as soon as its object closes, the whole quiz then
//! checked by `accept`). Measured once per case, in seconds from the request:
//! question 1 told, the whole quiz ready. The one-call design without streaming shows
//! nothing before the whole quiz is ready.
//!
//! Run (about 5 minutes: it writes at the model's pace):
//!   cargo bench --bench stream --no-run, then run the `stream-…` binary it names with
//!   `--bench`; `QUIZZ_BENCH_SPEEDUP=100` divides every delay for a quick look.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::cast_precision_loss)]

#[path = "support/mod.rs"]
mod support;

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use quizz::generate::input::Marked;
use quizz::generate::{TOOL_NAME, accept, prepare_pr, submit_quiz_schema};
use quizz::llm::{Ask, Auth, Limits, Llm, MessagesClient, Progress};
use serde_json::Value;
use support::fake_messages::{FakeMessages, Reply};
use support::realistic_quiz::quiz;

struct Case {
    name: &'static str,
    tokens_per_second: f64,
    first_byte: Duration,
}

/// Seconds from the request until question 1 was told, and until the quiz was accepted.
fn measure(case: &Case, speedup: f64, answer: &Value) -> (f64, f64) {
    let reply = Reply::tool_input(answer.clone())
        .streamed_at(case.tokens_per_second * speedup)
        .after(case.first_byte.div_f64(speedup));
    let server = FakeMessages::sequence(vec![reply]);
    let http = Limits::generation_within(Path::new("."), Duration::from_secs(600)).http;
    let llm = Llm::Messages(
        MessagesClient::new(&server.url, "claude-bench", Auth::ApiKey("k".into()), http).unwrap(),
    );
    let input = prepare_pr(&[], &Marked::none(), &mut |_| None, 1000);
    let schema = submit_quiz_schema();
    let ask = Ask {
        system: "Write the quiz.",
        user: "The change.",
        tool: TOOL_NAME,
        description: "Submit the quiz.",
        schema: &schema,
        what: "quiz",
        shape: "the whole quiz",
    };
    let first = Mutex::new(None);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let start = Instant::now();
    let validate =
        |v: &Value| accept(v, &input, 7).map_err(|f| f.iter().map(ToString::to_string).collect());
    let report = |p: Progress| {
        if let Progress::Item { index: 0, .. } = p {
            first.lock().unwrap().get_or_insert_with(|| start.elapsed());
        }
    };
    let quiz = runtime.block_on(llm.ask_reporting(&ask, &validate, &report));
    let whole = start.elapsed();
    let quiz = quiz.unwrap_or_else(|e| panic!("the bench quiz must pass: {e}"));
    assert_eq!(quiz.questions.len(), 6);
    let first = first.into_inner().unwrap().expect("question 1 was told");
    (first.as_secs_f64() * speedup, whole.as_secs_f64() * speedup)
}

fn main() {
    let speedup = support::speedup();
    let answer = quiz();
    let text = answer.to_string();
    let q1 = answer["questions"][0].to_string();
    println!(
        "quiz: 6 questions, {} characters of tool input (about {} output tokens); question 1: {} characters (about {} tokens)",
        text.chars().count(),
        text.chars().count().div_ceil(4),
        q1.chars().count(),
        q1.chars().count().div_ceil(4),
    );
    let cases = [
        Case {
            name: "50 tokens/s",
            tokens_per_second: 50.0,
            first_byte: Duration::ZERO,
        },
        Case {
            name: "20 tokens/s, 3 s to the first byte",
            tokens_per_second: 20.0,
            first_byte: Duration::from_secs(3),
        },
    ];
    for case in &cases {
        let (first, whole) = measure(case, speedup, &answer);
        println!(
            "{}: question 1 told after {first:.1} s, whole quiz ready after {whole:.1} s (one call without streaming: nothing before {whole:.1} s)",
            case.name
        );
    }
}
