//! One attempt at one quiz: answers, flags, where the taker was, and the last results.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::{Origin, Store, StoreError, write_json_atomic};
use crate::quiz::{Answers, Quiz, Results};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// Layout version of this file.
    pub format: u32,
    pub origin: String,
    pub quiz_digest: String,
    pub pr_number: u64,
    /// question id → answer value (as in the Answers model).
    #[serde(default)]
    pub answers: BTreeMap<String, String>,
    #[serde(default)]
    pub flagged: BTreeSet<String>,
    /// Index of the question the taker was on.
    #[serde(default)]
    pub current: usize,
    /// Seconds since the Unix epoch of the last change.
    #[serde(default)]
    pub updated_at: u64,
    /// The results state of the last grading, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results: Option<serde_json::Value>,
    /// When these results were posted to the pull request (seconds since the epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub posted_at: Option<u64>,
    /// Total scores of the attempts before this one, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_scores: Vec<u32>,
    /// question id → how sure the taker was, 1–5 (practice mode asks before revealing).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub confidence: BTreeMap<String, u8>,
    /// A random name for this attempt (new on each new attempt): results posted from it
    /// are told apart from another attempt's, on this machine or another.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub attempt_id: String,
    /// When the results were last graded (milliseconds since the epoch): the newer of two
    /// results of one quiz is the one graded later, whichever reaches GitHub first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graded_at_ms: Option<u64>,
}

/// Which attempt results belong to, and when they were graded: written into the outbox
/// and into the results comment's marker, so an older attempt never replaces a newer one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttemptStamp {
    /// 1 for the first attempt at a quiz on this machine, then 2, …
    pub number: u32,
    /// The attempt's random name ([`Attempt::attempt_id`]).
    pub id: String,
    /// Milliseconds since the epoch.
    pub graded_at_ms: u64,
}

impl AttemptStamp {
    /// Whether results stamped `self` are newer than results stamped `other`.
    pub fn is_newer_than(&self, other: &Self) -> bool {
        (self.graded_at_ms, self.number) > (other.graded_at_ms, other.number)
    }
}

/// An attempt and what happened while reading it.
#[derive(Debug)]
pub struct LoadedAttempt {
    pub attempt: Attempt,
    pub path: PathBuf,
    /// Set when a saved file was unreadable and moved aside.
    pub warning: Option<String>,
}

impl Attempt {
    pub fn new(origin: &Origin, quiz: &Quiz) -> Self {
        Self {
            format: 1,
            origin: origin.key_path().to_string_lossy().into_owned(),
            quiz_digest: quiz.digest(),
            pr_number: quiz.pr_number,
            answers: BTreeMap::new(),
            flagged: BTreeSet::new(),
            current: 0,
            updated_at: now(),
            results: None,
            posted_at: None,
            earlier_scores: Vec::new(),
            confidence: BTreeMap::new(),
            attempt_id: new_attempt_id(),
            graded_at_ms: None,
        }
    }

    pub fn answers(&self) -> Answers {
        Answers {
            pr_number: self.pr_number,
            values: self.answers.clone(),
        }
    }

    pub fn answered_count(&self, quiz: &Quiz) -> usize {
        quiz.questions
            .iter()
            .filter(|q| {
                self.answers
                    .get(&q.id)
                    .is_some_and(|a| !a.trim().is_empty())
            })
            .count()
    }

    /// New results: not posted yet, graded now.
    pub fn set_results(&mut self, results: &Results) {
        self.results = Some(results.to_value());
        self.posted_at = None;
        if self.attempt_id.is_empty() {
            self.attempt_id = new_attempt_id();
        }
        // Never earlier than the last grading, even when the clock went back.
        self.graded_at_ms = Some(now_ms().max(self.graded_at_ms.map_or(0, |t| t + 1)));
    }

    /// The saved results, when this attempt was graded (and they can be read).
    pub fn graded(&self) -> Option<Results> {
        self.results
            .clone()
            .and_then(|v| Results::from_value(v).ok())
    }

    /// Which attempt the saved results are, when it was graded.
    pub fn stamp(&self) -> Option<AttemptStamp> {
        Some(AttemptStamp {
            number: u32::try_from(self.earlier_scores.len() + 1).unwrap_or(u32::MAX),
            id: self.attempt_id.clone(),
            // Graded before quizz kept the time: no later than the last save.
            graded_at_ms: self.graded_at_ms.or_else(|| {
                self.results
                    .as_ref()
                    .map(|_| self.updated_at.saturating_mul(1000))
            })?,
        })
    }

