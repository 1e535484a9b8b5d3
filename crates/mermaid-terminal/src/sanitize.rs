//! Untrusted labels reach a terminal: every label, title and source line the crate draws
//! passes through [`strip_controls`] first, so no escape sequence, control character or
//! bidi override in a diagram can move the cursor, retitle the window or reorder text.
//!
//! Masking secrets is the caller's job (the crate knows no tokens): quizz masks the
//! tokens it knows in what it shows, diagrams included.

use std::borrow::Cow;

/// Strips terminal escape sequences (CSI, OSC, DCS, SOS, PM, APC, two-character ones),
/// C0/C1 control characters, bidi embeddings, overrides and isolates, and a stray
/// byte-order mark. Newlines stay; a tab becomes four spaces. Borrows when nothing changes.
pub fn strip_controls(input: &str) -> Cow<'_, str> {
    if !input.chars().any(needs_work) {
        return Cow::Borrowed(input);
    }
    let mut out = String::with_capacity(input.len());
    let mut chars = input.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push_str("    "),
            '\u{1b}' => skip_escape(&mut chars),
            // C1 control introducers that some terminals honour like ESC [ and ESC ].
            '\u{9b}' => skip_until_final(&mut chars),
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            c if is_dropped(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn needs_work(c: char) -> bool {
    c == '\t'
        || c == '\u{1b}'
        || is_dropped(c)
        || matches!(c, '\u{90}' | '\u{98}' | '\u{9b}'..='\u{9f}')
}

fn is_dropped(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        // bidi embeddings, overrides and isolates; a stray byte-order mark
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// After ESC: CSI (`[`), OSC/DCS/SOS/PM/APC strings, or a two-character sequence.
fn skip_escape(chars: &mut Chars<'_>) {
    match chars.next() {
        Some('[') => skip_until_final(chars),
        Some(']' | 'P' | 'X' | '^' | '_') => skip_string(chars),
        // Character-set designations take one more character: ESC ( B.
        Some('(' | ')' | '*' | '+' | '-' | '.' | '/' | '#' | '%' | ' ') => {
            chars.next();
        }
        _ => {}
    }
}

/// CSI parameters and intermediates end at a final byte in `@`..=`~`.
fn skip_until_final(chars: &mut Chars<'_>) {
    for c in chars.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) {
            return;
        }
        if !('\u{20}'..='\u{3f}').contains(&c) {
            // Not a CSI byte: the sequence was malformed; stop here without eating text.
            return;
        }
    }
}

/// String sequences end at BEL, ST (`ESC \`) or the C1 ST.
fn skip_string(chars: &mut Chars<'_>) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => return,
            '\u{1b}' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                return;
            }
            _ => {}
        }
    }
}
