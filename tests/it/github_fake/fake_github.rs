//! A fake GitHub REST server on 127.0.0.1 (ephemeral port) for end-to-end tests.
//!
//! It serves complete GitHub objects built from GitHub's own examples
//! (`tests/fixtures/github/*.json`), paginates with `Link` headers on its own host:port (or on
//! the public base a proxy in front of it gives), answers `If-None-Match` with 304, filters
//! pulls by `head=` and comments by `since=`, and plays the error cases on demand: a renamed
//! repository (301 for GET, 307 for other methods, to `/repositories/ID/...` as GitHub does or
//! to the new name), a redirect to another host, deleted comments.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

const GITHUB: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/github/");

/// One of GitHub's own examples from the `OpenAPI` description.
fn spec_example(name: &str) -> Value {
    let spec = template("github-subset.openapi.json");
    spec["components"]["examples"][name]["value"].clone()
}

/// A repository's id (stable, from its name), for `/repositories/ID` redirects.
fn repo_id(key: &str) -> u64 {
    key.bytes()
        .fold(17u64, |h, b| h.wrapping_mul(131).wrapping_add(u64::from(b)))
        % 100_000_000
        + 1
}

fn template(name: &str) -> Value {
    let text = std::fs::read_to_string(format!("{GITHUB}{name}"))
        .unwrap_or_else(|e| panic!("cannot read {GITHUB}{name}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// An error every request on a repository gets (the error-case tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    BadGateway,
    RateLimited,
    NotFound,
    /// 429 with `Retry-After: 90` (and no `x-ratelimit-*` headers).
    TooManyRequests,
    /// 403 "secondary rate limit" with `Retry-After: 600`.
    SecondaryRateLimit,
    /// 422 Validation Failed.
    Unprocessable,
    /// 407 from a proxy that wants its own login.
    ProxyAuth,
    /// A captive portal's sign-in page: 200, HTML.
    CaptivePortal,
}

#[derive(Debug, Clone)]
pub struct StoredComment {
    pub id: u64,
    pub issue: u64,
    pub login: String,
    pub user_type: String,
    pub body: String,
    pub created: u64,
    pub updated: u64,
}

#[derive(Debug, Clone)]
pub struct Logged {
    pub method: String,
    pub path: String,
    pub query: String,
    pub status: u16,
    pub user_agent: Vec<String>,
    pub if_none_match: bool,
    /// The request carried an `Authorization` header.
    pub authorized: bool,
    pub body: String,
}

/// Where a renamed repository's redirect points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveStyle {
    /// `/repositories/ID/...`, as GitHub does.
    ById,
    /// `/repos/NEW_OWNER/NEW_NAME/...`.
    ByName,
}

#[derive(Default)]
struct Repo {
    /// (number, head owner, head ref, open)
    pulls: Vec<(u64, String, String, bool)>,
    comments: Vec<StoredComment>,
    fault: Option<Fault>,
    /// The next POST creates the comment, then answers 502 (an unclear failure).
    post_then_502: bool,
    /// Titles and authors of pulls (GitHub's example title otherwise).
    titles: HashMap<u64, (String, String)>,
    /// Every request on the repository is redirected to this absolute URL's host.
    redirect_elsewhere: Option<String>,
    /// Comments listings' `Link` headers point at this base (another host), and always
    /// name a next page, as a proxy rewriting answers might.
    links_elsewhere: Option<String>,
    /// (issue, count): that many small filler comments listed before the stored ones, made
    /// up page by page (a PR with more comments than quizz lists, without storing them).
    fillers: Option<(u64, usize)>,
    /// Head commits of pulls (GitHub's example sha otherwise).
    heads: HashMap<u64, String>,
    /// Changed files of pulls, in order.
    files: HashMap<u64, Vec<String>>,
    /// (commit, path) → what the contents API says of it.
    contents: HashMap<(String, String), Content>,
    /// (pull, file) → the file's hunks in `/pulls/{n}/files` (a small stub otherwise).
    patches: HashMap<(u64, String), String>,
    /// Descriptions of pulls (GitHub's example body otherwise).
    bodies: HashMap<u64, String>,
    /// Base commits of pulls (GitHub's example sha otherwise).
    bases: HashMap<u64, String>,
}

/// A path in a repository at one commit, as the contents API describes it.
#[derive(Debug, Clone)]
pub enum Content {
    File(Vec<u8>),
    Symlink(String),
    Dir(Vec<String>),
}

struct State {
    /// How long every POST waits before it is handled (two clients racing to post).
    post_delay: Option<Duration>,
    public_base: String,
    tokens: HashMap<String, String>,
    repos: HashMap<String, Repo>,
    /// Renamed repositories: old `owner/name` → (new `owner/name`, how the redirect says it).
    moved: HashMap<String, (String, MoveStyle)>,
    log: Vec<Logged>,
    next_id: u64,
    clock: u64,
    comment_template: Value,
    pull_simple_template: Value,
    pull_template: Value,
    repo_template: Value,
}

pub struct FakeGithub {
    pub addr: SocketAddr,
    state: Arc<Mutex<State>>,
}

/// 2026-01-01T00:00:00Z
const EPOCH_2026: u64 = 1_767_225_600;

pub fn rfc3339(secs: u64) -> String {
    chrono::DateTime::from_timestamp(i64::try_from(secs).unwrap(), 0)
        .unwrap()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn etag_of(body: &str) -> String {
    use sha2::{Digest, Sha256};
    let hash = Sha256::digest(body.as_bytes());
    let hex: String = hash[..10].iter().map(|b| format!("{b:02x}")).collect();
    format!("W/\"{hex}\"")
}

struct Request {
    method: String,
    path: String,
    query: Vec<(String, String)>,
    raw_query: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Request {
    /// `per_page` (30 by default, at most 100) and `page` (from 1), as GitHub reads them.
    fn paging(&self) -> (usize, usize) {
        let per_page = self
            .param("per_page")
            .and_then(|v| v.parse().ok())
            .unwrap_or(30)
            .clamp(1, 100);
        let page = self
            .param("page")
            .and_then(|v| v.parse().ok())
            .unwrap_or(1)
            .max(1);
        (per_page, page)
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

fn json_response(status: u16, value: &Value) -> Response {
    Response {
        status,
        headers: vec![(
            "content-type".into(),
            "application/json; charset=utf-8".into(),
        )],
        body: value.to_string(),
    }
}

fn error(status: u16, message: &str) -> Response {
    json_response(
        status,
        &json!({ "message": message, "documentation_url": "https://docs.github.com/rest", "status": status.to_string() }),
    )
}

impl FakeGithub {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(Mutex::new(State {
            post_delay: None,
            public_base: format!("http://{addr}"),
            tokens: HashMap::new(),
            repos: HashMap::new(),
            moved: HashMap::new(),
            log: Vec::new(),
            next_id: 1000,
            clock: EPOCH_2026,
            comment_template: template("issue-comment.json"),
            pull_simple_template: template("pull-request-simple.json"),
            pull_template: template("pull-request.json"),
            repo_template: spec_example("full-repository-default-response"),
        }));
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let st = Arc::clone(&shared);
                std::thread::spawn(move || serve(stream, &st));
            }
        });
        Self { addr, state }
    }

    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Where `Link` URLs point (a proxy's address when one stands in front).
    pub fn set_public_base(&self, base: &str) {
        self.state.lock().unwrap().public_base = base.trim_end_matches('/').to_string();
    }

    pub fn add_user(&self, token: &str, login: &str) {
        self.state
            .lock()
            .unwrap()
            .tokens
            .insert(token.into(), login.into());
    }

    pub fn add_pull(&self, repo: &str, number: u64, head_owner: &str, head_ref: &str) {
        self.state
            .lock()
            .unwrap()
            .repos
            .entry(repo.into())
            .or_default()
            .pulls
            .push((number, head_owner.into(), head_ref.into(), true));
    }

    pub fn add_comment(
        &self,
        repo: &str,
        issue: u64,
        login: &str,
        user_type: &str,
        body: &str,
    ) -> u64 {
        let mut st = self.state.lock().unwrap();
        st.next_id += 1;
        st.clock += 60;
        let (id, at) = (st.next_id, st.clock);
        st.repos
            .entry(repo.into())
            .or_default()
            .comments
            .push(StoredComment {
                id,
                issue,
                login: login.into(),
                user_type: user_type.into(),
                body: body.into(),
                created: at,
                updated: at,
            });
        id
    }

    pub fn comments(&self, repo: &str, issue: u64) -> Vec<StoredComment> {
        let st = self.state.lock().unwrap();
        st.repos
            .get(repo)
            .map(|r| {
                r.comments
                    .iter()
                    .filter(|c| c.issue == issue)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn set_fault(&self, repo: &str, fault: Option<Fault>) {
        self.state
            .lock()
            .unwrap()
            .repos
            .entry(repo.into())
            .or_default()
            .fault = fault;
    }

    /// Renames (or transfers) `old` to `new`: what `old` held now lives under `new`, and
    /// requests for `old` are redirected (301 for GET, 307 for other methods).
    pub fn rename_repo(&self, old: &str, new: &str, style: MoveStyle) {
        let mut st = self.state.lock().unwrap();
        let data = st.repos.remove(old).unwrap_or_default();
        st.repos.insert(new.into(), data);
        st.moved.insert(old.into(), (new.into(), style));
    }

    /// Every request on `repo` answers 301 to the same path on another host (`base`).
    pub fn redirect_elsewhere(&self, repo: &str, base: &str) {
        self.state
            .lock()
            .unwrap()
            .repos
            .entry(repo.into())
            .or_default()
            .redirect_elsewhere = Some(base.trim_end_matches('/').to_string());
    }

    /// Changes what is known of `repo` (created empty when new).
    fn edit_repo(&self, repo: &str, change: impl FnOnce(&mut Repo)) {
        change(
            self.state
                .lock()
                .unwrap()
                .repos
                .entry(repo.into())
                .or_default(),
        );
    }

    /// Comments listings of `repo` link their next page to `base` (another host).
    pub fn link_pages_elsewhere(&self, repo: &str, base: &str) {
        let base = base.trim_end_matches('/').to_string();
        self.edit_repo(repo, |r| r.links_elsewhere = Some(base));
    }

    /// `count` filler comments on `issue` of `repo`, older than every stored comment and
    /// listed before them (made up page by page: nothing is stored).
    pub fn add_filler_comments(&self, repo: &str, issue: u64, count: usize) {
        self.edit_repo(repo, |r| r.fillers = Some((issue, count)));
    }

    /// The pull's head commit, its changed files, and those files' contents at that commit.
    pub fn set_pull_code(
        &self,
        repo: &str,
        number: u64,
        head: &str,
        files: &[&str],
        contents: Vec<(&str, Content)>,
    ) {
        let mut st = self.state.lock().unwrap();
        let r = st.repos.entry(repo.to_string()).or_default();
        r.heads.insert(number, head.to_string());
        r.files
            .insert(number, files.iter().map(ToString::to_string).collect());
        for (path, content) in contents {
            r.contents
                .insert((head.to_string(), path.to_string()), content);
        }
    }

    /// The hunks `/pulls/{n}/files` gives for one of the pull's files.
    pub fn set_pull_patch(&self, repo: &str, number: u64, file: &str, patch: &str) {
        self.edit_repo(repo, |r| {
            r.patches
                .insert((number, file.to_string()), patch.to_string());
        });
    }

    /// The pull's description.
    pub fn set_pull_body(&self, repo: &str, number: u64, body: &str) {
        self.edit_repo(repo, |r| {
            r.bodies.insert(number, body.to_string());
        });
    }

    /// The pull's base commit.
    pub fn set_pull_base(&self, repo: &str, number: u64, sha: &str) {
        self.edit_repo(repo, |r| {
            r.bases.insert(number, sha.to_string());
        });
    }

    pub fn set_pull_title(&self, repo: &str, number: u64, title: &str, author: &str) {
        self.state
            .lock()
            .unwrap()
            .repos
            .entry(repo.into())
            .or_default()
            .titles
            .insert(number, (title.into(), author.into()));
    }

    /// Deletes a comment as its author would (no request logged).
    pub fn delete_comment(&self, repo: &str, id: u64) {
        if let Some(r) = self.state.lock().unwrap().repos.get_mut(repo) {
            r.comments.retain(|c| c.id != id);
        }
    }

    /// Edits a comment's body as its author would (no request logged).
    pub fn edit_comment(&self, repo: &str, id: u64, body: &str) {
        let mut st = self.state.lock().unwrap();
        st.clock += 60;
        let clock = st.clock;
        if let Some(c) = st
            .repos
            .get_mut(repo)
            .and_then(|r| r.comments.iter_mut().find(|c| c.id == id))
        {
            c.body = body.into();
            c.updated = clock;
        }
    }

    /// Every POST waits `delay` before it is handled (nothing else waits): two clients
    /// that both decided to post are both still deciding when the first one lands.
    pub fn delay_posts(&self, delay: Duration) {
        self.state.lock().unwrap().post_delay = Some(delay);
    }

    pub fn post_then_502(&self, repo: &str) {
        self.state
            .lock()
            .unwrap()
            .repos
            .entry(repo.into())
            .or_default()
            .post_then_502 = true;
    }

    /// Every request so far whose path mentions `needle` (e.g. `/repos/o/r/`, `/user`).
    pub fn requests(&self, needle: &str) -> Vec<Logged> {
        self.state
            .lock()
            .unwrap()
            .log
            .iter()
            .filter(|l| l.path.contains(needle))
            .cloned()
            .collect()
    }

    pub fn all_requests(&self) -> Vec<Logged> {
        self.state.lock().unwrap().log.clone()
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let len: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    reader.read_exact(&mut body).ok()?;
    let (path, raw_query) = target.split_once('?').unwrap_or((&target, ""));
    let query = form_urlencoded::parse(raw_query.as_bytes())
        .into_owned()
        .collect();
    Some(Request {
        method,
        path: path.to_string(),
        query,
        raw_query: raw_query.to_string(),
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

fn serve(stream: TcpStream, state: &Mutex<State>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    while let Some(req) = read_request(&mut reader) {
        let close = req
            .header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"));
        if req.method == "POST" {
            let delay = state.lock().unwrap().post_delay;
            if let Some(delay) = delay {
                std::thread::sleep(delay);
            }
        }
        let mut resp = {
            let mut st = state.lock().unwrap();
            let resp = route(&mut st, &req);
            st.log.push(Logged {
                method: req.method.clone(),
                path: req.path.clone(),
                query: req.raw_query.clone(),
                status: resp.status,
                user_agent: req
                    .headers
                    .iter()
                    .filter(|(k, _)| k.eq_ignore_ascii_case("user-agent"))
                    .map(|(_, v)| v.clone())
                    .collect(),
                if_none_match: req.header("if-none-match").is_some(),
                authorized: req.header("authorization").is_some(),
                body: req.body.clone(),
            });
            resp
        };
        // Conditional GET.
        if req.method == "GET" && resp.status == 200 {
            let tag = etag_of(&resp.body);
            if req.header("if-none-match") == Some(tag.as_str()) {
                resp = Response {
                    status: 304,
                    headers: Vec::new(),
                    body: String::new(),
                };
                if let Some(last) = state.lock().unwrap().log.last_mut() {
                    last.status = 304;
                }
            }
            resp.headers.push(("etag".into(), tag));
        }
        let reason = match resp.status {
            200 => "OK",
            201 => "Created",
            204 => "No Content",
            301 => "Moved Permanently",
            302 => "Found",
            307 => "Temporary Redirect",
            308 => "Permanent Redirect",
            304 => "Not Modified",
            401 => "Unauthorized",
            403 => "Forbidden",
            404 => "Not Found",
            407 => "Proxy Authentication Required",
            422 => "Unprocessable Entity",
            429 => "Too Many Requests",
            502 => "Bad Gateway",
            _ => "Other",
        };
        let mut out = format!("HTTP/1.1 {} {reason}\r\n", resp.status);
        for (k, v) in &resp.headers {
            out.push_str(&format!("{k}: {v}\r\n"));
        }
        out.push_str(&format!("content-length: {}\r\n", resp.body.len()));
        if close {
            out.push_str("connection: close\r\n");
        }
        out.push_str("\r\n");
        out.push_str(&resp.body);
        if writer.write_all(out.as_bytes()).is_err() || close {
            return;
        }
    }
}

fn route(st: &mut State, req: &Request) -> Response {
    let path = req.path.strip_prefix("/api/v3").unwrap_or(&req.path);
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    let auth = req.header("authorization").map(|v| {
        v.trim_start_matches("Bearer ")
            .trim_start_matches("token ")
            .to_string()
    });
    let login = match &auth {
        Some(t) => match st.tokens.get(t) {
            Some(l) => Some(l.clone()),
            None => return error(401, "Bad credentials"),
        },
        None => None,
    };
    let needs_login = || error(401, "Requires authentication");
    match (req.method.as_str(), segs.as_slice()) {
        ("GET", ["user"]) => match login {
            Some(l) => json_response(200, &user_json(st, &l, "User", true)),
            None => needs_login(),
        },
        (_, ["repos", owner, repo, rest @ ..]) => {
            let key = format!("{owner}/{repo}");
            let prefix = if req.path.starts_with("/api/v3/") {
                "/api/v3"
            } else {
                ""
            };
            let query = if req.raw_query.is_empty() {
                String::new()
            } else {
                format!("?{}", req.raw_query)
            };
            let tail: String = rest.iter().map(|r| format!("/{r}")).collect();
            if let Some(elsewhere) = st
                .repos
                .get(&key)
                .and_then(|r| r.redirect_elsewhere.clone())
            {
                return moved_response(301, &format!("{elsewhere}{}{query}", req.path));
            }
            if let Some((new, style)) = st.moved.get(&key).cloned() {
                let status = if matches!(req.method.as_str(), "GET" | "HEAD") {
                    301
                } else {
                    307
                };
                let target = match style {
                    MoveStyle::ById => format!("/repositories/{}", repo_id(&new)),
                    MoveStyle::ByName => format!("/repos/{new}"),
                };
                let location = format!("{}{prefix}{target}{tail}{query}", st.public_base);
                return moved_response(status, &location);
            }
            if let Some(fault) = st.repos.get(&key).and_then(|r| r.fault) {
                return fault_response(fault);
            }
            if !st.repos.contains_key(&key) {
                return error(404, "Not Found");
            }
            repo_route(st, req, owner, repo, &key, rest, login.as_deref())
        }
        (_, ["repositories", id, rest @ ..]) => {
            let id: u64 = id.parse().unwrap_or(0);
            let Some(key) = st.repos.keys().find(|k| repo_id(k) == id).cloned() else {
                return error(404, "Not Found");
            };
            let (owner, repo) = key.split_once('/').unwrap();
            let (owner, repo) = (owner.to_string(), repo.to_string());
            repo_route(st, req, &owner, &repo, &key, rest, login.as_deref())
        }
        _ => error(404, "Not Found"),
    }
}

/// GitHub's answer for a moved repository: the status, a `Location`, and a JSON body.
fn moved_response(status: u16, location: &str) -> Response {
    let mut r = json_response(
        status,
        &json!({
            "message": if status == 301 { "Moved Permanently" } else { "Temporary Redirect" },
            "url": location,
            "documentation_url": "https://docs.github.com/v3/#http-redirects",
        }),
    );
    r.headers.push(("location".into(), location.into()));
    r
}

fn fault_response(fault: Fault) -> Response {
    match fault {
        Fault::BadGateway => Response {
            status: 502,
            headers: vec![("content-type".into(), "text/html".into())],
            body: "<html>502 Bad Gateway</html>".into(),
        },
        Fault::NotFound => error(404, "Not Found"),
        Fault::RateLimited => {
            let mut r = error(
                403,
                "API rate limit exceeded for user ID 1. If you reach out to GitHub Support for help, please include the request ID.",
            );
            r.headers.push(("x-ratelimit-limit".into(), "5000".into()));
            r.headers.push(("x-ratelimit-remaining".into(), "0".into()));
            r.headers.push(("x-ratelimit-used".into(), "5000".into()));
            r.headers.push((
                "x-ratelimit-reset".into(),
                (EPOCH_2026 + 3600 * 13 + 300).to_string(),
            ));
            r.headers
                .push(("x-ratelimit-resource".into(), "core".into()));
            r
        }
        Fault::TooManyRequests => {
            let mut r = error(429, "Too Many Requests");
            r.headers.push(("retry-after".into(), "90".into()));
            r
        }
        Fault::SecondaryRateLimit => {
            let mut r = error(
                403,
                "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
            );
            r.headers.push(("retry-after".into(), "600".into()));
            r
        }
        Fault::Unprocessable => error(422, "Validation Failed"),
        Fault::ProxyAuth => Response {
            status: 407,
            headers: vec![
                ("content-type".into(), "text/html".into()),
                ("proxy-authenticate".into(), "Basic realm=\"corp\"".into()),
            ],
            body: "<html>407 Proxy Authentication Required</html>".into(),
        },
        Fault::CaptivePortal => Response {
            status: 200,
            headers: vec![("content-type".into(), "text/html; charset=utf-8".into())],
            body: "<!DOCTYPE html><html><body><h1>Welcome to Airport Wi-Fi</h1><a href=\"/login\">Sign in</a></body></html>".into(),
        },
    }
}

/// A filler comment of a PR with many comments: small, and older than every stored one.
fn filler_json(owner: &str, repo: &str, issue: u64, count: usize, i: usize) -> Value {
    let id = 50_000_000 + i as u64;
    json!({
        "id": id,
        "html_url": format!("https://github.com/{owner}/{repo}/pull/{issue}#issuecomment-{id}"),
        "body": "+1",
        "user": { "login": "fan", "type": "User" },
        "created_at": rfc3339(filler_time(count, i)),
        "updated_at": rfc3339(filler_time(count, i)),
    })
}

fn filler_time(count: usize, i: usize) -> u64 {
    EPOCH_2026 - (count - i) as u64
}

fn repo_route(
    st: &mut State,
    req: &Request,
    owner: &str,
    repo: &str,
    key: &str,
    rest: &[&str],
    login: Option<&str>,
) -> Response {
    match (req.method.as_str(), rest) {
        ("GET", []) => {
            let mut v = st.repo_template.clone();
            let id = repo_id(key);
            v["id"] = json!(id);
            v["name"] = json!(repo);
            v["full_name"] = json!(key);
            v["owner"]["login"] = json!(owner);
            v["html_url"] = json!(format!("https://github.com/{key}"));
            v["url"] = json!(format!("https://api.github.com/repos/{key}"));
            // GitHub's own example lacks the `language` its schema requires (nullable).
            for part in ["source", "parent"] {
                if v[part].is_object() && v[part].get("language").is_none() {
                    v[part]["language"] = Value::Null;
                }
            }
            if v.get("language").is_none() {
                v["language"] = Value::Null;
            }
            json_response(200, &v)
        }
        ("GET", ["pulls"]) => {
            let head = req.param("head").map(str::to_string);
            let only_open = req.param("state").is_none_or(|s| s == "open");
            let pulls: Vec<(u64, String, String, bool)> = st.repos[key].pulls.clone();
            let list: Vec<Value> = pulls
                .iter()
                .filter(|p| !only_open || p.3)
                .filter(|p| {
                    head.as_deref()
                        .is_none_or(|h| h == format!("{}:{}", p.1, p.2))
                })
                .map(|p| pull_json(st, true, owner, repo, p))
                .collect();
            json_response(200, &Value::Array(list))
        }
        ("GET", ["pulls", n]) => {
            let n: u64 = n.parse().unwrap_or(0);
            match st.repos[key].pulls.iter().find(|p| p.0 == n).cloned() {
                Some(p) => {
                    let mut v = pull_json(st, false, owner, repo, &p);
                    if let Some((title, author)) = st.repos[key].titles.get(&n) {
                        v["title"] = json!(title);
                        v["user"]["login"] = json!(author);
                    }
                    json_response(200, &v)
                }
                None => error(404, "Not Found"),
            }
        }
        ("GET", ["pulls", n, "files"]) => {
            let n: u64 = n.parse().unwrap_or(0);
            let files = st.repos[key].files.get(&n).cloned().unwrap_or_default();
            let (per_page, page) = req.paging();
            let items: Vec<Value> = files
                .iter()
                .skip((page - 1) * per_page)
                .take(per_page)
                .map(|f| {
                    let mut entry = diff_entry(owner, repo, f);
                    if let Some(patch) = st.repos[key].patches.get(&(n, f.clone())) {
                        entry["patch"] = json!(patch);
                    }
                    entry
                })
                .collect();
            let mut resp = json_response(200, &Value::Array(items));
            if page * per_page < files.len() {
                resp.headers.push((
                    "link".into(),
                    format!(
                        "<{}{}?per_page={per_page}&page={}>; rel=\"next\"",
                        st.public_base,
                        req.path,
                        page + 1
                    ),
                ));
            }
            resp
        }
        ("GET", ["contents", path @ ..]) if !path.is_empty() => {
            let joined = path.join("/");
            let path = percent_decode(&joined);
            let Some(sha) = req.param("ref").map(str::to_string) else {
                return error(422, "ref is required by this fake");
            };
            match st.repos[key].contents.get(&(sha.clone(), path.clone())) {
                Some(content) => {
                    json_response(200, &content_json(owner, repo, &sha, &path, content))
                }
                None => error(404, "Not Found"),
            }
        }
        ("GET", ["issues", n, "comments"]) => {
            let n: u64 = n.parse().unwrap_or(0);
            let (per_page, page) = req.paging();
            let since = req.param("since").map(str::to_string);
            let all: Vec<StoredComment> = st.repos[key]
                .comments
                .iter()
                .filter(|c| c.issue == n)
                .filter(|c| {
                    since
                        .as_deref()
                        .is_none_or(|s| rfc3339(c.updated).as_str() >= s)
                })
                .cloned()
                .collect();
            // Fillers first (the oldest), from the first one inside `since`.
            let (fillers_from, fillers) = match st.repos[key].fillers {
                Some((issue, count)) if issue == n => {
                    let first = (0..count).collect::<Vec<_>>().partition_point(|&i| {
                        since
                            .as_deref()
                            .is_some_and(|s| rfc3339(filler_time(count, i)).as_str() < s)
                    });
                    (first, count)
                }
                _ => (0, 0),
            };
            let listed_fillers = fillers - fillers_from;
            let total = listed_fillers + all.len();
            let pages = total.div_ceil(per_page).max(1);
            let items: Vec<Value> = ((page - 1) * per_page..total.min(page * per_page))
                .map(|i| {
                    if i < listed_fillers {
                        filler_json(owner, repo, n, fillers, fillers_from + i)
                    } else {
                        comment_json(st, owner, repo, &all[i - listed_fillers])
                    }
                })
                .collect();
            let link_base = st.repos[key]
                .links_elsewhere
                .clone()
                .unwrap_or_else(|| st.public_base.clone());
            let mut resp = json_response(200, &Value::Array(items));
            let link_for = |p: usize| {
                let mut q = format!("per_page={per_page}&page={p}");
                if let Some(s) = &since {
                    q.push_str("&since=");
                    q.extend(form_urlencoded::byte_serialize(s.as_bytes()));
                }
                format!("<{link_base}{}?{q}>", req.path)
            };
            let mut links = Vec::new();
            if page < pages || st.repos[key].links_elsewhere.is_some() {
                links.push(format!("{}; rel=\"next\"", link_for(page + 1)));
                links.push(format!("{}; rel=\"last\"", link_for(pages)));
            }
            if page > 1 {
                links.push(format!("{}; rel=\"first\"", link_for(1)));
                links.push(format!("{}; rel=\"prev\"", link_for(page - 1)));
            }
            if !links.is_empty() {
                resp.headers.push(("link".into(), links.join(", ")));
            }
            resp
        }
        ("POST", ["issues", n, "comments"]) => {
            let Some(login) = login else {
                return error(401, "Requires authentication");
            };
            let n: u64 = n.parse().unwrap_or(0);
            let body = match body_field(&req.body) {
                Ok(b) => b,
                Err(r) => return r,
            };
            st.next_id += 1;
            st.clock += 60;
            let c = StoredComment {
                id: st.next_id,
                issue: n,
                login: login.to_string(),
                user_type: "User".into(),
                body,
                created: st.clock,
                updated: st.clock,
            };
            let repo_state = st.repos.get_mut(key).unwrap();
            repo_state.comments.push(c.clone());
            if std::mem::take(&mut repo_state.post_then_502) {
                return fault_response(Fault::BadGateway);
            }
            let mut resp = json_response(201, &comment_json(st, owner, repo, &c));
            resp.headers.push((
                "location".into(),
                format!(
                    "{}/repos/{owner}/{repo}/issues/comments/{}",
                    st.public_base, c.id
                ),
            ));
            resp
        }
        ("DELETE", ["issues", "comments", id]) => {
            let Some(login) = login else {
                return error(401, "Requires authentication");
            };
            let id: u64 = id.parse().unwrap_or(0);
            let Some(idx) = st.repos[key].comments.iter().position(|c| c.id == id) else {
                return error(404, "Not Found");
            };
            if st.repos[key].comments[idx].login != login {
                return error(403, "Must have admin rights to Repository.");
            }
            st.repos.get_mut(key).unwrap().comments.remove(idx);
            Response {
                status: 204,
                headers: Vec::new(),
                body: String::new(),
            }
        }
        (method @ ("GET" | "PATCH"), ["issues", "comments", id]) => {
            let id: u64 = id.parse().unwrap_or(0);
            let Some(idx) = st.repos[key].comments.iter().position(|c| c.id == id) else {
                return error(404, "Not Found");
            };
            if method == "PATCH" {
                let Some(login) = login else {
                    return error(401, "Requires authentication");
                };
                if st.repos[key].comments[idx].login != login {
                    return error(403, "Must have admin rights to Repository.");
                }
                let body = match body_field(&req.body) {
                    Ok(b) => b,
                    Err(r) => return r,
                };
                st.clock += 60;
                let clock = st.clock;
                let c = &mut st.repos.get_mut(key).unwrap().comments[idx];
                c.body = body;
                c.updated = clock;
            }
            let c = st.repos[key].comments[idx].clone();
            json_response(200, &comment_json(st, owner, repo, &c))
        }
        _ => error(404, "Not Found"),
    }
}

fn body_field(raw: &str) -> Result<String, Response> {
    let v: Value = serde_json::from_str(raw).map_err(|_| error(400, "Problems parsing JSON"))?;
    let body = v
        .get("body")
        .and_then(Value::as_str)
        .ok_or_else(|| error(422, "Invalid request.\n\n\"body\" wasn't supplied."))?;
    if body.chars().count() > 65_536 {
        return Err(json_response(
            422,
            &json!({
                "message": "Validation Failed",
                "errors": [{ "resource": "IssueComment", "code": "custom", "field": "body", "message": "body is too long (maximum is 65536 characters)" }],
                "documentation_url": "https://docs.github.com/rest/issues/comments#create-an-issue-comment",
                "status": "422"
            }),
        ));
    }
    Ok(body.to_string())
}

fn user_id(login: &str) -> u64 {
    login
        .bytes()
        .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
        % 1_000_000
        + 1
}

fn user_json(st: &State, login: &str, kind: &str, full: bool) -> Value {
    let mut u = st.comment_template["user"].clone();
    let id = user_id(login);
    u["login"] = json!(login);
    u["id"] = json!(id);
    u["node_id"] = json!(format!("U_{id}"));
    u["type"] = json!(kind);
    // As GitHub does: `[bot]` percent-encoded in API URLs, apps' pages under /apps/.
    let encoded = login.replace('[', "%5B").replace(']', "%5D");
    u["url"] = json!(format!("https://api.github.com/users/{encoded}"));
    u["html_url"] = json!(match login.strip_suffix("[bot]") {
        Some(app) => format!("https://github.com/apps/{app}"),
        None => format!("https://github.com/{login}"),
    });
    for (field, suffix) in [
        ("followers_url", "/followers"),
        ("following_url", "/following{/other_user}"),
        ("gists_url", "/gists{/gist_id}"),
        ("starred_url", "/starred{/owner}{/repo}"),
        ("subscriptions_url", "/subscriptions"),
        ("organizations_url", "/orgs"),
        ("repos_url", "/repos"),
        ("events_url", "/events{/privacy}"),
        ("received_events_url", "/received_events"),
    ] {
        u[field] = json!(format!("https://api.github.com/users/{encoded}{suffix}"));
    }
    if full {
        let extra = json!({
            "name": login, "company": null, "blog": "", "location": null, "email": null,
            "hireable": null, "bio": null, "twitter_username": null, "public_repos": 2,
            "public_gists": 1, "followers": 20, "following": 0,
            "created_at": "2008-01-14T04:33:35Z", "updated_at": "2008-01-14T04:33:35Z",
            "user_view_type": "public"
        });
        for (k, v) in extra.as_object().unwrap() {
            u[k] = v.clone();
        }
    }
    u
}

fn comment_json(st: &State, owner: &str, repo: &str, c: &StoredComment) -> Value {
    let mut v = st.comment_template.clone();
    v["id"] = json!(c.id);
    v["node_id"] = json!(format!("IC_{}", c.id));
    v["url"] = json!(format!(
        "https://api.github.com/repos/{owner}/{repo}/issues/comments/{}",
        c.id
    ));
    v["html_url"] = json!(format!(
        "https://github.com/{owner}/{repo}/pull/{}#issuecomment-{}",
        c.issue, c.id
    ));
    v["issue_url"] = json!(format!(
        "https://api.github.com/repos/{owner}/{repo}/issues/{}",
        c.issue
    ));
    v["body"] = json!(c.body);
    v["user"] = user_json(st, &c.login, &c.user_type, false);
    v["created_at"] = json!(rfc3339(c.created));
    v["updated_at"] = json!(rfc3339(c.updated));
    v["author_association"] = json!(if c.user_type == "Bot" {
        "NONE"
    } else {
        "CONTRIBUTOR"
    });
    v
}

fn pull_json(
    st: &State,
    simple: bool,
    owner: &str,
    repo: &str,
    p: &(u64, String, String, bool),
) -> Value {
    let mut v = if simple {
        st.pull_simple_template.clone()
    } else {
        st.pull_template.clone()
    };
    let n = p.0;
    v["number"] = json!(n);
    v["state"] = json!(if p.3 { "open" } else { "closed" });
    v["url"] = json!(format!(
        "https://api.github.com/repos/{owner}/{repo}/pulls/{n}"
    ));
    v["html_url"] = json!(format!("https://github.com/{owner}/{repo}/pull/{n}"));
    let r = &st.repos[&format!("{owner}/{repo}")];
    if let Some(sha) = r.heads.get(&n) {
        v["head"]["sha"] = json!(sha);
    }
    if let Some(sha) = r.bases.get(&n) {
        v["base"]["sha"] = json!(sha);
    }
    if let Some(body) = r.bodies.get(&n) {
        v["body"] = json!(body);
    }
    v["head"]["ref"] = json!(p.2);
    v["head"]["label"] = json!(format!("{}:{}", p.1, p.2));
    v["head"]["user"]["login"] = json!(p.1);
    // GitHub's own example lacks the team `type` its schema requires.
    if let Some(teams) = v["requested_teams"].as_array_mut() {
        for t in teams {
            t["type"] = json!("organization");
        }
    }
    v
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(v);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A pull request file as `/pulls/{n}/files` lists it.
fn diff_entry(owner: &str, repo: &str, file: &str) -> Value {
    let blob = format!("https://github.com/{owner}/{repo}/blob/abc/{file}");
    json!({
        "sha": "bbcd538c8e72b8c175046e27cc8f907076331401",
        "filename": file,
        "status": "modified",
        "additions": 3,
        "deletions": 1,
        "changes": 4,
        "blob_url": blob,
        "raw_url": blob.replace("/blob/", "/raw/"),
        "contents_url": format!("https://api.github.com/repos/{owner}/{repo}/contents/{file}?ref=abc"),
        "patch": "@@ -1,2 +1,4 @@"
    })
}

/// The contents API's answer for one path (a file's content is base64 in lines of 60,
/// as GitHub sends it).
fn content_json(owner: &str, repo: &str, sha: &str, path: &str, content: &Content) -> Value {
    use base64::Engine;
    let name = path.rsplit('/').next().unwrap_or(path);
    let api = format!("https://api.github.com/repos/{owner}/{repo}/contents/{path}?ref={sha}");
    let html = format!("https://github.com/{owner}/{repo}/blob/{sha}/{path}");
    let git = format!("https://api.github.com/repos/{owner}/{repo}/git/blobs/{sha}");
    let entry = |kind: &str, size: usize| {
        json!({
            "type": kind, "size": size, "name": name, "path": path,
            "sha": "3d21ec53a331a6f037a91c368710b99387d012c1",
            "url": api, "git_url": git, "html_url": html,
            "download_url": format!("https://raw.githubusercontent.com/{owner}/{repo}/{sha}/{path}"),
            "_links": {"self": api, "git": git, "html": html}
        })
    };
    match content {
        Content::File(bytes) => {
            let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
            let lines: Vec<String> = encoded
                .as_bytes()
                .chunks(60)
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect();
            let mut v = entry("file", bytes.len());
            v["encoding"] = json!("base64");
            v["content"] = json!(lines.join("\n") + "\n");
            v
        }
        Content::Symlink(target) => {
            let mut v = entry("symlink", target.len());
            v["target"] = json!(target);
            v
        }
        Content::Dir(names) => Value::Array(
            names
                .iter()
                .map(|n| {
                    let mut v = entry("file", 10);
                    v["name"] = json!(n);
                    v["path"] = json!(format!("{path}/{n}"));
                    v
                })
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::rfc3339;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(super::EPOCH_2026), "2026-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
    }
}
