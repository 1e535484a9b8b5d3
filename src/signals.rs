//! The signals that end quizz: SIGINT, SIGTERM, SIGHUP and SIGQUIT.
//!
//! The full-screen UI waits for them in its loop and closes as on Ctrl-C (the terminal is
//! restored, answers are saved); elsewhere [`exit_on_signals`] ends the `claude` children
//! and exits. Once quizz listens for a signal it keeps catching it: a command that goes on
//! after the UI closed calls [`exit_on_signals`] so a signal still ends it.

use std::io::Write as _;

/// The ending signals, awaited together.
pub struct EndSignals {
    #[cfg(unix)]
    int: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    hup: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    quit: Option<tokio::signal::unix::Signal>,
}

/// The number of the ending signal one of the listeners received (0: none). The UI closes
/// on it as on `q`, and the command's exit status says it.
static RECEIVED: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// The ending signal quizz received, if one was: its exit status is then 128 + its number.
pub fn received() -> Option<i32> {
    match RECEIVED.load(std::sync::atomic::Ordering::Relaxed) {
        0 => None,
        number => Some(number),
    }
}

impl EndSignals {
    /// Starts listening; must run inside a tokio runtime. A signal that cannot be listened
    /// for keeps its default action.
    pub fn new() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Self {
                int: signal(SignalKind::interrupt()).ok(),
                term: signal(SignalKind::terminate()).ok(),
                hup: signal(SignalKind::hangup()).ok(),
                quit: signal(SignalKind::quit()).ok(),
            }
        }
        #[cfg(not(unix))]
        {
            Self {}
        }
    }

    /// Waits for the first ending signal; its number (also kept for [`received`]).
    pub async fn recv(&mut self) -> i32 {
        let number = self.wait().await;
        RECEIVED.store(number, std::sync::atomic::Ordering::Relaxed);
        number
    }

    async fn wait(&mut self) -> i32 {
        #[cfg(unix)]
        {
            async fn one(s: Option<&mut tokio::signal::unix::Signal>) {
                match s {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending().await,
                }
            }
            tokio::select! {
                () = one(self.int.as_mut()) => 2,
                () = one(self.term.as_mut()) => 15,
                () = one(self.hup.as_mut()) => 1,
                () = one(self.quit.as_mut()) => 3,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            2
        }
    }
}

impl Default for EndSignals {
    fn default() -> Self {
        Self::new()
    }
}

/// From now on an ending signal kills the children's process groups, says `note` (when
/// given) on stderr, and exits with 128 + the signal's number, as a shell reports it.
pub fn exit_on_signals(note: Option<&'static str>) {
    exit_on_signals_after(move || note.map(str::to_string));
}

/// As [`exit_on_signals`], with `last` run first (after the children are ended): what it
/// returns is said on stderr.
pub fn exit_on_signals_after(last: impl FnOnce() -> Option<String> + Send + 'static) {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return;
    };
    // Listening starts here, before the caller goes on; the wait runs on its own thread.
    let mut signals = {
        let _entered = runtime.enter();
        EndSignals::new()
    };
    std::thread::spawn(move || {
        let number = runtime.block_on(signals.recv());
        crate::children::end_all();
        if let Some(note) = last() {
            // A terminal that hung up cannot be written to: that is no reason not to exit.
            let _ = writeln!(std::io::stderr(), "\n{note}");
        }
        std::process::exit(128 + number);
    });
}
