//! A diagram question's options as the taker asked to see them: drawn (when all fit) or
//! listed, with the cells or rows where the options differ marked — where they differ,
//! never which one is right.

use std::ops::Range;

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;

use super::theme::Theme;
use crate::mermaid::{self, RenderOptions, Rendered};
use crate::quiz::MermaidOption;
use crate::text::sanitize_line;

/// How the options of a diagram question are shown; kept while moving between questions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct View {
    /// The compact list, even where the drawings fit.
    pub list: bool,
    /// Mark where the options differ from each other.
    pub differences: bool,
    /// Only what differs, compared item by item, instead of the options themselves.
    pub compare: bool,
}

/// One option, ready for the body: its lines, and which of them hold a difference.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    pub lines: Vec<Line<'static>>,
    pub marked: Vec<bool>,
    /// The widest line, in columns.
    pub width: usize,
}

/// What the line over the options says (in words, with the keys it names, by the body).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// Being drawn elsewhere.
    Drawing,
    /// Listed: an option has too many lines to draw.
    TooBig,
    /// Listed: too wide to draw here.
    TooWide,
    /// The options say the same, drawn differently.
    SaySame,
    /// Laid out differently; the differing words are marked.
    WordsMarked,
    /// Every option laid out differently: no cells marked.
    AllApart,
    /// These options (their labels) are laid out differently, so not marked.
    Apart(Vec<String>),
}

/// The options of a question as the body shows them.
#[derive(Debug, Clone, PartialEq)]
pub struct Arranged {
    pub options: Vec<Drawn>,
    /// Two options to a row (wide terminals, when each fits half the width).
    pub pairs: bool,
    /// A dim line over the options, such as why the differences are marked in the list.
    pub note: Option<Note>,
    /// The compact comparison (see [`super::comparison`]), shown instead of the options.
    pub comparison: Option<Vec<Line<'static>>>,
}

/// Side by side needs room for two drawings and a gap: a body this wide (a terminal of
/// 152 columns and more).
pub const SIDE_BY_SIDE_FROM: usize = 150;
pub const GAP: usize = 3;

/// The width each of two options side by side gets, out of `width` for one: the second
/// has its own marker margin and a gap before it.
pub fn half_width(width: usize) -> usize {
    width.saturating_sub(GAP + DIAGRAM_INDENT.len()) / 2
}

/// Diagrams sit under their option's marker (an 80-column terminal leaves 75 columns for
/// a diagram, a 100-column one 95).
pub const DIAGRAM_INDENT: &str = "   ";

/// The width one option's diagram gets: the body's, less the indent under its marker.
pub fn diagram_width(body: usize) -> usize {
    body.saturating_sub(DIAGRAM_INDENT.len())
}

/// The options arranged for a body `width` columns wide (`width` counts the space for
/// the drawings, not the marker indent): side by side when the terminal is wide and the
/// options fit half of it in the same form they would take alone, else one under another.
pub fn arrange(
    options: &[MermaidOption],
    width: usize,
    wide: bool,
    theme: Theme,
    view: View,
) -> Arranged {
    if view.compare {
        return Arranged {
            options: Vec::new(),
            pairs: false,
            note: None,
            comparison: Some(super::comparison::lines(options, width, theme)),
        };
    }
    if wide {
        let half = half_width(width);
        let halves = rendered(options, half, view);
        let all_drawn = halves.iter().all(|r| r.form == mermaid::Form::Drawing);
        if all_drawn || view.list {
            return marked(&halves, options, half, theme, view, true);
        }
        let full = rendered(options, width, view);
        if full.iter().all(|r| r.form != mermaid::Form::Drawing) {
            // Listed either way: the narrower lists pair up.
            return marked(&halves, options, half, theme, view, true);
        }
        return marked(&full, options, width, theme, view, false);
    }
    marked(
        &rendered(options, width, view),
        options,
        width,
        theme,
        view,
        false,
    )
}

/// The options drawn for `width` columns, in one form for all of them.
pub fn options(options: &[MermaidOption], width: usize, theme: Theme, view: View) -> Vec<Drawn> {
    arrange(options, width, false, theme, view).options
}

/// Statements past which a graph option is listed without trying to draw it: laying one
/// out (500 nodes, 1,500 edges) took about 2 s in a debug build, only to end up listed.
/// Sequence diagrams draw fast at any size and are not bounded.
pub const DRAW_AT_MOST: usize = 500;

fn too_big_to_draw(source: &str) -> bool {
    let mut statements = source
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("%%"));
    let sequence = statements
        .next()
        .is_some_and(|h| h.starts_with("sequenceDiagram"));
    !sequence && statements.count() > DRAW_AT_MOST
}

fn rendered(options: &[MermaidOption], width: usize, view: View) -> Vec<Rendered> {
    let opts = RenderOptions {
        width,
        ascii: false,
    };
    let sources: Vec<&str> = options.iter().map(|o| o.source.as_str()).collect();
    // One form for all: an option too big to draw lists them all.
    if view.list || sources.iter().any(|s| too_big_to_draw(s)) {
        sources
            .iter()
            .map(|s| mermaid::render_compact(s, &opts))
            .collect()
    } else {
        mermaid::render_options(&sources, &opts)
    }
}

