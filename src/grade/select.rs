//! Which backend grades: [`crate::llm`]'s choice, with grading's limits (its timeout,
//! `QUIZZ_GRADE_TIMEOUT`) and a [`Grader`] over it.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;
use std::time::Duration;

use super::{Grader, LlmGrader};
use crate::llm::{ClaudeCliConfig, EnvSnapshot, HttpConfig, Limits, select_backend};

/// The chosen backend as a grader, and how it was chosen (the fields of
/// [`crate::llm::Selection`] read through it).
#[derive(Clone)]
pub struct Selection {
    pub grader: Option<ChosenGrader>,
    chosen: crate::llm::Selection,
}

/// A grader and the names a user is told for it: one value from the choice to the
/// screen that says who grades.
#[derive(Clone)]
pub struct ChosenGrader {
    pub grader: Arc<dyn Grader>,
    /// As `doctor` names it (`Anthropic Messages API`, `claude CLI`).
    pub backend: &'static str,
    pub model: String,
}

impl fmt::Debug for ChosenGrader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChosenGrader")
            .field("backend", &self.backend)
            .field("model", &self.model)
            .finish_non_exhaustive()
    }
}

impl Selection {
    /// Why there is no grader, when `QUIZZ_GRADER` made it so: turned off, or the backend
    /// it names cannot be used. `None` when there is a grader, or none was set up.
    pub fn why_none(&self) -> Option<String> {
        if self.grader.is_some() || !self.chosen.forced {
            return None;
        }
        Some(
            self.chosen
                .unusable
                .clone()
                .unwrap_or_else(|| "turned off by QUIZZ_GRADER=none".to_string()),
        )
    }
}

impl Deref for Selection {
    type Target = crate::llm::Selection;

    fn deref(&self) -> &Self::Target {
        &self.chosen
    }
}

impl fmt::Debug for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.chosen.fmt(f)
    }
}

/// The grading backend: see [`select_backend`]; each answer within `QUIZZ_GRADE_TIMEOUT`.
pub fn select_grader(env: &EnvSnapshot) -> Selection {
    let mut reasons = Vec::new();
    let timeout = grade_timeout(env, &mut reasons);
    let limits = Limits {
        http: HttpConfig {
            request_timeout: timeout,
            ..HttpConfig::default()
        },
        cli: ClaudeCliConfig {
            timeout,
            ..ClaudeCliConfig::default()
        },
    };
    let mut chosen = select_backend(env, &limits);
    chosen.reasons.splice(0..0, reasons);
    let grader = chosen.llm.clone().map(|llm| ChosenGrader {
        grader: Arc::new(LlmGrader::new(llm)),
        backend: chosen.backend.describe(),
        model: chosen.model.clone(),
    });
    Selection { grader, chosen }
}

/// `QUIZZ_GRADE_TIMEOUT` (seconds per answer), else 120 s.
fn grade_timeout(env: &EnvSnapshot, reasons: &mut Vec<String>) -> Duration {
    crate::llm::seconds_from(
        env,
        "QUIZZ_GRADE_TIMEOUT",
        Duration::from_secs(120),
        3600,
        "per answer",
        reasons,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grader and the names the take's screens show for it come as one value, from the
    /// same choice.
    #[test]
    fn the_chosen_grader_carries_the_names_it_is_shown_by() {
        let env = EnvSnapshot::from_pairs([
            ("ANTHROPIC_API_KEY", "sk-test"),
            ("QUIZZ_MODEL", "claude-test"),
            ("PATH", ""),
        ]);
        let selection = select_grader(&env);
        let chosen = selection.grader.as_ref().expect("an API key grades");
        assert_eq!(chosen.backend, selection.backend.describe());
        assert_eq!(chosen.model, "claude-test");
        assert_eq!(chosen.grader.name(), "Anthropic Messages API");
        let none = select_grader(&EnvSnapshot::from_pairs([("PATH", "")]));
        assert!(none.grader.is_none());
    }

    /// The overview's reason for no grader: `QUIZZ_GRADER`'s own, else nothing (not set up).
    #[test]
    fn why_there_is_no_grader_is_quizz_graders_reason_when_it_chose() {
        let why = |pairs: &[(&str, &str)]| {
            select_grader(&EnvSnapshot::from_pairs(pairs.iter().copied())).why_none()
        };
        assert_eq!(
            why(&[("PATH", "")]),
            None,
            "not set up: no reason of its own"
        );
        assert_eq!(
            why(&[("PATH", ""), ("QUIZZ_GRADER", "none")]).as_deref(),
            Some("turned off by QUIZZ_GRADER=none")
        );
        assert_eq!(
            why(&[("PATH", ""), ("QUIZZ_GRADER", "anthropic")]).as_deref(),
            Some(
                "QUIZZ_GRADER=anthropic, but neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set"
            )
        );
        assert_eq!(
            why(&[("ANTHROPIC_API_KEY", "k"), ("QUIZZ_GRADER", "anthropic")]),
            None
        );
    }
}
