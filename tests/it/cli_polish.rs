//! Plain mode, the CLI's messages and `quizz status`, through the real binary (issue 10,
//! items 8, 14 and 15). Terminal-only behaviour runs in tmux.

use crate::tmux;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tmux::Tmux;

const FIX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// The seed taker's answers: q1 right, q2 right, q3 wrong, q4 right, q5 "test", q6 wrong.
const SEED_TAKER: &str = "1\nf\n2\nf\ntest\n.\nA\n";

fn command(data: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_quizz"));
    cmd.args(args)
        .env("XDG_DATA_HOME", data)
        .env("XDG_STATE_HOME", data.join("state"))
        .env("XDG_CONFIG_HOME", data.join("config"))
        .env("QUIZZ_GRADER", "none")
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn run(mut cmd: Command, stdin: &[u8]) -> Output {
    let mut child = cmd.spawn().unwrap();
    // A command that does not read stdin may exit first: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// The binary with its own data folders and no grader (other plain-mode tests use it too).
pub(crate) fn quizz(data: &Path, args: &[&str], stdin: &[u8]) -> Output {
    run(command(data, args), stdin)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A quiz with an explanation and a long option, written to `dir`.
fn small_quiz(dir: &Path) -> String {
    let long = "a very long option that goes on and on about the handler, the SDK and the \
                retries, so that no terminal line could ever hold it whole without \
                wrapping it somewhere between two of its many words, which is the point";
    let quiz = serde_json::json!({
        "version": "1",
        "pr_number": 3,
        "questions": [
            {"type": "mcq", "id": "a", "prompt": "Pick the short one.",
             "options": [long, "short"], "answer": "short",
             "explanation": "The short one is right because it is short."},
            {"type": "tf", "id": "b", "prompt": "Is this true?", "answer": true}
        ]
    });
    let path = dir.join("small.json");
    std::fs::write(&path, quiz.to_string()).unwrap();
    path.to_str().unwrap().to_string()
}

// ---- 14. Plain mode ----------------------------------------------------------------

#[test]
fn plain_practice_says_right_or_wrong_and_why_after_each_answer() {
    let data = tempfile::tempdir().unwrap();
    let quiz = small_quiz(data.path());
    let out = quizz(
        data.path(),
        &["take", "--file", &quiz, "--plain", "--practice"],
        // each answer, then how sure (Enter skips)
        b"1\n5\nt\n\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let wrong = stdout
        .find("✗ Not quite — the answer is: 2) short\nWhy: The short one is right")
        .unwrap_or_else(|| panic!("{stdout}"));
    let right = stdout
        .find("✓ Right.")
        .unwrap_or_else(|| panic!("{stdout}"));
    // Each right after its own answer, before the next question.
    let q2 = stdout.find("Question 2 of 2").unwrap();
    assert!(wrong < q2 && q2 < right, "{stdout}");
}

#[test]
fn end_of_piped_input_says_how_many_stay_unanswered_then_grades() {
    let data = tempfile::tempdir().unwrap();
    let out = quizz(data.path(), &["take", "--demo", "--plain"], b"1\nf\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "(input ended: 4 questions stay unanswered: q3, q4, q5, q6)\nGrading the answers given."
        ),
        "{stdout}"
    );
    assert!(stdout.contains("Results: "), "{stdout}");
}

#[test]
fn a_resumed_plain_take_starts_at_the_first_unanswered_question() {
    let data = tempfile::tempdir().unwrap();
    // Answers saved by an earlier take that stopped after q2 (as a Ctrl-C leaves them).
    let mut take = Interactive::start(command(data.path(), &["take", "--demo", "--plain"]));
    take.wait_for("Answer (1-4): ");
    take.send("1\n");
    take.wait_for("Answer (t/f): ");
    take.send("f\n");
    take.wait_for("Question 3 of 6");
    take.interrupt();
    let out = quizz(data.path(), &["take", "--demo", "--plain"], b"2\n");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "Resuming: 2 of 6 answered; starting at question 3, the first unanswered one."
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("Question 1 of 6"), "{stdout}");
    assert!(stdout.contains("Question 3 of 6"), "{stdout}");
    assert!(stdout.contains("1. ✓ right  q1"), "{stdout}");
}

#[test]
fn ctrl_c_says_the_answers_are_saved_and_status_lists_the_attempt() {
    let data = tempfile::tempdir().unwrap();
    let mut take = Interactive::start(command(data.path(), &["take", "--demo", "--plain"]));
    take.wait_for("Answer (1-4): ");
    take.send("1\n");
    take.wait_for("Answer (t/f): ");
    let (code, stderr) = take.interrupt();
    assert_eq!(code, Some(130), "{stderr}");
    assert!(
        stderr.contains("Interrupted: every answer you gave is saved."),
        "{stderr}"
    );
    let out = quizz(data.path(), &["status"], b"");
    let status = text(&out.stdout);
    assert!(
        status.contains("Attempts in progress (1):\n  the demo quiz (PR #7): 1 of 6 answered"),
        "{status}"
    );
    assert!(
        status.contains("    carry on: quizz take --demo\n"),
        "{status}"
    );
}

#[test]
fn plain_text_wraps_between_words_to_80_columns_when_piped() {
    let data = tempfile::tempdir().unwrap();
    let quiz = small_quiz(data.path());
    let out = quizz(
        data.path(),
        &["take", "--file", &quiz, "--plain"],
        b"1\nf\n",
    );
    let stdout = text(&out.stdout);
    let width = |l: &str| l.chars().count();
    for line in stdout.lines() {
        assert!(width(line) <= 80, "{line:?}\n{stdout}");
    }
    // The long option: wrapped under its number, every word whole.
    assert!(
        stdout.contains("  1) a very long option that goes on and on about the handler, the SDK and the\n     retries,"),
        "{stdout}"
    );
}

#[test]
fn plain_and_json_output_never_cut_an_answer() {
    let data = tempfile::tempdir().unwrap();
    let quiz = small_quiz(data.path());
    let out = quizz(
        data.path(),
        &["take", "--file", &quiz, "--plain"],
        b"1\nt\n",
    );
    let stdout = text(&out.stdout);
    let report = &stdout[stdout.find("Results: ").unwrap()..];
    assert!(!report.contains('…'), "{report}");
    // The whole option, wrapped under "your answer:".
    let joined = report.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains("your answer: a very long option that goes on and on about the handler, the SDK and the retries, so that no terminal line could ever hold it whole without wrapping it somewhere between two of its many words, which is the point"),
        "{report}"
    );
    assert!(
        joined.contains("why: The short one is right because it is short."),
        "{report}"
    );
    let out = quizz(
        data.path(),
        &["take", "--file", &quiz, "--plain", "--json"],
        b"1\nt\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!text(&out.stdout).contains('…'), "{}", text(&out.stdout));
}

#[test]
fn ctrl_d_at_a_terminal_asks_before_grading_and_text_wraps_to_the_terminal() {
    let Some(t) = Tmux::new("plain-ctrl-d") else {
        return;
    };
    t.start(60, 50, "take --demo --plain", "QUIZZ_GRADER=none");
    let screen = t.wait_for("Answer (1-4):");
    for line in screen.lines() {
        assert!(line.chars().count() <= 60, "{screen}");
    }
    // The first question's prompt, wrapped between words: each word is whole on a line.
    let demo: serde_json::Value =
        serde_json::from_str(include_str!("../../assets/demo-quiz.json")).unwrap();
    let prompt = demo["questions"][0]["prompt"].as_str().unwrap();
    let words: Vec<&str> = screen.split_whitespace().collect();
    for word in prompt.split_whitespace().take(20) {
        assert!(words.contains(&word), "{word:?} was cut:\n{screen}");
    }
    t.keys(&["C-d"]);
    t.wait_for("6 questions are unanswered. Grade now? [y/N]");
    t.keys(&["n", "Enter"]);
    let screen = t.wait_for("[quizz exited 0]");
    assert!(
        screen.contains("Answers saved (0 of 6), not graded."),
        "{screen}"
    );
    // Again, answering one, then Ctrl-D and y: graded.
    t.start(60, 50, "take --demo --plain", "QUIZZ_GRADER=none");
    t.wait_for("Answer (1-4):");
    t.keys(&["1", "Enter"]);
    t.wait_for("Answer (t/f):");
    t.keys(&["C-d"]);
    t.wait_for("5 questions are unanswered. Grade now? [y/N]");
    t.keys(&["y", "Enter"]);
    t.wait_for("Results: ");
}

#[test]
fn json_at_a_terminal_says_it_switched_to_plain_mode() {
    let Some(t) = Tmux::new("plain-json") else {
        return;
    };
    t.start(100, 50, "take --demo --json", "QUIZZ_GRADER=none");
    let screen = t.wait_for("Answer (1-4):");
    assert!(
        screen.contains("--json takes the quiz in plain mode (the line protocol)"),
        "{screen}"
    );
    // Narrower than the note: it breaks between words, as stdout's lines do, not where
    // the terminal's edge cuts a word.
    t.start(60, 60, "take --demo --json", "QUIZZ_GRADER=none");
    let screen = t.wait_for("Answer (1-4):");
    let rows: Vec<&str> = screen.lines().map(str::trim_end).collect();
    let first = rows
        .iter()
        .position(|r| r.starts_with("--json takes"))
        .unwrap();
    assert_eq!(
        rows[first..first + 2],
        [
            "--json takes the quiz in plain mode (the line protocol):",
            "questions here, on stderr; the results JSON on stdout."
        ],
        "{screen}"
    );
}

// ---- 15. The CLI's messages ----------------------------------------------------------

/// Each error says its cause once, on one line.
#[test]
fn errors_say_each_cause_once() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path();
    std::fs::write(dir.join("noquiz.md"), "## Just a review\nLGTM\n").unwrap();
    std::fs::write(dir.join("bad.json"), "{\"version\":").unwrap();
    let quiz = format!("{FIX}/cognit/quiz.json");
    let noquiz = dir.join("noquiz.md").to_str().unwrap().to_string();
    let bad = dir.join("bad.json").to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["show", "/nonexistent"],
            "No such file or directory (os error 2)",
        ),
        (vec!["show", &noquiz], "no quiz found"),
        (vec!["show", &bad], "EOF while parsing"),
        (
            vec!["grade", "--quiz", &quiz, "--answers", "/nonexistent"],
            "No such file or directory (os error 2)",
        ),
        (
            vec!["grade", "--quiz", &quiz, "--answers", &bad],
            "EOF while parsing",
        ),
        (
            vec!["grade", "--quiz", &quiz, "--answers", &noquiz],
            "expected value",
        ),
    ];
    for (args, cause) in cases {
        let out = quizz(dir, &args, b"");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.matches(cause).count(), 1, "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn a_store_that_cannot_be_read_says_why_once() {
    let data = tempfile::tempdir().unwrap();
    // The data folder is a file: the saved answers cannot be read.
    let file = data.path().join("not-a-folder");
    std::fs::write(&file, "x").unwrap();
    let mut cmd = command(data.path(), &["take", "--demo", "--plain"]);
    cmd.env("XDG_DATA_HOME", &file);
    let out = run(cmd, b"");
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("cannot open the saved answers"), "{err}");
    assert_eq!(err.matches("Not a directory").count(), 1, "{err}");
}

