//! An anchor points into the change the quiz was written from: a file the model was
//! given, still there after the change, and lines inside it.

use super::Finding;
use crate::generate::input::{FileStatus, Input};
use crate::quiz::{Anchor, Question};

pub fn check(q: &Question, input: &Input) -> Option<Finding> {
    check_anchor(&q.id, q.anchor.as_ref()?, input)
}

/// The anchor of question (or slot) `id` points into the change.
pub fn check_anchor(id: &str, anchor: &Anchor, input: &Input) -> Option<Finding> {
    let path = crate::text::sanitize_line(&anchor.path);
    let Some(file) = input.file(&anchor.path) else {
        let given: Vec<&str> = input.given().map(|f| f.path.as_str()).take(12).collect();
        return Some(Finding::question(
            id,
            format!(
                "anchor {path}: not a file of this change (anchor one of: {})",
                given.join(", ")
            ),
        ));
    };
    if let Some(left) = input.left_out.iter().find(|l| l.path == anchor.path) {
        return Some(Finding::question(
            id,
            format!(
                "anchor {path}: that file was left out of the change you were given ({}); anchor a file you read",
                left.reason
            ),
        ));
    }
    if file.status == FileStatus::Deleted {
        return Some(Finding::question(
            id,
            format!(
                "anchor {path}: the change deletes it; anchor new-side lines of a file that remains"
            ),
        ));
    }
    let (Some(start), Some(end)) = (anchor.start_line, anchor.end_line) else {
        return None;
    };
    if start == 0 || start > end {
        return Some(Finding::question(
            id,
            format!(
                "anchor {path}: lines {start}-{end}: the start must be 1 or more and not after the end"
            ),
        ));
    }
    match file.lines {
        Some(lines) if end > lines => Some(Finding::question(
            id,
            format!("anchor {path}: lines {start}-{end} run past its last line ({lines})"),
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::input::{Marked, PrFile, prepare_pr};
    use crate::quiz::parse_quiz;

    fn input() -> Input {
        let file = |name: &str, status: &str| PrFile {
            filename: name.into(),
            status: status.into(),
            additions: 1,
            deletions: 0,
            patch: Some("@@ -0,0 +1 @@\n+x\n".into()),
            previous_filename: None,
            sha: None,
        };
        let files = [
            file("src/a.rs", "modified"),
            file("old.rs", "removed"),
            file("yarn.lock", "modified"),
        ];
        prepare_pr(
            &files,
            &Marked::none(),
            &mut |_| Some(b"1\n2\n3\n4\n5\n".to_vec()),
            10_000,
        )
    }

    fn at(path: &str, start: u64, end: u64) -> Question {
        let v = serde_json::json!({"version": "1", "pr_number": 1, "questions": [{
            "type": "tf", "id": "q2", "prompt": "p", "answer": true,
            "anchor": {"path": path, "start_line": start, "end_line": end}}]});
        parse_quiz(&v.to_string()).unwrap().questions.remove(0)
    }

    fn text(q: &Question) -> Option<String> {
        check(q, &input()).map(|f| f.to_string())
    }

    #[test]
    fn anchors_inside_the_change() {
        assert_eq!(text(&at("src/a.rs", 2, 5)), None);
        assert_eq!(
            text(&at("src/a.rs", 4, 9)).unwrap(),
            "question q2: anchor src/a.rs: lines 4-9 run past its last line (5)"
        );
        assert_eq!(
            text(&at("src/a.rs", 4, 3)).unwrap(),
            "question q2: anchor src/a.rs: lines 4-3: the start must be 1 or more and not after the end"
        );
        assert_eq!(
            text(&at("src/b.rs", 1, 1)).unwrap(),
            "question q2: anchor src/b.rs: not a file of this change (anchor one of: old.rs, src/a.rs)"
        );
        assert!(
            text(&at("old.rs", 1, 1))
                .unwrap()
                .contains("the change deletes it")
        );
        assert!(
            text(&at("yarn.lock", 1, 1))
                .unwrap()
                .contains("left out of the change you were given (a lockfile)")
        );
    }
}
