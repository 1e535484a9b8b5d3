//! Drawing: every function here takes `&App` and only reads it.

pub mod chrome;
pub mod code;
mod dialogs;
mod grading;
pub mod lines;
mod overview;
mod question;
pub mod results;
mod review;

pub(crate) use lines::clip;

use ratatui::Frame;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use super::app::{App, Overlay, Screen};
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
            Line::from(format!(
                "Answers are saved. {} quits.",
                super::keymap::key_for(super::keymap::Context::TooSmall, &super::Action::ForceQuit)
            )),
        ];
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    match &app.screen {
        Screen::Overview => overview::draw(frame, area, app),
        Screen::Question(_) => question::draw(frame, area, app),
        Screen::Review { cursor } => review::draw(frame, area, app, *cursor),
        Screen::Grading => grading::draw(frame, area, app),
        Screen::Results(r) => results::draw(frame, area, app, r),
    }
    match &app.overlay {
        Some(Overlay::Help { scroll }) => dialogs::help(frame, area, app, *scroll),
        Some(Overlay::Confirm(confirm)) => dialogs::confirm(frame, area, app, confirm),
        None => {}
    }
}

fn source_title(app: &App) -> String {
    let quiz = &app.session.quiz;
    match &app.session.origin {
        crate::store::Origin::PullRequest { .. } => app.session.origin.describe(),
        _ if quiz.pr_number > 0 => format!("PR #{}", quiz.pr_number),
        _ => "local quiz".to_string(),
    }
}
