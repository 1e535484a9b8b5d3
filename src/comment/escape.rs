//! Escaping text we put into markdown that GitHub renders and that we read back.

use crate::text::sanitize;

/// Inline code that holds any text: the fence is one backtick longer than the longest
/// run inside, padded with spaces when the text touches a backtick (the `CommonMark` rule).
pub fn inline_code(text: &str) -> String {
    let text = sanitize(text).replace('\n', " ");
    let longest = longest_run(&text, '`');
    let fence = "`".repeat(longest + 1);
    if text.starts_with('`') || text.ends_with('`') {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// Text for a markdown line: HTML is shown, not interpreted, and control codes go.
pub fn html_escape(text: &str) -> String {
    let text = sanitize(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c => out.push(c),
        }
    }
    out
}

/// A block quote of any text: every line quoted, so a newline cannot end the quote.
pub fn block_quote(text: &str, indent: &str) -> String {
    html_escape(text.trim())
        .lines()
        .map(|l| format!("{indent}> {}", l.trim_end()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// JSON for a fenced block inside `<details>`: `<`, `>` and `&` only occur inside JSON
/// strings, so writing them as `\u003c`… keeps the value and stops `</details>` or a
/// fence from ever appearing in the text.
pub fn json_for_html(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

fn longest_run(text: &str, c: char) -> usize {
    let mut longest = 0;
    let mut current = 0;
    for ch in text.chars() {
        if ch == c {
            current += 1;
            longest = longest.max(current);
        } else {
            current = 0;
        }
    }
    longest
}

/// Chooses a fence for a code block that contains `body` (longer than any run inside).
pub fn code_fence(body: &str) -> String {
    let longest = body
        .lines()
        .map(|l| longest_run(l.trim_start(), '`'))
        .max()
        .unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}
