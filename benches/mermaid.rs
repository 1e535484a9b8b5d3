//! Rendering speed: the seed quiz's 5-participant sequence diagram, and the whole corpus
//! (every sequence and flowchart input) at width 80.
#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    clippy::case_sensitive_file_extension_comparisons
)]

#[path = "../tests/mermaid_support/mod.rs"]
mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use quizz::mermaid::{RenderOptions, render};
use std::hint::black_box;

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

criterion_group!(mermaid, benches);
criterion_main!(mermaid);
