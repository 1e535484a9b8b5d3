//! A local branch's change since it left its base: `git merge-base BASE HEAD` to HEAD, or
//! to the work tree with the uncommitted changes. git runs with the repository's own
//! programs turned off (external diffs, text conversions, fsmonitor), as a read must.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use super::budget::assemble;
use super::exclude::looks_binary;
use super::raw::{RawFile, hunks};
use super::{
    DEFAULT_BUDGET_CHARS, FileStatus, Input, InputError, MAX_TEXT_BYTES, Marked, Uncommitted,
};

/// What to read of a local branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalOptions {
    /// The branch the change is measured from; `None`: the upstream's default branch,
    /// else `main`, else `master`.
    pub base: Option<String>,
    /// Include what is not committed yet (staged, unstaged and untracked files).
    pub include_uncommitted: bool,
    pub budget: usize,
}

impl Default for LocalOptions {
    fn default() -> Self {
        Self {
            base: None,
            include_uncommitted: false,
            budget: DEFAULT_BUDGET_CHARS,
        }
    }
}

fn command(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("-C")
        .arg(dir)
        .args(["--no-optional-locks", "-c", "core.fsmonitor=false"])
        .stdin(Stdio::null())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE");
    cmd
}

/// Runs git and returns its output (lossy UTF-8: a diff of Latin-1 text stays readable).
pub(super) fn run(dir: &Path, args: &[&str]) -> Result<String, InputError> {
    let out = command(dir)
        .args(args)
        .output()
        .map_err(InputError::Spawn)?;
    if !out.status.success() {
        return Err(InputError::Git {
            args: args.join(" "),
            message: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn run_ok(dir: &Path, args: &[&str]) -> Option<String> {
    run(dir, args)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// The base a branch is measured from when none is named: the default branch of the
/// branch's remote (then `origin`, then any remote), else `main`, else `master`.
pub fn default_base(dir: &Path) -> Result<String, InputError> {
    let mut remotes: Vec<String> = Vec::new();
    if let Some(branch) = run_ok(dir, &["symbolic-ref", "--quiet", "--short", "HEAD"])
        && let Some(remote) = run_ok(
            dir,
            &["config", "--get", &format!("branch.{branch}.remote")],
        )
    {
        remotes.push(remote);
    }
    remotes.push("origin".into());
    if let Some(all) = run_ok(dir, &["remote"]) {
        remotes.extend(all.lines().map(str::to_string));
    }
    for remote in &remotes {
        let head = format!("refs/remotes/{remote}/HEAD");
        if let Some(target) = run_ok(dir, &["symbolic-ref", "--quiet", "--short", &head]) {
            return Ok(target);
        }
    }
    for name in ["main", "master"] {
        if run_ok(
            dir,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("refs/heads/{name}"),
            ],
        )
        .is_some()
        {
            return Ok(name.to_string());
        }
    }
    Err(InputError::NoBase)
}

/// The branch's change since it left its base, prepared for the prompt.
pub fn prepare_local(dir: &Path, opts: &LocalOptions) -> Result<Input, InputError> {
    let top =
        run_ok(dir, &["rev-parse", "--show-toplevel"]).ok_or_else(|| InputError::NotARepo {
            dir: dir.display().to_string(),
        })?;
    let top = Path::new(&top);
    let base = match &opts.base {
        Some(b) => b.clone(),
        None => default_base(top)?,
    };
    if run_ok(
        top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{base}^{{commit}}"),
        ],
    )
    .is_none()
    {
        return Err(InputError::UnknownBase { base });
    }
    let fork = run_ok(top, &["merge-base", &base, "HEAD"])
        .ok_or_else(|| InputError::NoMergeBase { base: base.clone() })?;
    let pending = uncommitted_files(top)?;
    let mut range = vec![fork.as_str()];
    if !opts.include_uncommitted {
        range.push("HEAD");
    }
    let mut raw = diff(top, &range)?;
    let uncommitted = match (pending, opts.include_uncommitted) {
        (0, _) => Uncommitted::None,
        (files, true) => {
            raw.extend(untracked(top)?);
            Uncommitted::Included { files }
        }
        (files, false) => Uncommitted::LeftOut { files },
    };
    let paths: Vec<&str> = raw.iter().map(|f| f.path.as_str()).collect();
    let marked = Marked::from_repo(top, &paths);
    let mut texts = if opts.include_uncommitted {
        BTreeMap::new()
    } else {
        blobs_at(top, "HEAD", &raw)?
    };
    let mut head = |path: &str| {
        if opts.include_uncommitted {
            read_work_file(top, path)
        } else {
            texts.remove(path)
        }
    };
    Ok(assemble(raw, &marked, &mut head, opts.budget, uncommitted))
}

/// Whether the repository at `dir` has every one of these commits (given as full or
/// abbreviated hex names).
pub fn has_commits(dir: &Path, shas: &[&str]) -> bool {
    shas.iter().all(|sha| {
        (7..=64).contains(&sha.len())
            && sha.bytes().all(|b| b.is_ascii_hexdigit())
            && run(dir, &["cat-file", "-e", &format!("{sha}^{{commit}}")]).is_ok()
    })
}

/// A pull request's change read from a clone that has both its commits
/// ([`has_commits`]): `git merge-base BASE HEAD` to HEAD, the texts at HEAD.
pub fn prepare_commits(
    dir: &Path,
    base: &str,
    head: &str,
    budget: usize,
) -> Result<Input, InputError> {
    let top =
        run_ok(dir, &["rev-parse", "--show-toplevel"]).ok_or_else(|| InputError::NotARepo {
            dir: dir.display().to_string(),
        })?;
    let top = Path::new(&top);
    let fork = run_ok(top, &["merge-base", base, head]).ok_or_else(|| InputError::NoMergeBase {
        base: base.to_string(),
    })?;
    let raw = diff(top, &[fork.as_str(), head])?;
    let paths: Vec<&str> = raw.iter().map(|f| f.path.as_str()).collect();
    let marked = Marked::from_repo(top, &paths);
    let mut texts = blobs_at(top, head, &raw)?;
    let mut at_head = |path: &str| texts.remove(path);
    Ok(assemble(
        raw,
        &marked,
        &mut at_head,
        budget,
        Uncommitted::None,
    ))
}

const DIFF_OPTS: &[&str] = &[
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--find-renames",
    "--ignore-submodules=all",
];

/// The changed files of `git diff RANGE`, with their counts and hunks.
fn diff(dir: &Path, range: &[&str]) -> Result<Vec<RawFile>, InputError> {
    let with = |extra: &[&str]| {
        let mut args = vec!["diff"];
        args.extend(DIFF_OPTS);
        args.extend(extra);
        args.extend(range);
        args.push("--");
        run(dir, &args)
    };
    let entries = parse_raw(&with(&["--raw", "-z", "--no-abbrev"])?);
    let counts = parse_numstat(&with(&["--numstat", "-z"])?);
    let patch = with(&["--patch"])?;
    let chunks = split_patch(&patch);
    if entries.len() != counts.len() || entries.len() != chunks.len() {
        return Err(InputError::Git {
            args: format!("diff {}", range.join(" ")),
            message: format!(
                "the file list ({}), the counts ({}) and the patch ({}) do not match",
                entries.len(),
                counts.len(),
                chunks.len()
            ),
        });
    }
    Ok(entries
        .into_iter()
        .zip(counts)
        .zip(chunks)
        .map(|((e, c), chunk)| RawFile {
            path: e.path,
            old_path: e.old_path,
            status: e.status,
            additions: c.0.unwrap_or(0),
            deletions: c.1.unwrap_or(0),
            patch: hunks(chunk).map(str::to_string),
            binary: c.0.is_none(),
            object: Some(e.object),
        })
        .collect())
}

struct RawEntry {
    path: String,
    old_path: Option<String>,
    status: FileStatus,
    object: String,
}

/// `--raw -z`: `:srcmode dstmode srcsha dstsha STATUS NUL path NUL` (two paths for a
/// rename or copy).
fn parse_raw(out: &str) -> Vec<RawEntry> {
    let mut fields = out.split('\0');
    let mut entries = Vec::new();
    while let Some(meta) = fields.next() {
        let Some(meta) = meta.strip_prefix(':') else {
            continue;
        };
        let parts: Vec<&str> = meta.split(' ').collect();
        let (Some(letter), Some(src), Some(dst)) = (
            parts.get(4).and_then(|s| s.chars().next()),
            parts.get(2),
            parts.get(3),
        ) else {
            continue;
        };
        let first = fields.next().unwrap_or_default().to_string();
        let (path, old_path) = if matches!(letter, 'R' | 'C') {
            (fields.next().unwrap_or_default().to_string(), Some(first))
        } else {
            (first, None)
        };
        let status = match letter {
            'A' => FileStatus::Added,
            'D' => FileStatus::Deleted,
            'R' => FileStatus::Renamed,
            'C' => FileStatus::Copied,
            _ => FileStatus::Modified,
        };
        entries.push(RawEntry {
            path,
            old_path,
            status,
            object: format!("{src}..{dst}"),
        });
    }
    entries
}

/// `--numstat -z`: `added TAB deleted TAB path NUL`, or for a rename `added TAB deleted
/// TAB NUL old NUL new NUL`; a binary's counts are `-`.
fn parse_numstat(out: &str) -> Vec<(Option<u64>, Option<u64>)> {
    let mut fields = out.split('\0');
    let mut counts = Vec::new();
    while let Some(record) = fields.next() {
        let mut parts = record.splitn(3, '\t');
        let (Some(added), Some(deleted), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if path.is_empty() {
            fields.next();
            fields.next();
        }
        counts.push((added.parse().ok(), deleted.parse().ok()));
    }
    counts
}

/// A patch cut at each `diff --git` line (a line of a hunk starts with ` `, `+` or `-`).
fn split_patch(patch: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = Vec::new();
    if patch.starts_with("diff --git ") {
        starts.push(0);
    }
    starts.extend(patch.match_indices("\ndiff --git ").map(|(i, _)| i + 1));
    starts
        .iter()
        .enumerate()
        .map(|(k, &s)| &patch[s..starts.get(k + 1).map_or(patch.len(), |&e| e)])
        .collect()
}

/// Files changed and not committed (staged, unstaged or untracked).
fn uncommitted_files(dir: &Path) -> Result<usize, InputError> {
    let out = run(
        dir,
        &[
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--ignore-submodules=all",
        ],
    )?;
    let mut fields = out.split('\0').filter(|f| !f.is_empty());
    let mut n = 0;
    while let Some(entry) = fields.next() {
        n += 1;
        // a rename or copy carries its old path in the next field
        if matches!(entry.as_bytes().first(), Some(b'R' | b'C')) {
            fields.next();
        }
    }
    Ok(n)
}

/// Untracked files (not ignored), as added files.
fn untracked(dir: &Path) -> Result<Vec<RawFile>, InputError> {
    let out = run(dir, &["ls-files", "--others", "--exclude-standard", "-z"])?;
    Ok(out
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(|path| {
            let bytes = read_work_file(dir, path);
            let binary = bytes.as_deref().is_none_or(looks_binary);
            let text = bytes
                .filter(|_| !binary)
                .map(|b| String::from_utf8_lossy(&b).into_owned());
            let lines = text.as_deref().map_or(0, |t| t.lines().count());
            let patch = text.as_deref().map(|t| {
                let mut p = format!("@@ -0,0 +1,{lines} @@\n");
                for line in t.lines() {
                    p.push('+');
                    p.push_str(line);
                    p.push('\n');
                }
                p
            });
            RawFile {
                path: path.to_string(),
                old_path: None,
                status: FileStatus::Added,
                additions: lines as u64,
                deletions: 0,
                patch,
                binary,
                object: None,
            }
        })
        .collect())
}

/// A work-tree file's bytes: a regular file (not a link) of a bounded size, else `None`.
fn read_work_file(top: &Path, path: &str) -> Option<Vec<u8>> {
    let full = top.join(path);
    let meta = std::fs::symlink_metadata(&full).ok()?;
    if !meta.is_file() || meta.len() > MAX_TEXT_BYTES as u64 {
        return None;
    }
    std::fs::read(full).ok()
}

/// The texts at `rev` of the files a diff names (not deleted, not binary), read by one
/// `git cat-file --batch`. A blob over the size limit is skipped.
fn blobs_at(
    dir: &Path,
    rev: &str,
    files: &[RawFile],
) -> Result<BTreeMap<String, Vec<u8>>, InputError> {
    let wanted: Vec<&str> = files
        .iter()
        .filter(|f| f.status != FileStatus::Deleted && !f.binary)
        .map(|f| f.path.as_str())
        .collect();
    let mut texts = BTreeMap::new();
    if wanted.is_empty() {
        return Ok(texts);
    }
    let mut child = command(dir)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(InputError::Spawn)?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Ok(texts);
    };
    let mut request = String::new();
    for path in &wanted {
        request.push_str(rev);
        request.push(':');
        request.push_str(path);
        request.push('\n');
    }
    let writer = std::thread::spawn(move || stdin.write_all(request.as_bytes()));
    let mut reader = BufReader::new(stdout);
    for path in &wanted {
        let mut header = String::new();
        if reader.read_line(&mut header).map_err(InputError::Spawn)? == 0 {
            break;
        }
        // `<sha> blob <size>` or `<name> missing`
        let mut parts = header.split_whitespace();
        let (Some(_), Some(kind), Some(size)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let Ok(size) = size.parse::<usize>() else {
            continue;
        };
        let mut body = vec![0u8; size + 1];
        reader.read_exact(&mut body).map_err(InputError::Spawn)?;
        body.pop();
        if kind == "blob" && size <= MAX_TEXT_BYTES {
            texts.insert((*path).to_string(), body);
        }
    }
    drop(reader);
    let _ = writer.join();
    let _ = child.wait();
    Ok(texts)
}

/// The repository `dir` is in, as a cache and store key names it: its `origin` remote's
/// URL (credentials dropped) when it has one, else its top-level folder; and that folder.
pub fn repository(dir: &Path) -> Result<(std::path::PathBuf, String), InputError> {
    let top =
        run_ok(dir, &["rev-parse", "--show-toplevel"]).ok_or_else(|| InputError::NotARepo {
            dir: dir.display().to_string(),
        })?;
    let top = std::path::PathBuf::from(top);
    let id = run_ok(&top, &["config", "--get", "remote.origin.url"]).map_or_else(
        || top.display().to_string(),
        |url| match url.split_once("://") {
            // https://user:token@host/x: the user info is no part of the repository's name.
            Some((scheme, rest)) => {
                let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
                let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
                format!("{scheme}://{host}/{path}")
            }
            None => url,
        },
    );
    Ok((top, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numstat_with_renames_and_binaries() {
        let out = "3\t1\tsrc/a.rs\0-\t-\tlogo.png\x002\t0\t\0old.rs\0new.rs\0";
        assert_eq!(
            parse_numstat(out),
            vec![(Some(3), Some(1)), (None, None), (Some(2), Some(0))]
        );
    }

    #[test]
    fn raw_with_a_rename() {
        let out =
            ":100644 100644 aaa bbb M\0src/a.rs\0:100644 100644 ccc ddd R087\0old.rs\0new.rs\0";
        let e = parse_raw(out);
        assert_eq!(e.len(), 2);
        assert_eq!(e[1].path, "new.rs");
        assert_eq!(e[1].old_path.as_deref(), Some("old.rs"));
        assert_eq!(e[1].status, FileStatus::Renamed);
        assert_eq!(e[0].object, "aaa..bbb");
    }

    #[test]
    fn patch_split_at_file_headers_only() {
        let p = "diff --git a/x b/x\n@@ -1 +1 @@\n-diff --git a/y b/y\n+z\ndiff --git a/q b/q\n@@ -0,0 +1 @@\n+q\n";
        let chunks = split_patch(p);
        assert_eq!(chunks.len(), 2);
        assert!(chunks[0].contains("-diff --git a/y"));
        assert_eq!(hunks(chunks[1]), Some("@@ -0,0 +1 @@\n+q\n"));
    }
}
