//! Quizzes written for local changes, kept so the same change is not asked about twice:
//! keyed by the repository, the change's digest, the model and the prompt's version.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::prompt::PROMPT_VERSION;
use crate::quiz::{Quiz, parse_quiz, validate};
use crate::store::{Store, StoreError};

/// What a generated quiz was written for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuizKey {
    /// The repository: its remote's URL, or its top-level folder.
    pub repository: String,
    /// The change's digest ([`super::Input::digest`]).
    pub digest: String,
    pub model: String,
}

#[derive(Serialize, Deserialize)]
struct Cached {
    repository: String,
    digest: String,
    model: String,
    prompt_version: u32,
    written_at: u64,
    quiz: serde_json::Value,
}

impl QuizKey {
    /// A short name of this key that stays the same while its quiz is written (a quiz being
    /// written has no digest yet): its answers are saved under it until the quiz is whole.
    pub fn writing_name(&self) -> String {
        let path = self.key_path().to_string_lossy().into_owned();
        crate::text::hex(&Sha256::digest(path.as_bytes())[..8])
    }

    /// `generated/<repository hash>/<digest>-<model hash>-p<version>`, inside the cache.
    fn key_path(&self) -> PathBuf {
        let hash = |s: &str| crate::text::hex(&Sha256::digest(s.as_bytes())[..6]);
        let short = self.digest.get(..16).unwrap_or(&self.digest);
        PathBuf::from("generated")
            .join(hash(&self.repository))
            .join(format!(
                "{}-{}-p{PROMPT_VERSION}",
                safe_hex(short),
                hash(&self.model)
            ))
    }
}

/// The digest as a file name: its hex digits only (it comes from quizz, but a key is a
/// path).
fn safe_hex(digest: &str) -> String {
    digest.chars().filter(char::is_ascii_hexdigit).collect()
}

/// The quiz written earlier for `key`, when there is one that still reads as a valid quiz.
pub fn load(store: &Store, key: &QuizKey) -> Option<(Quiz, PathBuf)> {
    let cached: Cached = store.load_cached(&key.key_path())?;
    let same = cached.repository == key.repository
        && cached.digest == key.digest
        && cached.model == key.model
        && cached.prompt_version == PROMPT_VERSION;
    let quiz = parse_quiz(&cached.quiz.to_string()).ok()?;
    (same && validate(&quiz).is_ok()).then(|| (quiz, store.cache_path(&key.key_path())))
}

/// Keeps `quiz` for `key` (atomically, owner-only); returns where.
pub fn save(store: &Store, key: &QuizKey, quiz: &Quiz) -> Result<PathBuf, StoreError> {
    let value: serde_json::Value =
        serde_json::from_str(&quiz.to_pretty_json()).unwrap_or(serde_json::Value::Null);
    let cached = Cached {
        repository: key.repository.clone(),
        digest: key.digest.clone(),
        model: key.model.clone(),
        prompt_version: PROMPT_VERSION,
        written_at: crate::store::now(),
        quiz: value,
    };
    store.save_cached(&key.key_path(), &cached)?;
    Ok(store.cache_path(&key.key_path()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_quiz_is_found_only_for_its_change_and_model() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let quiz = parse_quiz(crate::source::DEMO_QUIZ).unwrap();
        let key = QuizKey {
            repository: "/src/app".into(),
            digest: "ab".repeat(32),
            model: "m1".into(),
        };
        assert!(load(&store, &key).is_none());
        let path = save(&store, &key, &quiz).unwrap();
        let (found, at) = load(&store, &key).unwrap();
        assert_eq!((found, at), (quiz, path.clone()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "owner-only: {mode:o}");
        }
        for other in [
            QuizKey {
                model: "m2".into(),
                ..key.clone()
            },
            QuizKey {
                digest: "cd".repeat(32),
                ..key.clone()
            },
            QuizKey {
                repository: "/src/other".into(),
                ..key.clone()
            },
        ] {
            assert!(load(&store, &other).is_none(), "{other:?}");
        }
    }
}
