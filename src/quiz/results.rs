//! The results state the taker posts back (wire version "1").

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::error::FormatError;
use super::wire::{take_pr_number, take_version, to_pretty_json};

/// Score at or above which an open answer counts as correct.
pub const OPEN_PASS_SCORE: u32 = 75;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Results {
    pub pr_number: u64,
    /// Floor of the mean of every counted question's score; pending ones count 0 until graded.
    pub total_score: u32,
    pub per_question: Vec<QuestionResult>,
    /// Open answers that wait for a grader: not scored yet, never posted as a score.
    pub pending: Vec<String>,
    /// Questions left out of the total, with the reason (an unsupported type).
    pub not_counted: Vec<NotCounted>,
    pub extra: Map<String, Value>,
}

impl Results {
    /// One outcome per question of `quiz` (quiz order): scored where these results have a
    /// score, pending elsewhere; for grading again only what is still pending.
    pub fn outcomes(&self, quiz: &super::Quiz) -> Vec<super::Outcome> {
        quiz.questions
            .iter()
            .map(|q| {
                self.result(&q.id)
                    .map_or(super::Outcome::Pending, |r| super::Outcome::Scored {
                        score: r.score.min(100),
                        feedback: r.feedback.clone(),
                    })
            })
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionResult {
    pub question_id: String,
    pub correct: bool,
    pub score: u32,
    #[serde(default)]
    pub feedback: String,
    /// How sure the taker said they were, 1–5, when they rated it (practice mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<u8>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A rating that did not match the outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Calibration {
    /// Rated 4–5, and wrong.
    ConfidentButWrong,
    /// Rated 1–2, and right.
    RightButUnsure,
}

impl Calibration {
    pub fn label(self) -> &'static str {
        match self {
            Self::ConfidentButWrong => "confident but wrong",
            Self::RightButUnsure => "right but unsure",
        }
    }
}

impl QuestionResult {
    pub fn calibration(&self) -> Option<Calibration> {
        match (self.confidence?, self.correct) {
            (4..=5, false) => Some(Calibration::ConfidentButWrong),
            (1..=2, true) => Some(Calibration::RightButUnsure),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotCounted {
    pub question_id: String,
    pub reason: String,
}

#[derive(Deserialize)]
struct Body {
    #[serde(default)]
    total_score: u32,
    per_question: Vec<QuestionResult>,
    #[serde(default)]
    pending: Vec<String>,
    #[serde(default)]
    not_counted: Vec<NotCounted>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

impl Results {
    pub fn parse(json: &str) -> Result<Self, FormatError> {
        Self::from_value(serde_json::from_str(json)?)
    }

    pub fn from_value(value: Value) -> Result<Self, FormatError> {
        let Value::Object(mut map) = value else {
            return Err(FormatError::shape("results", "expected a JSON object"));
        };
        take_version(&mut map, "results")?;
        let pr_number = take_pr_number(&mut map, "results")?;
        let body: Body = serde_json::from_value(Value::Object(map))
            .map_err(|e| FormatError::shape("results", e.to_string()))?;
        Ok(Self {
            pr_number,
            total_score: body.total_score,
            per_question: body.per_question,
            pending: body.pending,
            not_counted: body.not_counted,
            extra: body.extra,
        })
    }

    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("version".into(), Value::from("1"));
        map.insert("pr_number".into(), Value::from(self.pr_number));
        map.insert("total_score".into(), Value::from(self.total_score));
        map.insert(
            "per_question".into(),
            serde_json::to_value(&self.per_question).unwrap_or(Value::Array(Vec::new())),
        );
        if !self.pending.is_empty() {
            map.insert("pending".into(), Value::from(self.pending.clone()));
        }
        if !self.not_counted.is_empty() {
            map.insert(
                "not_counted".into(),
                serde_json::to_value(&self.not_counted).unwrap_or(Value::Array(Vec::new())),
            );
        }
        super::wire::extend_missing(&mut map, &self.extra);
        Value::Object(map)
    }

    pub fn to_pretty_json(&self) -> String {
        to_pretty_json(&self.to_value())
    }

    pub fn result(&self, id: &str) -> Option<&QuestionResult> {
        self.per_question.iter().find(|r| r.question_id == id)
    }

    /// Puts the taker's ratings (question id → 1–5) on the questions they rated.
    pub fn set_confidence(&mut self, ratings: &std::collections::BTreeMap<String, u8>) {
        for r in &mut self.per_question {
            r.confidence = ratings
                .get(&r.question_id)
                .copied()
                .filter(|c| (1..=5).contains(c));
        }
    }

    /// How the ratings matched the outcome: `(confident but wrong, right but unsure)`.
    pub fn calibration(&self) -> (Vec<&str>, Vec<&str>) {
        let mut overconfident = Vec::new();
        let mut unsure = Vec::new();
        for r in &self.per_question {
            match (r.calibration(), r.question_id.as_str()) {
                (Some(Calibration::ConfidentButWrong), id) => overconfident.push(id),
                (Some(Calibration::RightButUnsure), id) => unsure.push(id),
                _ => {}
            }
        }
        (overconfident, unsure)
    }

    /// `Calibration: 1 confident but wrong · 2 right but unsure`, when anything was rated.
    pub fn calibration_line(&self) -> Option<String> {
        if self.per_question.iter().all(|r| r.confidence.is_none()) {
            return None;
        }
        let (over, unsure) = self.calibration();
        Some(format!(
            "Calibration: {} confident but wrong · {} right but unsure",
            over.len(),
            unsure.len()
        ))
    }

    /// Whether every counted question has its score (nothing waits for a grader).
    pub fn is_final(&self) -> bool {
        self.pending.is_empty()
    }
}
