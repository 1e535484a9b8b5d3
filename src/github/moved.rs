//! Renamed and transferred repositories. GitHub answers requests for the old name with a
//! redirect (301 for GET, 307 for other methods); the client follows it on the same host,
//! and this module learns the new name from it, says so once per run, records it so the
//! next run asks for the new name directly, and moves the cache (and saved answers) there.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::client::{Client, Fetched, Redirect};
use super::repo::{PrRef, RepoRef};
use super::sync::{PrCache, load_cache, save_cache};
use crate::store::Store;
use crate::text::sanitize_line;

/// A recorded move, kept next to the old name's cache (`cache/HOST/OWNER/REPO.moved.json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct MovedTo {
    owner: String,
    repo: String,
}

fn record_key(repo: &RepoRef) -> PathBuf {
    PathBuf::from(&repo.host)
        .join(&repo.owner)
        .join(format!("{}.moved", repo.repo))
}

/// `o/old is now o/new`, for the notes of a run.
pub fn moved_note(old: &RepoRef, new: &RepoRef) -> String {
    sanitize_line(&format!(
        "{old} is now {new}: GitHub redirects the old name (renamed or transferred); quizz uses the new one (update your git remote or --repo)"
    ))
}

/// The PR under the repository's recorded new name (moves followed up to 3 times).
pub fn known_move(store: &Store, pr: &PrRef) -> Option<PrRef> {
    let mut current = pr.clone();
    for _ in 0..3 {
        let Some(to) = store.load_cached::<MovedTo>(&record_key(&current.repo_ref())) else {
            break;
        };
        match RepoRef::new(&current.host, &to.owner, &to.repo) {
            Some(r) if r != current.repo_ref() => current = r.pr(pr.number),
            _ => break,
        }
    }
    (current != *pr).then_some(current)
}

/// Whether a redirect came from a request about `repo` (`/repos/OWNER/REPO` or below).
fn is_about(redirect: &Redirect, repo: &RepoRef) -> bool {
    let path = redirect.from.split(['?', '#']).next().unwrap_or_default();
    let mut parts = path.trim_start_matches('/').split('/');
    parts.next() == Some("repos")
        && parts
            .next()
            .is_some_and(|o| o.eq_ignore_ascii_case(&repo.owner))
        && parts
            .next()
            .is_some_and(|r| r.eq_ignore_ascii_case(&repo.repo))
}

/// `OWNER/REPO` from a `/repos/OWNER/REPO/...` path.
fn repo_in(host: &str, path: &str) -> Option<RepoRef> {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let mut parts = path.trim_start_matches('/').split('/');
    if parts.next() != Some("repos") {
        return None;
    }
    RepoRef::new(host, parts.next()?, parts.next()?)
}

#[derive(Deserialize)]
struct RepoReply {
    full_name: String,
}

/// What a run learnt about a repository's name from the redirects it followed.
#[derive(Debug)]
pub enum Learnt {
    /// No request about the repository was redirected.
    Nothing,
    Moved(RepoRef),
    /// Redirected, but the new name could not be read (why).
    Unknown(String),
}

/// The new name of `repo` when requests about it were redirected: from the redirect's
/// target when it names the repository (`/repos/o/new/...`), else (GitHub's
/// `/repositories/ID/...`) from one GET of the old name, which follows the redirect to the
/// repository's own record.
pub async fn learn(client: &Client, repo: &RepoRef) -> Learnt {
    let redirects = client.take_redirects();
    let Some(at) = redirects.iter().position(|r| is_about(r, repo)) else {
        return Learnt::Nothing;
    };
    // Where the chain of hops that started there ended (a repository renamed twice).
    let mut end = redirects[at].to.clone();
    for r in &redirects[at + 1..] {
        if r.from == end {
            end.clone_from(&r.to);
        }
    }
    if let Some(new) = repo_in(&repo.host, &end)
        && new != *repo
    {
        return Learnt::Moved(new);
    }
    let url = format!("/repos/{}/{}", repo.owner, repo.repo);
    let what = format!("the repository {repo}");
    let outcome = client.get_json::<RepoReply>(&url, None, &what).await;
    client.take_redirects();
    match outcome {
        Ok(Fetched::Fresh { value, .. }) => {
            let named = value
                .full_name
                .split_once('/')
                .and_then(|(o, r)| RepoRef::new(&repo.host, o, r));
            match named {
                Some(new) if new != *repo => Learnt::Moved(new),
                Some(_) => Learnt::Nothing,
                None => Learnt::Unknown(format!(
                    "GitHub named it {:?}",
                    sanitize_line(&value.full_name)
                )),
            }
        }
        Ok(Fetched::NotModified) => Learnt::Unknown("GitHub answered 304".into()),
        Err(e) => Learnt::Unknown(e.to_string()),
    }
}

