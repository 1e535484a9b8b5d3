//! `quizz results` end to end (issue 13, part 1): every taker's latest results on a PR,
//! verified / stale / attempts, the table and the JSON, and what a second run costs.
//! Against the fake GitHub directly and through Prism's validating proxy.

// Scenario helpers outside #[test] functions: a panic is the test failing.

use crate::github_fake as support;

use quizz::quiz::{QuestionResult, Results};
use serde_json::Value;
use support::{ANSWERS, Api, BOT, OTHER_ANSWERS, Sandbox, TAKER, seed_quiz_comment};

fn results(score: u32, right: usize, wrong: usize, pending: usize) -> Results {
    let per_question = (0..right + wrong)
        .map(|i| QuestionResult {
            question_id: format!("q{i}"),
            correct: i < right,
            score: if i < right { 100 } else { 0 },
            feedback: String::new(),
            confidence: None,
            extra: serde_json::Map::new(),
        })
        .collect();
    Results {
        pr_number: 7,
        total_score: score,
        per_question,
        pending: (0..pending).map(|i| format!("o{i}")).collect(),
        ..Results::default()
    }
}

/// quizz's own results comment for `taker` and quiz comment `quiz`.
fn quizz_comment(r: &Results, taker: &str, quiz: u64) -> String {
    quizz::github::comments::results_body(r, taker, quiz, None, None).unwrap()
}

/// The original tool's results comment (no taker, no quiz in the marker).
fn original_comment(r: &Results) -> String {
    quizz::comment::render_results_comment(r).unwrap()
}

/// A PR with an old quiz, results of several takers (one forged), and the current quiz.
fn busy_pr(api: &Api) -> (String, u64, u64) {
    let repo = api.repo("results");
    api.fake.add_pull(&repo, 7, "octo", "feature");
    let old_quiz = api
        .fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    // bob took the old quiz with quizz; dave with the original tool.
    api.fake.add_comment(
        &repo,
        7,
        "bob",
        "User",
        &quizz_comment(&results(100, 6, 0, 0), "bob", old_quiz),
    );
    api.fake.add_comment(
        &repo,
        7,
        "dave",
        "User",
        &original_comment(&results(40, 2, 3, 0)),
    );
    api.fake.add_comment(&repo, 7, "erin", "User", "LGTM");
    let quiz = api
        .fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    // carol took the current quiz with the original tool: one open answer pending.
    api.fake.add_comment(
        &repo,
        7,
        "carol",
        "User",
        &original_comment(&results(66, 4, 1, 1)),
    );
    (repo, old_quiz, quiz)
}

fn results_show_verified_stale_and_attempts(api: &Api) {
    let (repo, old_quiz, quiz) = busy_pr(api);
    let sb = Sandbox::new(api);
    // alice takes the quiz twice with quizz: one comment, edited, with a history line.
    let take = ["take", "7", "--repo", &repo, "--plain", "--post"];
    sb.run(&take, ANSWERS).ok();
    let again = support::retake_and_post(&repo);
    sb.run(&again, OTHER_ANSWERS).ok();
    // mallory pastes a results block that names alice, with a perfect score.
    api.fake.add_comment(
        &repo,
        7,
        "mallory",
        "User",
        &quizz_comment(&results(100, 6, 0, 0), TAKER, quiz),
    );

    let run = sb.run(&["results", "7", "--repo", &repo, "--json"], "");
    run.ok();
    let rows: Vec<Value> = serde_json::from_str(&run.stdout).unwrap();
    let by = |author: &str| {
        rows.iter()
            .find(|r| r["author"] == author)
            .unwrap_or_else(|| panic!("no row by {author}: {rows:#?}"))
    };
    assert_eq!(rows.len(), 5, "{rows:#?}");
    for row in &rows {
        for field in [
            "taker",
            "total_score",
            "correct",
            "questions",
            "pending",
            "attempts",
            "updated_at",
            "url",
            "verified",
            "stale",
        ] {
            assert!(row.get(field).is_some(), "{field} missing: {row}");
        }
    }
    let alice = by(TAKER);
    assert_eq!(alice["taker"], TAKER);
    assert_eq!(alice["verified"], true);
    assert_eq!(alice["stale"], false);
    assert_eq!(alice["attempts"], 2, "{alice}");
    assert_eq!(alice["questions"], 6, "{alice}");
    assert_eq!(alice["quiz_comment_id"], quiz);
    let forged = by("mallory");
    assert_eq!(forged["taker"], TAKER);
    assert_eq!(forged["verified"], false);
    let bob = by("bob");
    assert_eq!(
        (&bob["stale"], &bob["quiz_comment_id"]),
        (&Value::from(true), &Value::from(old_quiz))
    );
    let dave = by("dave");
    assert_eq!(
        (&dave["taker"], &dave["stale"]),
        (&Value::from("dave"), &Value::from(true))
    );
    let carol = by("carol");
    assert_eq!(carol["verified"], true);
    assert_eq!(carol["stale"], false);
    assert_eq!(
        (&carol["correct"], &carol["questions"], &carol["pending"]),
        (&Value::from(4), &Value::from(6), &Value::from(1))
    );
    assert!(
        carol["url"]
            .as_str()
            .unwrap()
            .starts_with(&format!("https://github.com/{repo}/pull/7#issuecomment-")),
        "{carol}"
    );
    // Best score first.
    let scores: Vec<u64> = rows
        .iter()
        .map(|r| r["total_score"].as_u64().unwrap())
        .collect();
    let mut sorted = scores.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(scores, sorted);
    assert!(
        run.stderr
            .contains("current quiz: the comment by @quiz-bot[bot]"),
        "{}",
        run.stderr
    );

    the_table_says_the_same(&sb, &repo);
}
both!(results_show_verified_stale_and_attempts);

