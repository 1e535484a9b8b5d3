//! What an answer means, for every reader alike (grading, the terminal UI, plain mode).
//!
//! An mcq answer is the option's text, a tf answer `true`/`false`, a mermaid answer the
//! option's label exactly as the quiz spells it: labels are the keys of a JSON object, so
//! `a` and `A` would be two options, and both the bot's `answer` and the original tool's
//! answers hold the label as written. Blanks around an answer are not part of it.

use super::grading::parse_bool;
use super::model::{Question, QuestionKind};

impl Question {
    /// The answer stored when the taker picks choice `n` (in [`Question::choices`] order).
    pub fn value_of(&self, n: usize) -> Option<String> {
        match &self.kind {
            QuestionKind::Mcq { options, .. } => options.get(n).cloned(),
            QuestionKind::TrueFalse { .. } => [true, false].get(n).map(ToString::to_string),
            QuestionKind::Mermaid { options, .. } => options.get(n).map(|o| o.label.clone()),
            QuestionKind::Open { .. } | QuestionKind::Unsupported { .. } => None,
        }
    }

    /// The choice a stored answer picks (an index into [`Question::choices`]), if it is one.
    pub fn choice_of(&self, value: &str) -> Option<usize> {
        let value = value.trim();
        match &self.kind {
            QuestionKind::Mcq { options, .. } => options.iter().position(|o| o.trim() == value),
            QuestionKind::TrueFalse { .. } => parse_bool(value).map(|b| usize::from(!b)),
            QuestionKind::Mermaid { options, .. } => {
                options.iter().position(|o| o.label.trim() == value)
            }
            QuestionKind::Open { .. } | QuestionKind::Unsupported { .. } => None,
        }
    }

    /// The choice that scores.
    pub fn right_choice(&self) -> Option<usize> {
        self.choice_of(&self.kind.expected_value()?)
    }

    /// Whether `value` is the right answer; `None` where no rule here says (open questions
    /// go to a grader, unsupported ones are not counted).
    pub fn is_right(&self, value: &str) -> Option<bool> {
        if !self.kind.is_closed() {
            return None;
        }
        Some(
            self.choice_of(value)
                .is_some_and(|c| Some(c) == self.right_choice()),
        )
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::grading::{Outcome, grade_question};
    use super::super::model::{MermaidOption, Question, QuestionKind};

    fn question(kind: QuestionKind) -> Question {
        Question {
            id: "q".into(),
            prompt: "p".into(),
            kind,
            explanation: None,
            anchor: None,
            extra: serde_json::Map::new(),
        }
    }

    fn mermaid(labels: &[&str], answer: &str) -> Question {
        question(QuestionKind::Mermaid {
            options: labels
                .iter()
                .map(|l| MermaidOption {
                    label: (*l).into(),
                    source: format!("graph TD\n  {l}"),
                })
                .collect(),
            answer: answer.into(),
        })
    }

    fn graded_right(q: &Question, value: &str) -> bool {
        matches!(
            grade_question(q, Some(value)),
            Outcome::Scored { score: 100, .. }
        )
    }

    /// A mermaid answer is its label as the quiz spells it: `d` is not option `D` (the
    /// grader once said it was, while the terminal UI showed no option picked).
    #[test]
    fn a_mermaid_label_in_another_case_is_no_choice_and_not_right() {
        let q = mermaid(&["A", "B", "C", "D"], "D");
        assert_eq!(q.choice_of("D"), Some(3));
        assert_eq!(q.choice_of("d"), None);
        assert_eq!(q.is_right("d"), Some(false));
        assert!(!graded_right(&q, "d"));
        assert!(graded_right(&q, " D "));
        // Two labels that differ by case are two options.
        let q = mermaid(&["a", "A"], "A");
        assert_eq!(q.choice_of("a"), Some(0));
        assert_eq!(q.is_right("a"), Some(false));
        assert_eq!(q.is_right("A"), Some(true));
    }

    #[test]
    fn true_false_answers_are_read_like_the_taker_types_them() {
        let q = question(QuestionKind::TrueFalse { answer: false });
        assert_eq!(q.value_of(0).as_deref(), Some("true"));
        assert_eq!(q.value_of(1).as_deref(), Some("false"));
        assert_eq!(q.choice_of("F"), Some(1));
        assert_eq!(q.is_right("false"), Some(true));
        assert_eq!(q.is_right("maybe"), Some(false));
    }

    #[test]
    fn open_and_unsupported_questions_have_no_choices() {
        let open = question(QuestionKind::Open { rubric: "r".into() });
        assert_eq!(
            (open.value_of(0), open.choice_of("x"), open.is_right("x")),
            (None, None, None)
        );
        let other = question(QuestionKind::Unsupported {
            type_name: "x".into(),
        });
        assert_eq!(other.is_right("x"), None);
    }

    fn options() -> impl Strategy<Value = Vec<String>> {
        prop::collection::btree_set("[a-zA-Z0-9 ]{1,6}", 1..6)
            .prop_map(|set| {
                set.into_iter()
                    .filter(|o| !o.trim().is_empty())
                    .collect::<Vec<_>>()
            })
            .prop_filter("an option", |o| !o.is_empty())
            .prop_filter("options apart once trimmed", |o| {
                let trimmed: std::collections::BTreeSet<&str> =
                    o.iter().map(|s| s.trim()).collect();
                trimmed.len() == o.len()
            })
    }

    proptest! {
        /// Picking a choice stores a value that is that choice again, right exactly when
        /// it is the answer's choice, and graded as the rule says.
        #[test]
        fn a_picked_choice_is_itself_and_graded_as_the_rule_says(
            texts in options(),
            pick in any::<prop::sample::Index>(),
            mermaid_kind in any::<bool>(),
        ) {
            let answer = texts[pick.index(texts.len())].clone();
            let q = if mermaid_kind {
                let labels: Vec<&str> = texts.iter().map(String::as_str).collect();
                mermaid(&labels, &answer)
            } else {
                question(QuestionKind::Mcq { options: texts.clone(), answer: answer.clone() })
            };
            let right = q.right_choice();
            prop_assert_eq!(right, Some(pick.index(texts.len())));
            for n in 0..texts.len() {
                let value = q.value_of(n).unwrap();
                prop_assert_eq!(q.choice_of(&value), Some(n));
                prop_assert_eq!(q.is_right(&value), Some(Some(n) == right));
                prop_assert_eq!(graded_right(&q, &value), Some(n) == right);
                // Another case is another value: right only when it spells the same.
                let shouted = value.to_ascii_uppercase();
                prop_assert_eq!(graded_right(&q, &shouted), q.is_right(&shouted) == Some(true));
                prop_assert_eq!(q.is_right(&shouted) == Some(true), q.choice_of(&shouted) == right);
            }
        }
    }
}
