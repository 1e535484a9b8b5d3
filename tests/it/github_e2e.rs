//! End to end: the real binary against the fake GitHub, directly and through Prism's
//! validating proxy (every request and response checked against GitHub's `OpenAPI` description).

// Scenario helpers outside #[test] functions: a panic is the test failing.

use crate::github_fake as support;

use support::{ANSWERS, Api, BOT, OTHER_ANSWERS, Sandbox, TAKER, git, seed_quiz_comment};

/// A repo with PR 7: chatter, the bot's quiz, more chatter.
fn repo_with_quiz(api: &Api, name: &str) -> (String, u64) {
    let repo = api.repo(name);
    api.fake.add_pull(&repo, 7, "octo", "feature");
    api.fake
        .add_comment(&repo, 7, "bob", "User", "Nice change!");
    let quiz = api
        .fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    api.fake
        .add_comment(&repo, 7, "carol", "User", "Took the quiz, fun.");
    (repo, quiz)
}

fn own_comments(api: &Api, repo: &str) -> Vec<support::fake_github::StoredComment> {
    api.fake
        .comments(repo, 7)
        .into_iter()
        .filter(|c| c.login == TAKER)
        .collect()
}

fn take_then_post(api: &Api) {
    let (repo, quiz_id) = repo_with_quiz(api, "take-post");
    let sb = Sandbox::new(api);
    let run = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--post"],
        ANSWERS,
    );
    run.ok();
    assert!(
        run.stdout
            .contains(&format!("quiz from the comment by @{BOT} on 2026-01-01")),
        "says which comment was used:\n{}",
        run.all()
    );
    assert!(
        run.stdout
            .contains("Posted your results: https://github.com/"),
        "{}",
        run.all()
    );
    let mine = own_comments(api, &repo);
    assert_eq!(mine.len(), 1, "one results comment");
    let body = &mine[0].body;
    // The marker names the taker, the quiz comment, and the attempt (its number, its name,
    // when it was graded).
    let marker = body.lines().next().unwrap();
    assert!(
        marker.starts_with(&format!(
            "<!-- quizz:results v1 taker={TAKER} quiz={quiz_id} attempt=1 id="
        )) && marker.contains(" graded=")
            && marker.ends_with(" -->"),
        "{body}"
    );
    assert!(body.contains("-->\n## Quiz results"), "{body}");
    assert!(body.contains("<details><summary>Results state (used by the CLI)</summary>"));
    // Every request said who it is.
    for r in api.fake.requests(&format!("/repos/{repo}/")) {
        assert_eq!(
            r.user_agent,
            vec![format!("quizz/{}", env!("CARGO_PKG_VERSION"))],
            "{r:?}"
        );
    }
}
both!(take_then_post);

fn retake_updates_instead_of_duplicating(api: &Api) {
    let (repo, _) = repo_with_quiz(api, "retake");
    let sb = Sandbox::new(api);
    sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--post"],
        ANSWERS,
    )
    .ok();
    let first = own_comments(api, &repo);
    // A second attempt with other answers (a fresh machine would behave the same: the
    // sandbox's cache is wiped to prove the comment is found on GitHub, not only locally).
    std::fs::remove_dir_all(sb.home.path().join("data/quizz/cache")).unwrap();
    let run = sb.run(&support::retake_and_post(&repo), OTHER_ANSWERS);
    run.ok();
    assert!(
        run.stdout.contains("Updated your results comment"),
        "{}",
        run.all()
    );
    let mine = own_comments(api, &repo);
    assert_eq!(mine.len(), 1, "no duplicate: {mine:#?}");
    assert_eq!(mine[0].id, first[0].id);
    assert!(
        mine[0].body.contains("\nEarlier attempts: "),
        "{}",
        mine[0].body
    );
    let patches = api
        .fake
        .requests(&format!("/repos/{repo}/issues/comments/{}", first[0].id))
        .into_iter()
        .filter(|r| r.method == "PATCH" && r.status == 200)
        .count();
    assert_eq!(patches, 1);
}
both!(retake_updates_instead_of_duplicating);

fn untrusted_quiz_is_refused_without_trust(api: &Api) {
    let repo = api.repo("untrusted");
    api.fake.add_pull(&repo, 7, "octo", "feature");
    api.fake
        .add_comment(&repo, 7, "mallory", "User", &seed_quiz_comment());
    let sb = Sandbox::new(api);
    let run = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--no-post"],
        ANSWERS,
    );
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(run.stderr.contains("posted by @mallory"), "{}", run.stderr);
    assert!(run.stderr.contains("--trust mallory"), "{}", run.stderr);
    assert!(!run.stdout.contains("Question 1"), "no question was asked");

    let run = sb.run(
        &[
            "take",
            "7",
            "--repo",
            &repo,
            "--plain",
            "--no-post",
            "--trust",
            "mallory",
        ],
        ANSWERS,
    );
    run.ok();
    assert!(
        run.stdout.contains("quiz from the comment by @mallory"),
        "{}",
        run.all()
    );
    assert!(run.stdout.contains("Not posted (--no-post)."));
    assert!(own_comments(api, &repo).is_empty());
}
both!(untrusted_quiz_is_refused_without_trust);