/// Records the move and moves what is kept under the old name: the PR's cache (its listing
/// URL rewritten, so the next look is still conditional) and the saved answers.
pub fn migrate(store: &Store, old: &PrRef, new: &PrRef) {
    let _ = store.save_cached(
        &record_key(&old.repo_ref()),
        &MovedTo {
            owner: new.owner.clone(),
            repo: new.repo.clone(),
        },
    );
    if let Some(mut cache) = load_cache(store, old) {
        let from = format!("/repos/{}/{}/", old.owner, old.repo);
        let to = format!("/repos/{}/{}/", new.owner, new.repo);
        cache.etag_url = cache.etag_url.map(|u| u.replacen(&from, &to, 1));
        let newer_there =
            load_cache(store, new).is_some_and(|c: PrCache| c.synced_at > cache.synced_at);
        if !newer_there {
            save_cache(store, new, &cache);
        }
        let _ = std::fs::remove_file(store.cache_path(&old.origin().key_path()));
    }
    // Saved answers live under the PR's name too: a take resumes under the new one.
    let dir = |pr: &PrRef| {
        store
            .attempt_path(&pr.origin(), "moved")
            .parent()
            .map(std::path::Path::to_path_buf)
    };
    if let (Some(from), Some(to)) = (dir(old), dir(new))
        && from.is_dir()
        && !to.exists()
    {
        if let Some(parent) = to.parent() {
            let _ = crate::store::create_private_dir(parent);
        }
        let _ = std::fs::rename(&from, &to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_name_the_repository_they_came_from() {
        let repo = RepoRef::new("github.com", "octo", "old").unwrap();
        let r = |from: &str, to: &str| Redirect {
            status: 301,
            from: from.into(),
            to: to.into(),
        };
        assert!(is_about(
            &r(
                "/repos/Octo/old/issues/7/comments?per_page=100",
                "/repositories/5/x"
            ),
            &repo
        ));
        assert!(!is_about(&r("/repos/octo/older/issues", "/x"), &repo));
        assert_eq!(
            repo_in("github.com", "/repos/octo/new/issues/7?since=x"),
            RepoRef::new("github.com", "octo", "new")
        );
        assert_eq!(repo_in("github.com", "/repositories/5/issues/7"), None);
    }

    #[test]
    fn a_recorded_move_is_followed_and_the_cache_moves_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let old = RepoRef::new("github.com", "octo", "old").unwrap().pr(7);
        let new = RepoRef::new("github.com", "octo", "new").unwrap().pr(7);
        let cache = PrCache {
            etag: Some("W/\"1\"".into()),
            etag_url: Some("/repos/octo/old/issues/7/comments?per_page=100".into()),
            synced_at: 5,
            ..PrCache::default()
        };
        save_cache(&store, &old, &cache);
        assert_eq!(known_move(&store, &old), None);
        migrate(&store, &old, &new);
        assert_eq!(known_move(&store, &old), Some(new.clone()));
        assert!(load_cache(&store, &old).is_none());
        assert_eq!(
            load_cache(&store, &new).unwrap().etag_url.as_deref(),
            Some("/repos/octo/new/issues/7/comments?per_page=100")
        );
        // The record is not a cached pull request (status lists HOST/OWNER/REPO/N keys).
        assert!(
            store
                .cached_keys()
                .iter()
                .all(|k| k.components().count() != 4 || k.ends_with("7"))
        );
    }
}
