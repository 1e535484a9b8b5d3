//! A PR's comments, kept in the local cache: the first time every page (100 a page), then
//! only what changed since a remembered `updated_at` (`since=`, with `If-None-Match`: a 304
//! costs no rate limit). Only quiz and results comments are kept.
//!
//! A listing cannot show a deletion, only the absence of a comment: when a listing was read
//! completely, cached comments it should have held and did not were deleted, and leave the
//! cache. While a PR's comments fit in one page the whole listing is asked for (one
//! conditional request), so any deletion shows; past that, `since=` keeps the listing
//! short and a quiz comment older than `since` is checked by its own conditional GET.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::client::{Client, Fetched};
use super::comments::Comment;
use super::error::GithubError;
use super::repo::PrRef;
use crate::store::Store;

/// The cache layout this version writes; older caches are listed again from scratch (they
/// did not keep the original tool's results comments).
pub const CACHE_FORMAT: u32 = 2;

/// The cached state of one PR's comments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrCache {
    #[serde(default)]
    pub format: u32,
    /// The newest `updated_at` seen: the next listing asks only for comments since then.
    #[serde(default)]
    pub since: Option<String>,
    /// The `ETag` of the last listing's first page, and that listing's URL.
    #[serde(default)]
    pub etag: Option<String>,
    #[serde(default)]
    pub etag_url: Option<String>,
    /// The `since` of that listing (`None`: the whole listing), and whether every page of
    /// it was read: the comments it proves present are those updated since then.
    #[serde(default)]
    pub listed_since: Option<String>,
    #[serde(default)]
    pub listed_complete: bool,
    /// Quiz comments and results comments, oldest first.
    #[serde(default)]
    pub comments: Vec<Comment>,
    /// Seconds since the Unix epoch of the last successful sync.
    #[serde(default)]
    pub synced_at: u64,
    /// The pull request's title and author, with the `ETag` to re-validate them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pull: Option<PullInfo>,
    /// The `ETag` of the last GET of one comment (the quiz, checked for deletion).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<CheckedComment>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed_files: Option<ChangedFiles>,
}

/// What quizz shows of the pull request itself.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PullInfo {
    pub title: String,
    /// The login of the PR's author.
    pub author: String,
    #[serde(default)]
    pub state: String,
    #[serde(default)]
    pub draft: bool,
    #[serde(default)]
    pub etag: Option<String>,
    /// The head commit: where the code a question points at is read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_sha: Option<String>,
    /// The base branch's commit the PR is measured from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_sha: Option<String>,
    /// The PR's description (untrusted text: it may say `quiz: skip`).
    #[serde(default)]
    pub body: String,
}

/// The PR's changed files (`/pulls/{n}/files`), as of one head commit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedFiles {
    pub head_sha: String,
    pub files: Vec<String>,
    pub etag: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckedComment {
    pub id: u64,
    pub etag: Option<String>,
}

impl PrCache {
    /// Adds or replaces comments; a comment that no longer holds a quiz or results leaves.
    pub fn merge(&mut self, fetched: &[Comment]) {
        for c in fetched {
            self.comments.retain(|old| old.id != c.id);
            if c.is_relevant() {
                self.comments.push(c.clone());
            }
        }
        self.comments.sort_by_key(|c| c.id);
    }

    /// Removes a comment (deleted on GitHub); returns it when it was cached.
    pub fn forget(&mut self, id: u64) -> Option<Comment> {
        let at = self.comments.iter().position(|c| c.id == id)?;
        if self.checked.as_ref().is_some_and(|c| c.id == id) {
            self.checked = None;
        }
        Some(self.comments.remove(at))
    }

    /// Whether the last listing (read whole, or unchanged since: 304) covered `comment`:
    /// its `updated_at` is inside the listing's `since=` window, so it was there, or it
    /// would have been removed.
    pub fn listing_covers(&self, comment: &Comment) -> bool {
        self.listed_complete
            && self
                .listed_since
                .as_deref()
                .is_none_or(|since| comment.updated_at.as_str() >= since)
    }
}

