use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::mermaid::{RenderOptions, render};
use crate::source::read_text;

/// Draw Mermaid diagrams as text that fits the terminal, never changing their meaning.
///
/// Sequence diagrams, flowcharts, state and class diagrams are drawn; anything else, or
/// anything the renderer cannot draw faithfully, is shown as source with a one-line reason.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz mermaid flow.mmd\n  quizz mermaid --width 60 a.mmd b.mmd\n  printf 'graph LR\\n  A --> B' | quizz mermaid --ascii"
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
    let mut out = std::io::stdout().lock();
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
        for line in render(&source, &opts).lines {
            writeln!(out, "{}", line.text().trim_end())?;
        }
    }
    Ok(())
}

fn terminal_width() -> usize {
    match crossterm::terminal::size() {
        Ok((w, _)) if std::io::stdout().is_terminal() && w > 0 => usize::from(w),
        _ => 80,
    }
}
