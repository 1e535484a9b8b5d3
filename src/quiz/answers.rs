//! A taker's answers, in the original's wire model and as a map for quick lookup.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::FormatError;
use super::wire::{take_pr_number, take_version};

/// The `Answers` document: `{"version","pr_number","entries":[{"question_id","value"}]}`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Answers {
    pub pr_number: u64,
    /// question id → value (option text, mermaid label, `"true"`/`"false"`, or free text).
    pub values: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    question_id: String,
    value: String,
}

impl Answers {
    pub fn parse(json: &str) -> Result<Self, FormatError> {
        let Value::Object(mut map) = serde_json::from_str::<Value>(json)? else {
            return Err(FormatError::shape("answers", "expected a JSON object"));
        };
        take_version(&mut map, "answers")?;
        let pr_number = take_pr_number(&mut map, "answers")?;
        let entries: Vec<Entry> = match map.remove("entries") {
            Some(v) => serde_json::from_value(v)
                .map_err(|e| FormatError::shape("answers \"entries\"", e.to_string()))?,
            None => return Err(FormatError::shape("answers", "missing field \"entries\"")),
        };
        let values = entries
            .into_iter()
            .map(|e| (e.question_id, e.value))
            .collect();
        Ok(Self { pr_number, values })
    }

    pub fn to_value(&self) -> Value {
        let entries: Vec<Value> = self
            .values
            .iter()
            .map(|(k, v)| serde_json::json!({ "question_id": k, "value": v }))
            .collect();
        serde_json::json!({ "version": "1", "pr_number": self.pr_number, "entries": entries })
    }

    /// The answer to `id`, if one was given and is not blank.
    pub fn get(&self, id: &str) -> Option<&str> {
        self.values
            .get(id)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    }
}
