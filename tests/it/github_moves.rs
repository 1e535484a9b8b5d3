//! Renamed and transferred repositories, deleted quiz comments, and the PR's title (issue 13,
//! parts 2, 3 and 5), end to end against the fake GitHub. Through Prism where GitHub's
//! description declares the statuses: 301 on `GET /repos/{owner}/{repo}`, 204 on `DELETE` of
//! a comment, 404 on `GET` of one, 200/304 on `GET` of a pull request.

use crate::github_fake as support;

use http::Method;
use quizz::github::auth::{Token, TokenSource};
use quizz::github::{Client, Fetched};
use support::fake_github::Logged;
use support::{ANSWERS, Api, BOT, MoveStyle, Sandbox, TOKEN, seed_quiz_comment};

const BOT_TOKEN: &str = "ghs_quiz_bot_installation_token";

/// The output with line breaks and runs of spaces made single spaces (plain mode wraps notes).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn show(reqs: &[Logged]) -> Vec<String> {
    reqs.iter()
        .map(|r| format!("{} {}?{} -> {}", r.method, r.path, r.query, r.status))
        .collect()
}

/// Runs `f` with a client of the library, as the binary builds it.
fn with_client<T>(base: &str, token: &str, f: impl AsyncFnOnce(&Client) -> T) -> T {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let token = Token::new(token.into(), TokenSource::Env("GH_TOKEN"));
    rt.block_on(async {
        let client = Client::new(base, Some(&token)).unwrap();
        f(&client).await
    })
}

fn quiz_pr(api: &Api, name: &str) -> (String, u64) {
    let repo = api.repo(name);
    api.fake.add_pull(&repo, 7, "octo", "feature");
    api.fake.set_pull_title(&repo, 7, "Fix the parser", "alice");
    let quiz = api
        .fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    (repo, quiz)
}

fn cache_file(sb: &Sandbox, repo: &str) -> std::path::PathBuf {
    sb.home
        .path()
        .join(format!("data/quizz/cache/github.com/{repo}/7.json"))
}

#[test]
fn a_renamed_repository_is_followed_said_once_and_cached_under_its_new_name() {
    let api = Api::direct();
    let (old, _) = quiz_pr(&api, "old-name");
    let new = format!("{old}-renamed");
    let sb = Sandbox::new(&api);
    let take = ["take", "7", "--repo", &old, "--plain", "--no-post"];
    sb.run(&take, ANSWERS).ok();
    assert!(cache_file(&sb, &old).exists());

    // GitHub's way: 301 to /repositories/ID/... for GET.
    api.fake.rename_repo(&old, &new, MoveStyle::ById);
    let mark = api.fake.all_requests().len();
    let run = sb.run(&take, ANSWERS);
    run.ok();
    let moved = format!("{old} is now {new}");
    assert_eq!(
        flat(&run.all()).matches(&moved).count(),
        1,
        "said once:\n{}",
        run.all()
    );
    assert!(flat(&run.stdout).contains("Results:"), "{}", run.all());
    let reqs = api.fake.all_requests()[mark..].to_vec();
    eprintln!("take after the rename: {:#?}", show(&reqs));
    assert!(
        reqs.iter().any(|r| r.status == 301
            && r.path
                .starts_with(&format!("/repos/{old}/issues/7/comments"))),
        "{:#?}",
        show(&reqs)
    );
    assert!(reqs.iter().any(|r| r.path.starts_with("/repositories/")));
    // The cache moved to the new name; the old one is gone.
    assert!(cache_file(&sb, &new).exists(), "{:#?}", show(&reqs));
    assert!(!cache_file(&sb, &old).exists());
    // Same host: the token went along on every hop.
    assert!(reqs.iter().all(|r| r.authorized), "{reqs:#?}");

    // Next time the old name is not asked at all, and nothing new costs one 304 (plus the
    // PR's title, re-validated: 304).
    let mark = api.fake.all_requests().len();
    let run = sb.run(&take, ANSWERS);
    run.ok();
    assert!(flat(&run.all()).contains(&moved), "{}", run.all());
    let reqs = api.fake.all_requests()[mark..].to_vec();
    eprintln!("take with the move known: {:#?}", show(&reqs));
    assert!(
        reqs.iter().all(|r| !r.path.contains(&format!("/{old}/"))),
        "{:#?}",
        show(&reqs)
    );
    assert!(reqs.iter().all(|r| r.status == 304), "{:#?}", show(&reqs));
    assert_eq!(reqs.len(), 2, "{:#?}", show(&reqs));

    // Posting goes straight to the new name.
    let post = sb.run(&["take", "7", "--repo", &old, "--plain", "--post"], ANSWERS);
    post.ok();
    assert!(
        flat(&post.stdout).contains("Posted your results"),
        "{}",
        post.all()
    );
    assert_eq!(
        api.fake
            .comments(&new, 7)
            .iter()
            .filter(|c| c.login == support::TAKER)
            .count(),
        1
    );
}

