use super::*;

fn fake_claude(dir: &Path) -> PathBuf {
    let bin = dir.join("claude");
    std::fs::write(&bin, "#!/bin/sh\necho 2.1.332\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

fn select(pairs: &[(&str, &str)]) -> Selection {
    select_backend(
        &EnvSnapshot::from_pairs(pairs.iter().copied()),
        &Limits::default(),
    )
}

#[test]
fn an_api_key_wins_over_everything_but_the_override() {
    let dir = tempfile::tempdir().unwrap();
    fake_claude(dir.path());
    let path = dir.path().to_str().unwrap();
    let s = select(&[
        ("ANTHROPIC_API_KEY", "sk-secret-1"),
        ("ANTHROPIC_AUTH_TOKEN", "tok-secret-2"),
        ("PATH", path),
    ]);
    assert_eq!(s.backend, BackendKind::AnthropicApiKey);
    assert_eq!(s.model, DEFAULT_HTTP_MODEL);
    assert_eq!(s.base_url, DEFAULT_BASE_URL);
    assert!(s.llm.is_some());
    let all = format!("{s:?} {:?}", s.reasons);
    assert!(
        !all.contains("sk-secret-1") && !all.contains("tok-secret-2"),
        "{all}"
    );
}

#[test]
fn without_a_key_the_cli_comes_before_the_bearer_token() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_claude(dir.path());
    let path = format!("/nonexistent:{}", dir.path().display());
    let s = select(&[
        ("ANTHROPIC_API_KEY", ""),
        ("ANTHROPIC_AUTH_TOKEN", "tok"),
        (
            "ANTHROPIC_BASE_URL",
            "https://user:pw@openrouter.ai/api/?x=1",
        ),
        ("PATH", &path),
    ]);
    assert_eq!(s.backend, BackendKind::ClaudeCli);
    assert_eq!(s.claude_bin.as_deref(), Some(bin.as_path()));
    assert_eq!(s.model, "sonnet");
    assert_eq!(s.base_url, "https://openrouter.ai/api");
    assert!(s.reasons.iter().any(|r| r.contains("set but empty")));

    let s = select(&[("ANTHROPIC_AUTH_TOKEN", "tok"), ("PATH", "/nonexistent")]);
    assert_eq!(s.backend, BackendKind::AnthropicBearer);
    let s = select(&[("PATH", "/nonexistent")]);
    assert_eq!(s.backend, BackendKind::None);
    assert!(s.llm.is_none());
}

#[test]
fn claude_bin_points_at_a_binary() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_claude(dir.path());
    let s = select(&[("CLAUDE_BIN", bin.to_str().unwrap()), ("PATH", "")]);
    assert_eq!(s.backend, BackendKind::ClaudeCli);
    let s = select(&[("CLAUDE_BIN", "/nonexistent/claude"), ("PATH", "")]);
    assert_eq!(s.backend, BackendKind::None);
    assert!(
        s.reasons
            .iter()
            .any(|r| r == "CLAUDE_BIN=/nonexistent/claude is not an executable file"),
        "{:?}",
        s.reasons
    );
}

#[test]
fn the_override_beats_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    fake_claude(dir.path());
    let path = dir.path().to_str().unwrap();
    let s = select(&[
        ("QUIZZ_GRADER", "claude"),
        ("ANTHROPIC_API_KEY", "k"),
        ("PATH", path),
        ("QUIZZ_MODEL", "opus"),
    ]);
    assert_eq!(s.backend, BackendKind::ClaudeCli);
    assert_eq!(s.model, "opus");
    let s = select(&[("QUIZZ_GRADER", "none"), ("ANTHROPIC_API_KEY", "k")]);
    assert_eq!(s.backend, BackendKind::None);
    assert_eq!(s.unusable, None, "none is asked for, not a problem");
    let s = select(&[
        ("QUIZZ_GRADER", "Anthropic"),
        ("ANTHROPIC_AUTH_TOKEN", "t"),
        ("PATH", path),
    ]);
    assert_eq!(s.backend, BackendKind::AnthropicBearer);
    let s = select(&[("QUIZZ_GRADER", "anthropic"), ("PATH", path)]);
    assert_eq!(s.backend, BackendKind::None);
    let s = select(&[("QUIZZ_GRADER", "gpt"), ("ANTHROPIC_API_KEY", "k")]);
    assert_eq!(s.backend, BackendKind::None);
    assert!(s.reasons.iter().any(|r| r.contains("not one of")));
    assert_eq!(
        s.unusable.as_deref(),
        Some("QUIZZ_GRADER=gpt is not one of anthropic, claude, none")
    );
}

