//! A diagram question's options as quizz draws them at [`DIAGRAM_WIDTH`] columns: each a
//! picture (not listed, not shown as source), all of one kind and direction, within one
//! node of each other, and pairwise different as drawn.

use super::{DIAGRAM_WIDTH, Finding};
use crate::mermaid::{self, DiagramKind, Form, RenderOptions, compare};
use crate::quiz::{MermaidOption, Question, QuestionKind};

pub fn check(q: &Question) -> Vec<Finding> {
    let QuestionKind::Mermaid { options, .. } = &q.kind else {
        return Vec::new();
    };
    let id = q.id.as_str();
    let opts = RenderOptions {
        width: DIAGRAM_WIDTH,
        ascii: false,
    };
    let mut findings: Vec<Finding> = options
        .iter()
        .filter_map(|o| drawn_alone(id, o, &opts))
        .collect();
    if !findings.is_empty() {
        // Why one option is not drawn says more than how the others compare with it.
        return findings;
    }
    findings.extend(alike(id, options));
    let sources: Vec<&str> = options.iter().map(|o| o.source.as_str()).collect();
    let together = mermaid::render_options(&sources, &opts);
    if together.iter().any(|r| r.form != Form::Drawing) {
        findings.push(Finding::question(
            id,
            format!(
                "each diagram is drawn alone, but not all four together at {DIAGRAM_WIDTH} columns (they would be listed): write them in one direction with labels alike in length"
            ),
        ));
        return findings;
    }
    for i in 0..together.len() {
        for j in i + 1..together.len() {
            let marks = compare::row_marks(&[&together[i].lines, &together[j].lines]);
            if marks.iter().flatten().all(Vec::is_empty) {
                findings.push(Finding::question(
                    id,
                    format!(
                        "options {} and {} are drawn the same: each distractor must differ from the right diagram in one visible way",
                        options[i].label, options[j].label
                    ),
                ));
            }
        }
    }
    findings
}

/// Why an option is not drawn as a picture at the width, if it is not.
fn drawn_alone(id: &str, o: &MermaidOption, opts: &RenderOptions) -> Option<Finding> {
    let r = mermaid::render(&o.source, opts);
    let why = match r.form {
        Form::Drawing => return None,
        Form::Compact => format!(
            "not drawn as a picture at {DIAGRAM_WIDTH} columns: too wide (it would be listed one row per {}); shorten its labels or put fewer nodes side by side",
            if r.kind == DiagramKind::Sequence {
                "message"
            } else {
                "edge"
            }
        ),
        Form::Source => {
            let reason = r.fallback.unwrap_or_default();
            let what = match r.kind {
                DiagramKind::Unsupported | DiagramKind::Unknown => "unsupported kind",
                _ => "syntax",
            };
            format!(
                "not drawn ({what}: {reason}); use flowchart, sequenceDiagram, classDiagram or stateDiagram-v2 with plain syntax"
            )
        }
    };
    Some(Finding::option(id, &o.label, why))
}

