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
        self.start_in("q", w, h, args, env);
    }

    /// Like [`Tmux::start`], in the session `name` (a second window on the same data).
    pub fn start_in(&self, name: &str, w: u16, h: u16, args: &str, env: &str) {
        self.launch(name, None, (w, h), args, env);
    }

    /// Like [`Tmux::start`], with `dir` as quizz's working directory (a repository).
    pub fn start_at(&self, dir: &std::path::Path, w: u16, h: u16, args: &str, env: &str) {
        self.launch("q", Some(dir), (w, h), args, env);
    }

    fn launch(
        &self,
        name: &str,
        dir: Option<&std::path::Path>,
        (w, h): (u16, u16),
        args: &str,
        env: &str,
    ) {
        let bin = env!("CARGO_BIN_EXE_quizz");
        // Through a shell that waits after quizz exits, so what it prints stays readable.
        let cmd = format!(
            "env XDG_DATA_HOME={} XDG_STATE_HOME={} TERM=xterm-256color {env} {bin} {args}; echo \"[quizz exited $?]\"; sleep 600",
            self.data.display(),
            self.data.display()
        );
        self.tmux(&["kill-session", "-t", name]);
        // Killing the last session stops the tmux server; a new session started while it
        // is stopping can be lost (seen on a loaded machine): start again until it holds.
        let (w, h) = (w.to_string(), h.to_string());
        let mut session = vec!["new-session", "-d", "-s", name, "-x", &w, "-y", &h];
        let dir = dir.map(|d| d.display().to_string());
        if let Some(dir) = &dir {
            session.extend(["-c", dir]);
        }
        session.push(&cmd);
        for _ in 0..50 {
            self.tmux(&session);
            if self.has_session(name) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("tmux would not start a session {name}");
    }

    fn has_session(&self, name: &str) -> bool {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(["has-session", "-t", name])
            .output()
            .is_ok_and(|o| o.status.success())
    }

    /// From the demo's overview: goes to the open question (q5), writes `answer` there,
    /// and submits with the others unanswered, as a taker who only wants q5 graded.
    pub fn answer_the_demo_open_question_and_submit(&self, answer: &str) {
        self.keys(&["Enter", "n", "n", "n", "n"]);
        self.wait_for("Your answer");
        self.keys(&["-l", answer, "Escape", "s", "Enter", "y"]);
    }

    pub fn keys(&self, keys: &[&str]) {
        self.keys_in("q", keys);
    }

    pub fn keys_in(&self, name: &str, keys: &[&str]) {
        for k in keys {
            self.tmux(&["send-keys", "-t", name, k]);
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Sends `text` as typed, all at once (`send-keys -l`).
    pub fn type_text(&self, text: &str) {
        self.tmux(&["send-keys", "-t", "q", "-l", text]);
    }

    /// Pastes `text` as a terminal does (bracketed paste; tmux sends line breaks as CR).
    pub fn paste(&self, text: &str) {
        let file = self.data.join("paste-buffer.txt");
        std::fs::write(&file, text).unwrap();
        self.tmux(&["load-buffer", file.to_str().unwrap()]);
        self.tmux(&["paste-buffer", "-p", "-t", "q"]);
    }

    pub fn screen(&self) -> String {
        self.screen_of("q")
    }

    pub fn screen_of(&self, name: &str) -> String {
        self.tmux(&["capture-pane", "-p", "-t", name])
    }

    /// Waits (up to 30 s, for loaded machines) until the screen shows `text`; panics with the screen otherwise.
    pub fn wait_for(&self, text: &str) -> String {
        self.wait_in("q", text)
    }

    /// [`Tmux::wait_for`] in the session `name`.
    pub fn wait_in(&self, name: &str, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen_of(name);
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

    /// Waits (up to 30 s) until `check` holds for the saved demo attempt; panics with the
    /// last one read otherwise.
    pub fn wait_saved(
        &self,
        what: &str,
        check: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let start = Instant::now();
        loop {
            let saved = self.saved_demo_attempt();
            if check(&saved) {
                return saved;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "waited for {what}; saved: {saved:#}\nscreen:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The demo's saved attempt as JSON (`null` while there is none).
    pub fn saved_demo_attempt(&self) -> serde_json::Value {
        let dir = self.data.join("quizz/attempts/demo");
        std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "json"))
            .and_then(|p| std::fs::read(p).ok())
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or(serde_json::Value::Null)
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
