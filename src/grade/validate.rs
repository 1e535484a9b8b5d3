//! The one validator every backend's output goes through: model output is untrusted.

use serde_json::Value;

use crate::quiz::OpenGrade;

/// Feedback longer than this is cut (a grade's feedback is one or two sentences).
pub const MAX_FEEDBACK_CHARS: usize = 1000;

/// Checks a grade against the schema of [`grade_schema`](super::grade_schema) and returns
/// it with its feedback made safe to print; the error says what is wrong, in words a model
/// can act on.
pub fn validate_grade(value: &Value) -> Result<OpenGrade, String> {
    let Value::Object(map) = value else {
        return Err(format!(
            "expected an object {{\"score\", \"feedback\"}}, got {}",
            kind(value)
        ));
    };
    let mut extra: Vec<&str> = map
        .keys()
        .map(String::as_str)
        .filter(|k| !matches!(*k, "score" | "feedback"))
        .collect();
    if !extra.is_empty() {
        extra.sort_unstable();
        return Err(format!(
            "unexpected field(s) {}: only \"score\" and \"feedback\" are allowed",
            extra.join(", ")
        ));
    }
    let score = match map.get("score") {
        None => return Err("missing field \"score\" (an integer from 0 to 100)".into()),
        Some(Value::Number(n)) => {
            if let Some(i) = n.as_i64() {
                i
            } else if n.as_u64().is_some() {
                return Err(format!("score {n} is out of range: it must be 0 to 100"));
            } else {
                return Err(format!(
                    "score {n} is not an integer: give a whole number from 0 to 100"
                ));
            }
        }
        Some(other) => {
            return Err(format!(
                "score must be an integer from 0 to 100, got {}",
                kind(other)
            ));
        }
    };
    let score = u32::try_from(score)
        .ok()
        .filter(|s| *s <= 100)
        .ok_or_else(|| format!("score {score} is out of range: it must be 0 to 100"))?;
    let feedback = match map.get("feedback") {
        None => return Err("missing field \"feedback\" (one or two sentences)".into()),
        Some(Value::String(s)) => s,
        Some(other) => return Err(format!("feedback must be a string, got {}", kind(other))),
    };
    let clean = crate::text::sanitize(feedback.trim());
    Ok(OpenGrade {
        score,
        feedback: crate::llm::clip(clean.trim(), MAX_FEEDBACK_CHARS),
    })
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn accepts_a_grade_and_cleans_its_feedback() {
        let g = validate_grade(&json!({"score": 80, "feedback": " ok \u{1b}[31mred "})).unwrap();
        assert_eq!(g.score, 80);
        assert_eq!(g.feedback, "ok red");
        assert_eq!(
            validate_grade(&json!({"score": 0, "feedback": ""}))
                .unwrap()
                .score,
            0
        );
        assert_eq!(
            validate_grade(&json!({"score": 100, "feedback": "x"}))
                .unwrap()
                .score,
            100
        );
    }

    #[test]
    fn rejects_what_the_schema_does_not_allow() {
        let cases = [
            (json!({"score": 150, "feedback": "x"}), "out of range"),
            (json!({"score": -5, "feedback": "x"}), "out of range"),
            (json!({"score": 101, "feedback": "x"}), "out of range"),
            (
                json!({"score": 18_446_744_073_709_551_615_u64, "feedback": "x"}),
                "out of range",
            ),
            (json!({"score": 80.5, "feedback": "x"}), "not an integer"),
            (json!({"score": 80.0, "feedback": "x"}), "not an integer"),
            (
                json!({"score": "80", "feedback": "x"}),
                "must be an integer",
            ),
            (json!({"feedback": "x"}), "missing field \"score\""),
            (json!({"score": 80}), "missing field \"feedback\""),
            (
                json!({"score": 80, "feedback": "x", "correct": true}),
                "unexpected field(s) correct",
            ),
            (json!({"score": 80, "feedback": 3}), "must be a string"),
            (json!([80, "x"]), "expected an object"),
        ];
        for (value, why) in cases {
            let err = validate_grade(&value).unwrap_err();
            assert!(err.contains(why), "{value} -> {err}");
        }
    }

    #[test]
    fn long_feedback_is_cut() {
        let long = "a".repeat(MAX_FEEDBACK_CHARS + 50);
        let g = validate_grade(&json!({"score": 1, "feedback": long})).unwrap();
        assert_eq!(g.feedback.chars().count(), MAX_FEEDBACK_CHARS + 1);
    }
}
