//! Finding a state block (`<details><summary>… state (used by the CLI)</summary>` + JSON).

use serde_json::Value;

use crate::quiz::FormatError;

pub const QUIZ_SUMMARY: &str = "Quiz state (used by the CLI)";
pub const RESULTS_SUMMARY: &str = "Results state (used by the CLI)";

/// The hidden first-line marker: which tool family wrote the comment, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// `quizz` or `cognit`.
    pub tool: String,
    /// `quiz`, `results`, `answers`.
    pub kind: String,
    pub version: String,
}

impl Marker {
    /// Reads `<!-- quizz:quiz v1 -->` (or cognit's) from the first non-blank line.
    pub fn find(text: &str) -> Option<Self> {
        let first = text.lines().find(|l| !l.trim().is_empty())?.trim();
        let inner = first.strip_prefix("<!--")?.strip_suffix("-->")?.trim();
        let mut words = inner.split_whitespace();
        let (tool, kind) = words.next()?.split_once(':')?;
        if tool != "quizz" && tool != "cognit" {
            return None;
        }
        let version = words
            .next()
            .unwrap_or("v1")
            .trim_start_matches('v')
            .to_string();
        Some(Self {
            tool: tool.into(),
            kind: kind.into(),
            version,
        })
    }
}

/// Where the state's JSON sits in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateBlock<'a> {
    /// From the JSON's first line to the closing fence (or the end of the text).
    pub json: &'a str,
    /// Lines before `json` in the whole text, so JSON errors point at the file's line.
    pub lines_before: usize,
    /// How many blocks with this summary the text holds (the last one is used).
    pub blocks: usize,
    /// Whether the JSON was inside a code fence (bot markdown) or bare (a rendered copy).
    pub fenced: bool,
    pub marker: Option<Marker>,
}

impl StateBlock<'_> {
    /// Parses the JSON value; in a rendered copy, text after the value is ignored.
    pub fn parse_json(&self) -> Result<Value, FormatError> {
        let mut stream = serde_json::Deserializer::from_str(self.json).into_iter::<Value>();
        let value = match stream.next() {
            Some(Ok(v)) => v,
            Some(Err(e)) => return Err(FormatError::from(e).shifted(self.lines_before)),
            None => return Err(FormatError::shape("state block", "it holds no JSON")),
        };
        if self.fenced && !self.json[stream.byte_offset()..].trim().is_empty() {
            let line = self.json[..stream.byte_offset()].lines().count() + self.lines_before;
            return Err(FormatError::Json {
                line,
                column: 1,
                message: "text after the JSON value inside the fence".into(),
            });
        }
        Ok(value)
    }
}

/// Finds the last state block titled `summary` that is followed by JSON.
///
/// A summary line with no JSON after it (say, quoted inside a prompt) is not a block.
pub fn locate_state<'a>(text: &'a str, summary: &str) -> Option<StateBlock<'a>> {
    let mut blocks = 0;
    let mut last = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        offset += line.len();
        if line.contains(summary)
            && strip_tags(line).trim() == summary
            && let Some(found) = json_after(text, offset)
        {
            blocks += 1;
            last = Some(found);
        }
    }
    let (json, lines_before, fenced) = last?;
    Some(StateBlock {
        json,
        lines_before,
        blocks,
        fenced,
        marker: Marker::find(text),
    })
}

/// The JSON that starts after `from` (skipping blank lines): inside a fence up to the
/// closing fence, or bare (a rendered copy) up to the end of the text.
fn json_after(text: &str, from: usize) -> Option<(&str, usize, bool)> {
    let mut offset = from;
    for line in text[from..].split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let lines_before = text[..line_start].matches('\n').count();
        if t.starts_with("```") || t.starts_with("~~~") {
            let rest = &text[offset..];
            let mut end = rest.len();
            let mut pos = 0;
            for inner in rest.split_inclusive('\n') {
                let it = inner.trim();
                if it == "```" || it == "~~~" {
                    end = pos;
                    break;
                }
                pos += inner.len();
            }
            return Some((&rest[..end], lines_before + 1, true));
        }
        if t.starts_with('{') {
            let indent = line.len() - line.trim_start().len();
            return Some((&text[line_start + indent..], lines_before, false));
        }
        return None;
    }
    None
}

/// Removes `<...>` tags from one line (enough for `<details><summary>` wrappers).
fn strip_tags(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_tag = false;
    for c in line.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}
