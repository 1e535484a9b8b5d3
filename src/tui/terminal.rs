//! Entering and leaving the full-screen terminal, on every exit path.

use std::io::{Stdout, Write, stdout};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};

pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Restores the terminal when dropped: normal return, `?` errors and unwinding alike.
pub struct Guard {
    pub terminal: Term,
}

pub fn enter() -> std::io::Result<Guard> {
    install_panic_hook();
    setup()?;
    let terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    Ok(Guard { terminal })
}

fn setup() -> std::io::Result<()> {
    enable_raw_mode()?;
    execute!(
        stdout(),
        EnterAlternateScreen,
        EnableBracketedPaste,
        cursor::Hide
    )
}

/// Puts the terminal back as it was; safe to call more than once.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        stdout(),
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
        setup()?;
        self.terminal.clear()?;
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

/// Edits `text` in `$VISUAL`, `$EDITOR` or `vi`; returns the new text.
pub fn external_editor(text: &str) -> Result<String, String> {
    let editor = ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|e| !e.trim().is_empty()))
        .unwrap_or_else(|| "vi".to_string());
    let file = tempfile::Builder::new()
        .prefix("quizz-answer-")
        .suffix(".md")
        .tempfile()
        .map_err(|e| format!("cannot make a file for the editor: {e}"))?;
    std::fs::write(file.path(), text)
        .map_err(|e| format!("cannot write the answer for the editor: {e}"))?;
    // Through the shell, so EDITOR="code --wait" works as it does for git.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(file.path())
        .status()
        .map_err(|e| format!("cannot start {editor}: {e}"))?;
    if !status.success() {
        return Err(format!(
            "{editor} exited with {status}; the answer is unchanged"
        ));
    }
    std::fs::read_to_string(file.path()).map_err(|e| format!("cannot read the edited answer: {e}"))
}
