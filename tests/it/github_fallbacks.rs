//! Answers that say nothing of the cached quiz (rate limits, 422, a proxy's 407, a captive
//! portal, a redirect or a page link to another host): `take` and `results` use the copy
//! `quizz fetch` cached, with the notice a 502 gets. And a PR with more comments than quizz
//! lists says so instead of "no quiz". Direct to the fake (Prism would refuse these answers).

use crate::github_errors::repo_with_quiz;
use crate::github_fake as support;

use support::{ANSWERS, Api, BOT, FakeGithub, Fault, Sandbox, TOKEN, seed_quiz_comment};

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The other host heard nothing: no request, so no token either.
#[track_caller]
fn never_asked(other: &FakeGithub) {
    assert!(
        other.all_requests().is_empty(),
        "{:#?}",
        other.all_requests()
    );
}

/// `quizz fetch`, then `fault`, then `take` and `results`: both use the cache, say so with
/// the offline notice naming the cause, and exit 0. Returns the take's output, flattened.
fn falls_back_to_the_cache(name: &str, fault: impl Fn(&Api, &str)) -> String {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, name);
    let sb = Sandbox::new(&api);
    sb.run(&["fetch", "7", "--repo", &repo], "").ok();
    fault(&api, &repo);
    let take = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--post"],
        ANSWERS,
    );
    take.post_failed();
    let out = flat(&take.stdout);
    assert!(out.contains("offline ("), "{}", take.all());
    assert!(out.contains("using the copy cached"), "{}", take.all());
    assert!(
        out.contains("Results:"),
        "the quiz was taken: {}",
        take.all()
    );
    assert!(
        out.contains("the results wait in the outbox"),
        "{}",
        take.all()
    );
    assert!(
        !flat(&take.all()).contains("rejected the token"),
        "{}",
        take.all()
    );
    let results = sb.run(&["results", "7", "--repo", &repo], "");
    results.ok();
    let notes = flat(&results.stderr);
    assert!(
        notes.contains("note: offline (") && notes.contains("using the copy cached"),
        "{}",
        results.all()
    );
    assert!(!flat(&results.all()).contains(TOKEN));
    assert!(!out.contains(TOKEN));
    out
}

/// Each answer that says nothing of the quiz, and what its notice must say.
#[test]
fn rate_limits_a_422_a_proxy_s_407_and_a_captive_portal_use_the_cache() {
    let cases: [(&str, Fault, &[&str]); 6] = [
        (
            "limited",
            Fault::RateLimited,
            &["offline (GitHub's API rate limit is used up; it resets at 13:05:00 UTC"],
        ),
        // Retry-After: 90, counted from the answer.
        (
            "429",
            Fault::TooManyRequests,
            &[
                "offline (GitHub's API rate limit is used up; it resets at ",
                " UTC (in ",
            ],
        ),
        // Retry-After: 600.
        (
            "secondary",
            Fault::SecondaryRateLimit,
            &["rate limit is used up; it resets at ", "(in about 10 min)"],
        ),
        (
            "unprocessable",
            Fault::Unprocessable,
            &["offline (GitHub refused the request (422): Validation Failed)"],
        ),
        (
            "proxy",
            Fault::ProxyAuth,
            &[
                "a proxy between quizz and GitHub asked for its own login (407)",
                "this is not about the GitHub token",
            ],
        ),
        (
            "portal",
            Fault::CaptivePortal,
            &["is not GitHub's: a 200 with text/html instead of JSON (a captive portal"],
        ),
    ];
    for (name, fault, says) in cases {
        let out = falls_back_to_the_cache(name, |api, repo| api.fake.set_fault(repo, Some(fault)));
        for part in says {
            assert!(out.contains(part), "{name}: {part:?} in\n{out}");
        }
    }
}

#[test]
fn a_redirect_to_another_host_uses_the_cache_and_sends_it_nothing() {
    let other = FakeGithub::start();
    let out = falls_back_to_the_cache("moved-away", |api, repo| {
        api.fake.redirect_elsewhere(repo, &other.base());
    });
    assert!(
        out.contains(&format!("to another host ({}); not followed", other.base())),
        "{out}"
    );
    never_asked(&other);
}

#[test]
fn a_page_link_to_another_host_uses_the_cache_and_sends_it_nothing() {
    let other = FakeGithub::start();
    let out = falls_back_to_the_cache("links-away", |api, repo| {
        // Something new, so the listing is not a 304, and its Link points elsewhere.
        api.fake.add_comment(repo, 7, "bob", "User", "LGTM");
        api.fake.link_pages_elsewhere(repo, &other.base());
    });
    assert!(
        out.contains(&format!(
            "links its next page to another host ({}); not followed",
            other.base()
        )),
        "{out}"
    );
    never_asked(&other);
}

