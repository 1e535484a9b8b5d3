//! Text helpers: sanitising untrusted labels, display width, code-friendly wrapping.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Display width of one grapheme cluster, clamped to 0..=2 (what a terminal cell grid holds).
pub fn grapheme_width(g: &str) -> usize {
    UnicodeWidthStr::width(g).min(2)
}

/// True when `s` may hold multi-character grapheme clusters (combining marks, ZWJ emoji,
/// variation selectors, flags); otherwise every char is its own cluster.
pub fn needs_graphemes(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c, '\u{200d}' | '\u{fe00}'..='\u{fe0f}' | '\u{1f1e6}'..='\u{1f1ff}' | '\u{1f3fb}'..='\u{1f3ff}' | '\u{e0020}'..='\u{e007f}')
            || UnicodeWidthChar::width(c).is_none_or(|w| w == 0)
    })
}

/// The clusters of `s` with their widths: per grapheme when needed, else per char (fast).
/// Every width computation and the canvas use this one segmentation, so they agree.
pub fn clusters(s: &str) -> Box<dyn Iterator<Item = (&str, usize)> + '_> {
    if needs_graphemes(s) {
        Box::new(s.graphemes(true).map(|g| (g, grapheme_width(g))))
    } else {
        Box::new(s.char_indices().map(move |(i, c)| {
            (
                &s[i..i + c.len_utf8()],
                UnicodeWidthChar::width(c).unwrap_or(0).min(2),
            )
        }))
    }
}

/// Display width of a string, measured per cluster like the canvas draws it.
pub fn display_width(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    if needs_graphemes(s) {
        s.graphemes(true).map(grapheme_width).sum()
    } else {
        s.chars()
            .map(|c| UnicodeWidthChar::width(c).unwrap_or(0).min(2))
            .sum()
    }
}

/// Strips escape sequences and control characters from a label (one line: newlines and
/// tabs become spaces). The crate's one sanitizer, so diagrams and prompts agree.
pub fn sanitize(s: &str) -> String {
    crate::text::sanitize_line(s).replace("    ", " ")
}

/// Decode the entity forms Mermaid allows in labels (`#quot;`, `#amp;`, `#9829;`, `&lt;` ...).
pub fn decode_entities(s: &str) -> String {
    if !s.contains(';') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find(['#', '&']) {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos + 1..];
        let decoded = tail
            .find(';')
            .filter(|&end| end > 0 && end <= 8)
            .and_then(|end| {
                let name = &tail[..end];
                let c = match name {
                    "quot" => Some('"'),
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "nbsp" => Some(' '),
                    "apos" => Some('\''),
                    "num" => Some('#'),
                    _ if name.starts_with(['x', 'X']) => u32::from_str_radix(&name[1..], 16)
                        .ok()
                        .and_then(char::from_u32),
                    _ => name.parse::<u32>().ok().and_then(char::from_u32),
                };
                c.map(|c| (c, end))
            });
        if let Some((c, end)) = decoded {
            out.push(c);
            rest = &tail[end + 1..];
        } else {
            out.push_str(&rest[pos..=pos]);
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// Split a label on `<br>`, `<br/>`, `<br />` (any case) and on literal `\n`, then sanitise each line.
pub fn label_lines(raw: &str) -> Vec<String> {
    // Fast path: nothing to split, decode or strip.
    if !raw.contains(['<', '\\', '#', '&', '\t', '\n'])
        && matches!(crate::text::sanitize(raw), std::borrow::Cow::Borrowed(_))
    {
        return vec![collapse_spaces(raw)];
    }
    let mut lines = Vec::new();
    let mut cur = String::new();
    let lower = raw.to_ascii_lowercase();
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if lower[i..].starts_with("<br") {
            let after = &lower[i + 3..];
            let close = after.find('>');
            if let Some(close) =
                close.filter(|&c| after[..c].trim().trim_end_matches('/').trim().is_empty())
            {
                lines.push(std::mem::take(&mut cur));
                i += 3 + close + 1;
                continue;
            }
        }
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'n') {
            lines.push(std::mem::take(&mut cur));
            i += 2;
            continue;
        }
        // Push the whole char starting at i.
        let ch_len = raw[i..].chars().next().map_or(1, char::len_utf8);
        cur.push_str(&raw[i..i + ch_len]);
        i += ch_len;
    }
    lines.push(cur);
    lines
        .into_iter()
        .map(|l| collapse_spaces(&sanitize(&decode_entities(&l))))
        .collect()
}

