//! What can go wrong talking to GitHub, worded so the user knows what to do next.

use thiserror::Error;

use super::auth::TokenSource;
use crate::comment::GITHUB_COMMENT_LIMIT;

#[derive(Debug, Error)]
pub enum GithubError {
    #[error(
        "GitHub rejected the token from {token_source} (401: {message}). Fix it: {}",
        fix_token_hint(token_source)
    )]
    Unauthorized {
        token_source: TokenSource,
        message: String,
    },
    #[error("GitHub wants a token for this ({message}): {}", get_a_token())]
    NeedsToken { message: String },
    /// `reset`: when the limit resets (seconds since the Unix epoch), from GitHub's
    /// `x-ratelimit-reset` or, for a secondary limit or a 429, `Retry-After`.
    #[error("GitHub's API rate limit is used up{}{}", reset_text(*reset), if *authenticated { String::new() } else { format!("; with a token the limit is much higher: {}", get_a_token()) })]
    RateLimited {
        reset: Option<u64>,
        authenticated: bool,
    },
    #[error(
        "a proxy between quizz and GitHub asked for its own login (407) for {what}; this is not about the GitHub token: sign in to the proxy, or use another network"
    )]
    ProxyAuth { what: String },
    #[error(
        "the answer for {what} is not GitHub's: a {status} with {kind} instead of JSON (a captive portal or a proxy's sign-in page? Sign in to the network, then try again)"
    )]
    NotGithub {
        what: String,
        status: u16,
        kind: String,
    },
    #[error("GitHub refused access to {what} (403: {message})")]
    Forbidden { what: String, message: String },
    #[error(
        "GitHub found nothing (404) for {what}: check the owner, the repository and the number, or {}",
        who_can_see(token_source.as_ref())
    )]
    NotFound {
        what: String,
        /// `None`: the request went without a token.
        token_source: Option<TokenSource>,
    },
    #[error("GitHub refused the request (422): {message}")]
    Unprocessable { message: String },
    #[error("cannot reach GitHub at {base}: {detail}")]
    Network { base: String, detail: String },
    #[error("GitHub did not answer within {secs} s ({what})")]
    Timeout { what: String, secs: u64 },
    #[error("GitHub answered {status} for {what} (a server-side problem; try again later)")]
    Server { status: u16, what: String },
    #[error("GitHub answered {status} for {what}: {message}")]
    Unexpected {
        status: u16,
        what: String,
        message: String,
    },
    #[error("unexpected answer from GitHub for {what}: {detail}")]
    Protocol { what: String, detail: String },
    #[error(
        "the results comment would be {chars} characters; GitHub takes at most {GITHUB_COMMENT_LIMIT} in a comment"
    )]
    TooBig { chars: usize },
    #[error("GitHub redirected {what} ({status}) {detail}")]
    Redirect {
        what: String,
        status: u16,
        detail: String,
    },
    /// A redirect to another scheme, host or port: not followed, so the token stays home.
    #[error(
        "GitHub redirected {what} ({status}) to another host ({to}); not followed, so the token is not sent there"
    )]
    RedirectElsewhere {
        what: String,
        status: u16,
        to: String,
    },
    /// A listing's `Link: rel="next"` names another host: not followed, nothing of it used.
    #[error(
        "the answer for {what} links its next page to another host ({to}); not followed (the token is not sent there), and the pages read are not used"
    )]
    LinkElsewhere { what: String, to: String },
    #[error("invalid GitHub API address {base}: {detail}")]
    BadBase { base: String, detail: String },
}

impl GithubError {
    /// Failures where waiting or reconnecting may help: take the cached quiz, queue results.
    pub fn is_offline(&self) -> bool {
        matches!(
            self,
            Self::Network { .. } | Self::Timeout { .. } | Self::Server { .. }
        )
    }

    /// Failures after which a cached copy is the best answer there is: offline, and those
    /// that say nothing of the cached quiz (a rate limit, a 422, a proxy's login, a captive
    /// portal, an answer from or toward another host).
    pub fn cache_may_stand_in(&self) -> bool {
        self.is_offline()
            || matches!(
                self,
                Self::RateLimited { .. }
                    | Self::Unprocessable { .. }
                    | Self::ProxyAuth { .. }
                    | Self::NotGithub { .. }
                    | Self::RedirectElsewhere { .. }
                    | Self::LinkElsewhere { .. }
            )
    }
}

