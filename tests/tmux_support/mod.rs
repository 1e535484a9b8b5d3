//! Driving the real binary in a real terminal: tmux with send-keys and capture-pane.
#![allow(dead_code, clippy::unwrap_used)]

use std::process::Command;
use std::time::{Duration, Instant};

/// One tmux server per test (its own socket), so tests run in parallel.
pub struct Tmux {
    socket: String,
    _data: tempfile::TempDir,
    pub data: std::path::PathBuf,
}

impl Tmux {
    pub fn new(name: &str) -> Option<Self> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "tmux is missing on CI: scripts/test installs it"
            );
            eprintln!("SKIPPED: tmux is not installed (scripts/test installs it)");
            return None;
        }
        let data = tempfile::tempdir().unwrap();
        let path = data.path().to_path_buf();
        Some(Self {
            socket: format!("quizz-test-{name}-{}", std::process::id()),
            _data: data,
            data: path,
        })
    }

    pub fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Starts `quizz ARGS` in a fresh session of `w`x`h`; the pane stays after it exits.
    pub fn start(&self, w: u16, h: u16, args: &str, env: &str) {
        let bin = env!("CARGO_BIN_EXE_quizz");
        // Through a shell that waits after quizz exits, so what it prints stays readable.
        let cmd = format!(
            "env XDG_DATA_HOME={} XDG_STATE_HOME={} TERM=xterm-256color {env} {bin} {args}; echo \"[quizz exited $?]\"; sleep 600",
            self.data.display(),
            self.data.display()
        );
        self.tmux(&["kill-session", "-t", "q"]);
        self.tmux(&[
            "new-session",
            "-d",
            "-s",
            "q",
            "-x",
            &w.to_string(),
            "-y",
            &h.to_string(),
            &cmd,
        ]);
    }

    pub fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.tmux(&["send-keys", "-t", "q", k]);
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    pub fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", "q"])
    }

    /// Waits (up to 30 s, for loaded machines) until the screen shows `text`; panics with the screen otherwise.
    pub fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "waited for {text:?}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The quizz process: the child of the pane's shell.
    pub fn quizz_pid(&self) -> String {
        let shell = self.tmux(&["list-panes", "-t", "q", "-F", "#{pane_pid}"]);
        let out = Command::new("pgrep")
            .args(["-P", shell.trim()])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap()
            .trim()
            .to_string()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.tmux(&["kill-server"]);
    }
}
