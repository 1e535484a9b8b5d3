use super::*;
use crate::quiz::Anchor;

fn anchor(path: &str, start: u64, end: u64) -> Anchor {
    Anchor {
        path: path.into(),
        start_line: Some(start),
        end_line: Some(end),
        extra: serde_json::Map::new(),
    }
}

fn text(n: u64) -> String {
    let lines: Vec<String> = (1..=n).map(|i| format!("line_{i} = {i}")).collect();
    lines.join("\n")
}

#[test]
fn a_snippet_has_three_lines_of_context_and_marks_the_anchor() {
    let s = snippet(
        &text(60),
        &anchor("a.py", 41, 47),
        Some("https://github.com/o/r/blob/abc"),
        Provenance::GitHub,
    )
    .unwrap();
    assert_eq!(s.first, 38);
    assert_eq!(s.lines.len(), 13);
    let marked: Vec<u64> = s
        .numbered()
        .filter(|(_, m, _)| *m)
        .map(|(n, _, _)| n)
        .collect();
    assert_eq!(marked, (41..=47).collect::<Vec<_>>());
    assert_eq!(s.title(), "a.py:41-47");
    assert_eq!(
        s.url.as_deref(),
        Some("https://github.com/o/r/blob/abc/a.py#L41-L47")
    );
}

#[test]
fn edges_of_the_file_clip_the_context() {
    let s = snippet(&text(5), &anchor("a.py", 1, 9), None, Provenance::Bundled).unwrap();
    assert_eq!((s.first, s.lines.len()), (1, 5));
    assert_eq!(*s.marked.end(), 5);
    let past = snippet(&text(5), &anchor("a.py", 9, 12), None, Provenance::Bundled).unwrap_err();
    assert!(past.contains("past the end"), "{past}");
}

#[test]
fn a_very_long_anchor_is_cut() {
    let s = snippet(
        &text(1000),
        &anchor("a.py", 1, 900),
        None,
        Provenance::Bundled,
    )
    .unwrap();
    assert!(s.cut);
    assert_eq!(*s.marked.end(), MAX_SNIPPET_LINES);
}
