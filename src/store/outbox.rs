//! Results waiting to be posted: written when posting failed or the machine was offline,
//! sent by `quizz post`. One file per (pull request, quiz comment): a newer attempt
//! replaces the waiting one, an older one never does, and a newer attempt posted from a
//! take removes it. `quizz post` sends while holding [`OutboxLock`], so two at once never
//! post one result twice.

use std::fs::File;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::{AttemptStamp, Origin, Store, StoreError, write_json_atomic};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutboxEntry {
    pub format: u32,
    pub host: String,
    pub owner: String,
    pub repo: String,
    pub number: u64,
    /// The quiz comment these results answer.
    pub quiz_comment_id: u64,
    /// The results state JSON.
    pub results: serde_json::Value,
    /// Seconds since the Unix epoch.
    pub queued_at: u64,
    /// Why it is waiting (the error, or "not confirmed").
    pub reason: String,
    /// Which attempt these results are, and when they were graded (absent in entries
    /// queued by older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stamp: Option<AttemptStamp>,
    /// Whether the taker said to post them (absent in older entries: see
    /// [`OutboxEntry::is_confirmed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmed: Option<bool>,
}

impl OutboxEntry {
    /// Whether the taker confirmed posting these results (a take that could not ask
    /// queues them unconfirmed: `quizz post` asks, or needs `--yes`).
    pub fn is_confirmed(&self) -> bool {
        self.confirmed
            .unwrap_or_else(|| !self.reason.starts_with("not confirmed"))
    }

    /// Whether these results are of a newer attempt than `other`'s (graded later). An entry
    /// without a stamp counts as graded when it was queued.
    pub fn is_newer_than(&self, other: &Self) -> bool {
        self.effective_stamp()
            .is_newer_than(&other.effective_stamp())
    }

    fn effective_stamp(&self) -> AttemptStamp {
        self.stamp.clone().unwrap_or(AttemptStamp {
            number: 0,
            id: String::new(),
            graded_at_ms: self.queued_at.saturating_mul(1000),
        })
    }

    pub fn origin(&self) -> Origin {
        Origin::PullRequest {
            host: self.host.clone(),
            owner: self.owner.clone(),
            repo: self.repo.clone(),
            number: self.number,
        }
    }
}

/// A waiting entry and its file (or why the file cannot be read).
#[derive(Debug)]
pub struct Waiting {
    pub path: PathBuf,
    pub entry: Result<OutboxEntry, String>,
}

impl Store {
    fn outbox_path(&self, origin: &Origin, quiz_comment_id: u64) -> PathBuf {
        let mut key = self.root().join("outbox").join(origin.key_path());
        let name = format!(
            "{}-{quiz_comment_id}.json",
            key.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        );
        key.set_file_name(name);
        key
    }

    /// Queues results, replacing the waiting ones for the same quiz unless those are of a
    /// newer attempt (then they stay, and so does their file); returns the file.
    pub fn outbox_put(&self, entry: &mut OutboxEntry) -> Result<PathBuf, StoreError> {
        entry.format = 1;
        if entry.queued_at == 0 {
            entry.queued_at = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
        }
        let _lock = self.lock_outbox()?;
        let path = self.outbox_path(&entry.origin(), entry.quiz_comment_id);
        if read_entry(&path).is_ok_and(|waiting| waiting.is_newer_than(entry)) {
            return Ok(path);
        }
        write_json_atomic(&path, entry)?;
        Ok(path)
    }

    /// Results of `stamp`'s attempt were posted: what waits for the same quiz is dropped
    /// unless it is of a newer attempt. Returns whether something was dropped.
    pub fn outbox_supersede(
        &self,
        origin: &Origin,
        quiz_comment_id: u64,
        stamp: &AttemptStamp,
    ) -> Result<bool, StoreError> {
        let _lock = self.lock_outbox()?;
        let path = self.outbox_path(origin, quiz_comment_id);
        let Ok(waiting) = read_entry(&path) else {
            return Ok(false);
        };
        if waiting
            .stamp
            .as_ref()
            .is_some_and(|s| s.is_newer_than(stamp))
        {
            return Ok(false);
        }
        self.outbox_remove(&path)?;
        Ok(true)
    }

