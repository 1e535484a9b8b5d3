//! Labels wrapped to a maximum width: the input of the lifeline layout.

use crate::sequence::model::{
    Arrow, Diagram, Event, Group, NotePos, ParticipantId, PerParticipant,
};
use crate::text::{Cuts, Words, display_width, max_width, wrap_into};
use std::cell::{Cell, OnceCell, RefCell};
use std::rc::Rc;

/// Rows a wrapped message or note may add to what its source writes; beyond that the
/// compact form reads better.
const GROWTH: usize = 5;

#[derive(Debug, Clone)]
pub enum Item<'a> {
    Message {
        from: ParticipantId,
        to: ParticipantId,
        arrow: Arrow,
        lines: Lines,
        /// the label unwrapped, to wrap again to the room its arrow leaves
        text: &'a [String],
        activate: bool,
        deactivate: bool,
    },
    Note {
        pos: NotePos,
        first: ParticipantId,
        last: ParticipantId,
        lines: Lines,
        /// the text unwrapped, to wrap again to the width of what a note over spans
        text: &'a [String],
    },
    /// a frame opens (`depth` counts from 1 = outermost)
    Open {
        lines: Lines,
        /// the header unwrapped, to wrap again to the frame's width
        text: &'a str,
    },
    Divider {
        lines: Lines,
        text: &'a str,
    },
    Close,
    Activate(ParticipantId),
    Deactivate(ParticipantId),
    Create(ParticipantId),
    Destroy(ParticipantId),
}

/// A label's lines at one wrap width, and the width of the widest: the column layout
/// measures every label at every stage of the search, so it is measured once, when wrapped.
#[derive(Debug, Clone)]
pub struct Lines {
    lines: Rc<[String]>,
    pub width: usize,
}

impl Lines {
    fn new(lines: Rc<[String]>) -> Self {
        let width = max_width(&lines);
        Lines { lines, width }
    }
}

impl std::ops::Deref for Lines {
    type Target = [String];

    fn deref(&self) -> &[String] {
        &self.lines
    }
}

#[derive(Debug, Clone)]
pub struct Prepared<'a> {
    pub names: &'a PerParticipant<Vec<String>>,
    pub actors: &'a PerParticipant<bool>,
    pub created: &'a PerParticipant<bool>,
    /// shared by the stages that wrap labels alike and lay names out differently
    pub items: Rc<[Item<'a>]>,
    pub groups: &'a [Group],
    pub depth: usize,
    pub title: Option<&'a str>,
    /// participant boxes hug their names (no space inside the sides)
    pub tight: bool,
    /// the boxes of odd places (the second, the fourth, ...) a row lower than the others
    pub staggered: bool,
}

/// One label's wraps, by the width they were made at.
type WrapsByWidth = Vec<(usize, Lines)>;

/// A diagram's labels, measured once per render: the width search prepares the same
/// labels at many widths, so each is wrapped at a given width at most once.
pub struct Labels<'a> {
    d: &'a Diagram,
    /// per event: what its label wraps from (a message with its number, a note, a frame
    /// header as one line; empty for the other events), shared: a label that fits
    /// unwrapped is these lines
    texts: Vec<Rc<[String]>>,
    /// per event: its lines cut at spaces and measured, once (when first wrapped: a
    /// drawing whose labels fit unwrapped needs none)
    words: Vec<OnceCell<Vec<Words>>>,
    /// per event: the width of its widest unwrapped line (wrapping wider changes nothing)
    widest: Vec<usize>,
    /// per event: its wraps so far, by width
    wrapped: RefCell<Vec<WrapsByWidth>>,
    /// per event: (min, its floor from `min`) once [`wrap_floors`] found it
    floors: Vec<Cell<Option<(usize, usize)>>>,
    /// labels wrapped (not found in `wrapped`): the work the cache saves shows here
    wraps: Cell<usize>,
    /// where a piece too wide for its line may be cut
    cuts: Cuts,
    whole_names: PerParticipant<Vec<String>>,
    narrow_names: OnceCell<PerParticipant<Vec<String>>>,
    actors: PerParticipant<bool>,
    created: PerParticipant<bool>,
}

impl<'a> Labels<'a> {
    /// The labels, a piece too wide for its line cut after `=` and `{` too.
    pub fn new(d: &'a Diagram) -> Self {
        Self::cut(d, Cuts::Fields)
    }