/// One kind, one direction, node counts within one of each other.
fn alike(id: &str, options: &[MermaidOption]) -> Vec<Finding> {
    let outlines: Vec<(&str, mermaid::Outline)> = options
        .iter()
        .filter_map(|o| {
            mermaid::outline(&o.source)
                .ok()
                .map(|x| (o.label.as_str(), x))
        })
        .collect();
    let mut findings = Vec::new();
    let listed = |f: &dyn Fn(&mermaid::Outline) -> String| {
        outlines
            .iter()
            .map(|(l, o)| format!("{l}: {}", f(o)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let differ = |f: &dyn Fn(&mermaid::Outline) -> String| {
        outlines.windows(2).any(|w| f(&w[0].1) != f(&w[1].1))
    };
    let kind = |o: &mermaid::Outline| format!("{:?}", o.kind).to_lowercase();
    if differ(&kind) {
        findings.push(Finding::question(
            id,
            format!(
                "the options are of different kinds ({}): draw all four as one kind",
                listed(&kind)
            ),
        ));
        return findings;
    }
    let direction = |o: &mermaid::Outline| o.direction.unwrap_or("-").to_string();
    if differ(&direction) {
        findings.push(Finding::question(
            id,
            format!(
                "the options run in different directions ({}): write all four in one direction",
                listed(&direction)
            ),
        ));
    }
    let nodes = outlines.iter().map(|(_, o)| o.nodes);
    if let (Some(min), Some(max)) = (nodes.clone().min(), nodes.max())
        && max - min > 1
    {
        let noun = if outlines[0].1.kind == DiagramKind::Sequence {
            "participants"
        } else {
            "nodes"
        };
        let counts = |o: &mermaid::Outline| o.nodes.to_string();
        findings.push(Finding::question(
            id,
            format!(
                "the options' {noun} differ by more than one ({}): each distractor changes the right diagram in one way",
                listed(&counts)
            ),
        ));
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::parse_quiz;

    fn question(options: [&str; 4]) -> Question {
        let value = serde_json::json!({"version": "1", "pr_number": 1, "questions": [{
            "type": "mermaid", "id": "q6", "prompt": "Which?", "answer": "A", "explanation": "e",
            "options": {"A": options[0], "B": options[1], "C": options[2], "D": options[3]}
        }]});
        parse_quiz(&value.to_string()).unwrap().questions.remove(0)
    }

    fn texts(q: &Question) -> Vec<String> {
        check(q).iter().map(ToString::to_string).collect()
    }

    const A: &str = "flowchart TD\n    A[read config] --> B{valid?}\n    B -- yes --> C[start]\n    B -- no --> D[exit 2]";
    const B: &str = "flowchart TD\n    A[read config] --> B{valid?}\n    B -- yes --> C[start]\n    B -- no --> D[exit 1]";
    const C: &str = "flowchart TD\n    A[read config] --> B{valid?}\n    B -- yes --> C[start]\n    B -- no --> C";
    const D: &str = "flowchart TD\n    A[read config] --> B{valid?}\n    B -- no --> C[start]\n    B -- yes --> D[exit 2]";

    #[test]
    fn four_good_options_pass() {
        assert_eq!(texts(&question([A, B, C, D])), Vec::<String>::new());
    }

    #[test]
    fn an_option_too_wide_is_named_with_why() {
        // eight long names: too wide even with the boxes in two rows
        let wide = "sequenceDiagram\n    participant Client\n    participant LoadBalancer\n    participant ApplicationServer\n    participant DatabasePrimary\n    participant DatabaseReplica\n    participant CacheCluster\n    participant MetricsCollector\n    participant AuditLogWriter\n    Client->>LoadBalancer: request\n    LoadBalancer->>ApplicationServer: forward\n    ApplicationServer->>DatabasePrimary: write\n    DatabasePrimary->>DatabaseReplica: replicate\n    DatabaseReplica->>CacheCluster: invalidate\n    CacheCluster->>MetricsCollector: count\n    MetricsCollector->>AuditLogWriter: record";
        let f = texts(&question([A, B, wide, D]));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].starts_with("question q6, option C: not drawn as a picture at 75 columns: too wide (it would be listed one row per message)"), "{f:?}");
    }

    #[test]
    fn syntax_and_kind_are_named() {
        let f = texts(&question([
            A,
            "flowchart TD\n    A[x --> ",
            "pie\n    \"a\": 1",
            D,
        ]));
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(
            f[0].starts_with("question q6, option B: not drawn (syntax: "),
            "{f:?}"
        );
        assert!(
            f[1].starts_with("question q6, option C: not drawn (unsupported kind: pie diagrams"),
            "{f:?}"
        );
    }

    #[test]
    fn kinds_directions_sizes_and_sameness() {
        let seq = "sequenceDiagram\n    A->>B: hi";
        let f = texts(&question([A, B, C, seq]));
        assert!(
            f[0].contains(
                "different kinds (A: flowchart, B: flowchart, C: flowchart, D: sequence)"
            ),
            "{f:?}"
        );
        let lr = A.replace("flowchart TD", "flowchart LR");
        let f = texts(&question([A, B, C, &lr]));
        assert!(
            f.iter()
                .any(|f| f.contains("different directions (A: TD, B: TD, C: TD, D: LR)")),
            "{f:?}"
        );
        let small = "flowchart TD\n    A[read config] --> D[exit 2]";
        let f = texts(&question([A, B, small, D]));
        assert!(
            f.iter()
                .any(|f| f.contains("nodes differ by more than one (A: 4, B: 4, C: 2, D: 4)")),
            "{f:?}"
        );
        let f = texts(&question([A, B, C, A]));
        assert_eq!(
            f,
            [
                "question q6: options A and D are drawn the same: each distractor must differ from the right diagram in one visible way"
            ]
        );
    }
}
