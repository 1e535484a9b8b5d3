//! Rendering speed: the seed quiz's 5-participant sequence diagram, the whole corpus
//! (every sequence and flowchart input) at width 80, and both realistic sets (`quiz.json`,
//! 96 diagrams a quiz bot writes, and `unseen.json`, 64 written without the renderer, in
//! `tests/fixtures/realistic-mermaid`) at 60, 75, 95 and 160 columns: each set's median
//! and slowest diagram (targets: median ≤ 150 µs, every diagram ≤ 2 ms).
#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    clippy::case_sensitive_file_extension_comparisons
)]

#[path = "../tests/it/mermaid_common/mod.rs"]
mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use mermaid_terminal::{RenderOptions, render};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Every option of every question of a realistic set, named `q1:A`.
fn realistic_set(file: &'static str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(common::fixtures_dir().join(file)).expect("realistic set");
    let quiz: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    quiz["questions"]
        .as_array()
        .expect("questions")
        .iter()
        .flat_map(|q| {
            let id = q["id"].as_str().expect("id").to_string();
            common::quiz_options(file, &id)
                .into_iter()
                .map(move |(k, s)| (format!("{id}:{k}"), s))
        })
        .collect()
}

/// Median time of one render (a quick estimate, to pick what criterion measures).
fn quick_median(source: &str, opts: &RenderOptions) -> Duration {
    let mut times: Vec<Duration> = (0..25)
        .map(|_| {
            let start = Instant::now();
            black_box(render(black_box(source), opts));
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn realistic(c: &mut Criterion) {
    for (name, file) in [
        ("realistic", "realistic-mermaid/quiz.json"),
        ("unseen", "realistic-mermaid/unseen.json"),
        ("fresh", "realistic-mermaid/fresh.json"),
        ("final", "realistic-mermaid/final.json"),
        ("fifth", "realistic-mermaid/fifth.json"),
        ("sixth", "realistic-mermaid/sixth.json"),
    ] {
        let set = realistic_set(file);
        for width in [60, 75, 95, 160] {
            let opts = RenderOptions {
                width,
                ascii: false,
            };
            let mut per: Vec<(Duration, usize)> = set
                .iter()
                .enumerate()
                .map(|(i, (_, s))| (quick_median(s, &opts), i))
                .collect();
            per.sort();
            let (median, slowest) = (per[per.len() / 2], per[per.len() - 1]);
            let next: Vec<String> = per
                .iter()
                .rev()
                .skip(1)
                .take(4)
                .map(|(t, i)| format!("{} {t:?}", set[*i].0))
                .collect();
            println!(
                "{name} set at {width} columns: {} diagrams, median {:?} ({}), slowest {:?} ({}); next {}",
                set.len(),
                median.0,
                set[median.1].0,
                slowest.0,
                set[slowest.1].0,
                next.join(", ")
            );
            let median_src = set[median.1].1.clone();
            c.bench_function(&format!("{name}_median_diagram_w{width}"), |b| {
                b.iter(|| render(black_box(&median_src), black_box(&opts)));
            });
            let slowest_src = set[slowest.1].1.clone();
            c.bench_function(&format!("{name}_slowest_diagram_w{width}"), |b| {
                b.iter(|| render(black_box(&slowest_src), black_box(&opts)));
            });
        }
    }
}

fn benches(c: &mut Criterion) {
    let opts = RenderOptions {
        width: 80,
        ascii: false,
    };
    let q6 = common::quiz_options("seed/pr7-quiz.json", "q6");
    let option_a = q6
        .iter()
        .find(|(k, _)| k == "A")
        .map(|(_, s)| s.clone())
        .expect("option A");
    c.bench_function("q6_option_a_w80", |b| {
        b.iter(|| render(black_box(&option_a), black_box(&opts)));
    });
    let wide = RenderOptions {
        width: 120,
        ascii: false,
    };
    c.bench_function("q6_option_a_w120_lifelines", |b| {
        b.iter(|| render(black_box(&option_a), black_box(&wide)));
    });
    let cases: Vec<String> = common::corpus()
        .into_iter()
        .filter(|c| c.is_sequence() || c.is_flowchart())
        .map(|c| c.source)
        .collect();
    println!("corpus: {} sequence + flowchart inputs", cases.len());
    c.bench_function("corpus_all_seq_and_flowchart_w80", |b| {
        b.iter(|| {
            for s in &cases {
                black_box(render(black_box(s), &opts));
            }
        });
    });
}

criterion_group!(mermaid, benches, realistic);
criterion_main!(mermaid);
