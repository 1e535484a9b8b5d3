//! Cached copies of what GitHub said (a PR's quiz and results comments, with `ETag`s), so a
//! second take can ask "changed since?" and an offline take still has its quiz.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Store, StoreError, write_json_atomic};

impl Store {
    /// `cache/<key>.json` under the store root; `key` is relative (an origin's key path).
    pub fn cache_path(&self, key: &Path) -> PathBuf {
        let mut path = self.root().join("cache").join(key);
        let name = path.file_name().map_or_else(
            || "_.json".into(),
            |n| format!("{}.json", n.to_string_lossy()),
        );
        path.set_file_name(name);
        path
    }

    /// The cached value, or `None` when there is none or it cannot be read (a cache is
    /// only a cache: a broken one is fetched again).
    pub fn load_cached<T: DeserializeOwned>(&self, key: &Path) -> Option<T> {
        let bytes = std::fs::read(self.cache_path(key)).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    pub fn save_cached<T: Serialize>(&self, key: &Path, value: &T) -> Result<(), StoreError> {
        write_json_atomic(&self.cache_path(key), value)
    }

    /// Every cached file's key (relative, without `.json`), sorted.
    pub fn cached_keys(&self) -> Vec<PathBuf> {
        let root = self.root().join("cache");
        let mut keys = Vec::new();
        walk(&root, &mut |p| {
            if p.extension().is_some_and(|e| e == "json")
                && let Ok(rel) = p.strip_prefix(&root)
            {
                keys.push(rel.with_extension(""));
            }
        });
        keys.sort();
        keys
    }
}

/// Calls `f` on every file below `dir` (hidden temp files skipped).
pub(super) fn walk(dir: &Path, f: &mut dyn FnMut(&Path)) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with(".tmp-") {
            continue;
        }
        if path.is_dir() {
            walk(&path, f);
        } else {
            f(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_values_round_trip_and_broken_ones_read_as_missing() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let key = Path::new("github.com/o/r/7");
        assert_eq!(store.load_cached::<Vec<u32>>(key), None);
        store.save_cached(key, &vec![1u32, 2]).unwrap();
        assert_eq!(store.load_cached::<Vec<u32>>(key), Some(vec![1, 2]));
        assert!(
            store
                .cache_path(key)
                .ends_with("cache/github.com/o/r/7.json")
        );
        assert_eq!(store.cached_keys(), vec![PathBuf::from("github.com/o/r/7")]);
        std::fs::write(store.cache_path(key), "{ broken").unwrap();
        assert_eq!(store.load_cached::<Vec<u32>>(key), None);
    }
}
