//! What the model answers in: the input of a `submit_quiz` tool, a schema of its own (not
//! the wire format). Each question type is an object with a constant `type`, every field
//! required, no other properties; the four diagrams are the fixed properties `A`–`D`; an
//! anchor is an object or `null`. It stays inside the subset both backends' structured
//! output accepts (no numeric or length bounds, no `minItems` above 1): counts and
//! cross-field rules are checked in Rust (`checks`).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::finding::Finding;

/// The tool the Messages API is forced to call; its input is [`Draft`].
pub const TOOL_NAME: &str = "submit_quiz";

/// The labels of a diagram question's four options, in order.
pub const LABELS: [&str; 4] = ["A", "B", "C", "D"];

/// A quiz as the model writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    pub questions: Vec<DraftQuestion>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum DraftQuestion {
    Mcq {
        id: String,
        prompt: String,
        options: Vec<String>,
        /// The right option's text.
        answer: String,
        explanation: String,
        anchor: Option<DraftAnchor>,
    },
    Tf {
        id: String,
        prompt: String,
        answer: bool,
        explanation: String,
        anchor: Option<DraftAnchor>,
    },
    Open {
        id: String,
        prompt: String,
        /// The claims a full answer makes, one each.
        rubric: Vec<String>,
        anchor: Option<DraftAnchor>,
    },
    Mermaid {
        id: String,
        prompt: String,
        options: DiagramOptions,
        /// `A`, `B`, `C` or `D`.
        answer: String,
        explanation: String,
        anchor: Option<DraftAnchor>,
    },
}

/// The four diagrams of a question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[allow(non_snake_case)] // the labels the taker sees
pub struct DiagramOptions {
    pub A: String,
    pub B: String,
    pub C: String,
    pub D: String,
}

impl DiagramOptions {
    /// (label, source) in label order.
    pub fn labelled(&self) -> [(&'static str, &str); 4] {
        [
            ("A", &self.A),
            ("B", &self.B),
            ("C", &self.C),
            ("D", &self.D),
        ]
    }
}

/// New-side lines of a changed file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftAnchor {
    pub path: String,
    /// Signed so that a model's 0 or -1 is read, and then refused by a check that says so.
    pub start_line: i64,
    pub end_line: i64,
}

impl DraftQuestion {
    pub fn id(&self) -> &str {
        match self {
            Self::Mcq { id, .. }
            | Self::Tf { id, .. }
            | Self::Open { id, .. }
            | Self::Mermaid { id, .. } => id,
        }
    }

    pub fn anchor(&self) -> Option<&DraftAnchor> {
        match self {
            Self::Mcq { anchor, .. }
            | Self::Tf { anchor, .. }
            | Self::Open { anchor, .. }
            | Self::Mermaid { anchor, .. } => anchor.as_ref(),
        }
    }
}

fn text() -> Value {
    json!({ "type": "string" })
}

pub(crate) fn anchor() -> Value {
    json!({
        "anyOf": [
            {
                "type": "object",
                "description": "New-side lines (1-based, inclusive) of one changed file the question is about.",
                "properties": {
                    "path": { "type": "string", "description": "The file's path as the change lists it." },
                    "start_line": { "type": "integer" },
                    "end_line": { "type": "integer" }
                },
                "required": ["path", "start_line", "end_line"],
                "additionalProperties": false
            },
            { "type": "null" }
        ]
    })
}

/// One question type: `type` constant, every field required, nothing else allowed.
fn question(kind: &str, description: &str, fields: &[(&str, Value)]) -> Value {
    let mut properties = serde_json::Map::new();
    properties.insert("type".into(), json!({ "type": "string", "const": kind }));
    properties.insert(
        "id".into(),
        json!({ "type": "string", "description": "Unique in the quiz: q1, q2, ..." }),
    );
    properties.insert(
        "prompt".into(),
        json!({ "type": "string", "description": "The question, in markdown." }),
    );
    for (name, schema) in fields {
        properties.insert((*name).to_string(), schema.clone());
    }
    properties.insert("anchor".into(), anchor());
    let required: Vec<&String> = properties.keys().collect();
    json!({
        "type": "object",
        "description": description,
        "properties": properties,
        "required": required,
        "additionalProperties": false
    })
}

/// A question's type, as the schema and a plan's slots name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum QuestionType {
    Mcq,
    Tf,
    Open,
    Mermaid,
}

