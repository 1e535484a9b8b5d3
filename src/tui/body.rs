//! The scrollable body of a question: prompt, options, practice feedback.
//!
//! Built as plain lines by the view ([`super::view`]) once per change, so `update` scrolls
//! an option into view knowing exactly where it lands, and drawing only copies rows.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::action::Action;
use super::app::App;
use super::diagrams::{Arranged, DIAGRAM_INDENT, GAP, Note};
use super::keymap::{Context, key_for};
use super::markdown;
use super::theme::Theme;
use crate::quiz::{MermaidOption, Question, QuestionKind};
use crate::text::{display_width, sanitize_line};

pub struct Body {
    pub lines: Vec<Line<'static>>,
    /// Rows `[start, end)` of each option, in choice order.
    pub option_rows: Vec<(usize, usize)>,
}

pub fn build(app: &App, width: usize) -> Body {
    let theme = app.settings.theme;
    let mut body = Body {
        lines: Vec::new(),
        option_rows: Vec::new(),
    };
    let Some(q) = app.question() else { return body };
    // The verdict above the prompt: a diagram question's options run far below the fold.
    let verdict = Marks::of(app, q, app.session.answer(&q.id)).verdict(q);
    if let Some((text, style)) = verdict {
        body.lines
            .extend(markdown::plain(&text, width, style_of(theme, style)));
        body.lines.push(Line::default());
    }
    body.lines.extend(markdown::render(&q.prompt, width, theme));
    if let Some(anchor) = &q.anchor {
        let range = match (anchor.start_line, anchor.end_line) {
            (Some(a), Some(b)) => format!(":{a}-{b}"),
            (Some(a), None) => format!(":{a}"),
            _ => String::new(),
        };
        body.lines.push(Line::styled(
            format!("↳ {}{range}", sanitize_line(&anchor.path)),
            theme.dim(),
        ));
    }
    body.lines.push(Line::default());
    let saved = app.session.answer(&q.id);
    let marks = Marks::of(app, q, saved);
    match &q.kind {
        QuestionKind::Mcq { options, .. } => {
            for (i, option) in options.iter().enumerate() {
                let marker = format!("{}{}. ", marks.lead(i), i + 1);
                push_option(&mut body, &marker, option, marks.words(i), width, marks.style(theme, i), theme);
            }
        }
        QuestionKind::TrueFalse { .. } => {
            for (i, (key, label)) in [("t", "true"), ("f", "false")].iter().enumerate() {
                let marker = format!("{}{key}  ", marks.lead(i));
                push_option(&mut body, &marker, label, marks.words(i), width, marks.style(theme, i), theme);
            }
        }
        QuestionKind::Mermaid { options, .. } => {
            // Drawn by `update` for this width; until then (being drawn elsewhere) the
            // titles, pickable.
            let view = app.diagram_view;
            let drawing = Arranged {
                options: Vec::new(),
                pairs: false,
                note: Some(Note::Drawing),
                comparison: None,
            };
            let arranged = match &app.diagrams {
                Some(cache) if cache.question == app.current() && cache.width == width && cache.view == view => &cache.arranged,
                _ => &drawing,
            };
            let titles: Vec<Line<'static>> = options
                .iter()
                .enumerate()
                .map(|(i, option)| {
                    let words = marks.words(i).map(|w| format!("· {w} ")).unwrap_or_default();
                    let title = format!("{}{}. Option {} {words}", marks.lead(i), i + 1, sanitize_line(&option.label));
                    Line::styled(title, marks.style(theme, i))
                })
                .collect();
            if let Some(note) = &arranged.note {
                body.lines.push(Line::styled(note_text(note), theme.dim()));
            }
            push_diagrams(&mut body, &titles, arranged, width, theme);
        }
        QuestionKind::Open { .. } => {}
        QuestionKind::Unsupported { type_name } => body.lines.push(Line::styled(
            format!("This question's type “{}” is not supported by this quizz: it is shown only and not counted.", sanitize_line(type_name)),
            theme.warn(),
        )),
    }
    // Practice, or a question opened from the results: right or wrong, and why.
    if app.rating() == Some(q.id.as_str()) {
        body.lines.push(Line::default());
        body.lines
            .push(Line::styled(super::app::CONFIDENCE_ASK, theme.key()));
    } else if app.reading() && matches!(q.kind, QuestionKind::Open { .. }) {
        graded_open(&mut body, app, q, width);
    } else if app.settings.practice || app.reading() {
        practice_feedback(&mut body, q, saved, width, theme);
    }
    body
}

