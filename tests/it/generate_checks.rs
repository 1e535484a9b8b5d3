//! `quizz show --check`: the checks quizz holds the quizzes it writes to, on any quiz.

use std::process::{Command, Output};

const FIX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn show_check(args: &[&str]) -> Output {
    let data = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_quizz"))
        .arg("show")
        .arg("--check")
        .args(args)
        .env("XDG_DATA_HOME", data.path())
        .env("XDG_CONFIG_HOME", data.path())
        .env("XDG_CACHE_HOME", data.path())
        .env("XDG_STATE_HOME", data.path())
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A quiz with one known tell or fault per question: each named, in quiz order, with what
/// to change; the command fails with status 1.
#[test]
fn a_quiz_with_tells_lists_each_and_fails() {
    let out = show_check(&[&format!("{FIX}/generate/tells-quiz.json")]);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "5 questions: 7 checks failed", "{stdout}");
    let expected = [
        "question q1: the right option is much longer than the others (80 characters, the others 10 on average)",
        "question q2: no explanation",
        "question q3: the rubric repeats the prompt",
        "question q4, option C: not drawn as a picture at 75 columns: too wide (it would be listed one row per message)",
        "question q5: the options' nodes differ by more than one (A: 2, B: 4, C: 3, D: 3)",
        "question q5, option D: the diagram says \"correct\"",
        "question q5, option B: the right diagram is bigger than every distractor",
    ];
    assert_eq!(lines.len(), 1 + expected.len(), "{stdout}");
    for (line, want) in lines[1..].iter().zip(expected) {
        assert!(
            line.starts_with(&format!("  ✗ {want}")),
            "{line:?} should start with {want:?}"
        );
    }
    assert!(
        text(&out.stderr).contains("7 checks failed"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_sound_quiz_passes() {
    let out = show_check(&["--demo"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert_eq!(text(&out.stdout), "6 questions: every check passed\n");
}

#[test]
fn check_and_json_do_not_mix() {
    let out = show_check(&["--demo", "--json"]);
    assert_eq!(out.status.code(), Some(2));
}
