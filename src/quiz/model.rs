//! The quiz as the bot posts it (wire version "1"), with room for what later bots add.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The only wire version this taker understands.
pub const WIRE_VERSION: &str = "1";

/// A whole quiz: what the `Quiz state` block of a bot comment holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Quiz {
    pub version: String,
    pub pr_number: u64,
    pub questions: Vec<Question>,
    /// Top-level fields this version does not know, kept for the round trip.
    pub extra: Map<String, Value>,
}

/// One question; the kind-specific part lives in [`QuestionKind`].
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    pub id: String,
    pub prompt: String,
    pub kind: QuestionKind,
    pub explanation: Option<String>,
    pub anchor: Option<Anchor>,
    /// Fields this version does not know (for an unsupported type: all but type/id/prompt).
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum QuestionKind {
    /// Multiple choice; `answer` is the option's text, not its index.
    Mcq {
        options: Vec<String>,
        answer: String,
    },
    TrueFalse {
        answer: bool,
    },
    /// Free text graded against `rubric`.
    Open {
        rubric: String,
    },
    /// Pick the diagram; `options` keeps the wire order of labels (usually A–D).
    Mermaid {
        options: Vec<MermaidOption>,
        answer: String,
    },
    /// A `type` this taker does not know: shown, never answered, not counted.
    Unsupported {
        type_name: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MermaidOption {
    pub label: String,
    pub source: String,
}

/// Where in the change a question points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Anchor {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl QuestionKind {
    /// The wire `type` tag.
    pub fn type_name(&self) -> &str {
        match self {
            Self::Mcq { .. } => "mcq",
            Self::TrueFalse { .. } => "tf",
            Self::Open { .. } => "open",
            Self::Mermaid { .. } => "mermaid",
            Self::Unsupported { type_name } => type_name,
        }
    }

    /// The answer a taker must give to score, in the answers' value form.
    pub fn expected_value(&self) -> Option<String> {
        match self {
            Self::Mcq { answer, .. } | Self::Mermaid { answer, .. } => Some(answer.clone()),
            Self::TrueFalse { answer } => Some(answer.to_string()),
            Self::Open { .. } | Self::Unsupported { .. } => None,
        }
    }

    /// Whether the question is graded without a model.
    pub fn is_closed(&self) -> bool {
        matches!(
            self,
            Self::Mcq { .. } | Self::TrueFalse { .. } | Self::Mermaid { .. }
        )
    }
}

impl Question {
    /// The options a taker chooses from, as (key, text) pairs: mcq numbered from 1,
    /// tf `true`/`false`, mermaid by label. Empty for open and unsupported questions.
    pub fn choices(&self) -> Vec<(String, &str)> {
        match &self.kind {
            QuestionKind::Mcq { options, .. } => options
                .iter()
                .enumerate()
                .map(|(i, o)| ((i + 1).to_string(), o.as_str()))
                .collect(),
            QuestionKind::TrueFalse { .. } => {
                vec![("true".into(), "true"), ("false".into(), "false")]
            }
            QuestionKind::Mermaid { options, .. } => options
                .iter()
                .map(|o| (o.label.clone(), o.source.as_str()))
                .collect(),
            QuestionKind::Open { .. } | QuestionKind::Unsupported { .. } => Vec::new(),
        }
    }
}

impl Quiz {
    pub fn question(&self, id: &str) -> Option<&Question> {
        self.questions.iter().find(|q| q.id == id)
    }

    /// Count of questions per wire type, in first-seen order.
    pub fn count_by_type(&self) -> Vec<(String, usize)> {
        let mut counts: Vec<(String, usize)> = Vec::new();
        for q in &self.questions {
            let name = q.kind.type_name();
            match counts.iter_mut().find(|(n, _)| n == name) {
                Some((_, c)) => *c += 1,
                None => counts.push((name.to_string(), 1)),
            }
        }
        counts
    }
}