/// How the comments were brought up to date.
#[derive(Debug)]
pub enum Freshness {
    /// Listed (all pages, or what changed since the last time). `removed`: cached comments
    /// the listing should have held and did not (deleted on GitHub).
    Fetched {
        listed: usize,
        removed: Vec<Comment>,
    },
    /// GitHub said 304: nothing changed.
    NotModified,
    /// GitHub could not be reached, or could not be used (a rate limit, a captive portal,
    /// an answer pointing at another host…): this is the cached copy from `synced_at`.
    Offline(GithubError),
}

/// `since` moves forward only when this many comments changed after it (so a PR whose
/// comments fit in one page is always listed whole).
const SINCE_WINDOW: usize = 100;

/// Comments asked for in a page of the listing.
pub const PER_PAGE: usize = 100;

/// What a listing cut at [`super::client::MAX_PAGES`] pages means for the user.
pub fn cut_listing_note() -> String {
    format!(
        "GitHub's listing stopped after its first {} comments (quizz reads at most {} pages of {PER_PAGE}), so a later comment may hold the quiz; the same command run again reads on from the newest comment seen",
        super::client::MAX_PAGES * PER_PAGE,
        super::client::MAX_PAGES
    )
}

pub fn comments_url(pr: &PrRef, since: Option<&str>) -> String {
    let mut url = format!(
        "/repos/{}/{}/issues/{}/comments?per_page={PER_PAGE}",
        pr.owner, pr.repo, pr.number
    );
    if let Some(s) = since {
        url.push_str("&since=");
        url.push_str(&super::client::encode_query(s));
    }
    url
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The cached comments of `pr` (none: an empty cache).
pub fn load_cache(store: &Store, pr: &PrRef) -> Option<PrCache> {
    store.load_cached(&pr.origin().key_path())
}

pub fn save_cache(store: &Store, pr: &PrRef, cache: &PrCache) {
    // A cache that cannot be written costs speed, not correctness.
    let _ = store.save_cached(&pr.origin().key_path(), cache);
}

/// Brings the cached comments of `pr` up to date. With no network (or an answer that says
/// nothing of the comments: see [`GithubError::cache_may_stand_in`]) and a cached copy,
/// returns the copy with [`Freshness::Offline`].
pub async fn sync_comments(
    client: &Client,
    store: &Store,
    pr: &PrRef,
) -> Result<(PrCache, Freshness), GithubError> {
    let cached = load_cache(store, pr);
    let mut cache = cached.clone().unwrap_or_default();
    if cache.format < CACHE_FORMAT {
        // An older layout: list everything again (the comments it has are kept until then).
        cache.since = None;
        cache.etag = None;
        cache.etag_url = None;
        cache.listed_complete = false;
    }
    let url = comments_url(pr, cache.since.as_deref());
    let etag = cache
        .etag
        .as_deref()
        .filter(|_| cache.etag_url.as_deref() == Some(url.as_str()));
    let what = format!("the comments of {pr}");
    let freshness = match client.get_listing::<Comment>(&url, etag, &what).await {
        Ok(Fetched::NotModified) => Freshness::NotModified,
        Ok(Fetched::Fresh { value, etag }) => {
            let mut removed = Vec::new();
            cache.listed_since.clone_from(&cache.since);
            cache.listed_complete = value.complete;
            if value.complete {
                // Every comment updated since `since` is in the listing: a cached one
                // in that window that is missing was deleted.
                let gone: Vec<u64> = cache
                    .comments
                    .iter()
                    .filter(|c| cache.listing_covers(c))
                    .filter(|c| !value.items.iter().any(|n| n.id == c.id))
                    .map(|c| c.id)
                    .collect();
                removed = gone.into_iter().filter_map(|id| cache.forget(id)).collect();
            }
            let fetched = value.items;
            cache.merge(&fetched);
            // Keep `since` (and so the URL and its ETag) stable while what changed since
            // then fits a page: the next look is then a 304 unless something changed.
            let newest = fetched.iter().map(|c| c.updated_at.as_str()).max();
            if let Some(newest) = newest
                && fetched.len() >= SINCE_WINDOW
                && cache.since.as_deref().is_none_or(|s| newest > s)
            {
                cache.since = Some(newest.to_string());
            }
            cache.etag = etag;
            cache.etag_url = Some(url);
            Freshness::Fetched {
                listed: fetched.len(),
                removed,
            }
        }
        Err(e) if e.cache_may_stand_in() => {
            return match cached {
                Some(c) => Ok((c, Freshness::Offline(e))),
                None => Err(e),
            };
        }
        Err(e) => return Err(e),
    };
    cache.format = CACHE_FORMAT;
    cache.synced_at = now();
    save_cache(store, pr, &cache);
    Ok((cache, freshness))
}

/// Whether a cached comment is still on GitHub.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommentState {
    /// Still there (304, or fetched again and merged into the cache).
    Present,
    /// GitHub answers 404 or 410: it was deleted (and has left the cache).
    Deleted,
}

