//! What a `claude -p --output-format stream-json --verbose --include-partial-messages`
//! run says as it works, line by line: each API turn (`message_start`), the tools the
//! model calls (`Read src/retry.rs`), output tokens so far, and each element of the
//! `StructuredOutput` call's top-level arrays as soon as it is complete. The run's end (the
//! `result` line) is read as with `--output-format json`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::super::json_items::ItemScanner;
use super::super::{Progress, clip};
use crate::text::sanitize_line;

/// The CLI's output tool.
const OUTPUT_TOOL: &str = "StructuredOutput";

/// A tool call the model made: `Read` and the file, `Grep` and its pattern. Safe to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolUse {
    pub tool: String,
    /// The file (relative to the repository when inside it), pattern or folder it names.
    pub target: String,
}

impl fmt::Display for ToolUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.target.is_empty() {
            f.write_str(&self.tool)
        } else {
            write!(f, "{} {}", self.tool, self.target)
        }
    }
}

/// Reads one run's lines and tells what they mean.
#[derive(Debug)]
pub(super) struct RunWatcher {
    round: u32,
    repo: Option<PathBuf>,
    turns: u64,
    /// Output tokens of the turns that ended.
    done_tokens: u64,
    /// The turn being written: the API's count once given, and the characters so far.
    turn_tokens: Option<u64>,
    turn_chars: usize,
    /// The block of the current turn that calls the output tool, and its scanner.
    output_block: Option<(u64, ItemScanner)>,
    told: Option<Instant>,
}

/// Token counts are told at most this often (a new tool call at once).
const EVERY: Duration = Duration::from_millis(250);

impl RunWatcher {
    /// A watcher for round `round`, shortening paths under `repo`.
    pub fn new(round: u32, repo: Option<&Path>) -> Self {
        Self {
            round,
            repo: repo.map(|r| r.canonicalize().unwrap_or_else(|_| r.to_path_buf())),
            turns: 0,
            done_tokens: 0,
            turn_tokens: None,
            turn_chars: 0,
            output_block: None,
            told: None,
        }
    }

    fn output_tokens(&self) -> u64 {
        let estimate = u64::try_from(self.turn_chars.div_ceil(4)).unwrap_or(u64::MAX);
        self.done_tokens + self.turn_tokens.unwrap_or(0).max(estimate)
    }

    fn working(&mut self, activity: Option<ToolUse>) -> Progress {
        self.told = Some(Instant::now());
        Progress::Working {
            round: self.round,
            activity,
            turns: self.turns,
            output_tokens: self.output_tokens(),
        }
    }

    /// What one line of the run's output tells (nothing for a line that is not an event).
    pub fn line(&mut self, line: &str) -> Vec<Progress> {
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            return Vec::new();
        };
        let mut told = Vec::new();
        match value.get("type").and_then(Value::as_str) {
            Some("stream_event") => {
                if let Some(event) = value.get("event") {
                    self.event(event, &mut told);
                }
            }
            Some("assistant") => {
                let content = value.pointer("/message/content").and_then(Value::as_array);
                for block in content.into_iter().flatten() {
                    if let Some(used) = self.tool_use(block) {
                        let progress = self.working(Some(used));
                        told.push(progress);
                    }
                }
            }
            _ => {}
        }
        if told.is_empty() && self.turns > 0 && self.told.is_none_or(|t| t.elapsed() >= EVERY) {
            let progress = self.working(None);
            told.push(progress);
        }
        told
    }

    fn event(&mut self, event: &Value, told: &mut Vec<Progress>) {
        let index = event.get("index").and_then(Value::as_u64);
        match event.get("type").and_then(Value::as_str) {
            Some("message_start") => {
                self.turns += 1;
                self.turn_tokens = None;
                self.turn_chars = 0;
                self.output_block = None;
            }
            Some("content_block_start") => {
                let block = event.get("content_block");
                let name = block.and_then(|b| b.get("name")).and_then(Value::as_str);
                if let (Some(OUTPUT_TOOL), Some(i)) = (name, index) {
                    self.output_block = Some((i, ItemScanner::new()));
                }
            }
            Some("content_block_delta") => {
                let delta = event.get("delta");
                let text = ["partial_json", "text", "thinking"]
                    .iter()
                    .find_map(|k| delta.and_then(|d| d.get(*k)).and_then(Value::as_str))
                    .unwrap_or_default();
                self.turn_chars += text.chars().count();
                if let Some((block, scanner)) = self.output_block.as_mut()
                    && Some(*block) == index
                {
                    for item in scanner.feed(text) {
                        told.push(Progress::Item {
                            round: self.round,
                            array: item.array,
                            index: item.index,
                            value: item.value,
                        });
                    }
                }
            }
            Some("message_delta") => {
                if let Some(n) = event
                    .pointer("/usage/output_tokens")
                    .and_then(Value::as_u64)
                {
                    self.turn_tokens = Some(n);
                }
            }
            Some("message_stop") => {
                self.done_tokens = self.output_tokens();
                self.turn_tokens = None;
                self.turn_chars = 0;
            }
            _ => {}
        }
    }

    /// A tool call other than the output tool, as `Read src/lib.rs`.
    fn tool_use(&self, block: &Value) -> Option<ToolUse> {
        if block.get("type").and_then(Value::as_str) != Some("tool_use") {
            return None;
        }
        let tool = block.get("name").and_then(Value::as_str)?;
        if tool == OUTPUT_TOOL {
            return None;
        }
        let input = block.get("input");
        let field = |k: &str| input.and_then(|i| i.get(k)).and_then(Value::as_str);
        let target = match tool {
            "Read" => field("file_path").map(|p| self.relative(p)),
            "Grep" | "Glob" => field("pattern").map(|p| match field("path") {
                Some(path) => format!("{p} in {}", self.relative(path)),
                None => p.to_string(),
            }),
            _ => None,
        }
        .unwrap_or_default();
        Some(ToolUse {
            tool: clip(&sanitize_line(tool), 40),
            target: clip(&sanitize_line(&target), 100),
        })
    }

    /// `path` relative to the repository when it is inside it.
    fn relative(&self, path: &str) -> String {
        let p = Path::new(path);
        self.repo
            .as_deref()
            .and_then(|repo| p.strip_prefix(repo).ok())
            .filter(|rest| !rest.as_os_str().is_empty())
            .map_or_else(|| path.to_string(), |rest| rest.display().to_string())
    }
}

