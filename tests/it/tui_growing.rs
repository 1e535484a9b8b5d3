//! `quizz take --local` with `QUIZZ_GENERATE=pipeline`: the quiz is taken while the rest of
//! it is written. The fake model writes slot by slot, each drafter answering after its own
//! delay (or never passing its checks).

use std::time::Duration;

use serde_json::{Value, json};

use crate::generate_local::Repo;
use crate::messages_fake::fake_messages::{FakeMessages, Reply};
use crate::messages_fake::retry_quiz;
use crate::tmux::Tmux;

/// How a slot's drafter answers.
#[derive(Clone, Copy)]
pub enum Draft {
    After(u64),
    /// An mcq whose answer is none of its options, every time: the slot is left out.
    Invalid,
}

/// The fake model: a plan of `retry_quiz`'s four questions (mcq, mcq, tf, open: the open
/// one last), then each slot's question as `drafts` says.
pub fn writer(drafts: [Draft; 4]) -> FakeMessages {
    writer_of(drafts, |_| {})
}

/// As [`writer`], its questions changed by `edit` first.
fn writer_of(drafts: [Draft; 4], edit: impl FnOnce(&mut [Value])) -> FakeMessages {
    let all = retry_quiz()["questions"].as_array().unwrap().clone();
    let mut questions: Vec<Value> = [0, 1, 3, 2].iter().map(|&i| all[i].clone()).collect();
    edit(&mut questions);
    let slots: Vec<Value> = questions
        .iter()
        .enumerate()
        .map(|(i, q)| {
            json!({"type": q["type"], "focus": format!("what question {} asks", i + 1),
                   "misconception": "that send retries forever", "diagram": "", "anchor": null})
        })
        .collect();
    FakeMessages::start(move |r, _| {
        if r.json()["tool_choice"]["name"] == "plan_quiz" {
            return Reply::tool_input(json!({ "slots": slots }));
        }
        if r.json()["tool_choice"]["name"] != "submit_question" {
            return Reply::grade(1, "ok");
        }
        let slot = crate::generate_pipeline::slot_of(r);
        let mut q = questions[slot - 1].clone();
        q.as_object_mut().unwrap().remove("id");
        match drafts[slot - 1] {
            Draft::After(secs) => Reply::tool_input(q).after(Duration::from_secs(secs)),
            Draft::Invalid => {
                let mut q = questions[0].clone();
                q.as_object_mut().unwrap().remove("id");
                q["answer"] = json!("never");
                Reply::tool_input(q)
            }
        }
    })
}

fn env(t: &Tmux, server: &FakeMessages) -> String {
    format!(
        "XDG_CACHE_HOME={data}/cache XDG_CONFIG_HOME={data}/config XDG_STATE_HOME={data}/state \
         GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null QUIZZ_GRADER=anthropic \
         ANTHROPIC_API_KEY=test-key ANTHROPIC_BASE_URL={} QUIZZ_GENERATE=pipeline",
        server.url,
        data = t.data.display()
    )
}

/// Starts `quizz args` at `w`x`h` in a new repository, with `server` as the model: returns
/// the repository, which must outlive the take.
fn take_growing(t: &Tmux, server: &FakeMessages, (w, h): (u16, u16), args: &str) -> Repo {
    let repo = Repo::new();
    t.start_at(&repo.path, w, h, args, &env(t, server));
    repo
}

/// The saved attempts (not the locks), and their answers.
fn attempts(t: &Tmux) -> Vec<(String, Value)> {
    crate::messages_fake::json_files(&t.data.join("quizz/attempts"))
        .into_iter()
        .map(|p| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), v)
        })
        .collect()
}

