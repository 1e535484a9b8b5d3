//! Where the token comes from, in the GitHub CLI's order: the environment, quizz's own
//! keyring entry, then `gh auth token --hostname HOST`. The token itself is never printed
//! or logged: only the name of its source is.

use std::fmt;
use std::process::{Command, Stdio};
use std::time::Duration;

use thiserror::Error;

use super::repo::is_github_com;

/// How long a keyring call may take (a desktop unlock prompt can block).
pub const KEYRING_TIMEOUT: Duration = Duration::from_secs(20);
/// How long `gh auth token` may take.
const GH_TIMEOUT: Duration = Duration::from_secs(10);

/// A token and where it came from. `Debug` and `Display` never show the token.
#[derive(Clone)]
pub struct Token {
    secret: String,
    pub source: TokenSource,
}

impl Token {
    pub fn new(secret: String, source: TokenSource) -> Self {
        // Never shown (the keyring's, gh's, the environment's): whatever quizz prints or
        // logs from now on masks it.
        crate::redact::remember(&secret);
        Self { secret, source }
    }

    /// The token, only for the Authorization header.
    pub(crate) fn expose(&self) -> &str {
        &self.secret
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Token(from {})", self.source)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenSource {
    /// An environment variable, by name.
    Env(&'static str),
    /// quizz's own entry in the OS keyring.
    Keyring,
    /// The GitHub CLI (`gh auth token`).
    GhCli,
}

impl fmt::Display for TokenSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Env(name) => f.write_str(name),
            Self::Keyring => f.write_str("the keyring (quizz auth login)"),
            Self::GhCli => f.write_str("`gh auth token`"),
        }
    }
}

/// The environment variables that hold a token for `host`, in order.
pub fn env_names(host: &str) -> &'static [&'static str] {
    if is_github_com(host) {
        &["GH_TOKEN", "GITHUB_TOKEN"]
    } else {
        &["GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"]
    }
}

pub fn token_from_env(host: &str) -> Option<Token> {
    env_names(host).iter().find_map(|name| {
        let value = std::env::var(name).ok()?;
        let value = value.trim();
        (!value.is_empty()).then(|| Token::new(value.to_string(), TokenSource::Env(name)))
    })
}

#[derive(Debug, Error)]
pub enum KeyringError {
    #[error(
        "no keyring is available here ({0}); set GH_TOKEN instead, or start a Secret Service (a desktop session)"
    )]
    Unavailable(String),
    #[error("the keyring did not answer within {} s (is it waiting for an unlock prompt?)", KEYRING_TIMEOUT.as_secs())]
    Timeout,
    #[error("the keyring failed: {0}")]
    Failed(String),
}

/// The keyring service name of quizz's entry for a host.
pub fn keyring_service(host: &str) -> String {
    format!("quizz:{host}")
}
const KEYRING_USER: &str = "token";

fn entry(host: &str) -> Result<keyring::Entry, KeyringError> {
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() && cfg!(target_os = "linux") {
        return Err(KeyringError::Unavailable(
            "no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set".into(),
        ));
    }
    keyring::Entry::new(&keyring_service(host), KEYRING_USER).map_err(|e| match e {
        keyring::Error::NoDefaultStore => KeyringError::Unavailable(
            keyring::Entry::store_status()
                .as_ref()
                .err()
                .map_or_else(|| "no default store".to_string(), ToString::to_string),
        ),
        other => KeyringError::Unavailable(other.to_string()),
    })
}

fn map_err(e: keyring::Error) -> KeyringError {
    match e {
        keyring::Error::NoStorageAccess(inner) => {
            KeyringError::Unavailable(format!("cannot open it: {inner}"))
        }
        other => KeyringError::Failed(other.to_string()),
    }
}

/// Runs a blocking keyring call on a plain thread, giving up after [`KEYRING_TIMEOUT`].
/// (Works inside and outside the async runtime: the caller's thread only waits.)
fn off_thread<T: Send + 'static>(
    job: impl FnOnce() -> Result<T, KeyringError> + Send + 'static,
) -> Result<T, KeyringError> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("quizz-keyring".into())
        .spawn(move || {
            let _ = tx.send(job());
        })
        .map_err(|e| KeyringError::Failed(e.to_string()))?;
    rx.recv_timeout(KEYRING_TIMEOUT)
        .map_err(|_| KeyringError::Timeout)?
}

