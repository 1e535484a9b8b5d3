//! The fake GitHub's error cases, request counts, enterprise hosts and token handling
//! (direct to the fake: GitHub's description does not list these statuses everywhere).

// Scenario helpers outside #[test] functions: a panic is the test failing.

use crate::github_fake as support;

use support::{ANSWERS, Api, BOT, Fault, Sandbox, TAKER, TOKEN, seed_quiz_comment};

pub(crate) fn repo_with_quiz(api: &Api, name: &str) -> String {
    let repo = api.repo(name);
    api.fake.add_pull(&repo, 7, "octo", "feature");
    api.fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    repo
}

#[track_caller]
fn never_shows_the_token(run: &support::Run) {
    assert!(
        !run.all().contains(TOKEN),
        "the token leaked:\n{}",
        run.all()
    );
}

/// The closing-note figure: HTTP requests for a take (with posting) on a PR with 250 comments.
#[test]
fn request_counts_for_a_pr_with_250_comments() {
    let api = Api::direct();
    let repo = api.repo("busy");
    api.fake.add_pull(&repo, 7, "octo", "feature");
    for i in 0..250 {
        if i == 2 {
            api.fake
                .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
        } else {
            api.fake
                .add_comment(&repo, 7, "reviewer", "User", &format!("comment {i}"));
        }
    }
    let sb = Sandbox::new(&api);
    let args = ["take", "7", "--repo", &repo, "--plain", "--post"];
    sb.run(&args, ANSWERS).ok();
    let first = api.fake.all_requests();
    let again = support::retake_and_post(&repo);
    sb.run(&again, ANSWERS).ok();
    let all = api.fake.all_requests();
    let second = &all[first.len()..];
    let show = |reqs: &[support::fake_github::Logged]| -> Vec<String> {
        reqs.iter()
            .map(|r| format!("{} {}?{} -> {}", r.method, r.path, r.query, r.status))
            .collect()
    };
    eprintln!("first take: {} requests: {:#?}", first.len(), show(&first));
    eprintln!(
        "second take: {} requests: {:#?}",
        second.len(),
        show(second)
    );
    // 3 pages of comments, GET of the PR (its title), GET /user, the comments again right
    // before writing (what changed since the start: another machine may have posted), POST.
    assert_eq!(first.len(), 7, "{:#?}", show(&first));
    // Comments changed since the last time (only the new ones come), GET of the quiz
    // comment (older than `since=`: is it still there?), the PR → 304, GET /user → 304, the
    // comments again before writing → 304 (nothing changed), PATCH.
    assert_eq!(second.len(), 6, "{:#?}", show(second));
    assert!(second[0].query.contains("since="), "{:#?}", show(second));
    assert!(second.iter().any(|r| r.path == "/user" && r.status == 304));
    assert!(second.iter().any(|r| r.method == "PATCH"));
    // A third look with nothing new: conditional requests (comments, quiz comment, PR), all
    // answered 304.
    let before = api.fake.all_requests().len();
    sb.run(&["take", "7", "--repo", &repo, "--plain", "--no-post"], "")
        .ok();
    sb.run(&["take", "7", "--repo", &repo, "--plain", "--no-post"], "")
        .ok();
    let last = &api.fake.all_requests()[before..];
    assert_eq!(
        last.last().map(|r| r.status),
        Some(304),
        "{:#?}",
        show(last)
    );
    let fourth = &last[last.len() / 2..];
    eprintln!("fourth take: {:#?}", show(fourth));
    assert_eq!(fourth.len(), 3, "{:#?}", show(last));
    assert!(
        fourth.iter().all(|r| r.status == 304),
        "{:#?}",
        show(fourth)
    );
}

#[test]
fn an_unclear_post_failure_never_duplicates_the_comment() {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "unclear");
    api.fake.post_then_502(&repo);
    let sb = Sandbox::new(&api);
    let run = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--post"],
        ANSWERS,
    );
    run.post_failed();
    assert!(
        run.stdout.contains("Could not post: GitHub answered 502"),
        "{}",
        run.all()
    );
    assert!(run.stdout.contains("wait in the outbox"), "{}", run.all());
    // GitHub created it anyway; quizz did not resend the POST.
    let posts = api
        .fake
        .requests(&format!("/repos/{repo}/issues/7/comments"));
    assert_eq!(posts.iter().filter(|r| r.method == "POST").count(), 1);

    let post = sb.run(&["post"], "");
    post.ok();
    // The comment holds this very attempt: nothing is written, and no attempt is added
    // to its history.
    assert!(
        post.stdout.contains("these results were posted already"),
        "{}",
        post.all()
    );
    let mine: Vec<_> = api
        .fake
        .comments(&repo, 7)
        .into_iter()
        .filter(|c| c.login == TAKER)
        .collect();
    assert_eq!(mine.len(), 1, "{mine:#?}");
    assert!(
        !mine[0].body.contains("Earlier attempts"),
        "{}",
        mine[0].body
    );
    assert!(
        api.fake
            .requests("/issues/comments/")
            .iter()
            .all(|r| r.method != "PATCH")
    );
}