/// Checks one cached comment with a conditional GET (its `ETag` is kept in the cache).
/// The cache is updated and saved.
pub async fn check_comment(
    client: &Client,
    store: &Store,
    pr: &PrRef,
    cache: &mut PrCache,
    id: u64,
) -> Result<CommentState, GithubError> {
    let url = format!("/repos/{}/{}/issues/comments/{id}", pr.owner, pr.repo);
    let etag = cache
        .checked
        .as_ref()
        .filter(|c| c.id == id)
        .and_then(|c| c.etag.clone());
    let what = format!("the quiz comment {id} of {pr}");
    let state = match client
        .get_json::<Comment>(&url, etag.as_deref(), &what)
        .await
    {
        Ok(Fetched::NotModified) => CommentState::Present,
        Ok(Fetched::Fresh { value, etag }) => {
            cache.merge(std::slice::from_ref(&value));
            cache.checked = Some(CheckedComment { id, etag });
            CommentState::Present
        }
        Err(GithubError::NotFound { .. }) => {
            cache.forget(id);
            CommentState::Deleted
        }
        Err(e) => return Err(e),
    };
    save_cache(store, pr, cache);
    Ok(state)
}

#[derive(Deserialize)]
struct PullReply {
    #[serde(default)]
    title: String,
    #[serde(default)]
    user: Option<super::comments::User>,
    #[serde(default)]
    state: String,
    #[serde(default)]
    draft: Option<bool>,
    #[serde(default)]
    head: Option<HeadReply>,
    #[serde(default)]
    base: Option<HeadReply>,
    #[serde(default)]
    body: Option<String>,
}

#[derive(Deserialize)]
struct HeadReply {
    sha: String,
}

#[derive(Deserialize)]
struct FileReply {
    filename: String,
}

/// The PR's title and author: one conditional GET of the pull request, kept in the cache
/// with its `ETag` (a 304 when nothing changed). Failures leave the cached copy as it was.
pub async fn refresh_pull(
    client: &Client,
    store: &Store,
    pr: &PrRef,
    cache: &mut PrCache,
) -> Result<(), GithubError> {
    let url = format!("/repos/{}/{}/pulls/{}", pr.owner, pr.repo, pr.number);
    // A copy cached before quizz kept the head and base commits is read again in full (a
    // 304 would leave them unknown, and with them the code, the coverage and the diff).
    let etag = cache
        .pull
        .as_ref()
        .filter(|p| p.head_sha.is_some() && p.base_sha.is_some())
        .and_then(|p| p.etag.clone());
    let what = format!("pull request {pr}");
    match client
        .get_json::<PullReply>(&url, etag.as_deref(), &what)
        .await?
    {
        Fetched::NotModified => return Ok(()),
        Fetched::Fresh { value, etag } => {
            cache.pull = Some(PullInfo {
                title: value.title,
                author: value.user.map(|u| u.login).unwrap_or_default(),
                state: value.state,
                draft: value.draft.unwrap_or(false),
                etag,
                head_sha: value.head.map(|h| h.sha),
                base_sha: value.base.map(|b| b.sha),
                body: value.body.unwrap_or_default(),
            });
        }
    }
    save_cache(store, pr, cache);
    Ok(())
}

