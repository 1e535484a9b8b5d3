//! The generation schema through the real `claude` CLI (`--json-schema`), against the fake
//! Messages API: the CLI takes the schema as quizz writes it, hands back a quiz in it as
//! `structured_output`, and asks again when the model's answer is not in it.

use crate::messages_fake as support;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};
use support::fake_messages::{FakeMessages, Reply};
use support::{run_with_input, text};

fn claude(real: &Path, home: &Path, server: &FakeMessages) -> Output {
    claude_with(real, home, server, &quizz::generate::submit_quiz_schema())
}

/// The real CLI asked for output in `schema`, its model the fake behind `server`.
pub(crate) fn claude_with(
    real: &Path,
    home: &Path,
    server: &FakeMessages,
    schema: &Value,
) -> Output {
    let schema = schema.to_string();
    let mut cmd = Command::new(real);
    cmd.env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", home)
        .env("ANTHROPIC_BASE_URL", &server.url)
        .env("ANTHROPIC_AUTH_TOKEN", "tok-gateway-7")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .args(["-p", "--output-format", "json", "--json-schema"])
        .arg(&schema)
        .args(["--tools", "", "--model", "sonnet", "--max-turns", "4"])
        .args(["--no-session-persistence", "--setting-sources", ""])
        .arg("--strict-mcp-config")
        .current_dir(home);
    run_with_input(&mut cmd, "Write a quiz on the change.")
}

fn draft() -> Value {
    json!({"questions": [
        {"type": "tf", "id": "q1", "prompt": "`send` retries a 500.", "answer": false,
         "explanation": "Only a 429 is retried.", "anchor": null},
        {"type": "open", "id": "q2", "prompt": "Why retry only once?",
         "rubric": ["a second failure means the server is down", "more retries hold the terminal"],
         "anchor": {"path": "src/retry.rs", "start_line": 2, "end_line": 4}},
        {"type": "mermaid", "id": "q3", "prompt": "Which order?", "answer": "B",
         "explanation": "The cache is read first.", "anchor": null,
         "options": {"A": "graph TD\nA-->B", "B": "graph TD\nB-->A", "C": "graph TD\nA-.->B", "D": "graph TD\nA==>B"}}
    ]})
}

/// The run's `structured_output`, after checking that the run succeeded.
pub(crate) fn structured(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", text(&out.stdout), text(&out.stderr)));
    v["structured_output"].clone()
}

#[test]
fn the_cli_takes_the_schema_and_returns_a_quiz_in_it() {
    let Some(real) = support::claude_bin() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let server = FakeMessages::sequence(vec![Reply::tool_input(draft())]);
    let out = claude(&real, home.path(), &server);
    let answer = structured(&out);
    assert_eq!(answer, draft());
    assert!(quizz::generate::parse_draft(&answer).is_ok());
    // the schema reached the model unchanged, as the output tool's input
    let sent = server.posts()[0].json()["tools"].clone();
    let schema = quizz::generate::submit_quiz_schema();
    assert!(
        sent.as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "StructuredOutput" && t["input_schema"] == schema),
        "{sent}"
    );
}

/// A diagram question without option D, or with a property the schema does not have, is
/// refused by the CLI itself, which asks the model again.
#[test]
fn the_cli_asks_again_when_the_answer_is_not_in_the_schema() {
    let Some(real) = support::claude_bin() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let mut broken = draft();
    broken["questions"][2]["options"]
        .as_object_mut()
        .unwrap()
        .remove("D");
    broken["questions"][0]["confidence"] = json!(5);
    let server =
        FakeMessages::sequence(vec![Reply::tool_input(broken), Reply::tool_input(draft())]);
    let out = claude(&real, home.path(), &server);
    assert_eq!(structured(&out), draft());
    let posts = server.posts();
    assert_eq!(posts.len(), 2, "one answer refused, then one taken");
    let refusal = posts[1].json()["messages"].to_string();
    assert!(
        refusal.contains("must have required property 'D'"),
        "{refusal}"
    );
}
