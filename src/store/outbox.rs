//! Results waiting to be posted: written when posting failed or the machine was offline,
//! sent by `quizz post`. One file per (pull request, quiz comment): a newer attempt
//! replaces the waiting one.

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::{Origin, Store, StoreError, write_json_atomic};

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
}

impl OutboxEntry {
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

    /// Queues results (replacing older ones for the same quiz); returns the file.
    pub fn outbox_put(&self, entry: &mut OutboxEntry) -> Result<PathBuf, StoreError> {
        entry.format = 1;
        if entry.queued_at == 0 {
            entry.queued_at = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
        }
        let path = self.outbox_path(&entry.origin(), entry.quiz_comment_id);
        write_json_atomic(&path, entry)?;
        Ok(path)
    }

    /// Everything waiting, oldest first.
    pub fn outbox_list(&self) -> Vec<Waiting> {
        let mut found = Vec::new();
        super::cache::walk(&self.root().join("outbox"), &mut |p| {
            if p.extension().is_some_and(|e| e == "json") {
                let entry = std::fs::read(p).map_err(|e| e.to_string()).and_then(|b| {
                    serde_json::from_slice::<OutboxEntry>(&b).map_err(|e| e.to_string())
                });
                found.push(Waiting {
                    path: p.to_path_buf(),
                    entry,
                });
            }
        });
        found.sort_by_key(|w| (w.entry.as_ref().map_or(0, |e| e.queued_at), w.path.clone()));
        found
    }

    pub fn outbox_remove(&self, path: &std::path::Path) -> Result<(), StoreError> {
        match std::fs::remove_file(path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(StoreError::Write {
                path: path.to_path_buf(),
                source,
            }),
        }
    }
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
        }
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
