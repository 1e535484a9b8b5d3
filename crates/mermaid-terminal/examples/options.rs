//! Draw a quiz's Mermaid options as the TUI would: `cargo run -p mermaid-terminal --example options --
//! QUIZ.json QUESTION_ID [WIDTH]` (width of one option, 75 for an 80-column terminal).

use mermaid_terminal::{Line, RenderOptions, render_options};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(file), Some(id)) = (args.next(), args.next()) else {
        return Err("usage: options QUIZ.json QUESTION_ID [WIDTH]".into());
    };
    let width = args.next().map_or(Ok(75), |w| w.parse())?;
    let quiz: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(file)?)?;
    let question = quiz["questions"]
        .as_array()
        .and_then(|qs| qs.iter().find(|q| q["id"] == id.as_str()))
        .ok_or("no such question")?;
    let options = question["options"].as_object().ok_or("no options")?;
    let sources: Vec<&str> = options.values().filter_map(|v| v.as_str()).collect();
    let drawn = render_options(
        &sources,
        &RenderOptions {
            width,
            ascii: false,
        },
    );
    for (key, r) in options.keys().zip(drawn) {
        println!("── option {key} ({:?})", r.form);
        for line in &r.lines {
            println!("{}", Line::text(line));
        }
    }
    Ok(())
}
