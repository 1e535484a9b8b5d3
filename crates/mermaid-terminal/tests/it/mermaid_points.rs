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

/// Region 2 starts at a state region 1 already claimed (a slip a bot makes), so its `[*]`
/// sits in a stacked region, kept below region 1 by edges that are never drawn.
const STACKED_REGIONS: &str = "stateDiagram-v2
    state \"Waiting for a build slot\" as Waiting
    state \"Running the pipeline\" as Running
    [*] --> Waiting
    Waiting --> Running: slot granted
    state Running {
        [*] --> Compiling
        Compiling --> Compiling: incremental rebuild
        Testing --> Flaky: 2 retries failed
        --
        [*] --> Testing
        Testing --> Uploading: all tests green
        Uploading --> [*]
    }
    Running --> Waiting: cancelled by user
    Running --> [*]: artifacts published
";

/// What ends the line running from column `from` of `row` (rightwards, or leftwards when
/// `left`): `None` when it only runs on into blank space (a stub that leads nowhere).
fn end_of_run(row: &[char], from: usize, left: bool) -> Option<char> {
    let cells: Vec<char> = if left {
        row[..from].iter().rev().copied().collect()
    } else {
        row[from + 1..].to_vec()
    };
    let ran = cells.iter().take_while(|&&c| c == '─').count();
    match cells.get(ran) {
        Some(' ') | None if ran > 0 => None,
        Some(&c) => Some(c),
        None => Some(' '),
    }
}

/// A `[*]` keeps no bar for the edges that are never drawn: `└─●──` with `──` leading
/// nowhere reads as an edge cut off.
#[test]
fn a_start_point_has_no_stub_that_leads_nowhere() {
    // (from 65: with the states3 rules merged it is listed at 60, as final n10 B is)
    for width in [65, 75, 76, 95] {
        let r = at(STACKED_REGIONS, width);
        assert_eq!(r.form, Form::Drawing);
        let drawn = text(&r);
        for line in drawn.lines() {
            let row: Vec<char> = line.chars().collect();
            for (col, _) in row.iter().enumerate().filter(|(_, c)| **c == '●') {
                for left in [true, false] {
                    assert!(
                        end_of_run(&row, col, left).is_some(),
                        "at {width}, a line from a ● leads nowhere:\n{drawn}"
                    );
                }
            }
        }
    }
}
