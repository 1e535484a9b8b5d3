//! Random token soup never panics and never overflows the width.

use mermaid_terminal::{RenderOptions, render};
use proptest::prelude::*;

const TOKENS: &[&str] = &[
    "sequenceDiagram\n",
    "graph TD\n",
    "graph LR\n",
    "flowchart BT\n",
    "stateDiagram-v2\n",
    "classDiagram\n",
    "participant ",
    "actor ",
    " as ",
    "A",
    "B",
    "C",
    "IT",
    "_x",
    "->>",
    "-->>",
    "->",
    "-->",
    "-x",
    "--x",
    "-)",
    "--)",
    "<<->>",
    "<<-->>",
    ": ",
    "\n",
    "loop ",
    "alt ",
    "else ",
    "opt ",
    "par ",
    "and ",
    "critical ",
    "option ",
    "break ",
    "rect ",
    "end\n",
    "Note over A,B: ",
    "note left of A: ",
    "activate A\n",
    "deactivate A\n",
    "autonumber\n",
    "box Blue G\n",
    "create participant Z\n",
    "destroy A\n",
    "+",
    "-",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "((",
    "))",
    "[[",
    "]]",
    "[(",
    ")]",
    "{{",
    "}}",
    "[/",
    "/]",
    "[\\",
    "\\]",
    ">",
    "|",
    "|yes|",
    "-.->",
    "==>",
    "<-->",
    "--o",
    "---",
    "&",
    ";",
    "subgraph S\n",
    "subgraph T [Title]\n",
    "direction LR\n",
    "classDef x fill:#f00\n",
    ":::x",
    "[*]",
    "state ",
    " { ",
    "}\n",
    "<|--",
    "*--",
    "o--",
    "..>",
    "..|>",
    "class K {\n",
    "+int x\n",
    "<br/>",
    "%% c\n",
    "\u{1b}[31m",
    "\u{7}",
    "\u{85}",
    "\u{202e}",
    "日本語",
    "🎉",
    "é",
    "\t",
    "\"",
    "#quot;",
    "a_very_long_identifier_that_will_not_wrap_anywhere_at_all",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(TOKENS).prop_map(str::to_string),
            1 => "[a-z ]{0,200}",
            1 => any::<String>().prop_map(|s| s.chars().take(40).collect()),
        ],
        0..80,
    )
    .prop_map(|v| v.concat())
}

fn headed_soup() -> impl Strategy<Value = String> {
    (prop::sample::select(&TOKENS[..6]), soup()).prop_map(|(h, s)| format!("{h}{s}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_and_fits(src in headed_soup(), width in 20usize..200, ascii in any::<bool>()) {
        let r = render(&src, &RenderOptions { width, ascii });
        for line in &r.lines {
            prop_assert!(line.width() <= width, "line wider than {}: {:?}", width, line.text());
            prop_assert!(!line.text().chars().any(char::is_control), "control char in {:?}", line.text());
        }
        if let Some(reason) = &r.fallback {
            prop_assert!(!reason.contains('\n'));
        }
    }

    #[test]
    fn raw_soup_never_panics(src in soup(), width in 0usize..200) {
        let r = render(&src, &RenderOptions { width, ascii: false });
        for line in &r.lines {
            prop_assert!(line.width() <= width.max(20));
        }
    }
}

/// A flowchart or state diagram with cycles, as a quiz bot writes them: named boxes,
/// forward edges and back edges (retries, loops), some labelled.
fn cyclic_graph() -> impl Strategy<Value = (String, Vec<String>)> {
    let names = prop::collection::vec("[a-z]{2,9}( [a-z]{2,7}){0,2}", 3..8);
    let edges = prop::collection::vec(
        (
            0usize..8,
            0usize..8,
            prop::option::of("[a-z]{2,8}( [a-z]{2,6})?"),
        ),
        2..12,
    );
    (names, edges, prop::bool::ANY, prop::bool::ANY).prop_map(|(names, edges, lr, state)| {
        let n = names.len();
        let mut src = if state {
            String::from("stateDiagram-v2\n")
        } else {
            format!("flowchart {}\n", if lr { "LR" } else { "TD" })
        };
        let mut labels = Vec::new();
        // a chain through every node, then the random (often backward) edges
        let chain = (0..n - 1).map(|i| (i, i + 1, None));
        for (a, b, label) in chain.chain(edges.into_iter().map(|(a, b, l)| (a % n, b % n, l))) {
            let (x, y) = (&names[a], &names[b]);
            let id = |i: usize| format!("N{i}");
            if state {
                src.push_str(&format!("    {} --> {}", id(a), id(b)));
                if let Some(l) = &label {
                    src.push_str(&format!(" : {l}"));
                }
                src.push('\n');
            } else {
                let arrow = label
                    .as_ref()
                    .map_or_else(|| "-->".to_string(), |l| format!("-- {l} -->"));
                src.push_str(&format!("    {}[{x}] {arrow} {}[{y}]\n", id(a), id(b)));
            }
            labels.extend(label);
        }
        if state {
            for (i, name) in names.iter().enumerate() {
                src.push_str(&format!("    N{i} : {name}\n"));
            }
        }
        (src, labels)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Back edges routed round the outside never break a drawing: it fits, and every
    /// edge label is drawn (on the picture or as a footnote).
    #[test]
    fn cyclic_graphs_fit_and_keep_their_labels(
        (src, labels) in cyclic_graph(),
        width in 40usize..120,
    ) {
        let r = render(&src, &RenderOptions { width, ascii: false });
        for line in &r.lines {
            prop_assert!(line.width() <= width, "line wider than {}: {:?}\n{}", width, line.text(), src);
        }
        if r.form == mermaid_terminal::Form::Drawing {
            let all: String = r.lines.iter().map(mermaid_terminal::Line::text).collect::<Vec<_>>().join("\n");
            // (a label may wrap: each word is drawn)
            for word in labels.iter().flat_map(|l| l.split_whitespace()) {
                prop_assert!(all.contains(word), "label word {:?} missing:\n{}\n{}", word, all, src);
            }
        }
    }
}
