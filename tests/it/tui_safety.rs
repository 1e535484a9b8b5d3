//! A keyboard session never loses a word: the real binary in tmux, driven as a person
//! would — `$EDITOR`, typing on an open question, clearing, pasting, a burst of input,
//! two windows, scrolling the results — and a closed pipe.

use crate::tmux;

use std::process::{Command, Stdio};

use serde_json::Value;
use tmux::Tmux;

fn q5(saved: &Value) -> &str {
    saved["answers"]["q5"].as_str().unwrap_or("")
}

/// Starts the demo and goes to the open question (q5), then Enter gives the answer box the
/// focus.
fn on_the_open_question(t: &Tmux, env: &str) {
    t.start(100, 30, "take --demo", env);
    t.wait_for("Press Enter to start");
    t.keys(&["Enter"]);
    t.wait_for("Question 1/6");
    t.keys(&["n", "n", "n", "n"]);
    t.wait_for("Question 5/6");
    t.keys(&["Enter"]);
    t.wait_for("Your answer — Esc done");
}

/// Issue 19, item 7: `n` and `p` went into the answer (`My careful answer.nn`), and `n`
/// through the empty open question saved `nn`.
#[test]
fn moving_through_an_open_question_never_types_into_it() {
    let Some(t) = Tmux::new("np") else { return };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter"]);
    t.wait_for("Question 1/6");
    t.keys(&["n", "n", "n", "n", "n"]);
    t.wait_for("Question 6/6");
    t.keys(&["p"]);
    t.wait_for("Question 5/6");
    t.type_text("My careful answer.");
    t.wait_saved("the typed answer", |s| q5(s) == "My careful answer.");
    t.keys(&["Tab"]);
    t.wait_for("Question 6/6");
    t.keys(&["p"]);
    t.wait_for("Question 5/6");
    t.keys(&["n", "n"]);
    t.wait_for("Review:");
    t.keys(&["q"]);
    t.wait_for("Quit now?");
    t.keys(&["y"]);
    t.wait_for("quizz exited");
    let saved = t.saved_demo_attempt();
    assert_eq!(q5(&saved), "My careful answer.", "{saved:#}");
}

#[test]
fn n_through_an_empty_open_question_leaves_it_unanswered() {
    let Some(t) = Tmux::new("nempty") else { return };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter"]);
    t.wait_for("Question 1/6");
    t.keys(&["1", "n", "n", "n", "n", "n"]);
    t.wait_for("Question 6/6");
    t.keys(&["2", "q"]);
    t.wait_for("Quit now?");
    t.keys(&["y"]);
    t.wait_for("quizz exited");
    let saved = t.saved_demo_attempt();
    assert!(saved["answers"].get("q6").is_some(), "{saved:#}");
    assert!(saved["answers"].get("q5").is_none(), "{saved:#}");
}

