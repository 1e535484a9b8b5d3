//! Mermaid diagrams drawn as text that fits a terminal's width: flowcharts, sequence,
//! state and class diagrams, as styled lines with no terminal dependency.
//!
//! ```
//! use mermaid_terminal::{RenderOptions, render};
//!
//! let drawn = render("graph LR\n  A[Draft] --> B[Review]", &RenderOptions::default());
//! let text: Vec<String> = drawn.lines.iter().map(|l| l.text()).collect();
//! assert!(text.iter().any(|l| l.contains("Draft") && l.contains("Review")));
//! ```
//!
//! [`render`] parses the source, lays it out to fit `width` columns (sizing gaps to labels,
//! tightening, wrapping labels at code-friendly points, turning a graph a quarter when its
//! own direction does not fit, then a compact one-row-per-item form) and returns styled
//! [`Line`]s. Whatever it cannot draw faithfully is shown as source with a one-line reason:
//! it never draws a wrong picture.
//!
//! - Render: [`render`], [`render_in`] (a [`Direction`]), [`render_plain`] (text),
//!   [`render_compact`] (the listing form: one row per message or edge),
//!   [`render_options`] (several diagrams in one form and one direction, to compare).
//! - Compare: [`what_differs::compare`] (what each option has that another lacks, by the
//!   diagram's structure) and [`compare::differences`] (where rendered options differ,
//!   as column ranges to highlight); [`items`] lists what a diagram says, item by item.
//! - Read without drawing: [`outline`] (kind, direction, node and edge counts).
//! - Untrusted text: every label passes through [`sanitize::strip_controls`], so no escape
//!   sequence in a diagram reaches the terminal. Secrets are the caller's to mask.
//! - With the `ratatui` feature: `widget::Diagram`, a ratatui widget of rendered lines.
//!
//! Minimum width: every line fits `width` for `width >= 20` ([`MIN_WIDTH`]); below that
//! lines are cut at 20 columns.

#![warn(missing_docs)]
// Grid coordinates are bounded by the input caps (64 KiB, 2,000 statements), far from any
// wrap-around, so the numeric casts between usize, i64 and f64 in the layouts are safe.
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::cast_sign_loss
)]
// Layout code names coordinates (a, b, r, c, x, y ...) the way the geometry reads.
#![allow(clippy::many_single_char_names, clippy::similar_names)]

mod canvas;
pub mod compare;
mod fallback;
mod glyphs;
mod graph;
pub mod items;
mod outline;
pub mod sanitize;
mod sequence;
mod style;
mod text;
/// Columns a string takes on a terminal, per grapheme as the canvas draws it (the crate's one measure).
pub use text::display_width;
pub mod what_differs;
#[cfg(feature = "ratatui")]
pub mod widget;

pub use outline::{Outline, outline};
pub use style::{Line, Span, Style};

/// Narrowest width the layout promises to honour.
pub const MIN_WIDTH: usize = 20;
/// Largest source accepted (bytes).
pub const MAX_SOURCE_BYTES: usize = 64 * 1024;
/// Most statements (non-blank lines) accepted.
pub const MAX_STATEMENTS: usize = 2000;

/// How to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// Available columns.
    pub width: usize,
    /// Use only ASCII glyphs for the drawing (labels keep their own characters).
    pub ascii: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            width: 80,
            ascii: false,
        }
    }
}

/// The diagram type found in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiagramKind {
    /// `sequenceDiagram`
    Sequence,
    /// `graph`, `flowchart`
    Flowchart,
    /// `stateDiagram`, `stateDiagram-v2`
    State,
    /// `classDiagram`
    Class,
    /// A diagram type this renderer does not draw (gantt, pie, erDiagram, ...).
    Unsupported,
    /// No diagram header found.
    Unknown,
}

/// The form a diagram was shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// a picture: boxes, lifelines, edges
    Drawing,
    /// the compact list: one row per message or edge
    Compact,
    /// the source text with a one-line reason ([`Rendered::fallback`])
    Source,
}

