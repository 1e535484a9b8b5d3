//! Issue 19, items 1–6: a grade, a score and a comment are never lost, overwritten or
//! doubled. Through the real binary, against the fake GitHub and the fake Messages API.

// Scenario helpers outside #[test] functions: a panic is the test failing.

use std::io::{BufRead, BufReader, Write};

use serde_json::Value;

use crate::github_fake::{
    ANSWERS, Api, BOT, OTHER_ANSWERS, Run, Sandbox, TAKER, seed_quiz_comment,
};
use crate::messages_fake::fake_messages::{FakeMessages, Reply};
use crate::messages_fake::{json_files, quizz, run_with_input, text};

const KEY: &str = "sk-ant-trust-test-key";
/// The demo quiz answered in full, with an open answer for q5.
const DEMO_INPUT: &str = "1\nf\n2\nf\nIt forces the only tool.\n.\nD\n";

fn demo_take(
    data: &std::path::Path,
    grader: Option<&FakeMessages>,
    args: &[&str],
    input: &str,
) -> String {
    let mut cmd = quizz(data);
    cmd.args(["take", "--demo", "--plain"]).args(args);
    if let Some(server) = grader {
        cmd.env("ANTHROPIC_API_KEY", KEY)
            .env("ANTHROPIC_BASE_URL", &server.url);
    }
    let out = run_with_input(&mut cmd, input);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// The one attempt saved under `data`.
fn saved_attempt(data: &std::path::Path) -> Value {
    let files = json_files(&data.join("data/quizz/attempts"));
    assert_eq!(files.len(), 1, "{files:?}");
    serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap()
}

/// One question's result in a saved attempt.
fn result_of(attempt: &Value, id: &str) -> Value {
    attempt["results"]["per_question"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["question_id"] == id)
        .cloned()
        .unwrap_or(Value::Null)
}

/// Item 1: a graded attempt taken again in plain mode shows its results; its grades stay,
/// whatever the grader does (none, 429, working: never called again).
#[test]
fn a_graded_plain_attempt_is_final_and_keeps_its_grades() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let grader = FakeMessages::sequence(vec![Reply::grade(90, "Names the forcing.")]);
    let first = demo_take(data, Some(&grader), &[], DEMO_INPUT);
    assert!(first.contains("graded  q5: 90%"), "{first}");
    assert_eq!(grader.posts().len(), 1);
    let first_results = saved_attempt(data);
    assert_eq!(result_of(&first_results, "q5")["score"], 90);

    // No grader, empty input.
    let again = demo_take(data, None, &[], "");
    assert!(
        again.contains("This attempt is graded, and final"),
        "{again}"
    );
    assert!(!again.contains("provisional"), "{again}");
    assert_eq!(
        saved_attempt(data)["results"],
        first_results["results"],
        "{again}"
    );
    // A grader that answers 429, and a working one: neither is called.
    let busy = FakeMessages::sequence(vec![Reply::error(429, "rate_limit_error", "slow down")]);
    demo_take(data, Some(&busy), &[], "");
    demo_take(data, Some(&grader), &[], DEMO_INPUT);
    assert!(busy.posts().is_empty());
    assert_eq!(
        grader.posts().len(),
        1,
        "unchanged answers are never paid for again"
    );
    let kept = saved_attempt(data);
    assert_eq!(kept["results"], first_results["results"]);
    assert_eq!(result_of(&kept, "q5")["feedback"], "Names the forcing.");

    // A new attempt only when asked; the score is kept among the earlier ones.
    let fresh = demo_take(data, Some(&grader), &["--new-attempt"], DEMO_INPUT);
    assert!(fresh.contains("Question 1 of 6"), "{fresh}");
    assert_eq!(grader.posts().len(), 2);
    let total = first_results["results"]["total_score"].clone();
    assert_eq!(
        saved_attempt(data)["earlier_scores"],
        Value::from(vec![total])
    );
}

