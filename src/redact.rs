//! Secrets never reach the screen, a log or a saved file: every token quizz knows is
//! masked, and URLs lose their user info (`https://user:secret@host` → `https://host`).
//!
//! quizz knows the tokens of the environment (read on first use) and every token it reads
//! elsewhere (the keyring, `gh auth token`), which [`remember`] adds. Text from outside
//! (a CLI's stderr, an API's error body, a network error naming a URL) passes through
//! [`redact`] before it is shown or logged: [`crate::text::sanitize`] calls it, and so do
//! the error printer and the log file.

use std::borrow::Cow;
use std::sync::{LazyLock, RwLock};

/// What a secret is replaced with.
pub const MASK: &str = "[hidden]";

/// The variables that hold tokens quizz reads or hands to the `claude` CLI.
pub const SECRET_VARS: [&str; 7] = [
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "GH_TOKEN",
    "GITHUB_TOKEN",
    "GH_ENTERPRISE_TOKEN",
    "GITHUB_ENTERPRISE_TOKEN",
];

/// Shorter values are not masked: they would blank ordinary words (no real token is this
/// short).
const MIN_LEN: usize = 8;

/// Variables holding URLs whose user info is a credential (a gateway's, a proxy's).
const URL_VARS: [&str; 8] = [
    "GITHUB_API_URL",
    "ANTHROPIC_BASE_URL",
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
];

static SECRETS: LazyLock<RwLock<Vec<String>>> = LazyLock::new(|| {
    let mut found = Vec::new();
    for var in SECRET_VARS {
        if let Ok(value) = std::env::var(var) {
            add(&mut found, &value);
        }
    }
    // Also where a library prints a host without its scheme (`user:secret@host:port`).
    for var in URL_VARS {
        if let Some(info) = std::env::var(var).ok().as_deref().and_then(userinfo) {
            add(&mut found, info);
        }
    }
    RwLock::new(found)
});

/// The `user:password` of a URL.
fn userinfo(url: &str) -> Option<&str> {
    let (_, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    authority.rsplit_once('@').map(|(info, _)| info)
}

fn add(list: &mut Vec<String>, secret: &str) {
    let secret = secret.trim();
    if secret.len() < MIN_LEN || list.iter().any(|s| s == secret) {
        return;
    }
    list.push(secret.to_string());
    // The longest first: a token that holds another one is masked whole.
    list.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

/// Adds a secret quizz has read (a token from the keyring or from `gh`).
pub fn remember(secret: &str) {
    if let Ok(mut list) = SECRETS.write() {
        add(&mut list, secret);
    }
}

/// `text` with every known secret masked and user info stripped from its URLs.
pub fn redact(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    if let Ok(list) = SECRETS.read() {
        for secret in list.iter() {
            if out.contains(secret.as_str()) {
                out = Cow::Owned(out.replace(secret.as_str(), MASK));
            }
        }
    }
    match strip_userinfo(&out) {
        Cow::Borrowed(_) => out,
        Cow::Owned(stripped) => Cow::Owned(stripped),
    }
}

/// Every URL in `text` without its user info: all of it for http(s), where it can only be
/// credentials; for other schemes only a `user:password` (an `ssh://git@host` stays).
pub fn strip_userinfo(text: &str) -> Cow<'_, str> {
    if !text.contains("://") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(at) = rest.find("://") {
        let (before, after) = rest.split_at(at + 3);
        out.push_str(before);
        let authority_end = after
            .find(|c: char| {
                matches!(
                    c,
                    '/' | '?' | '#' | '"' | '\'' | '<' | '>' | '`' | ')' | ']'
                ) || c.is_whitespace()
            })
            .unwrap_or(after.len());
        let authority = &after[..authority_end];
        let scheme = scheme_before(before);
        let strip = authority.rfind('@').filter(|&i| {
            scheme.eq_ignore_ascii_case("http")
                || scheme.eq_ignore_ascii_case("https")
                || authority[..i].contains(':')
        });
        match strip {
            Some(i) => {
                out.push_str(&authority[i + 1..]);
                changed = true;
            }
            None => out.push_str(authority),
        }
        rest = &after[authority_end..];
    }
    if !changed {
        return Cow::Borrowed(text);
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The scheme that ends `before` (which ends in `://`).
fn scheme_before(before: &str) -> &str {
    let head = &before[..before.len() - 3];
    // The character before the scheme may be wide (`ﵲhttp://…`): step over all of it.
    let start = head
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
        .map_or(0, |(i, c)| i + c.len_utf8());
    &head[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the mermaid property test: a wide character right before a scheme.
    #[test]
    fn a_wide_character_before_a_scheme_is_no_boundary_problem() {
        assert_eq!(strip_userinfo("ﵲhttp://u:p@h/x"), "ﵲhttp://h/x");
        assert_eq!(strip_userinfo("`ﵲ://x"), "`ﵲ://x");
    }

    #[test]
    fn user_info_leaves_every_url() {
        assert_eq!(
            strip_userinfo("cannot reach GitHub at http://user:secret@127.0.0.1:9/api: refused"),
            "cannot reach GitHub at http://127.0.0.1:9/api: refused"
        );
        assert_eq!(
            strip_userinfo("a https://tok3n@github.com/o/r.git and HTTPS://u:p@h?q=1"),
            "a https://github.com/o/r.git and HTTPS://h?q=1"
        );
        assert_eq!(strip_userinfo("(http://a:b@h)"), "(http://h)");
        // ssh's user is a name, not a secret; its password is.
        assert_eq!(
            strip_userinfo("ssh://git@github.com/o/r"),
            "ssh://git@github.com/o/r"
        );
        assert_eq!(strip_userinfo("ssh://git:pw@host/o/r"), "ssh://host/o/r");
        assert!(matches!(
            strip_userinfo("https://api.github.com/repos/o/r (me@example.com)"),
            Cow::Borrowed(_)
        ));
        assert_eq!(strip_userinfo("no url :// here"), "no url :// here");
    }

    #[test]
    fn a_urls_user_info_is_found() {
        assert_eq!(
            userinfo("http://user:secret@127.0.0.1:9/x@y"),
            Some("user:secret")
        );
        assert_eq!(userinfo("https://api.github.com/a@b"), None);
    }

    #[test]
    fn remembered_secrets_are_masked_the_longest_first() {
        remember("  kr-0123456789abcdef  ");
        remember("kr-0123456789abcdef-longer");
        remember("short");
        assert_eq!(
            redact("echo: kr-0123456789abcdef-longer and kr-0123456789abcdef"),
            "echo: [hidden] and [hidden]"
        );
        assert_eq!(redact("short words stay"), "short words stay");
        assert!(matches!(redact("nothing secret"), Cow::Borrowed(_)));
    }
}
