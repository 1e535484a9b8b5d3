//! JSON ⇄ model, by hand: the wire is lax in places (a string `pr_number`, a missing
//! `version`, unknown types) and every error must name the question it is about.

use serde_json::{Map, Value};

use super::error::FormatError;
use super::model::{Anchor, MermaidOption, Question, QuestionKind, Quiz, WIRE_VERSION};

/// Parses a quiz state from JSON text (no validation beyond shape; see `validate`).
pub fn parse_quiz(json: &str) -> Result<Quiz, FormatError> {
    let value: Value = serde_json::from_str(json)?;
    quiz_from_value(value)
}

pub fn quiz_from_value(value: Value) -> Result<Quiz, FormatError> {
    let Value::Object(mut map) = value else {
        return Err(FormatError::shape("quiz", "expected a JSON object"));
    };
    let version = take_version(&mut map, "quiz")?;
    let pr_number = take_pr_number(&mut map, "quiz")?;
    let questions = match map.remove("questions") {
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| question_from_value(i, v))
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(FormatError::shape("quiz", "\"questions\" must be an array")),
        None => return Err(FormatError::shape("quiz", "missing field \"questions\"")),
    };
    Ok(Quiz {
        version,
        pr_number,
        questions,
        extra: map,
    })
}

/// `version` may be missing (means "1") or a number in lax producers.
pub(crate) fn take_version(map: &mut Map<String, Value>, at: &str) -> Result<String, FormatError> {
    let version = match map.remove("version") {
        None | Some(Value::Null) => WIRE_VERSION.to_string(),
        Some(Value::String(s)) => s,
        Some(Value::Number(n)) => n.to_string(),
        Some(_) => return Err(FormatError::shape(at, "\"version\" must be a string")),
    };
    if version != WIRE_VERSION {
        return Err(FormatError::Version { found: version });
    }
    Ok(version)
}

/// `pr_number` may arrive as a string of digits from lax producers; missing means 0 (a local quiz).
pub(crate) fn take_pr_number(map: &mut Map<String, Value>, at: &str) -> Result<u64, FormatError> {
    match map.remove("pr_number") {
        None | Some(Value::Null) => Ok(0),
        Some(Value::Number(n)) => n
            .as_u64()
            .ok_or_else(|| FormatError::shape(at, "\"pr_number\" must be a whole number >= 0")),
        Some(Value::String(s)) => s
            .trim()
            .trim_start_matches('#')
            .parse()
            .map_err(|_| FormatError::shape(at, format!("\"pr_number\" {s:?} is not a number"))),
        Some(_) => Err(FormatError::shape(at, "\"pr_number\" must be a number")),
    }
}

fn question_from_value(index: usize, value: Value) -> Result<Question, FormatError> {
    let at_index = format!("question {}", index + 1);
    let Value::Object(mut map) = value else {
        return Err(FormatError::shape(at_index, "expected a JSON object"));
    };
    let id = match map.remove("id") {
        Some(Value::String(s)) => s,
        Some(Value::Number(n)) => n.to_string(),
        Some(_) => return Err(FormatError::shape(at_index, "\"id\" must be a string")),
        None => return Err(FormatError::shape(at_index, "missing field \"id\"")),
    };
    let at = format!("question {} (id {id:?})", index + 1);
    let type_name = take_string(&mut map, "type", &at)?;
    let prompt = take_string(&mut map, "prompt", &at)?;
    let explanation = take_optional_string(&mut map, "explanation", &at)?;
    let anchor = match map.remove("anchor") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            serde_json::from_value::<Anchor>(v)
                .map_err(|e| FormatError::shape(&at, format!("\"anchor\": {e}")))?,
        ),
    };
    let kind = match type_name.as_str() {
        "mcq" => {
            let options = match map.remove("options") {
                Some(Value::Array(items)) => items
                    .into_iter()
                    .map(|o| match o {
                        Value::String(s) => Ok(s),
                        _ => Err(FormatError::shape(&at, "every mcq option must be a string")),
                    })
                    .collect::<Result<Vec<_>, _>>()?,
                Some(_) => {
                    return Err(FormatError::shape(
                        &at,
                        "mcq \"options\" must be an array of strings",
                    ));
                }
                None => return Err(FormatError::shape(&at, "missing field \"options\"")),
            };
            let answer = take_string(&mut map, "answer", &at)?;
            QuestionKind::Mcq { options, answer }
        }
        "tf" => match map.remove("answer") {
            Some(Value::Bool(b)) => QuestionKind::TrueFalse { answer: b },
            Some(Value::String(s)) if s.eq_ignore_ascii_case("true") => {
                QuestionKind::TrueFalse { answer: true }
            }
            Some(Value::String(s)) if s.eq_ignore_ascii_case("false") => {
                QuestionKind::TrueFalse { answer: false }
            }
            Some(_) => {
                return Err(FormatError::shape(
                    &at,
                    "tf \"answer\" must be true or false",
                ));
            }
            None => return Err(FormatError::shape(&at, "missing field \"answer\"")),
        },
        "open" => QuestionKind::Open {
            rubric: take_string(&mut map, "rubric", &at)?,
        },
        "mermaid" => {
            let options = match map.remove("options") {
                Some(Value::Object(items)) => items
                    .into_iter()
                    .map(|(label, source)| match source {
                        Value::String(source) => Ok(MermaidOption { label, source }),
                        _ => Err(FormatError::shape(
                            &at,
                            format!("mermaid option {label:?} must be a string of Mermaid source"),
                        )),
                    })
                    .collect::<Result<Vec<_>, _>>()?,
                Some(_) => {
                    return Err(FormatError::shape(
                        &at,
                        "mermaid \"options\" must be an object of label → source",
                    ));
                }
                None => return Err(FormatError::shape(&at, "missing field \"options\"")),
            };
            let answer = take_string(&mut map, "answer", &at)?;
            QuestionKind::Mermaid { options, answer }
        }
        _ => QuestionKind::Unsupported { type_name },
    };
    Ok(Question {
        id,
        prompt,
        kind,
        explanation,
        anchor,
        extra: map,
    })
}

