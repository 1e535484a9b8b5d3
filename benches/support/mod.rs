//! What the generation benches share: the fake Messages API (the tests' own, included by
//! path) and the realistic quiz.

#[allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::needless_pass_by_value,
    clippy::cast_precision_loss,
    clippy::format_push_string
)]
#[path = "../../tests/it/messages_fake/fake_messages.rs"]
pub mod fake_messages;
pub mod realistic_quiz;

/// How many times faster than the model's pace the fake writes: 1 when measuring
/// (`--bench`), 1000 for the smoke run of `cargo test --all-targets` (not the minutes of a
/// measurement), or `QUIZZ_BENCH_SPEEDUP`.
pub fn speedup() -> f64 {
    let measuring = std::env::args().any(|a| a == "--bench");
    std::env::var("QUIZZ_BENCH_SPEEDUP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if measuring { 1.0 } else { 1000.0 })
}