    /// The labels, a piece too wide for its line cut where `cuts` allows.
    pub fn cut(d: &'a Diagram, cuts: Cuts) -> Self {
        let texts: Vec<Rc<[String]>> = d
            .events
            .iter()
            .map(|e| -> Rc<[String]> {
                match e {
                    Event::Message { label, number, .. } => message_text(label, *number).into(),
                    Event::Note { text, .. } => Rc::from(text.as_slice()),
                    Event::BlockStart { kind, label } => {
                        Rc::new([block_text(kind.keyword(), label)])
                    }
                    Event::BlockDivider { keyword, label } => Rc::new([block_text(keyword, label)]),
                    _ => Rc::new([]),
                }
            })
            .collect();
        Labels {
            d,
            words: texts.iter().map(|_| OnceCell::new()).collect(),
            widest: texts.iter().map(|t| max_width(t)).collect(),
            wrapped: RefCell::new(vec![Vec::new(); texts.len()]),
            floors: texts.iter().map(|_| Cell::new(None)).collect(),
            wraps: Cell::new(0),
            cuts,
            texts,
            whole_names: d.participants.map(|p| p.label.clone()),
            narrow_names: OnceCell::new(),
            actors: d.participants.map(|p| p.actor),
            created: d.participants.map(|p| p.created),
        }
    }

    /// These labels (cut as [`Labels::new`] cuts them) with names cut after their `_` and
    /// `-` too ([`Cuts::Names`]): the words measured are kept, and a label without `_` or
    /// `-` wraps alike, so its wraps and floor are kept too (the second search then wraps
    /// only the labels the cut changes).
    pub fn with_names_cut(&self) -> Self {
        debug_assert_eq!(self.cuts, Cuts::Fields);
        let joined: Vec<bool> = self
            .texts
            .iter()
            .map(|t| t.iter().any(|l| l.contains(['_', '-'])))
            .collect();
        let keep = |i: usize| !joined[i];
        Labels {
            d: self.d,
            texts: self.texts.clone(),
            // words are cut at spaces whatever the cuts
            words: self.words.clone(),
            widest: self.widest.clone(),
            wrapped: RefCell::new(
                self.wrapped
                    .borrow()
                    .iter()
                    .enumerate()
                    .map(|(i, w)| if keep(i) { w.clone() } else { Vec::new() })
                    .collect(),
            ),
            floors: (0..joined.len())
                .map(|i| Cell::new(self.floors[i].get().filter(|_| keep(i))))
                .collect(),
            wraps: Cell::new(0),
            cuts: Cuts::Names,
            whole_names: self.whole_names.clone(),
            narrow_names: self.narrow_names.clone(),
            actors: self.actors.clone(),
            created: self.created.clone(),
        }
    }

    /// Event `i`'s label wrapped to `max` columns (`wrap_all`), from the cache when it was
    /// wrapped at that width before.
    fn wrapped(&self, i: usize, max: usize) -> Lines {
        // every width from the widest line up leaves the label as it is, and a one-line
        // label wraps alike at every width with the same line count
        let unwrapped = max >= self.widest[i];
        let max = if unwrapped {
            self.widest[i]
        } else {
            match self.words(i) {
                [words] => words.same_as(max),
                _ => max.min(self.widest[i]),
            }
        };
        let mut cache = self.wrapped.borrow_mut();
        if let Some((_, lines)) = cache[i].iter().find(|(w, _)| *w == max) {
            return lines.clone();
        }
        self.wraps.set(self.wraps.get() + 1);
        if unwrapped {
            // every line fits as it is
            let lines = Lines {
                lines: Rc::clone(&self.texts[i]),
                width: self.widest[i],
            };
            cache[i].push((max, lines.clone()));
            return lines;
        }
        let lines: Lines = Lines::new(match (&self.texts[i][..], self.words(i)) {
            // one line (most labels): its wrap as it comes, without gathering lines
            ([line], [words]) => Rc::from(words.wrap(line, max, self.cuts)),
            (texts, words) => texts
                .iter()
                .zip(words)
                .flat_map(|(line, words)| words.wrap(line, max, self.cuts))
                .collect(),
        });
        cache[i].push((max, lines.clone()));
        lines
    }

    /// True when a label has a word wider than `min` (the narrowest wrap) with a `_` or
    /// `-` inside: only such a word can [`Cuts::Names`] cut, and only then can cutting
    /// names fit what did not fit whole.
    pub fn has_joiners_wider_than(&self, min: usize) -> bool {
        self.texts
            .iter()
            .flat_map(|t| t.iter())
            .flat_map(|t| t.split(' '))
            .any(|w| w.contains(['_', '-']) && display_width(w) > min)
    }

    /// True when names wrapped in their boxes read as written (one word each): the
    /// stages with narrow names then lay out as the ones with whole names.
    pub fn narrow_names_are_whole(&self) -> bool {
        *self.names(Names::Narrow) == self.whole_names
    }

    /// Event `i`'s lines cut at spaces and measured.
    fn words(&self, i: usize) -> &[Words] {
        self.words[i].get_or_init(|| self.texts[i].iter().map(|l| Words::new(l)).collect())
    }

