//! The README's pictures are what this crate draws: each ```` ```mermaid ```` block is
//! followed by a ```` ```text ```` block holding its rendering at 60 columns (```` ```text
//! listing ````: the listing form; ```` ```text ascii ````: ASCII glyphs). Run with
//! `MERMAID_README_UPDATE=1` to rewrite them after a change to the layouts.

use mermaid_terminal::{Line, RenderOptions, render, render_compact};

const WIDTH: usize = 60;

fn readme_path() -> std::path::PathBuf {
    std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
}

/// The picture a text block's info string asks for, rows trimmed at the end.
fn picture(source: &str, info: &str) -> Vec<String> {
    let opts = RenderOptions {
        width: WIDTH,
        ascii: info.contains("ascii"),
    };
    let rendered = if info.contains("listing") {
        render_compact(source, &opts)
    } else {
        render(source, &opts)
    };
    assert!(
        rendered.fallback.is_none(),
        "{source}: {:?}",
        rendered.fallback
    );
    rendered
        .lines
        .iter()
        .map(|l| Line::text(l).trim_end().to_string())
        .collect()
}

/// The README with every picture redrawn; the number of pictures.
fn redrawn(readme: &str) -> (String, usize) {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let mut source: Option<String> = None;
    let mut pictures = 0;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line == "```mermaid" {
            let end = i + 1 + lines[i + 1..].iter().position(|l| *l == "```").unwrap();
            source = Some(lines[i + 1..end].join("\n"));
            out.extend(lines[i..=end].iter().map(|l| (*l).to_string()));
            i = end + 1;
        } else if let Some(info) = line.strip_prefix("```text") {
            let end = i + 1 + lines[i + 1..].iter().position(|l| *l == "```").unwrap();
            let src = source
                .take()
                .expect("a text block follows its mermaid block");
            out.push(line.to_string());
            out.extend(picture(&src, info));
            out.push("```".into());
            pictures += 1;
            i = end + 1;
        } else {
            out.push(line.to_string());
            i += 1;
        }
    }
    (out.join("\n") + "\n", pictures)
}

#[test]
fn readme_pictures_are_what_the_crate_draws() {
    let path = readme_path();
    let readme = std::fs::read_to_string(&path).unwrap();
    let (expected, pictures) = redrawn(&readme);
    assert!(
        pictures >= 6,
        "the README shows each diagram kind: {pictures} pictures"
    );
    if std::env::var_os("MERMAID_README_UPDATE").is_some() {
        std::fs::write(&path, &expected).unwrap();
        return;
    }
    assert!(
        readme == expected,
        "the README's pictures are stale: run MERMAID_README_UPDATE=1 cargo test -p \
         mermaid-terminal --test it readme:: and review the diff"
    );
}
