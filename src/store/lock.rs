//! One window saves an attempt at a time.
//!
//! A lock file next to the attempt names its owner (`pid host`). The owner also holds an
//! OS file lock on it, which the kernel drops when the process dies: a crashed window
//! never blocks the next one. A second window sees who owns the attempt and may take it
//! over by writing its own name into the file; the first window checks the name before
//! every save and stops saving once it is not its own.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::StoreError;

/// Who saves an attempt: a process, and which of its sessions (a random token, so a
/// reused pid or a second session in one process is never taken for the owner).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    pub pid: u32,
    pub host: String,
    token: u64,
}

impl Owner {
    fn new_session() -> Self {
        Self {
            pid: std::process::id(),
            host: hostname(),
            token: fastrand::u64(..),
        }
    }

    fn parse(text: &str) -> Option<Self> {
        let mut words = text.split_whitespace();
        let pid = words.next()?.parse().ok()?;
        let host = words.next().unwrap_or_default().to_string();
        let token = words.next().and_then(|t| t.parse().ok()).unwrap_or(0);
        Some(Self { pid, host, token })
    }

    fn line(&self) -> String {
        format!("{} {} {}\n", self.pid, self.host, self.token)
    }
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.host.is_empty() || self.host == hostname() {
            write!(f, "pid {}", self.pid)
        } else {
            write!(f, "pid {} on {}", self.pid, self.host)
        }
    }
}

/// The lock of one attempt, as this process sees it.
#[derive(Debug)]
pub struct AttemptLock {
    path: PathBuf,
    me: Owner,
    /// Open (and OS-locked when we got the lock) for as long as the session lives.
    file: Option<File>,
    holds_os_lock: bool,
}

/// What opening the lock found.
#[derive(Debug)]
pub enum Locked {
    /// This process saves the attempt.
    Mine(AttemptLock),
    /// Another live quizz does; this window may only read, or take over.
    Busy(AttemptLock, Owner),
}

impl AttemptLock {
    /// Opens the lock next to `attempt` (`<attempt>.lock`).
    pub fn open(attempt: &Path) -> Result<Locked, StoreError> {
        let path = attempt.with_extension("lock");
        let err = |cause| StoreError::Write {
            path: path.clone(),
            cause,
        };
        let file = super::open_lock_file(&path).map_err(err)?;
        let mut lock = Self {
            path: path.clone(),
            me: Owner::new_session(),
            file: Some(file),
            holds_os_lock: false,
        };
        match lock.try_os_lock() {
            Ok(true) => {
                lock.write_owner()?;
                Ok(Locked::Mine(lock))
            }
            Ok(false) => {
                let owner = lock.owner().unwrap_or(Owner {
                    pid: 0,
                    host: String::new(),
                    token: 0,
                });
                Ok(Locked::Busy(lock, owner))
            }
            Err(e) => {
                // A file system without locks (some network mounts): work as before.
                tracing::warn!(
                    "cannot lock {}: {e}; two windows could clash",
                    path.display()
                );
                lock.write_owner()?;
                Ok(Locked::Mine(lock))
            }
        }
    }

    fn try_os_lock(&mut self) -> std::io::Result<bool> {
        let Some(file) = &self.file else {
            return Ok(false);
        };
        match file.try_lock() {
            Ok(()) => {
                self.holds_os_lock = true;
                Ok(true)
            }
            Err(std::fs::TryLockError::WouldBlock) => Ok(false),
            Err(std::fs::TryLockError::Error(e)) => Err(e),
        }
    }

    /// The owner named in the file.
    pub fn owner(&self) -> Option<Owner> {
        let mut text = String::new();
        File::open(&self.path)
            .ok()?
            .take(256)
            .read_to_string(&mut text)
            .ok()?;
        Owner::parse(&text)
    }

    /// Whether this process may save: the file still names it. Picks up the OS lock
    /// once the window it was taken from has closed.
    pub fn is_mine(&mut self) -> bool {
        let mine = self.owner().is_none_or(|o| o == self.me);
        if mine && !self.holds_os_lock {
            let _ = self.try_os_lock();
        }
        mine
    }

    /// Makes this process the owner, even while another one runs. The file is opened
    /// afresh: the window it was taken from may have removed it when it closed.
    pub fn take_over(&mut self) -> Result<(), StoreError> {
        let file = super::open_lock_file(&self.path).map_err(|cause| StoreError::Write {
            path: self.path.clone(),
            cause,
        })?;
        self.file = Some(file);
        self.holds_os_lock = false;
        let _ = self.try_os_lock();
        self.write_owner()
    }

