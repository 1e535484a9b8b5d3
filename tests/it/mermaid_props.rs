//! Random token soup never panics and never overflows the width.

use proptest::prelude::*;
use quizz::mermaid::{RenderOptions, render};

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
