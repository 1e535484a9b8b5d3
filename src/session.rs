//! A quiz being taken: the quiz, the attempt, and the store every change goes to.
//!
//! Changes are kept in memory and written by [`Session::flush`]. Plain mode flushes after
//! every answer; the terminal UI flushes once per batch of input, before it draws, so what
//! is on screen is on disk.

use std::path::PathBuf;

use crate::quiz::{Answers, Question, Quiz};
use crate::source::LoadedQuiz;
use crate::store::{Attempt, AttemptLock, Locked, Origin, Owner, Store, StoreError};

pub struct Session {
    pub quiz: Quiz,
    pub origin: Origin,
    pub notes: Vec<String>,
    attempt: Attempt,
    path: PathBuf,
    store: Store,
    lock: AttemptLock,
    /// Set while another quizz saves this attempt: this window only reads.
    busy: Option<Owner>,
    /// Polls in a row that found the owner's lock free (see [`Session::poll`]).
    free_polls: u8,
    dirty: bool,
}

/// What [`Session::poll`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PollNews {
    Nothing,
    /// Another window took this attempt over: this one only reads now.
    TakenOver(Owner),
    /// The window that saves the attempt has closed.
    OwnerClosed,
    /// The other window saved answers or flags, now shown here.
    Reread,
}

/// A lock free this many polls in a row (half a second apart) is a closed owner; once is
/// not enough, as a window that just took over picks the lock up on its next poll.
const CLOSED_AFTER: u8 = 3;

impl Session {
    /// Opens the saved attempt for this quiz (or a fresh one); warnings go to `notes`.
    pub fn open(store: Store, loaded: LoadedQuiz) -> Result<Self, StoreError> {
        let LoadedQuiz {
            quiz,
            origin,
            mut notes,
        } = loaded;
        let found = store.load_attempt(&origin, &quiz)?;
        notes.extend(found.warning.clone());
        Self::at(
            store,
            LoadedQuiz {
                quiz,
                origin,
                notes,
            },
            found,
        )
    }

    /// A fresh attempt at a quiz still being written (what is written so far), saved at
    /// `path` ([`Store::writing_attempt_path`]) until [`Session::settle`] gives it the
    /// whole quiz's place. Answers left there by a writing that never ended are for
    /// questions that are gone: they are not read.
    pub fn open_writing(
        store: Store,
        loaded: LoadedQuiz,
        path: PathBuf,
    ) -> Result<Self, StoreError> {
        let attempt = Attempt::new(&loaded.origin, &loaded.quiz);
        let found = crate::store::LoadedAttempt {
            attempt,
            path,
            warning: None,
        };
        let mut session = Self::at(store, loaded, found)?;
        session.dirty = true;
        Ok(session)
    }

    fn at(
        store: Store,
        loaded: LoadedQuiz,
        found: crate::store::LoadedAttempt,
    ) -> Result<Self, StoreError> {
        let LoadedQuiz {
            quiz,
            origin,
            notes,
        } = loaded;
        let (lock, busy) = match AttemptLock::open(&found.path)? {
            Locked::Mine(lock) => (lock, None),
            Locked::Busy(lock, owner) => (lock, Some(owner)),
        };
        Ok(Self {
            quiz,
            origin,
            notes,
            attempt: found.attempt,
            path: found.path,
            store,
            lock,
            busy,
            free_polls: 0,
            dirty: false,
        })
    }

    /// The quiz being written grew (or is whole): its questions now, the answers kept by
    /// question id. Saved at the same place until [`Session::settle`].
    pub fn grow(&mut self, quiz: Quiz) {
        self.attempt.quiz_digest = quiz.digest();
        self.attempt.current = self
            .attempt
            .current
            .min(quiz.questions.len().saturating_sub(1));
        self.quiz = quiz;
        self.dirty = true;
    }

    /// The quiz is whole (or what was written of it is kept): its attempt moves to the
    /// place every later take of this quiz looks ([`Store::attempt_path`]).
    pub fn settle(&mut self) -> Result<(), StoreError> {
        let path = self.store.attempt_path(&self.origin, &self.quiz.digest());
        if path == self.path {
            return self.flush();
        }
        self.writable()?;
        let lock = match AttemptLock::open(&path)? {
            Locked::Mine(lock) => lock,
            Locked::Busy(_, owner) => return Err(StoreError::Busy { owner }),
        };
        self.store.save_attempt(&path, &mut self.attempt)?;
        let old = std::mem::replace(&mut self.path, path);
        // Dropped: its file goes with it.
        drop(std::mem::replace(&mut self.lock, lock));
        if let Err(e) = std::fs::remove_file(&old) {
            tracing::warn!("cannot remove {}: {e}", old.display());
        }
        self.dirty = false;
        Ok(())
    }

    /// Where the attempt is saved.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    pub fn attempt(&self) -> &Attempt {
        &self.attempt
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The other quizz that saves this attempt, while this window only reads.
    pub fn busy(&self) -> Option<&Owner> {
        self.busy.as_ref()
    }

    /// Whether the window that saves this attempt has closed (this one still only reads).
    pub fn owner_closed(&self) -> bool {
        self.busy.is_some() && self.free_polls >= CLOSED_AFTER
    }

    /// Looked at twice a second: has another window taken the attempt over, has the one
    /// that owns it closed, has it saved something new?
    pub fn poll(&mut self) -> PollNews {
        if self.busy.is_none() {
            if !self.lock.is_mine()
                && let Some(owner) = self.lock.owner()
            {
                self.lost_to(owner.clone());
                return PollNews::TakenOver(owner);
            }
            return PollNews::Nothing;
        }
        if self.free_polls < CLOSED_AFTER {
            self.free_polls = if self.lock.owner_gone() {
                self.free_polls + 1
            } else {
                0
            };
            if self.free_polls == CLOSED_AFTER {
                return PollNews::OwnerClosed;
            }
        }
        if self.reread() {
            PollNews::Reread
        } else {
            PollNews::Nothing
        }
    }

