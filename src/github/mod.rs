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
pub mod moved;
pub mod repo;
pub mod resolve;
pub mod results;
pub mod sync;

use std::path::Path;

use thiserror::Error;

pub use client::{Client, Fetched};
pub use comments::{Comment, QuizPick, Trust, pick_quiz};
pub use error::GithubError;
pub use repo::{PrRef, RepoRef};
pub use resolve::{PrLookupError, ResolveError, Target, resolve_target};
pub use results::{ResultRow, TakersSummary, result_rows};
pub use sync::{ChangedFiles, Freshness, PrCache, PullInfo, sync_comments};

use crate::comment::{FoundQuiz, read_quiz};
use crate::quiz::{Results, validate};
use crate::source::{LoadedQuiz, SourceError};
use crate::store::{AttemptStamp, OutboxEntry, Store, StoreError};
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
    /// `cause` names the comment (its URL) and what is wrong with it.
    #[error("cannot use the quiz comment {cause}")]
    Quiz { cause: SourceError },
    #[error("no quiz on {pr}: none of its comments holds a quiz (has the quiz bot run yet?)")]
    NoQuiz { pr: String },
    #[error(
        "no quiz in the comments of {pr} quizz could list: {}; or save the quiz comment to a file and run `quizz take --file FILE`",
        sync::cut_listing_note()
    )]
    NoQuizInCutListing { pr: String },
    #[error(
        "the quiz on {pr} ({by}) was deleted on GitHub, and no other quiz is left: has the quiz bot posted a new one yet?"
    )]
    QuizDeleted { pr: String, by: String },
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
    #[error("{cause}; and there is no cached copy of {pr}: run `quizz fetch` for it while online")]
    OfflineNoCache { pr: String, cause: GithubError },
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

    /// Syncs the PR's comments; a renamed repository's are cached under its new name.
    pub fn sync(&self, pr: &PrRef) -> Result<(PrCache, Freshness), GithubError> {
        let synced = self.block_on(sync_moved(&self.client, &self.store, pr))?;
        Ok((synced.cache, synced.freshness))
    }
}

/// A PR's comments brought up to date, under the repository's current name.
pub struct Synced {
    /// The PR as GitHub names it now (the one asked for, unless the repository moved).
    pub pr: PrRef,
    pub cache: PrCache,
    pub freshness: Freshness,
    /// `o/old is now o/new`, when the repository moved.
    pub note: Option<String>,
}

/// [`sync_comments`], aware of renamed and transferred repositories: a move recorded
/// earlier is applied before asking; a redirect seen now is learnt, recorded, and the cache
/// moved to the new name.
pub async fn sync_moved(
    client: &Client,
    store: &Store,
    asked: &PrRef,
) -> Result<Synced, GithubError> {
    let mut pr = asked.clone();
    let mut note = None;
    if let Some(new) = moved::known_move(store, &pr) {
        note = Some(moved::moved_note(&pr.repo_ref(), &new.repo_ref()));
        pr = new;
    }
    let (mut cache, freshness) = sync_comments(client, store, &pr).await?;
    match moved::learn(client, &pr.repo_ref()).await {
        moved::Learnt::Nothing => {}
        moved::Learnt::Moved(repo) => {
            let new = repo.pr(pr.number);
            moved::migrate(store, &pr, &new);
            note = Some(moved::moved_note(&asked.repo_ref(), &repo));
            cache = sync::load_cache(store, &new).unwrap_or(cache);
            pr = new;
        }
        moved::Learnt::Unknown(why) => {
            note = Some(sanitize_line(&format!(
                "GitHub redirected the requests for {} (renamed or transferred?), but its new name could not be read ({why}); the old name is kept",
                pr.repo_ref()
            )));
        }
    }
    Ok(Synced {
        pr,
        cache,
        freshness,
        note,
    })
}

/// A quiz taken from a pull request: the quiz, the comment it came from, and the
/// connection to post the results with.
pub struct PrTake {
    pub loaded: LoadedQuiz,
    pub pr: PrRef,
    /// The quiz's comment; `None` for a quiz quizz wrote here (its results stay here).
    pub quiz_comment: Option<Comment>,
    pub conn: Connection,
    /// Whether the quiz came from the cache because GitHub could not be reached.
    pub offline: bool,
    /// The PR's title and author (one conditional GET, cached with the quiz); `None` when
    /// GitHub could not say and nothing was cached.
    pub pull: Option<PullInfo>,
    /// The PR's changed files (cached with the quiz), when GitHub said or a copy is kept.
    pub changed_files: Option<Vec<String>>,
    /// Who posted results for this quiz so far (verified, current ones only).
    pub takers: TakersSummary,
}