/// 307 keeps the method and the body (GitHub answers a POST to the old name so).
#[test]
fn a_307_repeats_the_post_with_its_body_on_the_same_host() {
    let api = Api::direct();
    let (old, _) = quiz_pr(&api, "post-moved");
    let new = format!("{old}-new");
    api.fake.rename_repo(&old, &new, MoveStyle::ById);
    let body = serde_json::json!({ "body": "a comment sent to the old name" });
    let created: serde_json::Value = with_client(&api.base, TOKEN, async |c: &Client| {
        c.post_json(
            &format!("/repos/{old}/issues/7/comments"),
            &body,
            "a comment",
        )
        .await
        .unwrap()
    });
    assert_eq!(created["body"], "a comment sent to the old name");
    let posts: Vec<Logged> = api
        .fake
        .all_requests()
        .into_iter()
        .filter(|r| r.method == "POST")
        .collect();
    assert_eq!(posts.len(), 2, "{:#?}", show(&posts));
    assert_eq!((posts[0].status, posts[1].status), (307, 201));
    assert_eq!(posts[0].body, posts[1].body);
    assert!(posts[1].authorized);
    assert_eq!(
        api.fake
            .comments(&new, 7)
            .iter()
            .filter(|c| c.body == "a comment sent to the old name")
            .count(),
        1
    );
}

/// GitHub's description declares 301 for `GET /repos/{owner}/{repo}`, the request quizz makes
/// to learn a new name when a redirect named the repository only by id. Directly, the client
/// sees the 301 and follows it to the new name. Prism 5.14.2's proxy follows redirects itself
/// (node-fetch's default), so through Prism the client never sees the 301: there, the
/// repository record quizz reads after the redirect (its `full_name`) is what is checked
/// against GitHub's description.
fn a_301_on_the_repository_is_followed(api: &Api) {
    let (old, _) = quiz_pr(api, "repo-301");
    let new = format!("{old}-new");
    api.fake.rename_repo(&old, &new, MoveStyle::ByName);
    let asked = if api.via_prism { &new } else { &old };
    let (name, redirects) = with_client(&api.base, TOKEN, async |c: &Client| {
        let got = c
            .get_json::<serde_json::Value>(&format!("/repos/{asked}"), None, "the repository")
            .await
            .unwrap();
        let Fetched::Fresh { value, .. } = got else {
            panic!("expected a repository")
        };
        (
            value["full_name"].as_str().unwrap().to_string(),
            c.take_redirects(),
        )
    });
    assert_eq!(name, new);
    if !api.via_prism {
        assert_eq!(redirects.len(), 1, "{redirects:?}");
        assert_eq!(
            (redirects[0].status, redirects[0].to.as_str()),
            (301, format!("/repos/{new}").as_str())
        );
    }
}
both!(a_301_on_the_repository_is_followed);

