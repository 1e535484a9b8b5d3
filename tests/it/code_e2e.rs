//! End to end: the code a question points at, from the fake GitHub's contents API (directly
//! and through Prism), from a real clone with the PR's head commit, from the cache when
//! offline; bad anchors give one-line notes; coverage of the PR's changed files.

use crate::github_fake as support;

use support::fake_github::Content;
use support::{Api, BOT, Sandbox, git};

const AGENT: &str = "src/cognit/llm_claude_agent.py";
const TAKE: &str = "src/cognit/take.py";
const AGENT_CODE: &str = include_str!("../../assets/demo-code/src/cognit/llm_claude_agent.py");
const TAKE_CODE: &str = include_str!("../../assets/demo-code/src/cognit/take.py");
const HEAD: &str = "0123456789abcdef0123456789abcdef01234567";
/// Answers for the demo quiz in plain mode (open answer skipped).
const DEMO_ANSWERS: &str = "1\nf\n2\nf\n\nD\n";

/// A bot comment holding `quiz` (a JSON value) as its state.
fn quiz_comment(quiz: &serde_json::Value) -> String {
    format!(
        "<!-- quizz:quiz v1 -->\n## Quiz on your PR\n\n<details><summary>Quiz state (used by the CLI)</summary>\n\n```json\n{}\n```\n</details>\n",
        serde_json::to_string_pretty(quiz).unwrap()
    )
}

fn demo_quiz() -> serde_json::Value {
    serde_json::from_str(include_str!("../../assets/demo-quiz.json")).unwrap()
}

fn pr_with_demo_quiz(api: &Api, name: &str) -> String {
    let repo = api.repo(name);
    api.fake.add_pull(&repo, 7, "octo", "feature");
    api.fake
        .add_comment(&repo, 7, BOT, "Bot", &quiz_comment(&demo_quiz()));
    repo
}

fn code_from_the_contents_api(api: &Api) {
    let repo = pr_with_demo_quiz(api, "code-api");
    api.fake.set_pull_code(
        &repo,
        7,
        HEAD,
        &[AGENT, TAKE, "README.md"],
        vec![
            (AGENT, Content::File(AGENT_CODE.as_bytes().to_vec())),
            (TAKE, Content::File(TAKE_CODE.as_bytes().to_vec())),
        ],
    );
    let sb = Sandbox::new(api);
    let run = sb.run(&["take", "7", "--repo", &repo, "--plain"], DEMO_ANSWERS);
    run.ok();
    let out = &run.stdout;
    assert!(
        out.contains("Covers 2 of 3 changed files."),
        "{}",
        run.all()
    );
    assert!(out.contains("  README.md: no question"), "{out}");
    assert!(
        out.contains(&format!("  {AGENT}: questions 1, 2, 3, 5, 6")),
        "{out}"
    );
    assert!(
        out.contains(&format!("Code: {AGENT}:95-103 (at the PR's head)")),
        "{out}"
    );
    assert!(out.contains(">  95 │     def _drain_agent("), "{out}");
    assert!(out.contains("   94 │ "), "context before: {out}");
    assert!(out.contains(&format!("Code: {TAKE}:23-28")), "{out}");
    // The snippet comes right after its prompt, before the options.
    let q1 = out.find("── Question 1 of 6").unwrap();
    let code = out[q1..].find("Code: ").unwrap();
    let option = out[q1..].find("  1) ").unwrap();
    assert!(code < option, "{out}");
    // One request per file, and the files' list once.
    let log = api.fake.requests(&format!("/repos/{repo}/"));
    let contents = log.iter().filter(|l| l.path.contains("/contents/")).count();
    assert_eq!(contents, 2, "{log:#?}");
    assert!(
        log.iter()
            .all(|l| !l.path.contains("/contents/") || l.path.contains("%2F")),
        "slashes in the path are sent as %2F: {log:#?}"
    );

    // Offline, the cached copy still shows the code.
    let mut offline = sb;
    offline.set("GITHUB_API_URL", "http://127.0.0.1:9");
    let again = offline.run(
        &["take", "7", "--repo", &repo, "--plain", "--new-attempt"],
        "\n\n\n\n\n\n",
    );
    again.ok();
    assert!(again.all().contains("offline"), "{}", again.all());
    assert!(
        again
            .stdout
            .contains(&format!("Code: {AGENT}:63-70 (at the PR's head)")),
        "{}",
        again.all()
    );
    assert!(again.stdout.contains("Covers 2 of 3 changed files."));
}
both!(code_from_the_contents_api);