/// An open question opened from the results: its verdict, the rubric and the grader's
/// feedback, as the results show them (the answer is in its box below).
fn graded_open(body: &mut Body, app: &App, q: &Question, width: usize) {
    let theme = app.settings.theme;
    let Some(results) = &app.results else { return };
    let verdict = match results.result(&q.id) {
        Some(r) => {
            let (mark, style) = super::results_text::mark(q, r, theme);
            Line::styled(format!("{mark} · {}%", r.score), style)
        }
        None if results.pending.contains(&q.id) => {
            Line::styled("… pending: not graded yet", theme.warn())
        }
        None => Line::styled("– not counted", theme.dim()),
    };
    body.lines.push(verdict);
    let mut section = |title: &str, text: &str| {
        if text.trim().is_empty() {
            return;
        }
        body.lines.push(Line::default());
        body.lines
            .push(Line::styled(title.to_string(), theme.dim()));
        body.lines.extend(markdown::render(text, width, theme));
    };
    if let QuestionKind::Open { rubric } = &q.kind {
        section("Rubric", rubric);
    }
    if let Some(r) = results.result(&q.id) {
        section("Feedback", &r.feedback);
    }
    if let Some(explanation) = &q.explanation {
        section("Why", explanation);
    }
}

/// What the options' rows say: which is picked, which is under the cursor, and once the
/// verdict shows (graded, or in practice once answered and rated) which is right and
/// whether the pick was wrong, in a glyph, a colour and, on titles, in words.
struct Marks {
    picked: Option<usize>,
    /// The right choice, once the verdict shows.
    right: Option<usize>,
    /// Where the cursor picks (on a graded question nothing is picked: no cursor).
    cursor: Option<usize>,
}

/// How a verdict line looks: right, wrong, or not answered.
#[derive(Clone, Copy)]
enum VerdictStyle {
    Right,
    Wrong,
    Unanswered,
}

fn style_of(theme: Theme, style: VerdictStyle) -> Style {
    match style {
        VerdictStyle::Right => theme.right(),
        VerdictStyle::Wrong => theme.wrong(),
        VerdictStyle::Unanswered => theme.warn(),
    }
}

impl Marks {
    fn of(app: &App, q: &Question, saved: Option<&str>) -> Self {
        let picked = saved.and_then(|s| q.choice_of(s));
        let practice_shown =
            app.settings.practice && picked.is_some() && app.rating() != Some(q.id.as_str());
        let shown = app.reading() || practice_shown;
        Self {
            picked,
            right: q.right_choice().filter(|_| shown),
            cursor: (!app.reading()).then(|| app.cursors.get(app.current()).copied().unwrap_or(0)),
        }
    }

    /// `(•) ` or `( ) `; once the verdict shows, after `✓ ` on the right option, `✗ ` on
    /// a wrong pick, or two spaces.
    fn lead(&self, i: usize) -> String {
        let dot = if self.picked == Some(i) {
            "(•) "
        } else {
            "( ) "
        };
        if self.right.is_none() {
            return dot.to_string();
        }
        let glyph = if self.right == Some(i) {
            "✓ "
        } else if self.picked == Some(i) {
            "✗ "
        } else {
            "  "
        };
        format!("{glyph}{dot}")
    }