/// Set when this process found no keyring: hints then never suggest `quizz auth login`,
/// which stores the token there.
static KEYRING_UNAVAILABLE: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Whether a keyring lookup of this process found no keyring at all.
pub fn keyring_unavailable() -> bool {
    KEYRING_UNAVAILABLE.load(std::sync::atomic::Ordering::Relaxed)
}

/// quizz's token for `host` from the keyring: `Ok(None)` when there is none.
pub fn keyring_get(host: &str) -> Result<Option<String>, KeyringError> {
    let host = host.to_string();
    let found = off_thread(move || match entry(&host)?.get_password() {
        Ok(t) => Ok(Some(t)),
        Err(keyring::Error::NoEntry) => Ok(None),
        Err(e) => Err(map_err(e)),
    });
    if matches!(found, Err(KeyringError::Unavailable(_))) {
        KEYRING_UNAVAILABLE.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    found
}

pub fn keyring_set(host: &str, token: &str) -> Result<(), KeyringError> {
    crate::redact::remember(token);
    let host = host.to_string();
    let token = token.to_string();
    off_thread(move || entry(&host)?.set_password(&token).map_err(map_err))
}

/// Removes quizz's entry; `Ok(false)` when there was none.
pub fn keyring_delete(host: &str) -> Result<bool, KeyringError> {
    let host = host.to_string();
    off_thread(move || match entry(&host)?.delete_credential() {
        Ok(()) => Ok(true),
        Err(keyring::Error::NoEntry) => Ok(false),
        Err(e) => Err(map_err(e)),
    })
}

/// `gh auth token --hostname HOST`, when gh is installed and logged in.
pub fn token_from_gh(host: &str) -> Result<Option<String>, String> {
    let gh = std::env::var_os("QUIZZ_GH").unwrap_or_else(|| "gh".into());
    let mut child = match Command::new(&gh)
        .args(["auth", "token", "--hostname", host])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err("gh is not installed".into());
        }
        Err(e) => return Err(format!("cannot run gh: {e}")),
    };
    let started = std::time::Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let mut out = String::new();
                if let Some(mut stdout) = child.stdout.take() {
                    use std::io::Read;
                    let _ = stdout.read_to_string(&mut out);
                }
                let token = out.trim().to_string();
                return if status.success() && !token.is_empty() {
                    Ok(Some(token))
                } else {
                    Ok(None)
                };
            }
            Ok(None) if started.elapsed() > GH_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "`gh auth token` did not answer within {} s",
                    GH_TIMEOUT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("gh failed: {e}")),
        }
    }
}

/// What each source said, for `quizz auth status`.
#[derive(Debug)]
pub struct Lookup {
    pub token: Option<Token>,
    /// Sources that could not be asked, and why (no D-Bus session, gh missing…).
    pub notes: Vec<String>,
}

/// The token for `host` in order: environment, our keyring entry, `gh auth token`.
pub fn find_token(host: &str) -> Lookup {
    let mut notes = Vec::new();
    if let Some(t) = token_from_env(host) {
        return Lookup {
            token: Some(t),
            notes,
        };
    }
    match keyring_get(host) {
        Ok(Some(secret)) => {
            return Lookup {
                token: Some(Token::new(secret, TokenSource::Keyring)),
                notes,
            };
        }
        Ok(None) => {}
        Err(e) => notes.push(format!("keyring: {e}")),
    }
    match token_from_gh(host) {
        Ok(Some(secret)) => {
            return Lookup {
                token: Some(Token::new(secret, TokenSource::GhCli)),
                notes,
            };
        }
        Ok(None) => notes.push(format!("gh: not logged in to {host}")),
        Err(e) => notes.push(format!("gh: {e}")),
    }
    Lookup { token: None, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_token() {
        let t = Token::new("ghp_secret123".into(), TokenSource::Env("GH_TOKEN"));
        let shown = format!("{t:?} {}", t.source);
        assert!(!shown.contains("ghp_secret123"), "{shown}");
        assert!(shown.contains("GH_TOKEN"));
    }

    #[test]
    fn enterprise_hosts_use_enterprise_variables() {
        assert_eq!(env_names("github.com")[0], "GH_TOKEN");
        assert_eq!(env_names("ghe.example.com")[0], "GH_ENTERPRISE_TOKEN");
    }
}
