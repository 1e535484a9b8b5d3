use std::time::{Duration, Instant};

use super::state::{Action, Effect, Phase, State, update};
use super::{GenerationOutcome, GenerationScreen};
use crate::generate::{GenerateError, Stage};
use crate::llm::Usage;
use crate::quiz::parse_quiz;
use crate::source::DEMO_QUIZ;
use crate::tui::theme::Theme;

fn screen(offer: Option<&str>) -> GenerationScreen {
    GenerationScreen {
        title: "the local change in app".into(),
        reading: vec![
            "reading the diff: 3 files, 6 lines changed; 2 left out: Cargo.lock (a lockfile), logo.png (binary)".into(),
            "1 file is uncommitted: left out of the quiz (add --include-uncommitted to quiz them too)".into(),
        ],
        backend: "Anthropic Messages API".into(),
        model: "claude-test".into(),
        offer: offer.map(str::to_string),
        theme: Theme { no_color: true },
    }
}

/// A started screen at `t0`, 80x24.
fn started(t0: Instant) -> State {
    let mut state = State::new(screen(None), (80, 24), t0);
    assert_eq!(update(&mut state, Action::Start), Effect::StartJob);
    state
}

fn asking(round: u32) -> Stage {
    Stage::Asking {
        backend: "Anthropic Messages API",
        model: "claude-test".into(),
        round,
    }
}

fn at(state: &mut State, t0: Instant, secs: u64) {
    update(state, Action::Tick(t0 + Duration::from_secs(secs)));
}

fn text(state: &State) -> String {
    let (w, h) = state.size;
    crate::tui::tests::drawn(w, h, |f| super::draw(f, state))
}

