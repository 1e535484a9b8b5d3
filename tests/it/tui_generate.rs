//! `quizz take --local` in the full-screen UI: the quiz is written on the generation
//! screen (stages, elapsed time, Esc cancels), then taken as any other.

use std::time::Duration;

use crate::generate_local::{Repo, quiz_posts};
use crate::messages_fake::fake_messages::{FakeMessages, Reply};
use crate::messages_fake::json_files;
use crate::messages_fake::retry_quiz;
use crate::tmux::Tmux;

/// The environment of a take that writes its quiz through `server`, its files in `t`'s.
fn env(t: &Tmux, server: &FakeMessages) -> String {
    format!(
        "XDG_CACHE_HOME={data}/cache XDG_CONFIG_HOME={data}/config GIT_CONFIG_NOSYSTEM=1 \
         GIT_CONFIG_GLOBAL=/dev/null QUIZZ_GRADER=anthropic ANTHROPIC_API_KEY=test-key \
         ANTHROPIC_BASE_URL={} QUIZZ_GENERATE=single",
        server.url,
        data = t.data.display()
    )
}

#[test]
fn the_generation_screen_shows_the_stages_and_esc_cancels_keeping_nothing() {
    let Some(t) = Tmux::new("generate-cancel") else {
        return;
    };
    let repo = Repo::new();
    // The first quiz comes too late to matter; the second take's at once.
    let server = FakeMessages::quiz_writer(
        vec![
            Reply::tool_input(retry_quiz()).after(Duration::from_secs(120)),
            Reply::tool_input(retry_quiz()),
        ],
        Reply::grade(1, "ok"),
    );
    let env = env(&t, &server);
    t.start_at(&repo.path, 80, 24, "take --local", &env);
    let screen = t.wait_for("asking the model (Anthropic Messages API");
    for shown in [
        "quizz · writing a quiz",
        "A quiz for the local change in",
        "reading the diff: 3 files",
        "logo.png (binary)",
        "uncommitted changes left out (1 file;",
        "--include-uncommitted adds them)",
        "— this takes a",
        "Esc/q/Ctrl-C cancel",
    ] {
        assert!(screen.contains(shown), "{shown:?} in:\n{screen}");
    }
    assert!(
        !screen.contains("quizz: "),
        "no stderr stage lines over the screen:\n{screen}"
    );
    // The clock moves while the model thinks.
    t.wait_for("0:02");

    t.keys(&["Escape"]);
    let screen = t.wait_for("[quizz exited");
    assert!(
        screen.contains("No quiz was written (cancelled)."),
        "{screen}"
    );
    assert!(screen.contains("[quizz exited 0]"), "{screen}");
    assert_eq!(quiz_posts(&server).len(), 1);
    assert!(
        json_files(&t.data.join("quizz/cache")).is_empty(),
        "nothing kept"
    );

    // Nothing was kept: the same change asks the model again, and its quiz is taken.
    t.start_at(&repo.path, 80, 24, "take --local", &env);
    t.wait_for("Press Enter to start");
    assert_eq!(quiz_posts(&server).len(), 2);
}

#[test]
fn a_quiz_written_on_the_screen_is_taken_and_graded_as_any_other() {
    let Some(t) = Tmux::new("generate-take") else {
        return;
    };
    let repo = Repo::new();
    let server = FakeMessages::quiz_writer(
        vec![Reply::tool_input(retry_quiz()).after(Duration::from_secs(3))],
        Reply::grade(1, "ok"),
    );
    let env = env(&t, &server);
    t.start_at(&repo.path, 80, 24, "take --local", &env);
    let screen = t.wait_for("asking the model (Anthropic Messages API");
    assert!(screen.contains("quizz · writing a quiz"), "{screen}");
    let screen = t.wait_for("Press Enter to start");
    assert!(screen.contains("the local change in"), "{screen}");
    // Two questions answered (the first option of each mcq), then submitted.
    t.keys(&["Enter", "Enter", "n"]);
    t.wait_for("Question 2/4");
    t.keys(&["Enter", "s"]);
    t.wait_for("submit");
    t.keys(&["Enter"]);
    t.wait_for("unanswered");
    t.keys(&["y"]);
    let screen = t.wait_for("Total");
    assert!(screen.contains("of 4"), "{screen}");
    assert_eq!(quiz_posts(&server).len(), 1);
    assert_eq!(
        json_files(&t.data.join("quizz/cache")).len(),
        1,
        "the quiz is kept for this change"
    );
    t.keys(&["q"]);
    let screen = t.wait_for("[quizz exited");
    assert!(screen.contains("[quizz exited 0]"), "{screen}");
    assert!(screen.contains("Results: "), "{screen}");
}

/// `quizz take 7` on a PR without a quiz, in the full-screen UI: the screen offers to write
/// one (naming the backend), y writes it, and the quiz that follows is the PR's.
#[test]
fn a_pr_without_a_quiz_offers_one_on_the_screen() {
    let Some(t) = Tmux::new("generate-pr") else {
        return;
    };
    let api = crate::github_fake::Api::direct();
    let repo = crate::generate_pr::pr_without_quiz(&api, "tui-offer");
    let server = FakeMessages::quiz_writer(
        vec![Reply::tool_input(retry_quiz()).after(Duration::from_secs(2))],
        Reply::grade(1, "ok"),
    );
    let env = format!(
        "{} GITHUB_API_URL={} GH_TOKEN={} QUIZZ_GH=/nonexistent",
        env(&t, &server),
        api.base,
        crate::github_fake::TOKEN
    );
    t.start(80, 24, &format!("take 7 --repo {repo}"), &env);
    let screen = t.wait_for("y write the quiz");
    for shown in [
        "no quiz on",
        "writes a quiz with Anthropic Messages API",
        "q/Esc leave",
    ] {
        assert!(screen.contains(shown), "{shown:?} in:\n{screen}");
    }
    assert!(quiz_posts(&server).is_empty(), "nothing asked before y");
    t.keys(&["y"]);
    t.wait_for("asking the model");
    t.wait_for("Press Enter to start");
    // The overview's note says where the quiz came from (its words wrap with the repository's
    // name: a short needle).
    t.wait_for("this one was written");
    assert_eq!(quiz_posts(&server).len(), 1);
}