fn offline_take_goes_to_the_outbox_then_quizz_post_sends_it(api: &Api) {
    let (repo, _) = repo_with_quiz(api, "offline");
    let mut sb = Sandbox::new(api);
    let fetched = sb.run(&["fetch", "7", "--repo", &repo], "");
    fetched.ok();
    assert!(fetched.stdout.contains("quiz cached"), "{}", fetched.all());

    // Nothing listens on this port: the network is "down".
    let dead = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let online = sb.api_base.clone();
    sb.api_base = dead;
    let run = sb.run(
        &["take", "7", "--repo", &repo, "--plain", "--post"],
        ANSWERS,
    );
    run.post_failed();
    assert!(
        run.stdout.contains("offline (cannot reach GitHub"),
        "{}",
        run.all()
    );
    assert!(
        run.stdout.contains("the results wait in the outbox"),
        "{}",
        run.all()
    );
    assert!(own_comments(api, &repo).is_empty());

    let status = sb.run(&["status"], "");
    status.ok();
    assert!(
        status.stdout.contains("Waiting to be posted (1)"),
        "{}",
        status.all()
    );
    let again = sb.run(&["take", "7", "--repo", &repo, "--plain", "--no-post"], "");
    assert!(
        again
            .stdout
            .contains("1 result from an earlier take waits to be posted"),
        "{}",
        again.all()
    );

    sb.api_base = online;
    let post = sb.run(&["post"], "");
    post.ok();
    assert!(
        post.stdout.contains("posted your results"),
        "{}",
        post.all()
    );
    assert_eq!(own_comments(api, &repo).len(), 1);
    let status = sb.run(&["status"], "");
    assert!(
        status.stdout.contains("Nothing waiting to be posted."),
        "{}",
        status.all()
    );
}
both!(offline_take_goes_to_the_outbox_then_quizz_post_sends_it);

/// A git clone in a temp dir whose current branch leads to a PR.
fn clone_with(
    dir: &std::path::Path,
    remotes: &[(&str, &str)],
    branch: &str,
    config: &[(&str, &str)],
) {
    git(dir, &["init", "-q", "-b", "main"]);
    for (name, url) in remotes {
        git(dir, &["remote", "add", name, url]);
    }
    git(dir, &["checkout", "-q", "-b", branch]);
    for (k, v) in config {
        git(dir, &["config", k, v]);
    }
}

fn current_branch_finds_the_pr(api: &Api) {
    let repo = api.repo("branch");
    let (owner, name) = repo.split_once('/').unwrap();
    for (n, head_owner, head) in [
        (7, owner, "feature/https"),
        (8, owner, "ssh-branch"),
        (9, "alice", "scp-topic"),
    ] {
        api.fake.add_pull(&repo, n, head_owner, head);
        api.fake
            .add_comment(&repo, n, BOT, "Bot", &seed_quiz_comment());
    }
    let mut sb = Sandbox::new(api);
    let cases: Vec<(
        String,
        Vec<(String, String)>,
        &str,
        Vec<(String, String)>,
        u64,
    )> = vec![
        // https remote; the branch tracks refs/pull/7/head (what `gh pr checkout` sets up).
        (
            "https".into(),
            vec![("origin".into(), format!("https://github.com/{repo}.git"))],
            "pr-7",
            vec![
                ("branch.pr-7.remote".into(), "origin".into()),
                ("branch.pr-7.merge".into(), "refs/pull/7/head".into()),
            ],
            7,
        ),
        // ssh:// remote; no upstream: looked up with head=OWNER:BRANCH.
        (
            "ssh".into(),
            vec![("origin".into(), format!("ssh://git@github.com/{repo}.git"))],
            "ssh-branch",
            vec![],
            8,
        ),
        // scp-style remotes, a fork to push to: head=alice:scp-topic on the upstream repo.
        (
            "scp".into(),
            vec![
                ("upstream".into(), format!("git@github.com:{repo}.git")),
                ("fork".into(), format!("git@github.com:alice/{name}.git")),
            ],
            "scp-topic",
            vec![
                ("branch.scp-topic.remote".into(), "fork".into()),
                (
                    "branch.scp-topic.merge".into(),
                    "refs/heads/scp-topic".into(),
                ),
            ],
            9,
        ),
    ];
    for (label, remotes, branch, config, want) in cases {
        let dir = sb.home.path().join(&label);
        std::fs::create_dir_all(&dir).unwrap();
        let remotes: Vec<(&str, &str)> = remotes
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let config: Vec<(&str, &str)> = config
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        clone_with(&dir, &remotes, branch, &config);
        sb.cwd = dir;
        let run = sb.run(&["take", "--plain", "--no-post"], "");
        run.ok();
        assert!(
            run.stdout.contains(&format!("Quiz: {repo}#{want}")),
            "{label}: expected PR {want}:\n{}",
            run.all()
        );
    }
    // The https case named its PR through the merge ref, without asking GitHub (each take
    // also reads its PR's title: GET /pulls/N, not a lookup).
    let lookups: Vec<String> = api
        .fake
        .requests(&format!("/repos/{repo}/pulls"))
        .into_iter()
        .filter(|r| r.path.ends_with("/pulls"))
        .map(|r| r.query)
        .collect();
    assert_eq!(lookups.len(), 2, "{lookups:?}");
    assert!(
        lookups[0].contains("head=octo%3Assh-branch")
            && lookups[1].contains("head=alice%3Ascp-topic"),
        "{lookups:?}"
    );
}
both!(current_branch_finds_the_pr);
