//! Moving around: questions, option cursors, lists, scrolling. Every scroll is kept
//! within the measured view ([`crate::tui::view`]); drawing only reads it.

use super::{editing, refuse_answer_change, saved};
use crate::quiz::QuestionKind;
use crate::tui::action::Action;
use crate::tui::app::{App, Screen};
use crate::tui::keymap::{Context, key_for};

pub fn go(app: &mut App, index: usize) {
    let index = index.min(app.question_count().saturating_sub(1));
    app.editor = None;
    app.screen = Screen::Question;
    // A graded attempt's answers are not changed after the right ones were shown.
    app.reading = app.results.is_some();
    let moved = index != app.current();
    if moved {
        app.scroll = 0;
    }
    app.session.set_current(index);
    if moved {
        start_code_scroll(app);
    }
    // Arriving never opens the answer box: a written answer changes only after an edit
    // key, and on an empty one a letter that is no command starts it (`WriteKey`).
}

/// Esc: from a question opened on the results, back to it there; from the results, the
/// overview.
pub fn back(app: &mut App) {
    if app.reading && app.screen == Screen::Question {
        app.reading = false;
        app.screen = Screen::Results;
        app.results_cursor = app.current();
        app.scroll = 0;
        super::refresh(app);
        scroll_to_result(app);
    } else if app.screen == Screen::Results {
        app.screen = Screen::Overview;
    } else if app.screen == Screen::Question && app.from_review {
        open_review(app);
    } else {
        go(app, app.current());
    }
}

/// The next question; after the last one, the review (where submitting is), or for a
/// question opened from the results, the results.
pub fn next(app: &mut App) {
    let last = app.current() + 1 >= app.question_count();
    if last && app.reading {
        back(app);
        app.status = Some("That was the last question: the results again.".into());
    } else if last {
        open_review(app);
        app.status = Some(format!(
            "That was the last question: review your answers, then {} submits.",
            key_for(Context::Review, &Action::Submit)
        ));
    } else {
        go(app, app.current() + 1);
    }
}

/// The review (before submitting; once submitted the results are the review, see
/// `Action::OpenReview` in `update`).
pub fn open_review(app: &mut App) {
    app.editor = None;
    app.from_review = false;
    app.screen = Screen::Review;
    app.review_cursor = app.current();
}

/// The top of a scrolled question, else the first question.
pub fn first(app: &mut App) {
    match app.screen {
        Screen::Review => app.review_cursor = 0,
        Screen::Results => {
            app.results_cursor = 0;
            app.scroll = 0;
        }
        Screen::Question if app.scroll > 0 => app.scroll = 0,
        _ => go(app, 0),
    }
}

/// The last question, and on it, its bottom.
pub fn last(app: &mut App) {
    let last = app.question_count().saturating_sub(1);
    match app.screen {
        Screen::Review => app.review_cursor = last,
        Screen::Results => {
            app.results_cursor = last;
            app.scroll = u16::MAX;
        }
        Screen::Question if app.current() == last => app.scroll = u16::MAX,
        _ => go(app, last),
    }
}

pub fn move_cursor(app: &mut App, delta: isize) {
    let last = app.question_count().saturating_sub(1);
    match app.screen {
        Screen::Review => {
            app.review_cursor = app.review_cursor.saturating_add_signed(delta).min(last);
            return;
        }
        Screen::Results => {
            app.results_cursor = app.results_cursor.saturating_add_signed(delta).min(last);
            scroll_to_result(app);
            return;
        }
        _ => {}
    }
    let i = app.current();
    let count = app.question().map_or(0, |q| q.choices().len());
    if count == 0 || app.reading {
        // Nothing to choose here: the arrows scroll.
        scroll(app, delta);
        return;
    }
    if let Some(c) = app.cursors.get_mut(i) {
        *c = c.saturating_add_signed(delta).min(count - 1);
    }
    scroll_to_cursor(app);
}

