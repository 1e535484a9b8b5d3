//! `quizz take --local` and `quizz generate --local`: a quiz the model writes for the
//! branch's change, against the fake Messages API, in a temporary git repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::messages_fake::fake_messages::{FakeMessages, Recorded, Reply};
use crate::messages_fake::{json_files, quizz, retry_quiz, run_with_input, text};

const LOCK_SECRET: &str = "lockfile-contents-never-sent";

/// A repository with `main` and a branch `feature` two commits ahead (code, a lockfile, a
/// binary), and one uncommitted change.
pub struct Repo {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
    pub home: tempfile::TempDir,
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
}

impl Repo {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app");
        std::fs::create_dir_all(path.join("src")).unwrap();
        let write = |name: &str, body: &[u8]| std::fs::write(path.join(name), body).unwrap();
        git(&path, &["init", "-q"]);
        write("src/retry.rs", b"fn send() {\n    once()\n}\n");
        write("src/extra.rs", b"pub fn extra() {}\n");
        git(&path, &["add", "-A"]);
        git(&path, &["commit", "-qm", "start"]);
        git(&path, &["checkout", "-qb", "feature"]);
        write(
            "src/retry.rs",
            b"fn send() {\n    if once().is_err() {\n        retry_send()\n    }\n}\n",
        );
        git(&path, &["commit", "-qam", "retry once"]);
        write(
            "Cargo.lock",
            format!("# {LOCK_SECRET}\n[[package]]\nname = \"x\"\n").as_bytes(),
        );
        write("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01");
        git(&path, &["add", "-A"]);
        git(&path, &["commit", "-qm", "lock and logo"]);
        write(
            "src/extra.rs",
            b"pub fn extra() {\n    uncommitted_work();\n}\n",
        );
        Self {
            _dir: dir,
            path,
            home: tempfile::tempdir().unwrap(),
        }
    }

    pub fn quizz(&self, server: &FakeMessages, args: &[&str]) -> Command {
        let home = self.home.path();
        let mut cmd = quizz(home);
        cmd.args(args)
            .current_dir(&self.path)
            .env("XDG_STATE_HOME", home.join("state"))
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("QUIZZ_GRADER", "anthropic")
            .env("ANTHROPIC_API_KEY", "test-key")
            .env("ANTHROPIC_BASE_URL", &server.url)
            .env("QUIZZ_GENERATE", "single");
        cmd
    }

    /// `take --local --plain` with every question answered (mcq, mcq, open, tf).
    fn take(&self, server: &FakeMessages, extra: &[&str]) -> Output {
        let mut args = vec!["take", "--local", "--plain"];
        args.extend(extra);
        run_with_input(
            &mut self.quizz(server, &args),
            "1\n1\nIt fails twice only when the server is down.\n.\nt\n",
        )
    }
}

/// The valid quiz with q1's answer not among its options.
fn not_an_option() -> Value {
    let mut quiz = retry_quiz();
    quiz["questions"][0]["answer"] = json!("after two failures");
    quiz
}

fn grade() -> Reply {
    Reply::grade(1, "Names the point of the change.")
}

pub fn quiz_posts(server: &FakeMessages) -> Vec<Recorded> {
    server.posts_for("submit_quiz")
}

fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn take_local_quizzes_the_branch_and_reuses_the_quiz_for_the_same_change() {
    let repo = Repo::new();
    // The open answer's grading is refused: it stays pending, and `status` lists the take.
    let refused = Reply::error(400, "invalid_request_error", "no grading today");
    let server = FakeMessages::quiz_writer(vec![Reply::tool_input(retry_quiz())], refused);
    let out = repo.take(&server, &[]);
    assert_ok(&out);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(stderr.contains("reading the diff: 3 files"), "{stderr}");
    assert!(stderr.contains("Cargo.lock (a lockfile)"), "{stderr}");
    assert!(
        stderr.contains("uncommitted changes left out (1 file; --include-uncommitted adds them)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("asking the model (Anthropic Messages API"),
        "{stderr}"
    );
    assert!(stderr.contains("quiz ready: 4 questions"), "{stderr}");
    // Streamed: each question is told as soon as it is written, before the checks.
    let told: Vec<usize> = (1..=4)
        .map(|n| {
            stderr
                .find(&format!("quizz: question {n} written\n"))
                .unwrap()
        })
        .collect();
    assert!(told.is_sorted(), "{stderr}");
    assert!(
        told[3] < stderr.find("quizz: checking the quiz").unwrap(),
        "{stderr}"
    );
    assert!(stdout.contains("Results: "), "{stdout}");

    let asked = quiz_posts(&server);
    assert_eq!(asked.len(), 1);
    let prompt = asked[0].first_user_text();
    assert!(prompt.contains("retry_send()"), "the code change: {prompt}");
    assert!(
        prompt.contains("Cargo.lock") && prompt.contains("logo.png"),
        "{prompt}"
    );
    assert!(
        !prompt.contains(LOCK_SECRET),
        "the lockfile's contents: {prompt}"
    );
    assert!(!prompt.contains("uncommitted_work"), "{prompt}");
    assert!(
        prompt.contains("uncommitted changes in 1 files"),
        "{prompt}"
    );

    // The answers and results are stored like any take's: status lists it.
    let status = text(&repo.quizz(&server, &["status"]).output().unwrap().stdout);
    assert!(status.contains("the local change in app"), "{status}");
    assert!(status.contains("--local"), "{status}");

    // The same change again: the kept quiz, no model call.
    let again = repo.take(&server, &[]);
    assert_ok(&again);
    assert_eq!(quiz_posts(&server).len(), 1, "{}", text(&again.stderr));
    assert!(
        text(&again.stderr).contains("the quiz written earlier for this change"),
        "{}",
        text(&again.stderr)
    );

    // --regenerate asks again.
    let fresh = repo.take(&server, &["--regenerate", "--new-attempt"]);
    assert_ok(&fresh);
    assert_eq!(quiz_posts(&server).len(), 2, "{}", text(&fresh.stderr));
}

#[test]
fn include_uncommitted_adds_the_work_in_progress() {
    let repo = Repo::new();
    let server = FakeMessages::quiz_writer(vec![Reply::tool_input(retry_quiz())], grade());
    let out = repo.take(&server, &["--include-uncommitted"]);
    assert_ok(&out);
    let prompt = quiz_posts(&server)[0].first_user_text();
    assert!(prompt.contains("uncommitted_work"), "{prompt}");
    assert!(
        !text(&out.stderr).contains("left out of the quiz"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_quiz_that_fails_a_check_is_repaired_in_the_second_round() {
    let repo = Repo::new();
    let server = FakeMessages::quiz_writer(
        vec![
            Reply::tool_input(not_an_option()),
            Reply::tool_input(retry_quiz()),
        ],
        grade(),
    );
    let out = repo
        .quizz(&server, &["generate", "--local"])
        .output()
        .unwrap();
    assert_ok(&out);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("repairing: 1 check failed"), "{stderr}");
    let quiz: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(quiz["questions"].as_array().unwrap().len(), 4);

    let asked = quiz_posts(&server);
    assert_eq!(asked.len(), 2);
    let second = asked[1].json();
    let result = &second["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["is_error"], true);
    let said = result["content"].as_str().unwrap();
    assert!(
        said.contains("question q1: the answer \"after two failures\" is not one of the options"),
        "{said}"
    );
}

#[test]
fn a_quiz_that_stays_invalid_names_its_checks_and_saves_the_raw_answer() {
    let repo = Repo::new();
    let server = FakeMessages::quiz_writer(vec![Reply::tool_input(not_an_option())], grade());
    let out = repo.take(&server, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("failed quizz's checks 3 times in a row"),
        "{stderr}"
    );
    assert!(stderr.contains("is not one of the options"), "{stderr}");
    assert!(!text(&out.stdout).contains("Question 1"), "nothing taken");
    let saved = json_files(&repo.home.path().join("state/quizz/generate-failed"));
    assert_eq!(saved.len(), 1, "{stderr}");
    assert!(stderr.contains(&saved[0].display().to_string()), "{stderr}");
    let raw: Value = serde_json::from_str(&std::fs::read_to_string(&saved[0]).unwrap()).unwrap();
    assert_eq!(raw, not_an_option());
    assert!(
        json_files(&repo.home.path().join("data/quizz/attempts")).is_empty(),
        "no attempt"
    );
}

#[test]
fn generate_local_writes_the_comment_markdown_to_a_file() {
    let repo = Repo::new();
    let server = FakeMessages::quiz_writer(vec![Reply::tool_input(retry_quiz())], grade());
    let file = repo.home.path().join("quiz.md");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let open = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(repo.home.path(), open).unwrap();
    }
    let out = repo
        .quizz(
            &server,
            &["generate", "--local", "main", "--markdown", "--out"],
        )
        .arg(&file)
        .output()
        .unwrap();
    assert_ok(&out);
    assert!(out.stdout.is_empty());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let folder = std::fs::metadata(repo.home.path())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(folder & 0o777, 0o755, "the user's folder is left as it was");
    }
    let shown = repo
        .quizz(&server, &["show", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    assert_ok(&shown);
    let quiz: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(quiz["questions"][3]["type"], "tf");
}

#[test]
fn without_a_model_generate_says_how_to_set_one_up() {
    let repo = Repo::new();
    let server = FakeMessages::quiz_writer(vec![Reply::tool_input(retry_quiz())], grade());
    let out = repo
        .quizz(&server, &["generate", "--local"])
        .env_remove("ANTHROPIC_API_KEY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no model to write the quiz: set ANTHROPIC_API_KEY"),
        "{stderr}"
    );
    assert!(stderr.contains("`quizz doctor`"), "{stderr}");
    // A key is set, but QUIZZ_GRADER=none turns the model off: that is what is said.
    let off = repo
        .quizz(&server, &["generate", "--local"])
        .env("QUIZZ_GRADER", "none")
        .output()
        .unwrap();
    assert_eq!(off.status.code(), Some(1));
    assert!(
        text(&off.stderr).contains("QUIZZ_GRADER=none turns the model off"),
        "{}",
        text(&off.stderr)
    );
    assert!(server.posts().is_empty());
}

#[test]
fn a_rate_limit_says_when_to_try_again() {
    let repo = Repo::new();
    let limited = Reply::error(429, "rate_limit_error", "slow down").header("retry-after", "3600");
    let server = FakeMessages::quiz_writer(vec![limited], grade());
    let out = repo
        .quizz(&server, &["generate", "--local"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("rate limited (HTTP 429)"), "{stderr}");
    assert!(stderr.contains("try again in 3600 s"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn quizz_generate_pipeline_shows_the_plan_then_each_question_as_it_is_ready() {
    let repo = Repo::new();
    // The valid quiz's questions as slots, the open one last.
    let order = [0, 1, 3, 2];
    let questions = retry_quiz()["questions"].as_array().unwrap().clone();
    let slots: Vec<Value> = order
        .iter()
        .map(|&i| {
            json!({"type": questions[i]["type"], "focus": format!("what question {} asks", i + 1),
                   "misconception": "that send retries forever", "diagram": "", "anchor": null})
        })
        .collect();
    let server = FakeMessages::start(move |r, _| {
        if r.json()["tool_choice"]["name"] == "plan_quiz" {
            return Reply::tool_input(json!({ "slots": slots }));
        }
        let slot = crate::generate_pipeline::slot_of(r);
        let mut q = questions[order[slot - 1]].clone();
        q.as_object_mut().unwrap().remove("id");
        Reply::tool_input(q)
    });
    let out = repo
        .quizz(&server, &["generate", "--local"])
        .env("QUIZZ_GENERATE", "pipeline")
        .output()
        .unwrap();
    assert_ok(&out);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("planned q1: mcq · what question 1 asks; writing it now\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains("planned q4: open · what question 3 asks; writing it now\n"),
        "{stderr}"
    );
    // The whole plan does not list again the slots told as each was planned.
    assert!(
        stderr.contains("planned 4 questions; writing them in parallel…\n")
            && !stderr.contains("  q1. mcq"),
        "{stderr}"
    );
    for id in ["q1", "q2", "q3", "q4"] {
        assert!(
            stderr.contains(&format!("question {id} is ready")),
            "{stderr}"
        );
    }
    assert!(stderr.contains("quiz ready: 4 questions"), "{stderr}");
    let quiz = quizz::quiz::parse_quiz(&text(&out.stdout)).unwrap();
    let kinds: Vec<&str> = quiz.questions.iter().map(|q| q.kind.type_name()).collect();
    assert_eq!(kinds, ["mcq", "mcq", "tf", "open"]);
    assert_eq!(server.posts_for("plan_quiz").len(), 1);
    assert_eq!(server.posts_for("submit_question").len(), 4);
    assert!(quiz_posts(&server).is_empty(), "no one-call quiz is asked");
}
