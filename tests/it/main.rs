//! Every integration test in one binary, so a clean run links the crate once: a module
//! per area, and the fakes and harnesses they share.
//!
//! Run one area with `cargo test --test it AREA::`, e.g. `cargo test --test it tui_safety::`.
// Tests may unwrap; the shared fakes and harnesses read fixtures by their exact names.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::case_sensitive_file_extension_comparisons,
    clippy::format_collect,
    clippy::format_push_string,
    clippy::too_many_lines,
    clippy::type_complexity
)]

/// A GitHub test run twice: against the fake directly, and through Prism's validating
/// proxy (skipped where Prism is not installed).
macro_rules! both {
    ($name:ident) => {
        mod $name {
            #[test]
            fn direct() {
                super::$name(&super::Api::direct());
            }
            #[test]
            fn through_prism() {
                if let Some(api) = super::Api::prism() {
                    super::$name(&api);
                }
            }
        }
    };
}

mod github_fake;
mod messages_fake;
mod tmux;

mod cli_completions;
mod cli_core;
mod cli_messages;
mod cli_polish;
mod cli_secrets;
mod code_e2e;
mod generate_checks;
mod generate_local;
mod generate_pipeline;
mod generate_pr;
mod generate_schema_cli;
mod github_e2e;
mod github_errors;
mod github_fallbacks;
mod github_moves;
mod github_results;
mod grade_claude_cli;
mod grade_cli;
mod grade_http;
mod grade_models;
mod grade_run;
mod grade_signals;
mod keyring;
mod llm_ask;
mod llm_stream;
mod plain_input;
mod roundtrip_props;
mod trust_results;
mod tui_compare;
mod tui_discover;
mod tui_generate;
mod tui_github;
mod tui_grading;
mod tui_growing;
mod tui_safety;
mod tui_signals;
mod tui_tmux;
