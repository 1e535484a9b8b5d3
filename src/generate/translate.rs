//! A draft in quizz's own quiz model: what the taker, the grader and the comment already
//! know. Only what the model cannot express is refused here (a line number below 1, an
//! answer label outside A–D, a rubric with no claims); the rest is for `checks`.

use serde_json::Map;

use super::finding::Finding;
use super::schema::{Draft, DraftAnchor, DraftQuestion, LABELS};
use crate::quiz::{Anchor, MermaidOption, Question, QuestionKind, Quiz, WIRE_VERSION};

/// What an open question's claims become in the rubric the grader reads.
pub const RUBRIC_LEAD: &str = "A full answer makes these claims:";

pub fn to_quiz(draft: &Draft, pr_number: u64) -> Result<Quiz, Vec<Finding>> {
    let mut findings = Vec::new();
    let mut questions = Vec::with_capacity(draft.questions.len());
    for q in &draft.questions {
        let id = q.id();
        let anchor = q.anchor().and_then(|a| anchor(id, a, &mut findings));
        let (prompt, kind, explanation) = match q {
            DraftQuestion::Mcq {
                prompt,
                options,
                answer,
                explanation,
                ..
            } => (
                prompt,
                QuestionKind::Mcq {
                    options: options.clone(),
                    answer: answer.clone(),
                },
                Some(explanation),
            ),
            DraftQuestion::Tf {
                prompt,
                answer,
                explanation,
                ..
            } => (
                prompt,
                QuestionKind::TrueFalse { answer: *answer },
                Some(explanation),
            ),
            DraftQuestion::Open { prompt, rubric, .. } => (
                prompt,
                QuestionKind::Open {
                    rubric: rubric_text(id, rubric, &mut findings),
                },
                None,
            ),
            DraftQuestion::Mermaid {
                prompt,
                options,
                answer,
                explanation,
                ..
            } => {
                if !LABELS.contains(&answer.as_str()) {
                    findings.push(Finding::question(
                        id,
                        format!("the answer {answer:?} is not a label: it is one of A, B, C, D"),
                    ));
                }
                let options = options
                    .labelled()
                    .iter()
                    .map(|(label, source)| MermaidOption {
                        label: (*label).to_string(),
                        source: (*source).to_string(),
                    })
                    .collect();
                (
                    prompt,
                    QuestionKind::Mermaid {
                        options,
                        answer: answer.clone(),
                    },
                    Some(explanation),
                )
            }
        };
        questions.push(Question {
            id: id.to_string(),
            prompt: prompt.clone(),
            kind,
            explanation: explanation
                .filter(|e| !e.trim().is_empty())
                .map(|e| e.trim().to_string()),
            anchor,
            extra: Map::new(),
        });
    }
    if !findings.is_empty() {
        return Err(findings);
    }
    Ok(Quiz {
        version: WIRE_VERSION.to_string(),
        pr_number,
        questions,
        extra: Map::new(),
    })
}

fn anchor(id: &str, a: &DraftAnchor, findings: &mut Vec<Finding>) -> Option<Anchor> {
    let line = |n: i64, name: &str, findings: &mut Vec<Finding>| {
        let line = u64::try_from(n).ok().filter(|&n| n >= 1);
        if line.is_none() {
            findings.push(Finding::question(
                id,
                format!("anchor {name} {n}: lines count from 1 (new-side line numbers)"),
            ));
        }
        line
    };
    let start = line(a.start_line, "start_line", findings)?;
    let end = line(a.end_line, "end_line", findings)?;
    Some(Anchor {
        path: a.path.clone(),
        start_line: Some(start),
        end_line: Some(end),
        extra: Map::new(),
    })
}

