//! Every arrow kind, edge kind and node shape keeps a distinct look, in Unicode and ASCII.

use mermaid_terminal::{RenderOptions, render, render_plain};
use std::collections::BTreeSet;

const SEQ_ARROWS: &[&str] = &[
    "->", "-->", "->>", "-->>", "-x", "--x", "-)", "--)", "<<->>", "<<-->>",
];

fn arrow_rows(text: &str) -> Vec<String> {
    // the row under each label row holds the arrow
    let lines: Vec<&str> = text.lines().collect();
    (0..lines.len())
        .filter(|&i| i > 0 && lines[i - 1].contains("msg"))
        .map(|i| lines[i].trim().to_string())
        .collect()
}

#[test]
fn sequence_arrow_kinds_are_distinct_in_both_glyph_sets() {
    let mut src = String::from("sequenceDiagram\nparticipant A\nparticipant B\n");
    for (i, a) in SEQ_ARROWS.iter().enumerate() {
        src.push_str(&format!("A{a}B: msg{i}\n"));
    }
    for ascii in [false, true] {
        for width in [80, 30] {
            let opts = RenderOptions { width, ascii };
            let text = render_plain(&src, &opts);
            let rows =
                if text.contains("msg0\n") && !text.contains("──▶ B") && !text.contains("--> B")
                {
                    arrow_rows(&text)
                } else {
                    Vec::new()
                };
            if !rows.is_empty() {
                let set: BTreeSet<&String> = rows.iter().collect();
                assert_eq!(
                    set.len(),
                    SEQ_ARROWS.len(),
                    "arrow rows not distinct (ascii {ascii}):\n{text}"
                );
            }
            // Compact form: one row per message; the arrow tokens must differ.
            let compact = render_plain(&src, &RenderOptions { width: 20, ascii });
            let tokens: BTreeSet<String> = compact
                .lines()
                .filter(|l| l.contains("msg"))
                .map(|l| l.split_whitespace().nth(1).unwrap_or("").to_string())
                .collect();
            assert_eq!(
                tokens.len(),
                SEQ_ARROWS.len(),
                "compact arrow tokens not distinct (ascii {ascii}):\n{compact}"
            );
        }
    }
}

#[test]
fn each_sequence_arrow_kind_changes_the_drawing() {
    let mut seen = BTreeSet::new();
    for a in SEQ_ARROWS {
        for ascii in [false, true] {
            let src = format!("sequenceDiagram\nA{a}B: hello\n");
            let text = render_plain(&src, &RenderOptions { width: 80, ascii });
            assert!(
                seen.insert((ascii, text.clone())),
                "{a} renders like another arrow:\n{text}"
            );
        }
    }
}

#[test]
fn flowchart_edge_kinds_are_distinct() {
    let edges = [
        "-->", "---", "-.->", "==>", "<-->", "--o", "--x", "-.-", "===",
    ];
    for ascii in [false, true] {
        let mut seen = BTreeSet::new();
        for e in edges {
            for dir in ["TD", "LR"] {
                let src = format!("graph {dir}\nA {e} B\n");
                let r = render(&src, &RenderOptions { width: 80, ascii });
                assert!(r.fallback.is_none(), "{e}: {:?}", r.fallback);
                let text = render_plain(&src, &RenderOptions { width: 80, ascii });
                assert!(
                    seen.insert((dir, text.clone())),
                    "{e} ({dir}, ascii {ascii}) renders like another edge:\n{text}"
                );
            }
        }
    }
}

#[test]
fn node_shapes_are_distinct() {
    let shapes = [
        "A[x]", "A(x)", "A([x])", "A[[x]]", "A[(x)]", "A((x))", "A(((x)))", "A{x}", "A{{x}}",
        "A[/x/]", "A[\\x\\]", "A[/x\\]", "A[\\x/]", "A>x]",
    ];
    for ascii in [false, true] {
        let mut seen = BTreeSet::new();
        for s in shapes {
            let src = format!("graph TD\n{s}\n");
            let text = render_plain(&src, &RenderOptions { width: 80, ascii });
            assert!(
                seen.insert(text.clone()),
                "{s} (ascii {ascii}) looks like another shape:\n{text}"
            );
        }
    }
}

