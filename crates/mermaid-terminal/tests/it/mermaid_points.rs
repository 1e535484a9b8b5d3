//! `[*]` and `<<choice>>` points as a quiz bot's state diagrams use them: a choice that
//! sends one edge back up and one on down, and is entered from above and from below.

use crate::mermaid_common::{at, text};
use mermaid_terminal::Form;

const REVIEW_LOOP: &str = "stateDiagram-v2
    [*] --> Drafting
    state verdict <<choice>>
    Drafting --> verdict: submit for review
    verdict --> Published: approved
    verdict --> Drafting: changes requested
    Published --> verdict: reopened by editor
";

/// Each edge leaves a choice by its own cell: two lines meeting beside the `◆` (`◆┤`)
/// read as one edge that splits, and which way each goes is lost.
#[test]
fn edges_leaving_a_choice_up_and_down_have_their_own_exits() {
    for width in [60, 75] {
        let r = at(REVIEW_LOOP, width);
        assert_eq!(r.form, Form::Drawing);
        let drawn = text(&r);
        let row = drawn
            .lines()
            .find(|l| l.contains('◆'))
            .expect("the choice's row");
        let mark = row.chars().position(|c| c == '◆').expect("mark");
        let cells: Vec<char> = row.chars().collect();
        for beside in [mark.checked_sub(1), Some(mark + 1)].into_iter().flatten() {
            let c = cells.get(beside).copied().unwrap_or(' ');
            assert!(
                !matches!(c, '┤' | '├' | '┼'),
                "at {width}, a line beside the ◆ runs both up and down:\n{drawn}"
            );
        }
    }
}
