//! The sequence options of the realistic sets (quiz, unseen, fresh, final, fifth, sixth) at 60,
//! 75, 95 and 160 columns, for profiling and for checking that a speed-up draws the same:
//! `cargo run -p mermaid-terminal --example sequence_profile -- dump > before.txt` prints
//! every option alone and every question's options together (of all questions, graphs
//! too); `-- run [ROUNDS]` only renders the sequence questions (under
//! `valgrind --tool=callgrind`, a release build; `-- run-all [ROUNDS]`: every option, each
//! alone and each question's together); `-- one 'fresh:"m6"' 0 75` renders one
//! option 100 times and prints it; `-- time` prints each set's median and slowest
//! sequence option per width (`-- time-all`: of all options, as the bench measures them;
//! wall time: noisy on a shared machine); `-- kinds` prints, per set and width, each
//! diagram kind's median and how many of its options take over 150 µs.
#![allow(clippy::expect_used)]

use mermaid_terminal::{Line, RenderOptions, render, render_options};
use std::hint::black_box;
use std::time::{Duration, Instant};

const SETS: [&str; 6] = ["quiz", "unseen", "fresh", "final", "fifth", "sixth"];
const WIDTHS: [usize; 4] = [60, 75, 95, 160];

/// (question id, its options) of every question with a sequence option (`all`: of every
/// question, to check that graphs draw the same too).
fn questions(all: bool) -> Vec<(String, Vec<String>)> {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/realistic-mermaid"
    );
    let mut out = Vec::new();
    for set in SETS {
        let text = std::fs::read_to_string(format!("{dir}/{set}.json")).expect("realistic set");
        let quiz: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        for q in quiz["questions"].as_array().expect("questions") {
            let options: Vec<String> = q["options"]
                .as_object()
                .expect("options")
                .values()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect();
            if all
                || options
                    .iter()
                    .any(|s| s.trim_start().starts_with("sequenceDiagram"))
            {
                out.push((format!("{set}:{}", q["id"]), options));
            }
        }
    }
    out
}

fn print(title: &str, lines: &[Line]) {
    println!("── {title}");
    for l in lines {
        println!("{}", l.text());
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "dump".to_string());
    let questions = questions(matches!(
        mode.as_str(),
        "dump" | "run-all" | "time-all" | "one" | "kinds"
    ));
    if mode == "time" || mode == "time-all" {
        time(&questions, mode == "time-all");
        return;
    }
    if mode == "kinds" {
        kinds(&questions);
        return;
    }
    if mode == "one" {
        one(&questions, args);
        return;
    }
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(1);
    for _ in 0..rounds {
        for width in WIDTHS {
            let opts = RenderOptions {
                width,
                ascii: false,
            };
            for (id, options) in &questions {
                let sources: Vec<&str> = options.iter().map(String::as_str).collect();
                for (k, src) in sources.iter().enumerate() {
                    let alone = render(src, &opts);
                    if mode == "dump" {
                        print(&format!("{id} option {k} alone w{width}"), &alone.lines);
                    }
                }
                let together = render_options(&sources, &opts);
                if mode == "dump" {
                    for (k, r) in together.iter().enumerate() {
                        print(&format!("{id} option {k} together w{width}"), &r.lines);
                    }
                }
            }
        }
    }
}

/// `one SET:"ID" OPTION WIDTH`: one option alone rendered 100 times (for callgrind), then
/// printed.
fn one(questions: &[(String, Vec<String>)], mut args: impl Iterator<Item = String>) {
    let id = args.next().unwrap_or_default();
    let k: usize = args.next().and_then(|k| k.parse().ok()).unwrap_or(0);
    let width: usize = args.next().and_then(|w| w.parse().ok()).unwrap_or(75);
    let opts = RenderOptions {
        width,
        ascii: false,
    };
    let Some(src) = questions
        .iter()
        .find(|(q, _)| *q == id)
        .and_then(|(_, options)| options.get(k))
    else {
        eprintln!("no option {k} of {id}");
        return;
    };
    for _ in 0..100 {
        black_box(render(src, &opts));
    }
    print(&id, &render(src, &opts).lines);
}

/// Per set and width: the median and slowest sequence option rendered alone (the median
/// of 25 renders each, as the bench estimates it; wall time, noisy on a shared machine).
fn time(questions: &[(String, Vec<String>)], all: bool) {
    for set in SETS {
        for width in WIDTHS {
            let opts = RenderOptions {
                width,
                ascii: false,
            };
            let mut per: Vec<(Duration, String)> = questions
                .iter()
                .filter(|(id, _)| id.starts_with(&format!("{set}:")))
                .flat_map(|(id, options)| {
                    options
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| all || s.trim_start().starts_with("sequenceDiagram"))
                        .map(move |(k, s)| {
                            let mut times: Vec<Duration> = (0..25)
                                .map(|_| {
                                    let start = Instant::now();
                                    black_box(render(black_box(s), &opts));
                                    start.elapsed()
                                })
                                .collect();
                            times.sort();
                            (times[times.len() / 2], format!("{id}:{k}"))
                        })
                })
                .collect();
            per.sort();
            let median = &per[per.len() / 2];
            let slowest = &per[per.len() - 1];
            println!(
                "{set} w{width}: {} {} options, median {:?} ({}), slowest {:?} ({})",
                per.len(),
                if all { "diagram" } else { "sequence" },
                median.0,
                median.1,
                slowest.0,
                slowest.1
            );
        }
    }
}

/// Per set and width: how many options of each kind take over 150 µs, and each kind's median.
fn kinds(questions: &[(String, Vec<String>)]) {
    for set in SETS {
        for width in WIDTHS {
            let opts = RenderOptions {
                width,
                ascii: false,
            };
            let mut per: Vec<(String, Duration, String)> = Vec::new();
            for (id, options) in questions
                .iter()
                .filter(|(id, _)| id.starts_with(&format!("{set}:")))
            {
                for (k, s) in options.iter().enumerate() {
                    let mut times: Vec<Duration> = (0..15)
                        .map(|_| {
                            let start = Instant::now();
                            black_box(render(black_box(s), &opts));
                            start.elapsed()
                        })
                        .collect();
                    times.sort();
                    let kind = s.split_whitespace().next().unwrap_or("").to_string();
                    per.push((kind, times[times.len() / 2], format!("{id}:{k}")));
                }
            }
            let mut all: Vec<Duration> = per.iter().map(|p| p.1).collect();
            all.sort();
            let mut line = format!("{set} w{width} median {:?}:", all[all.len() / 2]);
            let mut kinds: Vec<String> = per.iter().map(|p| p.0.clone()).collect();
            kinds.sort();
            kinds.dedup();
            for kind in kinds {
                let mut ts: Vec<Duration> =
                    per.iter().filter(|p| p.0 == kind).map(|p| p.1).collect();
                ts.sort();
                let over = ts.iter().filter(|t| t.as_micros() > 150).count();
                line += &format!(
                    " {kind} n={} med={:?} over150={over};",
                    ts.len(),
                    ts[ts.len() / 2]
                );
            }
            println!("{line}");
        }
    }
}