fn the_table_says_the_same(sb: &Sandbox, repo: &str) {
    let table = sb.run(&["results", "7", "--repo", repo], "");
    table.ok();
    let out = &table.stdout;
    assert!(out.starts_with("TAKER"), "{out}");
    let line = |who: &str| {
        out.lines()
            .find(|l| l.starts_with(who))
            .unwrap_or_else(|| panic!("no line for {who}:\n{out}"))
            .to_string()
    };
    assert!(
        line("alice?").contains("unverified: posted by @mallory"),
        "{out}"
    );
    assert!(line("bob").contains("stale: an older quiz"), "{out}");
    assert!(line("carol").contains("66%"), "{out}");
    assert!(line("carol").contains("4/6"), "{out}");
    assert!(out.contains("2 people took this quiz · best "), "{out}");
    assert!(out.contains("1 unverified (not counted)"), "{out}");
}

/// The request counts of `quizz results` (printed for the record): a first run on a PR with
/// few comments is one listing; a second run with nothing new is one request, answered 304.
#[test]
fn a_second_results_run_with_nothing_new_costs_one_request_answered_304() {
    let api = Api::direct();
    let (repo, _, _) = busy_pr(&api);
    let sb = Sandbox::new(&api);
    let args = ["results", "7", "--repo", &repo];
    let before = api.fake.all_requests().len();
    sb.run(&args, "").ok();
    let first = api.fake.all_requests()[before..].to_vec();
    sb.run(&args, "").ok();
    let second = api.fake.all_requests()[before + first.len()..].to_vec();
    let show = |reqs: &[support::fake_github::Logged]| -> Vec<String> {
        reqs.iter()
            .map(|r| format!("{} {}?{} -> {}", r.method, r.path, r.query, r.status))
            .collect()
    };
    eprintln!("results, first run: {:#?}", show(&first));
    eprintln!("results, second run: {:#?}", show(&second));
    assert_eq!(first.len(), 1, "{:#?}", show(&first));
    assert_eq!(second.len(), 1, "{:#?}", show(&second));
    assert_eq!(second[0].status, 304);
    assert!(second[0].if_none_match);

    // A new results comment: the next run sees it (200), then 304 again.
    api.fake.add_comment(
        &repo,
        7,
        "frank",
        "User",
        &original_comment(&results(80, 5, 1, 0)),
    );
    let run = sb.run(&["results", "7", "--repo", &repo, "--json"], "");
    run.ok();
    assert!(run.stdout.contains("\"taker\": \"frank\""), "{}", run.all());
    let mark = api.fake.all_requests().len();
    sb.run(&args, "").ok();
    let third = api.fake.all_requests()[mark..].to_vec();
    assert_eq!(show(&third).len(), 1, "{:#?}", show(&third));
    assert_eq!(third[0].status, 304);
}

#[test]
fn no_results_yet_and_no_quiz_are_said_plainly() {
    let api = Api::direct();
    let repo = api.repo("noresults");
    api.fake.add_pull(&repo, 7, "octo", "feature");
    api.fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    let sb = Sandbox::new(&api);
    let run = sb.run(&["results", "7", "--repo", &repo], "");
    run.ok();
    assert!(
        run.stdout
            .contains(&format!("No results posted on {repo}#7 yet.")),
        "{}",
        run.all()
    );
    let json = sb.run(&["results", "7", "--repo", &repo, "--json"], "");
    json.ok();
    assert_eq!(json.stdout.trim(), "[]");

    let bare = api.repo("noquiz");
    api.fake.add_pull(&bare, 7, "octo", "feature");
    api.fake.add_comment(
        &bare,
        7,
        "carol",
        "User",
        &original_comment(&results(50, 1, 1, 0)),
    );
    let run = sb.run(&["results", "7", "--repo", &bare], "");
    run.ok();
    assert!(
        run.stderr.contains("no quiz on this pull request"),
        "{}",
        run.all()
    );
    assert!(run.stdout.contains("carol"), "{}", run.all());
}
