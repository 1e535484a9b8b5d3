//! What differs between the options of a question, by what they say: the participants,
//! messages, nodes, edges, states and members one option has and another lacks (see
//! [`crate::items`]), not where their drawings put them. An option lacking a
//! participant differs by that participant and what involves it, nothing else; edges
//! listed in another order are the same edges; messages (which happen in order) that
//! every option has but in another place are said to be moved.

use std::collections::{HashMap, HashSet};

use crate::items::{Item, ItemKind, Items, items_of};

/// Differences past which variants are not paired into rows (each is a row of its own).
const PAIR_AT_MOST: usize = 400;

/// Where the options of a question differ.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    /// One per difference, in the order the options say them.
    pub rows: Vec<Row>,
    /// The items every option has.
    pub same: Vec<String>,
    /// Options that are no diagram this renderer reads (compared by nobody).
    pub unread: Vec<usize>,
}

/// One difference: what each option has in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// What kind of item differs.
    pub kind: ItemKind,
    /// An item every option has, but in another place: the item (then `has` says where).
    pub moved: Option<String>,
    /// Per option: what it has here, `None` for nothing (or an unread option).
    pub has: Vec<Option<String>>,
}

impl Row {
    /// The options grouped by what they have here (`None`: nothing), in option order;
    /// `skip` options are left out.
    pub fn groups(&self, skip: &[usize]) -> Vec<(Vec<usize>, Option<&str>)> {
        let mut out: Vec<(Vec<usize>, Option<&str>)> = Vec::new();
        for (i, has) in self.has.iter().enumerate() {
            if skip.contains(&i) {
                continue;
            }
            let has = has.as_deref();
            match out.iter_mut().find(|(_, h)| *h == has) {
                Some((options, _)) => options.push(i),
                None => out.push((vec![i], has)),
            }
        }
        out
    }
}

impl Comparison {
    /// The items of option `option` that make it differ (it has them and another option
    /// has not, or has them elsewhere).
    pub fn differing(&self, option: usize) -> Vec<&str> {
        self.rows
            .iter()
            .filter_map(|r| match &r.moved {
                Some(item) => Some(item.as_str()),
                None => r.has.get(option)?.as_deref(),
            })
            .collect()
    }
}

/// One item of one option, told apart from its repeats (a message sent twice).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Keyed {
    kind: ItemKind,
    /// as shown
    text: String,
    /// as compared (see [`Item::key`])
    key: String,
    item: Item,
}

fn keyed(items: &Items) -> Vec<Keyed> {
    keyed_items(&items.items)
}

/// The texts `items` are compared by (a repeat told apart as `… (2nd)`), in order.
pub(crate) fn keyed_texts(items: &[Item]) -> Vec<String> {
    keyed_items(items).into_iter().map(|k| k.text).collect()
}

