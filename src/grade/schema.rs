//! The one output schema every backend asks the model for.

use serde_json::{Value, json};

/// The forced tool of the Messages API backend.
pub const TOOL_NAME: &str = "submit_grade";

/// What the tool is for, as the model reads it.
pub const TOOL_DESCRIPTION: &str = "Submit the grade of the answer: an integer score from 0 to 100 and one or two sentences of feedback.";

/// The grade's shape, for the reminders that ask for it again.
pub const SHAPE: &str =
    "exactly two fields: \"score\", an integer from 0 to 100, and \"feedback\", a string";

/// `{"score": integer 0..100, "feedback": string}`, both required, nothing else.
pub fn grade_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "score": {
                "type": "integer",
                "minimum": 0,
                "maximum": 100,
                "description": "How well the answer meets the rubric, 0 to 100."
            },
            "feedback": {
                "type": "string",
                "description": "One or two sentences: what the answer gets right and what it misses."
            }
        },
        "required": ["score", "feedback"],
        "additionalProperties": false
    })
}
