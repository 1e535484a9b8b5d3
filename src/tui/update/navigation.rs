//! Moving around: questions, option cursors, lists, scrolling. Every scroll is kept
//! within the measured view ([`crate::tui::view`]); drawing only reads it.

use super::{editing, refuse_answer_change, saved};
use crate::quiz::QuestionKind;
use crate::tui::action::Action;
use crate::tui::app::{App, Entered, Overlay, Place, QuestionScreen, ResultsScreen, Screen};
use crate::tui::keymap::{Context, key_for};

pub fn go(app: &mut App, index: usize) {
    let index = index.min(app.question_count().saturating_sub(1));
    let moved = index != app.current();
    // A graded attempt's answers are not changed after the right ones were shown; from
    // question to question, `Esc` still goes back where the first one was entered from.
    let entered = if app.results.is_some() {
        Entered::Results
    } else {
        app.question_screen()
            .map_or(Entered::Overview, |q| q.entered)
    };
    match app.question_screen_mut() {
        // On the same question: only the answer box closes.
        Some(q) if !moved => {
            q.entered = entered;
            q.editor = None;
        }
        _ => app.screen = Screen::Question(QuestionScreen::entered(entered)),
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
    match app.question_screen().map(|q| q.entered) {
        Some(Entered::Results) => {
            app.screen = Screen::Results(ResultsScreen {
                cursor: app.current(),
                scroll: 0,
            });
            super::refresh(app);
            scroll_to_result(app);
        }
        Some(Entered::Review) => open_review(app),
        _ if matches!(app.screen, Screen::Results(_)) => app.screen = Screen::Overview,
        _ => go(app, app.current()),
    }
}

/// The next question; after the last one, the review (where submitting is), or for a
/// question opened from the results, the results.
pub fn next(app: &mut App) {
    let last = app.current() + 1 >= app.question_count();
    if last && app.reading() {
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
    app.screen = Screen::Review {
        cursor: app.current(),
    };
}

/// The top of a scrolled question, else the first question.
pub fn first(app: &mut App) {
    match &mut app.screen {
        Screen::Review { cursor } => *cursor = 0,
        Screen::Results(r) => *r = ResultsScreen::default(),
        Screen::Question(q) if q.scroll > 0 => q.scroll = 0,
        _ => go(app, 0),
    }
}

/// The last question, and on it, its bottom.
pub fn last(app: &mut App) {
    let last = app.question_count().saturating_sub(1);
    let on_last = app.current() == last;
    match &mut app.screen {
        Screen::Review { cursor } => *cursor = last,
        Screen::Results(r) => {
            r.cursor = last;
            r.scroll = u16::MAX;
        }
        Screen::Question(q) if on_last => q.scroll = u16::MAX,
        _ => go(app, last),
    }
}

pub fn move_cursor(app: &mut App, delta: isize) {
    let last = app.question_count().saturating_sub(1);
    match &mut app.screen {
        Screen::Review { cursor } => {
            *cursor = cursor.saturating_add_signed(delta).min(last);
            return;
        }
        Screen::Results(r) => {
            r.cursor = r.cursor.saturating_add_signed(delta).min(last);
            scroll_to_result(app);
            return;
        }
        _ => {}
    }
    let i = app.current();
    let count = app.question().map_or(0, |q| q.choices().len());
    if count == 0 || app.reading() {
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
    set_scroll(app, app.scroll().saturating_add_signed(clamp_i16(delta)));
    clamp_scrolls(app);
}

pub fn page(app: &mut App, direction: isize) {
    let rows = page_rows(app);
    let last = app.question_count().saturating_sub(1);
    if let Screen::Review { cursor } = &mut app.screen {
        let step = direction.saturating_mul(isize::from(rows.max(1)));
        *cursor = cursor.saturating_add_signed(step).min(last);
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
    set_scroll(app, app.scroll().min(app.view.max_scroll()));
    app.code_scroll = app.code_scroll.min(app.view.code_max_scroll());
    let help_max = app.view.help_max_scroll();
    if let Some(Overlay::Help { scroll }) = &mut app.overlay {
        *scroll = (*scroll).min(help_max);
    }
}

/// Sets the scroll of the screen on show (the question's body or the results).
fn set_scroll(app: &mut App, to: u16) {
    if let Some(scroll) = app.scroll_mut() {
        *scroll = to;
    }
}

/// Scroll keys while the help is open move the help; returns whether it took the action.
pub fn scroll_help(app: &mut App, action: &Action) -> bool {
    let page = page_rows(app);
    let max = app.view.help_max_scroll();
    let Some(Overlay::Help { scroll }) = &mut app.overlay else {
        return false;
    };
    let by = match action {
        Action::ScrollDown | Action::WheelDown => 1,
        Action::ScrollUp | Action::WheelUp => -1,
        Action::PageDown => page,
        Action::PageUp => -page,
        Action::Top => i16::MIN,
        Action::Bottom => i16::MAX,
        _ => return false,
    };
    *scroll = scroll.saturating_add_signed(by).min(max);
    true
}

/// After the options change form (pictures ↔ lists) on a scrolled question: the
/// highlighted option's title at the top, so the taker stays where they were.
pub fn keep_place_after_reform(app: &mut App) {
    if !app.on_question() || app.scroll() == 0 {
        return;
    }
    let cursor = app.cursors.get(app.current()).copied().unwrap_or(0);
    if let Some(&(start, _)) = option_rows(app).get(cursor) {
        set_scroll(app, clamp_u16(start));
    }
}

/// Where the taker is on the question's body, as laid out now: the option under the
/// cursor when its title is in view, else the option the view starts inside, else the
/// first whose title is in view (`None`: only the prompt is in view).
pub fn place(app: &App) -> Option<Place> {
    let options = option_rows(app);
    let top = usize::from(app.scroll());
    let bottom = top + viewport_rows(app);
    let title_in_view = |&(start, _): &(usize, usize)| start >= top && start < bottom;
    let cursor = app
        .cursors
        .get(app.current())
        .copied()
        .filter(|_| !app.reading());
    let option = cursor
        .filter(|&c| options.get(c).is_some_and(title_in_view))
        .or_else(|| options.iter().position(|&(s, e)| s < top && top < e))
        .or_else(|| options.iter().position(title_in_view))?;
    let (start, end) = options[option];
    Some(Place {
        question: app.current(),
        option,
        from_top: signed(start) - signed(top),
        rows: end - start,
        at_top: top == 0,
    })
}

/// Puts the view back at `app.place` in the body as laid out now; the place is kept while
/// the options are still being drawn for this width (they list only titles meanwhile).
pub fn restore_place(app: &mut App) {
    let Some(place) = app
        .place
        .filter(|p| p.question == app.current() && app.on_question())
    else {
        app.place = None;
        return;
    };
    let drawing = app
        .question()
        .is_some_and(|q| matches!(q.kind, QuestionKind::Mermaid { .. }))
        && app.diagrams.is_none();
    if !drawing {
        app.place = None;
    }
    let Some(&(start, end)) = option_rows(app).get(place.option) else {
        return;
    };
    let viewport = viewport_rows(app);
    let scroll = match usize::try_from(place.from_top) {
        // At the top the prompt stays in view unless the option's title would not.
        Ok(_) if place.at_top => usize::from(scroll_to_show(
            0,
            (clamp_u16(start), clamp_u16(start + 1)),
            clamp_u16(viewport),
        )),
        Ok(from_top) => start.saturating_sub(from_top.min(viewport.saturating_sub(1))),
        // Inside a tall option: as far into it, in proportion to its new height.
        Err(_) => {
            let into = place.from_top.unsigned_abs();
            let rows = end - start;
            start + (into * rows / place.rows.max(1)).min(rows.saturating_sub(1))
        }
    };
    set_scroll(app, clamp_u16(scroll));
    clamp_scrolls(app);
}

fn signed(n: usize) -> isize {
    isize::try_from(n).unwrap_or(isize::MAX)
}

/// Keeps the option under the cursor on screen (tall diagrams scroll into view).
fn scroll_to_cursor(app: &mut App) {
    let viewport = clamp_u16(viewport_rows(app));
    let cursor = app.cursors.get(app.current()).copied().unwrap_or(0);
    if let Some(&(start, end)) = option_rows(app).get(cursor) {
        let (start, end) = (clamp_u16(start), clamp_u16(end));
        set_scroll(app, scroll_to_show(app.scroll(), (start, end), viewport));
    }
}

/// The scroll that shows rows `[start, end)` in `height` rows, moving as little as it can
/// (the start shows when they do not fit).
fn scroll_to_show(scroll: u16, (start, end): (u16, u16), height: u16) -> u16 {
    if start < scroll {
        start
    } else if end > scroll.saturating_add(height) {
        end.saturating_sub(height).min(start)
    } else {
        scroll
    }
}

/// Keeps the question under the results cursor on screen.
fn scroll_to_result(app: &mut App) {
    let Some(text) = &app.view.results else {
        return;
    };
    let Screen::Results(results) = &mut app.screen else {
        return;
    };
    let (total, height) = (text.lines.len(), text.height);
    let Some(&start) = text.starts.get(results.cursor) else {
        return;
    };
    // The last question's block runs to the end of the text.
    let end = text
        .starts
        .get(results.cursor + 1)
        .copied()
        .unwrap_or(total);
    let (start, end, height) = (clamp_u16(start), clamp_u16(end), clamp_u16(height));
    results.scroll = scroll_to_show(results.scroll, (start, end), height);
    clamp_scrolls(app);
}

/// After paging, the option under the cursor is one the taker can see: Enter never
/// chooses an option that is off screen. On the results, the cursor moves to the first
/// question in view.
fn cursor_to_view(app: &mut App) {
    match &mut app.screen {
        Screen::Results(results) => {
            let top = usize::from(results.scroll);
            let Some(text) = &app.view.results else {
                return;
            };
            if let Some(n) = text
                .starts
                .iter()
                .rposition(|&s| s <= top + text.height / 3)
            {
                results.cursor = n;
            }
            return;
        }
        Screen::Question(q) if q.entered != Entered::Results => {}
        _ => return,
    }
    let top = usize::from(app.scroll());
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
    let top = usize::from(app.scroll());
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
        Screen::Review { cursor } => {
            go(app, cursor);
            if let Some(q) = app.question_screen_mut()
                && q.entered == Entered::Overview
            {
                q.entered = Entered::Review;
            }
        }
        Screen::Results(ResultsScreen { cursor, .. }) => {
            // Read only: the answers were graded; changing them is a new attempt.
            app.screen = Screen::Question(QuestionScreen::entered(Entered::Results));
            app.session.set_current(cursor);
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
                let enter =
                    crate::tui::keymap::Key::Code(ratatui::crossterm::event::KeyCode::Enter);
                app.status = Some(format!(
                    "Option {} is highlighted now: {} picks it (or press a number).",
                    first + 1,
                    crate::tui::keymap::key_for_preferring(
                        Context::Question,
                        &Action::Choose,
                        enter
                    )
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
        if let Some(q) = app.question_screen_mut() {
            q.rating = Some(id);
        }
        app.status = Some(crate::tui::app::CONFIDENCE_ASK.into());
    }
}

/// Practice: a rating key rates the answer waiting for it; any other key skips the
/// rating (and then does what it does). Returns whether the action was used up.
pub fn rate_or_skip(app: &mut App, action: &Action) -> bool {
    let Some(id) = app.rating().map(str::to_string) else {
        return false;
    };
    let done = |app: &mut App| {
        if let Some(q) = app.question_screen_mut() {
            q.rating = None;
        }
    };
    match action {
        a if a.is_passive() => false,
        Action::ForceQuit | Action::ToggleHelp => false,
        &Action::Rate(rating @ 1..=5) => {
            let r = app.session.set_confidence(&id, rating);
            saved(app, r);
            done(app);
            app.status = Some(format!("Rated {rating} of 5 · {}", verdict(app, &id)));
            true
        }
        // Any other key only skips: the verdict shows before anything else happens.
        _ => {
            done(app);
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
/// With no panel to scroll, the status says why (`J`/`K` did nothing, silently).
pub fn scroll_code(app: &mut App, delta: i16) {
    if app.code().is_none() {
        app.status = Some("This question points at no code.".into());
        return;
    }
    if !app.code_open {
        app.status = Some(format!(
            "The code is hidden: {} shows it.",
            key_for(Context::Question, &Action::ToggleCode)
        ));
        return;
    }
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
