//! Concurrent grading through the library API: bounded, with progress events, and one
//! failure never losing the others.

use crate::messages_fake as support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use quizz::grade::{Auth, GradeEvent, Grader, HttpConfig, HttpGrader, grade_open, regrade_pending};
use quizz::quiz::{Answers, Outcome, assemble, parse_quiz};
use quizz::source::DEMO_QUIZ;
use support::fake_messages::{FakeMessages, Reply};

fn grader(server: &FakeMessages) -> Arc<dyn Grader> {
    let config = HttpConfig {
        backoff_base: Duration::from_millis(10),
        backoff_cap: Duration::from_millis(20),
        max_attempts: 1,
        ..HttpConfig::default()
    };
    Arc::new(HttpGrader::new(&server.url, "m", Auth::ApiKey("k".into()), config).unwrap())
}

fn six_open() -> (quizz::quiz::Quiz, Answers) {
    let dir = tempfile::tempdir().unwrap();
    let (q, a) = support::open_quiz(dir.path(), 6);
    let quiz = parse_quiz(&std::fs::read_to_string(q).unwrap()).unwrap();
    let answers = Answers::parse(&std::fs::read_to_string(a).unwrap()).unwrap();
    (quiz, answers)
}

fn drain(rx: &mut tokio::sync::mpsc::UnboundedReceiver<GradeEvent>) -> Vec<GradeEvent> {
    let mut events = Vec::new();
    while let Ok(e) = rx.try_recv() {
        events.push(e);
    }
    events
}

#[tokio::test]
async fn at_most_the_given_number_of_calls_run_at_once() {
    let server =
        FakeMessages::start(|_, _| Reply::grade(90, "ok").after(Duration::from_millis(150)));
    let (quiz, answers) = six_open();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let outcomes = grade_open(&quiz, &answers, grader(&server), 2, tx).await;
    assert_eq!(server.max_in_flight(), 2);
    assert!(
        outcomes
            .iter()
            .all(|o| matches!(o, Outcome::Scored { score: 90, .. }))
    );
    let events = drain(&mut rx);
    assert_eq!(events.len(), 12);
    for q in &quiz.questions {
        let started = events
            .iter()
            .position(|e| matches!(e, GradeEvent::Started { question_id } if *question_id == q.id))
            .unwrap();
        let finished = events
            .iter()
            .position(|e| matches!(e, GradeEvent::Finished { question_id, outcome: Ok(_) } if *question_id == q.id))
            .unwrap();
        assert!(started < finished);
    }
}

#[tokio::test]
async fn one_failure_does_not_lose_the_others_and_can_be_retried_alone() {
    // The answer to o3 makes the fake API fail; the rest are graded.
    let server = FakeMessages::start(|r, _| {
        if r.body.contains("answer 3") {
            Reply::error(400, "invalid_request_error", "bad request")
        } else {
            Reply::grade(80, "fine")
        }
    });
    let (quiz, answers) = six_open();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let outcomes = grade_open(&quiz, &answers, grader(&server), 4, tx).await;
    assert_eq!(outcomes[2], Outcome::Pending);
    assert_eq!(
        outcomes.iter().filter(|o| **o == Outcome::Pending).count(),
        1
    );
    let failed: Vec<_> = drain(&mut rx)
        .into_iter()
        .filter_map(|e| match e {
            GradeEvent::Finished {
                question_id,
                outcome: Err(e),
            } => Some((question_id, e.to_string())),
            _ => None,
        })
        .collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].0, "o3");
    assert!(failed[0].1.contains("bad request"), "{}", failed[0].1);
    let results = assemble(&quiz, &outcomes);
    assert_eq!(results.pending, vec!["o3".to_string()]);

    // The retry grades only o3.
    let before = server.posts().len();
    let retry = FakeMessages::sequence(vec![Reply::grade(100, "now fine")]);
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let again = regrade_pending(&quiz, &answers, &outcomes, grader(&retry), 4, tx).await;
    assert_eq!(retry.posts().len(), 1);
    assert!(retry.posts()[0].body.contains("answer 3"));
    assert_eq!(server.posts().len(), before);
    assert!(matches!(again[2], Outcome::Scored { score: 100, .. }));
    assert_eq!(again[0], outcomes[0]);
}

#[tokio::test]
async fn closed_questions_are_graded_locally_and_blank_open_answers_score_zero() {
    let server = FakeMessages::sequence(vec![Reply::grade(75, "Meets the claims.")]);
    let quiz = parse_quiz(DEMO_QUIZ).unwrap();
    let mut answers = Answers::default();
    answers.values.insert("q2".into(), "false".into());
    answers
        .values
        .insert("q5".into(), "It forces the tool call.".into());
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let outcomes = grade_open(&quiz, &answers, grader(&server), 4, tx).await;
    assert_eq!(server.posts().len(), 1);
    let results = assemble(&quiz, &outcomes);
    let q5 = results.result("q5").unwrap();
    assert_eq!(
        (q5.score, q5.correct),
        (75, true),
        "correct is computed in code"
    );
    assert!(results.result("q2").unwrap().correct);
    assert!(results.pending.is_empty());

    answers.values.insert("q5".into(), "   ".into());
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let outcomes = grade_open(&quiz, &answers, grader(&server), 4, tx).await;
    assert_eq!(server.posts().len(), 1, "a blank answer is not sent");
    assert_eq!(assemble(&quiz, &outcomes).result("q5").unwrap().score, 0);
}

/// The TUI spawns grading on its runtime: the future must be `Send`.
#[test]
fn the_grading_future_is_send() {
    fn assert_send<T: Send>(_: &T) {}
    let server = FakeMessages::sequence(vec![Reply::grade(1, "x")]);
    let (quiz, answers) = six_open();
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let future = grade_open(&quiz, &answers, grader(&server), 4, tx);
    assert_send(&future);
}

/// The closing-note figure: 6 open answers, each reply 500 ms.
/// Run: `cargo test --test it grade_run:: -- --nocapture six_answers`
#[tokio::test]
async fn six_answers_at_500_ms_each_take_far_less_than_their_sum() {
    let server =
        FakeMessages::start(|_, _| Reply::grade(90, "ok").after(Duration::from_millis(500)));
    let (quiz, answers) = six_open();
    for concurrency in [1, 4, 6] {
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        let started = Instant::now();
        let outcomes = grade_open(&quiz, &answers, grader(&server), concurrency, tx).await;
        let wall = started.elapsed();
        assert!(outcomes.iter().all(|o| matches!(o, Outcome::Scored { .. })));
        println!(
            "grading 6 open answers, 500 ms per reply, concurrency {concurrency}: wall {:.2} s (sum of calls 3.00 s)",
            wall.as_secs_f64()
        );
        if concurrency == 4 {
            assert!(wall < Duration::from_millis(1500), "{wall:?}");
        }
    }
}
