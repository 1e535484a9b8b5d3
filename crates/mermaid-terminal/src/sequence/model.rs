//! The parsed sequence diagram.

use crate::glyphs::{Head, LineKind};
use std::ops::{Index, IndexMut};

/// A participant, by its place in [`Diagram::participants`]: what messages, notes, boxes
/// and lifeline events name, kept apart from the other indices (events, rows, columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ParticipantId(usize);

impl ParticipantId {
    pub const fn new(index: usize) -> Self {
        ParticipantId(index)
    }

    /// The place in the participant list: lifelines are laid out left to right by it.
    pub const fn index(self) -> usize {
        self.0
    }
}

/// One value per participant, read by [`ParticipantId`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerParticipant<T>(Vec<T>);

impl<T> Default for PerParticipant<T> {
    fn default() -> Self {
        PerParticipant(Vec::new())
    }
}

impl<T> PerParticipant<T> {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// Every participant, left to right.
    pub fn ids(&self) -> impl Iterator<Item = ParticipantId> + use<T> {
        (0..self.0.len()).map(ParticipantId)
    }

    /// Add a value for the next participant, and its id.
    pub fn push(&mut self, value: T) -> ParticipantId {
        self.0.push(value);
        ParticipantId(self.0.len() - 1)
    }

    /// The first participant whose value matches.
    pub fn position(&self, f: impl Fn(&T) -> bool) -> Option<ParticipantId> {
        self.0.iter().position(f).map(ParticipantId)
    }

    pub fn get(&self, id: ParticipantId) -> Option<&T> {
        self.0.get(id.0)
    }

    /// The values of participants `first` to `last` (as far as there are any).
    pub fn span(&self, first: ParticipantId, last: ParticipantId) -> &[T] {
        let end = (last.0 + 1).min(self.0.len());
        &self.0[first.0.min(end)..end]
    }

    /// The values in participant order (for what does not read them by id).
    pub fn as_slice(&self) -> &[T] {
        &self.0
    }

    pub fn map<'a, U>(&'a self, f: impl FnMut(&'a T) -> U) -> PerParticipant<U> {
        PerParticipant(self.0.iter().map(f).collect())
    }
}

impl<T> FromIterator<T> for PerParticipant<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        PerParticipant(iter.into_iter().collect())
    }
}

impl<T> Index<ParticipantId> for PerParticipant<T> {
    type Output = T;

    fn index(&self, id: ParticipantId) -> &T {
        &self.0[id.0]
    }
}

impl<T> IndexMut<ParticipantId> for PerParticipant<T> {
    fn index_mut(&mut self, id: ParticipantId) -> &mut T {
        &mut self.0[id.0]
    }
}

impl<'a, T> IntoIterator for &'a PerParticipant<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Participant {
    /// The name used in statements.
    pub id: String,
    /// What is shown (the alias when `as` is given), one entry per line.
    pub label: Vec<String>,
    pub actor: bool,
    /// Declared with `create`: the box is drawn where it is created.
    pub created: bool,
}

/// A message arrow: shaft kind, head, and whether it has heads at both ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrow {
    pub line: LineKind,
    pub head: Head,
    pub both: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotePos {
    Left,
    Right,
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    Loop,
    Alt,
    Opt,
    Par,
    Critical,
    Break,
    Rect,
}

impl BlockKind {
    pub fn keyword(self) -> &'static str {
        match self {
            BlockKind::Loop => "loop",
            BlockKind::Alt => "alt",
            BlockKind::Opt => "opt",
            BlockKind::Par => "par",
            BlockKind::Critical => "critical",
            BlockKind::Break => "break",
            BlockKind::Rect => "rect",
        }
    }

    /// The divider keyword allowed inside this block (`else`, `and`, `option`).
    pub fn divider(self) -> Option<&'static str> {
        match self {
            BlockKind::Alt => Some("else"),
            BlockKind::Par => Some("and"),
            BlockKind::Critical => Some("option"),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Message {
        from: ParticipantId,
        to: ParticipantId,
        arrow: Arrow,
        label: Vec<String>,
        /// `+` on the target: activate it.
        activate: bool,
        /// `-` on the target: deactivate the sender.
        deactivate: bool,
        number: Option<usize>,
    },
    Note {
        pos: NotePos,
        first: ParticipantId,
        last: ParticipantId,
        text: Vec<String>,
    },
    BlockStart {
        kind: BlockKind,
        label: String,
    },
    BlockDivider {
        keyword: &'static str,
        label: String,
    },
    BlockEnd,
    Activate(ParticipantId),
    Deactivate(ParticipantId),
    Create(ParticipantId),
    Destroy(ParticipantId),
}

impl Event {
    /// The keyword of an event on a lifeline (`activate`, `deactivate`, `create`,
    /// `destroy`); empty for other events.
    pub fn lifeline_word(&self) -> &'static str {
        match self {
            Event::Activate(_) => "activate",
            Event::Deactivate(_) => "deactivate",
            Event::Create(_) => "create",
            Event::Destroy(_) => "destroy",
            _ => "",
        }
    }
}

/// A `box` group around consecutive participants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub label: String,
    pub first: ParticipantId,
    pub last: ParticipantId,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagram {
    pub participants: PerParticipant<Participant>,
    pub events: Vec<Event>,
    pub groups: Vec<Group>,
    pub title: Option<String>,
}