/// Trim and collapse runs of spaces.
pub fn collapse_spaces(s: &str) -> String {
    let trimmed = s.trim_matches(' ');
    if !trimmed.contains("  ") {
        return trimmed.to_string();
    }
    trimmed
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Cut a label into pieces that may be put on separate lines: break after spaces and after
/// `,` `(` `.` `/` `;` `:` — never inside an identifier.
fn pieces(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    for (i, c) in s.char_indices() {
        let breakable = match prev {
            Some(' ') => c != ' ',
            Some('.') => c.is_alphabetic() || c == '_',
            Some(',' | '(' | '/' | ';' | ':') => {
                c != ' ' && !matches!(c, ',' | ')' | '.' | ':' | ';')
            }
            _ => false,
        };
        if breakable && i > start {
            out.push(&s[start..i]);
            start = i;
        }
        prev = Some(c);
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// Wrap one line to `max` columns at code-friendly points. A piece wider than `max`
/// stays whole on its own line (the caller measures the result).
pub fn wrap(s: &str, max: usize) -> Vec<String> {
    if display_width(s) <= max {
        return vec![s.to_string()];
    }
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut cur_full = 0; // width of `cur` with them
    for piece in pieces(s) {
        let pw = display_width(piece);
        let p_trim = display_width(piece.trim_end());
        if cur.is_empty() || cur_full + p_trim <= max {
            cur.push_str(piece);
            cur_full += pw;
        } else {
            lines.push(cur.trim_end().to_string());
            cur = piece.to_string();
            cur_full = pw;
        }
    }
    if !cur.trim().is_empty() || lines.is_empty() {
        lines.push(cur.trim_end().to_string());
    }
    lines
}

/// Like [`wrap`], but a piece that still does not fit is split between graphemes: the
/// last resort of the compact forms, better than cutting text off.
pub fn wrap_hard(s: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut out = Vec::new();
    for line in wrap(s, max) {
        if display_width(&line) <= max {
            out.push(line);
            continue;
        }
        let mut rest = line.as_str();
        while !rest.is_empty() {
            let mut piece = cut(rest, max);
            if piece.is_empty() {
                // a grapheme wider than `max`: take it anyway
                piece = clusters(rest).next().map_or(rest, |c| c.0).to_string();
            }
            rest = &rest[piece.len()..];
            out.push(piece);
        }
    }
    out
}

/// Wrap every line of a multi-line label.
pub fn wrap_all(lines: &[String], max: usize) -> Vec<String> {
    lines.iter().flat_map(|l| wrap(l, max)).collect()
}

/// Widest line of a label.
pub fn max_width(lines: &[String]) -> usize {
    lines.iter().map(|l| display_width(l)).max().unwrap_or(0)
}

/// Cut a string to at most `max` columns, marking the cut with `…` (or `~` in ASCII mode).
pub fn truncate(s: &str, max: usize, ascii: bool) -> String {
    if display_width(s) <= max {
        return s.to_string();
    }
    let mark = if ascii { "~" } else { "…" };
    let mut out = String::new();
    let mut w = 0;
    for (g, gw) in clusters(s) {
        if w + gw + 1 > max {
            break;
        }
        out.push_str(g);
        w += gw;
    }
    if max > 0 {
        out.push_str(mark);
    }
    out
}

/// The longest prefix of `s` at most `max` columns wide (whole graphemes only).
pub fn cut(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut w = 0;
    for (g, gw) in clusters(s) {
        if w + gw > max {
            break;
        }
        out.push_str(g);
        w += gw;
    }
    out
}

/// Pad with spaces on the right to `w` columns.
pub fn pad_right(s: &str, w: usize) -> String {
    let cur = display_width(s);
    let mut out = s.to_string();
    out.extend(std::iter::repeat_n(' ', w.saturating_sub(cur)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_strips_escapes_and_controls() {
        assert_eq!(sanitize("a\u{1b}[31mred\u{1b}[0m\u{7}b"), "aredb");
        assert_eq!(sanitize("x\u{1b}]0;title\u{7}y"), "xy");
        assert_eq!(sanitize("tab\there\u{202e}x\u{85}"), "tab herex");
    }

    #[test]
    fn wraps_at_code_friendly_points_only() {
        let w = wrap("_drain_agent(prompt, options, handler)", 20);
        assert!(w.iter().any(|l| l.starts_with("_drain_agent(")));
        assert!(
            w.join("")
                .replace(' ', "")
                .contains("_drain_agent(prompt,options,handler)")
        );
        assert_eq!(
            wrap("averyveryverylongidentifier", 5),
            vec!["averyveryverylongidentifier"]
        );
    }

    #[test]
    fn br_splits_lines() {
        assert_eq!(label_lines("a<br/>b<BR>c<br />d"), vec!["a", "b", "c", "d"]);
        assert_eq!(label_lines("#quot;x#quot; #9829;"), vec!["\"x\" ♥"]);
    }

    #[test]
    fn width_counts_wide_chars() {
        assert_eq!(display_width("日本"), 4);
        assert_eq!(display_width("ab"), 2);
    }
}