impl PrTake {
    /// `octo/app#7 · Fix the parser · by alice` (what is known of it), safe to print.
    pub fn header_line(&self) -> String {
        header_line(&self.pr, self.pull.as_ref())
    }

    /// `3 people took this quiz · best 90%`, or `None` when nobody has posted results.
    pub fn takers_line(&self) -> Option<String> {
        self.takers.line()
    }
}

/// `octo/app#7 · Fix the parser · by alice`, safe to print.
pub fn header_line(pr: &PrRef, pull: Option<&PullInfo>) -> String {
    let mut line = pr.to_string();
    if let Some(p) = pull {
        if !p.title.trim().is_empty() {
            line.push_str(" · ");
            line.push_str(p.title.trim());
        }
        if !p.author.is_empty() {
            line.push_str(" · by ");
            line.push_str(&p.author);
        }
    }
    sanitize_line(&line)
}

/// The trust set: bots, the config file's logins, and `--trust`.
pub fn trust_from(extra: &[String]) -> (Trust, Option<String>) {
    let (mut logins, note) = config::trusted_logins();
    logins.extend(extra.iter().cloned());
    (Trust { logins }, note)
}

/// A PR resolved and its comments synced: what `take` and `results` both start from.
struct Opened {
    conn: Connection,
    pr: PrRef,
    cache: PrCache,
    freshness: Freshness,
    trust: Trust,
    notes: Vec<String>,
}