    /// The verdict on option `i` in words, once it shows (none for an option neither
    /// right nor picked).
    fn words(&self, i: usize) -> Option<&'static str> {
        let right = self.right?;
        match (right == i, self.picked == Some(i)) {
            (true, true) => Some("your answer, correct"),
            (true, false) => Some("correct answer"),
            (false, true) => Some("your answer, wrong"),
            (false, false) => None,
        }
    }

    fn style(&self, theme: Theme, i: usize) -> Style {
        let mut style = match self.right {
            Some(right) if right == i => theme.right(),
            Some(_) if self.picked == Some(i) => theme.wrong(),
            None if self.picked == Some(i) => theme.chosen(),
            _ => Style::new(),
        };
        if self.cursor == Some(i) {
            style = style.patch(theme.cursor());
        }
        style
    }

    /// The verdict in one sentence, naming the pick and the right option (`None` until
    /// it shows).
    fn verdict(&self, q: &Question) -> Option<(String, VerdictStyle)> {
        let right = self.right?;
        let name = |i: usize| choice_name(q, i);
        Some(match self.picked {
            Some(p) if p == right => (
                format!("✓ Right: you picked {}.", name(p)),
                VerdictStyle::Right,
            ),
            Some(p) => (
                format!(
                    "✗ Not quite: you picked {}; the answer is {}, marked ✓.",
                    name(p),
                    name(right)
                ),
                VerdictStyle::Wrong,
            ),
            None => (
                format!("· Not answered: the answer is {}, marked ✓.", name(right)),
                VerdictStyle::Unanswered,
            ),
        })
    }
}

/// How the verdict names a choice: `option 2`, `true`, `Option B`.
fn choice_name(q: &Question, i: usize) -> String {
    match &q.kind {
        QuestionKind::Mermaid { options, .. } => options
            .get(i)
            .map(|o| format!("Option {}", sanitize_line(&o.label)))
            .unwrap_or_default(),
        QuestionKind::TrueFalse { .. } => if i == 0 { "true" } else { "false" }.to_string(),
        _ => format!("option {}", i + 1),
    }
}

/// An option: marker, then text wrapped with a hanging indent under the marker, then its
/// verdict's `words` (after the last row when they fit there, else on a row of their own).
fn push_option(
    body: &mut Body,
    marker: &str,
    text: &str,
    words: Option<&str>,
    width: usize,
    style: Style,
    theme: Theme,
) {
    let start = body.lines.len();
    let indent = display_width(marker);
    let text_width = width.saturating_sub(indent).max(8);
    let mut rows = markdown::render(text, text_width, theme);
    if let Some(words) = words {
        let words = format!(" · {words}");
        match rows.last_mut() {
            Some(last) if last.width() + display_width(&words) <= text_width => {
                last.spans.push(Span::raw(words));
            }
            _ => rows.push(Line::from(words.trim_start().to_string())),
        }
    }
    for (n, row) in rows.into_iter().enumerate() {
        let lead = if n == 0 {
            marker.to_string()
        } else {
            " ".repeat(indent)
        };
        let mut spans = vec![Span::raw(lead)];
        spans.extend(row.spans);
        body.lines.push(Line::from(spans).style(style));
    }
    body.option_rows.push((start, body.lines.len()));
}

