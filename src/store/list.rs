//! Read-only: the attempts saved under the store root, for `quizz status`.

use std::path::PathBuf;

use super::{Attempt, Store};

/// One saved attempt file and what it holds.
#[derive(Debug, Clone)]
pub struct SavedAttempt {
    pub path: PathBuf,
    pub attempt: Attempt,
}

impl SavedAttempt {
    /// The attempt's origin key (`demo`, `file/NAME-HASH`, `HOST/OWNER/REPO/NUMBER`) as path
    /// parts.
    pub fn origin_parts(&self) -> Vec<String> {
        self.attempt
            .origin
            .split(['/', '\\'])
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect()
    }
}

impl Store {
    /// Every readable attempt under `attempts/`, most recently changed first. Files that
    /// cannot be read are left out: the next take of that quiz moves them aside and says so.
    pub fn list_attempts(&self) -> Vec<SavedAttempt> {
        let mut found = Vec::new();
        super::cache::walk(&self.root().join("attempts"), &mut |p| {
            if p.extension().is_none_or(|e| e != "json") {
                return;
            }
            let Some(attempt) = std::fs::read(p)
                .ok()
                .and_then(|b| serde_json::from_slice::<Attempt>(&b).ok())
            else {
                return;
            };
            found.push(SavedAttempt {
                path: p.to_path_buf(),
                attempt,
            });
        });
        found.sort_by(|a, b| {
            b.attempt
                .updated_at
                .cmp(&a.attempt.updated_at)
                .then_with(|| a.path.cmp(&b.path))
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::parse_quiz;
    use crate::store::Origin;

    #[test]
    fn lists_saved_attempts_and_skips_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        assert!(store.list_attempts().is_empty());
        let quiz = parse_quiz(include_str!("../../assets/demo-quiz.json")).unwrap();
        let origin = Origin::PullRequest {
            host: "github.com".into(),
            owner: "o".into(),
            repo: "r".into(),
            number: 7,
        };
        let mut loaded = store.load_attempt(&origin, &quiz).unwrap();
        loaded.attempt.answers.insert("q1".into(), "x".into());
        store
            .save_attempt(&loaded.path, &mut loaded.attempt)
            .unwrap();
        let folder = loaded.path.parent().unwrap();
        std::fs::write(folder.join("x.lock"), "1 host 2").unwrap();
        std::fs::write(folder.join("y.json.corrupt-1"), "{").unwrap();
        std::fs::write(folder.join("z.json"), "{ half").unwrap();
        let listed = store.list_attempts();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].attempt.answers["q1"], "x");
        assert_eq!(listed[0].origin_parts(), ["github.com", "o", "r", "7"]);
    }
}
