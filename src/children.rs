//! Child programs that must end with quizz (the `claude` CLI and whatever it starts).
//!
//! Each runs in its own process group (`process_group(0)`: the group's id is the child's
//! pid), so killing the group also ends its children, which killing the child alone
//! would leave running. A group is killed when its [`ChildGroup`] drops (the answer was
//! graded, the timeout passed, the UI closed) and by [`end_all`] when a signal ends quizz.

use std::collections::BTreeSet;
use std::sync::{Mutex, MutexGuard, PoisonError};

struct Registry {
    live: BTreeSet<u32>,
    /// Set by [`end_all`]: quizz is exiting, a group registered now is killed at once.
    closing: bool,
}

static GROUPS: Mutex<Registry> = Mutex::new(Registry {
    live: BTreeSet::new(),
    closing: false,
});

fn registry() -> MutexGuard<'static, Registry> {
    GROUPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The process group of a child spawned with `process_group(0)`; killed whole on drop.
#[derive(Debug)]
pub struct ChildGroup(Option<u32>);

impl ChildGroup {
    /// Takes charge of the group led by `pid` (`None`: the child is already gone).
    pub fn register(pid: Option<u32>) -> Self {
        // Never 0 or 1: kill(-1) would signal every process.
        let Some(pid) = pid.filter(|&p| p > 1) else {
            return Self(None);
        };
        let mut registry = registry();
        if registry.closing {
            kill_group(pid);
        } else {
            registry.live.insert(pid);
        }
        Self(Some(pid))
    }
}

impl Drop for ChildGroup {
    fn drop(&mut self) {
        if let Some(pid) = self.0.take() {
            registry().live.remove(&pid);
            // Also after a normal exit: what the child left running ends with it.
            kill_group(pid);
        }
    }
}

/// Kills every live group; one registered after this is killed at once (quizz is exiting).
pub fn end_all() {
    let mut registry = registry();
    registry.closing = true;
    for pid in std::mem::take(&mut registry.live) {
        kill_group(pid);
    }
}

#[cfg(unix)]
fn kill_group(pid: u32) {
    use rustix::process::{Pid, Signal, kill_process_group};
    if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
        // ESRCH (the group is gone already) is the usual answer after a normal exit.
        let _ = kill_process_group(pid, Signal::KILL);
    }
}

/// No process groups here: `kill_on_drop` ends the child itself.
#[cfg(not(unix))]
fn kill_group(_pid: u32) {}
