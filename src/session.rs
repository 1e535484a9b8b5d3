//! A quiz being taken: the quiz, the attempt, and the store every change goes to.

use std::path::PathBuf;

use crate::quiz::{Answers, Question, Quiz};
use crate::source::LoadedQuiz;
use crate::store::{Attempt, Origin, Store, StoreError};

pub struct Session {
    pub quiz: Quiz,
    pub origin: Origin,
    pub notes: Vec<String>,
    attempt: Attempt,
    path: PathBuf,
    store: Store,
}

impl Session {
    /// Opens the saved attempt for this quiz (or a fresh one); warnings go to `notes`.
    pub fn open(store: Store, loaded: LoadedQuiz) -> Result<Self, StoreError> {
        let LoadedQuiz {
            quiz,
            origin,
            mut notes,
        } = loaded;
        let found = store.load_attempt(&origin, &quiz)?;
        notes.extend(found.warning);
        Ok(Self {
            quiz,
            origin,
            notes,
            attempt: found.attempt,
            path: found.path,
            store,
        })
    }

    pub fn attempt(&self) -> &Attempt {
        &self.attempt
    }

    pub fn answer(&self, id: &str) -> Option<&str> {
        self.attempt.answers.get(id).map(String::as_str)
    }

    pub fn answers(&self) -> Answers {
        self.attempt.answers()
    }

    pub fn question(&self, index: usize) -> Option<&Question> {
        self.quiz.questions.get(index)
    }

    /// Sets (or with `None`/blank, clears) an answer and saves at once.
    pub fn set_answer(&mut self, id: &str, value: Option<String>) -> Result<(), StoreError> {
        match value {
            Some(v) if !v.is_empty() => {
                self.attempt.answers.insert(id.to_string(), v);
            }
            _ => {
                self.attempt.answers.remove(id);
            }
        }
        self.save()
    }

    pub fn set_flag(&mut self, id: &str, flagged: bool) -> Result<(), StoreError> {
        if flagged {
            self.attempt.flagged.insert(id.to_string());
        } else {
            self.attempt.flagged.remove(id);
        }
        self.save()
    }

    pub fn is_flagged(&self, id: &str) -> bool {
        self.attempt.flagged.contains(id)
    }

    pub fn set_current(&mut self, index: usize) -> Result<(), StoreError> {
        if self.attempt.current == index {
            return Ok(());
        }
        self.attempt.current = index;
        self.save()
    }

    pub fn current(&self) -> usize {
        self.attempt.current
    }

    pub fn set_results(&mut self, results: &crate::quiz::Results) -> Result<(), StoreError> {
        self.attempt.set_results(results);
        self.save()
    }

    pub fn answered_count(&self) -> usize {
        self.attempt.answered_count(&self.quiz)
    }

    fn save(&mut self) -> Result<(), StoreError> {
        self.store.save_attempt(&self.path, &mut self.attempt)
    }
}
