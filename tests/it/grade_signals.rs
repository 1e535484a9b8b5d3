//! A `claude` grader and what it started end with quizz: on SIGTERM, SIGHUP, SIGINT and
//! SIGQUIT sent to quizz alone (plain take, `quizz grade`), and on a grading timeout.
//!
//! A fake `claude` (shell) starts a long sleep, writes its own pid and the sleep's, and
//! waits: a grader that never answers and leaves a grandchild behind.

use crate::messages_fake as support;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use support::{quizz, text};

/// The demo's answers in plain mode: q5 (open) answered, so grading starts at the end.
const PLAIN_ANSWERS: &str = "1\nf\n1\nf\nIt forces the tool call.\n1\n";

pub struct Fake {
    pub dir: tempfile::TempDir,
    pub claude: PathBuf,
    pids: PathBuf,
}

pub fn fake_claude() -> Fake {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let claude = dir.path().join("claude");
    std::fs::write(
        &claude,
        format!(
            "#!/bin/sh\nsleep 600 &\necho \"$$ $!\" >> '{}'\nwait\n",
            pids.display()
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&claude, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    Fake { dir, claude, pids }
}

impl Fake {
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = quizz(self.dir.path());
        cmd.args(args)
            .env("CLAUDE_BIN", &self.claude)
            .env("QUIZZ_GRADER", "claude")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// The pids the fakes wrote, once there are `n` (up to 30 s on a loaded machine).
    pub fn wait_for_pids(&self, n: usize) -> Vec<String> {
        let start = Instant::now();
        loop {
            let pids: Vec<String> = std::fs::read_to_string(&self.pids)
                .unwrap_or_default()
                .split_whitespace()
                .map(str::to_string)
                .collect();
            if pids.len() >= n {
                return pids;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the fake claude never started"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Running, or stopped: a zombie waiting for init to reap it is gone.
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z'))
    })
}

/// Asserts that none of `pids` runs any more (killing what is left, so no test leaves
/// processes behind); the kill is asynchronous, so it is given up to 10 s.
pub fn assert_all_ended(pids: &[String], what: &str) {
    let start = Instant::now();
    while pids.iter().any(|p| alive(p)) && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<&String> = pids.iter().filter(|p| alive(p)).collect();
    for pid in &left {
        let _ = Command::new("kill").args(["-9", pid]).status();
    }
    assert!(left.is_empty(), "{what}: still running: {left:?}");
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

fn start_plain_take(fake: &Fake, env: &[(&str, &str)]) -> Child {
    let mut cmd = fake.command(&["take", "--demo", "--plain"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(PLAIN_ANSWERS.as_bytes()).unwrap();
    }
    child
}

#[test]
fn a_signal_to_a_plain_take_ends_the_claude_grader_and_its_children() {
    for (name, number) in [("TERM", 15), ("HUP", 1), ("INT", 2), ("QUIT", 3)] {
        let fake = fake_claude();
        let child = start_plain_take(&fake, &[]);
        let pids = fake.wait_for_pids(2);
        signal(&child, name);
        let out = child.wait_with_output().unwrap();
        assert_all_ended(&pids, &format!("after SIG{name}"));
        assert_eq!(out.status.code(), Some(128 + number), "SIG{name}");
        let said = text(&out.stderr);
        assert!(
            said.contains("Interrupted: every answer you gave is saved"),
            "SIG{name}: {said}"
        );
    }
}

#[test]
fn a_signal_to_quizz_grade_ends_the_claude_grader_and_its_children() {
    let fake = fake_claude();
    let (quiz, answers) = support::open_quiz(fake.dir.path(), 2);
    let quiz = quiz.to_str().unwrap().to_string();
    let answers = answers.to_str().unwrap().to_string();
    for (name, number) in [("INT", 2), ("TERM", 15)] {
        let _ = std::fs::remove_file(&fake.pids);
        let child = fake
            .command(&["grade", "--quiz", &quiz, "--answers", &answers])
            .spawn()
            .unwrap();
        // Both open answers are graded at once: two fakes, four processes.
        let pids = fake.wait_for_pids(4);
        signal(&child, name);
        let out = child.wait_with_output().unwrap();
        assert_all_ended(&pids, &format!("quizz grade after SIG{name}"));
        assert_eq!(out.status.code(), Some(128 + number), "SIG{name}");
    }
}

#[test]
fn a_grading_timeout_ends_what_the_claude_grader_started() {
    let fake = fake_claude();
    let child = start_plain_take(&fake, &[("QUIZZ_GRADE_TIMEOUT", "1")]);
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("did not finish within 1 s and was stopped"),
        "{stdout}"
    );
    let pids = fake.wait_for_pids(2);
    assert_all_ended(&pids, "after the grading timeout");
}