    fn names(&self, names: Names) -> &PerParticipant<Vec<String>> {
        match names {
            Names::Whole => &self.whole_names,
            Names::Narrow | Names::Tight | Names::Staggered | Names::TightStaggered => {
                self.narrow_names.get_or_init(|| {
                    self.whole_names
                        .map(|label| label.iter().flat_map(|l| wrap_into(l, 3)).collect())
                })
            }
        }
    }
}

/// The label of a message, with its autonumber.
pub fn message_text(label: &[String], number: Option<usize>) -> Vec<String> {
    let mut lines = label.to_vec();
    if let Some(n) = number
        && let Some(first) = lines.first_mut()
    {
        *first = if first.is_empty() {
            format!("{n}.")
        } else {
            format!("{n}. {first}")
        };
    }
    if lines.iter().all(String::is_empty) {
        return Vec::new();
    }
    lines
}

/// Text of a frame header: `loop [every 5s]`.
pub fn block_text(keyword: &str, label: &str) -> String {
    if label.is_empty() {
        keyword.to_string()
    } else {
        format!("{keyword} [{label}]")
    }
}

/// How participant names are laid out in their boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// one line each (as written)
    Whole,
    /// each line wrapped into at most three, as narrow as code-friendly breaks allow
    Narrow,
    /// wrapped as `Narrow`, in boxes without a space inside their sides: for many
    /// participants with long names
    Tight,
    /// wrapped as `Narrow`, every other box a row lower, so that neighbouring boxes may
    /// share columns: for participants whose boxes do not fit side by side
    Staggered,
    /// staggered, in boxes hugging their names: the last resort before the listing
    TightStaggered,
}

impl Names {
    /// Boxes without a space inside their sides.
    fn tight(self) -> bool {
        matches!(self, Names::Tight | Names::TightStaggered)
    }

    /// Every other box a row lower.
    fn staggered(self) -> bool {
        matches!(self, Names::Staggered | Names::TightStaggered)
    }
}

/// Per event, the narrowest wrap width from `min` at which its label (a message's or a
/// note's) adds at most [`GROWTH`] rows; 0 for the other events. Each label keeps its own
/// floor, so one long note does not keep every message from wrapping narrower.
pub fn wrap_floors(labels: &Labels, min: usize) -> Vec<usize> {
    labels
        .d
        .events
        .iter()
        .zip(&labels.texts)
        .enumerate()
        .map(|(i, (e, text))| match e {
            Event::Message { .. } | Event::Note { .. } => match labels.floors[i].get() {
                Some((m, found)) if m == min => found,
                _ => {
                    let found = floor(text, labels.words(i), min, labels.cuts);
                    labels.floors[i].set(Some((min, found)));
                    found
                }
            },
            // frame headers are wrapped again to the frame's width when drawn
            _ => 0,
        })
        .collect()
}

/// The narrowest width from `min` at which `lines` wrap into at most `GROWTH` more rows.
fn floor(lines: &[String], words: &[Words], min: usize, cuts: Cuts) -> usize {
    let rows = |max: usize| {
        lines
            .iter()
            .zip(words)
            .map(|(l, w)| w.count(l, max, cuts))
            .sum::<usize>()
    };
    let budget = lines.len() + GROWTH;
    // most labels are short enough to wrap at `min` itself: one count, not a search
    if rows(min) <= budget {
        return min;
    }
    let (mut lo, mut hi) = (min + 1, max_width(lines).max(min));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if rows(mid) <= budget {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// Every label wrapped at one width, whatever the names' layout: the part of a
/// [`Prepared`] that stages with the same width share.
#[derive(Debug, Clone)]
pub struct Wrapped<'a> {
    items: Rc<[Item<'a>]>,
    depth: usize,
}

/// Wrap every label to `max` columns (`usize::MAX`: no wrapping), a message or note no
/// narrower than its floor (`floors`, by event; empty: none).
pub fn prepare<'a>(
    labels: &'a Labels<'a>,
    max: usize,
    names: Names,
    floors: &[usize],
) -> Prepared<'a> {
    with_names(labels, &wrap_labels(labels, max, floors), names)
}

/// Labels wrapped (see [`prepare`]) with names laid out as `names` says.
pub fn with_names<'a>(labels: &'a Labels<'a>, wrapped: &Wrapped<'a>, names: Names) -> Prepared<'a> {
    let d = labels.d;
    Prepared {
        names: labels.names(names),
        actors: &labels.actors,
        created: &labels.created,
        items: Rc::clone(&wrapped.items),
        groups: &d.groups,
        depth: wrapped.depth,
        title: d.title.as_deref(),
        tight: names.tight(),
        staggered: names.staggered(),
    }
}