/// Styles the rendered options and marks their differences. A drawing laid out so
/// differently from all the others that cell marks would say nothing gets none, and a
/// note points to the list.
fn marked(
    rendered_options: &[Rendered],
    options: &[MermaidOption],
    width: usize,
    theme: Theme,
    view: View,
    pairs: bool,
) -> Arranged {
    let unmarked = |note: Option<Note>| Arranged {
        options: rendered_options
            .iter()
            .map(|r| styled(r, None, theme))
            .collect(),
        pairs,
        note,
        comparison: None,
    };
    // Lists the taker did not ask for: the drawings do not fit this width.
    let listed = !view.list
        && rendered_options
            .iter()
            .all(|r| r.form == mermaid::Form::Compact);
    let big = options.iter().any(|o| too_big_to_draw(&o.source));
    let fit_note = listed.then_some(if big { Note::TooBig } else { Note::TooWide });
    if !view.differences {
        return unmarked(fit_note);
    }
    let mut differences = mermaid::compare::differences(rendered_options);
    // Marks only where the options say something different, item by item.
    let sources: Vec<&str> = options.iter().map(|o| o.source.as_str()).collect();
    let says = mermaid::what_differs::compare(&sources);
    if says.rows.is_empty() && says.unread.is_empty() {
        return unmarked(Some(Note::SaySame));
    }
    let structured = says.unread.len() + 1 < sources.len();
    for (i, (r, m)) in rendered_options
        .iter()
        .zip(&mut differences.marks)
        .enumerate()
    {
        if structured && !says.unread.contains(&i) {
            let opts = RenderOptions {
                width,
                ascii: false,
            };
            let (differing, same) = (says.differing(i), &says.same);
            *m = mermaid::compare::marks_of_option(&sources, i, r, &opts, m, &differing, same);
        }
    }
    let apart: Vec<&str> = options
        .iter()
        .zip(&differences.apart)
        .filter(|(_, apart)| **apart)
        .map(|(o, _)| o.label.as_str())
        .collect();
    let note = match apart.as_slice() {
        [] => fit_note,
        _ if structured => Some(Note::WordsMarked),
        _ if apart.len() == rendered_options.len() => {
            // Marks on nearly every cell say nothing; the list marks the rows that differ.
            return unmarked(Some(Note::AllApart));
        }
        _ => Some(Note::Apart(
            apart.iter().map(|l| sanitize_line(l)).collect(),
        )),
    };
    let options = rendered_options
        .iter()
        .zip(&differences.marks)
        .map(|(r, m)| styled(r, Some(m), theme))
        .collect();
    Arranged {
        options,
        pairs,
        note,
        comparison: None,
    }
}

fn styled(r: &Rendered, option_marks: Option<&mermaid::compare::Marks>, theme: Theme) -> Drawn {
    let lines: Vec<Line<'static>> = r
        .lines
        .iter()
        .enumerate()
        .map(|(row, line)| {
            let ranges = option_marks
                .and_then(|m| m.get(row))
                .map_or(&[][..], Vec::as_slice);
            to_line(line, ranges, theme)
        })
        .collect();
    let marked = (0..lines.len())
        .map(|row| {
            option_marks
                .and_then(|m| m.get(row))
                .is_some_and(|r| !r.is_empty())
        })
        .collect();
    Drawn {
        width: r.lines.iter().map(mermaid::Line::width).max().unwrap_or(0),
        lines,
        marked,
    }
}

/// A rendered line in the theme's styles, the cells in `marks` highlighted.
fn to_line(line: &mermaid::Line, marks: &[Range<usize>], theme: Theme) -> Line<'static> {
    let mut spans = Vec::new();
    let mut col = 0;
    for span in &line.spans {
        let base = style_of(span.style, theme);
        // The renderer knows no tokens: mask the ones quizz knows (never wider).
        let text = crate::redact::redact(&span.text);
        if marks.is_empty() {
            col += crate::text::display_width(&text);
            spans.push(Span::styled(text.into_owned(), base));
            continue;
        }
        for cluster in text.graphemes(true) {
            let w = crate::text::display_width(cluster);
            let hit = marks.iter().any(|m| m.contains(&col));
            let style = if hit {
                base.patch(highlight(theme))
            } else {
                base
            };
            spans.push(Span::styled(cluster.to_string(), style));
            col += w;
        }
    }
    // A difference past the end of this row (another option draws there).
    let past: usize = marks
        .iter()
        .map(|m| m.end.saturating_sub(col.max(m.start)))
        .sum();
    if past > 0 {
        spans.push(Span::styled(" ".repeat(past.min(200)), highlight(theme)));
    }
    Line::from(spans)
}

/// Where the options differ: a background where there is colour, else an underline (and
/// the marker column the body adds).
pub fn highlight(theme: Theme) -> Style {
    if theme.no_color {
        Style::new().add_modifier(Modifier::UNDERLINED)
    } else {
        Style::new()
            .bg(Color::Rgb(90, 70, 0))
            .add_modifier(Modifier::UNDERLINED)
    }
}

