//! quizz's own cost around the model when it writes a quiz: preparing the input of a
//! 5,000-line diff over 60 files, and accepting a 10-question answer with 2 diagram
//! questions (8 diagrams drawn at 75 columns, compared, checked for tells).
//! Run: cargo bench --bench generate
#![allow(clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use quizz::generate::input::Marked;
use quizz::generate::{
    Context, DEFAULT_BUDGET_CHARS, Input, PrFile, PrText, accept, prepare_pr, user_message,
};
use serde_json::{Value, json};

/// A line of plausible Rust, different for each (file, line).
fn code_line(file: usize, line: usize) -> String {
    match line % 6 {
        0 => format!("    let value_{line} = config.lookup(\"key_{file}_{line}\")?;"),
        1 => format!("    if value_{} > LIMIT_{file} {{", line - 1),
        2 => format!("        return Err(Error::TooLarge {{ file: {file}, line: {line} }});"),
        3 => "    }".to_string(),
        4 => format!("    // step {line}: hand the value to the next stage of module {file}"),
        _ => format!("    stage_{file}.push(value_{});", line - 5),
    }
}

/// 60 files, 5,000 changed lines (modified and added, a few large), plus a lockfile, with
/// whole texts at the head.
fn pr_files() -> (Vec<PrFile>, Vec<String>) {
    let mut files = Vec::new();
    let mut texts = Vec::new();
    let mut remaining = 5000usize;
    for f in 0..60 {
        let changed = if f == 59 {
            remaining
        } else {
            [40, 60, 80, 120, 200][f % 5].min(remaining)
        };
        remaining -= changed;
        let mut patch = String::new();
        let (mut adds, mut dels) = (0, 0);
        let mut at = 0;
        while adds + dels < changed {
            let _ = std::fmt::Write::write_fmt(
                &mut patch,
                format_args!("@@ -{} +{} @@ fn stage_{f}()\n", at + 1, at + 1),
            );
            for k in 0..3 {
                patch.push(' ');
                patch.push_str(&code_line(f, at + k));
                patch.push('\n');
            }
            for k in 0..10.min(changed - adds - dels) {
                if k % 4 == 0 {
                    patch.push('-');
                    dels += 1;
                } else {
                    patch.push('+');
                    adds += 1;
                }
                patch.push_str(&code_line(f, at + 3 + k));
                patch.push('\n');
            }
            at += 20;
        }
        let text: String = (0..at + 20).map(|l| code_line(f, l) + "\n").collect();
        files.push(PrFile {
            filename: format!("src/module_{f:02}/stage.rs"),
            status: if f % 7 == 0 { "added" } else { "modified" }.into(),
            additions: adds as u64,
            deletions: dels as u64,
            patch: Some(patch),
            previous_filename: None,
            sha: Some(format!("{f:040x}")),
        });
        texts.push(text);
    }
    files.push(PrFile {
        filename: "Cargo.lock".into(),
        status: "modified".into(),
        additions: 400,
        deletions: 380,
        patch: Some("@@ -1 +1 @@\n-checksum = \"a\"\n+checksum = \"b\"\n".repeat(200)),
        previous_filename: None,
        sha: None,
    });
    (files, texts)
}

fn prepare(files: &[PrFile], texts: &[String]) -> Input {
    let mut head = |path: &str| {
        let n: usize = path.get(11..13)?.parse().ok()?;
        texts.get(n).map(|t| t.clone().into_bytes())
    };
    prepare_pr(files, &Marked::none(), &mut head, DEFAULT_BUDGET_CHARS)
}

fn context() -> Context {
    Context {
        repository: Some("quizz-cli/quizz".into()),
        pr: Some(PrText {
            number: 20,
            title: "quizz writes the quiz".into(),
            body: "Generate a quiz from the diff when no bot posted one.".into(),
        }),
        questions: None,
    }
}

const SEQ_RIGHT: &str = "sequenceDiagram
    participant T as take
    participant R as resolve_pr
    participant G as GitHub
    participant C as cache
    participant M as model
    T->>R: resolve(branch)
    R->>G: GET /pulls?head=
    G-->>R: PR #20
    R-->>T: PrRef
    T->>C: lookup(head_sha)
    C-->>T: miss
    T->>M: submit_quiz
    M-->>T: tool_use input
    T->>C: store(quiz)";

fn seq_options() -> Value {
    json!({
        "A": SEQ_RIGHT,
        "B": SEQ_RIGHT.replace("    T->>C: lookup(head_sha)\n    C-->>T: miss\n    T->>M: submit_quiz\n    M-->>T: tool_use input",
                               "    T->>M: submit_quiz\n    M-->>T: tool_use input\n    T->>C: lookup(head_sha)\n    C-->>T: miss"),
        "C": SEQ_RIGHT.replace("R->>G: GET /pulls?head=", "T->>G: GET /pulls?head=")
                      .replace("G-->>R: PR #20", "G-->>T: PR #20"),
        "D": SEQ_RIGHT.replace("T->>C: store(quiz)", "M->>C: store(quiz)"),
    })
}