/// Every label wrapped to `max` columns, each message or note no narrower than its floor.
pub fn wrap_labels<'a>(labels: &'a Labels<'a>, max: usize, floors: &[usize]) -> Wrapped<'a> {
    let d = labels.d;
    let mut depth = 0usize;
    let mut cur = 0usize;
    let items = d
        .events
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let label_max = max.max(floors.get(i).copied().unwrap_or(0));
            match e {
                Event::Message {
                    from,
                    to,
                    arrow,
                    activate,
                    deactivate,
                    ..
                } => Item::Message {
                    from: *from,
                    to: *to,
                    arrow: *arrow,
                    lines: labels.wrapped(i, label_max),
                    text: &labels.texts[i],
                    activate: *activate,
                    deactivate: *deactivate,
                },
                Event::Note {
                    pos, first, last, ..
                } => Item::Note {
                    pos: *pos,
                    first: *first,
                    last: *last,
                    lines: labels.wrapped(i, label_max),
                    text: &labels.texts[i],
                },
                Event::BlockStart { .. } => {
                    cur += 1;
                    depth = depth.max(cur);
                    Item::Open {
                        lines: labels.wrapped(i, max),
                        text: &labels.texts[i][0],
                    }
                }
                Event::BlockDivider { .. } => Item::Divider {
                    lines: labels.wrapped(i, max),
                    text: &labels.texts[i][0],
                },
                Event::BlockEnd => {
                    cur = cur.saturating_sub(1);
                    Item::Close
                }
                Event::Activate(p) => Item::Activate(*p),
                Event::Deactivate(p) => Item::Deactivate(*p),
                Event::Create(p) => Item::Create(*p),
                Event::Destroy(p) => Item::Destroy(*p),
            }
        })
        .collect();
    Wrapped { items, depth }
}

/// Widest label of the diagram (messages, notes, frames), for the wrap search.
pub fn widest_label(p: &Prepared) -> usize {
    p.items
        .iter()
        .map(|i| match i {
            Item::Message { lines, .. }
            | Item::Note { lines, .. }
            | Item::Open { lines, .. }
            | Item::Divider { lines, .. } => lines.width,
            _ => 0,
        })
        .chain(p.names.iter().map(|n| max_width(n)))
        .chain(p.groups.iter().map(|g| display_width(&g.label)))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::parse::parse;

    /// The width search prepares a diagram at many widths: a label is wrapped once per
    /// different result, not once per width tried (it was wrapped at every one).
    #[test]
    fn labels_wrap_once_per_different_result() {
        let d = parse(
            "participant C as quizz\nparticipant G as GitHub API\n\
             C->>G: GET the changed files of pull 42, with the ETag of the last answer\n\
             Note over C,G: the answer is cached until the pull request changes",
        )
        .expect("parses");
        let labels = Labels::new(&d);
        for max in 8..=60 {
            prepare(&labels, max, Names::Whole, &[]);
            prepare(&labels, max, Names::Narrow, &[]);
        }
        let mut results: Vec<Vec<String>> = (8..=60)
            .flat_map(|max| {
                let p = prepare(&labels, max, Names::Whole, &[]);
                p.items
                    .iter()
                    .filter_map(|i| match i {
                        Item::Message { lines, .. } | Item::Note { lines, .. } => {
                            Some(lines.to_vec())
                        }
                        _ => None,
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        results.sort();
        results.dedup();
        assert_eq!(labels.wraps.get(), results.len());
    }

    /// The search that cuts names after `_` and `-` wraps again only the labels that have
    /// one: the others wrap alike, and keep what the first search wrapped.
    #[test]
    fn cutting_names_wraps_again_only_the_labels_with_joiners() {
        let d = parse(
            "participant W as payout-worker\nparticipant P as Postgres\n\
             W->>P: SELECT pg_try_advisory_lock(hashtext('payouts')) FROM the lock table\n\
             P-->>W: true when the lock is held by this worker and no other one\n\
             Note over W,P: a second worker that finds the lock taken skips the batch",
        )
        .expect("parses");
        let labels = Labels::new(&d);
        for max in 8..=40 {
            prepare(&labels, max, Names::Whole, &[]);
        }
        let floors = wrap_floors(&labels, 8);
        let cut = labels.with_names_cut();
        assert_eq!(wrap_floors(&cut, 8)[1..], floors[1..]);
        for max in 8..=40 {
            prepare(&cut, max, Names::Whole, &[]);
        }
        // only the first message has a `_`: its wraps are made again, no other label's
        let alone = Labels::cut(&d, Cuts::Names);
        for max in 8..=40 {
            alone.wrapped(0, max);
        }
        assert!(alone.wraps.get() > 0);
        assert_eq!(cut.wraps.get(), alone.wraps.get());
    }
}
