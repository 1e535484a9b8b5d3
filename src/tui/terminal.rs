//! Entering and leaving the full-screen terminal, on every exit path.

use std::io::{Stdout, Write, stdout};
use std::path::Path;

use super::action::EditedFile;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use ratatui::crossterm::style::{
    Attribute, Color, Print, ResetColor, SetAttribute, SetForegroundColor,
};
use ratatui::crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};
use ratatui::layout::Rect;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Restores the terminal when dropped: normal return, `?` errors and unwinding alike.
pub struct Guard {
    pub terminal: Term,
    mouse: bool,
}

/// Takes the terminal over; `mouse`: the wheel scrolls (the terminal's own selection then
/// needs Shift).
pub fn enter(mouse: bool) -> std::io::Result<Guard> {
    install_panic_hook();
    setup(mouse)?;
    let terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    Ok(Guard { terminal, mouse })
}

fn setup(mouse: bool) -> std::io::Result<()> {
    enable_raw_mode()?;
    execute!(
        stdout(),
        EnterAlternateScreen,
        EnableBracketedPaste,
        cursor::Hide
    )?;
    if mouse {
        execute!(stdout(), EnableMouseCapture)?;
    }
    Ok(())
}

/// Puts the terminal back as it was; safe to call more than once.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        stdout(),
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = stdout().flush();
}

impl Guard {
    /// Leaves the full screen for a child program (an editor) and comes back after.
    pub fn suspend<T>(&mut self, run: impl FnOnce() -> T) -> std::io::Result<T> {
        restore();
        let out = run();
        setup(self.mouse)?;
        // A full redraw without `Terminal::clear`, which asks the terminal for the cursor
        // position: the reply can be lost to the input reader, and the query then fails.
        let size = self.terminal.size()?;
        execute!(stdout(), Clear(ClearType::All))?;
        self.terminal
            .resize(Rect::new(0, 0, size.width, size.height))?;
        Ok(out)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// A panic in any thread or task restores the terminal before the message is printed.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// Edits `text` in `$VISUAL`, `$EDITOR` or `vi`, in a file of quizz's private folder
/// `dir` (mode 0600). The file is left for the caller to remove once the text is saved;
/// when the editor fails, it is removed unless the taker changed it.
pub fn external_editor(question_id: &str, text: &str, dir: &Path) -> Result<EditedFile, String> {
    let editor = ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|e| !e.trim().is_empty()))
        .unwrap_or_else(|| "vi".to_string());
    let safe_id: String = question_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(32)
        .collect();
    let mut file = tempfile::Builder::new()
        .prefix(&format!("answer-{safe_id}-"))
        .suffix(".md")
        .tempfile_in(dir)
        .map_err(|e| {
            format!(
                "cannot make a file for the editor in {}: {e}",
                dir.display()
            )
        })?;
    // Ending in a newline, as editors expect of a text file.
    let mut body = text.to_string();
    if !body.is_empty() && !body.ends_with('\n') {
        body.push('\n');
    }
    file.write_all(body.as_bytes())
        .and_then(|()| file.as_file().sync_all())
        .map_err(|e| format!("cannot write the answer for the editor: {e}"))?;
    let path = file
        .into_temp_path()
        .keep()
        .map_err(|e| format!("cannot keep the file for the editor: {e}"))?;
    // Through the shell, so EDITOR="code --wait" works as it does for git.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(&path)
        .status();
    let failed = |why: String| {
        let changed =
            std::fs::read_to_string(&path).is_ok_and(|now| now.trim_end() != text.trim_end());
        if changed {
            format!(
                "{why}; the answer is unchanged, your edit is in {}",
                path.display()
            )
        } else {
            let _ = std::fs::remove_file(&path);
            format!("{why}; the answer is unchanged")
        }
    };
    let name = editor.split_whitespace().next().unwrap_or("the editor");
    match status {
        Err(e) => return Err(failed(format!("cannot start {name}: {e}"))),
        // The shell's 127: the command was not found.
        Ok(s) if s.code() == Some(127) => {
            return Err(failed(format!(
                "editor {name} not found (set VISUAL or EDITOR)"
            )));
        }
        Ok(s) if !s.success() => return Err(failed(format!("{name} exited with {s}"))),
        Ok(_) => {}
    }
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(EditedFile {
            question_id: question_id.to_string(),
            path,
            text,
        }),
        Err(e) => Err(format!(
            "cannot read the edited answer in {}: {e}; the answer is unchanged",
            path.display()
        )),
    }
}

impl Guard {
    /// Draws a frame, then lays a terminal hyperlink (OSC 8) over the code panel's path:
    /// ratatui's cells cannot hold one, so the same text is written again, wrapped in the
    /// link, where the frame put it.
    pub fn draw(&mut self, app: &super::app::App) -> std::io::Result<()> {
        self.terminal.draw(|f| super::ui::draw(f, app))?;
        // Nothing may sit over the path: no help, no dialog, a terminal big enough to draw.
        let covered = app.overlay.is_some() || !app.fits();
        if !app.settings.hyperlinks || !app.on_question() || covered {
            return Ok(());
        }
        let Some((x, y, text, url)) = super::ui::code::link(app) else {
            return Ok(());
        };
        let out = self.terminal.backend_mut();
        let linked = crate::plain::code::hyperlink(&url, &text);
        if app.settings.theme.no_color {
            ratatui::crossterm::queue!(out, cursor::MoveTo(x, y), SetAttribute(Attribute::Bold))?;
        } else {
            ratatui::crossterm::queue!(
                out,
                cursor::MoveTo(x, y),
                SetAttribute(Attribute::Bold),
                SetForegroundColor(Color::Cyan)
            )?;
        }
        ratatui::crossterm::queue!(
            out,
            Print(linked),
            SetAttribute(Attribute::Reset),
            ResetColor
        )?;
        out.flush()
    }
}