/// The result of rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The rows, each at most the width asked for.
    pub lines: Vec<Line>,
    /// One-line reason when the source is shown instead of a drawing.
    pub fallback: Option<String>,
    /// The diagram type its header names.
    pub kind: DiagramKind,
    /// Drawn, listed or shown as source.
    pub form: Form,
    /// drawn turned a quarter to fit (an LR graph top-down, a TD one left to right)
    turned: bool,
    /// a graph drawn left to right (or right to left)
    across: bool,
    /// how a state diagram's concurrent regions were laid out
    regions: RegionLayout,
}

impl Rendered {
    /// A graph drawn left to right (or right to left), as drawn: turned or not.
    pub fn across(&self) -> bool {
        self.across
    }

    /// A graph drawn turned a quarter from its source's direction (to fit, or as asked).
    pub fn turned(&self) -> bool {
        self.turned
    }
}

/// Which way a flowchart, state or class diagram may be laid out (sequence diagrams have
/// one way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// The source's direction; turned a quarter (LR top-down, TD left to right) only when
    /// that does not fit the width.
    #[default]
    Fit,
    /// The source's direction, never turned (listed when it does not fit).
    Source,
    /// Turned a quarter from the source's direction (kept when turned does not fit), as
    /// sibling options had to be.
    Turned,
}

/// What a diagram's renderer returns: its lines, their form, and whether a graph was
/// turned a quarter to fit.
pub(crate) struct Output {
    pub lines: Vec<Line>,
    pub form: Form,
    pub turned: bool,
    /// a graph drawn left to right (or right to left)
    pub across: bool,
    pub regions: RegionLayout,
}

/// How a drawing laid out the concurrent regions of its composite states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RegionLayout {
    /// none drawn
    None,
    /// side by side
    Beside,
    /// one under the other
    Stacked,
}

/// Render a Mermaid source. Never panics; time and memory are bounded by the input caps.
pub fn render(source: &str, opts: &RenderOptions) -> Rendered {
    render_form(source, opts, Want::Best)
}

/// Render a Mermaid source laid out in `direction` (see [`Direction`]); [`render`] is
/// `render_in(source, opts, Direction::Fit)`.
pub fn render_in(source: &str, opts: &RenderOptions, direction: Direction) -> Rendered {
    let want = match direction {
        Direction::Fit => Want::Best,
        Direction::Source => Want::Own,
        Direction::Turned => Want::Turned,
    };
    render_form(source, opts, want)
}

/// Render in the compact one-row-per-message / one-row-per-edge form, whatever the width.
/// Useful to show a quiz's options in the same form so they compare row by row.
pub fn render_compact(source: &str, opts: &RenderOptions) -> Rendered {
    render_form(source, opts, Want::Compact)
}

