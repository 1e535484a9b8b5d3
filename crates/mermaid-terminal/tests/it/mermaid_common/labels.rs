//! Label extraction from Mermaid sources, written independently of the renderer's parser.
#![allow(dead_code)]

/// Break a label into the pieces a code-friendly wrap may separate.
pub fn pieces(label: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in label
        .replace("<br/>", "\n")
        .replace("<br>", "\n")
        .replace("<br />", "\n")
        .replace("\\n", "\n")
        .lines()
    {
        for word in line.split_whitespace() {
            let word = word.trim_matches('"');
            if word.is_empty() || word.contains(['#', '&', '<', '>', '*', '`', '~']) {
                continue;
            }
            let mut cur = String::new();
            for c in word.chars() {
                cur.push(c);
                // `=` and `{` too, and last `_` and `-`: a sequence label's piece too wide
                // for its line is cut after them (`conclusion=` `success`, `ExitStatus{`
                // `code:`, `pg_try_` `advisory_lock(`)
                if matches!(c, ',' | '(' | '/' | ';' | ':' | '.' | '=' | '{' | '_' | '-') {
                    out.push(std::mem::take(&mut cur));
                }
            }
            if !cur.is_empty() {
                out.push(cur);
            }
        }
    }
    out.retain(|p| p.chars().any(char::is_alphanumeric));
    out
}

const SEQ_ARROWS: &[&str] = &[
    "<<-->>", "<<->>", "-->>", "->>", "--)", "-)", "-->", "->", "--x", "-x",
];

/// Labels of a sequence diagram, in source order (messages, notes, aliases, block labels).
pub fn sequence_labels(src: &str) -> (Vec<String>, Vec<String>) {
    let mut messages = Vec::new();
    let mut others = Vec::new();
    for line in src.lines().skip(1) {
        let t = line.trim();
        if t.is_empty() || t.starts_with("%%") {
            continue;
        }
        let first = t.split_whitespace().next().unwrap_or("");
        match first {
            "participant" | "actor" => {
                if let Some((_, alias)) = t.split_once(" as ") {
                    others.push(alias.to_string());
                }
            }
            "loop" | "alt" | "else" | "opt" | "par" | "and" | "critical" | "option" | "break" => {
                others.push(t[first.len()..].trim().to_string());
            }
            _ if first.eq_ignore_ascii_case("note") => {
                if let Some((_, text)) = t.split_once(':') {
                    others.push(text.trim().to_string());
                }
            }
            _ => {
                if let Some((head, text)) = t.split_once(':')
                    && SEQ_ARROWS.iter().any(|a| head.contains(a))
                {
                    messages.push(text.trim().to_string());
                }
            }
        }
    }
    (messages, others)
}

/// Node and edge labels of a flowchart (bracket contents, `|edge|` and `-- edge -->` text).
pub fn flowchart_labels(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in src.lines().skip(1) {
        let t = line.trim();
        let first = t.split_whitespace().next().unwrap_or("");
        if t.is_empty()
            || t.starts_with("%%")
            || matches!(
                first,
                "classDef" | "style" | "linkStyle" | "click" | "class" | "direction" | "end"
            )
        {
            continue;
        }
        if first == "subgraph" {
            let rest = t["subgraph".len()..].trim();
            match rest.find('[') {
                Some(i) => out.push(rest[i + 1..].trim_end_matches(']').to_string()),
                None => out.push(rest.to_string()),
            }
            continue;
        }
        let chars: Vec<char> = t.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let after_id = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
            if c == '|'
                && let Some(j) = chars[i + 1..].iter().position(|&x| x == '|')
            {
                // `|"4xx / attempts >= 8"|`: the quotes only let the text hold `>`
                let label: String = chars[i + 1..i + 1 + j].iter().collect();
                out.push(label.trim_matches('"').to_string());
                i += j + 2;
                continue;
            }
            if (matches!(c, '[' | '(' | '{') || c == '>') && after_id {
                let mut depth = 0i32;
                let mut j = i;
                let mut quoted = false;
                while j < chars.len() {
                    match chars[j] {
                        '"' => quoted = !quoted,
                        '[' | '(' | '{' if !quoted => depth += 1,
                        ']' | ')' | '}' if !quoted => depth -= 1,
                        _ => {}
                    }
                    if c == '>' && j == i {
                        depth = 1;
                    }
                    if depth == 0 {
                        break;
                    }
                    j += 1;
                }
                let inner: String = chars[i..j.min(chars.len())].iter().collect();
                out.push(
                    inner
                        .trim_matches(|x: char| "[](){}/\\>\"".contains(x))
                        .to_string(),
                );
                i = j + 1;
                continue;
            }
            i += 1;
        }
        // `A -- text --> B`, `A -. text .-> B`, `A == text ==> B`
        for (open, close) in [
            ("-- ", " -->"),
            ("-- ", " ---"),
            ("-. ", " .->"),
            ("== ", " ==>"),
        ] {
            if let Some(a) = t.find(open)
                && let Some(b) = t[a + 3..].find(close)
            {
                out.push(t[a + 3..a + 3 + b].to_string());
            }
        }
    }
    out
}

