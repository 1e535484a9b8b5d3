//! The view measured from the app: after an action, when what it depends on changed.

use std::hash::{DefaultHasher, Hash, Hasher};

use ratatui::layout::Rect;

use super::{CodeView, QuestionView, TextView, View, Widths, max_scroll, shown_rows};
use crate::quiz::QuestionKind;
use crate::tui::app::{App, Screen};
use crate::tui::layout::question_areas;
use crate::tui::{body, code_panel, help, results_text};

/// The widths at this terminal size, with the code panel as it is now.
pub fn widths(app: &App) -> Widths {
    Widths::of(app.size, app.code_open && app.code().is_some())
}

/// Measures the view again when its inputs changed (the question, the terminal size, the
/// diagrams' form and drawing, the code panel, the answers, the screen, the help).
pub fn refresh(app: &mut App) {
    let inputs = inputs(app);
    if app.view.inputs == Some(inputs) {
        return;
    }
    let widths = widths(app);
    let code = app.view.question.as_mut().and_then(|q| q.code.take());
    let question = app.on_question().then(|| question(app, widths, code));
    let results = (matches!(app.screen, Screen::Results(_)) && app.results.is_some()).then(|| {
        let text = results_text::build(app, widths.results);
        let height = usize::from(app.size.1.saturating_sub(1));
        text_view(text.lines, text.question_rows, height)
    });
    let help = app.help_scroll().is_some().then(|| {
        let area = Rect::new(0, 0, app.size.0, app.size.1);
        let (width, height) = help::help_text_area(area);
        text_view(help::help_lines(app, width), Vec::new(), height)
    });
    app.view = View {
        inputs: Some(inputs),
        widths,
        question,
        results,
        help,
    };
}

fn text_view(
    lines: Vec<ratatui::text::Line<'static>>,
    starts: Vec<usize>,
    height: usize,
) -> TextView {
    TextView {
        max_scroll: max_scroll(lines.len(), height),
        lines,
        starts,
        height,
    }
}

/// The question screen: its body, its areas, the code panel (kept when only the body
/// changed).
fn question(app: &App, widths: Widths, kept: Option<CodeView>) -> QuestionView {
    let built = body::build(app, widths.body);
    let open = app
        .question()
        .is_some_and(|q| matches!(q.kind, QuestionKind::Open { .. }));
    let key = (app.current(), app.size);
    let code = app.code().filter(|_| app.code_open).map(|c| match kept {
        Some(kept) if kept.key == key => kept,
        _ => CodeView {
            key,
            anchor: code_panel::anchor_rows(c, widths.code),
            lines: code_panel::lines(c, app.settings.theme, widths.code),
            max_scroll: 0,
        },
    });
    let lines = built.lines.len();
    let areas = question_areas(
        Rect::new(0, 0, app.size.0, app.size.1),
        open.then_some(lines),
        code.as_ref().map(|c| (c.lines.len(), lines)),
    );
    let code = code.map(|mut c| {
        let shown = areas
            .code
            .map_or(0, |a| usize::from(a.height.saturating_sub(2)));
        c.max_scroll = max_scroll(c.lines.len(), shown);
        c
    });
    let height = usize::from(areas.body.height);
    let rows = shown_rows(lines, height);
    QuestionView {
        areas,
        overflows: lines > height,
        max_scroll: max_scroll(lines, rows),
        rows,
        option_rows: built.option_rows,
        lines: built.lines,
        code,
    }
}

/// A digest of everything the view is measured from.
fn inputs(app: &App) -> u64 {
    let mut h = DefaultHasher::new();
    std::mem::discriminant(&app.screen).hash(&mut h);
    (
        app.reading(),
        app.help_scroll().is_some(),
        app.size,
        app.code_open,
    )
        .hash(&mut h);
    (
        app.current(),
        app.cursors.get(app.current()),
        app.diagram_view,
    )
        .hash(&mut h);
    app.session.answers().values.hash(&mut h);
    app.rating().hash(&mut h);
    app.diagrams
        .as_ref()
        .map(|c| {
            (
                c.question,
                c.width,
                c.view,
                std::sync::Arc::as_ptr(&c.arranged),
            )
        })
        .hash(&mut h);
    app.result_diagrams.as_ref().map(|d| d.width).hash(&mut h);
    app.results
        .as_ref()
        .map(|r| (r.total_score, r.pending.len(), r.per_question.len()))
        .hash(&mut h);
    if matches!(app.screen, Screen::Results(_)) {
        // The results name the open answers whose grading failed.
        let failed = app.grading.iter().flat_map(|g| &g.rows);
        for (id, row) in failed {
            if let crate::tui::app::GradeRow::Failed { reason } = row {
                (id, reason).hash(&mut h);
            }
        }
    }
    if app.help_scroll().is_some() {
        (app.context_under_help(), app.hint_filter()).hash(&mut h);
    }
    h.finish()
}
