//! `quizz auth login|status|logout`: quizz's own token in the OS keyring.

use std::io::{IsTerminal, Read};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};

use crate::github::auth::{self, Token, TokenSource};
use crate::github::repo::default_host;
use crate::github::{Connection, GithubError, sync};
use crate::store::Store;
use crate::text::sanitize_line;

/// Manage the GitHub token quizz uses.
///
/// Token order (like the GitHub CLI): `GH_TOKEN`, `GITHUB_TOKEN` (enterprise hosts:
/// `GH_ENTERPRISE_TOKEN`, `GITHUB_ENTERPRISE_TOKEN`), then quizz's keyring entry, then
/// `gh auth token --hostname HOST`.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz auth login                       paste a token at a hidden prompt\n  gh auth token | quizz auth login       read it from stdin\n  quizz auth status\n  quizz auth logout --hostname ghe.example.com"
)]
pub struct AuthArgs {
    #[command(subcommand)]
    command: AuthCommand,
}

#[derive(Subcommand)]
enum AuthCommand {
    /// Store a token in the OS keyring (hidden prompt, or stdin when it is not a terminal).
    #[command(
        after_help = "Examples:\n  quizz auth login\n  printf %s \"$TOKEN\" | quizz auth login --with-token\n\nThe token needs read access to pull requests and write access to issues (to comment)."
    )]
    Login(LoginArgs),
    /// Say which source gives the token, and which user it is (never the token).
    #[command(
        after_help = "Examples:\n  quizz auth status\n  GH_HOST=ghe.example.com quizz auth status\n\nExit status: 0 when GitHub accepts the token (it names the user); 1 when the token does not\nwork: none found, rejected, or GitHub could not be asked (offline, rate limited)."
    )]
    Status(HostArgs),
    /// Remove quizz's token from the OS keyring.
    #[command(after_help = "Examples:\n  quizz auth logout")]
    Logout(HostArgs),
}

#[derive(Args)]
struct HostArgs {
    /// The GitHub host (default: `GH_HOST`, else github.com).
    #[arg(long, value_name = "HOST")]
    hostname: Option<String>,
}

#[derive(Args)]
struct LoginArgs {
    #[command(flatten)]
    host: HostArgs,
    /// Read the token from stdin (implied when stdin is not a terminal).
    #[arg(long)]
    with_token: bool,
}

impl HostArgs {
    fn host(&self) -> String {
        self.hostname
            .as_deref()
            .map_or_else(default_host, crate::github::repo::normalize_host)
    }
}

pub fn run(args: &AuthArgs) -> Result<()> {
    match &args.command {
        AuthCommand::Login(a) => login(a),
        AuthCommand::Status(a) => status(a),
        AuthCommand::Logout(a) => logout(a),
    }
}

fn login(args: &LoginArgs) -> Result<()> {
    let host = args.host.host();
    let secret = if args.with_token || !std::io::stdin().is_terminal() {
        let mut text = String::new();
        std::io::stdin()
            .lock()
            .take(64 * 1024)
            .read_to_string(&mut text)
            .context("cannot read the token from stdin")?;
        text
    } else {
        rpassword::prompt_password(format!("Paste a GitHub token for {host} (hidden): "))
            .context("cannot read the token")?
    };
    let secret = secret.trim().to_string();
    if secret.is_empty() {
        bail!("no token given");
    }
    if secret.chars().any(|c| c.is_whitespace() || c.is_control()) {
        bail!("that does not look like a token (it holds spaces or control characters)");
    }
    let store = Store::open_default()?;
    let token = Token::new(secret.clone(), TokenSource::Keyring);
    let conn = Connection::with_token(&host, store.clone(), Some(&token), Vec::new())?;
    let who = conn.block_on(sync::current_user(&conn.client, &store, &host));
    let login = match who {
        Ok(login) => Some(login),
        Err(e @ (GithubError::Unauthorized { .. } | GithubError::NeedsToken { .. })) => {
            bail!("GitHub refused this token for {host}: {e}; nothing was stored")
        }
        Err(e) if e.is_offline() => {
            errln!("warning: could not check the token ({e}); storing it anyway");
            None
        }
        Err(e) => return Err(e.into()),
    };
    auth::keyring_set(&host, &secret).context("cannot store the token")?;
    if let Some(l) = login {
        outln!(
            "Logged in to {host} as {}; the token is in the OS keyring (service {}).",
            sanitize_line(&l),
            auth::keyring_service(&host)
        );
    } else {
        outln!("Stored the token for {host} in the OS keyring.");
    }
    if let Some(env) = auth::token_from_env(&host) {
        outln!(
            "Note: {} is set and is used before the keyring; unset it to use this token.",
            env.source
        );
    }
    Ok(())
}

fn status(args: &HostArgs) -> Result<()> {
    let host = args.host();
    outln!("{host}");
    let lookup = auth::find_token(&host);
    // Whether the keyring can be used at all, whichever source won.
    let keyring = auth::keyring_get(&host);
    match &keyring {
        Ok(Some(_)) => outln!("  keyring: available; holds a token of quizz's for {host}"),
        Ok(None) => outln!("  keyring: available; no token of quizz's for {host}"),
        Err(e) => outln!(
            "  keyring: {}; falling back to the environment and gh",
            sanitize_line(&e.to_string())
        ),
    }
    let Some(token) = lookup.token.clone() else {
        outln!("  token: none found");
        // The keyring's own note was said on its line above.
        for n in lookup.notes.iter().filter(|n| !n.starts_with("keyring:")) {
            outln!("    ({})", sanitize_line(n));
        }
        let env = auth::env_names(&host)[0];
        // `quizz auth login` stores in the keyring: only suggested where there is one.
        if keyring.is_ok() {
            outln!("  Log in with `quizz auth login`, or set {env}.");
        } else {
            outln!(
                "  Set {env} to a token (or log in with `gh auth login`): with no keyring here, `quizz auth login` cannot store one."
            );
        }
        bail!("not logged in to {host}");
    };
    outln!("  token: from {}", token.source);
    let store = Store::open_default()?;
    let conn = Connection::with_token(&host, store.clone(), Some(&token), Vec::new())?;
    match conn.block_on(sync::current_user(&conn.client, &store, &host)) {
        Ok(login) => {
            outln!("  user: {}", sanitize_line(&login));
            Ok(())
        }
        // Whatever the cause, the token does not work now: the exit status says so.
        Err(e) => {
            outln!("  user: unknown (the token could not be checked)");
            Err(e.into())
        }
    }
}

fn logout(args: &HostArgs) -> Result<()> {
    let host = args.host();
    if auth::keyring_delete(&host).context("cannot remove the token")? {
        outln!("Removed quizz's token for {host} from the OS keyring.");
    } else {
        outln!("No token of quizz's for {host} in the OS keyring.");
    }
    if let Some(env) = auth::token_from_env(&host) {
        outln!("Note: {} is still set and still gives a token.", env.source);
    }
    Ok(())
}
