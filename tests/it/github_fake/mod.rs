//! Shared pieces of the end-to-end tests: the fake GitHub, Prism in front of it, the real
//! binary in a sandbox (its own data, config and cache folders), and git repositories.
// Test scaffolding: panicking on a broken fixture is the right failure.
#![allow(
    dead_code,
    unused_imports,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::similar_names,
    clippy::format_collect,
    clippy::too_many_lines,
    clippy::unused_self,
    clippy::zombie_processes
)]

pub mod fake_github;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

pub use fake_github::{FakeGithub, Fault, MoveStyle};

pub const TOKEN: &str = "ghp_testtoken_alice";
pub const TAKER: &str = "alice";
pub const BOT: &str = "quiz-bot[bot]";
/// Answers for the seed quiz in plain mode (mcq 1, tf f, mcq 2, tf f, open skipped, mermaid D).
pub const ANSWERS: &str = "1\nf\n2\nf\n\nD\n";
pub const OTHER_ANSWERS: &str = "2\nt\n1\nt\n\nA\n";

/// `take 7 --repo REPO --plain --post --new-attempt`: a second attempt, posted.
pub fn retake_and_post(repo: &str) -> [&str; 7] {
    [
        "take",
        "7",
        "--repo",
        repo,
        "--plain",
        "--post",
        "--new-attempt",
    ]
}

pub fn seed_quiz_comment() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/seed/pr7-quiz-comment.md"
    ))
    .expect("the seed quiz comment (tests/fixtures/seed)")
}

/// Where the binary talks to: a fake directly, or Prism's validating proxy before one.
pub struct Api {
    pub fake: Arc<FakeGithub>,
    pub base: String,
    pub via_prism: bool,
}

impl Api {
    pub fn direct() -> Self {
        let fake = Arc::new(FakeGithub::start());
        fake.add_user(TOKEN, TAKER);
        Self {
            base: fake.base(),
            fake,
            via_prism: false,
        }
    }

    /// The shared Prism proxy (one per test binary), or `None` when Prism is not installed
    /// and `CI` is not set (the test then says it skipped). In CI a missing Prism fails.
    pub fn prism() -> Option<Self> {
        let shared = PRISM.get_or_init(start_prism).as_ref()?;
        Some(Self {
            fake: Arc::clone(&shared.fake),
            base: shared.base.clone(),
            via_prism: true,
        })
    }

    /// A fresh repository name, so tests sharing one fake never meet.
    pub fn repo(&self, name: &str) -> String {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        format!("octo/{name}-{n}")
    }
}

struct SharedPrism {
    fake: Arc<FakeGithub>,
    base: String,
    // Prism is stopped when this pipe closes, i.e. when the test process exits.
    _stdin: std::sync::Mutex<std::process::ChildStdin>,
}

static PRISM: OnceLock<Option<SharedPrism>> = OnceLock::new();

pub fn prism_bin() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("QUIZZ_PRISM") {
        return Some(PathBuf::from(p));
    }
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/node_modules/.bin/prism");
    local.exists().then_some(local)
}

fn start_prism() -> Option<SharedPrism> {
    let Some(bin) = prism_bin() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "Prism is required in CI: scripts/test installs it into .tools/"
        );
        eprintln!("SKIPPED: Prism is not installed (scripts/test installs it into .tools/)");
        return None;
    };
    let fake = Arc::new(FakeGithub::start());
    fake.add_user(TOKEN, TAKER);
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let base = format!("http://127.0.0.1:{port}");
    fake.set_public_base(&base);
    let spec = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/github/github-subset.openapi.json"
    );
    let log = std::env::temp_dir().join(format!("quizz-prism-{port}.log"));
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("\"$@\" >\"$LOG\" 2>&1 & pid=$!; read _ignored; kill $pid")
        .arg("sh")
        .arg(&bin)
        .args([
            "proxy",
            "--errors",
            "-h",
            "127.0.0.1",
            "-p",
            &port.to_string(),
            spec,
        ])
        .arg(fake.base())
        .env("LOG", &log)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start prism");
    let stdin = child.stdin.take().unwrap();
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "Prism did not start within 120 s; its log: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    eprintln!(
        "Prism validating proxy on {base} -> {} (log {})",
        fake.base(),
        log.display()
    );
    Some(SharedPrism {
        fake,
        base,
        _stdin: std::sync::Mutex::new(stdin),
    })
}

/// The real binary with its own data/config/cache folders and a controlled environment.
pub struct Sandbox {
    pub home: tempfile::TempDir,
    pub api_base: String,
    pub envs: Vec<(String, String)>,
    pub cwd: PathBuf,
}

impl Sandbox {
    pub fn new(api: &Api) -> Self {
        let home = tempfile::tempdir().unwrap();
        let cwd = home.path().join("work");
        std::fs::create_dir_all(&cwd).unwrap();
        Self {
            api_base: api.base.clone(),
            envs: vec![("GH_TOKEN".into(), TOKEN.into())],
            cwd,
            home,
        }
    }

    pub fn set(&mut self, k: &str, v: &str) -> &mut Self {
        self.envs.retain(|(key, _)| key != k);
        self.envs.push((k.into(), v.into()));
        self
    }

    pub fn unset(&mut self, k: &str) -> &mut Self {
        self.envs.retain(|(key, _)| key != k);
        self
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_quizz"));
        cmd.args(args)
            .current_dir(&self.cwd)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("XDG_DATA_HOME", self.home.path().join("data"))
            .env("XDG_CONFIG_HOME", self.home.path().join("config"))
            .env("XDG_CACHE_HOME", self.home.path().join("cache"))
            .env("GITHUB_API_URL", &self.api_base)
            .env("QUIZZ_GH", self.home.path().join("no-gh-here"))
            .env("TERM", "dumb");
        for (k, v) in &self.envs {
            cmd.env(k, v);
        }
        cmd
    }

    /// The binary started with stdin, stdout and stderr piped.
    pub fn spawn(&self, args: &[&str]) -> std::process::Child {
        self.command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    pub fn run(&self, args: &[&str], stdin: &str) -> Run {
        let mut child = self.spawn(args);
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        Run::from(out)
    }
}

#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(o: Output) -> Self {
        Self {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

impl Run {
    pub fn all(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }

    #[track_caller]
    pub fn ok(&self) -> &Self {
        assert_eq!(self.code, 0, "expected success:\n{}", self.all());
        self
    }

    /// A take told to post whose post failed: status 1, the results in the outbox.
    #[track_caller]
    pub fn post_failed(&self) -> &Self {
        assert_eq!(self.code, 1, "expected a failed post:\n{}", self.all());
        assert!(
            self.stderr
                .contains("the results were not posted; they wait in the outbox"),
            "{}",
            self.all()
        );
        self
    }
}

/// `git` in `dir`, failing the test on error.
pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git must be installed for the branch tests");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