pub fn scroll(app: &mut App, delta: isize) {
    app.scroll = app.scroll.saturating_add_signed(clamp_i16(delta));
    clamp_scrolls(app);
}

pub fn page(app: &mut App, direction: isize) {
    let rows = page_rows(app);
    if app.screen == Screen::Review {
        let last = app.question_count().saturating_sub(1);
        let step = direction.saturating_mul(isize::from(rows.max(1)));
        app.review_cursor = app.review_cursor.saturating_add_signed(step).min(last);
    } else {
        scroll(app, direction.saturating_mul(isize::from(rows)));
        cursor_to_view(app);
    }
}

fn page_rows(app: &App) -> i16 {
    i16::try_from(app.size.1.saturating_sub(6).max(1)).unwrap_or(i16::MAX)
}

fn clamp_i16(n: isize) -> i16 {
    i16::try_from(n).unwrap_or(if n < 0 { i16::MIN } else { i16::MAX })
}

/// Keeps every scroll within what its screen can show (after a resize too).
pub fn clamp_scrolls(app: &mut App) {
    app.scroll = app.scroll.min(app.view.max_scroll());
    app.code_scroll = app.code_scroll.min(app.view.code_max_scroll());
    app.help_scroll = app.help_scroll.min(app.view.help_max_scroll());
}

/// Scroll keys while the help is open move the help; returns whether it took the action.
pub fn scroll_help(app: &mut App, action: &Action) -> bool {
    let page = page_rows(app);
    let by = match action {
        Action::ScrollDown | Action::WheelDown => 1,
        Action::ScrollUp | Action::WheelUp => -1,
        Action::PageDown => page,
        Action::PageUp => -page,
        Action::Top => i16::MIN,
        Action::Bottom => i16::MAX,
        _ => return false,
    };
    app.help_scroll = app
        .help_scroll
        .saturating_add_signed(by)
        .min(app.view.help_max_scroll());
    true
}

/// After the options change form (pictures ↔ lists) on a scrolled question: the
/// highlighted option's title at the top, so the taker stays where they were.
pub fn keep_place_after_reform(app: &mut App) {
    if app.screen != Screen::Question || app.scroll == 0 {
        return;
    }
    let cursor = app.cursors.get(app.current()).copied().unwrap_or(0);
    if let Some(&(start, _)) = option_rows(app).get(cursor) {
        app.scroll = clamp_u16(start);
    }
}

/// Keeps the option under the cursor on screen (tall diagrams scroll into view).
fn scroll_to_cursor(app: &mut App) {
    let viewport = clamp_u16(viewport_rows(app));
    let cursor = app.cursors.get(app.current()).copied().unwrap_or(0);
    if let Some(&(start, end)) = option_rows(app).get(cursor) {
        let (start, end) = (clamp_u16(start), clamp_u16(end));
        if start < app.scroll {
            app.scroll = start;
        } else if end > app.scroll.saturating_add(viewport) {
            app.scroll = end.saturating_sub(viewport).min(start);
        }
    }
}

/// Keeps the question under the results cursor on screen.
fn scroll_to_result(app: &mut App) {
    let Some(text) = &app.view.results else {
        return;
    };
    let (total, height) = (text.lines.len(), text.height);
    let Some(&start) = text.starts.get(app.results_cursor) else {
        return;
    };
    // The last question's block runs to the end of the text.
    let end = text
        .starts
        .get(app.results_cursor + 1)
        .copied()
        .unwrap_or(total);
    let (start, end, height) = (clamp_u16(start), clamp_u16(end), clamp_u16(height));
    if start < app.scroll {
        app.scroll = start;
    } else if end > app.scroll.saturating_add(height) {
        app.scroll = end.saturating_sub(height).min(start);
    }
    clamp_scrolls(app);
}

