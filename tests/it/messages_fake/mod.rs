//! Shared helpers of the integration tests.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::needless_pass_by_value
)]

pub mod fake_messages;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The quizz binary with a clean environment: no grader unless the test sets one, answers
/// saved under `data`.
pub fn quizz(data: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_quizz"));
    cmd.env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", data)
        .env("XDG_DATA_HOME", data.join("data"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null());
    cmd
}

/// Runs with `input` on stdin.
pub fn run_with_input(cmd: &mut Command, input: &str) -> Output {
    use std::io::Write;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Every `.json` file under `dir` (saved attempts, for one).
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(json_files(&path));
        } else if path.extension().is_some_and(|e| e == "json") {
            found.push(path);
        }
    }
    found
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A quiz of `n` open questions (`o1`…) and the answers file that answers them all.
pub fn open_quiz(dir: &Path, n: usize) -> (PathBuf, PathBuf) {
    let questions: Vec<serde_json::Value> = (1..=n)
        .map(|i| {
            serde_json::json!({"type": "open", "id": format!("o{i}"),
                "prompt": format!("Explain part {i} of the change."),
                "rubric": format!("States claim {i}.")})
        })
        .collect();
    let quiz = serde_json::json!({"version": "1", "pr_number": 9, "questions": questions});
    let entries: Vec<serde_json::Value> = (1..=n)
        .map(
            |i| serde_json::json!({"question_id": format!("o{i}"), "value": format!("answer {i}")}),
        )
        .collect();
    let answers = serde_json::json!({"version": "1", "pr_number": 9, "entries": entries});
    let q = dir.join("open-quiz.json");
    let a = dir.join("open-answers.json");
    std::fs::write(&q, quiz.to_string()).unwrap();
    std::fs::write(&a, answers.to_string()).unwrap();
    (q, a)
}

/// The seed quiz's answers: q1 right, q2 right, q3 wrong, q4 right, q5 open, q6 wrong.
pub fn seed_answers(dir: &Path, open_answer: &str) -> PathBuf {
    let quiz = quizz::quiz::parse_quiz(quizz::source::DEMO_QUIZ).unwrap();
    let right = |id: &str| quiz.question(id).unwrap().kind.expected_value().unwrap();
    let answers = serde_json::json!({"version": "1", "pr_number": 7, "entries": [
        {"question_id": "q1", "value": right("q1")},
        {"question_id": "q2", "value": "false"},
        {"question_id": "q3", "value": "wrong option"},
        {"question_id": "q4", "value": "false"},
        {"question_id": "q5", "value": open_answer},
        {"question_id": "q6", "value": "A"},
    ]});
    let path = dir.join("answers.json");
    std::fs::write(&path, answers.to_string()).unwrap();
    path
}

/// The pinned `claude` CLI installed by `scripts/test`, when the test may use it. With `CI`
/// set, a missing CLI fails the test; locally it is skipped with a loud message.
pub fn claude_bin() -> Option<PathBuf> {
    let found = std::env::var_os("QUIZZ_TEST_CLAUDE_BIN")
        .map(PathBuf::from)
        .filter(|p| p.is_file());
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but QUIZZ_TEST_CLAUDE_BIN does not name the claude CLI: run scripts/test"
        );
        eprintln!(
            "\n!!! SKIPPED: the real claude CLI is not installed; run scripts/test (sets QUIZZ_TEST_CLAUDE_BIN) !!!\n"
        );
    }
    found
}

/// A small valid quiz, in the generation schema, about a change that makes `send` retry
/// once (src/retry.rs): 2 mcq (the first anchored at lines 2–4), 1 open, 1 tf.
pub fn retry_quiz() -> serde_json::Value {
    serde_json::json!({"questions": [
        {"type": "mcq", "id": "q1", "prompt": "When does `send` call `retry_send`?",
         "options": ["when the first try fails", "before the first try", "after every success"],
         "answer": "when the first try fails",
         "explanation": "The retry runs only if once() returned an error.",
         "anchor": {"path": "src/retry.rs", "start_line": 2, "end_line": 4}},
        {"type": "mcq", "id": "q2", "prompt": "How many tries can one `send` make?",
         "options": ["at most two", "exactly one", "as many as needed"],
         "answer": "at most two",
         "explanation": "One try, then one retry on an error.",
         "anchor": null},
        {"type": "open", "id": "q3", "prompt": "Why retry only once?",
         "rubric": ["a second failure points at a real outage, not a blip",
                    "more retries keep the caller waiting longer"],
         "anchor": null},
        {"type": "tf", "id": "q4", "prompt": "`send` now retries an error once before giving up.",
         "answer": true, "explanation": "retry_send runs after the first error.",
         "anchor": null}
    ]})
}