fn style_of(style: mermaid::Style, theme: Theme) -> Style {
    match style {
        mermaid::Style::Plain | mermaid::Style::Label => Style::new(),
        mermaid::Style::Participant => Style::new().add_modifier(Modifier::BOLD),
        mermaid::Style::Arrow => theme.code(),
        mermaid::Style::Note => Style::new().add_modifier(Modifier::ITALIC),
        mermaid::Style::Border | mermaid::Style::Block | mermaid::Style::Dim => theme.dim(),
        mermaid::Style::Warning => theme.warn(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(label: &str, source: &str) -> MermaidOption {
        MermaidOption {
            label: label.into(),
            source: source.into(),
        }
    }

    #[test]
    fn only_rows_that_differ_are_marked() {
        let a = option("A", "sequenceDiagram\nA->>B: hello\nB-->>A: done\n");
        let b = option("B", "sequenceDiagram\nA->>B: hello\nB->>A: done\n");
        let theme = Theme { no_color: true };
        let view = View {
            list: true,
            differences: true,
            compare: false,
        };
        let drawn = options(&[a, b], 60, theme, view);
        let marked: Vec<usize> = drawn[0]
            .marked
            .iter()
            .enumerate()
            .filter(|(_, m)| **m)
            .map(|(i, _)| i)
            .collect();
        assert!(!marked.is_empty(), "the reply differs");
        assert!(
            marked.len() < drawn[0].lines.len(),
            "the hello row does not"
        );
        let plain = options(&drawn_sources(), 60, theme, View::default());
        assert!(plain.iter().all(|d| d.marked.iter().all(|m| !m)));
    }

    #[test]
    fn a_token_quizz_knows_is_masked_in_a_drawn_label() {
        let secret = "ghp_diagram_label_secret_42";
        crate::redact::remember(secret);
        let a = option("A", &format!("sequenceDiagram\nA->>B: use {secret}\n"));
        let drawn = options(&[a], 60, Theme { no_color: true }, View::default());
        let text: String = drawn[0]
            .lines
            .iter()
            .flat_map(|l| l.spans.iter().map(|s| s.content.to_string()))
            .collect();
        assert!(text.contains("use [hidden]"), "{text}");
        assert!(!text.contains(secret), "{text}");
    }

    #[test]
    fn a_graph_too_big_to_draw_is_listed_without_a_layout() {
        let mut big = String::from("flowchart LR\n");
        for i in 0..=DRAW_AT_MOST {
            big.push_str(&format!("  N{} --> N{}\n", i % 300, (i * 7) % 300));
        }
        let options = [option("A", &big), option("B", "flowchart TD\nA-->B\n")];
        let arranged = arrange(
            &options,
            75,
            false,
            Theme { no_color: true },
            View::default(),
        );
        assert_eq!(arranged.note, Some(Note::TooBig));
        assert!(
            arranged.options[1]
                .lines
                .iter()
                .any(|l| l.to_string().contains("A ──▶ B"))
        );
        assert!(!too_big_to_draw("sequenceDiagram\n".to_string().as_str()));
    }

    /// One option lacks a participant, so its siblings are laid out on other columns and
    /// differ cell by cell on every row: only the participant and its messages are marked.
    #[test]
    fn marks_cover_only_what_involves_a_missing_participant() {
        let with = "sequenceDiagram\n    participant C as Client\n    participant A as API\n    participant L as Audit log\n    C->>A: POST /orders\n    A->>L: record order\n    L-->>A: ok\n    A-->>C: 201 Created";
        let without = "sequenceDiagram\n    participant C as Client\n    participant A as API\n    C->>A: POST /orders\n    A-->>C: 201 Created";
        let options = [
            option("A", with),
            option("B", without),
            option("C", with),
            option("D", with),
        ];
        let view = View {
            list: false,
            differences: true,
            compare: false,
        };
        let drawn = options_at(&options, 75, view);
        let rows = |d: &Drawn, text: &str| -> Vec<bool> {
            d.lines
                .iter()
                .zip(&d.marked)
                .filter(|(l, _)| l.to_string().contains(text))
                .map(|(_, m)| *m)
                .collect()
        };
        for text in ["POST /orders", "201 Created"] {
            assert_eq!(rows(&drawn[0], text), vec![false], "{text}");
        }
        assert_eq!(rows(&drawn[0], "record order"), vec![true]);
        assert!(
            drawn[1].marked.iter().all(|m| !m),
            "B has nothing the others lack"
        );
        // The Audit log's box (three rows) and its two messages (label and arrow each).
        let marked = drawn[0].marked.iter().filter(|m| **m).count();
        assert_eq!(marked, 3 + 2 + 2, "{marked} of {}", drawn[0].lines.len());
    }

    fn options_at(options: &[MermaidOption], width: usize, view: View) -> Vec<Drawn> {
        super::options(options, width, Theme { no_color: true }, view)
    }

    fn drawn_sources() -> Vec<MermaidOption> {
        vec![
            option("A", "flowchart TD\nA-->B\n"),
            option("B", "flowchart TD\nA-.->B\n"),
        ]
    }
}
