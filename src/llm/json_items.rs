//! Finding the elements of a JSON object's top-level arrays while the object is still
//! being written: a quiz's `questions`, each as soon as its own object closes, long
//! before the model finishes the rest.
//!
//! The scanner only follows strings (with their escapes) and bracket depth, so it costs one
//! pass over the text; each complete element is then parsed by `serde_json` on its own.

use serde_json::Value;

/// One complete element of a top-level array: `{"questions": [ELEMENT, …]}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The array's property name in the top-level object.
    pub array: String,
    /// The element's position in its array, from 0.
    pub index: usize,
    pub value: Value,
}

/// Fed the text of a JSON object piece by piece (split anywhere), yields each element of
/// its top-level arrays once that element is complete.
#[derive(Debug, Default)]
pub struct ItemScanner {
    /// The text of the element being read (empty outside one).
    text: String,
    /// Bracket depth: 1 inside the top-level object, 2 inside one of its arrays.
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// The last string closed at depth 1, and the property name it became at its `:`.
    last_string: String,
    reading_string_at_top: bool,
    key: String,
    /// Inside a top-level array: its name and the index of the next element.
    array: Option<(String, usize)>,
    /// Reading an element that started with `{` or `[` (ends when depth is back to 2),
    /// or a scalar (ends at `,`, `]` or whitespace).
    element: Option<Element>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Element {
    Container,
    Str,
    Scalar,
}

impl ItemScanner {
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads `chunk` and returns the elements it completed, in order.
    pub fn feed(&mut self, chunk: &str) -> Vec<Item> {
        let mut done = Vec::new();
        for c in chunk.chars() {
            self.step(c, &mut done);
        }
        done
    }

    fn step(&mut self, c: char, done: &mut Vec<Item>) {
        if self.in_string {
            self.keep(c);
            let top = self.reading_string_at_top;
            if self.escaped {
                self.escaped = false;
            } else if c == '\\' {
                self.escaped = true;
            } else if c == '"' {
                self.in_string = false;
                self.reading_string_at_top = false;
                if self.element == Some(Element::Str) && self.depth == 2 {
                    self.finish(done);
                }
                return;
            }
            // Raw, escapes included: resolved once it is known to be a property name.
            if top {
                self.last_string.push(c);
            }
            return;
        }
        // A scalar element ends before the character that follows it.
        if self.element == Some(Element::Scalar)
            && (c == ',' || c == ']' || c == '}' || c.is_whitespace())
        {
            self.finish(done);
        }
        let starts_element = self.depth == 2 && self.array.is_some() && self.element.is_none();
        match c {
            '"' => {
                self.in_string = true;
                if self.depth == 1 {
                    self.reading_string_at_top = true;
                    self.last_string.clear();
                }
                if starts_element {
                    self.element = Some(Element::Str);
                }
                self.keep(c);
            }
            ':' if self.depth == 1 => {
                self.key = unescape(&self.last_string);
            }
            '{' | '[' => {
                if starts_element {
                    self.element = Some(Element::Container);
                }
                self.keep(c);
                self.depth += 1;
                if self.depth == 2 && c == '[' {
                    self.array = Some((std::mem::take(&mut self.key), 0));
                }
            }
            '}' | ']' => {
                self.keep(c);
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 2 && self.element == Some(Element::Container) {
                    self.finish(done);
                }
                if self.depth == 1 {
                    self.array = None;
                }
            }
            c if c.is_whitespace() || c == ',' => self.keep(c),
            c => {
                if starts_element {
                    self.element = Some(Element::Scalar);
                }
                self.keep(c);
            }
        }
    }

    /// Keeps `c` when it belongs to the element being read.
    fn keep(&mut self, c: char) {
        if self.element.is_some() {
            self.text.push(c);
        }
    }

