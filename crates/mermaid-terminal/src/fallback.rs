//! The honest fallback: the source in a frame, with a one-line reason.

use crate::style::{Line, Style};
use crate::text::{clusters, display_width, sanitize, truncate};

/// Most source lines shown in a fallback frame.
const MAX_SOURCE_LINES: usize = 200;

/// Hard-wrap a line at `max` columns (source code has no better break points we can trust).
fn hard_wrap(s: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut w = 0;
    for (g, gw) in clusters(s) {
        if w + gw > max && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
            w = 0;
        }
        cur.push_str(g);
        w += gw;
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
        for piece in hard_wrap(&clean, inner) {
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