#[test]
fn a_redirect_to_another_host_is_not_followed_and_the_token_stays_home() {
    let api = Api::direct();
    let (repo, _) = quiz_pr(&api, "elsewhere");
    let other = support::FakeGithub::start();
    api.fake.redirect_elsewhere(&repo, &other.base());
    let sb = Sandbox::new(&api);
    let run = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--no-post"],
        ANSWERS,
    );
    assert_eq!(run.code, 1, "{}", run.all());
    assert!(
        flat(&run.stderr).contains("to another host (http://127.0.0.1:")
            && flat(&run.stderr).contains("not followed"),
        "{}",
        run.stderr
    );
    assert!(
        other.all_requests().is_empty(),
        "{:#?}",
        other.all_requests()
    );
    assert!(!flat(&run.all()).contains(TOKEN));
}

#[test]
fn at_most_three_redirects_are_followed() {
    let api = Api::direct();
    let (a, _) = quiz_pr(&api, "hops");
    let names: Vec<String> = (1..=4).map(|i| format!("{a}-{i}")).collect();
    // a → 1 → 2 → 3: three hops, followed.
    api.fake.rename_repo(&a, &names[0], MoveStyle::ByName);
    api.fake
        .rename_repo(&names[0], &names[1], MoveStyle::ByName);
    api.fake
        .rename_repo(&names[1], &names[2], MoveStyle::ByName);
    let sb = Sandbox::new(&api);
    let run = sb.run(
        &["take", "7", "--repo", &a, "--plain", "--no-post"],
        ANSWERS,
    );
    run.ok();
    assert!(
        flat(&run.all()).contains(&format!("{a} is now {}", names[2])),
        "{}",
        run.all()
    );
    // One more rename: four hops from a name quizz has not seen.
    let (b, _) = quiz_pr(&api, "hops4");
    let more: Vec<String> = (1..=4).map(|i| format!("{b}-{i}")).collect();
    api.fake.rename_repo(&b, &more[0], MoveStyle::ByName);
    for w in more.windows(2) {
        api.fake.rename_repo(&w[0], &w[1], MoveStyle::ByName);
    }
    let run = sb.run(
        &["take", "7", "--repo", &b, "--plain", "--no-post"],
        ANSWERS,
    );
    assert_eq!(run.code, 1, "{}", run.all());
    assert!(
        flat(&run.stderr).contains("more than 3 redirects"),
        "{}",
        run.stderr
    );
}

/// A small PR (one page of comments, listed whole each time): the bot deletes its newest
/// quiz; the listing no longer has it, and the next newest is taken, with a note.
fn a_deleted_quiz_leaves_the_cache_and_the_previous_one_is_taken(api: &Api) {
    let (repo, first) = quiz_pr(api, "deleted");
    api.fake.add_user(BOT_TOKEN, BOT);
    api.fake.add_comment(&repo, 7, "bob", "User", "Nice!");
    let regenerated = api
        .fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    let sb = Sandbox::new(api);
    let take = ["take", "7", "--repo", &repo, "--plain", "--no-post"];
    let run = sb.run(&take, ANSWERS);
    run.ok();
    assert!(
        flat(&run.stdout).contains(&format!("issuecomment-{regenerated}")),
        "{}",
        run.all()
    );

    // The bot deletes the regenerated quiz (DELETE, 204: checked by Prism).
    let status = with_client(&api.base, BOT_TOKEN, async |c: &Client| {
        c.send(
            Method::DELETE,
            &format!("/repos/{repo}/issues/comments/{regenerated}"),
            None,
            None,
            "the quiz comment",
        )
        .await
        .unwrap()
        .status
    });
    assert_eq!(status.as_u16(), 204);
    let run = sb.run(&take, ANSWERS);
    run.ok();
    assert!(
        flat(&run.stdout).contains(&format!(
            "the quiz comment by @{BOT} on 2026-01-01 (https://github.com/{repo}/pull/7#issuecomment-{regenerated}) was deleted on GitHub: dropped from the cache; taking the newest remaining quiz"
        )),
        "{}",
        run.all()
    );
    assert!(
        flat(&run.stdout).contains(&format!("issuecomment-{first})")),
        "{}",
        run.all()
    );
    let cache = std::fs::read_to_string(cache_file(&sb, &repo)).unwrap();
    assert!(
        !cache.contains(&format!("\"id\": {regenerated},")),
        "{cache}"
    );

    // The last quiz goes too: say so, and stop.
    with_client(&api.base, BOT_TOKEN, async |c: &Client| {
        c.send(
            Method::DELETE,
            &format!("/repos/{repo}/issues/comments/{first}"),
            None,
            None,
            "the quiz comment",
        )
        .await
        .unwrap()
    });
    let run = sb.run(&take, ANSWERS);
    assert_eq!(run.code, 1, "{}", run.all());
    assert!(
        flat(&run.stderr).contains("was deleted on GitHub, and no other quiz is left"),
        "{}",
        run.stderr
    );
}
both!(a_deleted_quiz_leaves_the_cache_and_the_previous_one_is_taken);

