//! quizz's own settings: `$XDG_CONFIG_HOME/quizz/config.toml` (the `[github]` section is
//! read by `github::config`).
//!
//! ```toml
//! [ui]
//! mouse = false        # the wheel no longer scrolls; the terminal selects text as usual
//!
//! [take]
//! practice = true      # reveal right or wrong as you answer (--exam turns it off once)
//!
//! [practice]
//! confidence = false   # do not ask how sure you are before the reveal
//! ```

use std::path::PathBuf;

use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
struct File {
    #[serde(default)]
    ui: Ui,
    #[serde(default)]
    take: Take,
    #[serde(default)]
    practice: Practice,
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

#[derive(Debug, Default, Deserialize)]
struct Take {
    #[serde(default)]
    practice: bool,
}

#[derive(Debug, Deserialize)]
struct Practice {
    #[serde(default = "yes")]
    confidence: bool,
}

impl Default for Practice {
    fn default() -> Self {
        Self { confidence: true }
    }
}

fn yes() -> bool {
    true
}

/// The settings that shape a take, with their defaults where the file is silent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TakeConfig {
    /// The mouse wheel scrolls the UI.
    pub mouse: bool,
    /// Practice mode unless `--exam`.
    pub practice: bool,
    /// Practice asks for a confidence rating before the reveal.
    pub confidence: bool,
}

impl From<File> for TakeConfig {
    fn from(f: File) -> Self {
        Self {
            mouse: f.ui.mouse,
            practice: f.take.practice,
            confidence: f.practice.confidence,
        }
    }
}

/// The config file: `$XDG_CONFIG_HOME/quizz/config.toml` (each section's reader opens it
/// here, so settings depend on nothing above them).
pub fn path() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|b| b.config_dir().join("quizz").join("config.toml"))
}

/// The config file's settings. An unreadable file changes nothing here: `take` already
/// reports it for the `[github]` section.
pub fn take() -> TakeConfig {
    path()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|text| toml::from_str::<File>(&text).ok())
        .unwrap_or_default()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> TakeConfig {
        toml::from_str::<File>(text).unwrap().into()
    }

    #[test]
    fn defaults_hold_unless_the_file_says_otherwise() {
        let defaults = TakeConfig {
            mouse: true,
            practice: false,
            confidence: true,
        };
        assert_eq!(parsed(""), defaults);
        assert_eq!(parsed("[github]\ntrust = []"), defaults);
        assert!(!parsed("[ui]\nmouse = false").mouse);
        assert!(parsed("[take]\npractice = true").practice);
        assert!(!parsed("[practice]\nconfidence = false").confidence);
    }
}
