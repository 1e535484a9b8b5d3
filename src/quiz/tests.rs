use super::*;

const SEED: &str = include_str!("../../assets/demo-quiz.json");

fn seed() -> Quiz {
    parse_quiz(SEED).unwrap()
}

fn answers(pairs: &[(&str, &str)]) -> Answers {
    Answers {
        pr_number: 7,
        values: pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect(),
    }
}

#[test]
fn seed_parses_with_all_four_types() {
    let quiz = seed();
    assert_eq!(quiz.pr_number, 7);
    let types: Vec<&str> = quiz.questions.iter().map(|q| q.kind.type_name()).collect();
    assert_eq!(types, ["mcq", "tf", "mcq", "tf", "open", "mermaid"]);
    validate(&quiz).unwrap();
}

#[test]
fn seed_answers_reproduce_total_50() {
    let quiz = seed();
    let QuestionKind::Mcq { answer: q1, .. } = &quiz.questions[0].kind else {
        panic!()
    };
    let mut outcomes = grade_closed(
        &quiz,
        &answers(&[
            ("q1", q1),
            ("q2", "false"),
            ("q3", "wrong"),
            ("q4", "false"),
            ("q5", "test"),
            ("q6", "A"),
        ]),
    );
    assert_eq!(outcomes[4], Outcome::Pending);
    outcomes[4] = Outcome::Scored {
        score: 0,
        feedback: "non-responsive".into(),
    };
    let results = assemble(&quiz, &outcomes);
    let expected =
        Results::parse(include_str!("../../tests/fixtures/seed/pr7-results.json")).unwrap();
    assert_eq!(results.total_score, 50);
    let scores: Vec<(u32, bool)> = results
        .per_question
        .iter()
        .map(|r| (r.score, r.correct))
        .collect();
    let want: Vec<(u32, bool)> = expected
        .per_question
        .iter()
        .map(|r| (r.score, r.correct))
        .collect();
    assert_eq!(scores, want);
}

#[test]
fn pending_counts_zero_and_is_listed() {
    let quiz = seed();
    let results = assemble(
        &quiz,
        &grade_closed(&quiz, &answers(&[("q2", "false"), ("q5", "an answer")])),
    );
    assert_eq!(results.pending, ["q5"]);
    assert_eq!(results.per_question.len(), 5);
    assert_eq!(results.total_score, 16); // 100 / 6
    assert!(!results.is_final());
}

#[test]
fn open_correct_at_75() {
    let quiz = seed();
    let mut outcomes = grade_closed(&quiz, &Answers::default());
    outcomes[4] = Outcome::Scored {
        score: 75,
        feedback: String::new(),
    };
    assert!(assemble(&quiz, &outcomes).result("q5").unwrap().correct);
    outcomes[4] = Outcome::Scored {
        score: 74,
        feedback: String::new(),
    };
    assert!(!assemble(&quiz, &outcomes).result("q5").unwrap().correct);
}

#[test]
fn unknown_fields_and_types_survive_round_trip() {
    let json = r#"{"version":"1","pr_number":"12","flavour":"x","questions":[
        {"type":"ranking","id":"r1","prompt":"order these","items":[1,2]},
        {"type":"tf","id":"t1","prompt":"p","answer":true,"anchor":{"path":"a.rs","start_line":3,"end_line":4,"side":"R"},"hint":"h"}]}"#;
    let quiz = parse_quiz(json).unwrap();
    assert_eq!(quiz.pr_number, 12);
    assert!(
        matches!(&quiz.questions[0].kind, QuestionKind::Unsupported { type_name } if type_name == "ranking")
    );
    let again = parse_quiz(&quiz.to_pretty_json()).unwrap();
    assert_eq!(again, quiz);
    let value = quiz_to_value(&quiz);
    assert_eq!(value["flavour"], "x");
    assert_eq!(value["questions"][0]["items"], serde_json::json!([1, 2]));
    assert_eq!(value["questions"][1]["anchor"]["side"], "R");
    let results = assemble(&quiz, &grade_closed(&quiz, &answers(&[("t1", "true")])));
    assert_eq!(results.total_score, 100);
    assert_eq!(results.not_counted[0].question_id, "r1");
}

#[test]
fn missing_version_means_1_and_version_2_is_refused() {
    assert_eq!(parse_quiz(r#"{"questions":[]}"#).unwrap().version, "1");
    assert_eq!(
        parse_quiz(r#"{"version":"2","questions":[]}"#).unwrap_err(),
        FormatError::Version { found: "2".into() }
    );
}

#[test]
fn errors_name_the_question() {
    let err = parse_quiz(r#"{"questions":[{"type":"open","id":"q9","prompt":"p"}]}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"question 1 (id "q9"): missing field "rubric""#
    );
    let err = parse_quiz("{\n  \"questions\": [\n    {\"id\": 1,,}").unwrap_err();
    assert!(matches!(err, FormatError::Json { line: 3, .. }), "{err:?}");
}

#[test]
fn validation_catches_broken_quizzes() {
    let cases = [
        (
            r#"{"type":"mcq","id":"a","prompt":"p","options":["x"],"answer":"y"}"#,
            "not one of the options",
        ),
        (
            r#"{"type":"mcq","id":"a","prompt":"p","options":[],"answer":"y"}"#,
            "no options",
        ),
        (
            r#"{"type":"mermaid","id":"a","prompt":"p","options":{"A":"graph TD"},"answer":"B"}"#,
            "not a label",
        ),
    ];
    for (q, want) in cases {
        let quiz = parse_quiz(&format!(r#"{{"questions":[{q}]}}"#)).unwrap();
        let err = validate(&quiz).unwrap_err().to_string();
        assert!(err.contains(want) && err.contains("\"a\""), "{err}");
    }
    let dup = parse_quiz(r#"{"questions":[{"type":"tf","id":"a","prompt":"p","answer":true},{"type":"tf","id":"a","prompt":"p","answer":true}]}"#).unwrap();
    assert!(
        validate(&dup)
            .unwrap_err()
            .to_string()
            .contains("more than one")
    );
}

#[test]
fn digest_changes_with_the_quiz() {
    let mut quiz = seed();
    let before = quiz.digest();
    assert_eq!(before, seed().digest());
    quiz.questions[0].prompt.push('!');
    assert_ne!(before, quiz.digest());
}
