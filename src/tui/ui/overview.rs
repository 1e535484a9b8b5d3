use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{chrome, source_title};
use crate::text::sanitize_line;
use crate::tui::app::App;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let theme = app.settings.theme;
    let [main, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    let quiz = &app.session.quiz;
    let counts: Vec<String> = quiz
        .count_by_type()
        .iter()
        .map(|(t, n)| format!("{n} {}", sanitize_line(t)))
        .collect();
    let answered = app.session.answered_count();
    let mut lines = vec![
        Line::styled(format!("Quiz on {}", source_title(app)), theme.title()),
        Line::default(),
        Line::from(vec![
            Span::styled("From       ", theme.dim()),
            Span::raw(sanitize_line(&app.session.origin.describe())),
        ]),
        Line::from(vec![
            Span::styled("Questions  ", theme.dim()),
            Span::raw(format!("{} ({})", quiz.questions.len(), counts.join(", "))),
        ]),
        Line::from(vec![
            Span::styled("Grading    ", theme.dim()),
            Span::raw(sanitize_line(&app.settings.grader_label)),
        ]),
    ];
    if app.settings.practice {
        lines.push(Line::from(vec![
            Span::styled("Mode       ", theme.dim()),
            Span::raw("practice: right or wrong shown as you answer"),
        ]));
    }
    if answered > 0 {
        lines.push(Line::from(vec![
            Span::styled("Resuming   ", theme.dim()),
            Span::raw(format!(
                "{answered} of {} answered, at question {}",
                quiz.questions.len(),
                app.current() + 1
            )),
        ]));
    }
    if let Some(owner) = app.session.busy() {
        lines.push(Line::from(vec![
            Span::styled("Read-only  ", theme.warn()),
            Span::raw(format!(
                "this quiz is open in another quizz ({owner}); answers here are not saved. Press "
            )),
            Span::styled("T", theme.key()),
            Span::raw(" to take over (that window then stops saving)."),
        ]));
    }
    for note in &app.session.notes {
        lines.push(Line::from(vec![
            Span::styled("Note       ", theme.warn()),
            Span::raw(sanitize_line(note)),
        ]));
    }
    lines.push(Line::default());
    lines.push(Line::from(vec![
        Span::raw("Press "),
        Span::styled("Enter", theme.key()),
        Span::raw(if answered > 0 {
            " to carry on, "
        } else {
            " to start, "
        }),
        Span::styled("?", theme.key()),
        Span::raw(" for every key, "),
        Span::styled("q", theme.key()),
        Span::raw(" to quit. Answers are saved as you go."),
    ]));
    let inner = main.inner(ratatui::layout::Margin::new(2, 1));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
    chrome::footer(frame, footer, app);
}
