//! The HTTP grading backend's model name (issue 13, part 4): `QUIZZ_MODEL`, else
//! `ANTHROPIC_MODEL`, else `ANTHROPIC_DEFAULT_SONNET_MODEL` (a gateway's id), else quizz's
//! default; `quizz doctor` says which variable chose it, and a model the API does not know
//! gets an error naming the variable to set. The fake Messages API records the model sent.

use crate::messages_fake as support;

use support::fake_messages::{FakeMessages, Reply};
use support::{quizz, text};

const TOKEN: &str = "sk-or-gateway-test-secret";

/// `quizz doctor --check` through a gateway set-up (bearer token, base URL, empty API key),
/// with the HTTP backend forced (a `claude` on this machine's PATH would win otherwise).
fn doctor_check(server: &FakeMessages, vars: &[(&str, &str)]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = quizz(dir.path());
    cmd.args(["doctor", "--check"])
        .env("QUIZZ_GRADER", "anthropic")
        .env("ANTHROPIC_API_KEY", "")
        .env("ANTHROPIC_AUTH_TOKEN", TOKEN)
        .env("ANTHROPIC_BASE_URL", &server.url);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!all.contains(TOKEN), "the token leaked:\n{all}");
    (out.status.success(), all)
}

#[test]
fn the_gateway_model_variable_names_the_model_sent() {
    let server = FakeMessages::sequence(vec![Reply::grade(100, "Correct.")]);
    let (ok, out) = doctor_check(
        &server,
        &[("ANTHROPIC_DEFAULT_SONNET_MODEL", "z-ai/glm-4.7")],
    );
    assert!(ok, "{out}");
    assert!(
        out.contains("model:    z-ai/glm-4.7 (from ANTHROPIC_DEFAULT_SONNET_MODEL)"),
        "{out}"
    );
    assert!(out.contains("check:    ok"), "{out}");
    assert_eq!(server.models(), vec!["z-ai/glm-4.7".to_string()]);
}

#[test]
fn the_first_model_variable_set_wins() {
    let server = FakeMessages::sequence(vec![Reply::grade(100, "Correct.")]);
    let gateway = ("ANTHROPIC_DEFAULT_SONNET_MODEL", "z-ai/glm-4.7");
    let (ok, out) = doctor_check(
        &server,
        &[gateway, ("ANTHROPIC_MODEL", "anthropic/claude-sonnet-4.5")],
    );
    assert!(ok, "{out}");
    assert!(
        out.contains("model:    anthropic/claude-sonnet-4.5 (from ANTHROPIC_MODEL)"),
        "{out}"
    );
    let (ok, out) = doctor_check(
        &server,
        &[
            gateway,
            ("ANTHROPIC_MODEL", "anthropic/claude-sonnet-4.5"),
            ("QUIZZ_MODEL", "my-own-model"),
        ],
    );
    assert!(ok, "{out}");
    assert!(out.contains("(from QUIZZ_MODEL)"), "{out}");
    let (ok, out) = doctor_check(&server, &[]);
    assert!(ok, "{out}");
    assert!(
        out.contains("model:    claude-sonnet-5-5 (quizz's default: none of QUIZZ_MODEL, ANTHROPIC_MODEL, ANTHROPIC_DEFAULT_SONNET_MODEL is set)"),
        "{out}"
    );
    assert_eq!(
        server.models(),
        vec![
            "anthropic/claude-sonnet-4.5".to_string(),
            "my-own-model".to_string(),
            "claude-sonnet-5-5".to_string(),
        ]
    );
}

#[test]
fn an_unknown_model_names_the_variable_to_set() {
    // Anthropic's own answer to an unknown model.
    let server = FakeMessages::sequence(vec![Reply::error(
        404,
        "not_found_error",
        "model: z-ai/glm-4.7",
    )]);
    let (ok, out) = doctor_check(
        &server,
        &[("ANTHROPIC_DEFAULT_SONNET_MODEL", "z-ai/glm-4.7")],
    );
    assert!(!ok, "{out}");
    assert!(
        out.contains("the model \"z-ai/glm-4.7\" (from ANTHROPIC_DEFAULT_SONNET_MODEL) is not known there: set QUIZZ_MODEL (or ANTHROPIC_DEFAULT_SONNET_MODEL)"),
        "{out}"
    );
    assert_eq!(server.posts().len(), 1, "a 404 is not retried");
    // A gateway's 400 "model not found", with quizz's default model.
    let server = FakeMessages::sequence(vec![Reply::error(
        400,
        "invalid_request_error",
        "claude-sonnet-5-5 is not a valid model ID",
    )]);
    let (ok, out) = doctor_check(&server, &[]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("(quizz's default) is not known there: set QUIZZ_MODEL (or ANTHROPIC_DEFAULT_SONNET_MODEL"),
        "{out}"
    );
    assert_eq!(server.models(), vec!["claude-sonnet-5-5".to_string()]);
}
