//! sequenceDiagram: parse, then draw lifelines, or the compact one-row-per-message form.

mod columns;
mod compact;
mod items;
mod layout;
mod model;
mod parse;
mod prepare;

use crate::{Form, Output, RegionLayout, RenderOptions, Want};

/// A sequence diagram body parsed: drawn alone after its question's options could not be
/// drawn together, without parsing it again.
pub use model::Diagram as Parsed;

/// Parse a sequence diagram body (the text after the header line).
pub fn parse(body: &str) -> Result<Parsed, String> {
    parse::parse(body)
}

/// Render a sequence diagram body (the text after the header line).
pub fn render(body: &str, opts: &RenderOptions, want: Want) -> Result<Output, String> {
    Ok(render_parsed(&parse(body)?, opts, want))
}

/// Render a parsed sequence diagram.
pub fn render_parsed(diagram: &Parsed, opts: &RenderOptions, want: Want) -> Output {
    if want != Want::Compact
        && let Some(lines) = layout::render_fitted(diagram, opts)
    {
        return Output {
            lines,
            form: Form::Drawing,
            turned: false,
            across: false,
            regions: RegionLayout::None,
        };
    }
    Output {
        lines: compact::render(diagram, opts),
        form: Form::Compact,
        turned: false,
        across: false,
        regions: RegionLayout::None,
    }
}

/// What a sequence diagram says, item by item (see [`crate::items`]).
pub fn items(body: &str) -> Result<Vec<crate::items::Item>, String> {
    Ok(items::items(&parse::parse(body)?))
}

/// The drawing of option `option` of a question (the sequence bodies `bodies`, all of its
/// options when they are all sequence diagrams, else that one alone) with its items
/// `differing` in stand-in letters, or their arrows in another line (see
/// [`items::with_stand_ins`]), laid out as [`crate::render_options`] lays it out: on the
/// columns it shares with its siblings when they share them. `None` when none of them is
/// drawn so, or it does not draw.
pub(crate) fn drawn_with_stand_ins(
    bodies: &[&str],
    option: usize,
    differing: &[&str],
    shown: crate::compare::Shown,
    opts: &RenderOptions,
) -> Option<Vec<crate::Line>> {
    let mut diagrams = bodies
        .iter()
        .map(|b| parse(b).ok())
        .collect::<Option<Vec<_>>>()?;
    let alone = items::with_stand_ins(diagrams.get(option)?, differing, shown)?;
    if diagrams.len() < 2 {
        return layout::render_fitted(&alone, opts);
    }
    diagrams[option] = alone;
    match render_shared(&diagrams, opts) {
        Some(mut shared) => Some(shared.swap_remove(option).lines),
        None => layout::render_fitted(&diagrams[option], opts),
    }
}

/// The options of a question drawn on shared lifeline columns, when they are sequence
/// diagrams with the same participants and all of them can be drawn; `None` otherwise.
pub fn render_shared(diagrams: &[Parsed], opts: &RenderOptions) -> Option<Vec<Output>> {
    let first = diagrams.first()?;
    if diagrams[1..]
        .iter()
        .any(|d| d.participants != first.participants || d.groups != first.groups)
    {
        return None;
    }
    let drawn = layout::render_fitted_all(diagrams, opts)?;
    Some(
        drawn
            .into_iter()
            .map(|lines| Output {
                lines,
                form: Form::Drawing,
                turned: false,
                across: false,
                regions: RegionLayout::None,
            })
            .collect(),
    )
}

/// Participants and messages of a sequence diagram body.
pub fn outline(body: &str) -> Result<(usize, usize), String> {
    let d = parse::parse(body)?;
    let messages = d
        .events
        .iter()
        .filter(|e| matches!(e, model::Event::Message { .. }))
        .count();
    Ok((d.participants.len(), messages))
}
