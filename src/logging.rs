//! Logs go to a file under the XDG state dir, never to the screen. `QUIZZ_LOG` sets the
//! level (error, warn, info, debug, trace; default warn). The file (and its folder) is
//! created on the first line logged: a run with nothing to say leaves no file behind.
//! Only its owner can read it (0600, in a 0700 folder), and no line holds a secret or a
//! URL's user info ([`crate::redact`]).

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use tracing::level_filters::LevelFilter;
use tracing_subscriber::fmt::MakeWriter;

/// Starts file logging; returns where the log file goes, or `None` when there is no
/// place for it (logging is then off: it must never get in the way of taking a quiz).
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
    let path = dir.join("quizz.log");
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_ansi(false)
        .with_writer(LazyFile::new(path.clone()))
        .finish();
    tracing::subscriber::set_global_default(subscriber).ok()?;
    Some(path)
}

/// A log file opened (for appending) on the first write.
struct LazyFile {
    path: PathBuf,
    file: Mutex<State>,
}

enum State {
    /// Nothing was logged yet.
    Unopened,
    Open(File),
    /// It could not be opened: lines are dropped (logging is off).
    Unavailable,
}

impl LazyFile {
    fn new(path: PathBuf) -> Self {
        Self {
            path,
            file: Mutex::new(State::Unopened),
        }
    }

    fn open(&self) -> Option<File> {
        if let Some(dir) = self.path.parent() {
            crate::store::create_private_dir(dir).ok()?;
        }
        let file = crate::store::private_file_options()
            .create(true)
            .append(true)
            .open(&self.path)
            .ok()?;
        // A log left readable by an older quizz is closed now.
        crate::store::make_private(&file).ok()?;
        Some(file)
    }
}

impl Write for &LazyFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut guard = self
            .file
            .lock()
            .map_err(|_| std::io::Error::other("log file lock poisoned"))?;
        if matches!(*guard, State::Unopened) {
            *guard = self.open().map_or(State::Unavailable, State::Open);
        }
        match &mut *guard {
            // One event is one write: a secret cannot straddle two.
            State::Open(file) => {
                let text = String::from_utf8_lossy(buf);
                file.write_all(crate::redact::redact(&text).as_bytes())?;
                Ok(buf.len())
            }
            State::Unopened | State::Unavailable => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let mut guard = self
            .file
            .lock()
            .map_err(|_| std::io::Error::other("log file lock poisoned"))?;
        match &mut *guard {
            State::Open(file) => file.flush(),
            State::Unopened | State::Unavailable => Ok(()),
        }
    }
}

impl<'a> MakeWriter<'a> for LazyFile {
    type Writer = &'a LazyFile;

    fn make_writer(&'a self) -> Self::Writer {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_appears_with_the_first_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/quizz/quizz.log");
        let log = LazyFile::new(path.clone());
        let _ = log.make_writer();
        assert!(!path.exists() && !path.parent().unwrap().exists());
        (&log).write_all(b"one\n").unwrap();
        (&log).write_all(b"two\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
    }
}