/// The options under their titles: two to a row on wide terminals when both fit, else one
/// under the other. A row holding a difference gets a `▌` in the margin.
fn push_diagrams(
    body: &mut Body,
    titles: &[Line<'static>],
    arranged: &Arranged,
    width: usize,
    theme: Theme,
) {
    // The comparison instead of the options: it, then their titles (to pick from).
    if let Some(comparison) = &arranged.comparison {
        body.lines.extend(
            comparison
                .iter()
                .map(|l| Line::from(l.spans.iter().map(borrowed).collect::<Vec<_>>())),
        );
        body.lines.push(Line::default());
    }
    let half = super::diagrams::half_width(super::diagrams::diagram_width(width));
    let drawn = &arranged.options;
    let pairs = arranged.pairs && drawn.iter().all(|d| d.width <= half);
    let margin = |marked: bool| {
        if marked {
            Span::styled(" ▌ ", super::diagrams::highlight(theme))
        } else {
            Span::raw(DIAGRAM_INDENT)
        }
    };
    if !pairs {
        // No drawings yet (being drawn): the titles alone.
        for (title, option) in titles
            .iter()
            .zip(drawn.iter().map(Some).chain(std::iter::repeat(None)))
        {
            let start = body.lines.len();
            body.lines.push(title.clone());
            for (line, marked) in option.iter().flat_map(|o| o.lines.iter().zip(&o.marked)) {
                let mut spans = vec![margin(*marked)];
                spans.extend(line.spans.iter().map(borrowed));
                body.lines.push(Line::from(spans));
            }
            body.option_rows.push((start, body.lines.len()));
        }
        return;
    }
    for (titles, options) in titles.chunks(2).zip(drawn.chunks(2)) {
        let start = body.lines.len();
        let column = DIAGRAM_INDENT.len() + half + GAP;
        let mut head = titles[0].clone();
        let used = display_width(&head.to_string());
        head.spans
            .push(Span::raw(" ".repeat(column.saturating_sub(used))));
        if let Some(right) = titles.get(1) {
            head.spans.extend(
                right
                    .spans
                    .iter()
                    .cloned()
                    .map(|s| s.patch_style(right.style)),
            );
        }
        body.lines.push(head);
        let rows = options.iter().map(|o| o.lines.len()).max().unwrap_or(0);
        for row in 0..rows {
            let mut spans = Vec::new();
            let mut used = 0;
            for (n, option) in options.iter().enumerate() {
                if n == 1 {
                    spans.push(Span::raw(" ".repeat(column.saturating_sub(used))));
                }
                let marked = option.marked.get(row).copied().unwrap_or(false);
                spans.push(margin(marked));
                if let Some(line) = option.lines.get(row) {
                    used = DIAGRAM_INDENT.len() + line.width();
                    spans.extend(line.spans.iter().map(borrowed));
                } else {
                    used = DIAGRAM_INDENT.len();
                }
            }
            body.lines.push(Line::from(spans));
        }
        let end = body.lines.len();
        for _ in options {
            body.option_rows.push((start, end));
        }
    }
}

/// The given options drawn to fit `width`, in one form (see [`super::diagrams::options`]).
pub fn diagrams(options: &[MermaidOption], width: usize, theme: Theme) -> Vec<Vec<Line<'static>>> {
    super::diagrams::options(options, width, theme, super::diagrams::View::default())
        .into_iter()
        .map(|d| d.lines)
        .collect()
}

/// Practice mode: right or wrong at once, with the explanation.
fn practice_feedback(
    body: &mut Body,
    q: &Question,
    saved: Option<&str>,
    width: usize,
    theme: Theme,
) {
    let (Some(answer), Some(expected)) = (saved, q.kind.expected_value()) else {
        return;
    };
    body.lines.push(Line::default());
    if q.is_right(answer) == Some(true) {
        body.lines.push(Line::styled("✓ Right.", theme.right()));
    } else {
        let shown = match &q.kind {
            QuestionKind::Mermaid { .. } => format!("Option {expected}"),
            _ => expected,
        };
        body.lines
            .push(Line::styled("✗ Not quite — the answer is:", theme.wrong()));
        body.lines.extend(markdown::render(&shown, width, theme));
    }
    if let Some(explanation) = q.explanation.as_deref().filter(|e| !e.trim().is_empty()) {
        body.lines
            .extend(markdown::render(explanation, width, theme));
    }
}

/// A copy of a drawn span: the view keeps its own lines, built once per change.
fn borrowed(span: &Span<'static>) -> Span<'static> {
    span.clone()
}

/// The line over the options, in words, naming the keys that help.
pub fn note_text(note: &Note) -> String {
    let key = |action| key_for(Context::Question, &action);
    match note {
        Note::Drawing => "Drawing the options…".into(),
        Note::TooBig => format!(
            "Listed: an option has over {} lines, too large to draw.",
            super::diagrams::DRAW_AT_MOST
        ),
        Note::TooWide => "Listed: too wide to draw here.".into(),
        Note::SaySame => format!(
            "The options say the same, drawn differently: nothing to mark (press {} to compare them).",
            key(Action::ToggleComparison)
        ),
        Note::WordsMarked => format!(
            "Laid out differently: the words that differ are marked (press {} to compare them).",
            key(Action::ToggleComparison)
        ),
        Note::AllApart => format!(
            "Laid out differently: no cells marked. {} lists them, differing rows marked.",
            key(Action::ToggleDiagramList)
        ),
        Note::Apart(labels) => {
            let (option, is) = if labels.len() == 1 {
                ("Option", "is")
            } else {
                ("Options", "are")
            };
            format!(
                "{option} {} {is} laid out differently, so not marked: {} lists them.",
                labels.join(", "),
                key(Action::ToggleDiagramList)
            )
        }
    }
}
