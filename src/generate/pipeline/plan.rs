//! The planner's answer: the quiz's slots (a type, a focus, the misconception it tests, a
//! diagram's subject, an anchor), each written by a drafter of its own. The plan is held to
//! the quiz's rules before any drafter starts: a count, at most one tf, a diagram only for
//! what a diagram can show, open questions last, anchors inside the change.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::generate::checks::{MAX_QUESTIONS, MIN_QUESTIONS, check_anchor};
use crate::generate::input::Input;
use crate::generate::prompt::one_line;
use crate::generate::schema::{DraftAnchor, QuestionType, anchor};
use crate::quiz::Anchor;

/// The tool the planner is forced to call; its input is [`Plan`].
pub const PLAN_TOOL: &str = "plan_quiz";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub slots: Vec<Slot>,
}

/// One question to be written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    #[serde(rename = "type")]
    pub kind: QuestionType,
    /// What the question makes the author trace, in a line.
    pub focus: String,
    /// The wrong belief a reader of the change could hold, which the question tests.
    pub misconception: String,
    /// For a diagram question: what its right diagram shows; empty otherwise.
    pub diagram: String,
    pub anchor: Option<DraftAnchor>,
}

impl Slot {
    /// `mcq · retry count when the first send fails`: the slot on one line.
    pub fn line(&self) -> String {
        format!("{} · {}", self.kind.as_str(), one_line(&self.focus))
    }
}