#[test]
fn github_unreachable_says_why_once() {
    let data = tempfile::tempdir().unwrap();
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut cmd = command(data.path(), &["take", "7", "--repo", "octo/app", "--plain"]);
    cmd.env("GITHUB_API_URL", format!("http://127.0.0.1:{port}"))
        .env("GH_TOKEN", "test-token")
        .env("QUIZZ_GH", "/nonexistent/gh")
        .env("QUIZZ_HTTP_TIMEOUT", "5");
    let out = run(cmd, b"");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("no cached copy of octo/app#7"), "{err}");
    assert_eq!(err.matches("cannot reach GitHub").count(), 1, "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // Each cause once, and not octocrab's wrapper words.
    assert_eq!(err.matches("tcp connect error").count(), 1, "{err}");
    assert!(!err.contains("Service Error"), "{err}");
}

#[test]
fn mermaid_exits_2_on_a_syntax_error_or_empty_input() {
    let data = tempfile::tempdir().unwrap();
    for (source, code, said) in [
        ("", 2, "no diagram type found"),
        ("   \n\n", 2, "no diagram type found"),
        ("graph LR\n  A -->", 2, "expected a node"),
        ("graph LR\n  A --> B", 0, ""),
        ("pie\n  \"a\": 1", 0, ""),
    ] {
        let out = quizz(data.path(), &["mermaid"], source.as_bytes());
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{source:?}: {err}");
        assert!(err.contains(said), "{source:?}: {err}");
    }
}