#[test]
fn question_1_is_answered_while_question_3_is_written_and_a_dropped_question_4_touches_none() {
    let Some(t) = Tmux::new("growing-drop") else {
        return;
    };
    let server = writer([
        Draft::After(0),
        Draft::After(1),
        Draft::After(12),
        Draft::Invalid,
    ]);
    let repo = take_growing(&t, &server, (80, 24), "take --local");
    let screen = t.wait_for("Question 1/");
    assert!(
        screen.contains("3✎"),
        "q3 shows as being written:\n{screen}"
    );
    assert!(screen.contains("being written"), "{screen}");
    assert!(screen.contains("Esc stop writing"), "{screen}");
    // q1 answered (the option under the cursor) while q3 is still being written.
    t.keys(&["Enter"]);
    let screen = t.wait_for("▸1●");
    assert!(screen.contains("3✎"), "{screen}");
    t.wait_for("2·");
    t.keys(&["n"]);
    t.wait_for("Question 2/");
    t.keys(&["Enter"]);
    t.wait_for("▸2●");
    // Past the last ready question: it says so, and opens q3 when it arrives.
    t.keys(&["n"]);
    let screen = t.wait_for("question 3 is still being written");
    assert!(!screen.contains("Review"), "{screen}");
    t.keys(&["s"]);
    t.wait_for("wait for all");
    let screen = t.wait_for("Question 3/3");
    // q4 kept failing its checks: left out, and the quiz is q1–q3 with both answers.
    assert!(!screen.contains("4✎"), "{screen}");
    assert!(screen.contains("1●") && screen.contains("2●"), "{screen}");
    t.wait_for("All 3 questions are written");
    let saved = attempts(&t);
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert!(!saved[0].0.starts_with("writing-"), "{saved:?}");
    assert_eq!(
        saved[0].1["answers"].as_object().unwrap().len(),
        2,
        "{saved:?}"
    );
    t.keys(&["q"]);
    t.wait_for("Quit now?");
    t.keys(&["y"]);
    t.wait_for("[quizz exited 0]");
    // The kept quiz, taken again, has the same answers.
    t.start_at(&repo.path, 80, 24, "take --local", &env(&t, &server));
    t.wait_for("Resuming   2 of 3 answered");
}

#[test]
fn esc_stops_the_writing_and_keeps_the_questions_written_with_their_answers() {
    let Some(t) = Tmux::new("growing-stop") else {
        return;
    };
    let server = writer([
        Draft::After(0),
        Draft::After(1),
        Draft::After(120),
        Draft::After(120),
    ]);
    let repo = take_growing(&t, &server, (80, 24), "take --local");
    t.wait_for("Question 1/");
    t.keys(&["Enter"]);
    t.wait_for("▸1●");
    t.wait_for("2·");
    t.keys(&["Escape"]);
    let screen = t.wait_for("Stop writing");
    assert!(screen.contains("take the 2 questions written"), "{screen}");
    t.keys(&["y"]);
    let screen = t.wait_for("you keep the 2 questions written");
    assert!(!screen.contains("3✎"), "{screen}");
    let saved = attempts(&t);
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert_eq!(saved[0].1["answers"].as_object().unwrap().len(), 1);
    t.keys(&["q"]);
    t.wait_for("Quit now?");
    t.keys(&["y"]);
    let screen = t.wait_for("[quizz exited");
    assert!(screen.contains("Answers saved (1 of 2)"), "{screen}");
    let asked = server.posts().len();
    // The next take finds the kept quiz and its answer, and asks the model nothing.
    t.start_at(&repo.path, 80, 24, "take --local", &env(&t, &server));
    let screen = t.wait_for("Resuming   1 of 2 answered");
    assert!(screen.contains("Questions  2 (2 mcq)"), "{screen}");
    assert_eq!(server.posts().len(), asked);
}

/// Question 2 arrives after the UI opened, anchored in the code: `c` shows its code (read
/// when it arrives; question 1 has none, so none was read as the UI opened).
#[test]
fn a_question_that_arrives_anchored_shows_its_code() {
    let Some(t) = Tmux::new("growing-code") else {
        return;
    };
    let server = writer_of(
        [
            Draft::After(0),
            Draft::After(2),
            Draft::After(120),
            Draft::After(120),
        ],
        |questions| {
            questions[0]["anchor"] = Value::Null;
            questions[1]["anchor"] =
                json!({"path": "src/retry.rs", "start_line": 3, "end_line": 3});
        },
    );
    let _repo = take_growing(&t, &server, (120, 30), "take --local");
    t.wait_for("Question 1/");
    t.wait_for("2·");
    t.keys(&["n"]);
    let screen = t.wait_for("Question 2/");
    assert!(!screen.contains("retry_send()"), "{screen}");
    t.keys(&["c"]);
    let screen = t.wait_for("retry_send()");
    assert!(screen.contains("src/retry.rs"), "{screen}");
    t.keys(&["q"]);
    t.wait_for("[quizz exited");
}