/// Without a cached copy, a page link to another host stops the take with the real cause
/// (not "rejected the token"), and that host never hears of it.
#[test]
fn a_page_link_to_another_host_is_refused_on_the_first_look() {
    let api = Api::direct();
    let repo = repo_with_quiz(&api, "links-first");
    let other = FakeGithub::start();
    api.fake.link_pages_elsewhere(&repo, &other.base());
    let sb = Sandbox::new(&api);
    let run = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--no-post"],
        ANSWERS,
    );
    assert_eq!(run.code, 1, "{}", run.all());
    let err = flat(&run.stderr);
    assert!(
        err.contains(&format!(
            "the answer for the comments of {repo}#7 links its next page to another host ({})",
            other.base()
        )) && err.contains("no cached copy"),
        "{err}"
    );
    assert!(!err.contains("rejected the token"), "{err}");
    never_asked(&other);
}

/// quizz lists at most 100 pages of 100 comments. With 10,000 older comments before it, the
/// quiz is past the cut: the first look says the listing was cut and that running again
/// reads on; the second finds the quiz.
#[test]
fn a_pr_with_more_comments_than_quizz_lists_says_the_listing_was_cut() {
    let api = Api::direct();
    let repo = api.repo("crowded");
    api.fake.add_pull(&repo, 7, "octo", "feature");
    api.fake.add_filler_comments(&repo, 7, 10_000);
    api.fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    let sb = Sandbox::new(&api);
    let first = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--no-post"],
        ANSWERS,
    );
    assert_eq!(first.code, 1, "{}", first.all());
    let err = flat(&first.stderr);
    assert!(
        err.contains(&format!(
            "no quiz in the comments of {repo}#7 quizz could list"
        )) && err.contains("GitHub's listing stopped after its first 10000 comments")
            && err.contains("the same command run again reads on"),
        "{err}"
    );
    let listed = api
        .fake
        .requests(&format!("/repos/{repo}/issues/7/comments"));
    assert_eq!(listed.len(), 100, "the listing stops at 100 pages");
    // Another taker's first look, with `results`.
    let results = Sandbox::new(&api).run(&["results", "7", "--repo", &repo], "");
    results.ok();
    assert!(
        flat(&results.stderr).contains("no quiz in the comments quizz could list"),
        "{}",
        results.all()
    );
    let again = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--no-post"],
        ANSWERS,
    );
    again.ok();
    assert!(
        flat(&again.stdout).contains(&format!("quiz from the comment by @{BOT}")),
        "{}",
        again.all()
    );
}

/// `auth status` exits 0 only when GitHub accepts the token; the help says so.
#[test]
fn auth_status_exits_non_zero_whenever_the_token_does_not_work() {
    let api = Api::direct();
    let mut sb = Sandbox::new(&api);
    sb.run(&["auth", "status"], "").ok();

    sb.set("GH_TOKEN", "ghp_not_a_valid_token");
    let rejected = sb.run(&["auth", "status"], "");
    assert_eq!(rejected.code, 1, "{}", rejected.all());
    let err = flat(&rejected.stderr);
    assert!(
        err.contains("GitHub rejected the token from GH_TOKEN"),
        "{err}"
    );
    // The sandbox has no keyring: `quizz auth login` could not store a token.
    assert!(!err.contains("quizz auth login"), "{err}");
    assert!(err.contains("set GH_TOKEN to a valid token"), "{err}");

    sb.set("GH_TOKEN", TOKEN);
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    sb.api_base = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let unreachable = sb.run(&["auth", "status"], "");
    assert_eq!(unreachable.code, 1, "{}", unreachable.all());
    assert!(
        unreachable
            .stdout
            .contains("user: unknown (the token could not be checked)")
            && flat(&unreachable.stderr).contains("cannot reach GitHub"),
        "{}",
        unreachable.all()
    );

    let help = sb.run(&["auth", "status", "--help"], "");
    help.ok();
    assert!(
        flat(&help.stdout).contains(
            "Exit status: 0 when GitHub accepts the token (it names the user); 1 when the token does not work"
        ),
        "{}",
        help.all()
    );
}

/// With no keyring, `auth status` says what does work instead of `quizz auth login`.
#[test]
fn auth_status_without_a_keyring_suggests_what_works() {
    let api = Api::direct();
    let mut sb = Sandbox::new(&api);
    sb.unset("GH_TOKEN");
    let run = sb.run(&["auth", "status"], "");
    assert_eq!(run.code, 1, "{}", run.all());
    let out = flat(&run.stdout);
    assert!(
        out.contains("keyring: no keyring is available here"),
        "{out}"
    );
    assert!(
        out.contains("Set GH_TOKEN to a token (or log in with `gh auth login`)"),
        "{out}"
    );
    assert!(!out.contains("Log in with `quizz auth login`"), "{out}");
    // The keyring's sentence is said once (it was repeated under "token: none found").
    assert_eq!(
        out.matches("no keyring is available here").count(),
        1,
        "{out}"
    );
}