fn keyed_items(items: &[Item]) -> Vec<Keyed> {
    let mut seen: HashMap<(ItemKind, &str), usize> = HashMap::new();
    items
        .iter()
        .map(|item| {
            let n = seen.entry((item.kind, item.key.as_str())).or_insert(0);
            *n += 1;
            let told = |t: &str| match *n {
                1 => t.to_string(),
                n => format!("{t} ({})", ordinal(n)),
            };
            Keyed {
                kind: item.kind,
                text: told(&item.text),
                key: told(&item.key),
                item: item.clone(),
            }
        })
        .collect()
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Two variants of one step: a message turned round, relabelled or re-aimed; a node moved
/// to another subgraph; a member changed in the same class.
fn related(a: &Item, b: &Item) -> bool {
    let ends = |i: &Item| {
        let mut e = i.involves.clone();
        e.sort();
        e
    };
    let share_an_end = a.involves.iter().any(|x| b.involves.contains(x));
    match a.kind {
        ItemKind::Message | ItemKind::Edge => {
            ends(a) == ends(b) || (a.label == b.label && share_an_end)
        }
        ItemKind::Note => a.label == b.label || ends(a) == ends(b),
        ItemKind::Member | ItemKind::Lifeline => a.involves == b.involves,
        ItemKind::Direction => true,
        ItemKind::Node | ItemKind::Participant if !a.id.is_empty() && a.id == b.id => true,
        ItemKind::Node | ItemKind::Block | ItemKind::Subgraph => {
            !a.label.is_empty() && a.label == b.label
        }
        ItemKind::Participant => false,
    }
}

/// Compares the options of one question (their Mermaid sources).
pub fn compare(sources: &[&str]) -> Comparison {
    let items: Vec<Option<Items>> = sources.iter().map(|s| items_of(s)).collect();
    let ordered = items.iter().flatten().any(|i| i.ordered);
    let parsed: Vec<Option<Vec<Keyed>>> = items.iter().map(|i| i.as_ref().map(keyed)).collect();
    let unread: Vec<usize> = (0..sources.len())
        .filter(|&i| parsed[i].is_none())
        .collect();
    let read: Vec<usize> = (0..sources.len())
        .filter(|&i| parsed[i].is_some())
        .collect();
    // Every distinct item in the order the options first say it, and who says it.
    let mut distinct: Vec<Said> = Vec::new();
    let mut index: HashMap<(ItemKind, &str), usize> = HashMap::new();
    for &i in &read {
        for k in parsed[i].iter().flatten() {
            let at = *index.entry((k.kind, k.key.as_str())).or_insert_with(|| {
                distinct.push((k, vec![false; sources.len()]));
                distinct.len() - 1
            });
            distinct[at].1[i] = true;
        }
    }
    let everywhere = |has: &[bool]| read.iter().all(|&i| has[i]);
    let same: Vec<String> = distinct
        .iter()
        .filter(|(_, h)| everywhere(h))
        .map(|(k, _)| k.item.text.clone())
        .collect();
    let differing: Vec<&Said> = distinct.iter().filter(|(_, h)| !everywhere(h)).collect();
    let mut rows = paired(&differing, sources.len());
    if ordered {
        rows.extend(moved(&parsed, &read));
    }
    Comparison { rows, same, unread }
}

/// An item and which options say it.
type Said<'a> = (&'a Keyed, Vec<bool>);

/// One row per difference: variants of one step share a row when no option has two of
/// them (past a few hundred differences, pairing them costs more than it tells).
fn paired(differing: &[&Said], options: usize) -> Vec<Row> {
    let pair = differing.len() <= PAIR_AT_MOST;
    let mut slots: Vec<(Vec<&Said>, Vec<bool>)> = Vec::new();
    for &entry in differing {
        let (k, has) = entry;
        let fits = |(members, covered): &&mut (Vec<&Said>, Vec<bool>)| {
            pair && members[0].0.kind == k.kind
                && covered.iter().zip(has).all(|(c, h)| !(*c && *h))
                && members.iter().any(|(m, _)| related(&m.item, &k.item))
        };
        match slots.iter_mut().find(fits) {
            Some((members, covered)) => {
                members.push(entry);
                for (c, h) in covered.iter_mut().zip(has) {
                    *c |= *h;
                }
            }
            None => slots.push((vec![entry], has.clone())),
        }
    }
    slots
        .into_iter()
        .map(|(members, _)| Row {
            kind: members[0].0.kind,
            moved: None,
            has: (0..options)
                .map(|i| {
                    members
                        .iter()
                        .find(|(_, has)| has[i])
                        .map(|(m, _)| m.text.clone())
                })
                .collect(),
        })
        .collect()
}

