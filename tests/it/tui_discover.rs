//! Finding your way with only what the footer and `?` say: the real binary in tmux.

use crate::tmux;

use std::time::{Duration, Instant};

use tmux::Tmux;

fn footer(screen: &str) -> &str {
    screen.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("")
}

/// Waits until the screen changes from `before`.
fn wait_change(t: &Tmux, before: &str) -> String {
    let start = Instant::now();
    loop {
        let now = t.screen();
        if now != before {
            return now;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the screen did not change:\n{before}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn help_and_quit_are_in_the_footer_of_every_screen_at_80x24() {
    let Some(t) = Tmux::new("footer") else { return };
    t.start(80, 24, "take --demo", "");
    let check = |screen: &str, what: &str| {
        let f = footer(screen);
        assert!(
            f.contains("? help") || f.contains("?/F1 help"),
            "{what}: {f:?}\n{screen}"
        );
        assert!(f.contains("q quit"), "{what}: {f:?}\n{screen}");
    };
    check(&t.wait_for("Press Enter to start"), "overview");
    t.keys(&["Enter"]);
    check(&t.wait_for("Question 1/6 · mcq"), "mcq");
    t.keys(&["n"]);
    let tf = t.wait_for("Question 2/6 · tf");
    check(&tf, "tf");
    assert!(footer(&tf).contains("t true"), "{tf}");
    assert!(!footer(&tf).contains("1-9"), "{tf}");
    t.keys(&["n", "n", "n"]);
    t.wait_for("Question 5/6 · open");
    t.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(300));
    let open = t.screen();
    check(&open, "open");
    assert!(!footer(&open).contains("1-9 pick"), "{open}");
    t.keys(&["n"]);
    check(&t.wait_for("Question 6/6 · mermaid"), "mermaid");
    t.keys(&["s"]);
    check(&t.wait_for("Review:"), "review");
    t.keys(&["Enter", "y"]);
    check(&t.wait_for("Total"), "results");
    t.keys(&["Enter"]);
    check(
        &t.wait_for("graded, read only"),
        "a question from the results",
    );
}

#[test]
fn plain_practice_says_right_or_wrong_after_each_answer() {
    let Some(t) = Tmux::new("plainpractice") else {
        return;
    };
    t.start(100, 60, "take --demo --plain --practice", "");
    t.wait_for("Question 1");
    t.keys(&["1", "Enter"]);
    // How sure? asked before the reveal; Enter skips.
    t.wait_for("Confidence (1-5, Enter to skip):");
    t.keys(&["4", "Enter"]);
    let screen = t.wait_for("Right.");
    assert!(screen.contains("Question 2"), "it carries on:\n{screen}");
    t.keys(&["t", "Enter"]);
    t.wait_for("Confidence (1-5, Enter to skip):");
    t.keys(&["Enter"]);
    t.wait_for("Not quite — the answer is");
}

#[test]
fn help_scrolls_to_the_results_keys_at_80x24() {
    let Some(t) = Tmux::new("helpscroll") else {
        return;
    };
    t.start(80, 24, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter", "?"]);
    let top = t.wait_for("Keys — Esc closes");
    assert!(top.contains("Questions (here)"), "{top}");
    assert!(!top.contains("post the results"), "{top}");
    t.keys(&["G"]);
    let bottom = wait_change(&t, &top);
    let mut seen = bottom.contains("post the results");
    // Page back up until the Results keys show (they sit in the middle).
    for _ in 0..10 {
        if seen {
            break;
        }
        t.keys(&["PPage"]);
        std::thread::sleep(Duration::from_millis(200));
        seen = t.screen().contains("post the results");
    }
    assert!(seen, "the Results keys (P) never showed:\n{}", t.screen());
    assert_eq!(
        t.screen().matches("Ctrl-C").count(),
        usize::from(t.screen().contains("Ctrl-C"))
    );
}

#[test]
fn n_on_the_last_question_opens_the_review_and_submit_asks_first() {
    let Some(t) = Tmux::new("lastq") else { return };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter", "G"]);
    t.wait_for("Question 6/6");
    t.keys(&["n"]);
    let review = t.wait_for("Review:");
    assert!(review.contains("That was the last question"), "{review}");
    assert!(review.contains("6 unanswered"), "{review}");
    t.keys(&["Enter"]);
    let ask = t.wait_for("Submit now?");
    assert!(ask.contains("6 unanswered"), "{ask}");
    t.keys(&["n"]);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!t.screen().contains("Total"), "n keeps the review");
    t.keys(&["Enter", "y"]);
    t.wait_for("Total 0%");
}

#[test]
fn results_show_the_question_and_the_right_diagram_and_a_rerun_says_graded() {
    let Some(t) = Tmux::new("results") else {
        return;
    };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    // q1 right (option 1 is not the answer? pick 2), q6 wrong: option A.
    t.keys(&["Enter", "G", "1", "s", "Enter", "y"]);
    let results = t.wait_for("Total");
    assert!(results.contains("Your answer"), "{results}");
    t.keys(&["G"]);
    std::thread::sleep(Duration::from_millis(300));
    let end = t.screen();
    // The right diagram is drawn at the end (lifelines and arrows).
    assert!(end.contains('│') && end.contains("──"), "{end}");
    let mut seen = false;
    for _ in 0..15 {
        if t.screen().contains("Correct      Option") {
            seen = true;
            break;
        }
        t.keys(&["PPage"]);
        std::thread::sleep(Duration::from_millis(150));
    }
    assert!(seen, "the right option is named:\n{}", t.screen());
    t.keys(&["q"]);
    t.wait_for("[quizz exited 0]");
    t.start(100, 30, "take --demo", "");
    let again = t.wait_for("Graded");
    assert!(again.contains("This attempt is graded"), "{again}");
    t.keys(&["r"]);
    t.wait_for("Total");
}

#[test]
fn below_the_minimum_size_keys_do_nothing_but_quit() {
    let Some(t) = Tmux::new("toosmall") else {
        return;
    };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.tmux(&["resize-window", "-t", "q", "-x", "20", "-y", "6"]);
    t.wait_for("Terminal too small");
    t.keys(&["Enter", "1", "n", "1"]);
    std::thread::sleep(Duration::from_millis(300));
    t.tmux(&["resize-window", "-t", "q", "-x", "100", "-y", "30"]);
    let back = t.wait_for("Press Enter to start");
    assert!(!back.contains("Resuming"), "nothing was answered:\n{back}");
    t.tmux(&["resize-window", "-t", "q", "-x", "20", "-y", "6"]);
    t.wait_for("Terminal too small");
    t.keys(&["q"]);
    t.wait_for("[quizz exited 0]");
}
