//! The shape of a good quiz: ids, a count of questions, mcq options, rubrics of claims,
//! explanations, four diagrams.

use std::collections::BTreeMap;

use super::words;
use super::{Finding, MAX_QUESTIONS, MIN_QUESTIONS};
use crate::quiz::{Question, QuestionKind, Quiz};

/// A rubric shorter than this says too little to grade against.
const MIN_RUBRIC_WORDS: usize = 6;

pub fn check(quiz: &Quiz) -> Vec<Finding> {
    let mut findings = Vec::new();
    let n = quiz.questions.len();
    if !(MIN_QUESTIONS..=MAX_QUESTIONS).contains(&n) {
        findings.push(Finding::quiz(format!(
            "it has {}: write {MIN_QUESTIONS} to {MAX_QUESTIONS}, by the size of the change",
            crate::text::plural(n, "question", "questions")
        )));
    }
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    for q in &quiz.questions {
        *uses.entry(q.id.as_str()).or_default() += 1;
    }
    for (i, q) in quiz.questions.iter().enumerate() {
        let id = shown_id(q, i);
        if !q.id.trim().is_empty() && uses[q.id.as_str()] > 1 && first_use(quiz, i) {
            findings.push(Finding::question(
                &id,
                format!(
                    "the id is used by {} questions: give each question its own id",
                    uses[q.id.as_str()]
                ),
            ));
        }
        findings.extend(question(&id, q));
    }
    findings
}

/// The question's id, or its position (`#3`) when it has none.
fn shown_id(q: &Question, i: usize) -> String {
    if q.id.trim().is_empty() {
        format!("#{}", i + 1)
    } else {
        q.id.clone()
    }
}

/// The shape of one question on its own (what a drafter of one question is held to).
pub fn check_one(q: &Question) -> Vec<Finding> {
    question(&shown_id(q, 0), q)
}

fn question(id: &str, q: &Question) -> Vec<Finding> {
    let mut findings = Vec::new();
    if q.id.trim().is_empty() {
        findings.push(Finding::question(
            id,
            "the id is empty: give it one (q1, q2, ...)",
        ));
    }
    if q.prompt.trim().is_empty() {
        findings.push(Finding::question(id, "the prompt is empty"));
    }
    findings.extend(kind(id, q));
    findings
}

fn first_use(quiz: &Quiz, i: usize) -> bool {
    !quiz.questions[..i]
        .iter()
        .any(|q| q.id == quiz.questions[i].id)
}

fn needs_explanation(id: &str, q: &Question) -> Option<Finding> {
    let missing = q.explanation.as_deref().is_none_or(|e| e.trim().is_empty());
    missing.then(|| {
        Finding::question(
            id,
            "no explanation: add one sentence saying why the answer is right",
        )
    })
}

fn not_an_answer(id: &str, answer: &str, among: &str) -> Finding {
    Finding::question(
        id,
        format!(
            "the answer {:?} is not one of {among}",
            crate::text::sanitize_line(answer)
        ),
    )
}

fn kind(id: &str, q: &Question) -> Vec<Finding> {
    let mut findings = Vec::new();
    match &q.kind {
        QuestionKind::Mcq { options, answer } => {
            if !(3..=4).contains(&options.len()) {
                findings.push(Finding::question(
                    id,
                    format!(
                        "it has {} options: give 3 (a 4th only for a real misconception)",
                        options.len()
                    ),
                ));
            }
            let norm = |s: &str| words::all(s).join(" ");
            for (i, o) in options.iter().enumerate() {
                if o.trim().is_empty() {
                    findings.push(Finding::option(
                        id,
                        &(i + 1).to_string(),
                        "the option is empty",
                    ));
                    continue;
                }
                if let Some(j) = options[..i].iter().position(|p| norm(p) == norm(o)) {
                    findings.push(Finding::option(
                        id,
                        &(i + 1).to_string(),
                        format!(
                            "it says the same as option {}: each option must differ",
                            j + 1
                        ),
                    ));
                }
            }
            if !options.contains(answer) {
                findings.push(not_an_answer(
                    id,
                    answer,
                    "the options: it must be one option's exact text",
                ));
            }
            findings.extend(needs_explanation(id, q));
        }
        QuestionKind::TrueFalse { .. } => findings.extend(needs_explanation(id, q)),
        QuestionKind::Open { rubric } => findings.extend(rubric_findings(id, &q.prompt, rubric)),
        QuestionKind::Mermaid { options, answer } => {
            if options.len() != 4 {
                findings.push(Finding::question(
                    id,
                    format!("it has {} diagrams: give four (A, B, C, D)", options.len()),
                ));
            }
            if !options.iter().any(|o| &o.label == answer) {
                findings.push(not_an_answer(id, answer, "the labels"));
            }
            findings.extend(needs_explanation(id, q));
        }
        QuestionKind::Unsupported { type_name } => findings.push(Finding::question(
            id,
            format!(
                "type {:?} is not one quizz can ask (mcq, tf, open, mermaid)",
                crate::text::sanitize_line(type_name)
            ),
        )),
    }
    findings
}

