//! Comparing a diagram question's four options in a real 80x24 terminal (tmux).

use crate::tmux::Tmux;

/// `C` on the demo's diagram question shows only what differs; `C` again the drawings;
/// `v` says what it did.
#[test]
fn compare_the_demo_diagram_options_at_80x24() {
    let Some(t) = Tmux::new("compare") else {
        return;
    };
    t.start(80, 24, "take --demo", "");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter", "G"]);
    let question = t.wait_for("Question 6/6");
    assert!(question.contains("C compare"), "{question}");
    assert!(question.contains("v list/drawn"), "{question}");
    t.keys(&["C"]);
    let compared = t.wait_for("Only what differs");
    assert!(compared.contains("A, B, D  MCP handler"), "{compared}");
    assert!(compared.contains("C        missing"), "{compared}");
    assert!(
        compared.contains("Compared: only what differs between the options"),
        "{compared}"
    );
    t.keys(&["C"]);
    t.wait_for("The options again (press C to compare them).");
    t.keys(&["v"]);
    t.wait_for("Listed: one row per edge or message (press v to draw them).");
}
