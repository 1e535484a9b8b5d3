//! A failed check, worded for whoever fixes the quiz: the model in a repair round, or the
//! bot's author reading `quizz show --check`.

use std::fmt;

/// One failed check: where (the quiz, a question, one of its options) and what to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The question's id (or its position when it has none).
    pub question: Option<String>,
    /// The option's label (mermaid) or number (mcq).
    pub option: Option<String>,
    pub message: String,
}

impl Finding {
    pub fn quiz(message: impl Into<String>) -> Self {
        Self {
            question: None,
            option: None,
            message: message.into(),
        }
    }

    pub fn question(id: &str, message: impl Into<String>) -> Self {
        Self {
            question: Some(id.to_string()),
            option: None,
            message: message.into(),
        }
    }

    pub fn option(id: &str, option: &str, message: impl Into<String>) -> Self {
        Self {
            question: Some(id.to_string()),
            option: Some(option.to_string()),
            message: message.into(),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.question, &self.option) {
            (Some(q), Some(o)) => write!(f, "question {q}, option {o}: {}", self.message),
            (Some(q), None) => write!(f, "question {q}: {}", self.message),
            _ => write!(f, "the quiz: {}", self.message),
        }
    }
}

/// The findings as a numbered list, one a line: what a repair round sends back.
pub fn listed(findings: &[Finding]) -> String {
    let mut out = String::new();
    for (i, f) in findings.iter().enumerate() {
        out.push_str(&format!("{}. {f}\n", i + 1));
    }
    out
}

/// The findings as the sentences a reader gets (for tests).
#[cfg(test)]
pub(crate) fn sentences(findings: &[Finding]) -> Vec<String> {
    findings.iter().map(ToString::to_string).collect()
}