fn rubric_findings(id: &str, prompt: &str, rubric: &str) -> Option<Finding> {
    let text = rubric
        .strip_prefix(crate::generate::translate::RUBRIC_LEAD)
        .unwrap_or(rubric);
    let rubric_words = words::all(text);
    if rubric_words.is_empty() {
        return Some(Finding::question(
            id,
            "the rubric is empty: list the concrete claims a full answer makes",
        ));
    }
    let prompt_words = words::all(prompt);
    let copied = rubric_words == prompt_words || {
        let claims = words::content(text);
        let asked = words::content(prompt);
        !claims.is_empty() && claims.is_subset(&asked)
    };
    if copied {
        return Some(Finding::question(
            id,
            "the rubric repeats the prompt: list the claims a full answer makes, not the question",
        ));
    }
    (rubric_words.len() < MIN_RUBRIC_WORDS).then(|| {
        Finding::question(
            id,
            format!(
                "the rubric has {} words, too few to grade against: list the concrete claims a full answer makes",
                rubric_words.len()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::parse_quiz;

    fn quiz(questions: &str) -> Quiz {
        parse_quiz(&format!(
            r#"{{"version": "1", "pr_number": 1, "questions": [{questions}]}}"#
        ))
        .unwrap()
    }

    fn texts(q: &Quiz) -> Vec<String> {
        check(q).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_sound_pair_passes() {
        let q = quiz(
            r#"{"type": "tf", "id": "q1", "prompt": "p is true", "answer": true, "explanation": "e"},
               {"type": "open", "id": "q2", "prompt": "Why retry?", "rubric": "Retrying covers a dropped connection; the second try uses a fresh socket."}"#,
        );
        assert_eq!(texts(&q), Vec::<String>::new());
    }

    #[test]
    fn each_rule_is_named() {
        let q = quiz(
            r#"{"type": "mcq", "id": "q1", "prompt": "p", "options": ["a", "b", "A"], "answer": "c"},
               {"type": "mcq", "id": "q1", "prompt": "p", "options": ["x", "y"], "answer": "x", "explanation": "e"},
               {"type": "open", "id": "q3", "prompt": "Why does the cache key include the head?", "rubric": "the cache key includes the head"},
               {"type": "open", "id": "q4", "prompt": "Why?", "rubric": "Because it is."},
               {"type": "open", "id": "q5", "prompt": "Why?", "rubric": " "}"#,
        );
        assert_eq!(
            texts(&q),
            [
                "question q1: the id is used by 2 questions: give each question its own id",
                "question q1, option 3: it says the same as option 1: each option must differ",
                "question q1: the answer \"c\" is not one of the options: it must be one option's exact text",
                "question q1: no explanation: add one sentence saying why the answer is right",
                "question q1: it has 2 options: give 3 (a 4th only for a real misconception)",
                "question q3: the rubric repeats the prompt: list the claims a full answer makes, not the question",
                "question q4: the rubric has 3 words, too few to grade against: list the concrete claims a full answer makes",
                "question q5: the rubric is empty: list the concrete claims a full answer makes",
            ]
        );
    }

    #[test]
    fn counts_of_questions() {
        let one = quiz(
            r#"{"type": "tf", "id": "q1", "prompt": "p", "answer": true, "explanation": "e"}"#,
        );
        assert_eq!(
            texts(&one),
            ["the quiz: it has 1 question: write 2 to 10, by the size of the change"]
        );
    }
}