/// A plain take, its stdout and stderr in one file (the transcript in the order it was
/// written), `input` written to its stdin, which stays open until [`Self::finish`].
pub struct Transcribed {
    pub child: std::process::Child,
    stdin: std::process::ChildStdin,
    log: tempfile::NamedTempFile,
}

/// Answers to the four questions of [`writer`], in plain mode.
pub const ANSWERS: &[u8] = b"1\n1\nt\nIt fails twice only when the server is down.\n.\n";

impl Transcribed {
    pub fn start(mut command: std::process::Command, input: &[u8]) -> Self {
        use std::io::Write as _;
        let log = tempfile::NamedTempFile::new().unwrap();
        let out = log.reopen().unwrap();
        let mut child = command
            .stdin(std::process::Stdio::piped())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input).unwrap();
        Self { child, stdin, log }
    }

    pub fn text(&self) -> String {
        std::fs::read_to_string(self.log.path()).unwrap()
    }

    /// Closes its stdin and waits for it: its exit status and transcript.
    pub fn finish(self) -> (std::process::ExitStatus, String) {
        let Self {
            mut child,
            stdin,
            log,
        } = self;
        drop(stdin);
        let status = child.wait().unwrap();
        (status, std::fs::read_to_string(log.path()).unwrap())
    }
}

/// Where `text` first is in `transcript` (the test fails when it is not there).
#[track_caller]
pub fn at(transcript: &str, text: &str) -> usize {
    transcript
        .find(text)
        .unwrap_or_else(|| panic!("{text:?} in:\n{transcript}"))
}

/// Plain mode: question 1 is asked, and answered, before question 3 is written; the
/// grading waits for every question.
#[test]
fn a_plain_take_asks_question_1_before_question_3_is_written() {
    let repo = Repo::new();
    let server = writer([
        Draft::After(0),
        Draft::After(0),
        Draft::After(3),
        Draft::After(3),
    ]);
    let home = repo.home.path();
    let mut take = repo.quizz(&server, &["take", "--local", "--plain"]);
    take.env("QUIZZ_GENERATE", "pipeline");
    let (status, transcript) = Transcribed::start(take, ANSWERS).finish();
    assert!(status.success(), "{transcript}");
    let at = |text: &str| at(&transcript, text);
    let q3_ready = at("question q3 is ready");
    assert!(at("Question 1 of 4") < q3_ready, "{transcript}");
    assert!(
        at("Question 2 of 4") < q3_ready,
        "q1 was answered: {transcript}"
    );
    assert!(at("still being written") < q3_ready, "{transcript}");
    assert!(q3_ready < at("Question 3 of 4"), "{transcript}");
    assert!(
        at("quiz ready: 4 questions") < at("Results: "),
        "{transcript}"
    );
    let saved = crate::messages_fake::json_files(&home.join("data/quizz/attempts"));
    assert_eq!(saved.len(), 1, "{saved:?} {transcript}");
}

/// Plain mode with no input while the quiz is written: as with the demo, the end of
/// input before any answer says so and exits 0 (with one question written it said
/// "cancelled: no quiz was written" and exited 1), and says what became of the writing.
#[test]
fn a_plain_take_with_no_input_ends_as_the_demo_does() {
    for (drafts, kept) in [
        (
            [
                Draft::After(0),
                Draft::After(5),
                Draft::After(5),
                Draft::After(5),
            ],
            "only 1 question was written, too few for a quiz: the next take writes a fresh one",
        ),
        (
            [
                Draft::After(0),
                Draft::After(0),
                Draft::After(5),
                Draft::After(5),
            ],
            "the quiz is the 2 questions written, kept",
        ),
    ] {
        let repo = Repo::new();
        let server = writer(drafts);
        let mut take = repo.quizz(&server, &["take", "--local", "--plain"]);
        take.env("QUIZZ_GENERATE", "pipeline");
        let (status, transcript) = Transcribed::start(take, b"").finish();
        // Lines wrap at 80 columns in a pipe.
        let said = transcript.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(status.success(), "{transcript}");
        assert!(
            said.contains("(input ended before any answer was given: nothing is graded or posted;"),
            "{transcript}"
        );
        assert!(said.contains(kept), "{transcript}");
        assert!(!said.contains("cancelled"), "{transcript}");
    }
}