/// Labels of a state diagram: state names, transition labels, descriptions, notes. A
/// `<<choice>>` pseudo-state has no label (Mermaid draws a diamond).
pub fn state_labels(src: &str) -> Vec<String> {
    let pseudo: Vec<&str> = src
        .lines()
        .filter_map(|l| l.trim().strip_prefix("state "))
        .filter(|l| l.contains("<<"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    // `state "Matrix expanded" as Expanded`: the state is drawn by its description.
    let named: Vec<(String, String)> = src
        .lines()
        .filter_map(|l| l.trim().strip_prefix("state \""))
        .filter_map(|l| l.split_once("\" as "))
        .map(|(text, id)| {
            (
                id.trim_end_matches('{').trim().to_string(),
                text.to_string(),
            )
        })
        .collect();
    let shown = |id: &str| {
        named
            .iter()
            .find(|(i, _)| i == id)
            .map_or_else(|| id.to_string(), |(_, text)| text.clone())
    };
    let mut out = Vec::new();
    // The lines of a multi-line `note … end note`, while one is open.
    let mut note: Option<Vec<&str>> = None;
    for line in src.lines().skip(1) {
        let t = line.trim();
        if let Some(lines) = note.as_mut() {
            if t == "end note" {
                out.push(lines.join(" "));
                note = None;
            } else {
                lines.push(t);
            }
            continue;
        }
        if t.is_empty() || t.starts_with("direction") || t == "}" || t == "--" {
            continue;
        }
        if let Some(rest) = t.strip_prefix("note ") {
            match rest.split_once(':') {
                Some((_, text)) => out.push(text.trim().to_string()),
                None => note = Some(Vec::new()),
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("state ") {
            if !rest.contains("<<") {
                let rest = rest.trim_end_matches('{').trim();
                match rest.strip_prefix('"').and_then(|r| r.split_once("\" as ")) {
                    Some((text, _)) => out.push(text.to_string()),
                    None => out.push(shown(rest)),
                }
            }
            continue;
        }
        let (head, label) = t.split_once(':').map_or((t, ""), |(a, b)| (a, b));
        for part in head.split("-->") {
            let p = part.trim();
            if p != "[*]" && !pseudo.contains(&p) {
                out.push(shown(p));
            }
        }
        if !label.trim().is_empty() {
            out.push(label.trim().to_string());
        }
    }
    out
}

/// Labels of a class diagram: class names, members, relation labels, notes.
pub fn class_labels(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in src.lines().skip(1) {
        let t = line.trim();
        if t.is_empty() || t.starts_with("direction") || t == "}" || t.starts_with("<<") {
            continue;
        }
        if let Some(rest) = t.strip_prefix("note") {
            let text = rest.rsplit_once('"').map_or("", |(a, _)| a);
            out.push(text.split_once('"').map_or(text, |(_, b)| b).to_string());
            continue;
        }
        if let Some(rest) = t.strip_prefix("class ") {
            out.push(rest.trim_end_matches('{').trim().to_string());
            continue;
        }
        // `namespace scheduler {`: a frame titled by its name.
        if let Some(rest) = t.strip_prefix("namespace ") {
            out.push(rest.trim_end_matches('{').trim().to_string());
            continue;
        }
        if let Some((head, label)) = t.split_once(" : ") {
            out.push(label.trim().to_string());
            out.extend(relation_ends(head));
            continue;
        }
        if t.contains("--") || t.contains("..") {
            out.extend(relation_ends(t));
            continue;
        }
        out.push(t.to_string());
    }
    out
}

/// The class names and cardinalities of a relation (`A "1" *-- "*" B`), not its token.
fn relation_ends(head: &str) -> Vec<String> {
    head.split_whitespace()
        .filter(|w| !w.contains("--") && !w.contains(".."))
        .map(str::to_string)
        .collect()
}

/// Every label of a diagram, whatever its kind.
pub fn labels(src: &str) -> Vec<String> {
    let header = src.lines().next().unwrap_or("");
    if header.starts_with("sequenceDiagram") {
        let (a, b) = sequence_labels(src);
        a.into_iter().chain(b).collect()
    } else if header.starts_with("stateDiagram") {
        state_labels(src)
    } else if header.starts_with("classDiagram") {
        class_labels(src)
    } else {
        flowchart_labels(src)
    }
}
