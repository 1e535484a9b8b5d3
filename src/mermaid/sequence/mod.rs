//! sequenceDiagram: parse, then draw lifelines, or the compact one-row-per-message form.

mod columns;
mod compact;
mod layout;
mod model;
mod parse;
mod prepare;

use crate::mermaid::style::Line;
use crate::mermaid::{Form, RenderOptions, Want};

/// Render a sequence diagram body (the text after the header line).
pub fn render(body: &str, opts: &RenderOptions, want: Want) -> Result<(Vec<Line>, Form), String> {
    let diagram = parse::parse(body)?;
    if want != Want::Compact
        && let Some(lines) = layout::render_fitted(&diagram, opts)
    {
        return Ok((lines, Form::Drawing));
    }
    Ok((compact::render(&diagram, opts), Form::Compact))
}