    fn lost_to(&mut self, owner: Owner) {
        if self.busy.is_none() {
            self.free_polls = 0;
            self.lock.release();
        }
        self.busy = Some(owner);
    }

    /// Makes this window the one that saves, and reads what the other one saved.
    pub fn take_over(&mut self) -> Result<(), StoreError> {
        self.lock.take_over()?;
        self.busy = None;
        self.free_polls = 0;
        let found = self.store.load_attempt(&self.origin, &self.quiz)?;
        let current = self.attempt.current;
        self.attempt = found.attempt;
        self.attempt.current = current;
        self.dirty = false;
        Ok(())
    }

    /// While another quizz saves this attempt, reads what it saved (answers, flags) so
    /// this window shows it; `true` when something changed. The question this window is on
    /// stays. A file that cannot be read now is tried again next time.
    pub fn reread(&mut self) -> bool {
        if self.busy.is_none() {
            return false;
        }
        let Ok(found) = self.store.load_attempt(&self.origin, &self.quiz) else {
            return false;
        };
        let theirs = found.attempt;
        if theirs.answers == self.attempt.answers && theirs.flagged == self.attempt.flagged {
            return false;
        }
        let current = self.attempt.current;
        self.attempt = theirs;
        self.attempt.current = current;
        true
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

    /// Sets (or with `None`/blank, clears) an answer.
    pub fn set_answer(&mut self, id: &str, value: Option<String>) -> Result<(), StoreError> {
        self.writable()?;
        match value {
            Some(v) if !v.is_empty() => {
                self.attempt.answers.insert(id.to_string(), v);
            }
            _ => {
                self.attempt.answers.remove(id);
            }
        }
        self.dirty = true;
        Ok(())
    }

    pub fn set_flag(&mut self, id: &str, flagged: bool) -> Result<(), StoreError> {
        self.writable()?;
        if flagged {
            self.attempt.flagged.insert(id.to_string());
        } else {
            self.attempt.flagged.remove(id);
        }
        self.dirty = true;
        Ok(())
    }

    /// How sure the taker said they were (1–5); out-of-range ratings are refused.
    pub fn set_confidence(&mut self, id: &str, rating: u8) -> Result<(), StoreError> {
        self.writable()?;
        if (1..=5).contains(&rating) {
            self.attempt.confidence.insert(id.to_string(), rating);
            self.dirty = true;
        }
        Ok(())
    }

    pub fn confidence(&self, id: &str) -> Option<u8> {
        self.attempt.confidence.get(id).copied()
    }

    pub fn is_flagged(&self, id: &str) -> bool {
        self.attempt.flagged.contains(id)
    }

    /// How many of this quiz's questions are flagged.
    pub fn flagged_count(&self) -> usize {
        self.quiz
            .questions
            .iter()
            .filter(|q| self.is_flagged(&q.id))
            .count()
    }

    /// Where the taker is; not saved while another window owns the attempt.
    pub fn set_current(&mut self, index: usize) {
        if self.attempt.current != index {
            self.attempt.current = index;
            self.dirty |= self.busy.is_none();
        }
    }

    pub fn current(&self) -> usize {
        self.attempt.current
    }

    pub fn set_results(&mut self, results: &crate::quiz::Results) -> Result<(), StoreError> {
        self.writable()?;
        self.attempt.set_results(results);
        self.dirty = true;
        Ok(())
    }

    /// Records that these results were posted to the pull request, and when.
    pub fn mark_posted(&mut self) -> Result<(), StoreError> {
        self.writable()?;
        self.attempt.posted_at = Some(crate::store::now());
        self.dirty = true;
        self.flush()
    }

    /// Starts the attempt again: answers, flags and results cleared, earlier scores kept.
    pub fn new_attempt(&mut self) -> Result<(), StoreError> {
        self.writable()?;
        self.attempt.start_again();
        self.dirty = true;
        self.flush()
    }

    pub fn answered_count(&self) -> usize {
        self.attempt.answered_count(&self.quiz)
    }

    /// Whether changes wait to be written.
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Writes the attempt when it changed. Refuses (and turns this window read-only) when
    /// another quizz took the attempt over.
    pub fn flush(&mut self) -> Result<(), StoreError> {
        if !self.dirty {
            return Ok(());
        }
        if !self.lock.is_mine()
            && let Some(owner) = self.lock.owner()
        {
            self.lost_to(owner.clone());
            return Err(StoreError::Busy { owner });
        }
        self.store.save_attempt(&self.path, &mut self.attempt)?;
        self.dirty = false;
        Ok(())
    }

    /// A change may be made: this window owns the attempt. Checked before each change (a
    /// small read of the lock file), so a window that was taken over refuses the change
    /// instead of showing it and dropping it later.
    fn writable(&mut self) -> Result<(), StoreError> {
        if self.busy.is_none()
            && !self.lock.is_mine()
            && let Some(owner) = self.lock.owner()
        {
            self.lost_to(owner);
        }
        match &self.busy {
            Some(owner) => Err(StoreError::Busy {
                owner: owner.clone(),
            }),
            None => Ok(()),
        }
    }
}

impl Drop for Session {
    /// A last save on every way out (an error, a panic's unwinding).
    fn drop(&mut self) {
        if let Err(e) = self.flush() {
            tracing::error!("saving the attempt on exit failed: {e}");
        }
    }
}