#[test]
fn a_bad_token_says_where_it_came_from_and_how_to_fix_it() {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "badtoken");
    let mut sb = Sandbox::new(&api);
    sb.set("GH_TOKEN", "ghp_not_a_valid_token");
    let run = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--no-post"],
        ANSWERS,
    );
    assert_eq!(run.code, 1, "{}", run.all());
    assert!(
        run.stderr
            .contains("GitHub rejected the token from GH_TOKEN (401: Bad credentials)"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("set GH_TOKEN to a valid token"));
    assert!(!run.all().contains("ghp_not_a_valid_token"));
}

#[test]
fn rate_limit_says_when_it_resets() {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "limited");
    api.fake.set_fault(&repo, Some(Fault::RateLimited));
    let sb = Sandbox::new(&api);
    let run = sb.run(&["take", "7", "--repo", &repo, "--plain"], ANSWERS);
    assert_eq!(run.code, 1, "{}", run.all());
    assert!(
        run.stderr
            .contains("rate limit is used up; it resets at 13:05:00 UTC"),
        "{}",
        run.stderr
    );
    // A 403 is not retried.
    assert_eq!(api.fake.requests(&format!("/repos/{repo}/")).len(), 1);
    never_shows_the_token(&run);
}

#[test]
fn not_found_names_what_and_which_token() {
    let api = Api::direct();
    let sb = Sandbox::new(&api);
    let run = sb.run(&["take", "7", "--repo", "octo/nowhere", "--plain"], "");
    assert_eq!(run.code, 1, "{}", run.all());
    assert!(
        run.stderr
            .contains("GitHub found nothing (404) for the comments of octo/nowhere#7: check the owner, the repository and the number, or whether the token from GH_TOKEN can see it"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_502_falls_back_to_the_cached_quiz_with_a_notice() {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "flaky");
    let sb = Sandbox::new(&api);
    sb.run(&["fetch", "7", "--repo", &repo], "").ok();
    api.fake.set_fault(&repo, Some(Fault::BadGateway));
    let run = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--post"],
        ANSWERS,
    );
    run.post_failed();
    assert!(
        run.stdout.contains("offline (GitHub answered 502"),
        "{}",
        run.all()
    );
    assert!(
        run.stdout.contains("Results:"),
        "the quiz was taken: {}",
        run.all()
    );
    assert!(
        run.stdout.contains("the results wait in the outbox"),
        "{}",
        run.all()
    );
    // The GET was tried twice (once retried), the POST never.
    let reqs = api.fake.requests(&format!("/repos/{repo}/"));
    let after_fetch: Vec<_> = reqs.iter().filter(|r| r.status == 502).collect();
    assert_eq!(after_fetch.len(), 2, "{reqs:#?}");
    assert!(reqs.iter().all(|r| r.method == "GET"));
}

#[test]
fn github_enterprise_host_with_its_own_token_and_api_path() {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "ghe");
    let mut sb = Sandbox::new(&api);
    sb.api_base = format!("{}/api/v3", api.base);
    sb.unset("GH_TOKEN")
        .set("GH_HOST", "ghe.example.com")
        .set("GH_ENTERPRISE_TOKEN", TOKEN);
    let run = sb.run(
        &[
            "take",
            &format!("ghe.example.com/{repo}#7"),
            "--plain",
            "--post",
        ],
        ANSWERS,
    );
    run.ok();
    assert!(
        run.stdout
            .contains(&format!("Quiz: ghe.example.com/{repo}#7")),
        "{}",
        run.all()
    );
    assert!(run.stdout.contains("Posted your results"), "{}", run.all());
    let reqs = api.fake.all_requests();
    assert!(
        reqs.iter().all(|r| r.path.starts_with("/api/v3/")),
        "{reqs:#?}"
    );
}

#[test]
fn posting_without_a_token_queues_and_says_how_to_log_in() {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "anon");
    let mut sb = Sandbox::new(&api);
    sb.unset("GH_TOKEN");
    let run = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--post"],
        ANSWERS,
    );
    run.post_failed();
    assert!(run.stdout.contains("GitHub wants a token"), "{}", run.all());
    assert!(run.stdout.contains("quizz auth login"), "{}", run.all());
    let status = sb.run(&["status"], "");
    assert!(
        status.stdout.contains("Waiting to be posted (1)"),
        "{}",
        status.all()
    );
}

