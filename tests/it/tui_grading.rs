//! The TUI grades open answers through the selected backend, with progress on screen.

use crate::messages_fake as support;
use crate::tmux;

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
    t.answer_the_demo_open_question_and_submit("It forces the only tool.");
    let screen = t.wait_for("Grading open answers");
    assert!(screen.contains("q5"), "{screen}");
    t.wait_for("Total");
    // The cursor goes to q5; its block scrolls into view with the grader's feedback.
    t.keys(&["j", "j", "j", "j"]);
    let screen = t.wait_for("✓ right · q5 · open");
    let screen = if screen.contains("Names the forcing mechanism.") {
        screen
    } else {
        t.keys(&["PageDown"]);
        t.wait_for("Names the forcing mechanism.")
    };
    assert!(screen.contains("Feedback"), "{screen}");
    let posts = server.posts();
    assert_eq!(posts.len(), 1);
    assert!(posts[0].body.contains("It forces the only tool."));
}
