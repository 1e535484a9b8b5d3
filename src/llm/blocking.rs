//! Calling the model from synchronous code (plain mode, `quizz grade`, `quizz doctor
//! --check`, and any command that waits for an answer).

use std::future::Future;

use tokio::sync::mpsc;

use super::LlmError;

/// Runs the future `work` makes on a runtime of its own, on a thread of its own, and calls
/// `on_event` on the caller's thread with each event `work` sends, as it arrives. Do not
/// call it from async code: await the future there.
pub fn run_blocking<T, E, F, Fut>(work: F, mut on_event: impl FnMut(&E)) -> Result<T, LlmError>
where
    F: FnOnce(mpsc::UnboundedSender<E>) -> Fut + Send,
    Fut: Future<Output = T>,
    T: Send,
    E: Send,
{
    let (tx, mut rx) = mpsc::unbounded_channel();
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| LlmError::Runtime(e.to_string()))?;
            Ok(runtime.block_on(work(tx)))
        });
        while let Some(event) = rx.blocking_recv() {
            on_event(&event);
        }
        worker.join().unwrap_or_else(|_| {
            Err(LlmError::Runtime(
                "the thread that calls the model panicked".into(),
            ))
        })
    })
}
