//! What can go wrong talking to GitHub, worded so the user knows what to do next.

use thiserror::Error;

use super::comments::COMMENT_LIMIT;

#[derive(Debug, Error)]
pub enum GithubError {
    #[error(
        "GitHub rejected the token from {token_source} (401: {message}). Fix it: {}",
        fix_token_hint(token_source)
    )]
    Unauthorized {
        token_source: String,
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
        "GitHub found nothing (404) for {what}: check the owner, the repository and the number, or whether the token from {token_source} can see it"
    )]
    NotFound { what: String, token_source: String },
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
        "the results comment would be {chars} characters; GitHub takes at most {COMMENT_LIMIT} in a comment"
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

fn fix_token_hint(source: &str) -> String {
    let no_keyring = super::auth::keyring_unavailable();
    if source.starts_with("the keyring") {
        "run `quizz auth login` again with a valid token, or `quizz auth logout`".into()
    } else if source.starts_with("`gh") {
        if no_keyring {
            "run `gh auth login`, or set GH_TOKEN".into()
        } else {
            "run `gh auth login` (or `quizz auth login`)".into()
        }
    } else if source == "no token" {
        get_a_token().into()
    } else if no_keyring {
        format!("set {source} to a valid token")
    } else {
        format!("set {source} to a valid token, or unset it to use `quizz auth login`")
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
            token_source: "GH_TOKEN".into(),
            message: "Bad credentials".into(),
        }
        .to_string();
        assert!(msg.contains("from GH_TOKEN") && msg.contains("set GH_TOKEN to a valid token"));
    }
}
