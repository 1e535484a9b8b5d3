//! Property tests: what we render, we read back exactly; no text makes the readers panic.

use proptest::prelude::*;
use quizz::comment::{
    parse_results_comment, read_quiz, render_quiz_comment, render_results_comment,
};
use quizz::quiz::{
    MermaidOption, NotCounted, Question, QuestionKind, QuestionResult, Quiz, Results,
};
use serde_json::{Map, Value};

/// Text with the characters that break naive renderers: backticks, HTML, fences, newlines,
/// the summary line itself, control codes and wide characters.
fn nasty_text() -> impl Strategy<Value = String> {
    let pieces = prop::collection::vec(
        prop_oneof![
            "[a-zA-Z0-9 ]{0,12}",
            Just("`".to_string()),
            Just("```json\n{}\n```".to_string()),
            Just("</details>".to_string()),
            Just("<details><summary>Quiz state (used by the CLI)</summary>".to_string()),
            Just("\n".to_string()),
            Just("<b>&amp;</b>".to_string()),
            Just("\u{1b}[31m".to_string()),
            Just("日本語🙂".to_string()),
            Just("\\u003c".to_string()),
            any::<String>(),
        ],
        0..6,
    );
    pieces.prop_map(|p| p.concat())
}

fn extra_fields() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map("x_[a-z]{1,6}", nasty_text().prop_map(Value::String), 0..3)
        .prop_map(|m| m.into_iter().collect())
}

fn question() -> impl Strategy<Value = Question> {
    let kind = prop_oneof![
        (
            prop::collection::vec(nasty_text(), 1..5),
            any::<prop::sample::Index>()
        )
            .prop_map(|(options, i)| {
                let answer = options[i.index(options.len())].clone();
                QuestionKind::Mcq { options, answer }
            }),
        any::<bool>().prop_map(|answer| QuestionKind::TrueFalse { answer }),
        nasty_text().prop_map(|rubric| QuestionKind::Open { rubric }),
        prop::collection::btree_map("[A-F]", nasty_text(), 1..5).prop_map(|m| {
            let options: Vec<MermaidOption> = m
                .into_iter()
                .map(|(label, source)| MermaidOption { label, source })
                .collect();
            let answer = options[0].label.clone();
            QuestionKind::Mermaid { options, answer }
        }),
        "[a-z]{1,8}"
            .prop_filter("known types", |t| !["mcq", "tf", "open", "mermaid"]
                .contains(&t.as_str()))
            .prop_map(|type_name| QuestionKind::Unsupported { type_name }),
    ];
    (
        "[a-z0-9_-]{1,8}",
        nasty_text(),
        kind,
        prop::option::of(nasty_text()),
        extra_fields(),
    )
        .prop_map(|(id, prompt, kind, explanation, extra)| Question {
            id,
            prompt,
            kind,
            explanation,
            anchor: None,
            extra,
        })
}

fn quiz() -> impl Strategy<Value = Quiz> {
    (
        any::<u32>(),
        prop::collection::vec(question(), 1..6),
        extra_fields(),
    )
        .prop_map(|(pr, questions, extra)| Quiz {
            version: "1".into(),
            pr_number: u64::from(pr),
            questions,
            extra,
        })
}

fn results() -> impl Strategy<Value = Results> {
    let per_question = prop::collection::vec(
        (
            "[a-z0-9`]{1,8}",
            any::<bool>(),
            0u32..=100,
            nasty_text(),
            prop::option::of(1u8..=5),
            extra_fields(),
        )
            .prop_map(
                |(question_id, correct, score, feedback, confidence, extra)| QuestionResult {
                    question_id,
                    correct,
                    score,
                    feedback,
                    confidence,
                    extra,
                },
            ),
        0..8,
    );
    let not_counted = prop::collection::vec(
        ("[a-z0-9]{1,8}", nasty_text()).prop_map(|(question_id, reason)| NotCounted {
            question_id,
            reason,
        }),
        0..2,
    );
    (
        any::<u32>(),
        0u32..=100,
        per_question,
        prop::collection::vec("[a-z0-9]{1,8}", 0..3),
        not_counted,
        extra_fields(),
    )
        .prop_map(
            |(pr, total_score, per_question, pending, not_counted, extra)| Results {
                pr_number: u64::from(pr),
                total_score,
                per_question,
                pending,
                not_counted,
                extra,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn quiz_comment_round_trips(quiz in quiz()) {
        let comment = render_quiz_comment(&quiz);
        let found = read_quiz(&comment).unwrap();
        // A prompt may itself quote a state block; then the reader says it saw two.
        let quoted = comment.matches("Quiz state (used by the CLI)").count() > 1;
        prop_assert!(quoted || found.notes.is_empty(), "notes: {:?}", found.notes);
        prop_assert_eq!(found.quiz, quiz);
    }

    #[test]
    fn quiz_json_round_trips(quiz in quiz()) {
        prop_assert_eq!(quizz::quiz::parse_quiz(&quiz.to_pretty_json()).unwrap(), quiz);
    }

    #[test]
    fn results_comment_round_trips(results in results()) {
        let body = render_results_comment(&results).unwrap();
        prop_assert_eq!(body.matches("</details>").count(), 1);
        let has_escape = body.contains('\u{1b}');
        prop_assert!(!has_escape);
        let parsed = parse_results_comment(&body).unwrap();
        prop_assert!(!parsed.legacy);
        prop_assert_eq!(parsed.results, results);
    }

    #[test]
    fn readers_never_panic_on_any_text(text in nasty_text(), cut in any::<prop::sample::Index>()) {
        let _ = read_quiz(&text);
        let _ = parse_results_comment(&text);
        // Also a real comment cut anywhere.
        let comment = include_str!("../fixtures/seed/pr7-quiz-comment.md");
        let mut at = cut.index(comment.len());
        while !comment.is_char_boundary(at) { at -= 1; }
        let _ = read_quiz(&comment[..at]);
    }
}
