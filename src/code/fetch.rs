//! Reading the anchored files: the local clone first (no request, works offline), then
//! GitHub's contents API at the head commit; what was read is cached with the quiz.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use base64::Engine;
use serde::{Deserialize, Serialize};

use super::{CodeBook, FileText, MAX_FILE_BYTES, path};
use crate::github::{Connection, GithubError, PrRef};
use crate::quiz::Quiz;

/// Where the code shown was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Provenance {
    /// The local clone, at the PR's head commit.
    Clone,
    /// GitHub's contents API at the head commit (or its cached copy).
    GitHub,
    /// The sample bundled with the demo quiz.
    Bundled,
    /// A quiz from a file: the current clone's `HEAD` (the quiz names no commit).
    WorkingHead,
}

impl Provenance {
    pub fn label(&self) -> &'static str {
        match self {
            Self::Clone => "from your clone at the PR's head",
            Self::GitHub => "at the PR's head",
            Self::Bundled => "demo sample",
            Self::WorkingHead => "at your HEAD",
        }
    }
}

/// What the code of a quiz is read against.
pub enum CodeContext<'a> {
    /// The embedded demo: its bundled sample.
    Demo,
    /// A quiz from a file: the clone around `cwd`, at `HEAD`, when there is one.
    File { cwd: &'a Path },
    /// A PR's quiz at its head commit.
    PullRequest {
        pr: &'a PrRef,
        head_sha: Option<&'a str>,
        cwd: &'a Path,
        /// `None`: offline; only the clone and the cache are asked.
        conn: Option<&'a Connection>,
        store: &'a crate::store::Store,
    },
}

/// The sample code bundled with the demo quiz (`assets/demo-code`).
const BUNDLED: &[(&str, &str)] = &[
    (
        "src/cognit/llm_claude_agent.py",
        include_str!("../../assets/demo-code/src/cognit/llm_claude_agent.py"),
    ),
    (
        "src/cognit/take.py",
        include_str!("../../assets/demo-code/src/cognit/take.py"),
    ),
];

/// Every anchored question's code for `quiz`, read as `ctx` says. Never fails: what cannot
/// be read becomes a one-line note in place of the snippet.
pub fn collect(quiz: &Quiz, ctx: &CodeContext<'_>) -> CodeBook {
    let wanted = anchor_paths(quiz);
    if wanted.is_empty() {
        return CodeBook::default();
    }
    match ctx {
        CodeContext::Demo => {
            let files = read_each(&wanted, |p| {
                BUNDLED.iter().find(|(name, _)| *name == p).map_or_else(
                    || FileText::Unusable("not in the demo's sample code".into()),
                    |(_, text)| FileText::Text((*text).to_string()),
                )
            });
            CodeBook::build(quiz, &files, None, &Provenance::Bundled)
        }
        CodeContext::File { cwd } => {
            let Some(repo) = git_toplevel(cwd) else {
                return CodeBook::build(quiz, &BTreeMap::new(), None, &Provenance::WorkingHead);
            };
            let files = read_each(&wanted, |p| git_read(&repo, "HEAD", p));
            CodeBook::build(quiz, &files, None, &Provenance::WorkingHead)
        }
        CodeContext::PullRequest {
            pr,
            head_sha,
            cwd,
            conn,
            store,
        } => {
            let Some(sha) = head_sha.filter(|s| is_sha(s)) else {
                return CodeBook::build(quiz, &BTreeMap::new(), None, &Provenance::GitHub);
            };
            let url_base = format!("https://{}/{}/{}/blob/{sha}", pr.host, pr.owner, pr.repo);
            let (files, from) = pull_request_files(&wanted, pr, sha, cwd, *conn, store);
            CodeBook::build(quiz, &files, Some(&url_base), &from)
        }
    }
}

/// Anchor paths as written, each with its checked form or why it is not read.
fn anchor_paths(quiz: &Quiz) -> BTreeMap<String, Result<String, String>> {
    quiz.questions
        .iter()
        .filter_map(|q| q.anchor.as_ref())
        .map(|a| (a.path.clone(), path::checked(&a.path)))
        .collect()
}

fn read_each(
    wanted: &BTreeMap<String, Result<String, String>>,
    mut read: impl FnMut(&str) -> FileText,
) -> BTreeMap<String, FileText> {
    wanted
        .iter()
        .map(|(raw, checked)| {
            let text = match checked {
                Ok(p) => read(p),
                Err(why) => FileText::Unusable(why.clone()),
            };
            (raw.clone(), text)
        })
        .collect()
}

