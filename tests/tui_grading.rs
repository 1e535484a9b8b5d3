//! The TUI grades open answers through the selected backend, with progress on screen.
#![allow(clippy::unwrap_used)]

#[path = "grade_support/mod.rs"]
mod support;
#[path = "tmux_support/mod.rs"]
mod tmux;

use std::time::Duration;

use support::fake_messages::{FakeMessages, Reply};
use tmux::Tmux;

#[test]
fn open_answers_are_graded_with_progress_then_shown_with_feedback() {
    let Some(t) = Tmux::new("grading") else {
        return;
    };
    let server = FakeMessages::sequence(vec![
        Reply::grade(85, "Names the forcing mechanism.").after(Duration::from_millis(1500)),
    ]);
    let env = format!(
        "QUIZZ_GRADER=anthropic ANTHROPIC_API_KEY=sk-test ANTHROPIC_BASE_URL={}",
        server.url
    );
    t.start(100, 30, "take --demo", &env);
    let screen = t.wait_for("Press Enter to start");
    assert!(
        screen.contains("Anthropic Messages API"),
        "the overview names the grader:\n{screen}"
    );
    t.keys(&[
        "Enter",
        "n",
        "n",
        "n",
        "n",
        "-l",
        "It forces the only tool.",
        "Escape",
        "s",
        "Enter",
    ]);
    let screen = t.wait_for("Grading open answers");
    assert!(screen.contains("q5"), "{screen}");
    let screen = t.wait_for("Total");
    assert!(screen.contains("Names the forcing mechanism."), "{screen}");
    assert!(screen.contains("✓ right q5 · open"), "{screen}");
    let posts = server.posts();
    assert_eq!(posts.len(), 1);
    assert!(posts[0].body.contains("It forces the only tool."));
}
