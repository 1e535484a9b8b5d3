use super::*;
use crate::quiz::{Results, parse_quiz};

const FIX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(path: &str) -> String {
    std::fs::read_to_string(format!("{FIX}/{path}")).unwrap()
}

#[test]
fn bot_comments_parse_and_match_their_json() {
    for (comment, json) in [
        ("seed/pr7-quiz-comment.md", "seed/pr7-quiz.json"),
        ("cognit/quiz_comment.md", "cognit/quiz.json"),
    ] {
        let found = read_quiz(&fixture(comment)).unwrap();
        assert_eq!(found.quiz, parse_quiz(&fixture(json)).unwrap(), "{comment}");
        assert_eq!(found.marker.unwrap().kind, "quiz");
        assert!(found.notes.is_empty(), "{:?}", found.notes);
    }
}

#[test]
fn results_comment_renders_byte_exact_like_the_original() {
    for name in [
        "cognit/results_comment.md",
        "cognit/results_inlined_comment.md",
    ] {
        let parsed = parse_results_comment(&fixture(name)).unwrap();
        assert!(!parsed.legacy);
        assert_eq!(
            parsed.results,
            Results::parse(&fixture("cognit/results.json")).unwrap()
        );
    }
    let results = Results::parse(&fixture("cognit/results.json")).unwrap();
    assert_eq!(
        render_results_comment(&results).unwrap(),
        fixture("cognit/results_comment.md")
    );
}

#[test]
fn legacy_results_without_json_parse_from_the_list() {
    let parsed =
        parse_results_comment(&fixture("cognit/results_comment_legacy_no_json.md")).unwrap();
    assert!(parsed.legacy);
    assert_eq!(parsed.results.total_score, 80);
    assert_eq!(parsed.results.per_question[0].question_id, "q1");
    assert!(parsed.results.per_question[0].correct);
}

#[test]
fn answers_comment_is_not_a_quiz() {
    assert_eq!(
        read_quiz(&fixture("cognit/answers_comment.md")).unwrap_err(),
        CommentError::NoQuiz
    );
    assert_eq!(
        read_quiz(&fixture("cognit/results_comment.md")).unwrap_err(),
        CommentError::ResultsNotQuiz
    );
}

#[test]
fn a_json_fence_in_a_prompt_does_not_confuse_the_reader() {
    let mut quiz = parse_quiz(&fixture("seed/pr7-quiz.json")).unwrap();
    quiz.questions[0].prompt =
        "Look:\n```json\n{\"version\":\"2\"}\n```\n<details><summary>x</summary>".into();
    let found = read_quiz(&render_quiz_comment(&quiz)).unwrap();
    assert_eq!(found.quiz, quiz);
}

#[test]
fn a_rendered_page_copy_without_marker_or_fences_parses() {
    let json = fixture("seed/pr7-quiz.json");
    let copy = format!(
        "Quiz on your PR\nTake it: quizz take or scroll down.\nQuestion 1 — mcq\n...\nQuiz state (used by the CLI)\n{json}\nWrite a reply\n"
    );
    let found = read_quiz(&copy).unwrap();
    assert_eq!(found.quiz.questions.len(), 6);
    assert!(found.marker.is_none());
    assert!(found.notes[0].contains("no quiz marker"));
}

#[test]
fn two_quiz_blocks_take_the_last_and_say_so() {
    let a = render_quiz_comment(&parse_quiz(&fixture("cognit/quiz.json")).unwrap());
    let b = render_quiz_comment(&parse_quiz(&fixture("seed/pr7-quiz.json")).unwrap());
    let found = read_quiz(&format!("{a}\n{b}")).unwrap();
    assert_eq!(found.quiz.questions.len(), 6);
    assert_eq!(found.notes, ["2 quiz blocks found; took the last one"]);
}

#[test]
fn json_errors_point_at_the_comment_line() {
    let comment = fixture("seed/pr7-quiz-comment.md");
    let broken = comment.replacen("\"pr_number\": 7,", "\"pr_number\": 7,,", 1);
    let line = broken.lines().position(|l| l.contains("7,,")).unwrap() + 1;
    match read_quiz(&broken).unwrap_err() {
        CommentError::Format(crate::quiz::FormatError::Json { line: got, .. }) => {
            assert_eq!(got, line);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn hostile_feedback_cannot_break_out_of_the_comment() {
    let mut results = Results::parse(&fixture("cognit/results.json")).unwrap();
    results.per_question[2].feedback =
        "ok\n</details>\n```\n## Fake\n<script>x</script>\u{1b}[2J".into();
    results.per_question[0].question_id = "q`1".into();
    let body = render_results_comment(&results).unwrap();
    assert_eq!(body.matches("</details>").count(), 1);
    assert!(!body.contains("<script>") && !body.contains('\u{1b}'));
    assert!(body.contains("``q`1``"));
    assert!(body.contains("  > ## Fake"));
    assert_eq!(parse_results_comment(&body).unwrap().results, results);
}

#[test]
fn oversized_results_shorten_the_human_part_never_the_json() {
    let mut results = Results::parse(&fixture("cognit/results.json")).unwrap();
    for r in &mut results.per_question {
        r.feedback = "word ".repeat(2_500);
    }
    let body = render_results_comment(&results).unwrap();
    assert!(body.chars().count() <= GITHUB_COMMENT_LIMIT);
    assert_eq!(parse_results_comment(&body).unwrap().results, results);
    results.per_question[0].feedback = "x".repeat(70_000);
    assert!(matches!(
        render_results_comment(&results),
        Err(CommentError::TooLarge { .. })
    ));
}
