//! GitHub: find the pull request (like `gh pr view`), fetch its quiz comment from a trusted
//! author, and post the graded results back as one comment per taker per quiz.
//!
//! Every command builds one tokio runtime and one [`Client`] inside it. Token lookup (and so
//! the keyring) happens before, off the runtime. Nothing is retried blindly: GETs once on a
//! network error or 5xx, POST and PATCH never; posting looks for the taker's own comment
//! first and edits it, so a retry after an unclear failure cannot duplicate it.

pub mod auth;
pub mod client;
pub mod comments;
pub mod config;
mod error;
pub mod git;
pub mod repo;
pub mod resolve;
pub mod sync;

use std::path::Path;

use thiserror::Error;

pub use client::{Client, Fetched};
pub use comments::{Comment, QuizPick, Trust, pick_quiz};
pub use error::GithubError;
pub use repo::{PrRef, RepoRef};
pub use resolve::{PrLookupError, ResolveError, Target, resolve_target};
pub use sync::{Freshness, PrCache, sync_comments};

use crate::comment::{FoundQuiz, read_quiz};
use crate::quiz::{Results, validate};
use crate::source::{LoadedQuiz, SourceError};
use crate::store::{OutboxEntry, Store, StoreError};
use crate::text::sanitize_line;

/// Anything that can stop a PR take; the CLI maps `Resolve` and `Quiz` to exit status 2.
#[derive(Debug, Error)]
pub enum PrError {
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    #[error(transparent)]
    Github(#[from] GithubError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the quiz comment {url} cannot be used: {source}")]
    Quiz { url: String, source: SourceError },
    #[error("no quiz on {pr}: none of its comments holds a quiz (has the quiz bot run yet?)")]
    NoQuiz { pr: String },
    #[error(
        "the quiz on {pr} was posted by {by}, who is not a trusted quiz bot; if you trust them, run again with --trust {login}"
    )]
    Untrusted {
        pr: String,
        by: String,
        login: String,
    },
    #[error("cannot start the network runtime: {0}")]
    Runtime(std::io::Error),
    #[error("{source}; and there is no cached copy of {pr}: run `quizz fetch` for it while online")]
    OfflineNoCache { pr: String, source: GithubError },
}

impl PrError {
    /// The arguments or the quiz cannot be used as they are (exit status 2).
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            Self::Resolve(_) | Self::Quiz { .. } | Self::Untrusted { .. }
        )
    }
}

impl From<PrLookupError> for PrError {
    fn from(e: PrLookupError) -> Self {
        match e {
            PrLookupError::Resolve(r) => Self::Resolve(r),
            PrLookupError::Github(g) => Self::Github(g),
        }
    }
}

/// What the user said about the pull request (the take/fetch/post flags).
#[derive(Debug, Clone, Default)]
pub struct PrOptions {
    /// A number, a URL or `OWNER/REPO#N`; `None`: the current branch's PR.
    pub pr: Option<String>,
    /// `--repo [HOST/]OWNER/REPO`.
    pub repo: Option<String>,
    /// `--trust LOGIN`, added to the config's trusted logins.
    pub trust: Vec<String>,
}

/// A runtime, a client for one host, and the store: what every GitHub command needs.
pub struct Connection {
    rt: tokio::runtime::Runtime,
    pub client: Client,
    pub store: Store,
    pub host: String,
    /// Where the token came from, or why none was found (never the token).
    pub auth_notes: Vec<String>,
}

impl Connection {
    /// Finds the token (off the runtime), then builds the client inside a new runtime.
    pub fn open(host: &str, store: Store) -> Result<Self, PrError> {
        let lookup = auth::find_token(host);
        Self::with_token(host, store, lookup.token.as_ref(), lookup.notes)
    }

    /// A connection with this token (or none).
    pub fn with_token(
        host: &str,
        store: Store,
        token: Option<&auth::Token>,
        auth_notes: Vec<String>,
    ) -> Result<Self, PrError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(PrError::Runtime)?;
        let base = repo::api_base(host);
        let client = rt.block_on(async { Client::new(&base, token) })?;
        Ok(Self {
            rt,
            client,
            store,
            host: host.to_string(),
            auth_notes,
        })
    }

    pub fn block_on<F: std::future::Future>(&self, f: F) -> F::Output {
        self.rt.block_on(f)
    }

    pub fn sync(&self, pr: &PrRef) -> Result<(PrCache, Freshness), GithubError> {
        self.block_on(sync_comments(&self.client, &self.store, pr))
    }
}

/// A quiz taken from a pull request: the quiz, the comment it came from, and the
/// connection to post the results with.
pub struct PrTake {
    pub loaded: LoadedQuiz,
    pub pr: PrRef,
    pub quiz_comment: Comment,
    pub conn: Connection,
    /// Whether the quiz came from the cache because GitHub could not be reached.
    pub offline: bool,
}

/// The trust set: bots, the config file's logins, and `--trust`.
pub fn trust_from(extra: &[String]) -> (Trust, Option<String>) {
    let (mut logins, note) = config::trusted_logins();
    logins.extend(extra.iter().cloned());
    (Trust { logins }, note)
}