#[test]
fn the_demo_and_a_file_cannot_be_posted() {
    let data = tempfile::tempdir().unwrap();
    let quiz = small_quiz(data.path());
    for (args, said) in [
        (
            vec!["take", "--demo", "--post"],
            "the demo quiz has no pull request",
        ),
        (
            vec!["take", "--file", &quiz, "--post"],
            "a quiz from a file has no pull request",
        ),
    ] {
        let out = quizz(data.path(), &args, b"");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(said) && err.contains("drop --post"), "{err}");
        assert!(
            out.stdout.is_empty(),
            "asked questions: {}",
            text(&out.stdout)
        );
    }
}

#[test]
fn doctor_with_grading_turned_off_says_to_unset_it() {
    let data = tempfile::tempdir().unwrap();
    let out = quizz(data.path(), &["doctor"], b"");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Grading is turned off by QUIZZ_GRADER=none")
            && stdout.contains("unset QUIZZ_GRADER"),
        "{stdout}"
    );
}

/// A `QUIZZ_GRADER` that asks for a grader quizz cannot have is a set-up problem: doctor
/// still explains it, then fails as `doctor --check` does; `none` (asked for) is fine.
#[test]
fn doctor_fails_when_quizz_grader_cannot_be_used() {
    let data = tempfile::tempdir().unwrap();
    for (value, said) in [
        (
            "bogus",
            "QUIZZ_GRADER=bogus is not one of anthropic, claude, none",
        ),
        (
            "anthropic",
            "QUIZZ_GRADER=anthropic, but neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set",
        ),
        (
            "claude",
            "QUIZZ_GRADER=claude, but CLAUDE_BIN=", // one "but": the path follows
        ),
    ] {
        let mut cmd = command(data.path(), &["doctor"]);
        cmd.env("QUIZZ_GRADER", value)
            .env("CLAUDE_BIN", data.path().join("no-claude"))
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("ANTHROPIC_AUTH_TOKEN");
        let out = run(cmd, b"");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{value}: {stderr}");
        assert!(
            stderr.starts_with("quizz: error: no grader: ") && stderr.contains(said),
            "{value}: {stderr}"
        );
        assert!(stderr.matches(" but ").count() <= 1, "{value}: {stderr}");
        assert!(
            text(&out.stdout).contains("grader:   none"),
            "still explained"
        );
    }
    let out = quizz(data.path(), &["doctor"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn grade_prints_a_summary_on_a_terminal_and_the_comment_with_markdown() {
    let data = tempfile::tempdir().unwrap();
    let out = quizz(
        data.path(),
        &["take", "--demo", "--plain"],
        SEED_TAKER.as_bytes(),
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("(provisional: 1 open answer not graded yet)"),
        "{stdout}"
    );
    let out = quizz(data.path(), &["grade", "--demo", "--markdown"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("<!-- quizz:results v1 -->\n## Quiz results"));

    let Some(t) = Tmux::new("grade-summary") else {
        return;
    };
    let data = t.data.clone();
    let out = run(
        {
            let mut c = command(&data, &["take", "--demo", "--plain"]);
            c.env("XDG_STATE_HOME", &data);
            c
        },
        SEED_TAKER.as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    t.start(100, 30, "grade --demo", "QUIZZ_GRADER=none");
    let screen = t.wait_for("[quizz exited");
    assert!(
        screen
            .contains("Results: 50% — 3 of 6 correct (provisional: 1 open answer not graded yet)"),
        "{screen}"
    );
    assert!(screen.contains("1. ✓ right  q1"), "{screen}");
    assert!(!screen.contains("<!--"), "{screen}");
}

#[test]
fn pending_and_waiting_answers_are_listed_by_status() {
    let data = tempfile::tempdir().unwrap();
    let out = quizz(data.path(), &["status"], b"");
    let status = text(&out.stdout);
    assert!(
        status.starts_with("No attempts in progress.\nNo answers waiting to be graded.\n"),
        "{status}"
    );
    quizz(
        data.path(),
        &["take", "--demo", "--plain"],
        SEED_TAKER.as_bytes(),
    );
    let out = quizz(data.path(), &["status"], b"");
    let status = text(&out.stdout);
    assert!(
        status.contains(
            "Answers waiting to be graded (1):\n  the demo quiz (PR #7): 1 open answer pending (q5)\n    grade them: quizz grade --demo\n"
        ),
        "{status}"
    );
}

#[test]
fn logout_refuses_with_token() {
    let data = tempfile::tempdir().unwrap();
    let out = quizz(data.path(), &["auth", "logout", "--with-token"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unexpected argument '--with-token'"));
    let out = quizz(data.path(), &["auth", "login", "--help"], b"");
    assert!(text(&out.stdout).contains("--with-token"));
}

/// Every `--help`'s examples: one column for the comments, no line wrapped by clap.
#[test]
fn help_examples_are_aligned_and_never_wrapped() {
    let data = tempfile::tempdir().unwrap();
    let commands: &[&[&str]] = &[
        &[],
        &["take"],
        &["show"],
        &["grade"],
        &["doctor"],
        &["fetch"],
        &["post"],
        &["status"],
        &["auth"],
        &["auth", "login"],
        &["auth", "status"],
        &["auth", "logout"],
        &["mermaid"],
        &["man"],
    ];
    for columns in ["80", "100"] {
        for args in commands {
            let mut all: Vec<&str> = args.to_vec();
            all.push("--help");
            let mut cmd = command(data.path(), &all);
            cmd.env("COLUMNS", columns);
            let out = run(cmd, b"");
            let help = text(&out.stdout);
            let Some(start) = help.find("Examples:\n") else {
                continue;
            };
            let block: Vec<&str> = help[start + "Examples:\n".len()..]
                .lines()
                .take_while(|l| !l.is_empty())
                .collect();
            let mut comment_columns = Vec::new();
            for line in &block {
                let what = format!("{args:?} at {columns}: {line:?}\n{help}");
                assert!(line.starts_with("  "), "wrapped: {what}");
                assert!(
                    line.chars().count() <= columns.parse().unwrap(),
                    "too wide: {what}"
                );
                // A comment follows the command after a run of at least three spaces.
                if let Some(gap) = line[2..].find("   ") {
                    let rest = &line[2 + gap..];
                    let col = 2 + gap + (rest.len() - rest.trim_start().len());
                    comment_columns.push(col);
                }
            }
            comment_columns.dedup();
            assert!(
                comment_columns.len() <= 1,
                "{args:?} at {columns}: comments in columns {comment_columns:?}\n{help}"
            );
        }
    }
}

#[test]
fn no_log_file_when_nothing_is_logged() {
    let data = tempfile::tempdir().unwrap();
    quizz(data.path(), &["show", "--demo"], b"");
    quizz(data.path(), &["take", "--demo", "--plain"], b"1\n");
    assert!(!data.path().join("state/quizz/quizz.log").exists());
    assert!(!data.path().join("state/quizz").exists());
}

// ---- a plain take driven line by line ----------------------------------------------

/// A plain take with its output read as it comes, for prompts without a line end.
struct Interactive {
    child: std::process::Child,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
}

impl Interactive {
    fn start(mut cmd: Command) -> Self {
        let mut child = cmd.spawn().unwrap();
        let pipe = |mut r: Box<dyn Read + Send>| {
            let buf = Arc::new(Mutex::new(String::new()));
            let shared = Arc::clone(&buf);
            std::thread::spawn(move || {
                let mut chunk = [0u8; 4096];
                while let Ok(n) = r.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    shared
                        .lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&chunk[..n]));
                }
            });
            buf
        };
        let stdout = pipe(Box::new(child.stdout.take().unwrap()));
        let stderr = pipe(Box::new(child.stderr.take().unwrap()));
        Self {
            child,
            stdout,
            stderr,
        }
    }

    /// Waits (up to 30 s) until stdout (since the last line sent) holds `text`.
    fn wait_for(&mut self, text: &str) {
        let start = Instant::now();
        loop {
            if self.stdout.lock().unwrap().contains(text) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "waited for {text:?}; stdout:\n{}\nstderr:\n{}",
                self.stdout.lock().unwrap(),
                self.stderr.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&mut self, line: &str) {
        // Later prompts are looked for in what comes next only.
        self.stdout.lock().unwrap().clear();
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Sends SIGINT (as Ctrl-C does); returns the exit code and stderr.
    fn interrupt(mut self) -> (Option<i32>, String) {
        let pid = self.child.id().to_string();
        let status = Command::new("kill").args(["-INT", &pid]).status().unwrap();
        assert!(status.success());
        let code = self.child.wait().unwrap().code();
        std::thread::sleep(Duration::from_millis(100));
        let stderr = self.stderr.lock().unwrap().clone();
        (code, stderr)
    }
}

#[test]
fn status_names_a_pull_request_attempt_with_its_progress() {
    let data = tempfile::tempdir().unwrap();
    let body = std::fs::read_to_string(format!("{FIX}/seed/pr7-quiz-comment.md")).unwrap();
    let digest = quizz::comment::read_quiz(&body).unwrap().quiz.digest();
    let root = data.path().join("quizz");
    let cache = root.join("cache/github.com/octo/app/7.json");
    std::fs::create_dir_all(cache.parent().unwrap()).unwrap();
    let comment = serde_json::json!({
        "id": 11, "html_url": "https://github.com/octo/app/pull/7#issuecomment-11",
        "body": body, "user": {"login": "quiz-bot", "type": "Bot"},
        "created_at": "2025-01-01T00:00:00Z", "updated_at": "2025-01-01T00:00:00Z"
    });
    std::fs::write(
        &cache,
        serde_json::json!({"format": 1, "comments": [comment], "synced_at": 0}).to_string(),
    )
    .unwrap();
    let attempt = root.join(format!(
        "attempts/github.com/octo/app/7/{}.json",
        &digest[..16]
    ));
    std::fs::create_dir_all(attempt.parent().unwrap()).unwrap();
    std::fs::write(
        &attempt,
        serde_json::json!({
            "format": 1, "origin": "github.com/octo/app/7", "quiz_digest": digest,
            "pr_number": 7, "answers": {"q1": "x", "q2": "true", "q3": "y"}, "updated_at": 0
        })
        .to_string(),
    )
    .unwrap();
    let out = quizz(data.path(), &["status"], b"");
    let status = text(&out.stdout);
    assert!(
        status.contains("Attempts in progress (1):\n  octo/app#7: 3 of 6 answered, last answer ")
            && status.contains("    carry on: quizz take octo/app#7\n"),
        "{status}"
    );
}