/// After paging, the option under the cursor is one the taker can see: Enter never
/// chooses an option that is off screen. On the results, the cursor moves to the first
/// question in view.
fn cursor_to_view(app: &mut App) {
    match app.screen {
        Screen::Results => {
            let top = usize::from(app.scroll);
            let Some(text) = &app.view.results else {
                return;
            };
            if let Some(n) = text
                .starts
                .iter()
                .rposition(|&s| s <= top + text.height / 3)
            {
                app.results_cursor = n;
            }
            return;
        }
        Screen::Question if !app.reading => {}
        _ => return,
    }
    let top = usize::from(app.scroll);
    let bottom = top + viewport_rows(app);
    let option_rows = option_rows(app).to_vec();
    let i = app.current();
    let Some(&cursor) = app.cursors.get(i) else {
        return;
    };
    // An option is in view when its title row is: that is what Enter would choose.
    let titled = |&(start, _): &(usize, usize)| start >= top && start < bottom;
    if option_rows.get(cursor).is_some_and(titled) {
        return;
    }
    let overlapping = |&(start, end): &(usize, usize)| start < bottom && end > top;
    if let Some(n) = option_rows
        .iter()
        .position(titled)
        .or_else(|| option_rows.iter().position(overlapping))
        && let Some(c) = app.cursors.get_mut(i)
    {
        *c = n;
    }
}

/// Whether the title row of the option under the cursor is on screen: Enter chooses
/// only an option the taker can see is the one.
fn cursor_title_in_view(app: &App) -> bool {
    let cursor = app.cursors.get(app.current()).copied().unwrap_or(0);
    let (starts, in_view) = option_titles(app);
    starts.get(cursor).is_none_or(|&start| in_view(start))
}

/// The options whose title row is on screen.
fn titles_in_view(app: &App) -> Vec<usize> {
    let (starts, in_view) = option_titles(app);
    (0..starts.len()).filter(|&i| in_view(starts[i])).collect()
}

/// The body row of each option's title, and whether a body row is on screen.
fn option_titles(app: &App) -> (Vec<usize>, impl Fn(usize) -> bool) {
    let viewport = viewport_rows(app);
    let top = usize::from(app.scroll);
    let starts = option_rows(app).iter().map(|&(start, _)| start).collect();
    (starts, move |row: usize| row >= top && row < top + viewport)
}

/// Rows `[start, end)` of each option of the question on screen, as measured.
fn option_rows(app: &App) -> &[(usize, usize)] {
    app.view
        .question
        .as_ref()
        .map_or(&[], |q| q.option_rows.as_slice())
}

/// Rows of the body that show text (at least one).
fn viewport_rows(app: &App) -> usize {
    app.view.question.as_ref().map_or(1, |q| q.rows.max(1))
}

fn clamp_u16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

pub fn choose(app: &mut App) {
    match app.screen {
        Screen::Review => {
            let i = app.review_cursor;
            go(app, i);
            app.from_review = true;
        }
        Screen::Results => {
            // Read only: the answers were graded; changing them is a new attempt.
            let i = app.results_cursor;
            app.reading = true;
            app.screen = Screen::Question;
            app.scroll = 0;
            app.session.set_current(i);
        }
        _ => {
            let Some(q) = app.question() else { return };
            if matches!(q.kind, QuestionKind::Open { .. }) {
                editing::start_editing(app);
            } else if cursor_title_in_view(app) {
                let n = app.cursors.get(app.current()).copied().unwrap_or(0);
                pick(app, n);
            } else if let Some(&first) = titles_in_view(app).first() {
                // The highlighted option is off screen: highlight one in view, pick nothing.
                let i = app.current();
                if let Some(c) = app.cursors.get_mut(i) {
                    *c = first;
                }
                app.status = Some(format!(
                    "Option {} is highlighted now: Enter picks it (or press a number).",
                    first + 1
                ));
            } else {
                app.status = Some(
                    "No option's title is on screen: scroll to one, or press its number.".into(),
                );
            }
        }
    }
}