#[test]
fn code_from_a_clone_with_the_head_commit_needs_no_request() {
    let api = Api::direct();
    let repo = pr_with_demo_quiz(&api, "code-clone");
    let sb = Sandbox::new(&api);
    let work = &sb.cwd;
    git(work, &["init", "-q", "-b", "main"]);
    for (path, text) in [(AGENT, AGENT_CODE), (TAKE, TAKE_CODE)] {
        let file = work.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let head = commit_all(work);
    // The working copy moves on; the code shown is the commit's.
    std::fs::write(work.join(AGENT), "changed after the commit\n").unwrap();
    api.fake
        .set_pull_code(&repo, 7, &head, &[AGENT, TAKE], Vec::new());
    let run = sb.run(&["take", "7", "--repo", &repo, "--plain"], DEMO_ANSWERS);
    run.ok();
    assert!(
        run.stdout.contains(&format!(
            "Code: {AGENT}:95-103 (from your clone at the PR's head)"
        )),
        "{}",
        run.all()
    );
    assert!(run.stdout.contains(">  95 │     def _drain_agent("));
    assert!(
        api.fake
            .requests(&format!("/repos/{repo}/"))
            .iter()
            .all(|l| !l.path.contains("/contents/")),
        "no contents request"
    );
    // With GitHub gone, the clone still has it.
    let mut offline = sb;
    offline.set("GITHUB_API_URL", "http://127.0.0.1:9");
    let again = offline.run(
        &["take", "7", "--repo", &repo, "--plain", "--new-attempt"],
        "",
    );
    again.ok();
    assert!(again.all().contains("offline"), "{}", again.all());
    assert!(
        again.stdout.contains("(from your clone at the PR's head)"),
        "{}",
        again.all()
    );
}

/// Commits everything in `work` (a fresh repository); returns the commit's sha.
fn commit_all(work: &std::path::Path) -> String {
    git(work, &["add", "."]);
    git(
        work,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@e",
            "commit",
            "-qm",
            "head",
        ],
    );
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(work)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A quiz of true/false questions, one per anchor.
fn anchored_quiz(anchors: &[serde_json::Value]) -> serde_json::Value {
    let questions: Vec<serde_json::Value> = anchors
        .iter()
        .enumerate()
        .map(|(i, a)| {
            serde_json::json!({
                "type": "tf", "id": format!("b{}", i + 1),
                "prompt": format!("Bad anchor {}", i + 1), "answer": true, "anchor": a
            })
        })
        .collect();
    serde_json::json!({"version": "1", "pr_number": 7, "questions": questions})
}

#[test]
fn bad_anchors_give_a_note_and_never_read_outside_the_repository() {
    let api = Api::direct();
    let repo = api.repo("code-bad");
    api.fake.add_pull(&repo, 7, "octo", "feature");
    let anchor = |path: &str, a: u64, b: u64| serde_json::json!({"path": path, "start_line": a, "end_line": b});
    let anchors = [
        anchor("src/missing.py", 1, 2),
        anchor("../../etc/passwd", 1, 1),
        anchor("/etc/passwd", 1, 1),
        anchor(TAKE, 500, 510),
        anchor("logo.png", 1, 1),
        anchor("big.txt", 1, 1),
        anchor("escape", 1, 1),
    ];
    api.fake.add_comment(
        &repo,
        7,
        BOT,
        "Bot",
        &quiz_comment(&anchored_quiz(&anchors)),
    );
    let sb = Sandbox::new(&api);
    let work = &sb.cwd;
    git(work, &["init", "-q", "-b", "main"]);
    std::fs::create_dir_all(work.join("src/cognit")).unwrap();
    std::fs::write(work.join(TAKE), TAKE_CODE).unwrap();
    std::fs::write(work.join("logo.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let big = std::fs::File::create(work.join("big.txt")).unwrap();
    big.set_len(50 * 1024 * 1024).unwrap();
    std::os::unix::fs::symlink("../../../etc/passwd", work.join("escape")).unwrap();
    let head = commit_all(work);
    api.fake.set_pull_code(&repo, 7, &head, &[], Vec::new());
    let run = sb.run(&["take", "7", "--repo", &repo, "--plain"], &"t\n".repeat(7));
    run.ok();
    let out = &run.stdout;
    for note in [
        "Code: src/missing.py: no such file at this commit",
        "Code: ../../etc/passwd: the path leaves the repository (..): not read",
        "Code: /etc/passwd: an absolute path is outside the repository: not read",
        "Code: src/cognit/take.py: line 500 is past the end of the file (63 lines at this commit)",
        "Code: logo.png: a binary file: nothing to show",
        "Code: big.txt: too large to show (50.0 MB; quizz reads files up to 1 MB)",
        "Code: escape: a symlink that leaves the repository: not read",
    ] {
        assert!(out.contains(note), "{note}\n{}", run.all());
    }
    assert!(!out.contains("root:"), "nothing of /etc/passwd is shown");
}

#[test]
fn confidence_is_asked_in_practice_and_travels_in_the_results() {
    let api = Api::direct();
    let sb = Sandbox::new(&api);
    // q1 right rated 1, q2 wrong rated 5, q3 skipped with Enter, q4, q5 skipped, q6.
    let input = "1\n1\nt\n5\n2\n\nf\n3\n\nD\n2\n";
    let run = sb.run(
        &["take", "--demo", "--plain", "--practice", "--json"],
        input,
    );
    run.ok();
    assert_eq!(
        run.stderr
            .matches("Confidence (1-5, Enter to skip): ")
            .count(),
        5,
        "{}",
        run.all()
    );
    let results: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let rating = |id: &str| {
        results["per_question"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["question_id"] == id)
            .unwrap()
            .get("confidence")
            .cloned()
    };
    assert_eq!(rating("q1"), Some(serde_json::json!(1)));
    assert_eq!(rating("q2"), Some(serde_json::json!(5)));
    assert_eq!(rating("q3"), None, "skipped: omitted, not null");
    // The report says it in words.
    let words = Sandbox::new(&api).run(&["take", "--demo", "--plain", "--practice"], input);
    words.ok();
    assert!(
        words
            .stdout
            .contains("Calibration: 1 confident but wrong · 2 right but unsure"),
        "{}",
        words.all()
    );
    assert!(
        words.stdout.contains("q2       0%  (confident but wrong)"),
        "{}",
        words.all()
    );
    // The config turns the question off.
    let off = Sandbox::new(&api);
    let config = off.home.path().join("config/quizz");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("config.toml"),
        "[take]\npractice = true\n[practice]\nconfidence = false\n",
    )
    .unwrap();
    let quiet = off.run(&["take", "--demo", "--plain"], "1\nt\n");
    assert!(
        quiet.stdout.contains("Practice: you see right or wrong"),
        "{}",
        quiet.all()
    );
    assert!(!quiet.stdout.contains("Confidence"), "{}", quiet.all());
}

/// What a screen reader hears for the first question of the demo: prompt, code, options.
#[test]
fn plain_mode_prints_the_snippet_after_the_prompt() {
    let api = Api::direct();
    let sb = Sandbox::new(&api);
    let run = sb.run(&["take", "--demo", "--plain"], "");
    let out = &run.stdout;
    let start = out.find("── Question 1 of 6").unwrap();
    let end = out.find("Answer (1-4):").unwrap();
    insta::assert_snapshot!("plain_question_with_code", &out[start..end]);
}

/// A pull request cached by a quizz that did not keep the head commit is read again in
/// full, not re-validated into a 304 that would leave the code unknown.
#[test]
fn an_older_cache_without_the_head_commit_is_read_again() {
    let api = Api::direct();
    let repo = pr_with_demo_quiz(&api, "code-old-cache");
    api.fake.set_pull_code(
        &repo,
        7,
        HEAD,
        &[AGENT, TAKE],
        vec![
            (AGENT, Content::File(AGENT_CODE.as_bytes().to_vec())),
            (TAKE, Content::File(TAKE_CODE.as_bytes().to_vec())),
        ],
    );
    let sb = Sandbox::new(&api);
    sb.run(&["take", "7", "--repo", &repo, "--plain"], "").ok();
    let file = sb
        .home
        .path()
        .join(format!("data/quizz/cache/github.com/{repo}/7.json"));
    let mut cache: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(cache["pull"]["head_sha"], HEAD);
    cache["pull"].as_object_mut().unwrap().remove("head_sha");
    cache.as_object_mut().unwrap().remove("changed_files");
    std::fs::write(&file, serde_json::to_string(&cache).unwrap()).unwrap();
    let again = sb.run(&["take", "7", "--repo", &repo, "--plain"], "");
    again.ok();
    assert!(
        again.stdout.contains("Covers 2 of 2 changed files."),
        "{}",
        again.all()
    );
    let pulls = api.fake.requests(&format!("/repos/{repo}/pulls/7"));
    let last = pulls.iter().rfind(|r| !r.path.ends_with("/files")).unwrap();
    assert!(!last.if_none_match, "read in full: {pulls:#?}");
}
