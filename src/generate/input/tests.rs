//! The input from a real temporary repository and from a PR's files.

use std::path::Path;
use std::process::Command;

use super::*;

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn write(dir: &Path, path: &str, bytes: &[u8]) {
    let full = dir.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, bytes).unwrap();
}

const LOCK_SECRET: &str = "checksum = \"lockfile-contents-never-sent\"";

/// main with one file; a branch that changes it, adds a lockfile, a binary, a generated
/// file (by .gitattributes); then an uncommitted edit and an untracked file.
fn repo() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    git(d, &["init", "--quiet", "--initial-branch=main"]);
    write(
        d,
        "src/lib.rs",
        b"pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    );
    write(d, ".gitattributes", b"gen/** linguist-generated\n");
    git(d, &["add", "."]);
    git(d, &["commit", "--quiet", "-m", "start"]);
    git(d, &["checkout", "--quiet", "-b", "feature"]);
    write(
        d,
        "src/lib.rs",
        b"pub fn add(a: i32, b: i32) -> i32 {\n    a.saturating_add(b)\n}\n",
    );
    write(
        d,
        "Cargo.lock",
        format!("[[package]]\n{LOCK_SECRET}\n").as_bytes(),
    );
    write(d, "assets/blob.dat2", b"\x00\x01\x02binary\x00");
    write(d, "gen/api.rs", b"// generated\npub struct Api;\n");
    git(d, &["add", "."]);
    git(d, &["commit", "--quiet", "-m", "saturate"]);
    write(
        d,
        "src/lib.rs",
        b"pub fn add(a: i32, b: i32) -> i32 {\n    a.wrapping_add(b) // uncommitted\n}\n",
    );
    write(d, "src/new.rs", b"pub fn fresh() {}\n");
    tmp
}

fn reason(input: &Input, path: &str) -> Option<Reason> {
    input
        .left_out
        .iter()
        .find(|l| l.path == path)
        .map(|l| l.reason.clone())
}

#[test]
fn a_branch_gives_its_code_and_names_what_it_left_out() {
    let tmp = repo();
    let input = prepare_local(tmp.path(), &LocalOptions::default()).unwrap();
    let lib = input.file("src/lib.rs").unwrap();
    let patch = lib.patch.as_deref().unwrap();
    assert!(patch.contains("+    a.saturating_add(b)"), "{patch}");
    assert!(patch.starts_with("@@"), "{patch}");
    assert_eq!((lib.additions, lib.deletions), (1, 1));
    assert_eq!(lib.lines, Some(3));
    assert!(lib.text.as_deref().unwrap().contains("saturating_add"));
    assert_eq!(reason(&input, "Cargo.lock"), Some(Reason::Lockfile));
    assert_eq!(reason(&input, "assets/blob.dat2"), Some(Reason::Binary));
    assert_eq!(
        reason(&input, "gen/api.rs"),
        Some(Reason::Generated { by_attribute: true })
    );
    assert_eq!(input.uncommitted, Uncommitted::LeftOut { files: 2 });
    let everything = format!("{input:?}");
    assert!(!everything.contains("lockfile-contents-never-sent"));
    assert!(
        !everything.contains("wrapping_add"),
        "uncommitted change left out"
    );
    assert!(input.file("src/new.rs").is_none());
    let summary = input.summary();
    assert!(summary.contains("Cargo.lock (a lockfile)"), "{summary}");
    assert!(
        summary.contains("uncommitted changes left out (2 files; --include-uncommitted adds them)"),
        "{summary}"
    );
}

#[test]
fn uncommitted_changes_join_when_asked() {
    let tmp = repo();
    let opts = LocalOptions {
        include_uncommitted: true,
        ..LocalOptions::default()
    };
    let input = prepare_local(tmp.path(), &opts).unwrap();
    let lib = input.file("src/lib.rs").unwrap();
    assert!(
        lib.patch
            .as_deref()
            .unwrap()
            .contains("+    a.wrapping_add(b)")
    );
    assert!(lib.text.as_deref().unwrap().contains("wrapping_add"));
    let fresh = input.file("src/new.rs").unwrap();
    assert_eq!(fresh.status, FileStatus::Added);
    assert_eq!(
        fresh.patch.as_deref(),
        Some("@@ -0,0 +1,1 @@\n+pub fn fresh() {}\n")
    );
    assert_eq!(input.uncommitted, Uncommitted::Included { files: 2 });
    assert!(!format!("{input:?}").contains("lockfile-contents-never-sent"));
}

