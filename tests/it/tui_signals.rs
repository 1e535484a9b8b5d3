//! A signal from outside (`kill -INT`, `-QUIT`, `-TERM`, `-HUP`) closes the full-screen UI
//! as `q` does: the pane is back on the normal screen, with its cursor shown and mouse
//! reporting off, and the answers are saved; a `claude` grader still at work ends too.

use crate::grade_signals::{assert_all_ended, fake_claude};
use crate::tmux::Tmux;

use std::process::Command;

#[test]
fn a_signal_from_outside_gives_the_terminal_back() {
    let Some(t) = Tmux::new("signals") else {
        return;
    };
    for (signal, number) in [("INT", 2), ("QUIT", 3), ("TERM", 15), ("HUP", 1)] {
        t.start(100, 30, "take --demo", "");
        t.wait_for("Press Enter to start");
        // The UI holds the alternate screen, hides the cursor and reports the mouse.
        let flags = "#{alternate_on} #{cursor_flag} #{mouse_any_flag}";
        assert_eq!(t.tmux(&["display", "-p", "-t", "q", flags]).trim(), "1 0 1");
        let pid = t.quizz_pid();
        send(signal, &pid);
        let screen = t.wait_for("[quizz exited");
        assert!(
            screen.contains("Answers saved (0 of 6)"),
            "SIG{signal}:\n{screen}"
        );
        // Exit status 128 + the signal's number, as plain mode and a shell say (it was 0).
        let status = format!("[quizz exited {}]", 128 + number);
        assert!(screen.contains(&status), "SIG{signal}:\n{screen}");
        assert_eq!(
            t.tmux(&["display", "-p", "-t", "q", flags]).trim(),
            "0 1 0",
            "SIG{signal} left the terminal as the UI had it:\n{screen}"
        );
    }
}

#[test]
fn a_signal_while_the_ui_grades_ends_the_claude_grader_and_its_children() {
    let Some(t) = Tmux::new("signals-grading") else {
        return;
    };
    let fake = fake_claude();
    let env = format!("QUIZZ_GRADER=claude CLAUDE_BIN={}", fake.claude.display());
    t.start(100, 30, "take --demo", &env);
    t.wait_for("Press Enter to start");
    t.answer_the_demo_open_question_and_submit("It forces the only tool.");
    t.wait_for("Grading open answers");
    let pids = fake.wait_for_pids(2);
    let pid = t.quizz_pid();
    send("TERM", &pid);
    t.wait_for("[quizz exited");
    assert_all_ended(&pids, "after SIGTERM to the UI");
}

/// `kill -SIGNAL PID`, from outside as a user or a service manager sends it.
fn send(signal: &str, pid: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), pid])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{signal} {pid}");
}