/// Item 1: taking a graded attempt again grades only what is pending, and keeps the rest.
#[test]
fn taking_a_graded_attempt_again_grades_only_what_is_pending() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let (quiz, _) = crate::messages_fake::open_quiz(data, 2);
    let quiz = quiz.to_str().unwrap().to_string();
    // o1 is graded; o2's grading fails, so it stays pending.
    let flaky = FakeMessages::start(|r, _| {
        if r.body.contains("Explain part 2") {
            Reply::error(400, "invalid_request_error", "refused")
        } else {
            Reply::grade(70, "Partly.")
        }
    });
    let take = |server: &FakeMessages, input: &str| {
        let mut cmd = quizz(data);
        cmd.args(["take", "--file", &quiz, "--plain"])
            .env("ANTHROPIC_API_KEY", KEY)
            .env("ANTHROPIC_BASE_URL", &server.url);
        let out = run_with_input(&mut cmd, input);
        format!("{}{}", text(&out.stdout), text(&out.stderr))
    };
    let first = take(&flaky, "one\n.\ntwo\n.\n");
    let attempt = || saved_attempt(data);
    let pending = attempt();
    assert_eq!(result_of(&pending, "o1")["score"], 70, "{first}");
    assert_eq!(
        pending["results"]["pending"],
        Value::from(vec!["o2"]),
        "{first}"
    );

    let grader = FakeMessages::sequence(vec![Reply::grade(95, "Good.")]);
    let again = take(&grader, "");
    assert_eq!(grader.posts().len(), 1, "only o2 is graded:\n{again}");
    assert!(grader.posts()[0].body.contains("Explain part 2"), "{again}");
    let done = attempt();
    assert_eq!(
        result_of(&done, "o1")["score"],
        70,
        "o1 keeps its grade:\n{again}"
    );
    assert_eq!(result_of(&done, "o2")["score"], 95, "{again}");
    assert_eq!(done["answers"], pending["answers"]);
}

/// Item 1: `quizz grade --regrade` whose grader fails keeps the grade it had.
#[test]
fn a_failed_regrade_keeps_the_grade() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let (quiz, _) = crate::messages_fake::open_quiz(data, 1);
    let quiz = quiz.to_str().unwrap().to_string();
    let with = |server: &FakeMessages, args: &[&str], input: &str| {
        let mut cmd = quizz(data);
        cmd.args(args)
            .env("ANTHROPIC_API_KEY", KEY)
            .env("ANTHROPIC_BASE_URL", &server.url);
        run_with_input(&mut cmd, input)
    };
    let grader = FakeMessages::sequence(vec![Reply::grade(70, "Partly.")]);
    with(&grader, &["take", "--file", &quiz, "--plain"], "one\n.\n");
    assert_eq!(result_of(&saved_attempt(data), "o1")["score"], 70);
    let refusing =
        FakeMessages::sequence(vec![Reply::error(400, "invalid_request_error", "refused")]);
    let out = with(&refusing, &["grade", "--file", &quiz, "--regrade"], "");
    assert!(!out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr)
            .contains("1 open answer could not be graded again (o1): the earlier grade is kept"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(refusing.posts().len(), 1);
    let kept = saved_attempt(data);
    assert_eq!(result_of(&kept, "o1")["score"], 70, "{kept}");
    assert!(
        kept["results"]["pending"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{kept}"
    );
}

fn repo_with_quiz(api: &Api, name: &str) -> (String, u64) {
    let repo = api.repo(name);
    api.fake.add_pull(&repo, 7, "octo", "feature");
    let quiz = api
        .fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    (repo, quiz)
}

fn own_comments(api: &Api, repo: &str) -> Vec<crate::github_fake::fake_github::StoredComment> {
    api.fake
        .comments(repo, 7)
        .into_iter()
        .filter(|c| c.login == TAKER && c.body.contains("quizz:results"))
        .collect()
}

/// `Results: 66% — …` → 66.
fn score_of(run: &Run) -> u64 {
    let at = run.stdout.find("Results: ").expect("a results line") + "Results: ".len();
    run.stdout[at..].split('%').next().unwrap().parse().unwrap()
}

fn total_in(body: &str) -> u64 {
    let at = body.find("**Total: ").unwrap() + "**Total: ".len();
    body[at..].split('%').next().unwrap().parse().unwrap()
}

fn results_row(sb: &Sandbox, repo: &str) -> Value {
    let run = sb.run(&["results", "7", "--repo", repo, "--json"], "");
    run.ok();
    let rows: Vec<Value> = serde_json::from_str(&run.stdout).unwrap();
    rows.into_iter()
        .find(|r| r["author"] == TAKER)
        .expect("alice's row")
}

/// Item 2: a POST whose answer was lost (queued), then a newer attempt posted from another
/// machine and one from this machine: `quizz post` never sends the old attempt over them.
#[test]
fn an_old_outbox_entry_never_overwrites_newer_posted_results() {
    let api = Api::direct();
    for round in 0..20 {
        let (repo, _) = repo_with_quiz(&api, "outbox-old");
        let laptop = Sandbox::new(&api);
        let post = ["take", "7", "--repo", &repo, "--plain", "--post"];
        api.fake.post_then_502(&repo);
        laptop.run(&post, ANSWERS).post_failed();

        // Alternately: the newer attempt is posted from another machine (the laptop's
        // entry stays queued), or from this one with --new-attempt.
        let newer = if round % 2 == 0 {
            let desktop = Sandbox::new(&api);
            desktop.run(&post, OTHER_ANSWERS)
        } else {
            let again = crate::github_fake::retake_and_post(&repo);
            let run = laptop.run(&again, OTHER_ANSWERS);
            assert!(
                run.stdout
                    .contains("Dropped the results of an earlier attempt"),
                "{}",
                run.all()
            );
            run
        };
        newer.ok();
        let newest = score_of(&newer);

        let sent = laptop.run(&["post"], "");
        sent.ok();
        if round % 2 == 0 {
            assert!(
                sent.stdout.contains("holds a newer attempt"),
                "{}",
                sent.all()
            );
        } else {
            assert!(sent.stdout.contains("Nothing waiting"), "{}", sent.all());
        }
        let mine = own_comments(&api, &repo);
        assert_eq!(mine.len(), 1, "round {round}: {mine:#?}");
        assert_eq!(
            total_in(&mine[0].body),
            newest,
            "round {round}: {}",
            mine[0].body
        );
        let row = results_row(&laptop, &repo);
        assert_eq!(row["attempts"], 2, "round {round}: {row}");
        assert_eq!(row["total_score"], newest, "round {round}: {row}");
        assert!(
            laptop
                .run(&["status"], "")
                .stdout
                .contains("Nothing waiting to be posted.")
        );
    }
}

/// A `quizz` take running in the background: its output read line by line.
struct Background {
    child: std::process::Child,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Background {
    fn start(sb: &Sandbox, args: &[&str]) -> Self {
        let mut child = sb.spawn(args);
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self { child, stdout }
    }

    /// Reads output until a line holds `needle`.
    fn wait_for(&mut self, needle: &str) {
        let mut seen = String::new();
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "ended before {needle:?}:\n{seen}"
            );
            seen.push_str(&line);
            if line.contains(needle) {
                return;
            }
        }
    }

    fn finish(mut self, input: &str) -> Run {
        let mut stdin = self.child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).unwrap();
        drop(stdin);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        let out = self.child.wait_with_output().unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: rest,
            stderr: text(&out.stderr),
        }
    }
}

