//! The real binary in a real terminal (tmux): keys in, screen out.

use crate::tmux;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use tmux::Tmux;

fn attempt_files(data: &Path) -> usize {
    walk(&data.join("quizz/attempts"))
}

fn walk(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .flatten()
            .map(|e| {
                if e.path().is_dir() {
                    walk(&e.path())
                } else {
                    1
                }
            })
            .sum()
    })
}

#[test]
fn take_the_demo_from_start_to_results() {
    let Some(t) = Tmux::new("full") else { return };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    // On the open question, Enter opens the answer box (a letter would start the answer).
    t.keys(&["Enter", "1", "n", "f", "n", "2", "n", "f", "n", "Enter"]);
    t.wait_for("Your answer — Esc done");
    // Letters are text in the editor: q and n do not quit or move.
    t.keys(&["-l", "quick note"]);
    t.wait_for("quick note");
    t.keys(&["Escape", "n", "1", "s"]);
    t.wait_for("Review: all 6 answered");
    t.keys(&["Enter"]);
    let screen = t.wait_for("Total 50%");
    assert!(screen.contains("✓ right · q1 · mcq"), "{screen}");
    t.keys(&["j", "j", "j", "j"]);
    t.wait_for("… pending · q5 · open");
    t.keys(&["q"]);
    let screen = t.wait_for("Results: 50%");
    assert!(screen.contains("6. ✗ wrong  q6"), "{screen}");
    assert!(screen.contains("[quizz exited 0]"), "{screen}");
    assert_eq!(attempt_files(&t.data), 1);
}

