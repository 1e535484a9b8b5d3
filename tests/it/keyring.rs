//! `quizz auth` against a real Secret Service (gnome-keyring in a private D-Bus session).
//!
//! `scripts/test` runs this inside `dbus-run-session` with an unlocked gnome-keyring:
//! `cargo test --test it keyring:: -- --ignored`. Without a session bus it fails when `CI` is
//! set and skips (loudly) otherwise.

// Scenario helpers outside #[test] functions: a panic is the test failing.

use crate::github_fake as support;

use support::{ANSWERS, Api, BOT, Sandbox, TAKER, TOKEN, seed_quiz_comment};

/// A host of its own, so the test never touches a real github.com entry.
const HOST: &str = "keyring-test.invalid";

#[test]
#[ignore = "needs a Secret Service: scripts/test runs it inside dbus-run-session"]
fn login_status_take_logout_with_a_real_secret_service() {
    let Some(bus) = std::env::var_os("DBUS_SESSION_BUS_ADDRESS") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no D-Bus session in CI: scripts/test must run this test inside dbus-run-session"
        );
        eprintln!("SKIPPED: no D-Bus session bus (run scripts/test)");
        return;
    };
    let api = Api::direct();
    let repo = api.repo("keyring");
    api.fake.add_pull(&repo, 7, "octo", "feature");
    api.fake
        .add_comment(&repo, 7, BOT, "Bot", &seed_quiz_comment());
    let mut sb = Sandbox::new(&api);
    sb.unset("GH_TOKEN")
        .set("GH_HOST", HOST)
        .set("DBUS_SESSION_BUS_ADDRESS", bus.to_str().unwrap());

    let login = sb.run(&["auth", "login", "--with-token"], TOKEN);
    login.ok();
    assert!(
        login
            .stdout
            .contains(&format!("Logged in to {HOST} as {TAKER}")),
        "{}",
        login.all()
    );

    let status = sb.run(&["auth", "status"], "");
    status.ok();
    assert!(
        status.stdout.contains("token: from the keyring"),
        "{}",
        status.all()
    );
    assert!(
        status.stdout.contains(&format!("user: {TAKER}")),
        "{}",
        status.all()
    );
    assert!(!status.all().contains(TOKEN), "the token leaked");

    // The take finds the token in the keyring (no token in the environment).
    let take = sb.run(
        &["take", &format!("{HOST}/{repo}#7"), "--plain", "--post"],
        ANSWERS,
    );
    take.ok();
    assert!(
        take.stdout.contains("Posted your results"),
        "{}",
        take.all()
    );
    assert!(
        api.fake.comments(&repo, 7).iter().any(|c| c.login == TAKER),
        "posted as the keyring token's user"
    );

    let logout = sb.run(&["auth", "logout"], "");
    logout.ok();
    assert!(
        logout.stdout.contains("Removed quizz's token"),
        "{}",
        logout.all()
    );
    let status = sb.run(&["auth", "status"], "");
    assert_eq!(status.code, 1, "{}", status.all());
    assert!(
        status.stdout.contains("token: none found"),
        "{}",
        status.all()
    );
    assert!(
        status.stdout.contains("keyring: available; no token"),
        "{}",
        status.all()
    );
}