#[test]
fn untrusted_labels_are_sanitised() {
    let src = "sequenceDiagram\nA->>B: hi\u{1b}[31mred\u{1b}]0;title\u{7}\u{9b}2J\u{85}\u{202e}x\n";
    let r = render(src, &RenderOptions::default());
    for line in &r.lines {
        let t = line.text();
        assert!(
            !t.chars()
                .any(|c| c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c)),
            "{t:?}"
        );
    }
    let r = render("gantt\n title \u{1b}[2Jboom\n", &RenderOptions::default());
    assert!(r.fallback.is_some());
    assert!(r.lines.iter().all(|l| !l.text().contains('\u{1b}')));
}

#[test]
fn wide_characters_line_up() {
    for src in [
        "sequenceDiagram\n甲->>乙: 你好世界\n乙-->>甲: 🎉 done\n",
        "graph LR\nA[验证] -->|通过| B[发布]\n",
    ] {
        for width in [80, 40, 20] {
            let r = render(
                src,
                &RenderOptions {
                    width,
                    ascii: false,
                },
            );
            assert!(r.fallback.is_none());
            assert!(r.lines.iter().all(|l| l.width() <= width));
        }
    }
}

#[test]
fn unknown_diagrams_fall_back_with_a_reason() {
    for src in [
        "pie\n \"a\": 1",
        "erDiagram\nA ||--o{ B : has",
        "",
        "hello",
        "sequenceDiagram\nA->>B: x\nwat is this\n",
        "graph TD\nA --> B\nsubgraph x\n",
    ] {
        let r = render(src, &RenderOptions::default());
        assert!(r.fallback.is_some(), "{src:?} should fall back");
        assert!(!r.fallback.as_deref().unwrap_or("").contains('\n'));
    }
}

#[test]
fn huge_inputs_are_capped() {
    let big = format!("graph TD\n{}", "A-->B\n".repeat(20_000));
    let r = render(&big, &RenderOptions::default());
    assert!(
        r.fallback
            .as_deref()
            .is_some_and(|f| f.contains("too large"))
    );
    let many = format!("sequenceDiagram\n{}", "A->>B: x\n".repeat(2_500));
    assert!(render(&many, &RenderOptions::default()).fallback.is_some());
}

#[test]
fn five_hundred_nodes_render_in_bounded_time() {
    let chain: String = (0..500).map(|i| format!("N{i} --> N{}\n", i + 1)).collect();
    let seq: String = (0..500)
        .map(|i| format!("P{}->>P{}: message {i}\n", i % 7, (i * 3) % 7))
        .collect();
    for src in [
        format!("graph TD\n{chain}"),
        format!("graph LR\n{chain}"),
        format!("sequenceDiagram\n{seq}"),
    ] {
        let t = std::time::Instant::now();
        let r = render(
            &src,
            &RenderOptions {
                width: 80,
                ascii: false,
            },
        );
        assert!(r.fallback.is_none());
        assert!(t.elapsed().as_secs() < 10, "took {:?}", t.elapsed());
    }
}

/// Inputs found by `cargo fuzz` (kept as regressions).
#[test]
fn fuzz_findings() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mermaid_fuzz_findings");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let data = std::fs::read(entry.path()).expect("read");
        let [w, h, rest @ ..] = data.as_slice() else {
            continue;
        };
        let width = 20 + usize::from(*w >> 1) % 180;
        let headers = [
            "",
            "sequenceDiagram\n",
            "graph TD\n",
            "graph LR\n",
            "stateDiagram-v2\n",
            "classDiagram\n",
            "flowchart BT\n",
        ];
        let source = format!(
            "{}{}",
            headers[usize::from(*h) % headers.len()],
            String::from_utf8_lossy(rest)
        );
        let r = render(
            &source,
            &RenderOptions {
                width,
                ascii: w & 1 == 1,
            },
        );
        for line in &r.lines {
            assert!(
                line.width() <= width,
                "{}: {} > {width}: {:?}",
                entry.path().display(),
                line.width(),
                line.text()
            );
        }
    }
}

#[test]
fn a_participant_type_stays_visible() {
    let opts = RenderOptions {
        width: 80,
        ascii: false,
    };
    let typed = render_plain(
        "sequenceDiagram\n  participant A\n  database DB\n  A->>DB: save",
        &opts,
    );
    let plain = render_plain(
        "sequenceDiagram\n  participant A\n  participant DB\n  A->>DB: save",
        &opts,
    );
    assert!(typed.contains("«database»"), "{typed}");
    assert_ne!(typed, plain);
}