/// Item 3: the same person posts from another machine while a take runs; the take edits
/// that comment instead of adding a second one.
#[test]
fn a_comment_posted_from_another_machine_during_a_take_is_edited_not_doubled() {
    let api = Api::direct();
    for round in 0..20 {
        let (repo, quiz) = repo_with_quiz(&api, "two-machines");
        let sb = Sandbox::new(&api);
        let mut take = Background::start(&sb, &["take", "7", "--repo", &repo, "--plain", "--post"]);
        // The take has read the comments and waits for the first answer.
        take.wait_for("Question 1 of 6");
        let other = quizz::quiz::Results {
            pr_number: 7,
            total_score: 12,
            ..quizz::quiz::Results::default()
        };
        let stamp = quizz::store::AttemptStamp {
            number: 1,
            id: "0ther000".into(),
            graded_at_ms: 1_000,
        };
        let body =
            quizz::github::comments::results_body(&other, TAKER, quiz, Some(&stamp), None).unwrap();
        let theirs = api.fake.add_comment(&repo, 7, TAKER, "User", &body);
        let run = take.finish(ANSWERS);
        run.ok();
        assert!(
            run.stdout.contains("Updated your results comment"),
            "{}",
            run.all()
        );
        let mine = own_comments(&api, &repo);
        assert_eq!(mine.len(), 1, "round {round}: {mine:#?}");
        assert_eq!(mine[0].id, theirs);
        assert_eq!(total_in(&mine[0].body), score_of(&run), "round {round}");
        assert!(
            mine[0].body.contains("Earlier attempts: 12% ("),
            "{}",
            mine[0].body
        );
    }
}

/// Item 4: two `quizz post` at once send one waiting result once.
#[test]
fn two_quizz_post_at_once_post_once() {
    let api = Api::direct();
    // Each POST lands only after both posts had time to look for the taker's comment.
    api.fake.delay_posts(std::time::Duration::from_millis(300));
    for round in 0..20 {
        let (repo, _) = repo_with_quiz(&api, "two-posts");
        let mut sb = Sandbox::new(&api);
        // Queued, confirmed: the take had no token to post with.
        sb.unset("GH_TOKEN");
        let queued = sb.run(
            &["take", "7", "--repo", &repo, "--plain", "--post"],
            ANSWERS,
        );
        queued.post_failed();
        sb.set("GH_TOKEN", crate::github_fake::TOKEN);
        let (a, b) = (sb.spawn(&["post"]), sb.spawn(&["post"]));
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        let both = format!(
            "{}{}{}{}",
            text(&a.stdout),
            text(&a.stderr),
            text(&b.stdout),
            text(&b.stderr)
        );
        assert!(a.status.success() && b.status.success(), "{both}");
        assert_eq!(both.matches("posted your results").count(), 1, "{both}");
        assert!(
            both.contains("Nothing waiting to be posted.")
                || both.contains("sent meanwhile by another `quizz post`"),
            "{both}"
        );
        let mine = own_comments(&api, &repo);
        assert_eq!(mine.len(), 1, "round {round}: {mine:#?}\n{both}");
        assert_eq!(total_in(&mine[0].body), score_of(&queued));
    }
}

