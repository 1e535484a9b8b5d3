//! `quizz grade`, `quizz take` and `quizz doctor` through the real binary, grading open
//! answers against the fake Messages API.

use crate::messages_fake as support;

use std::time::{Duration, Instant};

use serde_json::Value;
use support::fake_messages::{FakeMessages, Reply};
use support::{quizz, run_with_input, text};

const KEY: &str = "sk-ant-cli-test-secret-42";
const TAKE_INPUT: &str = "1\nf\n2\nf\nIt forces the only tool.\n.\nD\n";

fn demo_file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("quiz.json");
    std::fs::write(&path, quizz::source::DEMO_QUIZ).unwrap();
    path
}

fn with_api(cmd: &mut std::process::Command, server: &FakeMessages) {
    cmd.env("ANTHROPIC_API_KEY", KEY)
        .env("ANTHROPIC_BASE_URL", &server.url);
}

fn assert_no_secret(out: &std::process::Output) {
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!all.contains(KEY), "the key leaked:\n{all}");
}

#[test]
fn grade_files_grades_the_open_answer_with_progress_on_stderr() {
    let server = FakeMessages::sequence(vec![Reply::grade(
        80,
        "Names the forcing; misses the None path.",
    )]);
    let dir = tempfile::tempdir().unwrap();
    let quiz = demo_file(dir.path());
    let answers = support::seed_answers(dir.path(), "It forces the tool.");
    let mut cmd = quizz(dir.path());
    cmd.args(["grade", "--json", "--quiz"])
        .arg(&quiz)
        .arg("--answers")
        .arg(&answers);
    with_api(&mut cmd, &server);
    let out = cmd.output().unwrap();
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_no_secret(&out);
    let results: Value = serde_json::from_slice(&out.stdout).unwrap();
    let q5 = results["per_question"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["question_id"] == "q5")
        .unwrap();
    assert_eq!(q5["score"], 80);
    assert_eq!(q5["correct"], true);
    assert_eq!(results["total_score"], 63); // (100+100+0+100+80+0)/6
    assert!(results.get("pending").is_none());
    assert!(
        stderr.contains("Grading 1 open answer with the Messages API"),
        "{stderr}"
    );
    assert!(
        stderr.contains("grading q5…") && stderr.contains("graded  q5: 80%"),
        "{stderr}"
    );
    assert_eq!(server.posts().len(), 1);
}

#[test]
fn without_a_backend_open_answers_stay_pending() {
    let dir = tempfile::tempdir().unwrap();
    let quiz = demo_file(dir.path());
    let answers = support::seed_answers(dir.path(), "An answer.");
    let out = quizz(dir.path())
        .args(["grade", "--quiz"])
        .arg(&quiz)
        .arg("--answers")
        .arg(&answers)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(
        stdout.contains("provisional: 1 open answer not graded yet"),
        "{stdout}"
    );
    assert!(stdout.contains("\"pending\""), "{stdout}");
    assert!(stderr.contains("no grader for open answers"), "{stderr}");
    assert!(stderr.contains("quizz doctor"), "{stderr}");
}

#[test]
fn a_failed_answer_is_reported_and_re_graded_alone_with_previous_results() {
    let dir = tempfile::tempdir().unwrap();
    let (quiz, answers) = support::open_quiz(dir.path(), 2);
    // o1 fails, o2 is graded.
    let server = FakeMessages::start(|r, _| {
        if r.body.contains("answer 1") {
            Reply::error(500, "api_error", "internal")
        } else {
            Reply::grade(90, "good")
        }
    });
    let mut cmd = quizz(dir.path());
    cmd.args(["grade", "--json", "--quiz"])
        .arg(&quiz)
        .arg("--answers")
        .arg(&answers);
    with_api(&mut cmd, &server);
    let out = cmd.output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("failed  o1: the API failed with HTTP 500"),
        "{stderr}"
    );
    assert!(
        stderr.contains("Re-grade just those with: quizz grade --quiz"),
        "{stderr}"
    );
    assert!(stderr.contains("--previous RESULTS"), "{stderr}");
    let first: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(first["pending"], serde_json::json!(["o1"]));
    let previous = dir.path().join("results.json");
    std::fs::write(&previous, &out.stdout).unwrap();

    let retry = FakeMessages::sequence(vec![Reply::grade(70, "better")]);
    let mut cmd = quizz(dir.path());
    cmd.args(["grade", "--json", "--quiz"])
        .arg(&quiz)
        .arg("--answers")
        .arg(&answers)
        .arg("--previous")
        .arg(&previous);
    with_api(&mut cmd, &retry);
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(retry.posts().len(), 1);
    assert!(retry.posts()[0].body.contains("answer 1"));
    let second: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(second["total_score"], 80);
    assert!(second.get("pending").is_none());
}

