//! Fuzz the parsers and layouts: any bytes, any width, both glyph sets.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mermaid_terminal::{RenderOptions, render};

fuzz_target!(|data: &[u8]| {
    let [w, h, rest @ ..] = data else { return };
    let (w, h) = (*w, *h);
    let ascii = w & 1 == 1;
    let width = 20 + usize::from(w >> 1) % 180;
    let text = String::from_utf8_lossy(rest);
    // Give most inputs a diagram header so the fuzzer reaches the layouts quickly.
    let headers = ["", "sequenceDiagram\n", "graph TD\n", "graph LR\n", "stateDiagram-v2\n", "classDiagram\n", "flowchart BT\n"];
    let header = headers[usize::from(h) % headers.len()];
    let source = format!("{header}{text}");
    let r = render(&source, &RenderOptions { width, ascii });
    for line in &r.lines {
        assert!(line.width() <= width, "line wider than {width}: {:?}", line.text());
    }
});