    /// Clears the answers, flags and results for a new try; a graded try's score is kept
    /// in `earlier_scores`.
    pub fn start_again(&mut self) {
        if let Some(score) = self
            .results
            .take()
            .and_then(|r| Results::from_value(r).ok())
            .map(|r| r.total_score)
        {
            self.earlier_scores.push(score);
        }
        self.answers.clear();
        self.flagged.clear();
        self.confidence.clear();
        self.current = 0;
        self.posted_at = None;
        self.graded_at_ms = None;
        self.attempt_id = new_attempt_id();
    }
}

fn new_attempt_id() -> String {
    format!("{:08x}", fastrand::u32(..))
}

impl Store {
    /// The saved attempt for this quiz, or a fresh one. A corrupt file is moved aside
    /// (`*.corrupt-<time>`) and reported, never silently dropped.
    pub fn load_attempt(&self, origin: &Origin, quiz: &Quiz) -> Result<LoadedAttempt, StoreError> {
        let path = self.attempt_path(origin, &quiz.digest());
        let fresh = || Attempt::new(origin, quiz);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(LoadedAttempt {
                    attempt: fresh(),
                    path,
                    warning: None,
                });
            }
            Err(cause) => return Err(StoreError::Read { path, cause }),
        };
        match serde_json::from_slice::<Attempt>(&bytes) {
            Ok(mut attempt) if attempt.quiz_digest == quiz.digest() => {
                attempt.current = attempt.current.min(quiz.questions.len().saturating_sub(1));
                Ok(LoadedAttempt {
                    attempt,
                    path,
                    warning: None,
                })
            }
            Ok(_) | Err(_) => {
                let aside = path.with_extension(format!("json.corrupt-{}", now()));
                std::fs::rename(&path, &aside).map_err(|cause| StoreError::Write {
                    path: path.clone(),
                    cause,
                })?;
                let warning = format!(
                    "saved answers at {} were unreadable; moved them to {} and started fresh",
                    path.display(),
                    aside.display()
                );
                Ok(LoadedAttempt {
                    attempt: fresh(),
                    path,
                    warning: Some(warning),
                })
            }
        }
    }

    /// The attempt saved at `writing` (a quiz's while it was written) moves to where the
    /// takes of `quiz` look, its answers with it: for a quiz kept as written so far by a
    /// process that cannot reach its session (an ending signal).
    pub fn settle_writing_attempt(
        &self,
        writing: &std::path::Path,
        origin: &Origin,
        quiz: &Quiz,
    ) -> Result<(), StoreError> {
        let bytes = std::fs::read(writing).map_err(|cause| StoreError::Read {
            path: writing.to_path_buf(),
            cause,
        })?;
        let mut attempt: Attempt =
            serde_json::from_slice(&bytes).map_err(|e| StoreError::Read {
                path: writing.to_path_buf(),
                cause: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
            })?;
        attempt.quiz_digest = quiz.digest();
        attempt.current = attempt.current.min(quiz.questions.len().saturating_sub(1));
        self.save_attempt(&self.attempt_path(origin, &quiz.digest()), &mut attempt)?;
        if let Err(e) = std::fs::remove_file(writing) {
            tracing::warn!("cannot remove {}: {e}", writing.display());
        }
        Ok(())
    }

    pub fn save_attempt(
        &self,
        path: &std::path::Path,
        attempt: &mut Attempt,
    ) -> Result<(), StoreError> {
        attempt.updated_at = now();
        write_json_atomic(path, attempt)
    }
}

pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::parse_quiz;

    fn quiz() -> Quiz {
        parse_quiz(include_str!("../../assets/demo-quiz.json")).unwrap()
    }

    #[test]
    fn saved_answers_come_back_and_a_changed_quiz_starts_fresh() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let quiz = quiz();
        let mut loaded = store.load_attempt(&Origin::Demo, &quiz).unwrap();
        loaded.attempt.answers.insert("q2".into(), "false".into());
        loaded.attempt.current = 3;
        store
            .save_attempt(&loaded.path, &mut loaded.attempt)
            .unwrap();

        let again = store.load_attempt(&Origin::Demo, &quiz).unwrap();
        assert_eq!(again.attempt.answers["q2"], "false");
        assert_eq!(again.attempt.current, 3);

        let mut changed = quiz.clone();
        changed.questions[1].prompt.push('?');
        assert!(
            store
                .load_attempt(&Origin::Demo, &changed)
                .unwrap()
                .attempt
                .answers
                .is_empty()
        );
    }

    #[test]
    fn a_corrupt_file_is_moved_aside_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let quiz = quiz();
        let path = store.attempt_path(&Origin::Demo, &quiz.digest());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{ half a file").unwrap();
        let loaded = store.load_attempt(&Origin::Demo, &quiz).unwrap();
        assert!(loaded.warning.unwrap().contains("moved them to"));
        let kept: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(
            kept.iter()
                .any(|n| n.to_string_lossy().contains(".corrupt-")),
            "{kept:?}"
        );
    }
}
