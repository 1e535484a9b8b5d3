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

#[allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::needless_pass_by_value,
    clippy::cast_precision_loss,
    clippy::format_push_string
)]
#[path = "../tests/it/messages_fake/fake_messages.rs"]
mod fake_messages;

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fake_messages::{FakeMessages, Reply};
use quizz::generate::input::Marked;
use quizz::generate::{TOOL_NAME, accept, prepare_pr, submit_quiz_schema};
use quizz::llm::{Ask, Auth, Limits, Llm, MessagesClient, Progress};
use serde_json::{Value, json};

const SEQ: &str = "sequenceDiagram
    participant U as user
    participant T as take
    participant C as cache
    participant M as model
    participant K as checks
    U->>T: quizz take 7
    T->>C: lookup(head_sha)
    C-->>T: miss
    T->>M: submit_quiz (stream)
    M-->>T: question 1 closes
    T->>K: check question 1
    K-->>T: passes
    T-->>U: show question 1
    M-->>T: questions 2 to 6
    T->>K: accept(whole quiz)
    K-->>T: quiz
    T->>C: store(quiz)";

fn diagrams() -> Value {
    json!({
        "A": SEQ.replace("    T->>K: check question 1\n    K-->>T: passes\n    T-->>U: show question 1\n",
                         "    T-->>U: show question 1\n    T->>K: check question 1\n    K-->>T: passes\n"),
        "B": SEQ,
        "C": SEQ.replace("T->>C: lookup(head_sha)\n    C-->>T: miss", "T->>M: lookup(head_sha)\n    M-->>T: miss"),
        "D": SEQ.replace("T->>C: store(quiz)", "M->>C: store(quiz)"),
    })
}

/// A realistic explanation: a few sentences about what the code does.
fn explain(topic: &str) -> String {
    format!(
        "The {topic} runs after the previous step has returned, so its result is known \
         before the next request is sent; the retry loop only wraps the send itself, and the \
         backoff doubles from half a second up to the cap of eight seconds with jitter, so two \
         clients that fail together do not retry in lockstep. Reading the diff line by line \
         shows that the early return happens before any state is written. The answers given \
         so far are saved after each question, so nothing the author typed depends on the \
         questions still being written, and a failure later loses none of them."
    )
}

fn code(n: usize) -> String {
    let mut lines = String::new();
    for i in 0..n {
        let _ = writeln!(
            lines,
            "    let attempt_{i} = client.send(&request_{i}).await?;"
        );
    }
    lines
}

fn mcq(id: &str, topic: &str, options: [&str; 3], answer: usize) -> Value {
    json!({"type": "mcq", "id": id,
           "prompt": format!("In this change, what happens to the {topic}?\n\n```rust\n{}```", code(26)),
           "options": options, "answer": options[answer],
           "explanation": explain(topic), "anchor": null})
}

/// Six questions in the generation schema: four mcq, one diagram question, one open.
fn quiz() -> Value {
    json!({"questions": [
        mcq("q1", "request sent after a 529", ["it waits for the backoff and is sent again",
            "it is dropped and the error is shown", "it is sent again at once without waiting"], 0),
        mcq("q2", "retry-after header", ["it is ignored in favour of the backoff",
            "it is honoured when shorter than the cap", "it doubles the next backoff"], 1),
        {"type": "mermaid", "id": "q3",
         "prompt": format!("Which diagram shows what `take` does on a PR without a quiz, now that questions stream?\n\n{}", explain("stream")),
         "options": diagrams(), "answer": "B", "explanation": explain("diagram"), "anchor": null},
        mcq("q4", "cancelled generation", ["the answers given so far are lost",
            "the model keeps writing in the background", "the answers given so far are kept"], 2),
        mcq("q5", "cut stream", ["it is reported as a clear error",
            "it is parsed as far as it went", "it is retried forever"], 0),
        {"type": "open", "id": "q6",
         "prompt": format!("Why does quizz check question 1 before the rest of the quiz is written, and what must stay true when a later question fails its checks?\n\n```rust\n{}```", code(50)),
         "rubric": ["each question is checked on its own as soon as its object closes",
                    "answers given to early questions are saved and survive a later failure",
                    "a failing question is repaired or replaced without touching the others",
                    "the review and the submit wait until every question passed"],
         "anchor": null}
    ]})
}

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
    // `cargo test --all-targets` runs this too, without `--bench`: a quick smoke run then,
    // not the minutes of a measurement.
    let measuring = std::env::args().any(|a| a == "--bench");
    let speedup: f64 = std::env::var("QUIZZ_BENCH_SPEEDUP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if measuring { 1.0 } else { 1000.0 });
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