    /// This process no longer saves: its OS lock goes, so the window that took over picks
    /// it up and the lock tells when that window closes.
    pub fn release(&mut self) {
        if self.holds_os_lock
            && let Some(file) = &self.file
        {
            let _ = file.unlock();
        }
        self.holds_os_lock = false;
    }

    /// Whether the window named in the file has closed: the file is gone, or nobody holds
    /// its OS lock (for a moment after a take-over nobody does either, so callers look
    /// more than once).
    pub fn owner_gone(&self) -> bool {
        if self.holds_os_lock {
            return false;
        }
        let Ok(file) = File::open(&self.path) else {
            return true;
        };
        if self.owner().is_none() {
            return true;
        }
        match file.try_lock() {
            Ok(()) => {
                let _ = file.unlock();
                true
            }
            Err(_) => false,
        }
    }

    fn write_owner(&mut self) -> Result<(), StoreError> {
        let line = self.me.line();
        let err = |cause| StoreError::Write {
            path: self.path.clone(),
            cause,
        };
        let file = self
            .file
            .as_mut()
            .ok_or_else(|| err(std::io::Error::other("the lock file is closed")))?;
        file.set_len(0).map_err(err)?;
        file.seek(SeekFrom::Start(0)).map_err(err)?;
        file.write_all(line.as_bytes()).map_err(err)?;
        file.flush().map_err(err)
    }
}

impl Drop for AttemptLock {
    fn drop(&mut self) {
        // Leave the file to whoever took over; remove it when it still names us.
        if self.holds_os_lock && self.owner().is_some_and(|o| o == self.me) {
            let _ = std::fs::remove_file(&self.path);
        }
        self.file = None;
    }
}

fn hostname() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty() && !h.contains(char::is_whitespace))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_sees_the_first_owner_and_can_take_over() {
        let dir = tempfile::tempdir().unwrap();
        let attempt = dir.path().join("a.json");
        let Locked::Mine(mut first) = AttemptLock::open(&attempt).unwrap() else {
            panic!("the first lock is ours");
        };
        // Same process, second open file description: the OS lock conflicts.
        let Locked::Busy(mut second, owner) = AttemptLock::open(&attempt).unwrap() else {
            panic!("the second lock sees the first");
        };
        assert_eq!(owner.pid, std::process::id());
        assert!(first.is_mine());
        assert!(!second.is_mine());
        second.take_over().unwrap();
        assert!(second.is_mine());
        assert!(!first.is_mine(), "the first learns it lost the attempt");
        assert_eq!(second.owner(), Some(second.me.clone()));
    }

    #[test]
    fn taking_over_after_the_owner_closed_claims_the_attempt() {
        let dir = tempfile::tempdir().unwrap();
        let attempt = dir.path().join("a.json");
        let first = AttemptLock::open(&attempt).unwrap();
        let Locked::Busy(mut second, _) = AttemptLock::open(&attempt).unwrap() else {
            panic!("busy while the first is open");
        };
        drop(first);
        second.take_over().unwrap();
        assert!(second.is_mine());
        assert!(second.holds_os_lock, "the OS lock is ours now");
        assert!(
            matches!(AttemptLock::open(&attempt).unwrap(), Locked::Busy(..)),
            "a third window sees the second as the owner"
        );
    }

    #[test]
    fn the_window_taken_from_learns_when_the_new_owner_closes() {
        let dir = tempfile::tempdir().unwrap();
        let attempt = dir.path().join("a.json");
        let Locked::Mine(mut first) = AttemptLock::open(&attempt).unwrap() else {
            panic!("the first lock is ours");
        };
        let Locked::Busy(mut second, _) = AttemptLock::open(&attempt).unwrap() else {
            panic!("busy");
        };
        second.take_over().unwrap();
        assert!(!first.is_mine());
        first.release();
        assert!(second.is_mine(), "picks up the OS lock the first let go");
        assert!(!first.owner_gone(), "the second still runs");
        drop(second);
        assert!(first.owner_gone(), "the second closed");
    }

    #[test]
    fn a_dropped_lock_frees_the_attempt() {
        let dir = tempfile::tempdir().unwrap();
        let attempt = dir.path().join("a.json");
        let first = AttemptLock::open(&attempt).unwrap();
        assert!(matches!(first, Locked::Mine(_)));
        drop(first);
        assert!(matches!(
            AttemptLock::open(&attempt).unwrap(),
            Locked::Mine(_)
        ));
    }
}