fn is_sha(s: &str) -> bool {
    (7..=64).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The cached files of one PR at one commit.
#[derive(Debug, Default, Serialize, Deserialize)]
struct CodeCache {
    sha: String,
    files: BTreeMap<String, FileText>,
}

fn cache_key(pr: &PrRef) -> PathBuf {
    let mut key = pr.origin().key_path();
    let name = key
        .file_name()
        .map_or_else(|| "pr".into(), |n| n.to_string_lossy().into_owned());
    key.set_file_name(format!("{name}-code"));
    key
}

fn pull_request_files(
    wanted: &BTreeMap<String, Result<String, String>>,
    pr: &PrRef,
    sha: &str,
    cwd: &Path,
    conn: Option<&Connection>,
    store: &crate::store::Store,
) -> (BTreeMap<String, FileText>, Provenance) {
    let clone = git_toplevel(cwd).filter(|repo| git_has_commit(repo, sha));
    if let Some(repo) = clone {
        return (
            read_each(wanted, |p| git_read(&repo, sha, p)),
            Provenance::Clone,
        );
    }
    let mut cache: CodeCache = store
        .load_cached(&cache_key(pr))
        .filter(|c: &CodeCache| c.sha == sha)
        .unwrap_or_else(|| CodeCache {
            sha: sha.to_string(),
            ..CodeCache::default()
        });
    let mut changed = false;
    let files = read_each(wanted, |p| {
        if let Some(cached) = cache.files.get(p) {
            return cached.clone();
        }
        let Some(conn) = conn else {
            return FileText::Unusable(
                "not cached, and GitHub cannot be reached: take the quiz once online, or inside a clone with the PR's head".into(),
            );
        };
        match conn.block_on(contents(conn, pr, sha, p)) {
            Ok(text) => {
                cache.files.insert(p.to_string(), text.clone());
                changed = true;
                text
            }
            // Not kept: the next take asks again.
            Err(e) => FileText::Unusable(format!("cannot read it from GitHub: {e}")),
        }
    });
    if changed {
        // A cache that cannot be written costs a request next time, nothing more.
        let _ = store.save_cached(&cache_key(pr), &cache);
    }
    (files, Provenance::GitHub)
}

/// One file's text at `sha` through the contents API (symlinks followed), or `None` when
/// GitHub has no readable text for it. Used to give the model whole files when no clone has
/// the PR's head.
pub fn text_at(conn: &Connection, pr: &PrRef, sha: &str, path: &str) -> Option<String> {
    match conn.block_on(contents(conn, pr, sha, path)) {
        Ok(FileText::Text(text)) => Some(text),
        Ok(FileText::Unusable(_)) | Err(_) => None,
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ContentsReply {
    Entry(Entry),
    // A folder: an array of entries (only counted).
    Listing(Vec<serde::de::IgnoredAny>),
}

#[derive(Deserialize)]
struct Entry {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    size: u64,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    target: Option<String>,
}

/// One file at `sha` through the contents API, following symlinks inside the repository.
async fn contents(
    conn: &Connection,
    pr: &PrRef,
    sha: &str,
    path: &str,
) -> Result<FileText, GithubError> {
    let mut path = path.to_string();
    for _ in 0..MAX_LINKS {
        // Slashes as %2F: GitHub takes both, and route matchers (Prism) only this one.
        let url = format!(
            "/repos/{}/{}/contents/{}?ref={sha}",
            pr.owner,
            pr.repo,
            crate::github::client::encode_query(&path)
        );
        let what = format!("{path} at {}", &sha[..7.min(sha.len())]);
        let entry = match conn
            .client
            .get_json::<ContentsReply>(&url, None, &what)
            .await
        {
            Ok(crate::github::Fetched::Fresh { value, .. }) => value,
            Ok(crate::github::Fetched::NotModified) => {
                return Ok(FileText::Unusable("GitHub sent no content".into()));
            }
            Err(GithubError::NotFound { .. }) => {
                return Ok(FileText::Unusable(
                    "no such file at the pull request's head commit".into(),
                ));
            }
            Err(e) => return Err(e),
        };
        let entry = match entry {
            ContentsReply::Listing(entries) => {
                return Ok(FileText::Unusable(format!(
                    "a folder ({} entries), not a file",
                    entries.len()
                )));
            }
            ContentsReply::Entry(e) => e,
        };
        match entry.kind.as_str() {
            "file" => return Ok(decode_entry(&entry)),
            "symlink" => match entry
                .target
                .as_deref()
                .map(|t| path::resolve_link(&path, t))
            {
                Some(Ok(next)) => path = next,
                Some(Err(why)) => return Ok(FileText::Unusable(why)),
                None => {
                    return Ok(FileText::Unusable(
                        "a symlink GitHub did not resolve".into(),
                    ));
                }
            },
            "dir" => return Ok(FileText::Unusable("a folder, not a file".into())),
            other => {
                return Ok(FileText::Unusable(format!(
                    "a {} entry, not a file",
                    crate::text::sanitize_line(other)
                )));
            }
        }
    }
    Ok(FileText::Unusable("too many symlinks in a row".into()))
}

const MAX_LINKS: usize = 5;

fn decode_entry(entry: &Entry) -> FileText {
    if entry.size > MAX_FILE_BYTES {
        return too_large(entry.size);
    }
    let (Some("base64"), Some(content)) = (entry.encoding.as_deref(), entry.content.as_deref())
    else {
        return FileText::Unusable("GitHub sent the file without its content".into());
    };
    let packed: String = content
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    match base64::engine::general_purpose::STANDARD.decode(packed) {
        Ok(bytes) => text_of(bytes),
        Err(_) => FileText::Unusable("GitHub sent content that is not base64".into()),
    }
}

fn too_large(size: u64) -> FileText {
    #[allow(clippy::cast_precision_loss)] // a size shown to one decimal
    let mb = size as f64 / 1_048_576.0;
    FileText::Unusable(format!(
        "too large to show ({mb:.1} MB; quizz reads files up to {} MB)",
        MAX_FILE_BYTES / 1_048_576
    ))
}

/// Text, or why these bytes are not shown.
pub fn text_of(bytes: Vec<u8>) -> FileText {
    let head = &bytes[..bytes.len().min(8000)];
    if head.contains(&0) {
        return FileText::Unusable("a binary file: nothing to show".into());
    }
    match String::from_utf8(bytes) {
        Ok(text) => FileText::Text(text),
        Err(_) => FileText::Unusable("not UTF-8 text: nothing to show".into()),
    }
}

fn git(repo: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("-C")
        .arg(repo)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        // A repository's own config must not run programs for a read (fsmonitor, pagers).
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE");
    cmd
}

fn git_toplevel(cwd: &Path) -> Option<PathBuf> {
    let out = git(cwd)
        .args(["rev-parse", "--show-toplevel"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim_end()))
}

fn git_has_commit(repo: &Path, sha: &str) -> bool {
    git(repo)
        .args(["cat-file", "-e", &format!("{sha}^{{commit}}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// One blob of `rev` (a checked path), read only when it is a regular file of a bounded
/// size; symlinks are followed while they stay inside the repository.
pub fn git_read(repo: &Path, rev: &str, path: &str) -> FileText {
    let mut path = path.to_string();
    for _ in 0..MAX_LINKS {
        let Ok(out) = git(repo)
            .args(["ls-tree", "-l", "--full-tree", rev, "--", &path])
            .output()
        else {
            return FileText::Unusable("git could not be run".into());
        };
        let listing = String::from_utf8_lossy(&out.stdout);
        // `<mode> <type> <object> <size>\t<path>`
        let Some((meta, _)) = listing.lines().next().and_then(|l| l.split_once('\t')) else {
            return FileText::Unusable("no such file at this commit".into());
        };
        let fields: Vec<&str> = meta.split_whitespace().collect();
        let [mode, kind, object, size] = fields[..] else {
            return FileText::Unusable("git listed the file in a form quizz does not know".into());
        };
        if kind != "blob" {
            return FileText::Unusable("a folder or submodule, not a file".into());
        }
        if mode == "120000" {
            let target = match blob(repo, object, 4096) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(why) => return FileText::Unusable(why),
            };
            match path::resolve_link(&path, &target) {
                Ok(next) => {
                    path = next;
                    continue;
                }
                Err(why) => return FileText::Unusable(why),
            }
        }
        let size: u64 = size.parse().unwrap_or(u64::MAX);
        if size > MAX_FILE_BYTES {
            return too_large(size);
        }
        return match blob(repo, object, MAX_FILE_BYTES) {
            Ok(bytes) => text_of(bytes),
            Err(why) => FileText::Unusable(why),
        };
    }
    FileText::Unusable("too many symlinks in a row".into())
}

/// A blob's bytes, at most `limit` of them read.
fn blob(repo: &Path, object: &str, limit: u64) -> Result<Vec<u8>, String> {
    let mut child = git(repo)
        .args(["cat-file", "blob", object])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("git could not be run: {e}"))?;
    let mut bytes = Vec::new();
    if let Some(out) = child.stdout.take() {
        out.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("git could not be read: {e}"))?;
    }
    let _ = child.kill();
    let _ = child.wait();
    if bytes.len() as u64 > limit {
        return Err("too large to show".into());
    }
    Ok(bytes)
}