#[test]
fn the_stages_show_as_they_come_with_the_time_they_take() {
    let t0 = Instant::now();
    let mut state = started(t0);
    let shown = text(&state);
    assert!(shown.contains("quizz · writing a quiz"), "{shown}");
    assert!(
        shown.contains("A quiz for the local change in app"),
        "{shown}"
    );
    assert!(shown.contains("reading the diff: 3 files"), "{shown}");
    assert!(shown.contains("starting…"), "{shown}");
    assert!(shown.contains("Esc/q/Ctrl-C cancel"), "{shown}");

    update(&mut state, Action::Stage(asking(0)));
    at(&mut state, t0, 65);
    let shown = text(&state);
    assert!(shown.contains("1:05"), "the elapsed time: {shown}");
    assert!(
        shown.contains(
            "asking the model (Anthropic Messages API, claude-test) — this takes a minute"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("\n   or two · 65s\n"),
        "wrapped, with the stage's time: {shown}"
    );
    assert!(!shown.contains("starting…"), "{shown}");

    update(
        &mut state,
        Action::Stage(Stage::Checking {
            round: 0,
            usage: Usage {
                input_tokens: Some(12_345),
                output_tokens: Some(3_210),
                turns: Some(7),
                cost_usd: Some(0.12),
            },
        }),
    );
    let long = format!(
        "question q3: {}",
        "the rubric names a point twice ".repeat(8)
    );
    update(
        &mut state,
        Action::Stage(Stage::Repairing {
            checks: vec![
                "question q1: the answer \"x\" is not one of the options".into(),
                long,
            ],
        }),
    );
    update(&mut state, Action::Stage(asking(1)));
    at(&mut state, t0, 70);
    let shown = text(&state);
    for line in [
        "✓ asking the model (Anthropic Messages API, claude-test) · 65s\n",
        "✓ checking the quiz (the model answered: 12,345 tokens in, 3,210 out · 7 turns\n   · $0.12)",
        "✗ repairing: 2 checks failed:",
        "  - question q1: the answer \"x\" is not one of the options",
        "asking again (repair 1) · 5s",
    ] {
        assert!(shown.contains(line), "{line:?} in:\n{shown}");
    }
    // The long check takes two rows, the second cut.
    let rows: Vec<&str> = shown.lines().collect();
    let first = rows
        .iter()
        .position(|r| r.contains("- question q3"))
        .unwrap();
    assert!(rows[first + 1].starts_with("     the rubric"), "{shown}");
    assert!(rows[first + 1].ends_with('…'), "{shown}");
    assert!(rows[first + 2].contains("asking again"), "{shown}");
}

#[test]
fn what_the_model_and_the_checks_say_is_drawn_without_control_sequences() {
    let t0 = Instant::now();
    let mut state = started(t0);
    state.screen.title = "octo/app#7 · \u{1b}]0;owned\u{7}Fix".into();
    update(
        &mut state,
        Action::Stage(Stage::Asking {
            backend: "Anthropic Messages API",
            model: "evil\u{1b}[2Jmodel".into(),
            round: 0,
        }),
    );
    update(
        &mut state,
        Action::Stage(Stage::Repairing {
            checks: vec!["question q1: \u{1b}[31mred\u{1b}[0m\nnext".into()],
        }),
    );
    let shown = text(&state);
    assert!(!shown.contains('\u{1b}'), "{shown:?}");
    assert!(shown.contains("evilmodel"), "{shown}");
    assert!(shown.contains("question q1: red next"), "{shown}");
    assert!(shown.contains("octo/app#7 · Fix"), "{shown}");
}

#[test]
fn esc_cancels_and_waits_for_the_job_whatever_it_answers() {
    let t0 = Instant::now();
    let mut state = started(t0);
    update(&mut state, Action::Stage(asking(0)));
    assert_eq!(update(&mut state, Action::Leave), Effect::Cancel);
    assert_eq!(state.phase, Phase::Cancelling);
    assert!(state.outcome.is_none(), "the job has not returned yet");
    let shown = text(&state);
    assert!(
        shown.contains("cancelling: stopping the model's request"),
        "{shown}"
    );
    assert!(shown.contains(" cancelling…"), "the footer: {shown}");
    assert_eq!(update(&mut state, Action::Leave), Effect::None, "once");
    let quiz = parse_quiz(DEMO_QUIZ).unwrap();
    update(&mut state, Action::Done(Ok(quiz)));
    assert!(matches!(state.outcome, Some(GenerationOutcome::Cancelled)));
}

#[test]
fn the_job_s_answer_ends_the_screen() {
    let outcome = |answer: anyhow::Result<crate::quiz::Quiz>| {
        let mut state = started(Instant::now());
        update(&mut state, Action::Done(answer));
        state.outcome.unwrap()
    };
    let quiz = parse_quiz(DEMO_QUIZ).unwrap();
    assert!(matches!(outcome(Ok(quiz)), GenerationOutcome::Written(_)));
    assert!(matches!(
        outcome(Err(GenerateError::Cancelled.into())),
        GenerationOutcome::Cancelled
    ));
    let GenerationOutcome::Failed(e) = outcome(Err(GenerateError::NoBackend.into())) else {
        panic!("a failure");
    };
    assert!(e.to_string().contains("no model to write the quiz"), "{e}");
}

#[test]
fn a_signal_cancels_and_nothing_more_is_drawn() {
    let mut state = started(Instant::now());
    assert_eq!(update(&mut state, Action::Signal), Effect::Cancel);
    assert!(state.quiet);
    assert_eq!(state.phase, Phase::Cancelling);
}

#[test]
fn an_offer_asks_first_y_starts_and_esc_leaves() {
    let t0 = Instant::now();
    let why = "no quiz on octo/app#7 (no bot has posted one)";
    let mut state = State::new(screen(Some(why)), (80, 24), t0);
    assert_eq!(state.phase, Phase::Offered);
    let shown = text(&state);
    assert!(shown.contains(why), "{shown}");
    assert!(
        shown.contains("y (or Enter) writes a quiz with Anthropic Messages API (claude-test)"),
        "{shown}"
    );
    assert!(shown.contains("nothing is posted"), "{shown}");
    assert!(shown.contains(" y write the quiz   q/Esc leave"), "{shown}");
    assert!(!shown.contains("0:00"), "no time before it starts: {shown}");
    assert_eq!(update(&mut state, Action::Start), Effect::StartJob);
    assert_eq!(state.phase, Phase::Running);
    assert_eq!(update(&mut state, Action::Start), Effect::None, "once");

    let mut state = State::new(screen(Some(why)), (80, 24), t0);
    assert_eq!(update(&mut state, Action::Leave), Effect::None);
    assert!(matches!(state.outcome, Some(GenerationOutcome::Declined)));
}

#[test]
fn many_repairs_keep_the_latest_stage_in_view() {
    let t0 = Instant::now();
    let mut state = started(t0);
    for round in 0..6 {
        update(&mut state, Action::Stage(asking(round)));
        update(
            &mut state,
            Action::Stage(Stage::Repairing {
                checks: vec!["question q1: one".into(), "question q2: two".into()],
            }),
        );
    }
    update(&mut state, Action::Stage(asking(6)));
    let shown = text(&state);
    assert!(shown.contains("asking again (repair 6)"), "{shown}");
    assert!(shown.contains("lines above"), "{shown}");
    assert!(
        shown.contains("A quiz for the local change in app"),
        "{shown}"
    );
    assert!(
        shown.contains("Esc/q/Ctrl-C cancel"),
        "the footer stays: {shown}"
    );
}

#[test]
fn every_size_draws_and_a_tiny_one_says_it_is_too_small() {
    let t0 = Instant::now();
    let mut state = started(t0);
    update(&mut state, Action::Stage(asking(0)));
    for (w, h) in [(100, 30), (160, 50), (30, 8), (30, 12)] {
        update(&mut state, Action::Resize(w, h));
        let shown = text(&state);
        assert!(shown.contains("asking the model"), "{w}x{h}:\n{shown}");
        assert!(shown.contains("cancel"), "{w}x{h}:\n{shown}");
    }
    update(&mut state, Action::Resize(29, 8));
    assert!(!state.fits());
    let shown = text(&state);
    assert!(shown.contains("Terminal too small"), "{shown}");
    assert!(shown.contains("Esc cancels"), "{shown}");
}

#[test]
fn a_streamed_reply_shows_its_tokens_on_the_running_line_and_each_read_and_question_below() {
    let t0 = Instant::now();
    let mut state = started(t0);
    update(&mut state, Action::Stage(asking(0)));
    for n in [120, 1_234] {
        update(
            &mut state,
            Action::Stage(Stage::Writing {
                round: 0,
                output_tokens: n,
                activity: None,
            }),
        );
    }
    assert_eq!(state.stages.len(), 1, "tokens are no line of their own");
    update(
        &mut state,
        Action::Stage(Stage::Writing {
            round: 0,
            output_tokens: 1_300,
            activity: Some(crate::llm::ToolUse {
                tool: "Read".into(),
                target: "src/retry.rs".into(),
            }),
        }),
    );
    update(
        &mut state,
        Action::Stage(Stage::QuestionDrafted {
            round: 0,
            index: 0,
            draft: serde_json::Value::Null,
        }),
    );
    update(
        &mut state,
        Action::Stage(Stage::Writing {
            round: 0,
            output_tokens: 2_000,
            activity: None,
        }),
    );
    let shown = text(&state);
    assert!(shown.contains("reading src/retry.rs"), "{shown}");
    assert!(shown.contains("question 1 written"), "{shown}");
    assert!(shown.contains("2,000 tokens so far"), "{shown}");
    assert!(
        !shown.contains("1,234 tokens"),
        "the latest count only: {shown}"
    );
}
