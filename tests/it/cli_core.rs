//! The core commands end to end, through the real binary.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const FIX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn quizz(data: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quizz"))
        .args(args)
        .env("XDG_DATA_HOME", data)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that does not read stdin may exit first: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The seed taker's answers: q1 right, q2 right, q3 wrong, q4 right, q5 "test", q6 wrong.
const SEED_TAKER: &str = "1\nf\n2\nf\ntest\n.\nA\n";

#[test]
fn plain_take_of_the_demo_reproduces_the_seed_results() {
    let data = tempfile::tempdir().unwrap();
    let out = quizz(
        data.path(),
        &["take", "--demo", "--plain", "--json"],
        SEED_TAKER.as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let scores: Vec<u64> = results["per_question"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_u64().unwrap())
        .collect();
    assert_eq!(scores, [100, 100, 0, 100, 0]);
    assert_eq!(results["pending"], serde_json::json!(["q5"]));
    assert_eq!(results["total_score"], 50);
    let prompts = text(&out.stderr);
    assert!(
        prompts.contains("── Question 6 of 6 · pick the diagram · q6 ──"),
        "{prompts}"
    );
}

#[test]
fn bad_entries_are_explained_and_asked_again() {
    let data = tempfile::tempdir().unwrap();
    let out = quizz(
        data.path(),
        &["take", "--demo", "--plain"],
        b"9\nx\n1\nmaybe\nt\n",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Not an option: type a number from 1 to 4"),
        "{stdout}"
    );
    assert!(stdout.contains("Type t, f, true or false"), "{stdout}");
    assert!(stdout.contains("1. ✓ right  q1"), "{stdout}");
}

#[test]
fn an_interrupted_take_resumes_with_every_answer() {
    let data = tempfile::tempdir().unwrap();
    // First run: two answers, then the process is killed (input that ends would grade
    // them, and a graded attempt is final).
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_quizz"))
        .args(["take", "--demo", "--plain"])
        .env("XDG_DATA_HOME", data.path())
        .env("TERM", "dumb")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = first.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"1\nf\n").unwrap();
    let saved_both = || {
        crate::messages_fake::json_files(data.path())
            .iter()
            .any(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("\"q2\"")))
    };
    while !saved_both() {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    first.kill().unwrap();
    first.wait().unwrap();
    drop(stdin);
    // Second run: it starts at the first unanswered question; empty lines skip the rest.
    let out = quizz(
        data.path(),
        &["take", "--demo", "--plain", "--json"],
        b"\n\n\n\n",
    );
    let stderr = text(&out.stderr);
    assert!(stderr.contains("Resuming: 2 of 6 answered"), "{stderr}");
    assert!(stderr.contains("starting at question 3"), "{stderr}");
    assert!(!stderr.contains("Question 1 of 6"), "{stderr}");
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(results["per_question"][0]["correct"], true);
    assert_eq!(results["per_question"][1]["correct"], true);
}

