//! What gives an answer away without knowing the code: the right mcq option much longer
//! than the others or repeating the prompt's words, the right diagram bigger than every
//! distractor or laid out unlike them, and diagrams that judge themselves ("correct").

use super::words;
use super::{DIAGRAM_WIDTH, Finding};
use crate::mermaid::{self, Form, RenderOptions, compare};
use crate::quiz::{MermaidOption, Question, QuestionKind};

/// The right option is "much longer" at this many times the distractors' mean length...
const LONGER_RATIO: f64 = 1.5;
/// ... and this many characters more than the longest of them.
const LONGER_BY: usize = 15;
/// The right option repeats this many more of the prompt's words than any distractor.
const ECHO_MARGIN: usize = 2;

/// Words that say which option is right (or wrong); never in a diagram.
const JUDGING: &[&str] = &[
    "correct",
    "correctly",
    "incorrect",
    "incorrectly",
    "wrong",
    "buggy",
    "mistake",
    "distractor",
];

pub fn check(q: &Question) -> Vec<Finding> {
    match &q.kind {
        QuestionKind::Mcq { options, answer } => mcq(&q.id, &q.prompt, options, answer),
        QuestionKind::Mermaid { options, answer } => diagrams(&q.id, options, answer),
        _ => Vec::new(),
    }
}

fn mcq(id: &str, prompt: &str, options: &[String], answer: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    let others: Vec<&String> = options.iter().filter(|o| *o != answer).collect();
    if others.is_empty() || others.len() == options.len() {
        return findings;
    }
    let len = |s: &str| s.chars().count();
    let longest = others.iter().map(|o| len(o)).max().unwrap_or(0);
    #[allow(clippy::cast_precision_loss)] // option lengths are small
    let mean = others.iter().map(|o| len(o)).sum::<usize>() as f64 / others.len() as f64;
    #[allow(clippy::cast_precision_loss)]
    let right = len(answer) as f64;
    if right >= LONGER_RATIO * mean && len(answer) >= longest + LONGER_BY {
        findings.push(Finding::question(
            id,
            format!(
                "the right option is much longer than the others ({} characters, the others {mean:.0} on average): a taker picks the longest; make the options alike in length and detail",
                len(answer)
            ),
        ));
    }
    let asked = words::content(prompt);
    let echo =
        |o: &str| -> Vec<String> { words::content(o).intersection(&asked).cloned().collect() };
    let echoed = echo(answer);
    let most_other = others.iter().map(|o| echo(o).len()).max().unwrap_or(0);
    if echoed.len() >= most_other + ECHO_MARGIN {
        findings.push(Finding::question(
            id,
            format!(
                "the right option repeats the prompt's words ({}) more than any other option: a taker matches words; word the options alike or the answer in its own words",
                echoed.join(", ")
            ),
        ));
    }
    findings
}

fn diagrams(id: &str, options: &[MermaidOption], answer: &str) -> Vec<Finding> {
    let mut findings: Vec<Finding> = options
        .iter()
        .filter_map(|o| {
            let said: Vec<String> = words::all(&o.source)
                .into_iter()
                .filter(|w| JUDGING.contains(&w.as_str()))
                .collect();
            (!said.is_empty()).then(|| {
                Finding::option(
                    id,
                    &o.label,
                    format!(
                        "the diagram says {:?}: never put words that judge an option in a diagram",
                        said[0]
                    ),
                )
            })
        })
        .collect();
    let Some(right) = options.iter().position(|o| o.label == answer) else {
        return findings;
    };
    let size = |o: &MermaidOption| mermaid::outline(&o.source).ok().map(|x| x.nodes + x.edges);
    let sizes: Vec<Option<usize>> = options.iter().map(size).collect();
    if let Some(big) = sizes[right]
        && options.len() > 1
        && sizes
            .iter()
            .enumerate()
            .all(|(i, s)| i == right || s.is_some_and(|s| s < big))
    {
        findings.push(Finding::option(
            id,
            answer,
            format!(
                "the right diagram is bigger than every distractor ({big} nodes and edges): a taker picks the fullest; let a distractor add a step as well as drop one"
            ),
        ));
    }
    findings.extend(laid_out_apart(id, options, right));
    findings
}

