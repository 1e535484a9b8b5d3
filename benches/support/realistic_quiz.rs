//! The realistic quiz of the generation benches: six questions in the generation schema
//! (four mcq with code, one diagram question with four sequence diagrams, one open), about
//! 4,000 output tokens in all.

use std::fmt::Write as _;

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
pub fn quiz() -> Value {
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