#[test]
fn the_digest_follows_the_change_and_nothing_else() {
    let tmp = repo();
    let a = prepare_local(tmp.path(), &LocalOptions::default()).unwrap();
    let small = LocalOptions {
        budget: 10,
        ..LocalOptions::default()
    };
    let b = prepare_local(tmp.path(), &small).unwrap();
    assert_eq!(a.digest, b.digest, "the budget is not part of the change");
    assert_eq!(
        a,
        prepare_local(tmp.path(), &LocalOptions::default()).unwrap()
    );
    let with = LocalOptions {
        include_uncommitted: true,
        ..LocalOptions::default()
    };
    let c = prepare_local(tmp.path(), &with).unwrap();
    assert_ne!(a.digest, c.digest);
}

#[test]
fn the_default_base_is_the_upstreams_default_branch_then_main() {
    let tmp = repo();
    let d = tmp.path();
    assert_eq!(default_base(d).unwrap(), "main");
    git(d, &["branch", "--quiet", "trunk", "main"]);
    git(d, &["update-ref", "refs/remotes/origin/trunk", "trunk"]);
    git(
        d,
        &[
            "symbolic-ref",
            "refs/remotes/origin/HEAD",
            "refs/remotes/origin/trunk",
        ],
    );
    assert_eq!(default_base(d).unwrap(), "origin/trunk");
    let err = prepare_local(
        d,
        &LocalOptions {
            base: Some("nope".into()),
            ..LocalOptions::default()
        },
    )
    .unwrap_err();
    assert!(matches!(err, InputError::UnknownBase { .. }), "{err}");
}

#[test]
fn outside_a_repository_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let err = prepare_local(tmp.path(), &LocalOptions::default()).unwrap_err();
    assert!(matches!(err, InputError::NotARepo { .. }), "{err}");
}

fn pr_file(name: &str, lines: usize) -> PrFile {
    let mut patch = format!("@@ -0,0 +1,{lines} @@\n");
    for i in 0..lines {
        patch.push_str(&format!("+line {i} of {name}\n"));
    }
    PrFile {
        filename: name.into(),
        status: "added".into(),
        additions: lines as u64,
        deletions: 0,
        patch: Some(patch),
        previous_filename: None,
        sha: None,
    }
}

#[test]
fn over_budget_drops_whole_files_largest_first_and_names_them() {
    let files = vec![
        pr_file("src/a.rs", 10),
        pr_file("src/big.rs", 200),
        pr_file("src/mid.rs", 100),
        pr_file("src/b.rs", 10),
    ];
    let size = |f: &PrFile| f.patch.as_ref().unwrap().chars().count();
    let budget = size(&files[0]) + size(&files[2]) + size(&files[3]) + 5;
    let input = prepare_pr(&files, &Marked::none(), &mut |_| None, budget);
    assert_eq!(
        input.left_out,
        vec![LeftOut {
            path: "src/big.rs".into(),
            reason: Reason::OverBudget {
                chars: size(&files[1])
            }
        }]
    );
    assert!(input.chars <= budget);
    assert_eq!(input.given().count(), 3);
    // a smaller budget drops the next largest too
    let input = prepare_pr(&files, &Marked::none(), &mut |_| None, budget / 3);
    let dropped: Vec<&str> = input.left_out.iter().map(|l| l.path.as_str()).collect();
    assert_eq!(dropped, ["src/big.rs", "src/mid.rs"]);
}

#[test]
fn whole_texts_are_added_smallest_first_while_they_fit() {
    let files = vec![pr_file("a.rs", 2), pr_file("b.rs", 2)];
    let diffs: usize = files.iter().map(|f| f.patch.as_ref().unwrap().len()).sum();
    let mut head = |p: &str| {
        Some(
            if p == "a.rs" {
                "x\n".repeat(50)
            } else {
                "y\n".into()
            }
            .into_bytes(),
        )
    };
    let input = prepare_pr(&files, &Marked::none(), &mut head, diffs + 10);
    assert_eq!(input.file("b.rs").unwrap().text.as_deref(), Some("y\n"));
    assert_eq!(input.file("a.rs").unwrap().text, None);
    assert_eq!(
        input.file("a.rs").unwrap().lines,
        Some(50),
        "the line count stays known"
    );
    assert_eq!(input.texts_left_out, 1);
}

#[test]
fn a_pr_file_without_a_patch_is_left_out_with_a_reason() {
    let mut huge = pr_file("src/huge.rs", 1);
    huge.patch = None;
    huge.additions = 9000;
    let lock = pr_file("pnpm-lock.yaml", 3);
    let input = prepare_pr(
        &[huge, lock],
        &Marked::none(),
        &mut |_| None,
        DEFAULT_BUDGET_CHARS,
    );
    assert_eq!(reason(&input, "src/huge.rs"), Some(Reason::NoDiff));
    assert_eq!(reason(&input, "pnpm-lock.yaml"), Some(Reason::Lockfile));
    assert_eq!(input.given().count(), 0);
}