fn open_pr(opts: &PrOptions, store: Store, cwd: &Path) -> Result<Opened, PrError> {
    let mut target = resolve_target(opts.pr.as_deref(), opts.repo.as_deref(), cwd)?;
    // A branch's PR is looked up in its repository: under its new name when it moved.
    let mut moved_note = None;
    if let Target::Branch { base, .. } = &mut target
        && let Some(new) = moved::known_move(&store, &base.pr(1))
    {
        moved_note = Some(moved::moved_note(base, &new.repo_ref()));
        *base = new.repo_ref();
    }
    let conn = Connection::open(target.host(), store)?;
    let (pr, how) = conn.block_on(resolve::finish(&conn.client, target))?;
    let synced = conn
        .block_on(sync_moved(&conn.client, &conn.store, &pr))
        .map_err(|e| {
            if e.cache_may_stand_in() {
                PrError::OfflineNoCache {
                    pr: pr.to_string(),
                    cause: e,
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
    notes.extend(synced.note.or(moved_note));
    if let Freshness::Offline(e) = &synced.freshness {
        notes.push(format!(
            "offline ({e}): using the copy cached {}",
            crate::text::time_ago(synced.cache.synced_at)
        ));
    }
    Ok(Opened {
        conn,
        pr: synced.pr,
        cache: synced.cache,
        freshness: synced.freshness,
        trust,
        notes,
    })
}

/// The quiz comment to use, once deleted ones are out of the way.
enum Current {
    Found {
        comment: Comment,
        ignored: Vec<Comment>,
    },
    Untrusted(Vec<Comment>),
    None,
}

/// Checks of cached quiz comments (one GET each) made for one pick, at most.
const MAX_QUIZ_CHECKS: usize = 5;

/// The newest trusted quiz that is still on GitHub. A quiz comment the listing no longer
/// has (or that answers 404) leaves the cache, and the next newest is taken; each such
/// deletion is said in `notes`.
async fn current_quiz(
    conn: &Connection,
    pr: &PrRef,
    cache: &mut PrCache,
    freshness: &Freshness,
    trust: &Trust,
    notes: &mut Vec<String>,
) -> Result<(Current, Vec<Comment>), GithubError> {
    let offline = matches!(freshness, Freshness::Offline(_));
    let mut deleted: Vec<Comment> = match freshness {
        Freshness::Fetched { removed, .. } => {
            removed.iter().filter(|c| c.is_quiz()).cloned().collect()
        }
        _ => Vec::new(),
    };
    let mut checks = 0;
    let current = loop {
        let (comment, ignored) = match pick_quiz(&cache.comments, trust) {
            QuizPick::Found { comment, ignored } => (
                comment.clone(),
                ignored.into_iter().cloned().collect::<Vec<_>>(),
            ),
            QuizPick::Untrusted(list) => {
                break Current::Untrusted(list.into_iter().cloned().collect());
            }
            QuizPick::None => break Current::None,
        };
        // The listing just read covers it (it would have been dropped if deleted), or
        // there is no network to ask: take it.
        if offline || cache.listing_covers(&comment) || checks >= MAX_QUIZ_CHECKS {
            break Current::Found { comment, ignored };
        }
        checks += 1;
        let state = sync::check_comment(&conn.client, &conn.store, pr, cache, comment.id).await;
        match state {
            Ok(sync::CommentState::Present) => {
                let comment = cache
                    .comments
                    .iter()
                    .find(|c| c.id == comment.id)
                    .cloned()
                    .unwrap_or(comment);
                // An edit may have made it something else than a quiz: pick again.
                if comment.is_quiz() {
                    break Current::Found { comment, ignored };
                }
            }
            Ok(sync::CommentState::Deleted) => deleted.push(comment),
            // Cannot check now: the cached comment is the best there is.
            Err(e) if e.cache_may_stand_in() => break Current::Found { comment, ignored },
            Err(e) => return Err(e),
        }
    };
    for d in &deleted {
        let what = match &current {
            Current::Found { .. } => "taking the newest remaining quiz",
            _ => "no other quiz from a trusted author is left",
        };
        notes.push(format!(
            "the quiz comment by {} was deleted on GitHub: dropped from the cache; {what}",
            d.describe()
        ));
    }
    Ok((current, deleted))
}

/// A pull request resolved and its comments synced, to write a quiz for: from `take` when
/// it has no quiz quizz can take (none posted, deleted, or from an author who is not
/// trusted: `why`), or from `generate`.
pub struct OpenPr {
    pub pr: PrRef,
    pub conn: Connection,
    /// What a take says when no quiz is written (`NoQuiz`, `QuizDeleted`, `Untrusted`,
    /// `NoQuizInCutListing`).
    pub why: PrError,
    /// What happened on the way (a moved repository, a deleted quiz), safe to print.
    pub notes: Vec<String>,
    /// GitHub could not be reached: only the cached comments were read.
    pub offline: bool,
    cache: PrCache,
}

impl OpenPr {
    /// The PR as GitHub says it is now (title, body, head and base commits), cached.
    pub fn pull(&mut self) -> Result<PullInfo, GithubError> {
        let Self {
            conn, pr, cache, ..
        } = self;
        conn.block_on(sync::refresh_pull(&conn.client, &conn.store, pr, cache))?;
        cache.pull.clone().ok_or_else(|| GithubError::Protocol {
            what: format!("pull request {pr}"),
            detail: "GitHub sent no pull request".into(),
        })
    }

    /// Every changed file with its hunks, from GitHub.
    pub fn files(&self) -> Result<Vec<crate::generate::PrFile>, GithubError> {
        self.conn
            .block_on(sync::pull_files(&self.conn.client, &self.pr))
    }

    /// `octo/app#7 · Fix the parser · by alice` (what is known of it), safe to print.
    pub fn header(&self) -> String {
        header_line(&self.pr, self.cache.pull.as_ref())
    }

    /// The quiz comment posted for head commit `head` (quizz's marker names it) by a
    /// trusted author or by `me`, the newest first.
    pub fn posted_for_head(&self, head: &str, me: Option<&str>) -> Option<&Comment> {
        let (trust, _) = trust_from(&[]);
        self.cache
            .comments
            .iter()
            .filter(|c| c.is_quiz() && c.quiz_head().is_some_and(|h| h.eq_ignore_ascii_case(head)))
            .filter(|c| trust.trusts(c) || me.is_some_and(|m| m.eq_ignore_ascii_case(c.login())))
            .max_by_key(|c| c.id)
    }

    /// Who the token belongs to; in a GitHub Actions run, whose token cannot ask
    /// (`GET /user` is refused to an installation), `github-actions[bot]`.
    pub fn me(&self) -> Option<String> {
        if !self.conn.client.is_authenticated() {
            return None;
        }
        match self.conn.block_on(sync::current_user(
            &self.conn.client,
            &self.conn.store,
            &self.pr.host,
        )) {
            Ok(login) => Some(login),
            Err(e) => {
                tracing::debug!("cannot read the signed-in user: {e}");
                (std::env::var("GITHUB_ACTIONS").as_deref() == Ok("true"))
                    .then(|| "github-actions[bot]".to_string())
            }
        }
    }

    /// Posts `body` as a new comment on the PR (a quiz comment) and keeps it in the cache.
    pub fn post_comment(&mut self, body: &str) -> Result<Comment, GithubError> {
        if !self.conn.client.is_authenticated() {
            return Err(GithubError::NeedsToken {
                message: "posting a comment needs a token".into(),
            });
        }
        let chars = body.chars().count();
        if chars > comments::COMMENT_LIMIT {
            return Err(GithubError::TooBig { chars });
        }
        let payload = serde_json::to_value(CommentBody { body }).unwrap_or_default();
        let url = format!(
            "/repos/{}/{}/issues/{}/comments",
            self.pr.owner, self.pr.repo, self.pr.number
        );
        let created: Comment = self.conn.block_on(self.conn.client.post_json(
            &url,
            &payload,
            "the quiz comment",
        ))?;
        sync::remember(&self.conn.store, &self.pr, &created);
        self.cache.merge(std::slice::from_ref(&created));
        Ok(created)
    }

    /// A file's text at `sha`, from GitHub (`None` when it has none to give).
    pub fn text_at(&self, sha: &str, path: &str) -> Option<String> {
        crate::code::fetch::text_at(&self.conn, &self.pr, sha, path)
    }

    /// The take of a quiz quizz wrote for this PR: results stay on this machine (no quiz
    /// comment to post them under).
    pub fn into_take(self, quiz: crate::quiz::Quiz, notes: Vec<String>) -> PrTake {
        let takers = TakersSummary::of(&result_rows(&self.cache.comments, None));
        let mut all = self.notes;
        all.extend(notes);
        PrTake {
            loaded: LoadedQuiz {
                quiz,
                origin: self.pr.origin(),
                notes: all,
            },
            pull: self.cache.pull.clone(),
            changed_files: self.cache.changed_files.as_ref().map(|c| c.files.clone()),
            takers,
            pr: self.pr,
            quiz_comment: None,
            conn: self.conn,
            offline: self.offline,
        }
    }
}

/// The PR resolved and its comments synced, to write a quiz for whether or not one is
/// posted (`quizz generate 7`).
pub fn open_for_writing(opts: &PrOptions, store: Store, cwd: &Path) -> Result<OpenPr, PrError> {
    let opened = open_pr(opts, store, cwd)?;
    let offline = matches!(opened.freshness, Freshness::Offline(_));
    Ok(OpenPr {
        why: PrError::NoQuiz {
            pr: opened.pr.to_string(),
        },
        pr: opened.pr,
        conn: opened.conn,
        notes: opened.notes,
        offline,
        cache: opened.cache,
    })
}

/// What a pull request offers to take: a posted quiz, or none (quizz may write one).
pub enum PrQuiz {
    Posted(Box<PrTake>),
    Missing(Box<OpenPr>),
}

/// [`open_take_or_missing`], where a PR without a quiz is an error.
pub fn open_take(opts: &PrOptions, store: Store, cwd: &Path) -> Result<PrTake, PrError> {
    match open_take_or_missing(opts, store, cwd)? {
        PrQuiz::Posted(take) => Ok(*take),
        PrQuiz::Missing(missing) => Err(missing.why),
    }
}

/// Resolves the PR, syncs its comments (or takes the cached copy offline), and reads the
/// quiz from the newest trusted quiz comment still on GitHub; without one, says why and
/// keeps the connection to write one with.
pub fn open_take_or_missing(opts: &PrOptions, store: Store, cwd: &Path) -> Result<PrQuiz, PrError> {
    let mut opened = open_pr(opts, store, cwd)?;
    let mut notes = std::mem::take(&mut opened.notes);
    // The offline note goes last, after the comment it is about.
    let offline_note = match &opened.freshness {
        Freshness::Offline(_) => notes.pop(),
        _ => None,
    };
    let pr = opened.pr.clone();
    let (current, deleted) = pick_current(&mut opened, &mut notes)?;
    let (current, deleted) = trust_own(&mut opened, current, deleted, &mut notes)?;
    let missing = |why: PrError, opened: Opened, mut notes: Vec<String>| {
        let offline = offline_note.is_some();
        notes.extend(offline_note.clone());
        PrQuiz::Missing(Box::new(OpenPr {
            pr: opened.pr,
            conn: opened.conn,
            why,
            notes,
            offline,
            cache: opened.cache,
        }))
    };
    let (comment, ignored) = match current {
        Current::Found { comment, ignored } => (comment, ignored),
        Current::None => {
            let why = match deleted.first() {
                Some(d) => PrError::QuizDeleted {
                    pr: pr.to_string(),
                    by: d.describe(),
                },
                None if !opened.cache.listed_complete => {
                    PrError::NoQuizInCutListing { pr: pr.to_string() }
                }
                None => PrError::NoQuiz { pr: pr.to_string() },
            };
            return Ok(missing(why, opened, notes));
        }
        Current::Untrusted(list) => {
            let first = &list[0];
            let why = PrError::Untrusted {
                pr: pr.to_string(),
                by: first.describe(),
                login: sanitize_line(first.login()),
            };
            return Ok(missing(why, opened, notes));
        }
    };
    for c in &ignored {
        notes.push(format!(
            "ignored a newer quiz comment by {}: not a trusted author (--trust {} to take it)",
            c.describe(),
            sanitize_line(c.login())
        ));
    }
    notes.push(format!("quiz from the comment by {}", comment.describe()));
    if !opened.cache.listed_complete {
        notes.push(format!(
            "a newer quiz may exist: {}",
            sync::cut_listing_note()
        ));
    }
    let offline = offline_note.is_some();
    notes.extend(offline_note);
    let quiz = read_posted(&comment, &mut notes)?;
    if !offline {
        refresh_niceties(&mut opened, &quiz);
    }
    let takers = TakersSummary::of(&result_rows(&opened.cache.comments, Some(&comment)));
    Ok(PrQuiz::Posted(Box::new(PrTake {
        loaded: LoadedQuiz {
            quiz,
            origin: pr.origin(),
            notes,
        },
        pull: opened.cache.pull.clone(),
        changed_files: opened.cache.changed_files.as_ref().map(|c| c.files.clone()),
        takers,
        pr,
        quiz_comment: Some(comment),
        conn: opened.conn,
        offline,
    })))
}

/// The quiz of a posted quiz comment, read and validated; what reading it noted goes to
/// `notes`.
fn read_posted(comment: &Comment, notes: &mut Vec<String>) -> Result<crate::quiz::Quiz, PrError> {
    let FoundQuiz {
        quiz,
        notes: read_notes,
        ..
    } = read_quiz(comment.body()).map_err(|cause| PrError::Quiz {
        cause: SourceError::Comment {
            name: comment.html_url.clone(),
            cause,
        },
    })?;
    validate(&quiz).map_err(|cause| PrError::Quiz {
        cause: SourceError::Format {
            name: comment.html_url.clone(),
            cause,
        },
    })?;
    notes.extend(read_notes);
    Ok(quiz)
}

/// The PR's title and head, and (for a quiz that points at code) its changed files: a
/// failure to read them never stops a take.
fn refresh_niceties(opened: &mut Opened, quiz: &crate::quiz::Quiz) {
    {
        let Opened {
            conn, cache, pr, ..
        } = opened;
        // The title is a nicety: a failure to read it never stops a take.
        if let Err(e) = conn.block_on(sync::refresh_pull(&conn.client, &conn.store, pr, cache)) {
            tracing::warn!("cannot read the pull request's title: {e}");
        }
        // Coverage is a nicety too, and only for a quiz that points at code.
        let anchored = quiz.questions.iter().any(|q| q.anchor.is_some());
        if anchored
            && let Err(e) = conn.block_on(sync::refresh_changed_files(
                &conn.client,
                &conn.store,
                pr,
                cache,
            ))
        {
            tracing::warn!("cannot list the pull request's changed files: {e}");
        }
    }
}

/// You trust yourself: when the only quizzes are untrusted and one is yours (posted with
/// `quizz generate --post`), you are added to the trust set and the quiz picked again.
fn trust_own(
    opened: &mut Opened,
    current: Current,
    deleted: Vec<Comment>,
    notes: &mut Vec<String>,
) -> Result<(Current, Vec<Comment>), PrError> {
    let Current::Untrusted(list) = &current else {
        return Ok((current, deleted));
    };
    if !opened.conn.client.is_authenticated() || matches!(opened.freshness, Freshness::Offline(_)) {
        return Ok((current, deleted));
    }
    let me = match opened.conn.block_on(sync::current_user(
        &opened.conn.client,
        &opened.conn.store,
        &opened.pr.host,
    )) {
        Ok(me) => me,
        Err(e) => {
            tracing::debug!("cannot read the signed-in user: {e}");
            return Ok((current, deleted));
        }
    };
    if !list.iter().any(|c| c.login().eq_ignore_ascii_case(&me)) {
        return Ok((current, deleted));
    }
    notes.push(format!(
        "your own quiz counts as trusted (@{})",
        sanitize_line(&me)
    ));
    opened.trust.logins.push(me);
    let (again, more) = pick_current(opened, notes)?;
    Ok((again, deleted.into_iter().chain(more).collect()))
}

/// [`current_quiz`] on the opened PR's connection.
fn pick_current(
    opened: &mut Opened,
    notes: &mut Vec<String>,
) -> Result<(Current, Vec<Comment>), PrError> {
    let Opened {
        conn,
        pr,
        cache,
        freshness,
        trust,
        ..
    } = opened;
    Ok(conn.block_on(current_quiz(conn, pr, cache, freshness, trust, notes))?)
}

/// Everyone's results on a pull request (`quizz results`).
pub struct PrResults {
    pub pr: PrRef,
    /// One row per taker, best score first.
    pub rows: Vec<ResultRow>,
    /// The quiz the rows were judged against (results of another one are stale).
    pub quiz: Option<Comment>,
    /// What happened on the way (a moved repository, a deleted quiz, offline), safe to print.
    pub notes: Vec<String>,
    pub offline: bool,
}

impl PrResults {
    pub fn summary(&self) -> TakersSummary {
        TakersSummary::of(&self.rows)
    }
}

/// Resolves the PR like `take`, syncs its comments the same way (cache, `ETag`, `since=`),
/// finds the current quiz with the same trust rules, and reads every results comment.
pub fn open_results(opts: &PrOptions, store: Store, cwd: &Path) -> Result<PrResults, PrError> {
    let mut opened = open_pr(opts, store, cwd)?;
    let mut notes = std::mem::take(&mut opened.notes);
    let (current, deleted) = pick_current(&mut opened, &mut notes)?;
    let (current, _) = trust_own(&mut opened, current, deleted, &mut notes)?;
    let quiz = match current {
        Current::Found { comment, .. } => {
            notes.push(format!(
                "current quiz: the comment by {}",
                comment.describe()
            ));
            Some(comment)
        }
        Current::Untrusted(list) => {
            notes.push(format!(
                "no quiz from a trusted author (the newest is by {}; --trust {} counts it): no result is marked stale",
                list[0].describe(),
                sanitize_line(list[0].login())
            ));
            None
        }
        Current::None if !opened.cache.listed_complete => {
            notes.push(format!(
                "no quiz in the comments quizz could list ({}): no result is marked stale",
                sync::cut_listing_note()
            ));
            None
        }
        Current::None => {
            notes.push("no quiz on this pull request: no result is marked stale".into());
            None
        }
    };
    let rows = result_rows(&opened.cache.comments, quiz.as_ref());
    tracing::debug!(
        requests = opened.conn.client.requests_sent(),
        "results of {}",
        opened.pr
    );
    Ok(PrResults {
        offline: matches!(opened.freshness, Freshness::Offline(_)),
        pr: opened.pr,
        rows,
        quiz,
        notes,
    })
}

/// What happened to results that were to be posted.
#[derive(Debug)]
pub enum PostOutcome {
    Created {
        url: String,
    },
    Updated {
        url: String,
    },
    /// The taker's comment already holds these results (an earlier post that looked failed
    /// went through): nothing was written.
    AlreadyPosted {
        url: String,
    },
    /// The taker's comment holds a newer attempt (graded later, maybe on another
    /// machine): nothing was written, so the newer results stay.
    Superseded {
        url: String,
        score: u32,
    },
}

#[derive(serde::Serialize)]
struct CommentBody<'a> {
    body: &'a str,
}

/// Posts the results comment, or edits the taker's earlier one for the same quiz.
///
/// The comments are synced first (a conditional request: free when nothing changed), so a
/// comment posted meanwhile from another machine, or by an earlier post that looked failed
/// but went through, is found and edited instead of duplicated. With `stamp`, results never
/// replace those of a newer attempt.
pub fn post_results(
    conn: &Connection,
    pr: &PrRef,
    quiz_comment_id: u64,
    results: &Results,
    stamp: Option<&AttemptStamp>,
) -> Result<PostOutcome, GithubError> {
    conn.block_on(async {
        let client = &conn.client;
        if !client.is_authenticated() {
            return Err(GithubError::NeedsToken {
                message: "posting a comment needs a token".into(),
            });
        }
        let login = sync::current_user(client, &conn.store, &pr.host).await?;
        // A renamed repository: its comments are found (and posted) under the new name.
        let synced = sync_moved(client, &conn.store, pr).await?;
        if let Freshness::Offline(e) = synced.freshness {
            return Err(e);
        }
        let (cache, pr) = (synced.cache, synced.pr);
        let pr = &pr;
        let own = comments::find_own(&cache.comments, &login, quiz_comment_id).cloned();
        if let (Some(own), Some(ours)) = (&own, stamp)
            && let Some(theirs) = own.results_info().and_then(|m| m.stamp)
        {
            if theirs == *ours {
                return Ok(PostOutcome::AlreadyPosted {
                    url: own.html_url.clone(),
                });
            }
            if theirs.is_newer_than(ours) {
                let score = crate::comment::parse_results_comment(own.body())
                    .map_or(0, |p| p.results.total_score);
                return Ok(PostOutcome::Superseded {
                    url: own.html_url.clone(),
                    score,
                });
            }
        }
        let body = comments::results_body(results, &login, quiz_comment_id, stamp, own.as_ref())?;
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

/// Results to queue for `quizz post`: which attempt, and whether the taker confirmed.
pub struct Queued<'a> {
    pub results: &'a Results,
    pub stamp: Option<AttemptStamp>,
    pub confirmed: bool,
    /// Why they wait (the error, or "not confirmed: …").
    pub reason: &'a str,
}

/// Puts results in the outbox for `quizz post`.
pub fn queue_results(
    store: &Store,
    pr: &PrRef,
    quiz_comment_id: u64,
    queued: &Queued<'_>,
) -> Result<std::path::PathBuf, StoreError> {
    store.outbox_put(&mut OutboxEntry {
        format: 1,
        host: pr.host.clone(),
        owner: pr.owner.clone(),
        repo: pr.repo.clone(),
        number: pr.number,
        quiz_comment_id,
        results: queued.results.to_value(),
        queued_at: 0,
        reason: queued.reason.to_string(),
        stamp: queued.stamp.clone(),
        confirmed: Some(queued.confirmed),
    })
}

/// Why a quiz quizz wrote has no results to post.
const WRITTEN_HERE: &str = "quizz wrote this quiz on this machine: it is in no comment of the pull request to post results under";

impl PrTake {
    /// Whether this quiz was written here, not posted on the PR (its results stay here).
    pub fn written_here(&self) -> bool {
        self.quiz_comment.is_none()
    }

    pub fn post(
        &self,
        results: &Results,
        stamp: Option<&AttemptStamp>,
    ) -> Result<PostOutcome, GithubError> {
        let Some(quiz) = &self.quiz_comment else {
            return Err(GithubError::Protocol {
                what: "the results".into(),
                detail: WRITTEN_HERE.into(),
            });
        };
        post_results(&self.conn, &self.pr, quiz.id, results, stamp)
    }

    pub fn queue(&self, queued: &Queued<'_>) -> Result<std::path::PathBuf, StoreError> {
        let Some(quiz) = &self.quiz_comment else {
            return Err(StoreError::Refused {
                what: WRITTEN_HERE.into(),
            });
        };
        queue_results(&self.conn.store, &self.pr, quiz.id, queued)
    }

    /// These results were posted (or a newer attempt's are on GitHub): what waits in the
    /// outbox for this quiz from an older attempt is dropped, never sent over them.
    pub fn supersede_queued(&self, stamp: &AttemptStamp) -> Result<bool, StoreError> {
        let Some(quiz) = &self.quiz_comment else {
            return Ok(false);
        };
        self.conn
            .store
            .outbox_supersede(&self.pr.origin(), quiz.id, stamp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_line_names_the_pr_its_title_and_author() {
        let pr = RepoRef::new("github.com", "octo", "app").unwrap().pr(7);
        assert_eq!(header_line(&pr, None), "octo/app#7");
        let pull = PullInfo {
            title: "Fix the parser\u{1b}[31m".into(),
            author: "alice".into(),
            ..PullInfo::default()
        };
        assert_eq!(
            header_line(&pr, Some(&pull)),
            "octo/app#7 · Fix the parser · by alice"
        );
    }
}