/// The PR's changed files at its current head: read again (paginated, conditional on the
/// cached `ETag`) only when the head moved or nothing is cached. Failures leave the cached
/// list as it was.
pub async fn refresh_changed_files(
    client: &Client,
    store: &Store,
    pr: &PrRef,
    cache: &mut PrCache,
) -> Result<(), GithubError> {
    let Some(head) = cache.pull.as_ref().and_then(|p| p.head_sha.clone()) else {
        return Ok(());
    };
    let known = cache.changed_files.as_ref();
    if known.is_some_and(|c| c.head_sha == head) {
        return Ok(());
    }
    let url = format!(
        "/repos/{}/{}/pulls/{}/files?per_page=100",
        pr.owner, pr.repo, pr.number
    );
    let etag = known.and_then(|c| c.etag.clone());
    let what = format!("the changed files of {pr}");
    match client
        .get_all::<FileReply>(&url, etag.as_deref(), &what)
        .await?
    {
        Fetched::NotModified => {
            if let Some(c) = cache.changed_files.as_mut() {
                c.head_sha = head;
            }
        }
        Fetched::Fresh { value, etag } => {
            cache.changed_files = Some(ChangedFiles {
                head_sha: head,
                files: value.into_iter().map(|f| f.filename).collect(),
                etag,
            });
        }
    }
    save_cache(store, pr, cache);
    Ok(())
}

/// Every changed file of the PR with its counts and hunks (`/pulls/{n}/files`, paginated:
/// GitHub lists at most 3,000), for writing a quiz when no clone has the head commit.
pub async fn pull_files(
    client: &Client,
    pr: &PrRef,
) -> Result<Vec<crate::generate::PrFile>, GithubError> {
    let url = format!(
        "/repos/{}/{}/pulls/{}/files?per_page=100",
        pr.owner, pr.repo, pr.number
    );
    let what = format!("the changed files of {pr}");
    match client.get_all(&url, None, &what).await? {
        Fetched::Fresh { value, .. } => Ok(value),
        Fetched::NotModified => Ok(Vec::new()),
    }
}

/// Records a comment quizz just posted or edited.
pub fn remember(store: &Store, pr: &PrRef, comment: &Comment) {
    let mut cache = load_cache(store, pr).unwrap_or_default();
    cache.merge(std::slice::from_ref(comment));
    save_cache(store, pr, &cache);
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct UserCache {
    login: String,
    etag: Option<String>,
}

#[derive(Deserialize)]
struct UserReply {
    login: String,
}

/// The login the token belongs to (`GET /user`, conditional on the cached `ETag`).
/// The signed-in user as last read on `host` (no request), when quizz has asked before.
pub fn cached_user(store: &Store, host: &str) -> Option<String> {
    let key = std::path::PathBuf::from(host).join("user");
    store.load_cached::<UserCache>(&key).map(|c| c.login)
}

pub async fn current_user(
    client: &Client,
    store: &Store,
    host: &str,
) -> Result<String, GithubError> {
    let key = std::path::PathBuf::from(host).join("user");
    let cached: Option<UserCache> = store.load_cached(&key);
    let etag = cached.as_ref().and_then(|c| c.etag.as_deref());
    match client
        .get_json::<UserReply>("/user", etag, "the signed-in user")
        .await?
    {
        Fetched::NotModified => cached
            .map(|c| c.login)
            .ok_or_else(|| GithubError::Protocol {
                what: "the signed-in user".into(),
                detail: "304 without a cached answer".into(),
            }),
        Fetched::Fresh { value, etag } => {
            let _ = store.save_cached(
                &key,
                &UserCache {
                    login: value.login.clone(),
                    etag,
                },
            );
            Ok(value.login)
        }
    }
}
