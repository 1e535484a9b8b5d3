//! sequenceDiagram: parse, then draw lifelines, or the compact one-row-per-message form.

mod columns;
mod compact;
mod layout;
mod model;
mod parse;
mod prepare;

use crate::mermaid::style::Line;
use crate::mermaid::{Form, RenderOptions};

/// Render a sequence diagram body (the text after the header line).
pub fn render(body: &str, opts: &RenderOptions, form: Form) -> Result<Vec<Line>, String> {
    let diagram = parse::parse(body)?;
    if form == Form::Best
        && let Some(lines) = layout::render_fitted(&diagram, opts)
    {
        return Ok(lines);
    }
    Ok(compact::render(&diagram, opts))
}