/// Item 5: a take that read no answers grades nothing and queues nothing; what a take
/// queued unconfirmed is posted only with --yes when `quizz post` cannot ask.
#[test]
fn an_empty_stdin_grades_nothing_and_unconfirmed_results_need_yes() {
    let api = Api::direct();
    let (repo, _) = repo_with_quiz(&api, "empty-stdin");
    let sb = Sandbox::new(&api);
    let empty = sb.run(&["take", "7", "--repo", &repo, "--plain"], "");
    empty.ok();
    assert!(
        empty
            .stdout
            .contains("input ended before any answer was given: nothing is graded or posted"),
        "{}",
        empty.all()
    );
    assert!(!empty.stdout.contains("Results:"), "{}", empty.all());
    assert!(
        sb.run(&["status"], "")
            .stdout
            .contains("Nothing waiting to be posted.")
    );

    // Answers, no terminal to confirm at: queued unconfirmed.
    let take = sb.run(&["take", "7", "--repo", &repo, "--plain"], ANSWERS);
    take.ok();
    let post = sb.run(&["post"], "");
    assert_eq!(post.code, 1, "{}", post.all());
    assert!(
        post.stderr
            .contains("queued just now: not confirmed: the take could not ask"),
        "{}",
        post.all()
    );
    assert!(post.stderr.contains("quizz post --yes"), "{}", post.all());
    assert!(
        own_comments(&api, &repo).is_empty(),
        "nothing posted without asking"
    );
    let yes = sb.run(&["post", "--yes"], "");
    yes.ok();
    assert!(yes.stdout.contains("posted your results"), "{}", yes.all());
    assert_eq!(own_comments(&api, &repo).len(), 1);
}

/// Item 5: `quizz post` at a terminal shows each waiting result and posts it only on `y`.
#[test]
fn quizz_post_at_a_terminal_shows_the_result_and_asks() {
    let Some(t) = crate::tmux::Tmux::new("post-asks") else {
        return;
    };
    let api = Api::direct();
    let (repo, _) = repo_with_quiz(&api, "post-asks");
    let home = t.data.display().to_string();
    let env = [
        ("HOME", home.clone()),
        ("XDG_DATA_HOME", home.clone()),
        ("XDG_CONFIG_HOME", format!("{home}/config")),
        ("XDG_CACHE_HOME", format!("{home}/cache")),
        ("QUIZZ_GH", format!("{home}/no-gh")),
        ("GITHUB_API_URL", api.base.clone()),
        ("GH_TOKEN", crate::github_fake::TOKEN.to_string()),
    ];
    // Queued unconfirmed: the take could not ask.
    let mut take = quizz(&t.data);
    take.args(["take", "7", "--repo", &repo, "--plain"])
        .envs(env.clone());
    let out = run_with_input(&mut take, ANSWERS);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let score = text(&out.stdout)
        .split("Results: ")
        .nth(1)
        .and_then(|r| r.split('%').next())
        .unwrap()
        .to_string();
    let env: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let env = env.join(" ");
    for (answer, said) in [("n", "kept in the outbox."), ("y", "posted your results")] {
        t.start(120, 20, "post", &env);
        let screen = t.wait_for("Post it as your results comment? [y/N]");
        assert!(
            screen.contains(&format!("{repo}#7: {score}%")) && screen.contains("queued just now"),
            "{screen}"
        );
        t.keys(&[answer, "Enter"]);
        let screen = t.wait_for("[quizz exited 0]");
        assert!(screen.contains(said), "{screen}");
    }
    assert_eq!(own_comments(&api, &repo).len(), 1);
}

// Item 6 (`take --post` exits 1 when the post fails) is asserted by every test whose
// `--post` fails: github_errors::an_unclear_post_failure_never_duplicates_the_comment,
// posting_without_a_token_queues_and_says_how_to_log_in, github_e2e's offline take
// (`Run::post_failed`), and the item 2 and 4 tests above.
