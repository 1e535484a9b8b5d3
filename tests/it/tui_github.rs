//! The TUI on a pull request's quiz: the results are posted only after `P` on the results.

use crate::github_fake as support;
use crate::tmux;

use support::{Api, BOT, TAKER, TOKEN, seed_quiz_comment};
use tmux::Tmux;

#[test]
fn p_on_the_results_posts_to_the_pull_request() {
    let Some(t) = Tmux::new("pr-post") else {
        return;
    };
    let (api, repo) = take_pr_quiz(&t, "tui-post");
    let screen = t.wait_for("Press Enter to start");
    assert!(
        screen.contains(&format!("{repo}#7")),
        "says where the quiz came from:\n{screen}"
    );
    t.keys(&["Enter", "1", "s"]);
    t.wait_for("Review: 1 of 6 answered");
    t.keys(&["Enter"]);
    t.wait_for("Submit now?");
    t.keys(&["y"]);
    t.wait_for(&format!("press P to post these results to {repo}#7"));
    assert!(
        own(&api, &repo).is_empty(),
        "nothing is posted before the taker says so"
    );
    t.keys(&["P"]);
    let screen = t.wait_for("[quizz exited 0]");
    assert!(screen.contains("Posted your results"), "{screen}");
    let mine = own(&api, &repo);
    assert_eq!(mine.len(), 1);
    assert!(
        mine[0]
            .body
            .contains("<details><summary>Results state (used by the CLI)</summary>")
    );
}

#[test]
fn q_on_the_results_posts_nothing() {
    let Some(t) = Tmux::new("pr-nopost") else {
        return;
    };
    let (api, repo) = take_pr_quiz(&t, "tui-nopost");
    t.wait_for("Press Enter to start");
    t.keys(&["Enter", "1", "s", "Enter", "y"]);
    t.wait_for("press P to post");
    t.keys(&["q"]);
    let screen = t.wait_for("[quizz exited 0]");
    assert!(screen.contains("Not posted"), "{screen}");
    assert!(own(&api, &repo).is_empty());
}

/// A fake GitHub with the bot's quiz on PR 7, and `quizz take 7` on it in tmux.
fn take_pr_quiz(t: &Tmux, name: &str) -> (Api, String) {
    let api = Api::direct();
    let repo = api.repo(name);
    api.fake.add_pull(&repo, 7, "octo", "feature");
    api.fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    let env = format!(
        "HOME={home} GITHUB_API_URL={base} GH_TOKEN={TOKEN} QUIZZ_GH={home}/no-gh XDG_CONFIG_HOME={home}/config XDG_CACHE_HOME={home}/cache",
        home = t.data.display(),
        base = api.base,
    );
    t.start(100, 30, &format!("take 7 --repo {repo}"), &env);
    (api, repo)
}

fn own(api: &Api, repo: &str) -> Vec<support::fake_github::StoredComment> {
    api.fake
        .comments(repo, 7)
        .into_iter()
        .filter(|c| c.login == TAKER)
        .collect()
}