/// Plain mode at a terminal narrower than its notes: the wait for question 3 is said on
/// stderr broken between words, as the questions on stdout are.
#[test]
fn a_plain_take_wraps_its_notes_to_the_terminal() {
    let Some(t) = Tmux::new("growing-plain-wrap") else {
        return;
    };
    let server = writer([
        Draft::After(0),
        Draft::After(0),
        Draft::After(120),
        Draft::After(120),
    ]);
    let _repo = take_growing(&t, &server, (45, 40), "take --local --plain");
    t.wait_for("Question 1 of 4");
    t.keys(&["1", "Enter"]);
    t.wait_for("Question 2 of 4");
    t.keys(&["1", "Enter"]);
    let screen = t.wait_for("so far, 0:");
    let rows: Vec<&str> = screen.lines().map(str::trim_end).collect();
    let first = rows
        .iter()
        .position(|r| r.starts_with("quizz: the next question"))
        .unwrap();
    assert_eq!(
        rows[first], "quizz: the next question is still being",
        "{screen}"
    );
    assert!(
        rows[first + 1].starts_with("written (2 questions so far, 0:"),
        "{screen}"
    );
}

/// Plain mode: Ctrl-C while question 3 is written keeps the two questions written, with
/// question 1's answer; the next take resumes there and asks the model nothing.
#[test]
fn a_plain_take_interrupted_while_question_3_is_written_keeps_what_was_written() {
    let repo = Repo::new();
    let server = writer([
        Draft::After(0),
        Draft::After(0),
        Draft::After(120),
        Draft::After(120),
    ]);
    let mut take = repo.quizz(&server, &["take", "--local", "--plain"]);
    take.env("QUIZZ_GENERATE", "pipeline");
    let take = Transcribed::start(take, b"1\n");
    let transcript = || take.text();
    // q2 is asked once q1's answer is saved.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !transcript().contains("Question 2 of 4") {
        assert!(std::time::Instant::now() < deadline, "{}", transcript());
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !transcript().contains("question q3 is ready"),
        "{}",
        transcript()
    );
    let pid = take.child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let (status, said) = take.finish();
    assert_eq!(status.code(), Some(130), "{said}");
    assert!(
        said.contains("the quiz is the 2 questions written, kept with your answers"),
        "{said}"
    );
    let asked = server.posts().len();
    let next = repo
        .quizz(&server, &["take", "--local", "--plain"])
        .env("QUIZZ_GENERATE", "pipeline")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let next = format!(
        "{}{}",
        String::from_utf8_lossy(&next.stdout),
        String::from_utf8_lossy(&next.stderr)
    );
    assert!(next.contains("Resuming: 1 of 2 answered"), "{next}");
    assert_eq!(server.posts().len(), asked, "the kept quiz: {next}");
}

/// Not a test: serves a slow pipeline for trying `take --local` by hand (slot k's question
/// after k × `QUIZZ_FAKE_DELAY` seconds, default 4) for `QUIZZ_SERVE_SECS` (default 600),
/// and prints the environment and the repository to try it in:
/// `cargo test --test it tui_growing::serve -- --ignored --nocapture`.
#[test]
#[ignore = "a tool for trying quizz by hand, not a test"]
fn serve_a_slow_pipeline() {
    let secs = |var: &str, default: u64| {
        std::env::var(var)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let delay = secs("QUIZZ_FAKE_DELAY", 4);
    let repo = Repo::new();
    let server = writer([
        Draft::After(delay),
        Draft::After(2 * delay),
        Draft::After(3 * delay),
        Draft::After(4 * delay),
    ]);
    eprintln!(
        "cd {}\nexport QUIZZ_GENERATE=pipeline QUIZZ_GRADER=anthropic ANTHROPIC_API_KEY=test-key ANTHROPIC_BASE_URL={}\nquizz take --local",
        repo.path.display(),
        server.url
    );
    std::thread::sleep(Duration::from_secs(secs("QUIZZ_SERVE_SECS", 600)));
}
