//! Models put the right answer first most of the time: after a quiz passes its checks,
//! its mcq options and its diagrams' labels are shuffled, uniformly, from a seed (the same
//! seed, the same quiz: a cached quiz reads the same twice).

use crate::quiz::{MermaidOption, Question, QuestionKind, Quiz};

/// Shuffles every mcq's options and which diagram sits under which label; the answers
/// follow (an mcq answer is its option's text; a diagram answer is relabelled).
pub fn shuffle(quiz: &mut Quiz, seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    for q in &mut quiz.questions {
        shuffle_with(q, &mut rng);
    }
}

/// [`shuffle`] for one question on its own (a question drafted alone is shuffled as it
/// passes its checks, from a seed of its own).
pub fn shuffle_question(q: &mut Question, seed: u64) {
    shuffle_with(q, &mut fastrand::Rng::with_seed(seed));
}

fn shuffle_with(q: &mut Question, rng: &mut fastrand::Rng) {
    match &mut q.kind {
        QuestionKind::Mcq { options, .. } => rng.shuffle(options),
        QuestionKind::Mermaid { options, answer } => {
            let mut order: Vec<usize> = (0..options.len()).collect();
            rng.shuffle(&mut order);
            let right = options.iter().position(|o| &o.label == answer);
            let shuffled: Vec<MermaidOption> = order
                .iter()
                .zip(options.iter())
                .map(|(&from, slot)| MermaidOption {
                    label: slot.label.clone(),
                    source: options[from].source.clone(),
                })
                .collect();
            if let Some(right) = right
                && let Some(at) = order.iter().position(|&from| from == right)
            {
                answer.clone_from(&shuffled[at].label);
            }
            *options = shuffled;
        }
        QuestionKind::TrueFalse { .. }
        | QuestionKind::Open { .. }
        | QuestionKind::Unsupported { .. } => {}
    }
}

/// A seed from a hex digest (the change's, or the quiz's): its first 16 digits.
pub fn seed_from(digest: &str) -> u64 {
    digest
        .get(..16)
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::parse_quiz;

    fn quiz() -> Quiz {
        parse_quiz(
            r#"{"version": "1", "pr_number": 1, "questions": [
                {"type": "mcq", "id": "q1", "prompt": "p", "options": ["right", "b", "c", "d"], "answer": "right"},
                {"type": "mcq", "id": "q2", "prompt": "p", "options": ["right", "b", "c"], "answer": "right"},
                {"type": "mermaid", "id": "q3", "prompt": "p", "answer": "A",
                 "options": {"A": "graph TD\nR-->S", "B": "b", "C": "c", "D": "d"}}
            ]}"#,
        )
        .unwrap()
    }

    /// Where the right answer lands, per question, over `n` shuffles (seeds 0..n).
    fn positions(n: u64) -> Vec<Vec<u32>> {
        let mut counts = vec![vec![0u32; 4], vec![0u32; 3], vec![0u32; 4]];
        for seed in 0..n {
            let mut q = quiz();
            shuffle(&mut q, seed);
            for (i, question) in q.questions.iter().enumerate() {
                let at = match &question.kind {
                    QuestionKind::Mcq { options, answer } => {
                        assert!(options.contains(answer));
                        options.iter().position(|o| o == answer)
                    }
                    QuestionKind::Mermaid { options, answer } => {
                        let right = options.iter().find(|o| &o.label == answer).unwrap();
                        assert_eq!(
                            right.source, "graph TD\nR-->S",
                            "the answer follows its diagram"
                        );
                        let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
                        assert_eq!(labels, ["A", "B", "C", "D"], "labels stay in order");
                        options.iter().position(|o| &o.label == answer)
                    }
                    _ => None,
                };
                counts[i][at.unwrap()] += 1;
            }
        }
        counts
    }

    /// 1,000 shuffles put the right answer in each position about equally: a chi-square
    /// statistic under 20 (p < 0.0005 at 3 degrees of freedom; fixed seeds, so no flake),
    /// where answers left first would score 3,000.
    #[test]
    fn the_right_answer_lands_in_each_position_about_equally() {
        for (i, counts) in positions(1000).iter().enumerate() {
            let expected = 1000.0 / f64::from(u32::try_from(counts.len()).unwrap());
            let chi: f64 = counts
                .iter()
                .map(|&c| (f64::from(c) - expected).powi(2) / expected)
                .sum();
            assert!(chi < 20.0, "question {i}: {counts:?} (chi-square {chi:.1})");
            assert!(counts.iter().all(|&c| c > 0));
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_quiz() {
        let (mut a, mut b) = (quiz(), quiz());
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_eq!(seed_from("00000000000000ffzz"), 255);
    }
}
