//! A PR's comments, kept in the local cache: the first time every page (100 a page), then
//! only what changed since a remembered `updated_at` (`since=`, with `If-None-Match`: a 304
//! costs no rate limit). Only quiz and quizz-results comments are kept.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::client::{Client, Fetched};
use super::comments::Comment;
use super::error::GithubError;
use super::repo::PrRef;
use crate::store::Store;

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
    /// Quiz comments and quizz results comments, oldest first.
    #[serde(default)]
    pub comments: Vec<Comment>,
    /// Seconds since the Unix epoch of the last successful sync.
    #[serde(default)]
    pub synced_at: u64,
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
}

/// How the comments were brought up to date.
#[derive(Debug)]
pub enum Freshness {
    /// Listed (all pages, or what changed since the last time).
    Fetched { listed: usize },
    /// GitHub said 304: nothing changed.
    NotModified,
    /// GitHub could not be reached: this is the cached copy from `synced_at`.
    Offline(GithubError),
}

/// `since` moves forward only when this many comments changed after it.
const SINCE_WINDOW: usize = 100;

pub fn comments_url(pr: &PrRef, since: Option<&str>) -> String {
    let mut url = format!(
        "/repos/{}/{}/issues/{}/comments?per_page=100",
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

/// Brings the cached comments of `pr` up to date. With no network and a cached copy,
/// returns the copy with [`Freshness::Offline`].
pub async fn sync_comments(
    client: &Client,
    store: &Store,
    pr: &PrRef,
) -> Result<(PrCache, Freshness), GithubError> {
    let key = pr.origin().key_path();
    let cached: Option<PrCache> = store.load_cached(&key);
    let mut cache = cached.clone().unwrap_or_default();
    let url = comments_url(pr, cache.since.as_deref());
    let etag = cache
        .etag
        .as_deref()
        .filter(|_| cache.etag_url.as_deref() == Some(url.as_str()));
    let what = format!("the comments of {pr}");
    let freshness = match client.get_all::<Comment>(&url, etag, &what).await {
        Ok(Fetched::NotModified) => Freshness::NotModified,
        Ok(Fetched::Fresh { value, etag }) => {
            cache.merge(&value);
            // Keep `since` (and so the URL and its ETag) stable while what changed since
            // then fits a page: the next look is then a 304 unless something changed.
            let newest = value.iter().map(|c| c.updated_at.as_str()).max();
            if let Some(newest) = newest {
                let advance = match cache.since.as_deref() {
                    None => true,
                    Some(s) => newest > s && value.len() >= SINCE_WINDOW,
                };
                if advance {
                    cache.since = Some(newest.to_string());
                }
            }
            cache.etag = etag;
            cache.etag_url = Some(url);
            Freshness::Fetched {
                listed: value.len(),
            }
        }
        Err(e) if e.is_offline() => {
            return match cached {
                Some(c) => Ok((c, Freshness::Offline(e))),
                None => Err(e),
            };
        }
        Err(e) => return Err(e),
    };
    cache.format = 1;
    cache.synced_at = now();
    // A cache that cannot be written costs speed, not correctness.
    let _ = store.save_cached(&key, &cache);
    Ok((cache, freshness))
}

/// Records a comment quizz just posted or edited.
pub fn remember(store: &Store, pr: &PrRef, comment: &Comment) {
    let key = pr.origin().key_path();
    let mut cache: PrCache = store.load_cached(&key).unwrap_or_default();
    cache.merge(std::slice::from_ref(comment));
    let _ = store.save_cached(&key, &cache);
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
