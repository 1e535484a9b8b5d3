//! A question's code in the line protocol: a header naming the file and lines, then the
//! numbered lines with `>` on the anchored ones (a screen reader reads them in order).

use std::io::Write;

use crate::code::{Code, Snippet, TokenKind};
use crate::text::display_width;

/// How the snippet may be decorated: colours (a terminal without `NO_COLOR`) and a
/// terminal hyperlink on the path.
#[derive(Debug, Clone, Copy, Default)]
pub struct Decor {
    pub color: bool,
    pub hyperlinks: bool,
}

pub fn print(out: &mut dyn Write, code: &Code, decor: Decor, width: usize) -> std::io::Result<()> {
    match code {
        Code::Note { path, note } => writeln!(out, "Code: {path}: {note}"),
        Code::Snippet(s) => print_snippet(out, s, decor, width),
    }
}

fn print_snippet(
    out: &mut dyn Write,
    s: &Snippet,
    decor: Decor,
    width: usize,
) -> std::io::Result<()> {
    let title = s.title();
    let shown = match (&s.url, decor.hyperlinks) {
        (Some(url), true) => hyperlink(url, &title),
        _ => title,
    };
    writeln!(out, "Code: {shown} ({})", s.from.label())?;
    let digits = s.number_width();
    for (n, marked, tokens) in s.numbered() {
        let lead = format!("{} {n:>digits$} │ ", if marked { '>' } else { ' ' });
        let hang = format!("{} {:>digits$} ┆ ", if marked { '>' } else { ' ' }, "");
        let room = width.saturating_sub(display_width(&lead)).max(10);
        // Long lines wrap under a dotted rule: nothing is cut off.
        let mut rows: Vec<String> = Vec::new();
        let mut row = String::new();
        let mut used = 0;
        for t in tokens {
            let mut rest = t.text.as_str();
            while !rest.is_empty() {
                if used >= room {
                    rows.push(std::mem::take(&mut row));
                    used = 0;
                }
                let piece = fit(rest, room - used);
                let piece = if piece.is_empty() {
                    first_char(rest)
                } else {
                    piece
                };
                used += display_width(&piece);
                rest = &rest[piece.len()..];
                match (decor.color, ansi(t.kind)) {
                    (true, Some(code)) => row.push_str(&format!("\u{1b}[{code}m{piece}\u{1b}[0m")),
                    _ => row.push_str(&piece),
                }
            }
        }
        rows.push(row);
        for (i, row) in rows.iter().enumerate() {
            let lead = if i == 0 { &lead } else { &hang };
            if decor.color && marked {
                writeln!(out, "\u{1b}[1m{lead}\u{1b}[0m{row}")?;
            } else {
                writeln!(out, "{lead}{row}")?;
            }
        }
    }
    if s.cut {
        writeln!(out, "  (the anchor runs on; the rest is in the file)")?;
    }
    Ok(())
}

/// The start of `text` that fits `room` columns.
fn fit(text: &str, room: usize) -> String {
    if display_width(text) <= room {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = display_width(c.encode_utf8(&mut [0; 4]));
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    out
}

/// The first character of `text` (a piece wider than the room still moves on).
fn first_char(text: &str) -> String {
    text.chars().next().map(String::from).unwrap_or_default()
}

/// SGR parameters per token kind (the terminal's own palette).
fn ansi(kind: TokenKind) -> Option<&'static str> {
    match kind {
        TokenKind::Plain => None,
        TokenKind::Comment => Some("2"),
        TokenKind::String => Some("32"),
        TokenKind::Number | TokenKind::Constant => Some("35"),
        TokenKind::Keyword => Some("34"),
        TokenKind::Function => Some("36"),
        TokenKind::Type => Some("33"),
    }
}

/// `text` as an OSC 8 hyperlink to `url` (a URL quizz built: percent-encoded, no controls).
pub fn hyperlink(url: &str, text: &str) -> String {
    format!("\u{1b}]8;;{url}\u{1b}\\{text}\u{1b}]8;;\u{1b}\\")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::{Provenance, snippet};
    use crate::quiz::Anchor;

    fn sample() -> Code {
        let text = (1..=20)
            .map(|i| format!("let x{i} = {i};"))
            .collect::<Vec<_>>()
            .join("\n");
        let anchor = Anchor {
            path: "src/lib.rs".into(),
            start_line: Some(5),
            end_line: Some(6),
            extra: serde_json::Map::new(),
        };
        let base = "https://github.com/o/r/blob/0123abc";
        Code::Snippet(snippet(&text, &anchor, Some(base), Provenance::GitHub).unwrap())
    }

    fn printed(code: &Code, decor: Decor, width: usize) -> String {
        let mut out = Vec::new();
        print(&mut out, code, decor, width).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_path_links_to_the_lines_on_github_where_terminals_show_links() {
        let linked = printed(
            &sample(),
            Decor {
                color: false,
                hyperlinks: true,
            },
            80,
        );
        let url = "https://github.com/o/r/blob/0123abc/src/lib.rs#L5-L6";
        assert!(
            linked.starts_with(&format!(
                "Code: \u{1b}]8;;{url}\u{1b}\\src/lib.rs:5-6\u{1b}]8;;\u{1b}\\ (at the PR's head)\n"
            )),
            "{linked:?}"
        );
        let plain = printed(&sample(), Decor::default(), 80);
        assert!(
            !plain.contains('\u{1b}'),
            "no escapes without a terminal: {plain:?}"
        );
        assert!(plain.contains(">  5 │ let x5 = 5;"), "{plain}");
        assert!(
            plain.contains("   2 │ let x2 = 2;"),
            "three lines of context: {plain}"
        );
        assert!(!plain.contains("   1 │"), "{plain}");
    }

    #[test]
    fn long_lines_wrap_and_lose_nothing() {
        let text = format!("{}\n", "abcdefghij".repeat(12));
        let anchor = Anchor {
            path: "a.txt".into(),
            start_line: Some(1),
            end_line: Some(1),
            extra: serde_json::Map::new(),
        };
        let code = Code::Snippet(snippet(&text, &anchor, None, Provenance::Bundled).unwrap());
        let out = printed(&code, Decor::default(), 40);
        let joined: String = out
            .lines()
            .skip(1)
            .map(|l| {
                l.split_once(['│', '┆'])
                    .map_or("", |(_, t)| t.trim_start_matches(' '))
            })
            .collect();
        assert_eq!(joined, "abcdefghij".repeat(12));
        assert!(
            out.lines().all(|l| crate::text::display_width(l) <= 40),
            "{out}"
        );
    }
}
