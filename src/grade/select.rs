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
    pub grader: Option<Arc<dyn Grader>>,
    chosen: crate::llm::Selection,
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
    let grader = chosen
        .llm
        .clone()
        .map(|llm| Arc::new(LlmGrader::new(llm)) as Arc<dyn Grader>);
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