/// Render the options of one question in one form: all drawn when every option can be
/// drawn, else all in the compact form (source stays source), so they compare row by row.
/// When one option had to be turned a quarter to fit, its siblings are turned too if they
/// can be, so all four read in the same direction.
pub fn render_options(sources: &[&str], opts: &RenderOptions) -> Vec<Rendered> {
    let parsed = match shared_sequences(sources, opts) {
        Ok(shared) => return shared,
        Err(parsed) => parsed,
    };
    // sequence options parsed for the shared columns are drawn alone without parsing again
    let mut out: Vec<Rendered> = sources
        .iter()
        .enumerate()
        .map(|(k, s)| render_parsed(s, opts, Want::Best, parsed.get(k)))
        .collect();
    let drawn = |r: &Rendered| r.form == Form::Drawing;
    let graph = |r: &Rendered| drawn(r) && r.kind != DiagramKind::Sequence;
    let across = out.iter().filter(|r| graph(r) && r.across).count();
    let down = out.iter().filter(|r| graph(r) && !r.across).count();
    if across > 0 && down > 0 {
        // One direction for all: the one most options took, else the other, else lists.
        // An option is turned to it, or drawn in its own direction when that is it.
        let alike = |target: bool| -> Option<Vec<Rendered>> {
            sources
                .iter()
                .zip(&out)
                .map(|(s, r)| {
                    if !graph(r) || r.across == target {
                        return Some(r.clone());
                    }
                    let own_across = r.across != r.turned;
                    let want = if own_across == target {
                        Want::Own
                    } else {
                        Want::Turned
                    };
                    Some(render_form(s, opts, want)).filter(|t| drawn(t) && t.across == target)
                })
                .collect()
        };
        let first = across > down;
        match alike(first).or_else(|| alike(!first)) {
            Some(same) => out = same,
            None => {
                for (s, r) in sources.iter().zip(out.iter_mut()) {
                    if drawn(r) {
                        *r = render_compact(s, opts);
                    }
                }
            }
        }
    }
    stack_alike(sources, opts, &mut out);
    // One option listed or shown as source: the others are listed too, to compare alike.
    if out.iter().any(drawn) && out.iter().any(|r| r.form != Form::Drawing) {
        for (s, r) in sources.iter().zip(out.iter_mut()) {
            if drawn(r) {
                *r = render_compact(s, opts);
            }
        }
    }
    out
}

/// Concurrent regions one option had to stack are stacked in the others too (in the
/// direction each was drawn), so the options read alike; an option that cannot be drawn
/// so keeps its regions side by side.
fn stack_alike(sources: &[&str], opts: &RenderOptions, out: &mut [Rendered]) {
    let stacked = |r: &Rendered| r.form == Form::Drawing && r.regions == RegionLayout::Stacked;
    if !out.iter().any(stacked) {
        return;
    }
    for (s, r) in sources.iter().zip(out.iter_mut()) {
        if r.form != Form::Drawing || r.regions != RegionLayout::Beside {
            continue;
        }
        let want = if r.turned {
            Want::StackedTurned
        } else {
            Want::StackedOwn
        };
        let again = render_form(s, opts, want);
        if stacked(&again) {
            *r = again;
        }
    }
}

/// Sequence diagrams with the same participants drawn on shared lifeline columns, so the
/// options line up column for column (and their differences stay local); else the
/// options parsed on the way (all of them, or none).
fn shared_sequences(
    sources: &[&str],
    opts: &RenderOptions,
) -> Result<Vec<Rendered>, Vec<sequence::Parsed>> {
    if sources.len() < 2 {
        return Err(Vec::new());
    }
    let width = opts.width.max(MIN_WIDTH);
    let opts = RenderOptions {
        width,
        ascii: opts.ascii,
    };
    let mut titles = Vec::new();
    let mut bodies = Vec::new();
    for source in sources {
        if source.len() > MAX_SOURCE_BYTES {
            return Err(Vec::new());
        }
        let body = strip_front_matter(source);
        if body.lines().filter(|l| !l.trim().is_empty()).count() > MAX_STATEMENTS {
            return Err(Vec::new());
        }
        let Some((header, rest)) = split_header(body.text) else {
            return Err(Vec::new());
        };
        if header.split(|c: char| c.is_whitespace() || c == ';').next() != Some("sequenceDiagram") {
            return Err(Vec::new());
        }
        titles.push(body.title);
        bodies.push(rest);
    }
    let Some(parsed) = bodies
        .iter()
        .map(|b| sequence::parse(b).ok())
        .collect::<Option<Vec<_>>>()
    else {
        return Err(Vec::new());
    };
    let Some(outputs) = sequence::render_shared(&parsed, &opts) else {
        return Err(parsed);
    };
    Ok(outputs
        .into_iter()
        .zip(titles)
        .map(|(out, title)| {
            let mut lines = out.lines;
            if let Some(title) = title {
                lines.insert(0, Line::styled(title, Style::Label));
            }
            enforce_width(&mut lines, width, opts.ascii);
            Rendered {
                lines,
                fallback: None,
                kind: DiagramKind::Sequence,
                form: out.form,
                turned: false,
                across: false,
                regions: RegionLayout::None,
            }
        })
        .collect())
}