    /// Waits for, then holds, the outbox lock until the guard is dropped (the kernel drops
    /// it with a process that dies). A file system without locks works as before.
    pub fn lock_outbox(&self) -> Result<OutboxLock, StoreError> {
        let path = self.root().join("outbox.lock");
        let err = |cause| StoreError::Write {
            path: path.clone(),
            cause,
        };
        let file = super::open_lock_file(&path).map_err(err)?;
        if let Err(e) = file.lock() {
            tracing::warn!("cannot lock {}: {e}; two posts could clash", path.display());
        }
        Ok(OutboxLock { _file: file })
    }

    /// Everything waiting, oldest first.
    pub fn outbox_list(&self) -> Vec<Waiting> {
        let mut found = Vec::new();
        super::cache::walk(&self.root().join("outbox"), &mut |p| {
            if p.extension().is_some_and(|e| e == "json") {
                found.push(Waiting {
                    path: p.to_path_buf(),
                    entry: read_entry(p),
                });
            }
        });
        found.sort_by_key(|w| (w.entry.as_ref().map_or(0, |e| e.queued_at), w.path.clone()));
        found
    }

    /// One waiting entry, read again (an error when it is gone or unreadable).
    pub fn outbox_read(&self, path: &std::path::Path) -> Result<OutboxEntry, String> {
        read_entry(path)
    }

    pub fn outbox_remove(&self, path: &std::path::Path) -> Result<(), StoreError> {
        match std::fs::remove_file(path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(cause) => Err(StoreError::Write {
                path: path.to_path_buf(),
                cause,
            }),
        }
    }
}

/// Held while the outbox is sent or changed (see [`Store::lock_outbox`]).
#[derive(Debug)]
pub struct OutboxLock {
    _file: File,
}

fn read_entry(path: &std::path::Path) -> Result<OutboxEntry, String> {
    std::fs::read(path)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice::<OutboxEntry>(&b).map_err(|e| e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: u64) -> OutboxEntry {
        OutboxEntry {
            format: 1,
            host: "github.com".into(),
            owner: "o".into(),
            repo: "r".into(),
            number: 7,
            quiz_comment_id: 11,
            results: serde_json::json!({ "total_score": score }),
            queued_at: 0,
            reason: "offline".into(),
            stamp: Some(AttemptStamp {
                number: 1,
                id: "a1".into(),
                graded_at_ms: score * 1000,
            }),
            confirmed: Some(true),
        }
    }

    #[test]
    fn an_older_attempt_never_replaces_a_newer_one_and_a_posted_newer_one_drops_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let total =
            |s: &Store| s.outbox_list()[0].entry.as_ref().unwrap().results["total_score"].clone();
        // Queued in the wrong order (the older attempt last): the newer one stays.
        store.outbox_put(&mut entry(80)).unwrap();
        store.outbox_put(&mut entry(50)).unwrap();
        assert_eq!(total(&store), 80);
        let origin = entry(0).origin();
        let older = entry(60).stamp.unwrap();
        assert!(!store.outbox_supersede(&origin, 11, &older).unwrap());
        assert_eq!(
            store.outbox_list().len(),
            1,
            "a post of an older attempt leaves it"
        );
        let newer = entry(90).stamp.unwrap();
        assert!(store.outbox_supersede(&origin, 11, &newer).unwrap());
        assert!(store.outbox_list().is_empty());
    }

    #[test]
    fn entries_of_older_versions_read_as_before() {
        let old = r#"{"format":1,"host":"github.com","owner":"o","repo":"r","number":7,
            "quiz_comment_id":11,"results":{},"queued_at":5,"reason":"not confirmed: the take could not ask"}"#;
        let e: OutboxEntry = serde_json::from_str(old).unwrap();
        assert!(!e.is_confirmed());
        assert!(e.stamp.is_none());
        let failed = OutboxEntry {
            reason: "GitHub answered 502".into(),
            ..e.clone()
        };
        assert!(failed.is_confirmed());
        assert!(
            entry(10).is_newer_than(&e),
            "a stamped entry graded after it was queued"
        );
    }

    #[test]
    fn a_newer_attempt_replaces_the_waiting_one() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let p1 = store.outbox_put(&mut entry(50)).unwrap();
        let p2 = store.outbox_put(&mut entry(80)).unwrap();
        assert_eq!(p1, p2);
        let waiting = store.outbox_list();
        assert_eq!(waiting.len(), 1);
        assert_eq!(
            waiting[0].entry.as_ref().unwrap().results["total_score"],
            80
        );
        store.outbox_remove(&waiting[0].path).unwrap();
        assert!(store.outbox_list().is_empty());
    }
}
