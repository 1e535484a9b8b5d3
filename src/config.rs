//! quizz's settings for the terminal UI: `$XDG_CONFIG_HOME/quizz/config.toml`, section `[ui]`.
//!
//! ```toml
//! [ui]
//! mouse = false   # the wheel no longer scrolls; the terminal selects text as usual
//! ```

use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
struct File {
    #[serde(default)]
    ui: Ui,
}

#[derive(Debug, Deserialize)]
struct Ui {
    #[serde(default = "yes")]
    mouse: bool,
}

impl Default for Ui {
    fn default() -> Self {
        Self { mouse: true }
    }
}

fn yes() -> bool {
    true
}

/// Whether the mouse wheel scrolls the UI (default yes). An unreadable file changes
/// nothing here: `take` already reports it for the `[github]` section.
pub fn mouse() -> bool {
    crate::github::config::config_path()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|text| toml::from_str::<File>(&text).ok())
        .is_none_or(|f| f.ui.mouse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mouse_is_on_unless_the_file_says_no() {
        assert!(toml::from_str::<File>("").unwrap().ui.mouse);
        assert!(
            toml::from_str::<File>("[github]\ntrust = []")
                .unwrap()
                .ui
                .mouse
        );
        assert!(
            !toml::from_str::<File>("[ui]\nmouse = false")
                .unwrap()
                .ui
                .mouse
        );
    }
}
