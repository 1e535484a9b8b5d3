//! A model's answer to a quiz ready to take: read in the generation schema, translated,
//! checked against the change, validated like any quiz, then shuffled. Any failure comes
//! back as the list of findings a repair round sends to the model.

use serde_json::Value;

use super::checks::check_generated;
use super::finding::Finding;
use super::input::Input;
use super::schema::parse_draft;
use super::shuffle::{seed_from, shuffle};
use super::translate::to_quiz;
use crate::quiz::{Quiz, validate};

/// The quiz, or every reason it cannot be taken yet. The shuffle's seed comes from the
/// change's digest, so the same answer to the same change gives the same quiz.
pub fn accept(answer: &Value, input: &Input, pr_number: u64) -> Result<Quiz, Vec<Finding>> {
    let draft = parse_draft(answer)?;
    let mut quiz = to_quiz(&draft, pr_number)?;
    let findings = check_generated(&quiz, input);
    if !findings.is_empty() {
        return Err(findings);
    }
    validate(&quiz).map_err(|e| vec![Finding::quiz(e.to_string())])?;
    shuffle(&mut quiz, seed_from(&input.digest));
    Ok(quiz)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::generate::finding::sentences;
    use crate::generate::input::{Marked, PrFile, prepare_pr};
    use serde_json::json;

    /// The change the unit tests quiz: `send` retries once, in a 4-line src/retry.rs.
    pub(crate) fn input() -> Input {
        let file = PrFile {
            filename: "src/retry.rs".into(),
            status: "modified".into(),
            additions: 3,
            deletions: 1,
            patch: Some("@@ -1,2 +1,4 @@\n fn send() {\n-    once()\n+    retry()\n".into()),
            previous_filename: None,
            sha: Some("abc".into()),
        };
        prepare_pr(
            &[file],
            &Marked::none(),
            &mut |_| Some(b"a\nb\nc\nd\n".to_vec()),
            10_000,
        )
    }

    fn answer(anchor_end: u64, answer: &str) -> Value {
        json!({"questions": [
            {"type": "mcq", "id": "q1", "prompt": "When does `send` give up?",
             "options": ["after one retry", "never, it loops", "at once on any error"],
             "answer": answer, "explanation": "retry() tries once more, then returns the error.",
             "anchor": {"path": "src/retry.rs", "start_line": 2, "end_line": anchor_end}},
            {"type": "open", "id": "q2", "prompt": "Why retry only once?",
             "rubric": ["a second failure means the server is down, not a blip",
                        "more retries would hold the user's terminal for longer"],
             "anchor": null}
        ]})
    }

    #[test]
    fn a_good_answer_becomes_a_shuffled_quiz() {
        let quiz = accept(&answer(3, "after one retry"), &input(), 9).unwrap();
        assert_eq!(quiz.pr_number, 9);
        let again = accept(&answer(3, "after one retry"), &input(), 9).unwrap();
        assert_eq!(quiz, again, "the same change shuffles the same way");
    }

    #[test]
    fn every_failure_comes_back_at_once() {
        let findings =
            sentences(&accept(&answer(9, "after two retries"), &input(), 9).unwrap_err());
        assert_eq!(
            findings,
            [
                "question q1: the answer \"after two retries\" is not one of the options: it must be one option's exact text",
                "question q1: anchor src/retry.rs: lines 2-9 run past its last line (4)",
            ]
        );
    }
}