/// Whether a line is one of the partial-message events, which need not be kept to read
/// the run's end.
pub(super) fn is_stream_event(line: &str) -> bool {
    line.starts_with("{\"type\":\"stream_event\"")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn event(e: &Value) -> String {
        json!({"type": "stream_event", "event": e, "session_id": "s"}).to_string()
    }

    #[test]
    fn a_run_tells_its_turns_tools_tokens_and_questions() {
        let mut w = RunWatcher::new(1, Some(Path::new("/repo")));
        let mut heard = Vec::new();
        let mut read = |line: String| heard.extend(w.line(&line));
        read(json!({"type": "system", "subtype": "init"}).to_string());
        read(event(
            &json!({"type": "message_start", "message": {"usage": {"output_tokens": 1}}}),
        ));
        read(event(&json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "tool_use", "name": "Read", "input": {}}})));
        read(event(&json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": "{\"file_path\": \"/repo/src/lib.rs\"}"}})));
        read(json!({"type": "assistant", "message": {"content": [{"type": "tool_use", "name": "Read",
            "input": {"file_path": "/repo/src/lib.rs"}}]}}).to_string());
        read(event(
            &json!({"type": "message_delta", "usage": {"output_tokens": 33}}),
        ));
        read(event(&json!({"type": "message_stop"})));
        read(event(&json!({"type": "message_start", "message": {}})));
        read(event(&json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "tool_use", "name": "StructuredOutput", "input": {}}})));
        for part in [
            "{\"questions\": [{\"id\"",
            ": \"q1\"}, {\"id\": \"q2\"}",
            "]}",
        ] {
            read(event(&json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": part}})));
        }
        let read_file = Progress::Working {
            round: 1,
            activity: Some(ToolUse {
                tool: "Read".into(),
                target: "src/lib.rs".into(),
            }),
            turns: 1,
            output_tokens: 9,
        };
        assert!(heard.contains(&read_file), "{heard:?}");
        let items: Vec<(usize, Value)> = heard
            .iter()
            .filter_map(|p| match p {
                Progress::Item { index, value, .. } => Some((*index, value.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(items, [(0, json!({"id": "q1"})), (1, json!({"id": "q2"}))]);
        assert_eq!(w.turns, 2);
        assert!(
            w.output_tokens() > 33,
            "the first turn's 33 and the second's"
        );
        let grep = ToolUse {
            tool: "Grep".into(),
            target: "retry in src".into(),
        };
        assert_eq!(grep.to_string(), "Grep retry in src");
    }

    #[test]
    fn a_plans_slots_are_told_as_each_closes() {
        let mut w = RunWatcher::new(0, None);
        let mut told = Vec::new();
        for e in [
            json!({"type": "message_start", "message": {}}),
            json!({"type": "content_block_start", "index": 1,
                "content_block": {"type": "tool_use", "name": "StructuredOutput", "input": {}}}),
            json!({"type": "content_block_delta", "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": "{\"slots\": [{\"type\": \"mcq\"}, {\"ty"}}),
        ] {
            told.extend(w.line(&event(&e)));
        }
        let slots: Vec<(String, usize)> = told
            .iter()
            .filter_map(|p| match p {
                Progress::Item { array, index, .. } => Some((array.clone(), *index)),
                _ => None,
            })
            .collect();
        assert_eq!(
            slots,
            [("slots".to_string(), 0)],
            "slot 1, while slot 2 is written"
        );
    }

    #[test]
    fn only_partial_events_are_left_out() {
        assert!(is_stream_event(&event(&json!({"type": "ping"}))));
        assert!(!is_stream_event(
            &json!({"type": "result", "subtype": "success"}).to_string()
        ));
    }
}