impl QuestionType {
    pub const ALL: [Self; 4] = [Self::Mcq, Self::Tf, Self::Open, Self::Mermaid];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Mcq => "mcq",
            Self::Tf => "tf",
            Self::Open => "open",
            Self::Mermaid => "mermaid",
        }
    }
}

/// The JSON Schema of one question of type `kind`, as `submit_quiz` holds it.
pub fn question_schema(kind: QuestionType) -> Value {
    let explanation =
        json!({ "type": "string", "description": "One sentence: why the answer is right." });
    let diagram = json!({ "type": "string", "description": "Mermaid source of one diagram." });
    match kind {
        QuestionType::Mcq => question(
            "mcq",
            "Multiple choice: 3 options (4 only for a real misconception), the answer being one option's exact text.",
            &[
                ("options", json!({ "type": "array", "items": text() })),
                (
                    "answer",
                    json!({ "type": "string", "description": "The right option's exact text." }),
                ),
                ("explanation", explanation),
            ],
        ),
        QuestionType::Tf => question(
            "tf",
            "A statement that is true or false.",
            &[
                ("answer", json!({ "type": "boolean" })),
                ("explanation", explanation),
            ],
        ),
        QuestionType::Open => question(
            "open",
            "A free-text question, graded against its rubric.",
            &[(
                "rubric",
                json!({
                    "type": "array",
                    "items": text(),
                    "description": "The concrete claims a full answer makes, one each."
                }),
            )],
        ),
        QuestionType::Mermaid => question(
            "mermaid",
            "Pick the diagram: four diagrams of one kind and direction, one right.",
            &[
                (
                    "options",
                    json!({
                        "type": "object",
                        "properties": { "A": diagram, "B": diagram, "C": diagram, "D": diagram },
                        "required": LABELS,
                        "additionalProperties": false
                    }),
                ),
                ("answer", json!({ "type": "string", "enum": LABELS })),
                ("explanation", explanation),
            ],
        ),
    }
}

/// One question of type `kind` with no `id` (quizz gives it one): what a drafter submits.
pub fn drafted_question_schema(kind: QuestionType) -> Value {
    let mut schema = question_schema(kind);
    if let Some(properties) = schema["properties"].as_object_mut() {
        properties.shift_remove("id");
    }
    if let Some(required) = schema["required"].as_array_mut() {
        required.retain(|r| r != "id");
    }
    schema
}

/// The JSON Schema of the `submit_quiz` input.
pub fn submit_quiz_schema() -> Value {
    let items: Vec<Value> = QuestionType::ALL.into_iter().map(question_schema).collect();
    json!({
        "type": "object",
        "properties": {
            "questions": {
                "type": "array",
                "items": { "anyOf": items }
            }
        },
        "required": ["questions"],
        "additionalProperties": false
    })
}

/// Reads the model's answer, saying for each question what is wrong with its shape (the
/// words a repair round sends back). Never panics, whatever the JSON.
pub fn parse_draft(value: &Value) -> Result<Draft, Vec<Finding>> {
    let Some(questions) = value.get("questions") else {
        return Err(vec![Finding::quiz(
            "the answer has no \"questions\" array: submit {\"questions\": [...]}",
        )]);
    };
    let Some(items) = questions.as_array() else {
        return Err(vec![Finding::quiz(
            "\"questions\" must be an array of questions",
        )]);
    };
    let mut parsed = Vec::with_capacity(items.len());
    let mut findings = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = item
            .get("id")
            .and_then(Value::as_str)
            .filter(|id| !id.trim().is_empty())
            .map_or_else(|| format!("#{}", i + 1), str::to_string);
        match item.get("type").and_then(Value::as_str) {
            Some("mcq" | "tf" | "open" | "mermaid") => {}
            Some(other) => {
                findings.push(Finding::question(
                    &at,
                    format!("type {other:?} is not one of mcq, tf, open, mermaid"),
                ));
                continue;
            }
            None => {
                findings.push(Finding::question(
                    &at,
                    "no \"type\" (one of mcq, tf, open, mermaid)",
                ));
                continue;
            }
        }
        match serde_json::from_value::<DraftQuestion>(item.clone()) {
            Ok(q) => parsed.push(q),
            Err(e) => findings.push(Finding::question(&at, shape_message(&e))),
        }
    }
    if findings.is_empty() {
        Ok(Draft { questions: parsed })
    } else {
        Err(findings)
    }
}