fn editing_files(t: &Tmux) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(t.data.join("quizz/editing"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect()
}

#[test]
fn the_editor_round_trip_keeps_the_text() {
    let Some(t) = Tmux::new("editor") else { return };
    let editor = t.data.join("append-a-line.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\nls -l \"$1\" > \"$(dirname \"$0\")/seen-by-editor\"\nprintf 'added by the editor\\n' >> \"$1\"\n",
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(&editor)
        .status()
        .unwrap();
    on_the_open_question(&t, &format!("EDITOR={}", editor.display()));
    t.type_text("typed in quizz");
    t.wait_saved("the typed text", |s| q5(s) == "typed in quizz");
    t.keys(&["C-e"]);
    let screen = t.wait_for("added by the editor");
    assert!(screen.contains("Answer saved from the editor."), "{screen}");
    assert!(
        screen.contains("Question 5/6"),
        "back on the same question:\n{screen}"
    );
    t.wait_saved("the edited text", |s| {
        q5(s) == "typed in quizz\nadded by the editor"
    });
    // The editor saw a private file (0600) in quizz's folder; it is gone once saved.
    let seen = std::fs::read_to_string(t.data.join("seen-by-editor")).unwrap();
    assert!(seen.starts_with("-rw-------"), "{seen}");
    assert!(seen.contains("quizz/editing/answer-q5-"), "{seen}");
    assert!(editing_files(&t).is_empty(), "{:?}", editing_files(&t));
    // Still running, and `e` outside the answer box works the same way.
    t.keys(&["Escape", "e"]);
    t.wait_saved("a second round trip", |s| {
        q5(s) == "typed in quizz\nadded by the editor\nadded by the editor"
    });
    assert!(!t.screen().contains("quizz exited"), "{}", t.screen());
}

#[test]
fn a_missing_editor_leaves_the_answer_and_says_why() {
    let Some(t) = Tmux::new("noeditor") else {
        return;
    };
    on_the_open_question(&t, "VISUAL=/nonexistent/editor");
    t.type_text("my words");
    t.wait_saved("the typed text", |s| q5(s) == "my words");
    t.keys(&["C-e"]);
    let screen = t.wait_for("not found (set VISUAL or EDITOR)");
    // Whole, in a box (wrapped), not cut at the footer's width.
    assert!(screen.contains("The editor failed"), "{screen}");
    assert!(screen.contains("unchanged"), "{screen}");
    assert!(screen.contains("my words"), "{screen}");
    t.keys(&["-l", " still here"]);
    t.wait_saved("typing after the failed editor", |s| {
        q5(s) == "my words still here"
    });
}

#[test]
fn typing_on_an_open_question_writes_and_fires_no_command() {
    let Some(t) = Tmux::new("typing") else { return };
    t.start(100, 30, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter"]);
    t.wait_for("Question 1/6");
    t.keys(&["n", "n", "n", "n"]);
    t.wait_for("Question 5/6");
    // On the empty answer a letter that is no command starts it (t: true/false elsewhere);
    // then every letter is text, though e x s q n p m g are commands outside the box.
    t.type_text("t");
    t.wait_for("Your answer — Esc done");
    t.type_text("exsqnpmg quit next");
    let saved = t.wait_saved("the typed words", |s| q5(s) == "texsqnpmg quit next");
    assert_eq!(saved["current"], 4, "still on q5");
    let screen = t.screen();
    assert!(screen.contains("Question 5/6"), "{screen}");
    assert!(!screen.contains("Quit?"), "{screen}");
}

#[test]
fn clearing_a_written_answer_asks_first() {
    let Some(t) = Tmux::new("clear") else { return };
    on_the_open_question(&t, "");
    t.type_text("a long and careful answer");
    t.wait_saved("the answer", |s| q5(s) == "a long and careful answer");
    t.keys(&["Escape", "x"]);
    let screen = t.wait_for("Clear the answer?");
    assert!(screen.contains("(25 characters)"), "{screen}");
    t.keys(&["n"]);
    t.keys(&["BSpace"]);
    t.wait_for("Clear the answer?");
    t.keys(&["Escape"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        q5(&t.saved_demo_attempt()),
        "a long and careful answer",
        "n and Esc keep it"
    );
    t.keys(&["Delete"]);
    t.wait_for("Clear the answer?");
    t.keys(&["y"]);
    t.wait_for("Answer cleared.");
    t.wait_saved("the cleared answer", |s| s["answers"].get("q5").is_none());
}

#[test]
fn a_multi_line_paste_keeps_its_line_breaks() {
    let Some(t) = Tmux::new("paste") else { return };
    on_the_open_question(&t, "");
    t.paste("first line\nsecond line\nthird line");
    let screen = t.wait_for("third line");
    assert!(screen.contains("│first line"), "{screen}");
    assert!(screen.contains("│second line"), "{screen}");
    t.wait_saved("three lines", |s| {
        q5(s) == "first line\nsecond line\nthird line"
    });
}

#[test]
fn two_thousand_characters_at_once_all_arrive() {
    let Some(t) = Tmux::new("burst") else { return };
    on_the_open_question(&t, "");
    let text: String = "abcdefghi ".repeat(200);
    t.type_text(&text);
    // Before the fix this stopped at 1,024 characters until the next key.
    t.wait_saved("2,000 characters on disk", |s| q5(s).len() == 2000);
    t.wait_for("abcdefghi abcdefghi");
}

#[test]
fn a_second_window_does_not_clobber_the_first() {
    let Some(t) = Tmux::new("twowin") else { return };
    t.start_in("q", 100, 30, "take --demo", "");
    t.wait_in("q", "Press Enter to start");
    t.start_in("b", 100, 30, "take --demo", "");
    let screen = t.wait_in("b", "Read-only");
    assert!(
        screen.contains("this quiz is open in another quizz (pid"),
        "{screen}"
    );
    // Window A answers q1; window B tries q2 and is told it only reads.
    t.keys_in("q", &["Enter", "1"]);
    t.wait_saved("q1 from window A", |s| s["answers"].get("q1").is_some());
    t.keys_in("b", &["Enter", "n", "t"]);
    t.wait_in("b", "Read-only: open in another quizz (pid");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let saved = t.saved_demo_attempt();
    assert!(saved["answers"].get("q2").is_none(), "{saved:#}");
    assert!(saved["answers"].get("q1").is_some(), "{saved:#}");
    // B takes over: it keeps A's answer and saves its own.
    t.keys_in("b", &["T"]);
    t.wait_in("b", "Taken over");
    t.keys_in("b", &["t"]);
    let saved = t.wait_saved("q2 from window B", |s| s["answers"]["q2"] == "true");
    assert!(saved["answers"].get("q1").is_some(), "{saved:#}");
    // A learns it on its next change and saves nothing over B's answers.
    t.keys_in("q", &["n", "n", "1"]);
    t.wait_in("q", "open in another quizz");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let saved = t.saved_demo_attempt();
    assert_eq!(saved["answers"]["q2"], "true", "{saved:#}");
    assert!(saved["answers"].get("q3").is_none(), "{saved:#}");
}

/// Issue 19, item 8: the window taken over learned it only on its next key and lost the
/// typing; after the owner quit, the other stayed read-only naming a dead pid.
#[test]
fn a_window_taken_over_says_so_without_a_key_and_keeps_the_typing() {
    let Some(t) = Tmux::new("takenover") else {
        return;
    };
    on_the_open_question(&t, "");
    t.type_text("first half");
    t.wait_saved("the first half", |s| q5(s) == "first half");
    t.start_in("b", 100, 30, "take --demo", "");
    t.wait_in("b", "Read-only");
    t.keys_in("b", &["T"]);
    t.wait_in("b", "Taken over");
    // Window A says so with no key pressed, and its answer box keeps its text.
    let screen = t.wait_in("q", "took this quiz over");
    assert!(screen.contains("first half"), "{screen}");
    t.keys_in("q", &["-l", " and the rest"]);
    let screen = t.wait_in("q", "first half and the rest");
    assert!(screen.contains("not saved"), "{screen}");
    assert!(
        screen.contains("Question 5/6"),
        "no letter ran as a command:\n{screen}"
    );
    assert_eq!(
        q5(&t.saved_demo_attempt()),
        "first half",
        "B's answer stays"
    );
    // B quits: A notices and offers to take over; T makes the draft the answer.
    t.keys_in("b", &["q"]);
    t.wait_in("b", "Quit now?");
    t.keys_in("b", &["y"]);
    t.wait_in("b", "quizz exited");
    t.wait_in("q", "has closed: Esc, then T takes over");
    t.keys_in("q", &["Escape", "T"]);
    t.wait_in("q", "Taken over");
    t.wait_saved("the draft, saved", |s| q5(s) == "first half and the rest");
}

#[test]
fn g_then_k_on_the_results_scrolls_at_once() {
    let Some(t) = Tmux::new("results-scroll") else {
        return;
    };
    t.start(80, 24, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter", "1", "s"]);
    t.wait_for("Review:");
    t.keys(&["Enter", "y"]);
    t.wait_for("Total");
    t.keys(&["G"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let bottom = t.screen();
    assert!(!bottom.contains("Total"), "G shows the end:\n{bottom}");
    t.keys(&["k"]);
    let start = std::time::Instant::now();
    while t.screen() == bottom {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "k after G did not scroll:\n{bottom}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [
        &["show", "--demo"][..],
        &["show", "--demo", "--json"][..],
        &["--help"][..],
    ] {
        for _ in 0..3 {
            let mut child = Command::new(env!("CARGO_BIN_EXE_quizz"))
                .args(args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            // The reader is gone before quizz writes, as `| head -1` often is.
            drop(child.stdout.take());
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
            assert!(stderr.is_empty(), "{args:?}: {stderr}");
        }
    }
}

/// A fresh-eyes review: a read-only window said so on a question's header, but its review
/// screen did not, once the one-off notice was gone.
#[test]
fn a_read_only_window_says_so_on_its_review_too() {
    let Some(t) = Tmux::new("readonly-review") else {
        return;
    };
    on_the_open_question(&t, "");
    t.start_in("b", 100, 30, "take --demo", "");
    t.wait_in("b", "Read-only");
    t.keys_in("b", &["Enter"]);
    t.wait_in("b", "read-only (T takes over)");
    t.keys_in("b", &["s"]);
    let screen = t.wait_in("b", "Review:");
    assert!(
        screen.contains("read-only (T takes over)"),
        "the review says whose the quiz is:\n{screen}"
    );
}
