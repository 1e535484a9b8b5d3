//! Untrusted text from PR comments and models: make it safe to print.
//!
//! A quiz prompt can carry escape sequences that move the cursor, retitle the terminal or
//! hide text, and bidi overrides that reorder what the reader sees ("trojan source").
//! Everything that came from outside passes through [`sanitize`] before it is drawn.

use std::borrow::Cow;

/// Removes terminal control sequences and invisible reordering characters, and masks
/// secrets ([`crate::redact`]).
///
/// Keeps `\n` and turns `\t` into four spaces (a tab's width is the terminal's guess);
/// `\r\n` becomes `\n`; a lone `\r` (which would overwrite the line) is dropped.
pub fn sanitize(input: &str) -> Cow<'_, str> {
    // Controls go first: one inside a token cannot hide it from the mask. The Mermaid
    // renderer's sanitizer, so prompts and diagrams are stripped alike.
    let stripped = crate::mermaid::sanitize::strip_controls(input);
    match crate::redact::redact(&stripped) {
        Cow::Borrowed(_) => stripped,
        Cow::Owned(masked) => Cow::Owned(masked),
    }
}

/// Like [`sanitize`], but for one-line contexts: newlines become spaces.
pub fn sanitize_line(input: &str) -> String {
    sanitize(input).replace('\n', " ")
}

/// Lowercase hex of bytes (digests in file names and keys).
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// "5 min ago", "3 h ago", "2 days ago" for a Unix time in seconds.
pub fn time_ago(at: u64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    match now.saturating_sub(at) / 60 {
        0 => "just now".into(),
        m if m < 120 => format!("{m} min ago"),
        m if m < 48 * 60 => format!("{} h ago", m / 60),
        m => format!("{} days ago", m / (24 * 60)),
    }
}

/// Display width of a string in terminal columns (CJK and emoji count 2), per grapheme:
/// the renderer's measure, so the TUI's text and its diagrams agree in one picture.
pub use crate::mermaid::display_width;

/// "1 open answer", "2 open answers": a count with the right form of its noun.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `12345` → `12,345`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Columns to wrap plain output to: the terminal's width when the output goes to one,
/// else 80 (a pipe or a file).
pub fn output_width(to_terminal: bool) -> usize {
    match crossterm::terminal::size() {
        Ok((w, _)) if to_terminal && w > 0 => usize::from(w).max(20),
        _ => 80,
    }
}

/// [`wrap_with`] without a prefix.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    wrap_with(text, width, "", "")
}

/// Wraps `text` to `width` columns at spaces, never inside a word: a word wider than the
/// line gets a line of its own, whole. Each line of `text` is wrapped on its own and its
/// leading spaces are kept on its continuation lines. `first` starts the first line and
/// `rest` every other one (a hanging indent, such as `"  1) "` then `"     "`).
pub fn wrap_with(text: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        let prefix = if out.is_empty() { first } else { rest };
        let body = line.trim_start_matches(' ');
        let indent = &line[..line.len() - body.len()];
        let room = width
            .saturating_sub(display_width(prefix) + display_width(indent))
            .max(1);
        let mut current = String::new();
        let mut used = 0;
        let mut lead = prefix;
        for (gap, word) in words(body) {
            let w = display_width(word);
            if !current.is_empty() && used + gap.len() + w > room {
                out.push(format!("{lead}{indent}{current}").trim_end().to_string());
                lead = rest;
                current.clear();
                used = 0;
            }
            if !current.is_empty() {
                current.push_str(gap);
                used += gap.len();
            }
            current.push_str(word);
            used += w;
        }
        out.push(format!("{lead}{indent}{current}").trim_end().to_string());
    }
    out
}

/// The words of a line, each with the run of spaces before it (empty for the first).
fn words(line: &str) -> Vec<(&str, &str)> {
    let mut found = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        let word_start = rest.len() - rest.trim_start_matches(' ').len();
        let after_gap = &rest[word_start..];
        let word_len = after_gap.find(' ').unwrap_or(after_gap.len());
        if word_len == 0 {
            break;
        }
        found.push((&rest[..word_start], &after_gap[..word_len]));
        rest = &after_gap[word_len..];
    }
    found
}

