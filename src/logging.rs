//! Logs go to a file under the XDG state dir, never to the screen. `QUIZZ_LOG` sets the
//! level (error, warn, info, debug, trace; default warn).

use std::path::PathBuf;

use tracing::level_filters::LevelFilter;

/// Starts file logging; returns the log file's path, or `None` when it cannot be opened
/// (logging is then off: it must never get in the way of taking a quiz).
pub fn init() -> Option<PathBuf> {
    let level = std::env::var("QUIZZ_LOG")
        .ok()
        .and_then(|l| l.parse::<LevelFilter>().ok())
        .unwrap_or(LevelFilter::WARN);
    let dir = directories::BaseDirs::new().map(|b| {
        b.state_dir()
            .unwrap_or_else(|| b.data_local_dir())
            .join("quizz")
    })?;
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join("quizz.log");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .ok()?;
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .finish();
    tracing::subscriber::set_global_default(subscriber).ok()?;
    Some(path)
}