#[test]
fn the_saved_attempt_is_graded_later_and_its_results_saved() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_with_input(
        quizz(dir.path())
            .args(["take", "--demo", "--plain", "--json"])
            .env("QUIZZ_GRADER", "none"),
        TAKE_INPUT,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let taken: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(taken["pending"], serde_json::json!(["q5"]));
    assert!(
        text(&out.stderr).contains("quizz grade --demo"),
        "{}",
        text(&out.stderr)
    );

    let server = FakeMessages::sequence(vec![Reply::grade(85, "Good.")]);
    let mut cmd = quizz(dir.path());
    cmd.args(["grade", "--demo", "--json"]);
    with_api(&mut cmd, &server);
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let graded: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(graded.get("pending").is_none());
    assert_eq!(server.posts().len(), 1);
    assert!(server.posts()[0].body.contains("It forces the only tool."));

    let attempts = dir.path().join("data/quizz/attempts/demo");
    let file = std::fs::read_dir(&attempts)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let attempt: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let saved_q5 = attempt["results"]["per_question"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["question_id"] == "q5")
        .unwrap()
        .clone();
    assert_eq!(saved_q5["score"], 85);

    // Nothing pending: no call. --regrade grades it again.
    let mut cmd = quizz(dir.path());
    cmd.args(["grade", "--demo"]);
    with_api(&mut cmd, &server);
    assert!(cmd.output().unwrap().status.success());
    assert_eq!(server.posts().len(), 1);
    let mut cmd = quizz(dir.path());
    cmd.args(["grade", "--demo", "--regrade"]);
    with_api(&mut cmd, &server);
    assert!(cmd.output().unwrap().status.success());
    assert_eq!(server.posts().len(), 2);

    // A quiz never taken has nothing to grade.
    let other = tempfile::tempdir().unwrap();
    let out = quizz(other.path())
        .args(["grade", "--demo"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("take it first"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn take_in_plain_mode_grades_with_progress_in_the_prompt_stream() {
    let server = FakeMessages::sequence(vec![Reply::grade(
        60,
        "Half of the claims.\u{1b}]0;pwned\u{7}",
    )]);
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = quizz(dir.path());
    cmd.args(["take", "--demo", "--plain"]);
    with_api(&mut cmd, &server);
    let out = run_with_input(&mut cmd, TAKE_INPUT);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("grading q5…") && stdout.contains("graded  q5: 60%"),
        "{stdout}"
    );
    assert!(
        stdout.contains("feedback:    Half of the claims."),
        "{stdout}"
    );
    assert!(
        !stdout.contains('\u{1b}'),
        "model output is sanitized before printing"
    );
    assert_no_secret(&out);
}

#[test]
fn doctor_names_variables_never_values_and_checks_with_one_call() {
    let server = FakeMessages::sequence(vec![Reply::grade(100, "Correct.")]);
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = quizz(dir.path());
    cmd.args(["doctor"])
        .env("ANTHROPIC_AUTH_TOKEN", "tok-doctor-secret");
    with_api(&mut cmd, &server);
    let out = cmd.output().unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert!(
        stdout.contains("grader:   Anthropic Messages API (x-api-key from ANTHROPIC_API_KEY)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("ANTHROPIC_API_KEY is set (value hidden)"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "base URL: {} (from ANTHROPIC_BASE_URL)",
            server.url
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("writer:   the same backend writes quizzes: a plan, then one call per question in parallel (the default on the Messages API: question 1 is ready while the rest is written, the whole quiz in half the time; QUIZZ_GENERATE=single for one call)"),
        "who writes quizzes: {stdout}"
    );
    assert!(!stdout.contains("tok-doctor-secret"));
    assert_no_secret(&out);
    assert_eq!(server.posts().len(), 0, "no call without --check");

    let mut cmd = quizz(dir.path());
    cmd.args(["doctor"]).env("QUIZZ_GENERATE", "single");
    with_api(&mut cmd, &server);
    let single = text(&cmd.output().unwrap().stdout);
    assert!(
        single.contains(
            "writes quizzes: one call for the whole quiz\n          (QUIZZ_GENERATE is set: one call writes the quiz)"
        ),
        "{single}"
    );

    let mut cmd = quizz(dir.path());
    cmd.args(["doctor", "--check"]);
    with_api(&mut cmd, &server);
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("check:    ok: a test answer was graded 100%"));
    assert_eq!(server.posts().len(), 1);

    let refused = FakeMessages::sequence(vec![Reply::error(
        401,
        "authentication_error",
        "invalid x-api-key",
    )]);
    let mut cmd = quizz(dir.path());
    cmd.args(["doctor", "--check"]);
    with_api(&mut cmd, &refused);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("check:    failed") && stdout.contains("ANTHROPIC_API_KEY"),
        "{stdout}"
    );
    assert_no_secret(&out);

    let out = quizz(dir.path())
        .args(["doctor", "--check"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("grader:   none"));
    assert!(text(&out.stdout).contains("writer:   none"));
}

/// The closing-note figure through the binary: 6 open answers, 500 ms per reply.
/// Run: `cargo test --test it grade_cli:: -- --nocapture six_open_answers`
#[test]
fn six_open_answers_at_500_ms_each_through_the_binary() {
    let server =
        FakeMessages::start(|_, _| Reply::grade(90, "ok").after(Duration::from_millis(500)));
    let dir = tempfile::tempdir().unwrap();
    let (quiz, answers) = support::open_quiz(dir.path(), 6);
    let mut cmd = quizz(dir.path());
    cmd.args(["grade", "--json", "--quiz"])
        .arg(&quiz)
        .arg("--answers")
        .arg(&answers);
    with_api(&mut cmd, &server);
    let started = Instant::now();
    let out = cmd.output().unwrap();
    let wall = started.elapsed();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(server.max_in_flight(), 4);
    println!(
        "quizz grade, 6 open answers, 500 ms per reply, --jobs 4 (default): wall {:.2} s, sum of calls 3.00 s",
        wall.as_secs_f64()
    );
    assert!(wall < Duration::from_millis(2500), "{wall:?}");
}
