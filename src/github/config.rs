//! quizz's settings for GitHub: `$XDG_CONFIG_HOME/quizz/config.toml`, section `[github]`.
//!
//! ```toml
//! [github]
//! trust = ["my-quiz-runner", "octocat"]   # logins whose quiz comments are taken
//! ```

use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
struct File {
    #[serde(default)]
    github: Section,
}

#[derive(Debug, Default, Deserialize)]
struct Section {
    #[serde(default)]
    trust: Vec<String>,
}

/// Trusted logins from the config file, and a note when the file cannot be used.
pub fn trusted_logins() -> (Vec<String>, Option<String>) {
    let Some(path) = crate::config::path() else {
        return (Vec::new(), None);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Vec::new(), None),
        Err(e) => return (Vec::new(), Some(format!("{}: {e}", path.display()))),
    };
    match toml::from_str::<File>(&text) {
        Ok(f) => (f.github.trust, None),
        Err(e) => (
            Vec::new(),
            Some(format!("{}: ignored: {}", path.display(), e.message())),
        ),
    }
}