/// How to give quizz a token: `quizz auth login` stores it in the keyring, so it is
/// suggested only where there is one.
fn get_a_token() -> &'static str {
    if super::auth::keyring_unavailable() {
        "set GH_TOKEN (there is no keyring here for `quizz auth login`)"
    } else {
        "run `quizz auth login`, or set GH_TOKEN"
    }
}

fn fix_token_hint(source: &TokenSource) -> String {
    let no_keyring = super::auth::keyring_unavailable();
    match source {
        TokenSource::Keyring => {
            "run `quizz auth login` again with a valid token, or `quizz auth logout`".into()
        }
        TokenSource::GhCli if no_keyring => "run `gh auth login`, or set GH_TOKEN".into(),
        TokenSource::GhCli => "run `gh auth login` (or `quizz auth login`)".into(),
        TokenSource::Env(name) if no_keyring => format!("set {name} to a valid token"),
        TokenSource::Env(name) => {
            format!("set {name} to a valid token, or unset it to use `quizz auth login`")
        }
    }
}

/// Whose sight a 404 may be about: the token's, or, without one, a private repository's.
fn who_can_see(source: Option<&TokenSource>) -> String {
    match source {
        Some(source) => format!("whether the token from {source} can see it"),
        None => format!(
            "whether it is private: quizz sent no token ({})",
            get_a_token()
        ),
    }
}

fn reset_text(reset: Option<u64>) -> String {
    let Some(reset) = reset else {
        return String::new();
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let secs_of_day = reset % 86_400;
    let clock = format!(
        "{:02}:{:02}:{:02} UTC",
        secs_of_day / 3600,
        secs_of_day % 3600 / 60,
        secs_of_day % 60
    );
    let wait = reset.saturating_sub(now);
    if wait == 0 {
        return format!("; it resets at {clock}");
    }
    if wait < 120 {
        return format!("; it resets at {clock} (in {wait} s)");
    }
    let minutes = wait.div_ceil(60);
    format!("; it resets at {clock} (in about {minutes} min)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limit_message_says_when_it_resets() {
        let msg = GithubError::RateLimited {
            reset: Some(3_600 * 13 + 60 * 5 + 9),
            authenticated: true,
        }
        .to_string();
        assert!(msg.contains("resets at 13:05:09 UTC"), "{msg}");
    }

    #[test]
    fn unauthorized_names_the_source_and_the_fix() {
        let msg = GithubError::Unauthorized {
            token_source: TokenSource::Env("GH_TOKEN"),
            message: "Bad credentials".into(),
        }
        .to_string();
        assert!(msg.contains("from GH_TOKEN") && msg.contains("set GH_TOKEN to a valid token"));
    }

    /// The hint follows the token's source (an enum, not its wording).
    #[test]
    fn each_token_source_gets_its_own_fix() {
        let fix = |source| {
            GithubError::Unauthorized {
                token_source: source,
                message: "Bad credentials".into(),
            }
            .to_string()
        };
        let keyring = fix(TokenSource::Keyring);
        assert!(
            keyring.contains("from the keyring (quizz auth login)"),
            "{keyring}"
        );
        assert!(
            keyring.contains("run `quizz auth login` again with a valid token"),
            "{keyring}"
        );
        assert!(fix(TokenSource::GhCli).contains("run `gh auth login`"));
        assert!(
            fix(TokenSource::Env("GITHUB_TOKEN")).contains("set GITHUB_TOKEN to a valid token")
        );
    }

    /// A 404 without a token once said "the token from no token".
    #[test]
    fn not_found_without_a_token_says_none_was_sent() {
        let msg = GithubError::NotFound {
            what: "octo/x#7".into(),
            token_source: None,
        }
        .to_string();
        assert!(
            msg.contains("or whether it is private: quizz sent no token ("),
            "{msg}"
        );
        assert!(!msg.contains("from no token"), "{msg}");
    }
}
