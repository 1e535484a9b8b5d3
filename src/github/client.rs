//! One HTTP client per command, built inside the tokio runtime: octocrab's tower stack
//! (hyper + rustls/ring, connect/read/write timeouts) with quizz's own headers, no
//! automatic retries (a retried POST can post twice), and a deadline on every request.

use std::sync::Arc;
use std::time::Duration;

use http::header::{
    ACCEPT, ETAG, HeaderName, HeaderValue, IF_NONE_MATCH, LINK, LOCATION, USER_AGENT,
};
use http::{HeaderMap, Method, StatusCode, Uri};
use octocrab::service::middleware::auth_header::AuthHeaderLayer;
use octocrab::service::middleware::base_uri::BaseUriLayer;
use octocrab::service::middleware::extra_headers::ExtraHeadersLayer;
use octocrab::{AuthState, Octocrab, OctocrabBuilder};
use serde::de::DeserializeOwned;

use super::auth::{Token, TokenSource};
use super::error::GithubError;

/// `quizz/VERSION`, sent with every request.
pub const USER_AGENT_VALUE: &str = concat!("quizz/", env!("CARGO_PKG_VERSION"));
/// A whole request (connect, send, read the body) must finish within this, unless
/// `QUIZZ_HTTP_TIMEOUT` (seconds) says otherwise.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The per-request deadline: [`REQUEST_TIMEOUT`] or `QUIZZ_HTTP_TIMEOUT` seconds (1–600).
pub fn request_timeout() -> Duration {
    std::env::var("QUIZZ_HTTP_TIMEOUT")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|s| (1..=600).contains(s))
        .map_or(REQUEST_TIMEOUT, Duration::from_secs)
}
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// A listing stops following `next` links after this many pages (10,000 comments).
pub const MAX_PAGES: usize = 100;
/// Redirects followed for one request (a renamed or transferred repository answers 301/307).
pub const MAX_REDIRECTS: usize = 3;

/// A redirect that was followed: API paths (without the base's path), query included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub status: u16,
    pub from: String,
    pub to: String,
}

pub struct Client {
    crab: Octocrab,
    base: String,
    /// Where the token came from; `None`: requests go without one.
    token_source: Option<TokenSource>,
    timeout: Duration,
    /// Requests sent, for reports and tests.
    sent: std::sync::atomic::AtomicUsize,
    /// Redirects followed so far (a renamed repository), oldest first.
    redirects: std::sync::Mutex<Vec<Redirect>>,
}

/// A response that was read completely.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Reply {
    pub fn etag(&self) -> Option<String> {
        header(&self.headers, &ETAG)
    }

    /// The `rel="next"` target of a `Link` header.
    pub fn next_link(&self) -> Option<String> {
        next_link(&header(&self.headers, &LINK)?)
    }

    fn location(&self) -> Option<String> {
        header(&self.headers, &LOCATION)
    }
}

/// Every item of a listing, and whether all its pages were read.
#[derive(Debug)]
pub struct Listing<T> {
    pub items: Vec<T>,
    pub complete: bool,
}

/// A conditional GET: the value, or "unchanged since the `ETag` you sent".
#[derive(Debug)]
pub enum Fetched<T> {
    Fresh { value: T, etag: Option<String> },
    NotModified,
}