/// serde's reason, with what a tf answer must be spelled out (models send "true").
fn shape_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    if text.contains("expected a boolean") {
        return format!("{text}: a tf answer is the JSON boolean true or false, not a string");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every object of the schema closes its properties and requires all of them; no
    /// keyword outside the structured-output subset appears.
    #[test]
    fn the_schema_stays_in_the_structured_output_subset() {
        fn walk(v: &Value, path: &str) {
            match v {
                Value::Object(map) => {
                    for banned in [
                        "minimum",
                        "maximum",
                        "exclusiveMinimum",
                        "exclusiveMaximum",
                        "minLength",
                        "maxLength",
                        "maxItems",
                        "pattern",
                        "$ref",
                        "oneOf",
                    ] {
                        assert!(!map.contains_key(banned), "{path}: {banned}");
                    }
                    if let Some(n) = map.get("minItems") {
                        assert!(n.as_u64() <= Some(1), "{path}: minItems {n}");
                    }
                    if map.get("type") == Some(&json!("object")) {
                        assert_eq!(
                            map.get("additionalProperties"),
                            Some(&json!(false)),
                            "{path}"
                        );
                        let props: Vec<&String> =
                            map["properties"].as_object().unwrap().keys().collect();
                        let required: Vec<&str> = map["required"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|r| r.as_str().unwrap())
                            .collect();
                        assert_eq!(props, required, "{path}: every field required");
                    }
                    for (k, v) in map {
                        walk(v, &format!("{path}/{k}"));
                    }
                }
                Value::Array(items) => {
                    for (i, v) in items.iter().enumerate() {
                        walk(v, &format!("{path}/{i}"));
                    }
                }
                _ => {}
            }
        }
        walk(&submit_quiz_schema(), "");
        for kind in QuestionType::ALL {
            let drafted = drafted_question_schema(kind);
            walk(&drafted, kind.as_str());
            assert!(drafted["properties"].get("id").is_none(), "quizz gives ids");
            assert_eq!(drafted["properties"]["type"]["const"], kind.as_str());
        }
    }

    fn sample() -> Value {
        json!({"questions": [
            {"type": "mcq", "id": "q1", "prompt": "p", "options": ["a", "b", "c"], "answer": "a",
             "explanation": "e", "anchor": {"path": "src/a.rs", "start_line": 1, "end_line": 2}},
            {"type": "tf", "id": "q2", "prompt": "p", "answer": false, "explanation": "e", "anchor": null},
            {"type": "open", "id": "q3", "prompt": "p", "rubric": ["c1", "c2"], "anchor": null},
            {"type": "mermaid", "id": "q4", "prompt": "p",
             "options": {"A": "graph TD\nA-->B", "B": "graph TD\nB-->A", "C": "graph TD\nA-.->B", "D": "graph TD\nA==>B"},
             "answer": "C", "explanation": "e", "anchor": null}
        ]})
    }

    #[test]
    fn a_draft_in_the_schema_parses() {
        let draft = parse_draft(&sample()).unwrap();
        assert_eq!(draft.questions.len(), 4);
        assert_eq!(draft.questions[0].anchor().unwrap().end_line, 2);
        assert_eq!(serde_json::to_value(&draft).unwrap(), sample());
    }

    #[test]
    fn shape_errors_name_each_question() {
        let mut v = sample();
        v["questions"][1]["answer"] = json!("false");
        v["questions"][2]["type"] = json!("essay");
        v["questions"][3]["options"]
            .as_object_mut()
            .unwrap()
            .remove("D");
        let findings: Vec<String> = parse_draft(&v)
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(findings.len(), 3, "{findings:?}");
        assert!(
            findings[0].starts_with("question q2: invalid type: string \"false\""),
            "{findings:?}"
        );
        assert!(findings[0].contains("JSON boolean"), "{findings:?}");
        assert!(
            findings[1].contains("\"essay\" is not one of"),
            "{findings:?}"
        );
        assert!(findings[2].contains("missing field `D`"), "{findings:?}");
        let none = parse_draft(&json!([1, 2])).unwrap_err();
        assert!(none[0].to_string().contains("no \"questions\""));
    }
}
