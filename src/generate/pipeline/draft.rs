//! One drafter: the question of one slot, in that type's schema with no id (quizz names it
//! by its slot), held on its own to every check a quiz's question is held to. What passes
//! is shuffled at once, so it can be taken while the others are written.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::plan::Slot;
use crate::generate::checks::check_question;
use crate::generate::input::Input;
use crate::generate::prompt::{Context, change_message, one_line};
use crate::generate::schema::parse_draft;
use crate::generate::shuffle::{seed_from, shuffle_question};
use crate::generate::translate::to_quiz;
use crate::quiz::{Question, validate};

/// The tool a drafter is forced to call; its input is one question.
pub const DRAFT_TOOL: &str = "submit_question";

/// How much of the plan a drafter is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Planned {
    /// The plan is complete and passed its checks.
    Whole,
    /// The planner is still writing: the slots so far, each of which passed its checks.
    SoFar,
}

/// Slot `index`'s id: `q1` for the first.
pub fn slot_id(index: usize) -> String {
    format!("q{}", index + 1)
}

/// The drafter's message: the change as the planner saw it, the plan (so that it does not
/// overlap the others: the whole plan, or when `planned` is `SoFar` the slots written
/// before its drafter started), then its own slot, last.
pub fn draft_message(
    input: &Input,
    context: &Context,
    slots: &[Slot],
    planned: Planned,
    index: usize,
) -> String {
    let mut m = change_message(
        input,
        context,
        "Write one question of a quiz for the author of this change.",
        false,
    );
    m.push_str(match planned {
        Planned::Whole => {
            "\nThe quiz's plan (each question is written by someone else at the same time):\n"
        }
        Planned::SoFar => {
            "\nThe quiz's plan so far (the rest is still being planned; each question is written by someone else at the same time):\n"
        }
    });
    for (i, slot) in slots.iter().enumerate() {
        let _ = writeln!(m, "{}. {}", slot_id(i), slot.line());
    }
    let slot = &slots[index];
    let of = match planned {
        Planned::Whole => format!("of {}", slots.len()),
        Planned::SoFar => "of the plan so far".to_string(),
    };
    let _ = write!(
        m,
        "\nWrite question {} (slot {} {of}): a {} question.\nFocus: {}\nMisconception it tests: {}\n",
        slot_id(index),
        index + 1,
        slot.kind.as_str(),
        one_line(&slot.focus),
        one_line(&slot.misconception),
    );
    if !slot.diagram.trim().is_empty() {
        let _ = writeln!(m, "The right diagram shows: {}", one_line(&slot.diagram));
    }
    if let Some(a) = &slot.anchor {
        let _ = writeln!(
            m,
            "Anchor: {} lines {}-{}",
            one_line(&a.path),
            a.start_line,
            a.end_line
        );
    }
    let _ = writeln!(m, "\nSubmit it with the {DRAFT_TOOL} tool.");
    m
}

/// The drafter's answer as slot `index`'s question, shuffled, or every check it fails.
pub fn accept_question(
    value: &Value,
    slot: &Slot,
    index: usize,
    input: &Input,
    pr_number: u64,
) -> Result<Question, Vec<String>> {
    let id = slot_id(index);
    let Some(object) = value.as_object() else {
        return Err(vec![format!(
            "question {id}: the answer is not an object: submit one {} question",
            slot.kind.as_str()
        )]);
    };
    let kind = slot.kind.as_str();
    if let Some(other) = object.get("type").and_then(Value::as_str)
        && other != kind
    {
        return Err(vec![format!(
            "question {id}: it is of type {other:?}: its slot asks for a {kind} question"
        )]);
    }
    let mut object = object.clone();
    object.insert("id".into(), json!(id));
    object.entry("type").or_insert_with(|| json!(kind));
    let strings = |f: Vec<crate::generate::Finding>| f.iter().map(ToString::to_string).collect();
    let draft = parse_draft(&json!({ "questions": [object] })).map_err(strings)?;
    let quiz = to_quiz(&draft, pr_number).map_err(strings)?;
    let findings = quiz
        .questions
        .iter()
        .flat_map(|q| check_question(q, input))
        .collect::<Vec<_>>();
    if !findings.is_empty() {
        return Err(strings(findings));
    }
    validate(&quiz).map_err(|e| vec![format!("question {id}: {e}")])?;
    let mut question = quiz
        .questions
        .into_iter()
        .next()
        .ok_or_else(|| vec![format!("question {id}: no question was read")])?;
    shuffle_question(&mut question, question_seed(&input.digest, index));
    Ok(question)
}