#[test]
fn urls_are_shown_without_credentials() {
    assert_eq!(display_url("https://a:b@h.io/x?k=1#f"), "https://h.io/x");
    assert_eq!(display_url("http://127.0.0.1:9"), "http://127.0.0.1:9");
}

#[test]
fn the_http_model_comes_from_the_first_variable_set() {
    let base = [("ANTHROPIC_AUTH_TOKEN", "tok"), ("PATH", "/nonexistent")];
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut pairs = base.to_vec();
        pairs.extend_from_slice(extra);
        select(&pairs)
    };
    let s = with(&[]);
    assert_eq!(s.backend, BackendKind::AnthropicBearer);
    assert_eq!((s.model.as_str(), s.model_from), (DEFAULT_HTTP_MODEL, None));
    assert!(
        s.model_origin().contains("quizz's default"),
        "{}",
        s.model_origin()
    );
    let s = with(&[("ANTHROPIC_DEFAULT_SONNET_MODEL", " z-ai/glm-4.7 ")]);
    assert_eq!(
        (s.model.as_str(), s.model_from),
        ("z-ai/glm-4.7", Some("ANTHROPIC_DEFAULT_SONNET_MODEL"))
    );
    assert_eq!(s.model_origin(), "from ANTHROPIC_DEFAULT_SONNET_MODEL");
    assert!(
        s.reasons
            .iter()
            .any(|r| r == "model z-ai/glm-4.7 from ANTHROPIC_DEFAULT_SONNET_MODEL"),
        "{:?}",
        s.reasons
    );
    let s = with(&[
        ("ANTHROPIC_DEFAULT_SONNET_MODEL", "z-ai/glm-4.7"),
        ("ANTHROPIC_MODEL", "anthropic/claude-sonnet-4.5"),
    ]);
    assert_eq!(s.model_from, Some("ANTHROPIC_MODEL"));
    assert_eq!(s.model, "anthropic/claude-sonnet-4.5");
    let s = with(&[
        ("ANTHROPIC_MODEL", "anthropic/claude-sonnet-4.5"),
        ("QUIZZ_MODEL", "my-model"),
        ("ANTHROPIC_DEFAULT_SONNET_MODEL", ""),
    ]);
    assert_eq!(
        (s.model.as_str(), s.model_from),
        ("my-model", Some("QUIZZ_MODEL"))
    );
    // A blank variable is skipped.
    let s = with(&[
        ("QUIZZ_MODEL", "  "),
        ("ANTHROPIC_DEFAULT_SONNET_MODEL", "g/m"),
    ]);
    assert_eq!(s.model, "g/m");
    // The claude CLI keeps its alias (the CLI remaps it with ANTHROPIC_DEFAULT_SONNET_MODEL).
    let dir = tempfile::tempdir().unwrap();
    fake_claude(dir.path());
    let s = select(&[
        ("PATH", dir.path().to_str().unwrap()),
        ("ANTHROPIC_DEFAULT_SONNET_MODEL", "z-ai/glm-4.7"),
    ]);
    assert_eq!(
        (s.backend, s.model.as_str()),
        (BackendKind::ClaudeCli, DEFAULT_CLI_MODEL)
    );
}

#[test]
fn generation_gets_its_own_limits_on_either_backend() {
    let dir = tempfile::tempdir().unwrap();
    fake_claude(dir.path());
    let repo = Path::new("/work/repo");
    let limits = Limits::generation(repo);
    assert_eq!(
        (limits.http.max_tokens, limits.http.invalid_output_retries),
        (16_000, 2)
    );
    let env = EnvSnapshot::from_pairs([
        ("PATH", dir.path().to_str().unwrap()),
        ("ANTHROPIC_AUTH_TOKEN", "t"),
        ("CLAUDE_CODE_MAX_RETRIES", "1"),
    ]);
    let Some(Llm::Cli(cli)) = select_backend(&env, &limits).llm else {
        panic!("the CLI is chosen");
    };
    let config = cli.config();
    assert_eq!(
        config.tools,
        CliTools::ReadOnly {
            repo: repo.to_path_buf()
        }
    );
    assert_eq!((config.max_turns, config.repairs), (30, 2));
    assert_eq!(config.timeout, Duration::from_secs(600));
    assert_eq!(
        config.credentials, "ANTHROPIC_AUTH_TOKEN",
        "from the environment"
    );
    assert_eq!(config.max_retries, 1, "from the environment");
    // Grading's defaults are what they were: no tools, 3 turns, no repair run.
    let grading = ClaudeCliConfig::default();
    assert_eq!(
        (grading.tools, grading.max_turns, grading.repairs),
        (CliTools::None, 3, 0)
    );
}
