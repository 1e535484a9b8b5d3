//! Hosts, repositories and pull requests as the user names them: numbers, URLs,
//! `OWNER/REPO`, `HOST/OWNER/REPO`, and git remote URLs (https, ssh://, scp-style).

use std::fmt;

/// The host quizz talks to when nothing names one: `GH_HOST`, else github.com.
pub fn default_host() -> String {
    std::env::var("GH_HOST")
        .ok()
        .map(|h| normalize_host(&h))
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "github.com".to_string())
}

/// The REST API base for a host: `GITHUB_API_URL` when set (Actions runners, tests),
/// `https://api.github.com` for github.com, `https://HOST/api/v3` for GitHub Enterprise.
pub fn api_base(host: &str) -> String {
    api_base_from(std::env::var("GITHUB_API_URL").ok(), host)
}

fn api_base_from(override_url: Option<String>, host: &str) -> String {
    if let Some(url) = override_url.filter(|u| !u.trim().is_empty()) {
        // User info is never sent (the token is) and must not reach a message or the log.
        let url = crate::redact::strip_userinfo(url.trim());
        return url.trim_end_matches('/').to_string();
    }
    if is_github_com(host) {
        "https://api.github.com".to_string()
    } else {
        format!("https://{host}/api/v3")
    }
}

pub fn is_github_com(host: &str) -> bool {
    host.eq_ignore_ascii_case("github.com")
}

/// Lowercase, no port-less `www.`, and GitHub's ssh alias mapped to github.com.
pub fn normalize_host(host: &str) -> String {
    let h = host.trim().trim_end_matches('/').to_ascii_lowercase();
    let h = h.strip_prefix("www.").unwrap_or(&h).to_string();
    match h.as_str() {
        "ssh.github.com" | "api.github.com" => "github.com".to_string(),
        _ => h,
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RepoRef {
    pub host: String,
    pub owner: String,
    pub repo: String,
}

impl RepoRef {
    /// `OWNER/REPO` or `HOST/OWNER/REPO` (the form `--repo` and `GH_REPO` take).
    pub fn parse(text: &str) -> Option<Self> {
        let t = text.trim().trim_end_matches('/');
        if let Some(url) = parse_remote_url(t) {
            return Some(url);
        }
        let parts: Vec<&str> = t.split('/').collect();
        let (host, owner, repo) = match parts.as_slice() {
            [owner, repo] => (default_host(), *owner, *repo),
            [host, owner, repo] => (normalize_host(host), *owner, *repo),
            _ => return None,
        };
        Self::new(&host, owner, repo)
    }

    pub fn new(host: &str, owner: &str, repo: &str) -> Option<Self> {
        let repo = repo.strip_suffix(".git").unwrap_or(repo);
        let ok = |s: &str| {
            !s.is_empty()
                && s != "."
                && s != ".."
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        };
        (ok(owner) && ok(repo) && !host.is_empty()).then(|| Self {
            host: normalize_host(host),
            owner: owner.to_string(),
            repo: repo.to_string(),
        })
    }

    pub fn pr(&self, number: u64) -> PrRef {
        PrRef {
            host: self.host.clone(),
            owner: self.owner.clone(),
            repo: self.repo.clone(),
            number,
        }
    }
}

impl fmt::Display for RepoRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if is_github_com(&self.host) {
            write!(f, "{}/{}", self.owner, self.repo)
        } else {
            write!(f, "{}/{}/{}", self.host, self.owner, self.repo)
        }
    }
}

/// One pull request on one host.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PrRef {
    pub host: String,
    pub owner: String,
    pub repo: String,
    pub number: u64,
}

impl PrRef {
    pub fn repo_ref(&self) -> RepoRef {
        RepoRef {
            host: self.host.clone(),
            owner: self.owner.clone(),
            repo: self.repo.clone(),
        }
    }

    pub fn origin(&self) -> crate::store::Origin {
        crate::store::Origin::PullRequest {
            host: self.host.clone(),
            owner: self.owner.clone(),
            repo: self.repo.clone(),
            number: self.number,
        }
    }

    pub fn from_origin(origin: &crate::store::Origin) -> Option<Self> {
        match origin {
            crate::store::Origin::PullRequest {
                host,
                owner,
                repo,
                number,
            } => Some(Self {
                host: host.clone(),
                owner: owner.clone(),
                repo: repo.clone(),
                number: *number,
            }),
            _ => None,
        }
    }

    /// The PR's page, for messages.
    pub fn web_url(&self) -> String {
        format!(
            "https://{}/{}/{}/pull/{}",
            self.host, self.owner, self.repo, self.number
        )
    }
}

impl fmt::Display for PrRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.repo_ref(), self.number)
    }
}

/// What the user typed to name a pull request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrSelector {
    /// `7` or `#7`: a PR of the repository found from `--repo`, `GH_REPO` or the remotes.
    Number(u64),
    /// A full reference: a PR URL, or `[HOST/]OWNER/REPO#N`.
    Full(PrRef),
}

