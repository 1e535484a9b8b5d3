//! Drawing the generation screen: reads the state, changes nothing.

use std::time::Duration;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::state::{Phase, State};
use crate::generate::Stage;
use crate::text::{display_width, sanitize_line, wrap};
use crate::tui::layout::{MIN_HEIGHT, MIN_WIDTH};
use crate::tui::ui::clip;

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// The rows a failed check may take before it is cut.
const CHECK_ROWS: usize = 2;

pub fn draw(frame: &mut Frame, state: &State) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(frame, area, state);
        return;
    }
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    draw_header(frame, header, state);
    let body = body.inner(Margin::new(1, 0));
    let lines = body_lines(state, usize::from(body.width), usize::from(body.height));
    frame.render_widget(Paragraph::new(lines), body);
    draw_footer(frame, footer, state);
}

fn too_small(frame: &mut Frame, area: Rect, state: &State) {
    let leave = if state.phase == Phase::Offered {
        "Esc leaves."
    } else {
        "Esc cancels the quiz being written."
    };
    let text = vec![
        Line::from("Terminal too small"),
        Line::from(format!(
            "{}x{} — need {MIN_WIDTH}x{MIN_HEIGHT}",
            area.width, area.height
        )),
        Line::from(leave),
    ];
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

fn draw_header(frame: &mut Frame, area: Rect, state: &State) {
    let theme = state.screen.theme;
    let left = match state.phase {
        Phase::Offered => " quizz · no quiz yet",
        Phase::Running => " quizz · writing a quiz",
        Phase::Cancelling => " quizz · cancelling",
    };
    let right = if state.started.is_some() {
        format!("{} ", clock(state.elapsed()))
    } else {
        String::new()
    };
    let pad = usize::from(area.width).saturating_sub(display_width(left) + display_width(&right));
    let line = Line::from(vec![
        Span::styled(left, theme.title()),
        Span::raw(" ".repeat(pad)),
        Span::styled(right, theme.dim()),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

/// `1:05`.
fn clock(elapsed: Duration) -> String {
    let secs = elapsed.as_secs();
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// What the change is, what was read of it, then the offer or the stages. When they do
/// not fit, the stages keep at least half the rows: the latest ones, each whole.
fn body_lines(state: &State, width: usize, rows: usize) -> Vec<Line<'static>> {
    let theme = state.screen.theme;
    let plain = Span::raw("");
    let mut fixed = vec![Line::default()];
    fixed.extend(hanging(
        &plain,
        0,
        &format!("A quiz for {}", state.screen.title),
        theme.title(),
        width,
        usize::MAX,
    ));
    fixed.push(Line::default());
    if let Some(why) = &state.screen.offer {
        fixed.extend(hanging(&plain, 0, why, Style::new(), width, usize::MAX));
    }
    for line in &state.screen.reading {
        fixed.extend(hanging(&plain, 2, line, Style::new(), width, usize::MAX));
    }
    fixed.push(Line::default());
    let groups = if state.phase == Phase::Offered {
        vec![offer_lines(state, width)]
    } else {
        stage_lines(state, width)
    };
    let needed: usize = groups.iter().map(Vec::len).sum();
    if fixed.len() + needed <= rows {
        fixed.extend(groups.into_iter().flatten());
        return fixed;
    }
    // The latest groups that fit (the last one always), under a line saying how many
    // rows are left out above them.
    let room = needed.min(rows.saturating_sub(fixed.len()).max(rows / 2));
    let mut kept = 0;
    let mut used = 0;
    for group in groups.iter().rev() {
        let more = group.len() + usize::from(kept + 1 < groups.len());
        if kept > 0 && used + more > room {
            break;
        }
        used += group.len();
        kept += 1;
    }
    let hidden: usize = groups[..groups.len() - kept].iter().map(Vec::len).sum();
    let shown = used + usize::from(hidden > 0);
    fixed.truncate(rows.saturating_sub(shown));
    if hidden > 0 {
        fixed.push(Line::styled(
            format!("⋯ {} above", crate::text::plural(hidden, "line", "lines")),
            theme.dim(),
        ));
    }
    let skip = groups.len() - kept;
    fixed.extend(groups.into_iter().skip(skip).flatten());
    fixed
}

fn offer_lines(state: &State, width: usize) -> Vec<Line<'static>> {
    let text = format!(
        "y (or Enter) writes a quiz with {} ({}); it takes a minute or two, and the quiz stays on this machine: nothing is posted. q or Esc leaves: nothing is asked of the model.",
        state.screen.backend, state.screen.model
    );
    hanging(
        &Span::raw(""),
        0,
        &text,
        state.screen.theme.key(),
        width,
        usize::MAX,
    )
}

/// Each stage as it came, a group of rows each: done ones ticked, the current one spinning
/// with its time, the checks a repair is for under it.
fn stage_lines(state: &State, width: usize) -> Vec<Vec<Line<'static>>> {
    let theme = state.screen.theme;
    let running = state.phase == Phase::Running;
    let tick = super::TICK.as_millis().max(1);
    let frame = usize::try_from(state.elapsed().as_millis() / tick).unwrap_or(0) % SPINNER.len();
    let spinner = Span::styled(format!("{} ", SPINNER[frame]), theme.key());
    let mut lines = Vec::new();
    if state.stages.is_empty() && running {
        lines.push(hanging(
            &spinner,
            2,
            "starting…",
            Style::new(),
            width,
            usize::MAX,
        ));
    }
    // What runs is the last stage that takes time; a file read or a question written is
    // an event under it, done as soon as it is told.
    let last = state.stages.iter().rposition(|(_, s)| !s.is_event());
    for (i, (at, stage)) in state.stages.iter().enumerate() {
        let current = Some(i) == last && running;
        let mut text = sanitize_line(&stage.summary());
        if current {
            if matches!(stage, Stage::Asking { round: 0, .. }) {
                text.push_str(" — this takes a minute or two");
            }
            text.push_str(&format!(" · {}s", state.stage_elapsed().as_secs()));
            if let Some(n) = state.tokens.filter(|n| *n > 0) {
                text.push_str(&format!(" · {} tokens so far", crate::text::thousands(n)));
            }
        } else if let Some((next, _)) = state.stages[i + 1..]
            .iter()
            .find(|(_, s)| !s.is_event())
            .filter(|_| !stage.is_event())
        {
            // What took time (the model's answer) says how long; a check is instant.
            let took = next.saturating_sub(*at).as_secs();
            if took > 0 {
                text.push_str(&format!(" · {took}s"));
            }
        }
        let lead = match stage {
            Stage::Repairing { .. } | Stage::Redrafting { .. } | Stage::QuestionDropped { .. } => {
                Span::styled("✗ ", theme.wrong())
            }
            _ if current => spinner.clone(),
            _ => Span::styled("✓ ", theme.right()),
        };
        lines.push(hanging(&lead, 2, &text, Style::new(), width, usize::MAX));
        let (below, style) = match stage {
            Stage::Repairing { checks }
            | Stage::Redrafting { checks, .. }
            | Stage::QuestionDropped { checks, .. } => (checks.as_slice(), Style::new()),
            // The plan's questions, one line each.
            Stage::Planned { slots } => (slots.as_slice(), theme.dim()),
            _ => (&[][..], Style::new()),
        };
        for item in below {
            let lead = Span::styled("  - ", theme.dim());
            let item = sanitize_line(item);
            lines.push(hanging(&lead, 4, &item, style, width, CHECK_ROWS));
        }
    }
    if state.phase == Phase::Cancelling {
        let mut group = vec![Line::default()];
        group.extend(hanging(
            &Span::styled("… ", theme.warn()),
            2,
            "cancelling: stopping the model's request; nothing is kept",
            theme.warn(),
            width,
            usize::MAX,
        ));
        lines.push(group);
    }
    lines
}

/// `text` wrapped between words to `width`: `lead` (as wide as `indent`) starts the first
/// row, `indent` spaces the others. Past `max_rows` the last row is cut with `…`; a word
/// wider than a row is cut too.
fn hanging(
    lead: &Span<'static>,
    indent: usize,
    text: &str,
    style: Style,
    width: usize,
    max_rows: usize,
) -> Vec<Line<'static>> {
    let room = width.saturating_sub(indent).max(1);
    let text = sanitize_line(text);
    let mut rows = wrap(&text, room);
    if rows.len() > max_rows {
        let rest = rows.split_off(max_rows - 1).join(" ");
        rows.push(rest);
    }
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            let head = if i == 0 {
                lead.clone()
            } else {
                Span::raw(" ".repeat(indent))
            };
            Line::from(vec![head, Span::styled(clip(row, room), style)])
        })
        .collect()
}

fn draw_footer(frame: &mut Frame, area: Rect, state: &State) {
    let theme = state.screen.theme;
    let wide = area.width >= 45;
    let spans = match state.phase {
        Phase::Offered => vec![
            Span::raw(" "),
            Span::styled("y", theme.key()),
            Span::raw(" write the quiz   "),
            Span::styled("q/Esc", theme.key()),
            Span::raw(" leave"),
        ],
        Phase::Running => vec![
            Span::raw(" "),
            Span::styled("Esc/q/Ctrl-C", theme.key()),
            Span::raw(if wide {
                " cancel (nothing is kept)"
            } else {
                " cancel"
            }),
        ],
        Phase::Cancelling => vec![Span::styled(" cancelling…", theme.warn())],
    };
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