const FLOW_RIGHT: &str = "flowchart TD
    A[\"accept(answer)\"] --> B{parses as draft?}
    B -- no --> F[send findings back]
    B -- yes --> C[run quality checks]
    C --> D{any finding?}
    D -- yes --> F
    D -- no --> E[shuffle options]
    E --> G[write quiz cache]";

fn flow_options() -> Value {
    json!({
        "A": FLOW_RIGHT.replace("D -- no --> E[shuffle options]\n    E --> G[write quiz cache]", "D -- no --> G[write quiz cache]\n    G --> E[shuffle options]"),
        "B": FLOW_RIGHT.replace("D -- yes --> F", "D -- yes --> E"),
        "C": FLOW_RIGHT,
        "D": FLOW_RIGHT.replace("B -- no --> F[send findings back]", "B -- no --> G[write quiz cache]\n    F[send findings back]"),
    })
}

fn mcq(id: &str, prompt: &str, options: [&str; 3], line: u64) -> Value {
    json!({"type": "mcq", "id": id, "prompt": prompt, "options": options, "answer": options[1],
           "explanation": "The stage returns before the push when the limit is passed.",
           "anchor": {"path": "src/module_01/stage.rs", "start_line": line, "end_line": line + 3}})
}

/// Ten questions in the generation schema: six mcq, one tf, two diagrams, one open.
fn answer() -> Value {
    json!({"questions": [
        mcq("q1", "What does `stage_1` return when `value_0` equals `LIMIT_1`?",
            ["`Err(TooLarge)` for line 2", "it pushes `value_0` and goes on", "it panics on the lookup"], 1),
        mcq("q2", "Which lookup runs first after this change?",
            ["`key_1_6`, read after the push", "`key_1_0`, before any push", "none: lookups are lazy now"], 5),
        mcq("q3", "How many values can `stage_1` hold after a failed lookup?",
            ["all the values read before it", "none: the error drops the stage", "only the very last value"], 9),
        mcq("q4", "What does `?` do with a missing key here?",
            ["it returns the lookup's error", "it pushes a default value", "it retries the lookup once"], 13),
        mcq("q5", "Which module sees a value that passed its limit?",
            ["the next stage of the same module", "none: the error stops it", "every module that reads it"], 17),
        mcq("q6", "Where is `LIMIT_1` compared in the new code?",
            ["after the lookup, before the push", "only in the next module", "at compile time, in a const"], 21),
        {"type": "tf", "id": "q7", "prompt": "A value equal to `LIMIT_1` is pushed.", "answer": true,
         "explanation": "The comparison is strict, so an equal value passes.", "anchor": null},
        {"type": "mermaid", "id": "q8", "prompt": "Which diagram shows what `take` does on a PR with no quiz?",
         "options": seq_options(), "answer": "A",
         "explanation": "The cache is asked before the model, and the quiz is stored by take.", "anchor": null},
        {"type": "mermaid", "id": "q9", "prompt": "Which flowchart matches `accept`?",
         "options": flow_options(), "answer": "C",
         "explanation": "Findings go back from both checks; only a clean quiz is shuffled and then cached.", "anchor": null},
        {"type": "open", "id": "q10", "prompt": "Why are the options shuffled after the checks and not before?",
         "rubric": ["the checks name options by label, so the findings must match what the model wrote",
                    "shuffling first would make a repair round point at options the model cannot find",
                    "the shuffle's seed comes from the change, so the cached quiz stays the same"],
         "anchor": null}
    ]})
}

fn bench(c: &mut Criterion) {
    let (files, texts) = pr_files();
    let input = prepare(&files, &texts);
    let changed: u64 = files
        .iter()
        .take(60)
        .map(|f| f.additions + f.deletions)
        .sum();
    let message = user_message(&input, &context());
    println!(
        "input: {} files, {changed} changed lines; {} characters given within a budget of {}; {} left out ({} over the budget), {} whole texts left out; prompt: {} characters of user message + {} of system prompt",
        input.files.len(),
        input.chars,
        input.budget,
        input.left_out.len(),
        input
            .left_out
            .iter()
            .filter(|l| matches!(l.reason, quizz::generate::Reason::OverBudget { .. }))
            .count(),
        input.texts_left_out,
        message.chars().count(),
        quizz::generate::prompt::SYSTEM.chars().count(),
    );
    let answer = answer();
    if let Err(findings) = accept(&answer, &input, 20) {
        panic!(
            "the bench quiz must pass:\n{}",
            quizz::generate::listed(&findings)
        );
    }
    c.bench_function(
        "prepare the input of a 5,000-line diff over 60 files + user message",
        |b| {
            b.iter(|| user_message(&prepare(black_box(&files), &texts), &context()));
        },
    );
    c.bench_function(
        "accept a 10-question quiz with 2 diagram questions (8 diagrams)",
        |b| {
            b.iter(|| accept(black_box(&answer), &input, 20).expect("passes"));
        },
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
