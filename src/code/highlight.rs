//! Syntax highlighting with syntect's bundled grammars, reduced to a few token kinds so the
//! front ends pick colours that suit the terminal (and none under `NO_COLOR`).

use std::sync::LazyLock;

use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};

use crate::text::sanitize_line;

/// What a piece of code is, as far as colour goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Plain,
    Comment,
    String,
    Number,
    /// `None`, `true`, `self`, …
    Constant,
    Keyword,
    Function,
    Type,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub text: String,
}

/// A line longer than this is cut (minified code): the panel shows its start.
const MAX_LINE_CHARS: usize = 400;

static SYNTAXES: LazyLock<SyntaxSet> = LazyLock::new(SyntaxSet::load_defaults_newlines);

/// Scope prefixes to token kinds, most specific first.
static CLASSES: LazyLock<Vec<(Scope, TokenKind)>> = LazyLock::new(|| {
    [
        ("comment", TokenKind::Comment),
        ("string", TokenKind::String),
        ("constant.numeric", TokenKind::Number),
        ("constant.language", TokenKind::Constant),
        ("constant.character", TokenKind::String),
        ("variable.language", TokenKind::Constant),
        ("entity.name.function", TokenKind::Function),
        ("support.function", TokenKind::Function),
        ("variable.function", TokenKind::Function),
        ("entity.name.class", TokenKind::Type),
        ("entity.name.type", TokenKind::Type),
        ("entity.name.struct", TokenKind::Type),
        ("entity.name.enum", TokenKind::Type),
        ("support.type", TokenKind::Type),
        ("support.class", TokenKind::Type),
        ("storage.type", TokenKind::Keyword),
        ("storage.modifier", TokenKind::Keyword),
        ("keyword.operator.word", TokenKind::Keyword),
        ("keyword.operator", TokenKind::Plain),
        ("keyword", TokenKind::Keyword),
    ]
    .into_iter()
    .filter_map(|(s, k)| Scope::new(s).ok().map(|s| (s, k)))
    .collect()
});

fn syntax_for(path: &str, first_line: &str) -> &'static SyntaxReference {
    let ss = &*SYNTAXES;
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.').map_or(name, |(_, e)| e);
    ss.find_syntax_by_extension(name)
        .or_else(|| ss.find_syntax_by_extension(ext))
        .or_else(|| ss.find_syntax_by_first_line(first_line))
        .unwrap_or_else(|| ss.find_syntax_plain_text())
}

/// Lines of the file named `path`, made safe to draw (control sequences stripped, tabs
/// expanded, very long lines cut) and split into tokens. Parsing starts at the first line
/// given, so a snippet that opens inside a multi-line string may colour its first lines
/// as code: a small price for never parsing a whole large file.
pub fn highlight(path: &str, lines: &[&str]) -> Vec<Vec<Token>> {
    let clean: Vec<String> = lines.iter().map(|l| clean_line(l)).collect();
    let syntax = syntax_for(path, clean.first().map_or("", String::as_str));
    let mut state = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    clean
        .iter()
        .map(|line| {
            let with_newline = format!("{line}\n");
            let Ok(ops) = state.parse_line(&with_newline, &SYNTAXES) else {
                return vec![plain(line)];
            };
            let mut tokens = Vec::new();
            let mut at = 0;
            for (offset, op) in ops {
                let offset = offset.min(line.len());
                if offset > at {
                    push(&mut tokens, kind_of(&stack), &line[at..offset]);
                    at = offset;
                }
                // A grammar error leaves the colours as they were: never a crash.
                let _ = stack.apply(&op);
            }
            if at < line.len() {
                push(&mut tokens, kind_of(&stack), &line[at..]);
            }
            tokens
        })
        .collect()
}

fn clean_line(line: &str) -> String {
    let line = sanitize_line(line.trim_end_matches('\r'));
    if line.chars().count() > MAX_LINE_CHARS {
        let mut cut: String = line.chars().take(MAX_LINE_CHARS).collect();
        cut.push('…');
        cut
    } else {
        line
    }
}

fn plain(line: &str) -> Token {
    Token {
        kind: TokenKind::Plain,
        text: line.to_string(),
    }
}

fn push(tokens: &mut Vec<Token>, kind: TokenKind, text: &str) {
    if text.is_empty() {
        return;
    }
    match tokens.last_mut() {
        Some(last) if last.kind == kind => last.text.push_str(text),
        _ => tokens.push(Token {
            kind,
            text: text.to_string(),
        }),
    }
}

fn kind_of(stack: &ScopeStack) -> TokenKind {
    for scope in stack.as_slice().iter().rev() {
        for (class, kind) in CLASSES.iter() {
            if class.is_prefix_of(*scope) {
                return *kind;
            }
        }
    }
    TokenKind::Plain
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(path: &str, line: &str) -> Vec<(TokenKind, String)> {
        highlight(path, &[line])[0]
            .iter()
            .map(|t| (t.kind, t.text.clone()))
            .collect()
    }

    #[test]
    fn python_and_rust_tokens_get_their_kinds() {
        let py = kinds("src/a.py", "def run(x):  # go");
        assert!(py.contains(&(TokenKind::Keyword, "def".into())), "{py:?}");
        assert!(py.contains(&(TokenKind::Function, "run".into())), "{py:?}");
        assert!(
            py.iter()
                .any(|(k, t)| *k == TokenKind::Comment && t.contains("go"))
        );
        let rs = kinds("lib.rs", r#"let s = "hi"; // done"#);
        assert!(
            rs.iter()
                .any(|(k, t)| *k == TokenKind::String && t.contains("hi")),
            "{rs:?}"
        );
    }

    #[test]
    fn text_is_kept_whole_and_made_safe() {
        let line = "x = '\u{1b}]0;owned\u{7}'\tend";
        let tokens = &highlight("a.py", &[line])[0];
        let text: String = tokens.iter().map(|t| t.text.as_str()).collect();
        assert!(!text.contains('\u{1b}') && !text.contains('\t'), "{text:?}");
        assert!(text.ends_with("    end"), "{text:?}");
        let unknown = &highlight("notes.unknown-ext", &["plain words"])[0];
        assert_eq!(unknown[0].text, "plain words");
    }
}
