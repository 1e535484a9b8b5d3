//! Typed indices of the graph renderer: a node, an edge, a subgraph, an item of a layer
//! and a route segment each have their own id type, and an [`IdVec`] is indexed only by
//! its own, so a node's index can no longer be taken for a layer item's by mistake.
//!
//! A layer index (a rank) stays a plain `usize` on purpose: layers are counted, compared,
//! subtracted (`abs_diff`, `l + 1`) and used as ranges (`lo..=hi`) all through the layout.
//! The gaps between layers are one fewer and have collections of their own (tracks,
//! label slots, rows), so a gap has its id, taken from the layer above it
//! ([`GapId::below`]); a plan's frames have theirs ([`FrameId`]).

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// An index into an [`IdVec`] of its own type.
pub trait Id: Copy {
    fn new(index: usize) -> Self;
    fn index(self) -> usize;
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(usize);

        impl Id for $name {
            fn new(index: usize) -> Self {
                $name(index)
            }
            fn index(self) -> usize {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id_type!(
    /// A node of the graph (a box, a `[*]`, a choice or a bar).
    NodeId
);
id_type!(
    /// An edge of the graph.
    EdgeId
);
id_type!(
    /// An item of a layer: a node, or a dummy point a long edge passes through. The first
    /// items are the nodes, in node order (see [`ItemId::of_node`]).
    ItemId
);
id_type!(
    /// A segment of an edge's route between two consecutive layers.
    SegId
);
id_type!(
    /// A subgraph (a composite state, a namespace).
    ClusterId
);

id_type!(
    /// A subgraph's frame in a plan, in the order the frames were laid out.
    FrameId
);
id_type!(
    /// The gap between a layer and the next.
    GapId
);

impl GapId {
    /// The gap under layer `layer`, between it and the next.
    pub fn below(layer: usize) -> GapId {
        GapId(layer)
    }

    /// The gap over layer `layer`, between the one before and it (none over the first).
    pub fn above(layer: usize) -> Option<GapId> {
        layer.checked_sub(1).map(GapId)
    }
}

impl ItemId {
    /// The item of node `n`: every layering puts the nodes first, in node order, and
    /// keeps all of them (only dummies are dropped), so a node's item has its index.
    pub fn of_node(n: NodeId) -> ItemId {
        ItemId(n.0)
    }
}

/// A `Vec` indexed by its own id type only.
#[derive(Clone, PartialEq, Eq)]
pub struct IdVec<I, T> {
    raw: Vec<T>,
    _id: PhantomData<fn(I) -> I>,
}

impl<I, T: fmt::Debug> fmt::Debug for IdVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.raw.fmt(f)
    }
}

impl<I, T> Default for IdVec<I, T> {
    fn default() -> Self {
        IdVec::from(Vec::new())
    }
}

impl<I, T> From<Vec<T>> for IdVec<I, T> {
    fn from(raw: Vec<T>) -> Self {
        IdVec {
            raw,
            _id: PhantomData,
        }
    }
}

impl<I, T> FromIterator<T> for IdVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        IdVec::from(iter.into_iter().collect::<Vec<T>>())
    }
}

impl<I: Id, T> IdVec<I, T> {
    pub fn new() -> Self {
        IdVec::default()
    }

    pub fn with_capacity(n: usize) -> Self {
        IdVec::from(Vec::with_capacity(n))
    }

    /// `n` copies of `v`.
    pub fn filled(n: usize, v: T) -> Self
    where
        T: Clone,
    {
        IdVec::from(vec![v; n])
    }

    pub fn len(&self) -> usize {
        self.raw.len()
    }

    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// Append `v`; its id.
    pub fn push(&mut self, v: T) -> I {
        self.raw.push(v);
        I::new(self.raw.len() - 1)
    }

    pub fn get(&self, i: I) -> Option<&T> {
        self.raw.get(i.index())
    }

    /// Every id, in order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + use<I, T> {
        (0..self.raw.len()).map(I::new)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }

    /// (id, value) pairs, in order.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> {
        self.raw.iter().enumerate().map(|(i, v)| (I::new(i), v))
    }

    /// Every value set to `v`.
    pub fn fill(&mut self, v: T)
    where
        T: Clone,
    {
        self.raw.fill(v);
    }

    /// The id of the first value that satisfies `f`.
    pub fn position(&self, f: impl FnMut(&T) -> bool) -> Option<I> {
        self.raw.iter().position(f).map(I::new)
    }

    pub fn contains(&self, v: &T) -> bool
    where
        T: PartialEq,
    {
        self.raw.contains(v)
    }
}

impl<I: Id, T> Index<I> for IdVec<I, T> {
    type Output = T;
    fn index(&self, i: I) -> &T {
        &self.raw[i.index()]
    }
}

impl<I: Id, T> IndexMut<I> for IdVec<I, T> {
    fn index_mut(&mut self, i: I) -> &mut T {
        &mut self.raw[i.index()]
    }
}

impl<'a, I, T> IntoIterator for &'a IdVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter()
    }
}

impl<'a, I, T> IntoIterator for &'a mut IdVec<I, T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::{IdVec, NodeId, SegId};

    #[test]
    fn an_id_vec_hands_out_the_ids_it_is_indexed_by() {
        let mut v: IdVec<NodeId, &str> = IdVec::new();
        let start = v.push("start");
        let end = v.push("end");
        assert_eq!((v[start], v[end]), ("start", "end"));
        assert_eq!(v.ids().collect::<Vec<_>>(), vec![start, end]);
        let pairs: Vec<(NodeId, &&str)> = v.iter_enumerated().collect();
        assert_eq!(pairs, vec![(start, &"start"), (end, &"end")]);
        let mut ports: IdVec<SegId, (i64, i64)> = IdVec::filled(2, (0, 0));
        let second = ports.ids().last().unwrap_or_else(|| panic!("two ids"));
        ports[second] = (3, 4);
        assert_eq!(
            ports.iter().copied().collect::<Vec<_>>(),
            vec![(0, 0), (3, 4)]
        );
    }
}