    fn finish(&mut self, done: &mut Vec<Item>) {
        self.element = None;
        let text = std::mem::take(&mut self.text);
        let Some((array, index)) = self.array.as_mut() else {
            return;
        };
        // Not JSON after all (the model's output is not trusted): no item, the whole
        // answer's checks will say what is wrong.
        if let Ok(value) = serde_json::from_str::<Value>(text.trim()) {
            done.push(Item {
                array: array.clone(),
                index: *index,
                value,
            });
        }
        *index += 1;
    }
}

/// A property name's escapes resolved (`\"` → `"`); as written when it is not valid.
fn unescape(raw: &str) -> String {
    serde_json::from_str::<String>(&format!("\"{raw}\"")).unwrap_or_else(|_| raw.to_string())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn all_items(text: &str, cuts: &[usize]) -> Vec<Item> {
        let mut scanner = ItemScanner::new();
        let mut items = Vec::new();
        let mut at = 0;
        let chars: Vec<char> = text.chars().collect();
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (chars.len() + 1)).collect();
        cuts.sort_unstable();
        for cut in cuts.into_iter().chain([chars.len()]) {
            let piece: String = chars[at..cut].iter().collect();
            items.extend(scanner.feed(&piece));
            at = cut;
        }
        items
    }

    /// What the scanner must find: every element of every top-level array, in order.
    fn expected(value: &Value) -> Vec<Item> {
        let mut items = Vec::new();
        if let Value::Object(map) = value {
            for (k, v) in map {
                if let Value::Array(elements) = v {
                    for (index, e) in elements.iter().enumerate() {
                        items.push(Item {
                            array: k.clone(),
                            index,
                            value: e.clone(),
                        });
                    }
                }
            }
        }
        items
    }

    #[test]
    fn each_question_is_found_when_its_object_closes() {
        let text = r#"{"questions": [{"id": "q1", "prompt": "a \"}]\" b"}, {"id": "q2"#;
        let mut scanner = ItemScanner::new();
        let first = scanner.feed(text);
        assert_eq!(
            first,
            [Item {
                array: "questions".into(),
                index: 0,
                value: json!({"id": "q1", "prompt": "a \"}]\" b"}),
            }]
        );
        assert!(scanner.feed("\", \"options\": [\"x\"]").is_empty());
        let second = scanner.feed("}]}");
        assert_eq!(second.len(), 1);
        assert_eq!(second[0].index, 1);
        assert_eq!(second[0].value, json!({"id": "q2", "options": ["x"]}));
    }

    #[test]
    fn nested_arrays_and_other_properties_are_not_items() {
        let text =
            r#"{"title": "[not, an, array]", "n": 3, "tags": [], "questions": [[1, [2]], 3, "x"]}"#;
        assert_eq!(
            all_items(text, &[]),
            expected(&serde_json::from_str(text).unwrap())
        );
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            (-1e6f64..1e6).prop_map(|f| json!(f)),
            "[ -~\\\\\"{}\\[\\]é\u{1F600}\n\t]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec(("[a-z\"\\\\:{}\\[\\] ]{0,6}", inner), 0..5)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    fn top_object() -> impl Strategy<Value = Value> {
        prop::collection::vec(
            (
                "[a-z\"\\\\:{}\\[\\] ]{0,8}",
                prop_oneof![
                    json_value(),
                    prop::collection::vec(json_value(), 0..6).prop_map(Value::Array)
                ],
            ),
            0..5,
        )
        .prop_map(|kv| Value::Object(kv.into_iter().collect()))
    }

    proptest! {
        #[test]
        fn finds_what_serde_json_finds_wherever_the_text_is_split(
            value in top_object(),
            pretty in any::<bool>(),
            cuts in prop::collection::vec(any::<usize>(), 0..12),
        ) {
            let text = if pretty {
                serde_json::to_string_pretty(&value).unwrap()
            } else {
                value.to_string()
            };
            // serde_json's own reading of the text is the reference (floats may not
            // survive a round trip, which is not the scanner's business).
            let parsed: Value = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(all_items(&text, &cuts), expected(&parsed));
        }
    }
}
