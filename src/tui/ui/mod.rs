//! Drawing: every function here takes `&App` and only reads it.

mod chrome;
pub mod code;
mod dialogs;
mod grading;
mod lines;
mod overview;
mod question;
pub mod results;
mod review;

pub(crate) use review::clip;

use ratatui::Frame;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use super::app::{App, Screen};
use super::layout::{MIN_HEIGHT, MIN_WIDTH};

pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = vec![
            Line::from("Terminal too small"),
            Line::from(format!(
                "{}x{} — need {MIN_WIDTH}x{MIN_HEIGHT}",
                area.width, area.height
            )),
            Line::from("Answers are saved. q quits."),
        ];
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    match app.screen {
        Screen::Overview => overview::draw(frame, area, app),
        Screen::Question => question::draw(frame, area, app),
        Screen::Review => review::draw(frame, area, app),
        Screen::Grading => grading::draw(frame, area, app),
        Screen::Results => results::draw(frame, area, app),
    }
    if app.help {
        dialogs::help(frame, area, app);
    }
    if let Some(confirm) = &app.confirm {
        dialogs::confirm(frame, area, app, confirm);
    }
}

/// "Question 3/6 · mcq" and the like, for headers.
fn position_title(app: &App) -> String {
    let kind = app.question().map_or("", |q| q.kind.type_name());
    format!(
        "{} · Question {}/{} · {kind}",
        source_title(app),
        app.current() + 1,
        app.planned_count()
    )
}

fn source_title(app: &App) -> String {
    let quiz = &app.session.quiz;
    match &app.session.origin {
        crate::store::Origin::PullRequest { .. } => app.session.origin.describe(),
        _ if quiz.pr_number > 0 => format!("PR #{}", quiz.pr_number),
        _ => "local quiz".to_string(),
    }
}

/// How far the current screen can scroll: the rows it has beyond what fits.
pub fn max_scroll(app: &App) -> u16 {
    let area = ratatui::layout::Rect::new(0, 0, app.size.0, app.size.1);
    let rows = match app.screen {
        Screen::Question => {
            let width = super::body::width(app);
            let lines = super::body::build(app, width).lines.len();
            let height = usize::from(super::body::areas_of(app).body.height);
            // A body taller than its area gives up a row to say so.
            let shown = if lines > height {
                height.saturating_sub(1)
            } else {
                height
            };
            lines.saturating_sub(shown)
        }
        Screen::Results => {
            let (width, height) = results::text_area(area);
            results::build(app, width)
                .lines
                .len()
                .saturating_sub(height)
        }
        _ => 0,
    };
    u16::try_from(rows).unwrap_or(u16::MAX)
}

/// How far the help overlay can scroll.
pub fn help_max_scroll(app: &App) -> u16 {
    let area = ratatui::layout::Rect::new(0, 0, app.size.0, app.size.1);
    let (width, height) = dialogs::help_text_area(area);
    let rows = dialogs::help_lines(app, width).len().saturating_sub(height);
    u16::try_from(rows).unwrap_or(u16::MAX)
}

/// The first row of each question's block on the results, and the rows on screen.
pub fn results_rows(app: &App) -> (Vec<usize>, usize, usize) {
    let area = ratatui::layout::Rect::new(0, 0, app.size.0, app.size.1);
    let (width, height) = results::text_area(area);
    let text = results::build(app, width);
    (text.question_rows, text.lines.len(), height)
}

/// The width the results draw their diagrams for.
pub fn results_diagram_width(app: &App) -> usize {
    let area = ratatui::layout::Rect::new(0, 0, app.size.0, app.size.1);
    results::diagram_width(results::text_area(area).0)
}
