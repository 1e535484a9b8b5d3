//! No token reaches the screen, the log or a saved file, whoever echoes it (a `claude` CLI
//! or gateway printing its environment, a URL with user info); the files quizz writes are
//! its owner's only.

use crate::messages_fake as support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::{quizz, run_with_input, text};

const AUTH_TOKEN: &str = "sk-auth-tok-7f3a9c1e";
const API_KEY: &str = "sk-ant-key-5b8d2e4f";
const GH_TOKEN: &str = "ghp_tok_9a1b2c3d4e";
const URL_SECRET: &str = "pw-in-the-url-1234";

/// The demo's answers in plain mode, q5 (open) answered.
const PLAIN_ANSWERS: &str = "1\nf\n1\nf\nIt forces the tool call.\n1\n";

struct Home {
    dir: tempfile::TempDir,
    claude: PathBuf,
}

/// A home with a fake `claude` that prints its environment on stderr and fails, as a CLI
/// or a gateway reporting a refused key does.
fn home() -> Home {
    let dir = tempfile::tempdir().unwrap();
    let claude = dir.path().join("claude");
    std::fs::write(
        &claude,
        "#!/bin/sh\nenv >&2\necho \"refused: token=$ANTHROPIC_AUTH_TOKEN key=$ANTHROPIC_API_KEY gh=$GH_TOKEN\" >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&claude, std::fs::Permissions::from_mode(0o755)).unwrap();
    Home { dir, claude }
}

impl Home {
    fn command(&self, args: &[&str]) -> Command {
        let root = self.dir.path();
        let mut cmd = quizz(root);
        cmd.args(args)
            .env("XDG_STATE_HOME", root.join("state"))
            .env("XDG_CACHE_HOME", root.join("cache"))
            .env("XDG_CONFIG_HOME", root.join("config"))
            .env("QUIZZ_LOG", "trace")
            .env("QUIZZ_GH", root.join("no-gh-here"))
            .env("CLAUDE_BIN", &self.claude)
            .env("QUIZZ_GRADER", "claude")
            .env("ANTHROPIC_AUTH_TOKEN", AUTH_TOKEN)
            .env("ANTHROPIC_API_KEY", API_KEY)
            .env("GH_TOKEN", GH_TOKEN);
        cmd
    }

    /// Every file under the folders quizz writes to.
    fn files(&self) -> Vec<PathBuf> {
        let mut found = Vec::new();
        for dir in ["data", "state", "cache", "config"] {
            walk(&self.dir.path().join(dir), &mut found);
        }
        found
    }
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        found.push(path.clone());
        if path.is_dir() {
            walk(&path, found);
        }
    }
}

fn all_output(out: &Output) -> String {
    format!("{}\n{}", text(&out.stdout), text(&out.stderr))
}

fn assert_no_secret(what: &str, text: &str) {
    for secret in [AUTH_TOKEN, API_KEY, GH_TOKEN, URL_SECRET] {
        assert!(!text.contains(secret), "{what} shows {secret}:\n{text}");
    }
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[test]
fn no_token_is_shown_logged_or_saved_and_the_files_are_private() {
    let h = home();
    let take = run_with_input(
        &mut h.command(&["take", "--demo", "--plain"]),
        PLAIN_ANSWERS,
    );
    let shown = all_output(&take);
    // The fake's words do arrive, masked.
    assert!(shown.contains("refused: token=[hidden]"), "{shown}");
    assert_no_secret("take", &shown);
    let grade = h.command(&["grade", "--demo"]).output().unwrap();
    assert_no_secret("grade", &all_output(&grade));
    let doctor = h.command(&["doctor"]).output().unwrap();
    assert_no_secret("doctor", &all_output(&doctor));
    // A network error names the API base without its user info, on screen and in the log.
    let base = format!("http://user:{URL_SECRET}@127.0.0.1:{}", closed_port());
    let offline = h
        .command(&["take", "--plain", "o/r#5"])
        .env("GITHUB_API_URL", &base)
        .output()
        .unwrap();
    let shown = all_output(&offline);
    assert!(
        shown.contains("cannot reach GitHub at http://127.0.0.1:"),
        "{shown}"
    );
    assert_no_secret("a network error", &shown);
    assert!(!shown.contains("user:"), "{shown}");

    let files = h.files();
    let log = h.dir.path().join("state/quizz/quizz.log");
    assert!(files.contains(&log), "no log was written: {files:?}");
    assert!(
        files
            .iter()
            .any(|f| f.extension().is_some_and(|x| x == "json")),
        "no attempt was saved: {files:?}"
    );
    for file in &files {
        let meta = std::fs::metadata(file).unwrap();
        let mode = meta.permissions().mode() & 0o777;
        if meta.is_dir() {
            assert_eq!(mode, 0o700, "{} is {mode:o}", file.display());
        } else {
            assert_eq!(mode, 0o600, "{} is {mode:o}", file.display());
            let content = String::from_utf8_lossy(&std::fs::read(file).unwrap()).into_owned();
            assert_no_secret(&file.display().to_string(), &content);
        }
    }
    for top in ["data", "state"] {
        let mode = std::fs::metadata(h.dir.path().join(top))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700, "{top}");
    }
}

/// The renderer (its own crate) knows no tokens: quizz masks them in what it prints of a
/// diagram, as in any other text.
#[test]
fn a_token_in_a_diagram_label_is_masked() {
    let h = home();
    let source = format!("sequenceDiagram\n  Dev->>API: login with {GH_TOKEN}\n");
    let drawn = run_with_input(&mut h.command(&["mermaid", "--width", "80"]), &source);
    let shown = all_output(&drawn);
    assert!(drawn.status.success(), "{shown}");
    assert!(shown.contains("login with [hidden]"), "{shown}");
    assert_no_secret("mermaid", &shown);
}
