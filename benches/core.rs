//! Parsing a 100-question bot comment and grading it.
//! Run: cargo bench --bench core
#![allow(clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use quizz::comment::{read_quiz, render_quiz_comment, render_results_comment};
use quizz::quiz::{Answers, Quiz, assemble, grade_closed, parse_quiz};

/// The demo's six questions repeated to 100, with unique ids.
fn hundred_questions() -> Quiz {
    let seed = parse_quiz(quizz::source::DEMO_QUIZ).expect("demo quiz parses");
    let questions = (0..100)
        .map(|i| {
            let mut q = seed.questions[i % seed.questions.len()].clone();
            q.id = format!("q{i}");
            q
        })
        .collect();
    Quiz { questions, ..seed }
}

fn answers_for(quiz: &Quiz) -> Answers {
    let values = quiz
        .questions
        .iter()
        .filter_map(|q| q.kind.expected_value().map(|v| (q.id.clone(), v)))
        .collect();
    Answers {
        pr_number: quiz.pr_number,
        values,
    }
}

fn bench(c: &mut Criterion) {
    let quiz = hundred_questions();
    let comment = render_quiz_comment(&quiz);
    let answers = answers_for(&quiz);
    println!(
        "comment: {} bytes, {} questions",
        comment.len(),
        quiz.questions.len()
    );

    // The code of every anchored demo question: read, cut to the anchor, highlighted.
    let demo = quizz::quiz::parse_quiz(quizz::source::DEMO_QUIZ).expect("demo");
    c.bench_function("code snippets of the demo quiz (6, highlighted)", |b| {
        b.iter(|| quizz::code::collect(black_box(&demo), &quizz::code::CodeContext::Demo));
    });
    c.bench_function("parse 100-question comment", |b| {
        b.iter(|| read_quiz(black_box(&comment)).expect("parses"));
    });
    c.bench_function("grade 100 questions", |b| {
        b.iter(|| assemble(&quiz, &grade_closed(black_box(&quiz), black_box(&answers))));
    });
    c.bench_function("parse + grade + render results comment", |b| {
        b.iter(|| {
            let found = read_quiz(black_box(&comment)).expect("parses");
            let results = assemble(&found.quiz, &grade_closed(&found.quiz, &answers));
            render_results_comment(&results).expect("fits")
        });
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