#[test]
fn grade_an_answers_file() {
    let data = tempfile::tempdir().unwrap();
    let quiz = format!("{FIX}/cognit/quiz_comment.md");
    let answers = format!("{FIX}/cognit/answers.json");
    let out = quizz(
        data.path(),
        &["grade", "--quiz", &quiz, "--answers", &answers, "--json"],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // q1 wrong option, q2 mermaid A right, q3 open pending, q4 false right.
    assert_eq!(results["per_question"].as_array().unwrap().len(), 3);
    assert_eq!(results["pending"], serde_json::json!(["q3"]));
    assert_eq!(results["total_score"], 50);
    let out = quizz(
        data.path(),
        &["grade", "--quiz", &quiz, "--answers", &answers],
        b"",
    );
    let md = text(&out.stdout);
    assert!(
        md.starts_with("<!-- quizz:results v1 -->\n## Quiz results"),
        "{md}"
    );
    assert!(md.contains("- ⏳ `q3` — pending"), "{md}");
}

#[test]
fn show_json_keeps_fields_it_does_not_know() {
    let data = tempfile::tempdir().unwrap();
    let path = format!("{FIX}/cognit/real-quiz-pr20.json");
    let out = quizz(data.path(), &["show", &path, "--json"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let original: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        shown["questions"].as_array().unwrap().len(),
        original["questions"].as_array().unwrap().len()
    );
    for (a, b) in shown["questions"]
        .as_array()
        .unwrap()
        .iter()
        .zip(original["questions"].as_array().unwrap())
    {
        for key in b.as_object().unwrap().keys() {
            assert_eq!(a[key], b[key], "field {key} changed");
        }
    }
}

#[test]
fn show_reads_stdin_and_does_not_reveal_answers() {
    let data = tempfile::tempdir().unwrap();
    let comment = std::fs::read(format!("{FIX}/seed/pr7-quiz-comment.md")).unwrap();
    let out = quizz(data.path(), &["show", "-"], &comment);
    let shown = text(&out.stdout);
    assert!(
        shown.starts_with("Quiz for PR #7: 6 questions (2 mcq, 2 tf, 1 open, 1 mermaid)"),
        "{shown}"
    );
    assert!(
        !shown.contains("A complete answer must make all three"),
        "the rubric leaked"
    );
}

/// Unusable input: one line on stderr naming what and where, exit status 2, no panic.
#[test]
fn bad_input_table() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path();
    let seed = std::fs::read_to_string(format!("{FIX}/seed/pr7-quiz.json")).unwrap();
    let comment = std::fs::read_to_string(format!("{FIX}/seed/pr7-quiz-comment.md")).unwrap();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "truncated.json",
            seed.as_bytes()[..200].to_vec(),
            "truncated.json: line ",
        ),
        (
            "wrong-type.json",
            seed.replacen("\"answer\": false", "\"answer\": 3", 1)
                .into_bytes(),
            "(id \"q2\"): tf \"answer\" must be true or false",
        ),
        (
            "missing.json",
            seed.replacen("\"rubric\"", "\"rubricx\"", 1).into_bytes(),
            "(id \"q5\"): missing field \"rubric\"",
        ),
        (
            "v2.json",
            seed.replacen("\"version\": \"1\"", "\"version\": \"2\"", 1)
                .into_bytes(),
            "version \"2\" is not supported",
        ),
        ("empty.md", Vec::new(), "empty.md: the text is empty"),
        (
            "noquiz.md",
            b"## Just a review comment\nLGTM\n".to_vec(),
            "no quiz found",
        ),
        (
            "huge.md",
            vec![b'a'; 10 * 1024 * 1024],
            "huge.md: 10485760 bytes is more than",
        ),
        (
            "latin1.md",
            b"caf\xe9 quiz".to_vec(),
            "not valid UTF-8 (first bad byte at offset 3)",
        ),
        (
            "mcq.json",
            seed.replacen(
                "\"answer\": \"The SDK raises",
                "\"answer\": \"Nope. The SDK raises",
                1,
            )
            .into_bytes(),
            "question \"q3\": the answer",
        ),
        (
            "dup.json",
            seed.replacen("\"id\": \"q2\"", "\"id\": \"q1\"", 1)
                .into_bytes(),
            "question \"q1\": the id is used by more than one question",
        ),
        (
            "results.md",
            std::fs::read(format!("{FIX}/cognit/results_comment.md")).unwrap(),
            "this is a results comment, not a quiz",
        ),
        (
            "broken-comment.md",
            comment
                .replacen("\"questions\": [", "\"questions\": [[", 1)
                .into_bytes(),
            "broken-comment.md: line ",
        ),
    ];
    for (name, bytes, want) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = quizz(dir, &["show", path.to_str().unwrap()], b"");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.starts_with("quizz: error: ") && err.contains(want),
            "{name}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
    }
    let out = quizz(dir, &["take"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = quizz(dir, &["frobnicate"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn two_quiz_blocks_take_the_last_and_say_so() {
    let data = tempfile::tempdir().unwrap();
    let a = std::fs::read_to_string(format!("{FIX}/cognit/quiz_comment.md")).unwrap();
    let b = std::fs::read_to_string(format!("{FIX}/seed/pr7-quiz-comment.md")).unwrap();
    let path = data.path().join("two.md");
    std::fs::write(&path, format!("{a}\n\n{b}")).unwrap();
    let out = quizz(data.path(), &["show", path.to_str().unwrap()], b"");
    assert!(out.status.success());
    assert!(text(&out.stderr).contains("2 quiz blocks found; took the last one"));
    assert!(text(&out.stdout).contains("6 questions"));
}

#[test]
fn control_sequences_in_prompts_never_reach_the_terminal() {
    let data = tempfile::tempdir().unwrap();
    let quiz = r#"{"version":"1","pr_number":1,"questions":[{"type":"tf","id":"t\u001b[31m1","prompt":"Safe?\u001b[2J\u001b]0;owned\u0007 \u009b31m yes\u202e","answer":true}]}"#;
    let path = data.path().join("evil.json");
    std::fs::write(&path, quiz).unwrap();
    for args in [
        vec!["show", path.to_str().unwrap()],
        vec!["take", "--file", path.to_str().unwrap(), "--plain"],
    ] {
        let out = quizz(data.path(), &args, b"t\n");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let all = [out.stdout.clone(), out.stderr.clone()].concat();
        assert!(
            !all.iter().any(|b| *b == 0x1b || *b == 0x07),
            "{}",
            text(&all)
        );
        assert!(!text(&all).contains('\u{9b}') && !text(&all).contains('\u{202e}'));
        assert!(text(&out.stdout).contains("Safe?"));
    }
}

#[test]
fn every_fixture_parses_or_fails_as_expected() {
    let data = tempfile::tempdir().unwrap();
    let quizzes = [
        "seed/pr7-quiz.json",
        "seed/pr7-quiz-comment.md",
        "cognit/quiz.json",
        "cognit/quiz_comment.md",
        "cognit/real-quiz-pr20.json",
    ];
    for q in quizzes {
        let out = quizz(data.path(), &["show", &format!("{FIX}/{q}")], b"");
        assert!(out.status.success(), "{q}: {}", text(&out.stderr));
    }
    let not_quizzes = [
        "cognit/answers.json",
        "cognit/results.json",
        "seed/pr7-results.json",
    ];
    for q in not_quizzes {
        let out = quizz(data.path(), &["show", &format!("{FIX}/{q}")], b"");
        assert_eq!(out.status.code(), Some(2), "{q}");
        assert!(
            text(&out.stderr).contains("missing field \"questions\""),
            "{q}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn help_teaches_with_examples() {
    let data = tempfile::tempdir().unwrap();
    for cmd in ["take", "show", "grade"] {
        let out = quizz(data.path(), &[cmd, "--help"], b"");
        assert!(out.status.success());
        assert!(text(&out.stdout).contains("Examples:"), "{cmd}");
    }
    let out = quizz(data.path(), &["--version"], b"");
    assert_eq!(
        text(&out.stdout).trim(),
        concat!("quizz ", env!("CARGO_PKG_VERSION"))
    );
}
