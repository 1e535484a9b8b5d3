use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::mermaid::{DiagramKind, RenderOptions, render};
use crate::source::read_text;

/// Draw Mermaid diagrams as text that fits the terminal, never changing their meaning.
///
/// Sequence diagrams, flowcharts, state and class diagrams are drawn; anything else, or
/// anything the renderer cannot draw faithfully, is shown as source with a one-line reason.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz mermaid flow.mmd\n  quizz mermaid --width 60 a.mmd b.mmd\n  printf 'graph LR\\n  A --> B' | quizz mermaid --ascii\n\n\
Exit status: 0 drawn (a diagram type that is not drawn, such as pie or gantt, is shown as source), 2 empty input, or a diagram that cannot be read or drawn (it is shown as source; the reason is also on stderr)."
)]
pub struct MermaidArgs {
    /// Files of Mermaid source; none or `-` reads stdin. Several are drawn one after another.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Columns to fit (default: the terminal's width, or 80).
    #[arg(long, short = 'w', value_name = "N")]
    width: Option<usize>,
    /// Draw with ASCII only (`+-|>`), for terminals and fonts without box drawing.
    #[arg(long)]
    ascii: bool,
}

pub fn run(args: &MermaidArgs) -> Result<()> {
    let width = args.width.unwrap_or_else(terminal_width);
    let opts = RenderOptions {
        width,
        ascii: args.ascii,
    };
    let files = if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files.clone()
    };
    // Buffered whole: stdout is line-buffered, a flushed write per line.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut not_drawn = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let source = read_text(file)?;
        if files.len() > 1 {
            if i > 0 {
                writeln!(out)?;
            }
            writeln!(
                out,
                "{}",
                crate::text::sanitize_line(&file.display().to_string())
            )?;
        }
        let rendered = render(&source, &opts);
        // The renderer knows no tokens: mask the ones quizz knows, as everywhere else.
        let drawing = plain_text(&rendered.lines);
        out.write_all(crate::redact::redact(&drawing).as_bytes())?;
        // A type this renderer does not draw (pie, gantt…) is shown as source on purpose;
        // empty input, no header, or a diagram it cannot read or draw is an error.
        if let Some(reason) = &rendered.fallback
            && rendered.kind != DiagramKind::Unsupported
        {
            let name = if file.as_os_str() == "-" {
                "stdin".to_string()
            } else {
                file.display().to_string()
            };
            not_drawn.push(format!(
                "{}: {}",
                crate::text::sanitize_line(&name),
                crate::text::sanitize_line(reason)
            ));
        }
    }
    out.flush()?;
    if not_drawn.is_empty() {
        Ok(())
    } else {
        Err(super::UsageError(format!("not drawn: {}", not_drawn.join("; "))).into())
    }
}

/// The lines as one text, each cut of trailing spaces and ended by a newline: one string
/// to mask and one write, where a line each cost a mask, a copy and a flushed write.
fn plain_text(lines: &[crate::mermaid::Line]) -> String {
    let mut text = String::new();
    for line in lines {
        let start = text.len();
        for span in &line.spans {
            text.push_str(&span.text);
        }
        let kept = text[start..].trim_end().len();
        text.truncate(start + kept);
        text.push('\n');
    }
    text
}

fn terminal_width() -> usize {
    match crossterm::terminal::size() {
        Ok((w, _)) if std::io::stdout().is_terminal() && w > 0 => usize::from(w),
        _ => 80,
    }
}