/// Items two options both have, in an order one of them does not keep (a message sent
/// before another in one option and after it in the other): for each, what it comes
/// after in each option. Compared two options at a time over what both have, so that a
/// message only some options send does not hide two that swapped places around it.
fn moved(parsed: &[Option<Vec<Keyed>>], read: &[usize]) -> Vec<Row> {
    let order: Vec<Vec<&Keyed>> = parsed
        .iter()
        .map(|p| {
            p.iter()
                .flatten()
                .filter(|k| k.kind != ItemKind::Participant)
                .collect()
        })
        .collect();
    let texts = |i: usize, other: usize| -> Vec<&str> {
        order[i]
            .iter()
            .map(|k| k.key.as_str())
            .filter(|t| order[other].iter().any(|k| k.key == *t))
            .collect()
    };
    let mut out_of_order: HashSet<&str> = HashSet::new();
    for (n, &i) in read.iter().enumerate() {
        for &j in &read[n + 1..] {
            let (a, b) = (texts(i, j), texts(j, i));
            let (in_a, in_b) = crate::compare::common_rows(&a, &b);
            for (seq, kept) in [(&a, in_a), (&b, in_b)] {
                for (t, keep) in seq.iter().zip(kept) {
                    if !keep {
                        out_of_order.insert(t);
                    }
                }
            }
        }
    }
    let mut rows = Vec::new();
    let mut told: HashSet<&str> = HashSet::new();
    for k in read.iter().flat_map(|&i| &order[i]) {
        let t = k.key.as_str();
        if !out_of_order.contains(t) || !told.insert(t) {
            continue;
        }
        let has: Vec<Option<String>> = order
            .iter()
            .map(|seq| {
                let at = seq.iter().position(|x| x.key == t)?;
                Some(match at.checked_sub(1).map(|p| &seq[p].text) {
                    Some(before) => format!("after {before}"),
                    None => "first".to_string(),
                })
            })
            .collect();
        let places: Vec<&String> = read.iter().filter_map(|&i| has[i].as_ref()).collect();
        if places.windows(2).any(|w| w[0] != w[1]) {
            rows.push(Row {
                kind: k.kind,
                moved: Some(k.text.clone()),
                has,
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    type Groups<'a> = Vec<(Vec<usize>, Option<&'a str>)>;

    const WITH_AUDIT: &str = "sequenceDiagram\n    participant C as Client\n    participant A as API\n    participant L as Audit log\n    C->>A: POST /orders\n    A->>L: record order\n    L-->>A: ok\n    A-->>C: 201 Created";
    const WITHOUT_AUDIT: &str = "sequenceDiagram\n    participant C as Client\n    participant A as API\n    C->>A: POST /orders\n    A-->>C: 201 Created";

    #[test]
    fn an_option_lacking_a_participant_differs_only_by_what_involves_it() {
        let c = compare(&[WITH_AUDIT, WITHOUT_AUDIT, WITH_AUDIT, WITH_AUDIT]);
        let differs: Vec<(ItemKind, Groups)> =
            c.rows.iter().map(|r| (r.kind, r.groups(&[]))).collect();
        assert_eq!(
            differs,
            vec![
                (
                    ItemKind::Participant,
                    vec![(vec![0, 2, 3], Some("Audit log")), (vec![1], None)]
                ),
                (
                    ItemKind::Message,
                    vec![
                        (vec![0, 2, 3], Some("API ──▶ Audit log: record order")),
                        (vec![1], None)
                    ]
                ),
                (
                    ItemKind::Message,
                    vec![
                        (vec![0, 2, 3], Some("Audit log ┄┄▶ API: ok")),
                        (vec![1], None)
                    ]
                ),
            ]
        );
        // The participants and messages all four have are the same, not "different".
        assert_eq!(c.same.len(), 4);
        assert!(c.differing(1).is_empty());
    }

    #[test]
    fn edges_listed_in_another_order_are_the_same_edges() {
        let a = "flowchart TD\n  A[start] --> B{ok?}\n  B -->|yes| C[done]\n  B -->|no| A";
        let b = "flowchart TD\n  X{ok?} -->|no| S[start]\n  S --> X\n  X -->|yes| D[done]";
        let c = compare(&[a, b]);
        assert_eq!(c.rows, Vec::new(), "{:?}", c.rows);
        assert_eq!(c.same.len(), 7, "direction, 3 nodes, 3 edges");
    }

    #[test]
    fn a_message_turned_round_is_one_row_with_each_variant() {
        let a = "sequenceDiagram\n  Client->>API: retry\n  API-->>Client: done";
        let d = "sequenceDiagram\n  API->>Client: retry\n  API-->>Client: done";
        let b = "sequenceDiagram\n  Client->>API: other\n  API-->>Client: done";
        let c = compare(&[a, b, a, d]);
        let retry: Vec<_> = c
            .rows
            .iter()
            .map(|r| r.groups(&[]))
            .find(|g| g.iter().any(|(_, t)| *t == Some("API ──▶ Client: retry")))
            .unwrap();
        assert_eq!(
            retry,
            vec![
                (vec![0, 2], Some("Client ──▶ API: retry")),
                (vec![1], Some("Client ──▶ API: other")),
                (vec![3], Some("API ──▶ Client: retry")),
            ]
        );
    }

    #[test]
    fn messages_every_option_sends_in_another_order_are_moved() {
        let a = "sequenceDiagram\n  A->>B: one\n  A->>B: two\n  A->>B: three";
        let b = "sequenceDiagram\n  A->>B: two\n  A->>B: one\n  A->>B: three";
        let c = compare(&[a, b]);
        assert_eq!(c.rows.len(), 1, "{:?}", c.rows);
        let row = &c.rows[0];
        assert!(row.moved.is_some());
        assert_ne!(row.has[0], row.has[1]);
        // a message sent twice is two items
        let twice = "sequenceDiagram\n  A->>B: one\n  A->>B: one";
        let once = "sequenceDiagram\n  A->>B: one";
        let c = compare(&[twice, once]);
        assert_eq!(c.rows[0].has[0].as_deref(), Some("A ──▶ B: one (2nd)"));
    }

    #[test]
    fn two_messages_swapped_are_moved_when_another_option_lacks_one_of_them() {
        // as a bot writes distractors: A publishes before it writes, D writes first, and
        // B sends another message in place of the publish
        let body = |first: &str, second: &str| {
            format!("sequenceDiagram\n  API->>DB: SELECT\n  {first}\n  {second}\n  API-->>C: 201")
        };
        let publish = "API->>K: publish RefundSucceeded";
        let insert = "API->>DB: INSERT refunds";
        let a = body(publish, insert);
        let b = body("API->>K: publish RefundFailed", insert);
        let d = body(insert, publish);
        let c = compare(&[a.as_str(), b.as_str(), d.as_str()]);
        let moved: Vec<&Row> = c.rows.iter().filter(|r| r.moved.is_some()).collect();
        assert!(!moved.is_empty(), "{:?}", c.rows);
        assert!(moved.iter().all(|r| r.has[0] != r.has[2]), "{moved:?}");
        // what makes A and D differ is marked in both
        for option in [0, 2] {
            let differing = c.differing(option);
            assert!(
                differing
                    .iter()
                    .any(|t| t.contains("publish RefundSucceeded") || t.contains("INSERT")),
                "{differing:?}"
            );
        }
    }

    #[test]
    fn guards_swapped_differ_by_the_guards_not_by_every_message_under_them() {
        let body = |first: &str, second: &str, tail: &str| {
            format!(
                "sequenceDiagram\n  W->>DB: UPDATE jobs SET status = 'leased'\n  alt {first}\n    DB-->>W: 1 row\n    W-->>R: 200 Lease\n  else {second}\n    DB-->>W: 0 rows\n    W-->>R: 409 ErrLeaseHeld\n  end\n{tail}"
            )
        };
        let a = body(
            "[rows affected == 1]",
            "[rows affected == 0]",
            "  R->>W: next",
        );
        let c = body(
            "[rows affected == 0]",
            "[rows affected == 1]",
            "  R->>W: next",
        );
        let d = body(
            "[rows affected == 1]",
            "[rows affected == 0]",
            "  R->>W: 404",
        );
        let cmp = compare(&[a.as_str(), c.as_str(), d.as_str()]);
        let kinds: Vec<ItemKind> = cmp.rows.iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            vec![ItemKind::Block, ItemKind::Block, ItemKind::Message],
            "{:#?}",
            cmp.rows
        );
        // shown by their own conditions
        assert!(
            cmp.rows.iter().any(|r| r.has[1]
                .as_deref()
                .is_some_and(|t| t.starts_with("alt") && t.contains("== 0"))),
            "{:#?}",
            cmp.rows
        );
        // a message moved from one branch to the other still differs
        let moved = body("[rows affected == 1]", "[rows affected == 0]", "").replace(
            "    W-->>R: 200 Lease\n  else",
            "  else\n    W-->>R: 200 Lease",
        );
        let moved = moved.replace(
            "else\n    W-->>R: 200 Lease [rows affected == 0]",
            "else [rows affected == 0]\n    W-->>R: 200 Lease",
        );
        let plain = body("[rows affected == 1]", "[rows affected == 0]", "");
        let cmp = compare(&[plain.as_str(), moved.as_str()]);
        assert!(
            cmp.rows.iter().any(|r| r.kind == ItemKind::Message),
            "{:#?}",
            cmp.rows
        );
    }

    #[test]
    fn an_option_that_is_no_diagram_is_left_out() {
        let c = compare(&[WITH_AUDIT, "pie\n \"a\": 1", WITH_AUDIT]);
        assert_eq!(c.unread, vec![1]);
        assert!(c.rows.is_empty());
    }
}