/// A busy PR (past one page, so `since=` keeps listings short): a deleted quiz older than
/// `since` cannot show in the listing; its own conditional GET answers 404.
#[test]
fn on_a_busy_pr_the_cached_quiz_answers_404_and_is_dropped() {
    let api = Api::direct();
    let (repo, first) = quiz_pr(&api, "busy-deleted");
    let second = api
        .fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    for i in 0..120 {
        api.fake
            .add_comment(&repo, 7, "reviewer", "User", &format!("comment {i}"));
    }
    let sb = Sandbox::new(&api);
    let take = ["take", "7", "--repo", &repo, "--plain", "--no-post"];
    sb.run(&take, ANSWERS).ok();
    let mark = api.fake.all_requests().len();
    let run = sb.run(&take, ANSWERS);
    run.ok();
    let again = api.fake.all_requests()[mark..].to_vec();
    eprintln!("busy PR, second take: {:#?}", show(&again));
    assert!(
        flat(&run.stdout).contains(&format!("issuecomment-{second})")),
        "{}",
        run.all()
    );

    api.fake.delete_comment(&repo, second);
    let mark = api.fake.all_requests().len();
    let run = sb.run(&take, ANSWERS);
    run.ok();
    let reqs = api.fake.all_requests()[mark..].to_vec();
    eprintln!("busy PR, after the deletion: {:#?}", show(&reqs));
    assert!(
        reqs.iter()
            .any(|r| r.path.ends_with(&format!("/issues/comments/{second}")) && r.status == 404),
        "{:#?}",
        show(&reqs)
    );
    assert!(
        flat(&run.stdout).contains("was deleted on GitHub: dropped from the cache"),
        "{}",
        run.all()
    );
    assert!(
        flat(&run.stdout).contains(&format!("issuecomment-{first})")),
        "{}",
        run.all()
    );
}

/// One GET of the pull request (title and author), cached with the quiz and re-validated
/// with its `ETag`: a 304 when nothing changed, the new title when it did.
fn the_pr_title_is_read_once_and_revalidated(api: &Api) {
    let (repo, _) = quiz_pr(api, "title");
    let sb = Sandbox::new(api);
    let take = ["take", "7", "--repo", &repo, "--plain", "--no-post"];
    sb.run(&take, ANSWERS).ok();
    let cache: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cache_file(&sb, &repo)).unwrap()).unwrap();
    assert_eq!(cache["pull"]["title"], "Fix the parser");
    assert_eq!(cache["pull"]["author"], "alice");
    let pulls = |api: &Api| -> Vec<Logged> {
        api.fake
            .requests(&format!("/repos/{repo}/pulls/7"))
            .into_iter()
            .collect()
    };
    assert_eq!(pulls(api).len(), 1);
    sb.run(&take, ANSWERS).ok();
    let seen = pulls(api);
    assert_eq!(seen.len(), 2);
    assert!(seen[1].if_none_match, "{seen:#?}");
    if !api.via_prism {
        assert_eq!(seen[1].status, 304);
    }
    api.fake
        .set_pull_title(&repo, 7, "Fix the parser, take two", "alice");
    sb.run(&take, ANSWERS).ok();
    let cache: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cache_file(&sb, &repo)).unwrap()).unwrap();
    assert_eq!(cache["pull"]["title"], "Fix the parser, take two");
}
both!(the_pr_title_is_read_once_and_revalidated);