#[test]
fn undecided_non_interactive_take_queues_instead_of_posting() {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "undecided");
    let sb = Sandbox::new(&api);
    let run = sb.run(&["take", "7", "--repo", &repo, "--plain"], ANSWERS);
    run.ok();
    assert!(
        run.stdout
            .contains("nothing is posted without your confirmation"),
        "{}",
        run.all()
    );
    assert!(api.fake.comments(&repo, 7).iter().all(|c| c.login != TAKER));
}

#[test]
fn auth_status_names_the_source_never_the_token() {
    let api = Api::direct();
    let sb = Sandbox::new(&api);
    let run = sb.run(&["auth", "status"], "");
    run.ok();
    assert!(run.stdout.contains("token: from GH_TOKEN"), "{}", run.all());
    assert!(
        run.stdout.contains(&format!("user: {TAKER}")),
        "{}",
        run.all()
    );
    // The sandbox has no D-Bus session: the keyring line says so.
    assert!(
        run.stdout.contains("keyring: no keyring is available here"),
        "{}",
        run.all()
    );
    never_shows_the_token(&run);
}

/// 422 for a body over 65,536 characters, through the library's client (quizz itself
/// refuses such a body before sending it).
#[test]
fn too_long_comment_gets_github_s_422_message() {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "toolong");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let token = quizz::github::auth::Token::new(
        TOKEN.into(),
        quizz::github::auth::TokenSource::Env("GH_TOKEN"),
    );
    let err = rt
        .block_on(async {
            let client = quizz::github::Client::new(&api.base, Some(&token)).unwrap();
            let body = serde_json::json!({ "body": "x".repeat(65_537) });
            client
                .post_json::<serde_json::Value>(
                    &format!("/repos/{repo}/issues/7/comments"),
                    &body,
                    "a comment",
                )
                .await
        })
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("GitHub refused the request (422): Validation Failed: body is too long (maximum is 65536 characters)"),
        "{msg}"
    );
}

#[test]
fn fetch_without_arguments_caches_every_open_pr_with_a_quiz() {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "fetchall");
    api.fake.add_pull(&repo, 8, "octo", "no-quiz-yet");
    let mut sb = Sandbox::new(&api);
    sb.set("GH_REPO", &repo);
    let run = sb.run(&["fetch"], "");
    run.ok();
    assert!(
        run.stdout
            .contains(&format!("{repo}#7: quiz cached (comment by @{BOT}")),
        "{}",
        run.all()
    );
    assert!(
        run.stdout.contains(&format!("{repo}#8: no quiz")),
        "{}",
        run.all()
    );
    let status = sb.run(&["status"], "");
    assert!(
        status.stdout.contains("Cached pull requests (2)"),
        "{}",
        status.all()
    );
}

#[test]
fn outside_a_repository_without_a_pr_the_error_says_what_to_pass() {
    let api = Api::direct();
    let sb = Sandbox::new(&api);
    let run = sb.run(&["take", "--plain"], "");
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(
        run.stderr
            .contains("give the PR as a number with --repo OWNER/REPO, or its URL"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_server_that_never_answers_times_out_and_the_cached_quiz_is_used() {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "hang");
    let mut sb = Sandbox::new(&api);
    sb.run(&["fetch", "7", "--repo", &repo], "").ok();
    // Accepts connections, never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    sb.api_base = format!("http://{}", silent.local_addr().unwrap());
    let keep = std::thread::spawn(move || {
        let held: Vec<_> = silent.incoming().take(4).collect();
        std::thread::sleep(std::time::Duration::from_secs(5));
        drop(held);
    });
    sb.set("QUIZZ_HTTP_TIMEOUT", "1");
    let started = std::time::Instant::now();
    let run = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--no-post"],
        ANSWERS,
    );
    run.ok();
    assert!(
        run.stdout
            .contains("offline (GitHub did not answer within 1 s"),
        "{}",
        run.all()
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    drop(keep);
}

#[test]
fn without_env_or_keyring_the_token_comes_from_gh() {
    use std::os::unix::fs::PermissionsExt;
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "ghcli");
    let mut sb = Sandbox::new(&api);
    let gh = sb.home.path().join("fake-gh");
    std::fs::write(
        &gh,
        format!(
            "#!/bin/sh\n[ \"$1 $2 $3 $4\" = \"auth token --hostname github.com\" ] && echo {TOKEN} && exit 0\nexit 1\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).unwrap();
    sb.unset("GH_TOKEN").set("QUIZZ_GH", gh.to_str().unwrap());
    let status = sb.run(&["auth", "status"], "");
    status.ok();
    assert!(
        status.stdout.contains("token: from `gh auth token`"),
        "{}",
        status.all()
    );
    never_shows_the_token(&status);
    let take = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--post"],
        ANSWERS,
    );
    take.ok();
    assert!(
        take.stdout.contains("Posted your results"),
        "{}",
        take.all()
    );
}