#[test]
fn quit_then_resume_on_the_same_question() {
    let Some(t) = Tmux::new("resume") else { return };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter", "2", "n", "t", "n", "q"]);
    t.wait_for("Quit now? Your answers are saved");
    t.keys(&["y"]);
    t.wait_for("Answers saved (2 of 6)");
    t.start(100, 30, "take --demo", "");
    t.wait_for("Resuming   2 of 6 answered, at question 3");
    // Started over with --new-attempt, the way to carry on is the command without it.
    t.keys(&["q"]);
    t.start(100, 30, "take --demo --new-attempt", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter", "2", "q"]);
    t.wait_for("Quit now? Your answers are saved");
    t.keys(&["y"]);
    t.wait_for("Answers saved (1 of 6). To carry on: `quizz take --demo`.");
    t.start(100, 30, "take --demo", "");
    t.wait_for("Resuming   1 of 6 answered, at question 1");
    t.keys(&["Enter"]);
    let screen = t.wait_for("Question 1/6");
    assert!(screen.contains("▸1●"), "{screen}");
}

#[test]
fn kill_9_while_typing_loses_nothing() {
    let Some(t) = Tmux::new("kill") else { return };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter", "1", "n", "n", "n", "n", "Enter"]);
    t.wait_for("Your answer — Esc done");
    t.keys(&["-l", "half typed"]);
    t.wait_for("half typed");
    let pid = t.quizz_pid();
    assert!(
        Command::new("kill")
            .args(["-9", &pid])
            .status()
            .unwrap()
            .success()
    );
    // Wait until it is gone (its screen is left as it was: nothing could restore it).
    let start = Instant::now();
    while Command::new("kill")
        .args(["-0", &pid])
        .status()
        .unwrap()
        .success()
    {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "quizz survived kill -9"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    t.start(100, 30, "take --demo", "");
    t.wait_for("Resuming   2 of 6 answered, at question 5");
    t.keys(&["Enter"]);
    let screen = t.wait_for("half typed");
    assert!(screen.contains("Question 5/6 · open"), "{screen}");
}

#[test]
fn resize_to_40x12_and_back() {
    let Some(t) = Tmux::new("resize") else { return };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter"]);
    t.wait_for("quizz · PR #7 · Question 1/6");
    t.tmux(&["resize-window", "-t", "q", "-x", "40", "-y", "12"]);
    let start = Instant::now();
    loop {
        let screen = t.screen();
        if !screen.contains("quizz · PR #7") && screen.contains("▸1·") {
            assert!(screen.lines().all(|l| l.chars().count() <= 40), "{screen}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no compact layout:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    t.tmux(&["resize-window", "-t", "q", "-x", "20", "-y", "6"]);
    t.wait_for("Terminal too small");
    t.tmux(&["resize-window", "-t", "q", "-x", "100", "-y", "30"]);
    t.wait_for("quizz · PR #7 · Question 1/6");
}

#[test]
fn help_overlay_from_the_keymap() {
    let Some(t) = Tmux::new("help") else { return };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter", "?"]);
    let screen = t.wait_for("Keys — Esc closes");
    assert!(screen.contains("pick option 1–9"), "{screen}");
    t.keys(&["Escape"]);
    let start = Instant::now();
    while t.screen().contains("Keys — Esc closes") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "help did not close"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    t.keys(&["F1"]);
    t.wait_for("Keys — Esc closes");
}

#[test]
fn no_color_means_no_colour_escapes() {
    let Some(t) = Tmux::new("nocolor") else {
        return;
    };
    t.start(100, 30, "take --demo", "NO_COLOR=1");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter", "1"]);
    t.wait_for("(•) 1.");
    let styled = t.tmux(&["capture-pane", "-p", "-e", "-t", "q"]);
    // SGR colour parameters: 30–37, 38;…, 40–47, 48;…, 90–97, 100–107.
    for seq in styled.split("\u{1b}[").skip(1) {
        let params = seq.split('m').next().unwrap_or("");
        for p in params.split(';') {
            let n: u32 = p.parse().unwrap_or(0);
            assert!(
                !matches!(n, 30..=38 | 40..=48 | 90..=97 | 100..=107),
                "colour SGR {params:?} under NO_COLOR"
            );
        }
    }
    assert!(
        styled.contains("\u{1b}[7m"),
        "reverse video marks the cursor"
    );
}

/// `c` opens the code panel under the question at 100x30 and beside it at 160x50; it stays
/// open on the next question, `J` scrolls it, `c` closes it; F2 works while writing.
#[test]
fn the_code_panel_in_a_real_terminal() {
    let Some(t) = Tmux::new("codepanel") else {
        return;
    };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter"]);
    t.wait_for("c code");
    t.keys(&["c"]);
    let under = t.wait_for("demo sample");
    let title = under
        .lines()
        .position(|l| l.contains("src/cognit/llm_claude_agent.py:95-103 · demo sample"))
        .unwrap_or_else(|| panic!("{under}"));
    let option = under.lines().position(|l| l.contains("( ) 1.")).unwrap();
    assert!(option < title, "under the question:\n{under}");
    assert!(under.contains("▌ 95     def _drain_agent("), "{under}");
    t.keys(&["n"]);
    let next = t.wait_for("llm_claude_agent.py:90-93");
    assert!(next.contains("▌90         if not captured:"), "{next}");
    t.tmux(&["resize-window", "-t", "q", "-x", "160", "-y", "50"]);
    let beside = |screen: &str| {
        screen
            .lines()
            .any(|l| l.contains("( ) t  true") && l.contains("│▌90"))
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut wide = t.screen();
    while !beside(&wide) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        wide = t.screen();
    }
    assert!(beside(&wide), "beside the question at 160x50:\n{wide}");
    // The open question: F2 from the answer box, which keeps its text.
    t.keys(&["n", "n", "n", "Enter"]);
    t.wait_for("Your answer — Esc done");
    t.keys(&["-l", "forced"]);
    t.wait_for("forced");
    t.keys(&["F2"]);
    let closed = wait_gone(&t, "demo sample");
    assert!(closed.contains("forced"), "{closed}");
}

fn wait_gone(t: &Tmux, text: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let screen = t.screen();
        if !screen.contains(text) || Instant::now() > deadline {
            assert!(!screen.contains(text), "still there: {text}\n{screen}");
            return screen;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