/// Resolves the PR, syncs its comments (or takes the cached copy offline), and reads the
/// quiz from the newest trusted quiz comment.
pub fn open_take(opts: &PrOptions, store: Store, cwd: &Path) -> Result<PrTake, PrError> {
    let target = resolve_target(opts.pr.as_deref(), opts.repo.as_deref(), cwd)?;
    let conn = Connection::open(target.host(), store)?;
    let (pr, how) = conn.block_on(resolve::finish(&conn.client, target))?;
    let (cache, freshness) = conn.sync(&pr).map_err(|e| {
        if e.is_offline() {
            PrError::OfflineNoCache {
                pr: pr.to_string(),
                source: e,
            }
        } else {
            PrError::Github(e)
        }
    })?;
    let (trust, config_note) = trust_from(&opts.trust);
    let mut notes: Vec<String> = config_note.into_iter().collect();
    if how != "as given" {
        notes.push(format!("pull request {pr}: {how}"));
    }
    let (comment, ignored) = match pick_quiz(&cache.comments, &trust) {
        QuizPick::Found { comment, ignored } => (comment.clone(), ignored),
        QuizPick::None => return Err(PrError::NoQuiz { pr: pr.to_string() }),
        QuizPick::Untrusted(list) => {
            let first = list[0];
            return Err(PrError::Untrusted {
                pr: pr.to_string(),
                by: first.describe(),
                login: sanitize_line(first.login()),
            });
        }
    };
    for c in ignored {
        notes.push(format!(
            "ignored a newer quiz comment by {}: not a trusted author (--trust {} to take it)",
            c.describe(),
            sanitize_line(c.login())
        ));
    }
    notes.push(format!("quiz from the comment by {}", comment.describe()));
    let offline = if let Freshness::Offline(e) = &freshness {
        notes.push(format!(
            "offline ({e}): using the copy cached {}",
            crate::text::time_ago(cache.synced_at)
        ));
        true
    } else {
        false
    };
    let FoundQuiz {
        quiz,
        notes: read_notes,
        ..
    } = read_quiz(comment.body()).map_err(|source| PrError::Quiz {
        url: comment.html_url.clone(),
        source: SourceError::Comment {
            name: comment.html_url.clone(),
            source,
        },
    })?;
    validate(&quiz).map_err(|source| PrError::Quiz {
        url: comment.html_url.clone(),
        source: SourceError::Format {
            name: comment.html_url.clone(),
            source,
        },
    })?;
    notes.extend(read_notes);
    Ok(PrTake {
        loaded: LoadedQuiz {
            quiz,
            origin: pr.origin(),
            notes,
        },
        pr,
        quiz_comment: comment,
        conn,
        offline,
    })
}

/// What happened to results that were to be posted.
#[derive(Debug)]
pub enum PostOutcome {
    Created { url: String },
    Updated { url: String },
}

#[derive(serde::Serialize)]
struct CommentBody<'a> {
    body: &'a str,
}

/// Posts the results comment, or edits the taker's earlier one for the same quiz.
///
/// `fresh`: the cached comments were synced moments ago in this process (a take); when
/// false (`quizz post`), they are synced first so an earlier post that looked failed but
/// went through is found and edited instead of duplicated.
pub fn post_results(
    conn: &Connection,
    pr: &PrRef,
    quiz_comment_id: u64,
    results: &Results,
    fresh: bool,
) -> Result<PostOutcome, GithubError> {
    conn.block_on(async {
        let client = &conn.client;
        if !client.is_authenticated() {
            return Err(GithubError::NeedsToken {
                message: "posting a comment needs a token".into(),
            });
        }
        let login = sync::current_user(client, &conn.store, &pr.host).await?;
        let cache = if fresh {
            conn.store
                .load_cached::<PrCache>(&pr.origin().key_path())
                .unwrap_or_default()
        } else {
            let (cache, freshness) = sync_comments(client, &conn.store, pr).await?;
            if let Freshness::Offline(e) = freshness {
                return Err(e);
            }
            cache
        };
        let own = comments::find_own(&cache.comments, &login, quiz_comment_id).cloned();
        let body = comments::results_body(results, &login, quiz_comment_id, own.as_ref())?;
        let payload = serde_json::to_value(CommentBody { body: &body }).unwrap_or_default();
        if let Some(own) = &own {
            let url = format!("/repos/{}/{}/issues/comments/{}", pr.owner, pr.repo, own.id);
            match client
                .patch_json::<Comment>(&url, &payload, "the results comment")
                .await
            {
                Ok(updated) => {
                    sync::remember(&conn.store, pr, &updated);
                    return Ok(PostOutcome::Updated {
                        url: updated.html_url,
                    });
                }
                // Deleted since: post a new one.
                Err(GithubError::NotFound { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        let url = format!(
            "/repos/{}/{}/issues/{}/comments",
            pr.owner, pr.repo, pr.number
        );
        let created: Comment = client
            .post_json(&url, &payload, "the results comment")
            .await?;
        sync::remember(&conn.store, pr, &created);
        Ok(PostOutcome::Created {
            url: created.html_url,
        })
    })
}

/// Puts results in the outbox for `quizz post`.
pub fn queue_results(
    store: &Store,
    pr: &PrRef,
    quiz_comment_id: u64,
    results: &Results,
    reason: &str,
) -> Result<std::path::PathBuf, StoreError> {
    store.outbox_put(&mut OutboxEntry {
        format: 1,
        host: pr.host.clone(),
        owner: pr.owner.clone(),
        repo: pr.repo.clone(),
        number: pr.number,
        quiz_comment_id,
        results: results.to_value(),
        queued_at: 0,
        reason: reason.to_string(),
    })
}

impl PrTake {
    pub fn post(&self, results: &Results) -> Result<PostOutcome, GithubError> {
        post_results(
            &self.conn,
            &self.pr,
            self.quiz_comment.id,
            results,
            !self.offline,
        )
    }

    pub fn queue(&self, results: &Results, reason: &str) -> Result<std::path::PathBuf, StoreError> {
        queue_results(
            &self.conn.store,
            &self.pr,
            self.quiz_comment.id,
            results,
            reason,
        )
    }
}