/// Each slot's shuffle seed: the change's, moved by the slot's position (the same change
/// and answers, the same quiz).
fn question_seed(digest: &str, index: usize) -> u64 {
    seed_from(digest).wrapping_add(u64::try_from(index).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::accept::tests::input;
    use crate::generate::schema::QuestionType;
    use crate::quiz::QuestionKind;

    fn slot(kind: QuestionType) -> Slot {
        Slot {
            kind,
            focus: "when send gives up".into(),
            misconception: "that it retries forever".into(),
            diagram: String::new(),
            anchor: None,
        }
    }

    fn mcq(answer: &str) -> Value {
        json!({"type": "mcq", "prompt": "When does `send` give up?",
               "options": ["after one retry", "never, it loops", "at once on any error"],
               "answer": answer, "explanation": "retry() tries once more, then returns the error.",
               "anchor": {"path": "src/retry.rs", "start_line": 2, "end_line": 3}})
    }

    #[test]
    fn a_drafted_question_gets_its_slots_id_and_is_shuffled() {
        let q = accept_question(
            &mcq("after one retry"),
            &slot(QuestionType::Mcq),
            2,
            &input(),
            4,
        )
        .unwrap();
        assert_eq!(q.id, "q3");
        let QuestionKind::Mcq { options, answer } = &q.kind else {
            panic!("{q:?}")
        };
        assert_eq!(answer, "after one retry");
        assert_eq!(options.len(), 3);
        let again = accept_question(
            &mcq("after one retry"),
            &slot(QuestionType::Mcq),
            2,
            &input(),
            4,
        )
        .unwrap();
        assert_eq!(q, again, "the same answer shuffles the same way");
    }

    #[test]
    fn a_drafted_question_is_held_to_every_check_of_one_question() {
        let mut bad = mcq("after two retries");
        bad["anchor"]["end_line"] = json!(9);
        let got = accept_question(&bad, &slot(QuestionType::Mcq), 0, &input(), 4).unwrap_err();
        assert_eq!(
            got,
            [
                "question q1: the answer \"after two retries\" is not one of the options: it must be one option's exact text",
                "question q1: anchor src/retry.rs: lines 2-9 run past its last line (4)",
            ]
        );
        let wrong_type = accept_question(
            &mcq("after one retry"),
            &slot(QuestionType::Tf),
            1,
            &input(),
            4,
        )
        .unwrap_err();
        assert_eq!(
            wrong_type,
            ["question q2: it is of type \"mcq\": its slot asks for a tf question"]
        );
    }

    #[test]
    fn the_drafters_message_names_its_slot_after_the_change() {
        let mut second = slot(QuestionType::Mermaid);
        second.focus = "the order of send and retry".into();
        second.diagram = "call order".into();
        let slots = [slot(QuestionType::Mcq), second];
        let m = draft_message(&input(), &Context::default(), &slots, Planned::Whole, 1);
        assert!(m.contains("+    retry()"), "{m}");
        assert!(
            m.contains("q1. mcq · when send gives up\nq2. mermaid · the order of send and retry"),
            "{m}"
        );
        assert!(
            m.contains("Write question q2 (slot 2 of 2): a mermaid question."),
            "{m}"
        );
        assert!(m.contains("The right diagram shows: call order"), "{m}");
        let early = draft_message(
            &input(),
            &Context::default(),
            &slots[..1],
            Planned::SoFar,
            0,
        );
        assert!(
            early.contains("The quiz's plan so far (the rest is still being planned;"),
            "{early}"
        );
        assert!(
            early.contains("Write question q1 (slot 1 of the plan so far): a mcq question."),
            "{early}"
        );
        assert!(!m.contains("Size the quiz"), "{m}");
        assert!(
            m.ends_with("Submit it with the submit_question tool.\n"),
            "{m}"
        );
    }
}