fn take_string(map: &mut Map<String, Value>, key: &str, at: &str) -> Result<String, FormatError> {
    match map.remove(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(FormatError::shape(at, format!("{key:?} must be a string"))),
        None => Err(FormatError::shape(at, format!("missing field {key:?}"))),
    }
}

fn take_optional_string(
    map: &mut Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<String>, FormatError> {
    match map.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(FormatError::shape(at, format!("{key:?} must be a string"))),
    }
}

/// The normalized wire form: known fields first in the original's order, then unknown ones.
pub fn quiz_to_value(quiz: &Quiz) -> Value {
    let mut map = Map::new();
    map.insert("version".into(), Value::String(quiz.version.clone()));
    map.insert("pr_number".into(), Value::from(quiz.pr_number));
    map.insert(
        "questions".into(),
        Value::Array(quiz.questions.iter().map(question_to_value).collect()),
    );
    extend_missing(&mut map, &quiz.extra);
    Value::Object(map)
}

fn question_to_value(q: &Question) -> Value {
    let mut map = Map::new();
    map.insert("type".into(), Value::String(q.kind.type_name().to_string()));
    map.insert("id".into(), Value::String(q.id.clone()));
    map.insert("prompt".into(), Value::String(q.prompt.clone()));
    match &q.kind {
        QuestionKind::Mcq { options, answer } => {
            map.insert("options".into(), Value::from(options.clone()));
            map.insert("answer".into(), Value::String(answer.clone()));
        }
        QuestionKind::TrueFalse { answer } => {
            map.insert("answer".into(), Value::Bool(*answer));
        }
        QuestionKind::Open { rubric } => {
            map.insert("rubric".into(), Value::String(rubric.clone()));
        }
        QuestionKind::Mermaid { options, answer } => {
            let options: Map<String, Value> = options
                .iter()
                .map(|o| (o.label.clone(), Value::String(o.source.clone())))
                .collect();
            map.insert("options".into(), Value::Object(options));
            map.insert("answer".into(), Value::String(answer.clone()));
        }
        QuestionKind::Unsupported { .. } => {}
    }
    if let Some(explanation) = &q.explanation {
        map.insert("explanation".into(), Value::String(explanation.clone()));
    }
    if let Some(anchor) = &q.anchor
        && let Ok(v) = serde_json::to_value(anchor)
    {
        map.insert("anchor".into(), v);
    }
    extend_missing(&mut map, &q.extra);
    Value::Object(map)
}

/// Adds unknown fields without letting them overwrite the known ones.
pub(crate) fn extend_missing(map: &mut Map<String, Value>, extra: &Map<String, Value>) {
    for (k, v) in extra {
        if !map.contains_key(k) {
            map.insert(k.clone(), v.clone());
        }
    }
}

/// Pretty JSON as the bot writes it (two-space indent).
pub fn to_pretty_json(value: &Value) -> String {
    // Serializing a `Value` cannot fail: its keys are strings and it holds no foreign types.
    serde_json::to_string_pretty(value).unwrap_or_default()
}