/// The claims as a numbered list under [`RUBRIC_LEAD`].
fn rubric_text(id: &str, claims: &[String], findings: &mut Vec<Finding>) -> String {
    let claims: Vec<&str> = claims
        .iter()
        .map(|c| c.trim())
        .filter(|c| !c.is_empty())
        .collect();
    if claims.is_empty() {
        findings.push(Finding::question(
            id,
            "the rubric lists no claims: list each concrete claim a full answer makes",
        ));
        return String::new();
    }
    let mut text = RUBRIC_LEAD.to_string();
    for (i, claim) in claims.iter().enumerate() {
        text.push_str(&format!("\n{}. {claim}", i + 1));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::finding::sentences;
    use crate::generate::schema::parse_draft;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    fn draft(v: &Value) -> Draft {
        parse_draft(v).unwrap()
    }

    #[test]
    fn every_type_becomes_the_quiz_model() {
        let d = draft(&json!({"questions": [
            {"type": "mcq", "id": "q1", "prompt": "p", "options": ["a", "b", "c"], "answer": "b",
             "explanation": " why ", "anchor": {"path": "src/a.rs", "start_line": 3, "end_line": 5}},
            {"type": "tf", "id": "q2", "prompt": "p", "answer": true, "explanation": "", "anchor": null},
            {"type": "open", "id": "q3", "prompt": "p", "rubric": ["one claim", " ", "another"], "anchor": null},
            {"type": "mermaid", "id": "q4", "prompt": "p",
             "options": {"A": "graph TD\nA-->B", "B": "b", "C": "c", "D": "d"},
             "answer": "D", "explanation": "e", "anchor": null}
        ]}));
        let quiz = to_quiz(&d, 7).unwrap();
        assert_eq!(quiz.pr_number, 7);
        let q1 = &quiz.questions[0];
        assert_eq!(q1.explanation.as_deref(), Some("why"));
        assert_eq!(q1.anchor.as_ref().unwrap().start_line, Some(3));
        assert_eq!(
            quiz.questions[1].explanation, None,
            "a blank explanation is none"
        );
        assert_eq!(
            quiz.questions[2].kind,
            QuestionKind::Open {
                rubric: format!("{RUBRIC_LEAD}\n1. one claim\n2. another")
            }
        );
        let QuestionKind::Mermaid { options, answer } = &quiz.questions[3].kind else {
            panic!()
        };
        assert_eq!(answer, "D");
        let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
        assert_eq!(labels, LABELS);
        // the wire form reads back as the same quiz
        let back = crate::quiz::parse_quiz(&quiz.to_pretty_json()).unwrap();
        assert_eq!(back, quiz);
    }

    #[test]
    fn what_the_model_cannot_mean_is_named() {
        let d = draft(&json!({"questions": [
            {"type": "open", "id": "q1", "prompt": "p", "rubric": [], "anchor":
             {"path": "a", "start_line": 0, "end_line": 2}},
            {"type": "mermaid", "id": "q2", "prompt": "p",
             "options": {"A": "a", "B": "b", "C": "c", "D": "d"},
             "answer": "E", "explanation": "e", "anchor": null}
        ]}));
        let findings = sentences(&to_quiz(&d, 0).unwrap_err());
        assert_eq!(
            findings,
            [
                "question q1: anchor start_line 0: lines count from 1 (new-side line numbers)",
                "question q1: the rubric lists no claims: list each concrete claim a full answer makes",
                "question q2: the answer \"E\" is not a label: it is one of A, B, C, D",
            ]
        );
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            prop_oneof![
                Just("mcq".to_string()),
                Just("tf".to_string()),
                Just("open".to_string()),
                Just("mermaid".to_string()),
                Just("A".to_string()),
                ".{0,12}"
            ]
            .prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop_oneof![
                            Just("questions".to_string()),
                            Just("type".to_string()),
                            Just("id".to_string()),
                            Just("prompt".to_string()),
                            Just("options".to_string()),
                            Just("answer".to_string()),
                            Just("explanation".to_string()),
                            Just("rubric".to_string()),
                            Just("anchor".to_string()),
                            Just("start_line".to_string()),
                            "[a-zA-Z_]{1,8}"
                        ],
                        inner
                    ),
                    0..8
                )
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    fn anchor_value() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            (".{0,8}", any::<i64>(), any::<i64>())
                .prop_map(|(p, s, e)| json!({"path": p, "start_line": s, "end_line": e})),
        ]
    }

    /// Questions in the schema's shape with arbitrary contents.
    fn question_value() -> impl Strategy<Value = Value> {
        let s = || ".{0,16}";
        prop_oneof![
            (s(), s(), prop::collection::vec(s(), 0..6), s(), s(), anchor_value()).prop_map(
                |(id, p, o, a, e, an)| json!({"type": "mcq", "id": id, "prompt": p, "options": o,
                    "answer": a, "explanation": e, "anchor": an})
            ),
            (s(), s(), any::<bool>(), s(), anchor_value()).prop_map(|(id, p, a, e, an)| json!({
                "type": "tf", "id": id, "prompt": p, "answer": a, "explanation": e, "anchor": an})),
            (s(), s(), prop::collection::vec(s(), 0..4), anchor_value()).prop_map(
                |(id, p, r, an)| json!({"type": "open", "id": id, "prompt": p, "rubric": r, "anchor": an})
            ),
            (s(), s(), [s(), s(), s(), s()], "[A-F]", s(), anchor_value()).prop_map(
                |(id, p, [a, b, c, d], ans, e, an)| json!({"type": "mermaid", "id": id, "prompt": p,
                    "options": {"A": a, "B": b, "C": c, "D": d}, "answer": ans,
                    "explanation": e, "anchor": an})
            ),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Arbitrary JSON is read or refused with findings, never a panic.
        #[test]
        fn any_json_is_read_or_refused(v in json_value()) {
            if let Ok(d) = parse_draft(&v) {
                let _ = to_quiz(&d, 1);
            }
            let wrapped = json!({"questions": [v]});
            if let Ok(d) = parse_draft(&wrapped) {
                let _ = to_quiz(&d, 1);
            }
        }

        /// A draft in the schema's shape translates, or says why; what translates goes
        /// through the checks and the wire format without a panic and reads back the same.
        #[test]
        fn drafts_in_shape_translate_and_round_trip(qs in prop::collection::vec(question_value(), 0..6)) {
            let v = json!({"questions": qs});
            let d = parse_draft(&v).expect("in the schema's shape");
            if let Ok(quiz) = to_quiz(&d, 3) {
                let _ = crate::generate::check_quality(&quiz);
                if crate::quiz::validate(&quiz).is_ok() {
                    let back = crate::quiz::parse_quiz(&quiz.to_pretty_json()).unwrap();
                    prop_assert_eq!(back, quiz);
                }
            }
        }
    }
}