impl Client {
    /// Must run inside the tokio runtime that will drive the requests.
    pub fn new(base: &str, token: Option<&Token>) -> Result<Self, GithubError> {
        let bad = |detail: String| GithubError::BadBase {
            base: crate::redact::redact(base).into_owned(),
            detail,
        };
        let base_uri: Uri = base
            .parse()
            .map_err(|e: http::uri::InvalidUri| bad(e.to_string()))?;
        if base_uri.scheme().is_none() || base_uri.authority().is_none() {
            return Err(bad("expected http(s)://HOST[/PATH]".into()));
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = match hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_native_roots(Arc::clone(&provider))
        {
            Ok(b) => b,
            // No CA certificates on this machine: plain http (a local proxy, the tests)
            // still works, and https fails at connect time with a TLS error that says why.
            Err(_) => hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(
                rustls::ClientConfig::builder_with_provider(provider)
                    .with_safe_default_protocol_versions()
                    .map_err(|e| bad(format!("TLS setup: {e}")))?
                    .with_root_certificates(rustls::RootCertStore::empty())
                    .with_no_client_auth(),
            ),
        };
        let https = builder.https_or_http().enable_http1().build();
        let timeout = request_timeout();
        let timeouts = OctocrabBuilder::new()
            .set_connect_timeout(Some(CONNECT_TIMEOUT.min(timeout)))
            .set_read_timeout(Some(timeout))
            .set_write_timeout(Some(timeout));
        let connector = timeouts.set_connect_timeout_service(https);
        let hyper =
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
                .build(connector);
        let headers: Vec<(HeaderName, HeaderValue)> = vec![
            (USER_AGENT, HeaderValue::from_static(USER_AGENT_VALUE)),
            (
                ACCEPT,
                HeaderValue::from_static("application/vnd.github+json"),
            ),
            (
                HeaderName::from_static("x-github-api-version"),
                HeaderValue::from_static("2022-11-28"),
            ),
        ];
        let auth = match token {
            Some(t) => {
                let mut v = HeaderValue::from_str(&format!("Bearer {}", t.expose()))
                    .map_err(|_| bad("the token holds characters a header cannot carry".into()))?;
                v.set_sensitive(true);
                Some(v)
            }
            None => None,
        };
        let crab = OctocrabBuilder::new_empty()
            .with_service(hyper)
            .with_layer(&ExtraHeadersLayer::new(Arc::new(headers)))
            .with_layer(&BaseUriLayer::new(base_uri.clone()))
            .with_layer(&AuthHeaderLayer::new(auth, base_uri.clone(), base_uri))
            .with_auth(AuthState::None)
            .build()
            .map_err(|e| bad(e.to_string()))?;
        Ok(Self {
            crab,
            base: base.to_string(),
            token_source: token.map(|t| t.source.clone()),
            timeout,
            sent: std::sync::atomic::AtomicUsize::new(0),
            redirects: std::sync::Mutex::new(Vec::new()),
        })
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    pub fn is_authenticated(&self) -> bool {
        self.token_source.is_some()
    }

    pub fn requests_sent(&self) -> usize {
        self.sent.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Redirects followed so far (and forgets them).
    pub fn take_redirects(&self) -> Vec<Redirect> {
        self.redirects
            .lock()
            .map(|mut r| std::mem::take(&mut *r))
            .unwrap_or_default()
    }

    /// Sends one request (no retry) and reads the whole answer, within the deadline.
    ///
    /// Redirects (301, 302, 307, 308: a renamed or transferred repository) are followed up
    /// to [`MAX_REDIRECTS`] times on the API's own host only, so the token never goes
    /// anywhere else; 307 and 308 keep the method and the body, 301 and 302 are followed
    /// only by GET (GitHub answers other methods with 307).
    pub async fn send(
        &self,
        method: Method,
        url: &str,
        body: Option<&serde_json::Value>,
        etag: Option<&str>,
        what: &str,
    ) -> Result<Reply, GithubError> {
        let mut current = url.to_string();
        let mut hops = 0;
        loop {
            let reply = self
                .send_once(method.clone(), &current, body, etag, what)
                .await?;
            let status = reply.status.as_u16();
            if !matches!(status, 301 | 302 | 307 | 308) {
                return Ok(reply);
            }
            let Some(location) = reply.location() else {
                return Ok(reply);
            };
            let moved = |detail: String| GithubError::Redirect {
                what: what.to_string(),
                status,
                detail,
            };
            if hops == MAX_REDIRECTS {
                return Err(moved(format!(
                    "more than {MAX_REDIRECTS} redirects in a row; not followed further"
                )));
            }
            if matches!(status, 301 | 302) && method != Method::GET && method != Method::HEAD {
                return Err(moved(format!(
                    "to {}; a {method} is repeated only after a 307 or 308, so it was not sent again",
                    crate::text::sanitize_line(&location)
                )));
            }
            let target = match self.resolve_on_api_host(&current, &location) {
                Ok(t) => t,
                Err(OffHost::Elsewhere(to)) => {
                    return Err(GithubError::RedirectElsewhere {
                        what: what.to_string(),
                        status,
                        to,
                    });
                }
                Err(OffHost::Unreadable(detail)) => return Err(moved(detail)),
            };
            let record = Redirect {
                status,
                from: self.api_path(&current),
                to: self.api_path(&target),
            };
            tracing::info!(
                status,
                from = %record.from,
                to = %record.to,
                "following a redirect"
            );
            if let Ok(mut r) = self.redirects.lock() {
                r.push(record);
            }
            current = target;
            hops += 1;
        }
    }

    /// The absolute URL a `Location` (or a `Link`) names, when it stays on the API's host
    /// (same scheme and authority): never another host, which would see the token.
    fn resolve_on_api_host(&self, current: &str, location: &str) -> Result<String, OffHost> {
        let base: Uri = self
            .base
            .parse()
            .map_err(|e| OffHost::Unreadable(format!("{e}")))?;
        let scheme = base.scheme_str().unwrap_or("https");
        let authority = base.authority().map_or("", http::uri::Authority::as_str);
        let location = location.trim();
        if location.starts_with('/') && !location.starts_with("//") {
            return Ok(format!("{scheme}://{authority}{location}"));
        }
        // `//host/path` keeps the scheme and names a host.
        let location = if location.starts_with("//") {
            format!("{scheme}:{location}")
        } else {
            location.to_string()
        };
        let unreadable = || {
            OffHost::Unreadable(format!(
                "to an address that cannot be read: {}",
                sanitize(&location)
            ))
        };
        let target: Uri = location.parse().map_err(|_| unreadable())?;
        match (target.scheme_str(), target.authority()) {
            (Some(s), Some(a))
                if s.eq_ignore_ascii_case(scheme) && a.as_str().eq_ignore_ascii_case(authority) =>
            {
                Ok(location)
            }
            // Named by host and port only: never the user information an address may hold.
            (s, Some(a)) => Err(OffHost::Elsewhere(sanitize(&format!(
                "{}://{}{}",
                s.unwrap_or(scheme),
                a.host(),
                a.port_u16().map(|p| format!(":{p}")).unwrap_or_default()
            )))),
            (Some(_), None) => Err(unreadable()),
            (None, None) => {
                // A relative reference: resolve it against the current request's folder.
                let current_path = current.split(['?', '#']).next().unwrap_or_default();
                let path = if current_path.starts_with("http") {
                    current_path
                        .parse::<Uri>()
                        .map(|u| u.path().to_string())
                        .unwrap_or_default()
                } else {
                    current_path.to_string()
                };
                let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
                let base_path = base.path().trim_end_matches('/');
                let dir = if dir.starts_with(base_path) {
                    dir.to_string()
                } else {
                    format!("{base_path}{dir}")
                };
                Ok(format!("{scheme}://{authority}{dir}/{location}"))
            }
        }
    }

    /// `url` as a path under the API base (`/repos/o/r/...?query`), for messages and records.
    pub fn api_path(&self, url: &str) -> String {
        let path_and_query = match url.parse::<Uri>() {
            Ok(u) if u.authority().is_some() => u
                .path_and_query()
                .map_or_else(|| "/".to_string(), |p| p.as_str().to_string()),
            _ => url.to_string(),
        };
        let base_path = self
            .base
            .parse::<Uri>()
            .map(|u| u.path().trim_end_matches('/').to_string())
            .unwrap_or_default();
        match path_and_query.strip_prefix(&base_path) {
            Some(rest) if !base_path.is_empty() && rest.starts_with('/') => rest.to_string(),
            _ => path_and_query,
        }
    }

    /// One request, no redirect followed, no retry.
    async fn send_once(
        &self,
        method: Method,
        url: &str,
        body: Option<&serde_json::Value>,
        etag: Option<&str>,
        what: &str,
    ) -> Result<Reply, GithubError> {
        self.sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let uri: Uri = url
            .parse()
            .map_err(|e: http::uri::InvalidUri| GithubError::Protocol {
                what: what.to_string(),
                detail: format!("bad URL {url}: {e}"),
            })?;
        let mut builder = http::Request::builder().method(method).uri(uri);
        if let Some(tag) = etag {
            builder = builder.header(IF_NONE_MATCH, tag);
        }
        let request =
            self.crab
                .build_request(builder, body)
                .map_err(|e| GithubError::Protocol {
                    what: what.to_string(),
                    detail: e.to_string(),
                })?;
        let exchange = async {
            let response = self.crab.execute(request).await?;
            let status = response.status();
            let headers = response.headers().clone();
            let body = self.crab.body_to_string(response).await?;
            Ok::<_, octocrab::Error>(Reply {
                status,
                headers,
                body,
            })
        };
        match tokio::time::timeout(self.timeout, exchange).await {
            Err(_) => Err(GithubError::Timeout {
                what: what.to_string(),
                secs: self.timeout.as_secs(),
            }),
            Ok(Err(e)) => Err(GithubError::Network {
                base: crate::redact::redact(&self.base).into_owned(),
                detail: crate::redact::redact(&network_detail(&e)).into_owned(),
            }),
            Ok(Ok(reply)) => Ok(reply),
        }
    }

    /// A GET that may be retried once (GETs are idempotent) after a network error or 5xx.
    pub async fn get(
        &self,
        url: &str,
        etag: Option<&str>,
        what: &str,
    ) -> Result<Reply, GithubError> {
        let first = self.send(Method::GET, url, None, etag, what).await;
        let retry = match &first {
            Err(e) => e.is_offline() && !matches!(e, GithubError::Timeout { .. }),
            Ok(r) => r.status.is_server_error(),
        };
        if retry {
            tokio::time::sleep(Duration::from_millis(300)).await;
            return self.send(Method::GET, url, None, etag, what).await;
        }
        first
    }

    /// A conditional GET of one JSON value.
    pub async fn get_json<T: DeserializeOwned>(
        &self,
        url: &str,
        etag: Option<&str>,
        what: &str,
    ) -> Result<Fetched<T>, GithubError> {
        let reply = self.get(url, etag, what).await?;
        if reply.status == StatusCode::NOT_MODIFIED {
            return Ok(Fetched::NotModified);
        }
        let reply = self.check(reply, what)?;
        Ok(Fetched::Fresh {
            etag: reply.etag(),
            value: json(&reply, what)?,
        })
    }

    /// Every page of a listing, following `Link: <…>; rel="next"`. With an `ETag`, a 304 on
    /// the first page means nothing changed.
    pub async fn get_all<T: DeserializeOwned>(
        &self,
        url: &str,
        etag: Option<&str>,
        what: &str,
    ) -> Result<Fetched<Vec<T>>, GithubError> {
        Ok(match self.get_listing(url, etag, what).await? {
            Fetched::Fresh { value, etag } => Fetched::Fresh {
                value: value.items,
                etag,
            },
            Fetched::NotModified => Fetched::NotModified,
        })
    }

    /// [`Client::get_all`], saying whether every page was read (a listing stops after
    /// [`MAX_PAGES`] pages).
    pub async fn get_listing<T: DeserializeOwned>(
        &self,
        url: &str,
        etag: Option<&str>,
        what: &str,
    ) -> Result<Fetched<Listing<T>>, GithubError> {
        let reply = self.get(url, etag, what).await?;
        if reply.status == StatusCode::NOT_MODIFIED {
            return Ok(Fetched::NotModified);
        }
        let reply = self.check(reply, what)?;
        let first_etag = reply.etag();
        let mut items: Vec<T> = json(&reply, what)?;
        let mut next = self.next_page(&reply, url, what)?;
        let mut pages = 1;
        while let Some(page) = next.take() {
            if pages >= MAX_PAGES {
                next = Some(page);
                break;
            }
            let reply = self.check(self.get(&page, None, what).await?, what)?;
            items.extend(json::<Vec<T>>(&reply, what)?);
            next = self.next_page(&reply, &page, what)?;
            pages += 1;
        }
        Ok(Fetched::Fresh {
            value: Listing {
                items,
                complete: next.is_none(),
            },
            etag: first_etag,
        })
    }

    /// The next page a listing's `Link` names, on the API's own host only: a link to
    /// another host (a proxy rewriting answers) is refused like a redirect there, and the
    /// listing with it.
    fn next_page(
        &self,
        reply: &Reply,
        current: &str,
        what: &str,
    ) -> Result<Option<String>, GithubError> {
        let Some(link) = reply.next_link() else {
            return Ok(None);
        };
        match self.resolve_on_api_host(current, &link) {
            Ok(url) => Ok(Some(url)),
            Err(OffHost::Elsewhere(to)) => Err(GithubError::LinkElsewhere {
                what: what.to_string(),
                to,
            }),
            Err(OffHost::Unreadable(detail)) => Err(GithubError::Protocol {
                what: what.to_string(),
                detail: format!("a next page link {detail}"),
            }),
        }
    }

    /// POST once: never retried, whatever happens (GitHub may have created it anyway).
    pub async fn post_json<T: DeserializeOwned>(
        &self,
        url: &str,
        body: &serde_json::Value,
        what: &str,
    ) -> Result<T, GithubError> {
        let reply = self.send(Method::POST, url, Some(body), None, what).await?;
        parse(&self.check(reply, what)?.body, what)
    }

    /// PATCH once (GitHub's way to edit a comment; octocrab's `update_comment` sends POST).
    pub async fn patch_json<T: DeserializeOwned>(
        &self,
        url: &str,
        body: &serde_json::Value,
        what: &str,
    ) -> Result<T, GithubError> {
        let reply = self
            .send(Method::PATCH, url, Some(body), None, what)
            .await?;
        parse(&self.check(reply, what)?.body, what)
    }

    /// Turns a non-2xx answer into an error a user can act on.
    pub fn check(&self, reply: Reply, what: &str) -> Result<Reply, GithubError> {
        if reply.status.is_success() {
            return Ok(reply);
        }
        Err(classify(&reply, what, self.token_source.as_ref()))
    }
}

/// The error for a non-2xx reply.
pub fn classify(reply: &Reply, what: &str, token_source: Option<&TokenSource>) -> GithubError {
    let message = github_message(&reply.body).unwrap_or_else(|| {
        reply
            .status
            .canonical_reason()
            .unwrap_or("no message")
            .to_string()
    });
    let remaining = header(
        &reply.headers,
        &HeaderName::from_static("x-ratelimit-remaining"),
    );
    let reset = header(
        &reply.headers,
        &HeaderName::from_static("x-ratelimit-reset"),
    )
    .and_then(|v| v.parse::<u64>().ok());
    // A secondary limit or a 429 says how long to wait; that wins over the primary reset.
    let retry_after = header(&reply.headers, &http::header::RETRY_AFTER)
        .and_then(|v| v.trim().parse::<u64>().ok());
    let reset = retry_after
        .map(|secs| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
                + secs
        })
        .or(reset);
    let what = what.to_string();
    match reply.status.as_u16() {
        401 => match token_source {
            Some(source) => GithubError::Unauthorized {
                token_source: source.clone(),
                message,
            },
            None => GithubError::NeedsToken { message },
        },
        403 | 429
            if remaining.as_deref() == Some("0")
                || reply.headers.contains_key("retry-after")
                || reply.status == StatusCode::TOO_MANY_REQUESTS
                || message.to_ascii_lowercase().contains("rate limit") =>
        {
            GithubError::RateLimited {
                reset,
                authenticated: token_source.is_some(),
            }
        }
        403 => GithubError::Forbidden { what, message },
        407 => GithubError::ProxyAuth { what },
        404 | 410 => GithubError::NotFound {
            what,
            token_source: token_source.cloned(),
        },
        422 => GithubError::Unprocessable { message },
        s if s >= 500 => GithubError::Server { status: s, what },
        s => GithubError::Unexpected {
            status: s,
            what,
            message,
        },
    }
}

/// GitHub's `message`, with the messages of its `errors` list (422 details).
fn github_message(body: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(body).ok()?;
    let mut msg = v.get("message")?.as_str()?.to_string();
    let details: Vec<String> = v
        .get("errors")
        .and_then(|e| e.as_array())
        .map(|errs| {
            errs.iter()
                .filter_map(|e| {
                    e.get("message")
                        .and_then(|m| m.as_str())
                        .map(str::to_string)
                        .or_else(|| e.as_str().map(str::to_string))
                })
                .collect()
        })
        .unwrap_or_default();
    if !details.is_empty() {
        msg = format!("{msg}: {}", details.join("; "));
    }
    Some(crate::text::sanitize_line(&msg))
}

/// Why a `Location` or a `Link` is not followed.
#[derive(Debug, PartialEq, Eq)]
enum OffHost {
    /// Another scheme, host or port (`scheme://host:port`, safe to print).
    Elsewhere(String),
    /// Not an address (what is wrong, safe to print).
    Unreadable(String),
}

/// A successful answer's JSON. One that is not JSON at all (an HTML page) did not come
/// from GitHub's API: a captive portal or a proxy answered instead.
fn json<T: DeserializeOwned>(reply: &Reply, what: &str) -> Result<T, GithubError> {
    parse(&reply.body, what).map_err(|e| {
        let kind = header(&reply.headers, &http::header::CONTENT_TYPE);
        let json_type = kind.as_deref().is_some_and(|k| k.contains("json"));
        let json_shape = reply.body.trim_start().starts_with(['{', '[']);
        if json_type && json_shape {
            return e;
        }
        GithubError::NotGithub {
            what: what.to_string(),
            status: reply.status.as_u16(),
            kind: kind.map_or_else(
                || "no content type".to_string(),
                |k| sanitize(k.split(';').next().unwrap_or_default().trim()),
            ),
        }
    })
}

fn parse<T: DeserializeOwned>(body: &str, what: &str) -> Result<T, GithubError> {
    serde_json::from_str(body).map_err(|e| GithubError::Protocol {
        what: what.to_string(),
        detail: e.to_string(),
    })
}

fn sanitize(text: &str) -> String {
    crate::text::sanitize_line(text)
}

fn header(headers: &HeaderMap, name: &HeaderName) -> Option<String> {
    headers.get(name)?.to_str().ok().map(str::to_string)
}

/// Why a request got no answer. octocrab's transport errors print their source and return
/// it from `source()` too, so for those the chain starts at the source (its wrapper's
/// words, "Service Error", say nothing a user can act on).
fn network_detail(e: &octocrab::Error) -> String {
    let shown_in_own_text = matches!(
        e,
        octocrab::Error::Service { .. }
            | octocrab::Error::Hyper { .. }
            | octocrab::Error::Http { .. }
    );
    match std::error::Error::source(e) {
        Some(cause) if shown_in_own_text => causes(cause),
        _ => causes(e),
    }
}

/// An error and each error under it, `: `-separated.
fn causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut under = e.source();
    while let Some(cause) = under {
        text = format!("{text}: {cause}");
        under = cause.source();
    }
    text
}

/// The `rel="next"` URL of a Link header.
pub fn next_link(link: &str) -> Option<String> {
    link.split(',').find_map(|part| {
        let (url, params) = part.split_once(';')?;
        let is_next = params
            .split(';')
            .any(|p| p.trim().replace(' ', "") == "rel=\"next\"");
        is_next.then(|| {
            url.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_string()
        })
    })
}

/// Percent-encodes a query value (branch names may hold `/`, `#`, `+`, `&`).
pub fn encode_query(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_headers() {
        let link = r#"<http://127.0.0.1:5/repos/o/r/issues/1/comments?per_page=100&page=2>; rel="next", <http://127.0.0.1:5/x?page=3>; rel="last""#;
        assert_eq!(
            next_link(link).as_deref(),
            Some("http://127.0.0.1:5/repos/o/r/issues/1/comments?per_page=100&page=2")
        );
        assert_eq!(next_link(r#"<http://h/x?page=1>; rel="prev""#), None);
    }

    #[tokio::test]
    async fn redirects_stay_on_the_api_host() {
        let c = Client::new("http://127.0.0.1:9/api/v3", None).unwrap();
        let here = "/repos/o/old/issues/7/comments?per_page=100";
        assert_eq!(
            c.resolve_on_api_host(
                here,
                "/api/v3/repositories/5/issues/7/comments?per_page=100"
            ),
            Ok("http://127.0.0.1:9/api/v3/repositories/5/issues/7/comments?per_page=100".into())
        );
        assert_eq!(
            c.resolve_on_api_host(
                here,
                "http://127.0.0.1:9/api/v3/repos/o/new/issues/7/comments"
            ),
            Ok("http://127.0.0.1:9/api/v3/repos/o/new/issues/7/comments".into())
        );
        for elsewhere in [
            "http://127.0.0.2:9/api/v3/repos/o/new",
            "https://127.0.0.1:9/api/v3/repos/o/new",
            "http://127.0.0.1:10/api/v3/repos/o/new",
            "//evil.example/repos/o/new",
            "http://user:secret@127.0.0.2:9/repos/o/new",
        ] {
            let err = c.resolve_on_api_host(here, elsewhere).unwrap_err();
            assert!(
                matches!(&err, OffHost::Elsewhere(to) if !to.contains("secret"))
                    || matches!(&err, OffHost::Unreadable(d) if d.contains("cannot be read")),
                "{elsewhere}: {err:?}"
            );
        }
        assert_eq!(
            c.api_path("http://127.0.0.1:9/api/v3/repositories/5/issues?x=1"),
            "/repositories/5/issues?x=1"
        );
        assert_eq!(
            c.resolve_on_api_host(here, "http://user:secret@127.0.0.2:9/x"),
            Err(OffHost::Elsewhere("http://127.0.0.2:9".into()))
        );
        assert_eq!(c.api_path("/repos/o/r"), "/repos/o/r");
    }

    #[test]
    fn query_values_are_encoded() {
        assert_eq!(encode_query("octo:feat/a+b#1"), "octo%3Afeat%2Fa%2Bb%231");
    }

    fn reply(status: u16, headers: &[(&'static str, &str)], body: &str) -> Reply {
        let mut map = HeaderMap::new();
        for (k, v) in headers {
            map.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        Reply {
            status: StatusCode::from_u16(status).unwrap(),
            headers: map,
            body: body.to_string(),
        }
    }

    const GH_TOKEN: TokenSource = TokenSource::Env("GH_TOKEN");

    #[test]
    fn errors_are_classified() {
        let limited = reply(
            403,
            &[
                ("x-ratelimit-remaining", "0"),
                ("x-ratelimit-reset", "1700000000"),
            ],
            r#"{"message":"API rate limit exceeded"}"#,
        );
        assert!(matches!(
            classify(&limited, "x", Some(&GH_TOKEN)),
            GithubError::RateLimited {
                reset: Some(1_700_000_000),
                ..
            }
        ));
        let denied = reply(
            403,
            &[],
            r#"{"message":"Resource not accessible by integration"}"#,
        );
        assert!(matches!(
            classify(&denied, "x", Some(&GH_TOKEN)),
            GithubError::Forbidden { .. }
        ));
        let invalid = reply(
            422,
            &[],
            r#"{"message":"Validation Failed","errors":[{"resource":"IssueComment","code":"custom","field":"body","message":"body is too long (maximum is 65536 characters)"}]}"#,
        );
        let msg = classify(&invalid, "x", Some(&GH_TOKEN)).to_string();
        assert!(msg.contains("Validation Failed: body is too long"), "{msg}");
        assert!(matches!(
            classify(&reply(401, &[], "{}"), "x", Some(&GH_TOKEN)),
            GithubError::Unauthorized { .. }
        ));
        assert!(classify(&reply(502, &[], ""), "x", Some(&GH_TOKEN)).is_offline());
        // A proxy's 407 is not the token's fault; the cache may stand in for it.
        let proxy = classify(&reply(407, &[], "<html></html>"), "x", Some(&GH_TOKEN));
        assert!(matches!(proxy, GithubError::ProxyAuth { .. }) && proxy.cache_may_stand_in());
        // Retry-After (a 429, a secondary limit) says when the limit resets.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let GithubError::RateLimited {
            reset: Some(reset), ..
        } = classify(
            &reply(429, &[("retry-after", "90")], "{}"),
            "x",
            Some(&GH_TOKEN),
        )
        else {
            panic!("a 429 is a rate limit");
        };
        assert!((now + 90..now + 100).contains(&reset), "{reset} vs {now}");
    }

    #[test]
    fn a_page_that_is_not_json_names_the_portal_not_the_parser() {
        let portal = reply(
            200,
            &[("content-type", "text/html; charset=utf-8")],
            "<html>Sign in</html>",
        );
        let err = json::<Vec<u64>>(&portal, "the comments").unwrap_err();
        assert!(
            err.to_string()
                .contains("is not GitHub's: a 200 with text/html instead of JSON"),
            "{err}"
        );
        let broken = reply(200, &[("content-type", "application/json")], "[1,");
        assert!(matches!(
            json::<Vec<u64>>(&broken, "x"),
            Err(GithubError::Protocol { .. })
        ));
    }
}
