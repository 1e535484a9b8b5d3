use std::fs;
use std::io::Write;
use std::path::Path;

use super::StoreError;

/// Writes `bytes` to `path` so that a crash leaves either the old file or the new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let err = |cause| StoreError::Write {
        path: path.to_path_buf(),
        cause,
    };
    let dir = parent(path);
    super::create_private_dir(dir).map_err(err)?;
    replace_in(dir, path, bytes)
}

/// [`write_atomic`] for a file the user named (`--out FILE`): its folder must exist and is
/// left as it is (quizz narrows only its own folders); the file is the owner's (0600).
pub fn write_user_file(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    replace_in(parent(path), path, bytes)
}

fn parent(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."))
}

/// Writes a temp file in `dir`, syncs it and renames it over `path`.
fn replace_in(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let err = |cause| StoreError::Write {
        path: path.to_path_buf(),
        cause,
    };
    // tempfile makes the file 0600, and the rename keeps that.
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .map_err(err)?;
    tmp.write_all(bytes).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    tmp.persist(path).map_err(|e| err(e.error))?;
    // The rename itself is durable only once the folder is synced.
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Serialises `value` and writes it atomically; a value that cannot be serialised is an
/// error, never an empty file in place of the old one.
pub fn write_json_atomic<T: serde::Serialize + ?Sized>(
    path: &Path,
    value: &T,
) -> Result<(), StoreError> {
    let json = serde_json::to_vec_pretty(value).map_err(|cause| StoreError::Serialize {
        path: path.to_path_buf(),
        cause,
    })?;
    write_atomic(path, &json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_that_cannot_be_serialised_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("attempt.json");
        fs::write(&path, "{\"answers\": {\"q1\": \"kept\"}}").unwrap();
        // JSON object keys must be strings: serde_json refuses this map.
        let bad: std::collections::BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
        let err = write_json_atomic(&path, &bad).unwrap_err();
        assert!(matches!(err, StoreError::Serialize { .. }), "{err}");
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\"answers\": {\"q1\": \"kept\"}}"
        );
    }
}
