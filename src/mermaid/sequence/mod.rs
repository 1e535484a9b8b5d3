//! sequenceDiagram: parse, then draw lifelines, or the compact one-row-per-message form.

mod columns;
mod compact;
mod layout;
mod model;
mod parse;
mod prepare;

use crate::mermaid::{Form, Output, RenderOptions, Want};

/// Render a sequence diagram body (the text after the header line).
pub fn render(body: &str, opts: &RenderOptions, want: Want) -> Result<Output, String> {
    let diagram = parse::parse(body)?;
    if want != Want::Compact
        && let Some(lines) = layout::render_fitted(&diagram, opts)
    {
        return Ok(Output {
            lines,
            form: Form::Drawing,
            turned: false,
        });
    }
    Ok(Output {
        lines: compact::render(&diagram, opts),
        form: Form::Compact,
        turned: false,
    })
}