/// The right diagram is the one laid out unlike the others (the `d` comparison finds it
/// apart while the distractors compare with each other).
fn laid_out_apart(id: &str, options: &[MermaidOption], right: usize) -> Option<Finding> {
    let opts = RenderOptions {
        width: DIAGRAM_WIDTH,
        ascii: false,
    };
    let sources: Vec<&str> = options.iter().map(|o| o.source.as_str()).collect();
    let drawn = mermaid::render_options(&sources, &opts);
    if options.len() < 3 || drawn.iter().any(|r| r.form != Form::Drawing) {
        return None;
    }
    let apart = compare::differences(&drawn).apart;
    let only_right = apart.iter().enumerate().all(|(i, &a)| a == (i == right));
    only_right.then(|| {
        Finding::option(
            id,
            &options[right].label,
            "the right diagram is laid out unlike all the distractors, which look alike: each distractor should be the right diagram changed in one plausible way",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::parse_quiz;

    fn question(v: &serde_json::Value) -> Question {
        let quiz = serde_json::json!({"version": "1", "pr_number": 1, "questions": [v]});
        parse_quiz(&quiz.to_string()).unwrap().questions.remove(0)
    }

    fn texts(q: &Question) -> Vec<String> {
        check(q).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_long_right_option_is_a_tell() {
        let q = question(
            &serde_json::json!({"type": "mcq", "id": "q1", "prompt": "What does retry() do on a 429?",
            "options": ["It fails", "It waits for the time in retry-after, then sends the same request once more", "It loops"],
            "answer": "It waits for the time in retry-after, then sends the same request once more"}),
        );
        let f = texts(&q);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].starts_with("question q1: the right option is much longer than the others (75 characters, the others 8 on average)"), "{f:?}");
        let fair = question(
            &serde_json::json!({"type": "mcq", "id": "q1", "prompt": "What does retry() do on a 429?",
            "options": ["It fails at once with the status", "It waits out retry-after, then tries once", "It loops until the server answers"],
            "answer": "It waits out retry-after, then tries once"}),
        );
        assert_eq!(texts(&fair), Vec::<String>::new());
    }

    #[test]
    fn the_prompts_words_in_the_answer_are_a_tell() {
        let q = question(&serde_json::json!({"type": "mcq", "id": "q1",
            "prompt": "Which lock does `store_attempt` take before writing the outbox?",
            "options": ["store_attempt takes the outbox lock before writing", "none: a rename is atomic on its own here", "only the index lock git holds for a commit"],
            "answer": "store_attempt takes the outbox lock before writing"}));
        let f = texts(&q);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].contains(
                "repeats the prompt's words (lock, outbox, store_attempt, take, writing)"
            ),
            "{f:?}"
        );
    }

    #[test]
    fn judging_words_and_a_bigger_right_diagram_are_tells() {
        let right =
            "flowchart TD\n    A[parse] --> B[check]\n    B --> C[shuffle]\n    C --> D[cache]";
        let q = question(
            &serde_json::json!({"type": "mermaid", "id": "q2", "prompt": "Which order?", "answer": "B",
            "options": {
                "A": "flowchart TD\n    A[parse] --> B[check]\n    B --> C[cache]",
                "B": right,
                "C": "flowchart TD\n    A[parse] --> C[shuffle]\n    C --> D[cache]",
                "D": "flowchart TD\n    A[parse] --> B[wrong check]\n    B --> D[cache]"
            }}),
        );
        let f = texts(&q);
        assert!(f.contains(&"question q2, option D: the diagram says \"wrong\": never put words that judge an option in a diagram".to_string()), "{f:?}");
        assert!(f.iter().any(|f| f.starts_with("question q2, option B: the right diagram is bigger than every distractor (7 nodes and edges)")), "{f:?}");
    }
}