/// Which form the layouts may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Want {
    /// the drawing when it fits, else the compact form
    Best,
    /// like `Best`, but a flowchart, state or class diagram is laid out turned a quarter
    /// (LR top-down, TD left to right), as its sibling options had to be
    Turned,
    /// like `Best`, but never turned (as its sibling options could not be)
    Own,
    /// like `Own`, with concurrent regions stacked (as a sibling option's had to be)
    StackedOwn,
    /// like `Turned`, with concurrent regions stacked
    StackedTurned,
    /// always the compact form
    Compact,
}

fn render_form(source: &str, opts: &RenderOptions, want: Want) -> Rendered {
    render_parsed(source, opts, want, None)
}

/// [`render_form`], with `source` already parsed when it is a sequence diagram's.
fn render_parsed(
    source: &str,
    opts: &RenderOptions,
    want: Want,
    parsed: Option<&sequence::Parsed>,
) -> Rendered {
    let width = opts.width.max(MIN_WIDTH);
    let opts = RenderOptions {
        width,
        ascii: opts.ascii,
    };
    let (kind, result) = render_inner(source, &opts, want, parsed);
    let mut rendered = match result {
        Ok(out) => Rendered {
            lines: out.lines,
            fallback: None,
            kind,
            form: out.form,
            turned: out.turned,
            across: out.across,
            regions: out.regions,
        },
        Err(reason) => Rendered {
            lines: fallback::frame(source, &reason, width, opts.ascii),
            fallback: Some(reason),
            kind,
            form: Form::Source,
            turned: false,
            across: false,
            regions: RegionLayout::None,
        },
    };
    enforce_width(&mut rendered.lines, width, opts.ascii);
    rendered
}

/// Render to plain text: lines joined with '\n'.
pub fn render_plain(source: &str, opts: &RenderOptions) -> String {
    render(source, opts)
        .lines
        .iter()
        .map(Line::text)
        .collect::<Vec<_>>()
        .join("\n")
}

fn render_inner(
    source: &str,
    opts: &RenderOptions,
    want: Want,
    parsed: Option<&sequence::Parsed>,
) -> (DiagramKind, Result<Output, String>) {
    if source.len() > MAX_SOURCE_BYTES {
        return (
            DiagramKind::Unknown,
            Err(format!(
                "diagram too large to draw ({} KiB, limit {} KiB)",
                source.len() / 1024,
                MAX_SOURCE_BYTES / 1024
            )),
        );
    }
    let body = strip_front_matter(source);
    let statements = body.lines().filter(|l| !l.trim().is_empty()).count();
    let Some((header, rest)) = split_header(body.text) else {
        return (
            DiagramKind::Unknown,
            Err("no diagram type found (empty source)".into()),
        );
    };
    let keyword = header
        .split(|c: char| c.is_whitespace() || c == ';')
        .next()
        .unwrap_or("");
    let kind = kind_of(keyword);
    if statements > MAX_STATEMENTS {
        return (
            kind,
            Err(format!(
                "diagram too large to draw ({statements} statements, limit {MAX_STATEMENTS})"
            )),
        );
    }
    let result = match kind {
        DiagramKind::Sequence => match parsed {
            Some(diagram) => Ok(sequence::render_parsed(diagram, opts, want)),
            None => sequence::render(rest, opts, want),
        },
        DiagramKind::Flowchart => graph::render_flowchart(header, rest, opts, want),
        DiagramKind::State => graph::render_state(rest, opts, want),
        DiagramKind::Class => graph::render_class(rest, opts, want),
        DiagramKind::Unsupported => {
            let name = text::truncate(&text::sanitize(keyword), 30, opts.ascii);
            Err(format!("{name} diagrams are not drawn in the terminal"))
        }
        DiagramKind::Unknown => Err("not a Mermaid diagram (no known header)".into()),
    };
    let result = result.map(|mut out| {
        if let Some(title) = body.title {
            out.lines.insert(0, Line::styled(title, Style::Label));
        }
        out
    });
    (kind, result)
}