/// The JSON Schema of the `plan_quiz` input.
pub fn plan_schema() -> Value {
    let text = |description: &str| json!({ "type": "string", "description": description });
    let kinds: Vec<&str> = QuestionType::ALL.iter().map(|k| k.as_str()).collect();
    json!({
        "type": "object",
        "properties": {
            "slots": {
                "type": "array",
                "description": "The questions in the order the author takes them.",
                "items": {
                    "type": "object",
                    "properties": {
                        "type": { "type": "string", "enum": kinds },
                        "focus": text("What the question makes the author trace, in one line."),
                        "misconception": text("The wrong belief a reader of this change could hold, which the question tests."),
                        "diagram": text("mermaid only: the control flow, call order or data hand-off the right diagram draws; empty for other types."),
                        "anchor": anchor()
                    },
                    "required": ["type", "focus", "misconception", "diagram", "anchor"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["slots"],
        "additionalProperties": false
    })
}

/// The plan in the model's answer, or every reason it cannot be drafted from (the words a
/// repair round sends back). `asked`: the number of questions the user asked for.
pub fn accept_plan(
    value: &Value,
    input: &Input,
    asked: Option<usize>,
) -> Result<Plan, Vec<String>> {
    let plan: Plan = serde_json::from_value(value.clone()).map_err(|e| {
        vec![format!(
            "the plan is not in the schema ({e}): submit {{\"slots\": [...]}}, each slot with type, focus, misconception, diagram and anchor"
        )]
    })?;
    let findings = check_plan(&plan, input, asked);
    if findings.is_empty() {
        Ok(plan)
    } else {
        Err(findings)
    }
}

/// [`accept_plan`] around the slots `kept` (the first ones, whose drafters started while
/// the plan was written): the plan is theirs followed by the answer's slots after them,
/// and its checks ask to change only those.
pub fn accept_plan_after(
    value: &Value,
    kept: &[Slot],
    input: &Input,
    asked: Option<usize>,
) -> Result<Plan, Vec<String>> {
    if kept.is_empty() {
        return accept_plan(value, input, asked);
    }
    // Only the shape of the answer matters here: it is checked below with the kept slots.
    let Ok(answered) = serde_json::from_value::<Plan>(value.clone()) else {
        return accept_plan(value, input, asked);
    };
    let mut slots = kept.to_vec();
    slots.extend(answered.slots.into_iter().skip(kept.len()));
    let plan = Plan { slots };
    let mut findings = check_plan(&plan, input, asked);
    if findings.is_empty() {
        return Ok(plan);
    }
    let which = match kept.len() {
        1 => "slot 1 is already being written and is kept as it is: change only the slots after it"
            .to_string(),
        n => format!(
            "slots 1-{n} are already being written and are kept as they are: change only the slots after them"
        ),
    };
    findings.insert(0, which);
    Err(findings)
}

/// The rules the first slots of a plan, written so far, can be held to on their own: any
/// plan that starts with them breaks these too. A slot that passes can be drafted at once.
pub fn check_plan_so_far(slots: &[Slot], input: &Input, asked: Option<usize>) -> Vec<String> {
    let most = asked.unwrap_or(MAX_QUESTIONS);
    let mut findings = Vec::new();
    if slots.len() > most {
        findings.push(format!(
            "the plan has more than {}",
            crate::text::plural(most, "slot", "slots")
        ));
    }
    findings.extend(check_slots(slots, input));
    findings
}

/// The quiz's rules a plan can already be held to.
pub fn check_plan(plan: &Plan, input: &Input, asked: Option<usize>) -> Vec<String> {
    let mut findings = Vec::new();
    let n = plan.slots.len();
    match asked {
        Some(want) if n != want => findings.push(format!(
            "the plan has {}: plan exactly {want}, as the author asked",
            crate::text::plural(n, "slot", "slots")
        )),
        None if !(MIN_QUESTIONS..=MAX_QUESTIONS).contains(&n) => findings.push(format!(
            "the plan has {}: plan {MIN_QUESTIONS} to {MAX_QUESTIONS}, by the size of the change",
            crate::text::plural(n, "slot", "slots")
        )),
        _ => {}
    }
    findings.extend(check_slots(&plan.slots, input));
    findings
}

/// The rules of the slots themselves, whatever their number.
fn check_slots(slots: &[Slot], input: &Input) -> Vec<String> {
    let mut findings = Vec::new();
    let tfs = slots.iter().filter(|s| s.kind == QuestionType::Tf).count();
    if tfs > 1 {
        findings.push(format!(
            "the plan has {tfs} tf slots: at most one tf in a quiz; make the others mcq"
        ));
    }
    for (i, slot) in slots.iter().enumerate() {
        let at = format!("slot {}", i + 1);
        if slot.focus.trim().is_empty() {
            findings.push(format!(
                "{at}: the focus is empty: say what the question makes the author trace"
            ));
        }
        if slot.misconception.trim().is_empty() {
            findings.push(format!(
                "{at}: the misconception is empty: say which wrong belief the question tests"
            ));
        }
        if slot.kind == QuestionType::Mermaid && slot.diagram.trim().is_empty() {
            findings.push(format!(
                "{at}: a mermaid slot needs a subject a diagram can show: say in `diagram` which control flow, call order or data hand-off the right diagram draws, or make it another type"
            ));
        }
        if let Some(a) = &slot.anchor {
            findings.extend(slot_anchor(&at, a, input));
        }
    }
    if let Some(first_open) = slots.iter().position(|s| s.kind == QuestionType::Open)
        && let Some(closed) = slots[first_open..]
            .iter()
            .position(|s| s.kind != QuestionType::Open)
    {
        findings.push(format!(
            "slot {} is open but slot {} after it is {}: order the slots as a progression, open \"why\" questions last",
            first_open + 1,
            first_open + closed + 1,
            slots[first_open + closed].kind.as_str()
        ));
    }
    findings
}

fn slot_anchor(at: &str, a: &DraftAnchor, input: &Input) -> Option<String> {
    let line = |n: i64| u64::try_from(n).ok().filter(|&n| n >= 1);
    let (Some(start), Some(end)) = (line(a.start_line), line(a.end_line)) else {
        return Some(format!(
            "{at}: anchor lines {}-{}: lines count from 1 (new-side line numbers)",
            a.start_line, a.end_line
        ));
    };
    let anchor = Anchor {
        path: a.path.clone(),
        start_line: Some(start),
        end_line: Some(end),
        extra: serde_json::Map::new(),
    };
    check_anchor(at, &anchor, input).map(|f| format!("{at}: {}", f.message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::accept::tests::input;

    fn slot(kind: &str) -> Value {
        json!({"type": kind, "focus": "what send returns on a second failure",
               "misconception": "that it retries forever", "diagram": "", "anchor": null})
    }

    fn findings(slots: &[Value], asked: Option<usize>) -> Vec<String> {
        accept_plan(&json!({ "slots": slots }), &input(), asked)
            .err()
            .unwrap_or_default()
    }

    #[test]
    fn a_sound_plan_passes_and_reads_as_lines() {
        let mut mermaid = slot("mermaid");
        mermaid["diagram"] = json!("the call order of send and retry");
        mermaid["anchor"] = json!({"path": "src/retry.rs", "start_line": 2, "end_line": 3});
        let plan = accept_plan(
            &json!({"slots": [slot("mcq"), mermaid, slot("tf"), slot("open")]}),
            &input(),
            None,
        )
        .unwrap();
        assert_eq!(plan.slots.len(), 4);
        assert_eq!(
            plan.slots[0].line(),
            "mcq · what send returns on a second failure"
        );
    }

    #[test]
    fn counts_are_held_to_the_quiz_or_to_what_was_asked() {
        assert_eq!(
            findings(&[slot("mcq")], None),
            ["the plan has 1 slot: plan 2 to 10, by the size of the change"]
        );
        assert_eq!(findings(&vec![slot("mcq"); 11], None).len(), 1);
        assert_eq!(
            findings(&vec![slot("mcq"); 3], Some(4)),
            ["the plan has 3 slots: plan exactly 4, as the author asked"]
        );
        assert!(findings(&vec![slot("mcq"); 4], Some(4)).is_empty());
    }

    #[test]
    fn each_rule_of_a_plan_is_named() {
        let mut empty = slot("mcq");
        empty["focus"] = json!(" ");
        empty["misconception"] = json!("");
        let mut far = slot("open");
        far["anchor"] = json!({"path": "src/retry.rs", "start_line": 3, "end_line": 9});
        let mut elsewhere = slot("open");
        elsewhere["anchor"] = json!({"path": "src/other.rs", "start_line": 0, "end_line": 1});
        let got = findings(
            &[
                slot("tf"),
                empty,
                slot("mermaid"),
                far,
                slot("tf"),
                elsewhere,
            ],
            None,
        );
        assert_eq!(
            got,
            [
                "the plan has 2 tf slots: at most one tf in a quiz; make the others mcq",
                "slot 2: the focus is empty: say what the question makes the author trace",
                "slot 2: the misconception is empty: say which wrong belief the question tests",
                "slot 3: a mermaid slot needs a subject a diagram can show: say in `diagram` which control flow, call order or data hand-off the right diagram draws, or make it another type",
                "slot 4: anchor src/retry.rs: lines 3-9 run past its last line (4)",
                "slot 6: anchor lines 0-1: lines count from 1 (new-side line numbers)",
                "slot 4 is open but slot 5 after it is tf: order the slots as a progression, open \"why\" questions last",
            ]
        );
    }

    fn slots(kinds: &[&str]) -> Vec<Slot> {
        kinds
            .iter()
            .map(|k| serde_json::from_value(slot(k)).unwrap())
            .collect()
    }

    #[test]
    fn the_first_slots_are_held_to_what_any_plan_starting_with_them_breaks() {
        let so_far = |kinds: &[&str], asked| check_plan_so_far(&slots(kinds), &input(), asked);
        assert!(so_far(&["mcq"], None).is_empty(), "one slot is not too few");
        assert!(so_far(&["tf", "mcq", "open"], Some(3)).is_empty());
        assert_eq!(
            so_far(&["mcq", "tf", "tf"], None),
            ["the plan has 2 tf slots: at most one tf in a quiz; make the others mcq"]
        );
        assert_eq!(
            so_far(&["mcq", "mcq", "mcq"], Some(2)),
            ["the plan has more than 2 slots"]
        );
        assert_eq!(so_far(&["open", "mcq"], None).len(), 1);
    }

    #[test]
    fn a_complete_plan_keeps_the_slots_drafted_already_and_says_so_when_it_fails() {
        let kept = slots(&["tf"]);
        let mut answer = json!({"slots": [slot("mcq"), slot("mcq"), slot("open")]});
        let plan = accept_plan_after(&answer, &kept, &input(), None).unwrap();
        assert_eq!(plan.slots[0], kept[0], "the kept slot, not the answer's");
        assert_eq!(plan.slots.len(), 3);
        answer["slots"][1] = slot("tf");
        let findings = accept_plan_after(&answer, &kept, &input(), None).unwrap_err();
        assert_eq!(
            findings,
            [
                "slot 1 is already being written and is kept as it is: change only the slots after it",
                "the plan has 2 tf slots: at most one tf in a quiz; make the others mcq",
            ]
        );
    }

    #[test]
    fn a_plan_out_of_its_schema_says_what_to_submit() {
        let got = findings(&[json!({"type": "essay", "focus": "f"})], None);
        assert_eq!(got.len(), 1);
        assert!(
            got[0].starts_with("the plan is not in the schema ("),
            "{got:?}"
        );
    }
}
