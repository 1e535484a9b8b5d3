//! Diagram options drawn off the UI thread and kept by question, width and view: drawing
//! four options near the size limits took seconds, and was done again on every visit.

use std::sync::Arc;

use super::diagrams::{Arranged, View};
use super::theme::Theme;
use crate::quiz::MermaidOption;

/// Which drawing: the question, the body's width, and how the options are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DrawingKey {
    pub question: usize,
    pub width: usize,
    pub view: View,
}

/// One question's options to draw, with all that drawing needs (it runs elsewhere).
#[derive(Debug, Clone)]
pub struct DrawingJob {
    pub key: DrawingKey,
    pub options: Vec<MermaidOption>,
    pub theme: Theme,
}

impl DrawingJob {
    /// The drawing itself: the slow part.
    pub fn run(&self) -> Arranged {
        let width = self.key.width;
        super::diagrams::arrange(
            &self.options,
            super::diagrams::diagram_width(width),
            width >= super::diagrams::SIDE_BY_SIDE_FROM,
            self.theme,
            self.key.view,
        )
    }
}

/// How drawings are made: at once (tests, and drawing without a loop), or handed to a
/// function that draws elsewhere and sends the result back as an action.
#[derive(Clone)]
pub enum Drawer {
    Inline,
    Elsewhere(Arc<dyn Fn(DrawingJob) + Send + Sync>),
}

/// Drawings kept for revisits; a few, the most recent last.
const KEEP: usize = 16;

pub struct Drawings {
    pub drawer: Drawer,
    kept: Vec<(DrawingKey, Arc<Arranged>)>,
    asked: Vec<DrawingKey>,
    /// The drawing asked for while another was being drawn (the latest only).
    next: Option<DrawingJob>,
    /// How many times a drawing was found kept (tests read it).
    pub hits: usize,
    /// `v` was pressed while the new form was still being drawn: keep the place once it is.
    pub keep_place: bool,
    /// Drawings asked for before their question moved: `(asked as, now)`.
    renamed: Vec<(DrawingKey, DrawingKey)>,
}

impl Default for Drawings {
    fn default() -> Self {
        Self {
            drawer: Drawer::Inline,
            kept: Vec::new(),
            asked: Vec::new(),
            next: None,
            hits: 0,
            keep_place: false,
            renamed: Vec::new(),
        }
    }
}

impl Drawings {
    /// The drawing for `key` when it is ready; else it is asked for (once) and `None`
    /// comes back until it arrives through [`Drawings::arrived`].
    pub fn get_or_ask(
        &mut self,
        job: impl FnOnce() -> DrawingJob,
        key: DrawingKey,
    ) -> Option<Arc<Arranged>> {
        if let Some(i) = self.kept.iter().position(|(k, _)| *k == key) {
            self.hits += 1;
            let entry = self.kept.remove(i);
            let arranged = entry.1.clone();
            self.kept.push(entry);
            return Some(arranged);
        }
        match &self.drawer {
            Drawer::Inline => {
                let arranged = Arc::new(job().run());
                self.keep(key, arranged.clone());
                Some(arranged)
            }
            // One drawing at a time (a resize drag asks for many widths): the latest
            // asked waits for the one being drawn.
            Drawer::Elsewhere(_) if !self.asked.is_empty() => {
                if !self.asked.contains(&key) {
                    self.next = Some(job());
                }
                None
            }
            Drawer::Elsewhere(draw) => {
                self.asked.push(key);
                draw(job());
                None
            }
        }
    }

    pub fn arrived(&mut self, key: DrawingKey, arranged: Arc<Arranged>) {
        let key = match self.renamed.iter().position(|(old, _)| *old == key) {
            Some(i) => self.renamed.remove(i).1,
            None => key,
        };
        self.asked.retain(|k| *k != key);
        self.keep(key, arranged);
        if let (Some(job), Drawer::Elsewhere(draw)) = (self.next.take(), &self.drawer)
            && !self.kept.iter().any(|(k, _)| *k == job.key)
        {
            self.asked.push(job.key);
            draw(job);
        }
    }

    /// A question was put in at `from`: the drawings of the questions from there on are
    /// theirs again under their new places (one asked for and still being drawn comes
    /// back under its old place: it is renamed as it arrives).
    pub fn shifted(&mut self, from: usize) {
        let moved = |k: &mut DrawingKey| {
            if k.question >= from {
                k.question += 1;
            }
        };
        for (key, _) in &mut self.kept {
            moved(key);
        }
        for key in &mut self.asked {
            let old = *key;
            moved(key);
            if *key != old {
                self.renamed.push((old, *key));
            }
        }
        if let Some(job) = &mut self.next {
            moved(&mut job.key);
        }
    }

    /// Whether `key` is being drawn now.
    pub fn drawing(&self, key: &DrawingKey) -> bool {
        self.asked.contains(key)
    }

    fn keep(&mut self, key: DrawingKey, arranged: Arc<Arranged>) {
        self.kept.retain(|(k, _)| *k != key);
        self.kept.push((key, arranged));
        if self.kept.len() > KEEP {
            self.kept.remove(0);
        }
    }
}

/// The drawer of the event loop: each drawing on a thread of its own (a slow one never
/// holds up a key), sent back to the loop as an action.
pub fn on_threads(send: tokio::sync::mpsc::UnboundedSender<super::Action>) -> Drawer {
    Drawer::Elsewhere(Arc::new(move |job: DrawingJob| {
        let send = send.clone();
        let spawned = std::thread::Builder::new()
            .name("quizz-drawing".into())
            .spawn(move || {
                let drawn = super::Action::DiagramsDrawn(job.key, Arc::new(job.run()));
                let _ = send.send(drawn);
            });
        if let Err(e) = spawned {
            tracing::error!("cannot start a thread to draw diagrams: {e}");
        }
    }))
}
