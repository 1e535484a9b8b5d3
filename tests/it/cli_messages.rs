//! What quizz says when something is missing: an error with nowhere to go, no grader.

use crate::messages_fake as support;

use std::process::Stdio;

use support::{quizz, run_with_input, text};

/// The demo's answers in plain mode, q5 (open) answered.
const PLAIN_ANSWERS: &str = "1\nf\n1\nf\nIt forces the tool call.\n1\n";

#[test]
fn an_error_with_stderr_closed_or_gone_keeps_its_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    // A reader that went away: writing the message fails (EPIPE).
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let gone = quizz(dir.path())
        .args(["show", "/nonexistent/quiz.md"])
        .stdout(Stdio::null())
        .stderr(writer)
        .status()
        .unwrap();
    assert_eq!(gone.code(), Some(2), "a panic is 101");
    // Closed by the shell (`2>&-`).
    let shell = std::process::Command::new("sh")
        .arg("-c")
        .arg("\"$0\" show /nonexistent/quiz.md 2>&-")
        .arg(env!("CARGO_BIN_EXE_quizz"))
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .status()
        .unwrap();
    assert_eq!(shell.code(), Some(2));
}

#[test]
fn with_no_grader_the_note_names_every_way_to_get_one() {
    let dir = tempfile::tempdir().unwrap();
    let take = run_with_input(
        quizz(dir.path()).args(["take", "--demo", "--plain"]),
        PLAIN_ANSWERS,
    );
    let said = format!("{}{}", text(&take.stdout), text(&take.stderr));
    let note = said
        .split("note: no grader")
        .nth(1)
        .unwrap_or_else(|| panic!("no note:\n{said}"));
    for way in ["ANTHROPIC_API_KEY", "Claude Code", "ANTHROPIC_AUTH_TOKEN"] {
        assert!(note.contains(way), "{way} is not named:\n{note}");
    }
    assert!(
        note.contains("then grade them with: quizz grade --demo"),
        "{note}"
    );

    // `quizz grade --demo` does not send you to `quizz grade --demo`.
    let grade = quizz(dir.path())
        .args(["grade", "--demo"])
        .output()
        .unwrap();
    let stderr = text(&grade.stderr);
    assert!(stderr.contains("note: no grader"), "{stderr}");
    assert!(stderr.contains("ANTHROPIC_API_KEY"), "{stderr}");
    assert!(stderr.contains("then run this command again"), "{stderr}");
    assert!(!stderr.contains("quizz grade --demo"), "{stderr}");

    // Turned off on purpose: the note says so rather than listing the ways.
    let off = quizz(dir.path())
        .args(["grade", "--demo"])
        .env("QUIZZ_GRADER", "none")
        .output()
        .unwrap();
    let stderr = text(&off.stderr);
    assert!(stderr.contains("QUIZZ_GRADER=none"), "{stderr}");
}