/// The diagram kind a header's first word names.
fn kind_of(keyword: &str) -> DiagramKind {
    match keyword {
        "sequenceDiagram" => DiagramKind::Sequence,
        "graph" | "flowchart" | "flowchart-elk" => DiagramKind::Flowchart,
        "stateDiagram" | "stateDiagram-v2" => DiagramKind::State,
        "classDiagram" | "classDiagram-v2" => DiagramKind::Class,
        "" => DiagramKind::Unknown,
        _ => DiagramKind::Unsupported,
    }
}

struct Body<'a> {
    text: &'a str,
    title: Option<String>,
}

impl Body<'_> {
    fn lines(&self) -> std::str::Lines<'_> {
        self.text.lines()
    }
}

/// Drop a YAML front-matter block (`---` ... `---`), keeping its `title:`.
fn strip_front_matter(source: &str) -> Body<'_> {
    let trimmed = source.trim_start();
    let Some(after) = trimmed.strip_prefix("---") else {
        return Body {
            text: source,
            title: None,
        };
    };
    let Some(end) = after.find("\n---") else {
        return Body {
            text: source,
            title: None,
        };
    };
    let title = after[..end].lines().find_map(|l| {
        l.trim()
            .strip_prefix("title:")
            .map(|t| text::collapse_spaces(&text::sanitize(t.trim().trim_matches('"'))))
    });
    let rest = &after[end + 4..];
    let rest = rest.split_once('\n').map_or("", |(_, r)| r);
    Body {
        text: rest,
        title: title.filter(|t| !t.is_empty()),
    }
}

/// First meaningful line (the header) and everything after it.
fn split_header(body: &str) -> Option<(&str, &str)> {
    let mut rest = body;
    loop {
        let (line, tail) = rest.split_once('\n').unwrap_or((rest, ""));
        let t = line.trim();
        if !t.is_empty() && !t.starts_with("%%") {
            return Some((t, tail));
        }
        if tail.is_empty() {
            return None;
        }
        rest = tail;
    }
}

/// Last resort: cut any line still wider than `width`.
fn enforce_width(lines: &mut [Line], width: usize, ascii: bool) {
    for line in lines.iter_mut() {
        if fits_by_bytes(line, width) || line.width() <= width {
            continue;
        }
        let mut budget = width.saturating_sub(1);
        let mut out = Line::default();
        for span in &line.spans {
            let w = text::display_width(&span.text);
            if w <= budget {
                out.push(span.text.clone(), span.style);
                budget -= w;
            } else {
                out.push(text::cut(&span.text, budget), span.style);
                break;
            }
        }
        out.push(if ascii { ">" } else { "…" }, Style::Dim);
        *line = out;
    }
}

/// True when a line surely fits without measuring it: no grapheme takes more columns than
/// its UTF-8 bytes, so a line of at most `width` bytes fits `width` columns.
fn fits_by_bytes(line: &Line, width: usize) -> bool {
    line.spans.iter().map(|s| s.text.len()).sum::<usize>() <= width
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte count that spares measuring a line bounds its columns: a line of wide
    /// graphemes with fewer chars than the width but more columns is still cut.
    #[test]
    fn lines_are_cut_by_columns_not_by_chars() {
        let wide = "日本語".repeat(4);
        let mut lines = vec![
            Line::styled("short", Style::Label),
            Line::styled(wide.as_str(), Style::Label),
        ];
        enforce_width(&mut lines, 20, false);
        assert_eq!(lines[0].text(), "short");
        assert!(lines[1].width() <= 20, "{}", lines[1].text());
        assert!(lines[1].text().ends_with('…'));
    }
}