impl PrSelector {
    pub fn parse(text: &str) -> Option<Self> {
        let t = text.trim();
        if let Ok(n) = t.trim_start_matches('#').parse::<u64>() {
            return (n > 0).then_some(Self::Number(n));
        }
        if t.contains("://") {
            return parse_pr_url(t).map(Self::Full);
        }
        let (repo, n) = t.rsplit_once('#')?;
        let n = n.parse::<u64>().ok().filter(|n| *n > 0)?;
        RepoRef::parse(repo).map(|r| Self::Full(r.pr(n)))
    }
}

/// `https://HOST/OWNER/REPO/pull/N` (anything after the number is ignored: `/files`, `#…`).
fn parse_pr_url(text: &str) -> Option<PrRef> {
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))?;
    let mut parts = rest.split(['/', '#', '?']);
    let host = parts.next()?;
    let owner = parts.next()?;
    let repo = parts.next()?;
    let kind = parts.next()?;
    if kind != "pull" && kind != "pulls" {
        return None;
    }
    let number = parts.next()?.parse::<u64>().ok().filter(|n| *n > 0)?;
    Some(RepoRef::new(host, owner, repo)?.pr(number))
}

/// A git remote URL: `https://host/o/r(.git)`, `ssh://git@host(:port)/o/r.git`,
/// `git://host/o/r`, or scp-style `git@host:o/r.git`.
pub fn parse_remote_url(url: &str) -> Option<RepoRef> {
    let url = url.trim();
    let (host, path) = if let Some((scheme, rest)) = url.split_once("://") {
        if !matches!(
            scheme,
            "https" | "http" | "ssh" | "git" | "git+ssh" | "ssh+git"
        ) {
            return None;
        }
        let (authority, path) = rest.split_once('/')?;
        let host = authority.rsplit('@').next()?;
        let host = host.split(':').next()?;
        (host, path)
    } else {
        // scp-style: [user@]host:path, where the path does not start with '/'.
        let (left, path) = url.split_once(':')?;
        if left.contains('/') || path.starts_with("//") {
            return None;
        }
        let host = left.rsplit('@').next()?;
        (host, path.trim_start_matches('/'))
    };
    let path = path.trim_end_matches('/');
    let mut segments = path.rsplitn(3, '/');
    let repo = segments.next()?;
    let owner = segments.next()?;
    RepoRef::new(host, owner, repo)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(host: &str, owner: &str, name: &str) -> RepoRef {
        RepoRef::new(host, owner, name).unwrap()
    }

    #[test]
    fn remote_urls_in_every_form() {
        let want = repo("github.com", "octo", "quizz");
        for url in [
            "https://github.com/octo/quizz.git",
            "https://github.com/octo/quizz",
            "https://user:x@github.com/octo/quizz/",
            "ssh://git@github.com/octo/quizz.git",
            "ssh://git@ssh.github.com:443/octo/quizz.git",
            "git@github.com:octo/quizz.git",
            "github.com:octo/quizz",
            "git://github.com/octo/quizz.git",
        ] {
            assert_eq!(parse_remote_url(url), Some(want.clone()), "{url}");
        }
        assert_eq!(
            parse_remote_url("git@ghe.corp.example:team/app.git"),
            Some(repo("ghe.corp.example", "team", "app"))
        );
        assert_eq!(parse_remote_url("/srv/git/quizz.git"), None);
        assert_eq!(parse_remote_url("file:///srv/git/o/quizz.git"), None);
    }

    #[test]
    fn pr_selectors() {
        assert_eq!(PrSelector::parse("7"), Some(PrSelector::Number(7)));
        assert_eq!(PrSelector::parse("#12"), Some(PrSelector::Number(12)));
        assert_eq!(PrSelector::parse("0"), None);
        assert_eq!(
            PrSelector::parse("https://github.com/octo/quizz/pull/7/files#diff"),
            Some(PrSelector::Full(repo("github.com", "octo", "quizz").pr(7)))
        );
        assert_eq!(
            PrSelector::parse("https://ghe.example.com/a/b/pull/3"),
            Some(PrSelector::Full(repo("ghe.example.com", "a", "b").pr(3)))
        );
        assert_eq!(
            PrSelector::parse("ghe.example.com/a/b#9"),
            Some(PrSelector::Full(repo("ghe.example.com", "a", "b").pr(9)))
        );
        assert_eq!(PrSelector::parse("https://github.com/o/r/issues/7"), None);
        assert_eq!(PrSelector::parse("seven"), None);
    }

    #[test]
    fn api_bases() {
        assert_eq!(api_base_from(None, "github.com"), "https://api.github.com");
        assert_eq!(
            api_base_from(None, "ghe.example.com"),
            "https://ghe.example.com/api/v3"
        );
        assert_eq!(
            api_base_from(Some("http://127.0.0.1:9/api/v3/".into()), "github.com"),
            "http://127.0.0.1:9/api/v3"
        );
        assert_eq!(
            api_base_from(Some("http://user:secret@127.0.0.1:9/".into()), "github.com"),
            "http://127.0.0.1:9"
        );
    }

    #[test]
    fn repo_names_cannot_escape_paths() {
        assert!(RepoRef::new("github.com", "..", "x").is_none());
        assert!(RepoRef::new("github.com", "a b", "x").is_none());
        assert_eq!(
            RepoRef::parse("ghe.example.com/a/b").unwrap().host,
            "ghe.example.com"
        );
    }
}