pub fn pick(app: &mut App, n: usize) {
    if refuse_answer_change(app) {
        return;
    }
    let i = app.current();
    let Some(q) = app.question() else { return };
    let Some(value) = q.value_of(n) else {
        if !q.choices().is_empty() {
            app.status = Some(format!("There is no option {}.", n + 1));
        }
        return;
    };
    let id = q.id.clone();
    if let Some(c) = app.cursors.get_mut(i) {
        *c = n;
    }
    let r = app.session.set_answer(&id, Some(value));
    saved(app, r);
    // The answer shows in the body (practice adds its verdict): measured before scrolling.
    super::refresh(app);
    scroll_to_cursor(app);
    if app.settings.practice
        && app.settings.ask_confidence
        && app.session.busy().is_none()
        && app.session.confidence(&id).is_none()
    {
        app.rating = Some(id);
        app.status = Some(crate::tui::app::CONFIDENCE_ASK.into());
    }
}

/// Practice: a rating key rates the answer waiting for it; any other key skips the
/// rating (and then does what it does). Returns whether the action was used up.
pub fn rate_or_skip(app: &mut App, action: &Action) -> bool {
    let Some(id) = app.rating.clone() else {
        return false;
    };
    match action {
        a if a.is_passive() => false,
        Action::ForceQuit | Action::ToggleHelp => false,
        Action::Pick(n) if *n < 5 => {
            let rating = u8::try_from(n + 1).unwrap_or(5);
            let r = app.session.set_confidence(&id, rating);
            saved(app, r);
            app.rating = None;
            app.status = Some(format!("Rated {rating} of 5 · {}", verdict(app, &id)));
            true
        }
        // Any other key only skips: the verdict shows before anything else happens.
        _ => {
            app.rating = None;
            app.status = Some(format!("Not rated · {}", verdict(app, &id)));
            true
        }
    }
}

/// Practice's verdict on the saved answer, for the status line (the body says it too,
/// perhaps below the fold).
fn verdict(app: &App, id: &str) -> String {
    let Some(q) = app.session.quiz.questions.iter().find(|q| q.id == id) else {
        return String::new();
    };
    let right = app
        .session
        .answer(id)
        .and_then(|given| q.is_right(given))
        .unwrap_or(false);
    if right {
        "✓ right".into()
    } else {
        "✗ not quite: the answer and why are in the question".into()
    }
}

pub fn pick_bool(app: &mut App, value: bool) {
    if app
        .question()
        .is_some_and(|q| matches!(q.kind, QuestionKind::TrueFalse { .. }))
    {
        pick(app, usize::from(!value));
    }
}

/// `c`: the code panel opens or closes (and stays so on the next question).
pub fn toggle_code(app: &mut App) {
    if app.code().is_some() {
        app.code_open = !app.code_open;
        start_code_scroll(app);
    } else {
        app.status = Some("This question points at no code.".into());
    }
}

/// The code panel scrolls on its own, within what its lines leave below its height.
pub fn scroll_code(app: &mut App, delta: i16) {
    app.code_scroll = app
        .code_scroll
        .saturating_add_signed(delta)
        .min(app.view.code_max_scroll());
}

/// Where the code panel starts: at the top when the anchored lines fit under the context
/// before them; else scrolled just enough to show them all, at most to the first one.
pub fn start_code_scroll(app: &mut App) {
    super::refresh(app);
    let Some(view) = &app.view.question else {
        app.code_scroll = 0;
        return;
    };
    let (before, through_last) = view.code.as_ref().map_or((0, 0), |c| c.anchor);
    let shown = view
        .areas
        .code
        .map_or(0, |a| usize::from(a.height.saturating_sub(2)));
    let scroll = through_last.saturating_sub(shown).min(before);
    app.code_scroll = u16::try_from(scroll)
        .unwrap_or(0)
        .min(app.view.code_max_scroll());
}
