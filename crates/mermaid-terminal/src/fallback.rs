//! The honest fallback: the source in a frame, with a one-line reason.

use crate::style::{Line, Style};
use crate::text::{clusters, display_width, sanitize, truncate};

/// Most source lines shown in a fallback frame.
const MAX_SOURCE_LINES: usize = 200;

/// Wrap a source line at `max` columns: after its last space that leaves at least a third
/// of the row used, else hard (source has no other break points we can trust). The space
/// stays at the end of the row it ends, so no character is lost or added.
fn wrap_source(s: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut w = 0;
    // Byte offset in `cur` just after its last space, and the width up to there.
    let mut after_space: Option<(usize, usize)> = None;
    for (g, gw) in clusters(s) {
        if w + gw > max && !cur.is_empty() {
            if let Some((at, sw)) = after_space.filter(|&(_, sw)| sw * 3 >= max) {
                let rest = cur.split_off(at);
                out.push(std::mem::replace(&mut cur, rest));
                w -= sw;
            } else {
                out.push(std::mem::take(&mut cur));
                w = 0;
            }
            after_space = None;
        }
        cur.push_str(g);
        w += gw;
        if g == " " {
            after_space = Some((cur.len(), w));
        }
    }
    out.push(cur);
    out
}

/// Frame `source` under a warning line carrying `reason`.
pub fn frame(source: &str, reason: &str, width: usize, ascii: bool) -> Vec<Line> {
    let width = width.max(8);
    let (bar, top, bottom, warn) = if ascii {
        ("| ", "+-", "+-", "! ")
    } else {
        ("│ ", "┌─", "└─", "⚠ ")
    };
    let mut lines = vec![Line::styled(
        truncate(&format!("{warn}{reason}"), width, ascii),
        Style::Warning,
    )];
    let rule = if ascii { "-" } else { "─" };
    let title = format!("{top} mermaid source ");
    let fill = width.saturating_sub(display_width(&title)).min(20);
    lines.push(Line::styled(
        truncate(&format!("{title}{}", rule.repeat(fill)), width, ascii),
        Style::Border,
    ));
    let inner = width.saturating_sub(2).max(1);
    let all: Vec<&str> = source.lines().collect();
    for raw in all.iter().take(MAX_SOURCE_LINES) {
        let clean = sanitize(raw.trim_end());
        for piece in wrap_source(&clean, inner) {
            let mut line = Line::styled(bar, Style::Border);
            line.push(piece, Style::Dim);
            lines.push(line);
        }
    }
    if all.len() > MAX_SOURCE_LINES {
        let mut line = Line::styled(bar, Style::Border);
        line.push(
            format!("... {} more lines", all.len() - MAX_SOURCE_LINES),
            Style::Warning,
        );
        lines.push(line);
    }
    lines.push(Line::styled(
        format!("{bottom}{}", rule.repeat(fill + display_width(&title) - 2))
            .chars()
            .take(width)
            .collect::<String>(),
        Style::Border,
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_source_line_breaks_at_a_space_not_inside_a_word() {
        let line = "Idle --> Running : nightly cron at 2 am UTC and lock acquired";
        let rows = wrap_source(line, 57);
        assert_eq!(
            rows,
            [
                "Idle --> Running : nightly cron at 2 am UTC and lock ",
                "acquired"
            ]
        );
        assert_eq!(rows.concat(), line, "nothing lost or added");
    }

    #[test]
    fn a_line_without_a_useful_space_still_breaks_at_the_width() {
        let rows = wrap_source("ab cdefghijklmnopqrstuvwxyz", 10);
        assert_eq!(rows, ["ab cdefghi", "jklmnopqrs", "tuvwxyz"]);
    }
}