/// Whether the terminal shows OSC 8 hyperlinks (terminals that do not may print them as
/// garbage, so only known ones get them). `QUIZZ_HYPERLINKS=1` or `0` decides instead.
pub fn hyperlinks_supported() -> bool {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    match var("QUIZZ_HYPERLINKS").as_str() {
        "1" => return true,
        "0" => return false,
        _ => {}
    }
    let term = var("TERM");
    if term == "dumb" || std::env::var_os("TMUX").is_some() {
        return false;
    }
    let vte = var("VTE_VERSION").parse::<u32>().is_ok_and(|v| v >= 5000);
    let program = matches!(
        var("TERM_PROGRAM").as_str(),
        "iTerm.app" | "WezTerm" | "vscode" | "ghostty" | "Hyper"
    );
    vte || program
        || std::env::var_os("KONSOLE_VERSION").is_some()
        || std::env::var_os("WT_SESSION").is_some()
        || term.starts_with("xterm-kitty")
        || term.starts_with("foot")
        || term.starts_with("alacritty")
}

/// `text` cut from the start to fit `width` columns, with `…` where it was cut (a path's
/// end, its file name, is the part worth keeping).
pub fn ellipsize_start(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    let mut kept: Vec<char> = Vec::new();
    let mut used = 1;
    for c in text.chars().rev() {
        let w = display_width(c.encode_utf8(&mut [0; 4]));
        if used + w > width {
            break;
        }
        used += w;
        kept.push(c);
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(sanitize("hello `world`"), Cow::Borrowed(_)));
    }

    #[test]
    fn strips_csi_osc_and_bidi() {
        let evil = "a\u{1b}[2J\u{1b}[31mb\u{1b}]0;pwned\u{7}c\u{202e}d\u{9b}1;2He\rf";
        assert_eq!(sanitize(evil), "abcdef");
    }

    #[test]
    fn keeps_newlines_expands_tabs() {
        assert_eq!(sanitize("x\r\n\ty"), "x\n    y");
        assert_eq!(sanitize_line("x\ny"), "x y");
    }

    #[test]
    fn unterminated_sequences_do_not_hang_or_panic() {
        assert_eq!(sanitize("a\u{1b}"), "a");
        assert_eq!(sanitize("a\u{1b}]title"), "a");
        assert_eq!(sanitize("a\u{1b}[12"), "a");
    }

    #[test]
    fn width_counts_wide_chars() {
        assert_eq!(display_width("日本"), 4);
        assert_eq!(display_width("ab"), 2);
    }

    #[test]
    fn wrap_breaks_between_words_only() {
        let text = "The handler waits for the SDK to invoke it before it returns.";
        let lines = wrap(text, 24);
        assert_eq!(
            lines,
            [
                "The handler waits for",
                "the SDK to invoke it",
                "before it returns."
            ]
        );
        for l in &lines {
            assert!(display_width(l) <= 24, "{l:?}");
        }
        assert_eq!(lines.join(" "), text);
    }

    #[test]
    fn wrap_keeps_a_long_word_whole_on_its_own_line() {
        assert_eq!(
            wrap("see https://example.com/a/very/long/path now", 12),
            ["see", "https://example.com/a/very/long/path", "now"]
        );
    }

    #[test]
    fn wrap_keeps_lines_indents_and_blank_lines() {
        assert_eq!(
            wrap("one two three\n\n    let x = a + b;", 10),
            ["one two", "three", "", "    let x", "    = a +", "    b;"]
        );
    }

    #[test]
    fn wrap_with_a_hanging_indent() {
        assert_eq!(
            wrap_with("alpha beta gamma delta", 14, "  1) ", "     "),
            ["  1) alpha", "     beta", "     gamma", "     delta"]
        );
        assert_eq!(wrap_with("", 10, "> ", "  "), [">"]);
    }

    #[test]
    fn wrap_counts_columns_not_bytes() {
        // Each of these is two columns wide.
        let lines = wrap("日本 語の 文章 です", 9);
        assert_eq!(lines, ["日本 語の", "文章 です"]);
    }

    #[test]
    fn thousands_groups_digits_by_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn plural_picks_the_form() {
        assert_eq!(plural(1, "open answer", "open answers"), "1 open answer");
        assert_eq!(plural(0, "open answer", "open answers"), "0 open answers");
        assert_eq!(plural(2, "result", "results"), "2 results");
    }
}
