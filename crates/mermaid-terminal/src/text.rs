//! Text helpers: sanitising untrusted labels, display width, code-friendly wrapping.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Display width of one grapheme cluster, clamped to 0..=2 (what a terminal cell grid holds).
pub fn grapheme_width(g: &str) -> usize {
    UnicodeWidthStr::width(g).min(2)
}

/// True when `s` may hold multi-character grapheme clusters (combining marks, ZWJ emoji,
/// variation selectors, flags); otherwise every char is its own cluster.
pub fn needs_graphemes(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c, '\u{200d}' | '\u{fe00}'..='\u{fe0f}' | '\u{1f1e6}'..='\u{1f1ff}' | '\u{1f3fb}'..='\u{1f3ff}' | '\u{e0020}'..='\u{e007f}')
            || UnicodeWidthChar::width(c).is_none_or(|w| w == 0)
    })
}

/// The clusters of `s` with their widths: per grapheme when needed, else per char (fast).
/// Every width computation and the canvas use this one segmentation, so they agree.
pub fn clusters(s: &str) -> Box<dyn Iterator<Item = (&str, usize)> + '_> {
    if needs_graphemes(s) {
        Box::new(s.graphemes(true).map(|g| (g, grapheme_width(g))))
    } else {
        Box::new(s.char_indices().map(move |(i, c)| {
            (
                &s[i..i + c.len_utf8()],
                UnicodeWidthChar::width(c).unwrap_or(0).min(2),
            )
        }))
    }
}

/// Display width of a string, measured per cluster like the canvas draws it.
pub fn display_width(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    // One pass over the bytes for the common case (printable ASCII and box drawing,
    // U+2500..=U+25F7, as drawn lines are: one column each); anything else is measured
    // as before.
    let bytes = s.as_bytes();
    let (mut i, mut fast) = (0, 0);
    while let Some(&b) = bytes.get(i) {
        i += match (b, bytes.get(i + 1), bytes.get(i + 2)) {
            (0x20..=0x7e, _, _) => 1,
            (0xe2, Some(0x94..=0x96), _) | (0xe2, Some(0x97), Some(0x80..=0xb7)) => 3,
            _ => return slow_width(s),
        };
        fast += 1;
    }
    fast
}

fn slow_width(s: &str) -> usize {
    if needs_graphemes(s) {
        s.graphemes(true).map(grapheme_width).sum()
    } else {
        s.chars()
            .map(|c| UnicodeWidthChar::width(c).unwrap_or(0).min(2))
            .sum()
    }
}

/// Strips escape sequences and control characters from a label (one line: newlines and
/// tabs become spaces), through the crate's one sanitizer ([`crate::sanitize`]).
pub fn sanitize(s: &str) -> String {
    let stripped = crate::sanitize::strip_controls(s);
    if !stripped.contains('\n') && !stripped.contains("    ") {
        // nothing to replace: one copy
        return stripped.into_owned();
    }
    stripped.replace('\n', " ").replace("    ", " ")
}

/// Decode the entity forms Mermaid allows in labels (`#quot;`, `#amp;`, `#9829;`, `&lt;` ...).
pub fn decode_entities(s: &str) -> String {
    if !s.contains(';') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find(['#', '&']) {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos + 1..];
        let decoded = tail
            .find(';')
            .filter(|&end| end > 0 && end <= 8)
            .and_then(|end| {
                let name = &tail[..end];
                let c = match name {
                    "quot" => Some('"'),
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "nbsp" => Some(' '),
                    "apos" => Some('\''),
                    "num" => Some('#'),
                    _ if name.starts_with(['x', 'X']) => u32::from_str_radix(&name[1..], 16)
                        .ok()
                        .and_then(char::from_u32),
                    _ => name.parse::<u32>().ok().and_then(char::from_u32),
                };
                c.map(|c| (c, end))
            });
        if let Some((c, end)) = decoded {
            out.push(c);
            rest = &tail[end + 1..];
        } else {
            out.push_str(&rest[pos..=pos]);
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// Split a label on `<br>`, `<br/>`, `<br />` (any case) and on literal `\n`, then sanitise each line.
pub fn label_lines(raw: &str) -> Vec<String> {
    // Fast path: nothing to split, decode or strip.
    if !raw.contains(['<', '\\', '#', '&', '\t', '\n'])
        && matches!(
            crate::sanitize::strip_controls(raw),
            std::borrow::Cow::Borrowed(_)
        )
    {
        return vec![collapse_spaces(raw)];
    }
    let mut lines = Vec::new();
    let mut cur = String::new();
    let lower = raw.to_ascii_lowercase();
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if lower[i..].starts_with("<br") {
            let after = &lower[i + 3..];
            let close = after.find('>');
            if let Some(close) =
                close.filter(|&c| after[..c].trim().trim_end_matches('/').trim().is_empty())
            {
                lines.push(std::mem::take(&mut cur));
                i += 3 + close + 1;
                continue;
            }
        }
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'n') {
            lines.push(std::mem::take(&mut cur));
            i += 2;
            continue;
        }
        // Push the whole char starting at i.
        let ch_len = raw[i..].chars().next().map_or(1, char::len_utf8);
        cur.push_str(&raw[i..i + ch_len]);
        i += ch_len;
    }
    lines.push(cur);
    lines
        .into_iter()
        .map(|l| collapse_spaces(&sanitize(&decode_entities(&l))))
        .collect()
}

/// Trim and collapse runs of spaces.
pub fn collapse_spaces(s: &str) -> String {
    let trimmed = s.trim_matches(' ');
    if !trimmed.contains("  ") {
        return trimmed.to_string();
    }
    trimmed
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Cut a label into pieces that may be put on separate lines: break after spaces, and
/// after `,` `(` `/` inside a word (`f(a,` `b)`, `/repos/` `octo`) — never inside an
/// identifier or a `name.ext`, never after a `(` that opens a word (`(If-None-Match)`).
fn pieces<'a>(s: &'a str, out: &mut impl FnMut(&'a str)) {
    code_pieces(s, |c| c != '.', out);
}

/// Like [`pieces`], but a word is cut at its code-friendly points only when it is wider
/// than `max` on its own: `upload_file(path)` stays whole where it fits.
fn pieces_within<'a>(s: &'a str, max: usize, cuts: Cuts, out: &mut impl FnMut(&'a str)) {
    code_pieces(s, |c| c == ' ', &mut |word| {
        if display_width(word.trim_end()) <= max {
            out(word);
        } else {
            cut_wide_word(word, max, cuts, out);
        }
    });
}

/// Where a piece still wider than its line may be cut, beyond the code-friendly points
/// every label breaks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cuts {
    /// code-friendly points only (graph labels)
    Code,
    /// after `=` and `{` too (`conclusion=` `success`, `ExitStatus{` `code:`): sequence
    /// labels, whose gaps are as wide as their widest unbroken piece
    Fields,
    /// and last after the `_` and `-` inside a name (`pg_try_` `advisory_lock(`): a name
    /// cut reads worse than one whole, so only when nothing else lets a diagram be drawn
    Names,
}

/// The pieces of a word wider than `max` (with its trailing spaces): cut at its
/// code-friendly points, and where `cuts` allows more.
fn cut_wide_word<'a>(word: &'a str, max: usize, cuts: Cuts, out: &mut impl FnMut(&'a str)) {
    pieces(word, &mut |piece| {
        // still wider than the line: after a `.` between names too
        // (`pull_request.` `synchronize`), but a host name or an address stays whole
        // (`git@github.` `com` reads as two things): it may break after the `:` that
        // ends it (`git@github.com:` `octo/`)
        if display_width(piece.trim_end()) <= max {
            out(piece);
        } else if host_like(piece) {
            after_host(piece, out);
        } else {
            code_pieces(piece, |c| c == '.', &mut |part| {
                // wider still: after the `=` of a setting and the `{` that opens fields
                // (`conclusion=` `success`, `ExitStatus{` `code:`)
                if cuts >= Cuts::Fields && display_width(part.trim_end()) > max {
                    after_openers(part, &mut |field| {
                        // and last after the `_` or `-` joining a name's words
                        // (`awaiting_` `second_approver`, `2024-06-` `03T14:00Z`)
                        if cuts >= Cuts::Names && display_width(field.trim_end()) > max {
                            after_joiners(field, out);
                        } else {
                            out(field);
                        }
                    });
                } else {
                    out(part);
                }
            });
        }
    });
}

/// Break `s` after each `_` or `-` between two letters or digits.
fn after_joiners<'a>(s: &'a str, out: &mut impl FnMut(&'a str)) {
    split_where(s, out, |before_prev, prev, c| {
        matches!(prev, Some('_' | '-'))
            && before_prev.is_some_and(char::is_alphanumeric)
            && c.is_alphanumeric()
    });
}

/// Hand `out` the pieces of `s`, a piece ending before each character `c` where
/// `breakable(the char two back, the char before, c)` says so.
fn split_where<'a>(
    s: &'a str,
    out: &mut impl FnMut(&'a str),
    mut breakable: impl FnMut(Option<char>, Option<char>, char) -> bool,
) {
    let mut start = 0;
    let mut before_prev: Option<char> = None;
    let mut prev: Option<char> = None;
    for (i, c) in s.char_indices() {
        if breakable(before_prev, prev, c) && i > start {
            out(&s[start..i]);
            start = i;
        }
        before_prev = prev;
        prev = Some(c);
    }
    if start < s.len() {
        out(&s[start..]);
    }
}

/// Break `s` after each `=` or `{` that a name or a value follows.
fn after_openers<'a>(s: &'a str, out: &mut impl FnMut(&'a str)) {
    let mut start = 0;
    let mut prev: Option<char> = None;
    for (i, c) in s.char_indices() {
        let breakable = matches!(prev, Some('=' | '{')) && !matches!(c, ' ' | '=' | '{' | '}');
        if breakable && i > start {
            out(&s[start..i]);
            start = i;
        }
        prev = Some(c);
    }
    if start < s.len() {
        out(&s[start..]);
    }
}

/// Top-level domains a host name in a label ends with (`github.com`, `hooks.slack.com`).
const TLDS: &[&str] = &[
    "com", "org", "net", "io", "dev", "app", "ai", "co", "gov", "edu", "info", "cloud", "sh", "me",
    "us", "uk", "de", "eu", "fr", "nl", "jp", "cn", "in", "local", "internal",
];

/// True for a token that names a host or an address: `git@github.com:octo/`,
/// `ops@example.org`, `api.github.com`, `github.com/` — but not a dotted name
/// (`pull_request.synchronize`, `content[0].text`).
fn host_like(piece: &str) -> bool {
    let core = piece
        .trim_end()
        .trim_start_matches(['(', '[', '<', '"', '\'', '`'])
        .trim_end_matches([',', ';', ')', ']', '>', '"', '\'', '`', '/', '.']);
    if core.contains('@') {
        return true;
    }
    // the host before a port or a path (`example.com:8080`, `github.com/octo`)
    let host = core.split([':', '/']).next().unwrap_or("");
    // two labels or more, each of letters, digits and `-`, the last a known top level
    let label_like =
        |l: &str| !l.is_empty() && l.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-');
    let mut count = 0;
    let mut last = "";
    for label in host.split('.') {
        if !label_like(label) {
            return false;
        }
        count += 1;
        last = label;
    }
    count >= 2 && TLDS.contains(&last)
}

/// A host-like piece cut after the `:` that ends its host (`git@github.com:` `octo/`), or
/// whole.
fn after_host<'a>(piece: &'a str, out: &mut impl FnMut(&'a str)) {
    match piece.find(':') {
        Some(i) if i + 1 < piece.trim_end().len() => {
            out(&piece[..=i]);
            out(&piece[i + 1..]);
        }
        _ => out(piece),
    }
}

/// Break `s` after spaces and (when `inside` allows the character before the break) after
/// `,` `(` `/` inside words, handing each piece to `out` (no list built: wrapping runs
/// often while a layout searches its width).
fn code_pieces<'a>(s: &'a str, inside: impl Fn(char) -> bool, out: &mut impl FnMut(&'a str)) {
    split_where(s, out, |before_prev, prev, c| match prev {
        Some(' ') => c != ' ',
        Some(p) if !inside(p) => false,
        // between names, and after a call or index (`rows[0].` `id`, `f().` `g()`)
        Some('.') => {
            before_prev.is_some_and(|b| b.is_alphanumeric() || matches!(b, '_' | ')' | ']'))
                && (c.is_alphabetic() || c == '_')
        }
        Some(',' | '/') => c != ' ' && !matches!(c, ',' | ')' | '/'),
        Some('(') => before_prev.is_some_and(|b| b != ' ' && b != '(') && !matches!(c, ' ' | ')'),
        _ => false,
    });
}

/// One piece of a line with its width, with and without trailing spaces.
struct Piece<'a> {
    text: &'a str,
    full: usize,
    trimmed: usize,
}

/// The pieces of a line, measured.
struct Measured<'a> {
    pieces: Vec<Piece<'a>>,
}

impl<'a> Measured<'a> {
    fn new(s: &'a str) -> Self {
        let mut m = Measured { pieces: Vec::new() };
        pieces(s, &mut |p| m.push(p));
        m
    }

    /// Broken at spaces, and inside only the words wider than `max`.
    fn within(s: &'a str, max: usize, cuts: Cuts) -> Self {
        let mut m = Measured {
            pieces: Vec::with_capacity(s.len() / 4),
        };
        pieces_within(s, max, cuts, &mut |p| m.push(p));
        m
    }

    fn push(&mut self, text: &'a str) {
        let (full, trimmed) = piece_widths(text);
        self.pieces.push(Piece {
            text,
            full,
            trimmed,
        });
    }

    fn widest(&self) -> usize {
        self.pieces.iter().map(|p| p.trimmed).max().unwrap_or(0)
    }

    /// How many lines a greedy wrap at `max` makes.
    fn count(&self, max: usize) -> usize {
        greedy_count(self.pieces.iter().map(|p| (p.full, p.trimmed)), max)
    }

    fn lines(&self, max: usize) -> Vec<String> {
        let mut out = Vec::new();
        self.lines_onto(max, &mut out);
        out
    }

    /// The greedy wrap at `max` columns appended to `out` (an empty line when all is
    /// blank), line by line as the breaks are found (no list of breaks).
    fn lines_onto(&self, max: usize, out: &mut Vec<String>) {
        let before = out.len();
        let mut start = 0; // piece that starts the current line
        let mut cur = 0; // width of the current line with its trailing spaces
        for (i, p) in self.pieces.iter().enumerate() {
            if i == start || cur + p.trimmed <= max {
                cur += p.full;
            } else {
                self.push_line(start, i, out);
                start = i;
                cur = p.full;
            }
        }
        self.push_line(start, self.pieces.len(), out);
        if out.len() == before {
            out.push(String::new());
        }
    }

    /// Pieces `a..b` as one line, trailing spaces cut, onto `out` unless blank.
    fn push_line(&self, a: usize, b: usize, out: &mut Vec<String>) {
        let pieces = &self.pieces[a..b];
        let mut line = String::with_capacity(pieces.iter().map(|p| p.text.len()).sum());
        for p in pieces {
            line.push_str(p.text);
        }
        line.truncate(line.trim_end().len());
        if !line.trim().is_empty() {
            out.push(line);
        }
    }

    /// The narrowest width in `lo..=hi` whose greedy wrap takes at most `lines` lines.
    fn narrowest(&self, lines: usize, lo: usize, hi: usize) -> usize {
        let (mut lo, mut hi) = (lo.min(hi), hi);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.count(mid) <= lines {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }
}

/// A piece's width with its trailing spaces and without.
fn piece_widths(text: &str) -> (usize, usize) {
    let trimmed = text.trim_end();
    let trimmed_width = display_width(trimmed);
    (
        trimmed_width + display_width(&text[trimmed.len()..]),
        trimmed_width,
    )
}

/// How many lines a greedy wrap at `max` makes of pieces measured (with trailing spaces,
/// without).
fn greedy_count(pieces: impl Iterator<Item = (usize, usize)>, max: usize) -> usize {
    let mut count = GreedyCount::default();
    for (full, trimmed) in pieces {
        count.add(full, trimmed, max);
    }
    count.lines()
}

/// A greedy wrap's line count, piece by piece (counted without a list of the pieces).
#[derive(Default)]
struct GreedyCount {
    /// lines before the current one
    done: usize,
    /// width of the current line with its trailing spaces; `None` before the first piece
    cur: Option<usize>,
}

impl GreedyCount {
    fn add(&mut self, full: usize, trimmed: usize, max: usize) {
        self.cur = Some(match self.cur {
            Some(cur) if cur + trimmed > max => {
                self.done += 1;
                full
            }
            Some(cur) => cur + full,
            None => full,
        });
    }

    fn lines(&self) -> usize {
        self.done + 1
    }
}

/// Wrap one line to `max` columns at code-friendly points, as evenly as the line count
/// allows (no one-word orphan on the last line). A piece wider than `max` stays whole on
/// its own line (the caller measures the result).
pub fn wrap(s: &str, max: usize) -> Vec<String> {
    wrap_cut(s, max, Cuts::Code)
}

/// Like [`wrap`], but a piece still wider than `max` is cut after `=` and `{` too
/// (`conclusion=` `success`, `ExitStatus{` `code: 0}`): sequence labels, whose gaps are
/// as wide as their widest unbroken piece.
pub fn wrap_fields(s: &str, max: usize) -> Vec<String> {
    wrap_cut(s, max, Cuts::Fields)
}

/// Like [`wrap`], a piece still wider than `max` cut where `cuts` allows.
pub fn wrap_cut(s: &str, max: usize, cuts: Cuts) -> Vec<String> {
    let mut out = Vec::with_capacity(1);
    wrap_cut_onto(s, max, cuts, &mut out);
    out
}

/// [`wrap_cut`]'s lines appended to `out` (a label's lines wrap into one list).
fn wrap_cut_onto(s: &str, max: usize, cuts: Cuts, out: &mut Vec<String>) {
    if display_width(s) <= max {
        out.push(s.to_string());
        return;
    }
    balanced_onto(&Measured::within(s, max, cuts), max, out);
}

/// The greedy wrap's line count kept, at the narrowest width that keeps it: lines as even
/// as they can be.
fn balanced(m: &Measured, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    balanced_onto(m, max, &mut out);
    out
}

/// [`balanced`]'s lines appended to `out`.
fn balanced_onto(m: &Measured, max: usize, out: &mut Vec<String>) {
    let n = m.count(max);
    let at = if n < 2 {
        max
    } else {
        m.narrowest(n, m.widest(), max)
    };
    m.lines_onto(at, out);
}

/// A line cut at its spaces and measured once, to wrap it at many widths (a layout that
/// searches its width wraps the same labels again and again): the same lines as
/// [`wrap_cut`], without cutting and measuring the line each time.
#[derive(Debug, Clone)]
pub struct Words {
    /// byte range, width with trailing spaces, width without
    pieces: Vec<(usize, usize, usize, usize)>,
    /// the whole line's width
    width: usize,
    /// the widest word's width: at `max` from here up, [`wrap`] cuts at spaces only
    widest: usize,
}

impl Words {
    pub fn new(s: &str) -> Self {
        let mut pieces = Vec::new();
        let base = s.as_ptr() as usize;
        code_pieces(s, |c| c == ' ', &mut |p: &str| {
            let start = p.as_ptr() as usize - base;
            let trimmed = display_width(p.trim_end());
            let full = trimmed + display_width(&p[p.trim_end().len()..]);
            pieces.push((start, start + p.len(), full, trimmed));
        });
        Words {
            widest: pieces.iter().map(|p| p.3).max().unwrap_or(0),
            width: display_width(s),
            pieces,
        }
    }

    /// The pieces [`wrap_cut`] cuts `s` (the line these words were made from) into at
    /// `max`.
    fn measured<'a>(&self, s: &'a str, max: usize, cuts: Cuts) -> Measured<'a> {
        if self.widest > max {
            // the words measured already; only those wider than `max` are cut and measured
            let mut m = Measured {
                pieces: Vec::with_capacity(2 * self.pieces.len()),
            };
            for &(a, b, full, trimmed) in &self.pieces {
                if trimmed <= max {
                    m.pieces.push(Piece {
                        text: &s[a..b],
                        full,
                        trimmed,
                    });
                } else {
                    cut_wide_word(&s[a..b], max, cuts, &mut |p| m.push(p));
                }
            }
            return m;
        }
        Measured {
            pieces: self
                .pieces
                .iter()
                .map(|&(a, b, full, trimmed)| Piece {
                    text: &s[a..b],
                    full,
                    trimmed,
                })
                .collect(),
        }
    }

    /// The narrowest width whose wrap is the same as at `max`: a wrap keeps the line count of `max` at the narrowest width
    /// that has it, so every width with that count wraps alike. A cache keyed by it wraps
    /// once for them all.
    pub fn same_as(&self, max: usize) -> usize {
        if self.width <= max {
            return self.width;
        }
        if self.widest > max {
            return max;
        }
        let count = |w: usize| greedy_count(self.pieces.iter().map(|p| (p.2, p.3)), w);
        let n = count(max);
        if n < 2 {
            return max;
        }
        let (mut lo, mut hi) = (self.widest, max);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if count(mid) <= n {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// `wrap_cut(s, max, cuts)`, `s` being the line these words were made from.
    pub fn wrap(&self, s: &str, max: usize, cuts: Cuts) -> Vec<String> {
        if self.width <= max {
            return vec![s.to_string()];
        }
        balanced(&self.measured(s, max, cuts), max)
    }

    /// The lines of `wrap_cut(s, max, cuts)`, `s` being the line these words were made
    /// from.
    pub fn count(&self, s: &str, max: usize, cuts: Cuts) -> usize {
        if self.width <= max {
            return 1;
        }
        let mut count = GreedyCount::default();
        for &(a, b, full, trimmed) in &self.pieces {
            if trimmed <= max {
                count.add(full, trimmed, max);
            } else {
                cut_wide_word(&s[a..b], max, cuts, &mut |p| {
                    let (full, trimmed) = piece_widths(p);
                    count.add(full, trimmed, max);
                });
            }
        }
        count.lines()
    }
}

/// Wrap one line into at most `lines` lines, as narrow as possible.
pub fn wrap_into(s: &str, lines: usize) -> Vec<String> {
    let m = Measured::new(s);
    let full = display_width(s);
    m.lines(m.narrowest(lines, m.widest(), full.max(m.widest())))
}

/// Like [`wrap`], but a piece that still does not fit is split between graphemes: the
/// last resort of the compact forms, better than cutting text off.
pub fn wrap_hard(s: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut out = Vec::new();
    for line in wrap(s, max) {
        if display_width(&line) <= max {
            out.push(line);
            continue;
        }
        let mut rest = line.as_str();
        while !rest.is_empty() {
            let mut piece = cut(rest, max);
            if piece.is_empty() {
                // a grapheme wider than `max`: take it anyway
                piece = clusters(rest).next().map_or(rest, |c| c.0).to_string();
            }
            rest = &rest[piece.len()..];
            out.push(piece);
        }
    }
    out
}

/// Wrap every line of a multi-line label.
pub fn wrap_all(lines: &[String], max: usize) -> Vec<String> {
    wrap_all_cut(lines, max, Cuts::Code)
}

/// Like [`wrap_all`], a piece still wider than `max` cut where `cuts` allows.
pub fn wrap_all_cut(lines: &[String], max: usize, cuts: Cuts) -> Vec<String> {
    let mut out = Vec::with_capacity(lines.len());
    for l in lines {
        wrap_cut_onto(l, max, cuts, &mut out);
    }
    out
}

/// Widest line of a label.
pub fn max_width(lines: &[String]) -> usize {
    lines.iter().map(|l| display_width(l)).max().unwrap_or(0)
}

/// Cut a string to at most `max` columns, marking the cut with `…` (or `~` in ASCII mode).
pub fn truncate(s: &str, max: usize, ascii: bool) -> String {
    if display_width(s) <= max {
        return s.to_string();
    }
    let mark = if ascii { "~" } else { "…" };
    let mut out = String::new();
    let mut w = 0;
    for (g, gw) in clusters(s) {
        if w + gw + 1 > max {
            break;
        }
        out.push_str(g);
        w += gw;
    }
    if max > 0 {
        out.push_str(mark);
    }
    out
}

/// The longest prefix of `s` at most `max` columns wide (whole graphemes only).
pub fn cut(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut w = 0;
    for (g, gw) in clusters(s) {
        if w + gw > max {
            break;
        }
        out.push_str(g);
        w += gw;
    }
    out
}

/// Pad with spaces on the right to `w` columns.
pub fn pad_right(s: &str, w: usize) -> String {
    let cur = display_width(s);
    let mut out = s.to_string();
    out.extend(std::iter::repeat_n(' ', w.saturating_sub(cur)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-wise fast width agrees with the per-char measure on and around the box
    /// drawing block (U+2500..=U+25F7 fast; U+25F8.. and the rest measured slowly).
    #[test]
    fn the_fast_width_agrees_with_the_slow_one_round_box_drawing() {
        for c in ('\u{2400}'..='\u{2700}').chain(['é', '漢', '\u{301}', '~', '\u{7f}']) {
            for s in [c.to_string(), format!("a{c}─b"), format!("│{c}{c}")] {
                assert_eq!(display_width(&s), slow_width(&s), "{s:?} ({:x})", c as u32);
            }
        }
    }

    #[test]
    fn sanitize_strips_escapes_and_controls() {
        assert_eq!(sanitize("a\u{1b}[31mred\u{1b}[0m\u{7}b"), "aredb");
        assert_eq!(sanitize("x\u{1b}]0;title\u{7}y"), "xy");
        assert_eq!(sanitize("tab\there\u{202e}x\u{85}"), "tab herex");
    }

    #[test]
    fn wraps_at_code_friendly_points_only() {
        let w = wrap("_drain_agent(prompt, options, handler)", 20);
        assert!(w.iter().any(|l| l.starts_with("_drain_agent(")));
        assert!(
            w.join("")
                .replace(' ', "")
                .contains("_drain_agent(prompt,options,handler)")
        );
        assert_eq!(
            wrap("averyveryverylongidentifier", 5),
            vec!["averyveryverylongidentifier"]
        );
    }

    #[test]
    fn wraps_evenly_and_keeps_names_whole() {
        assert_eq!(
            wrap("print error, exit 2", 17),
            vec!["print error,", "exit 2"]
        );
        assert_eq!(
            wrap("GET comments (If-None-Match)", 20),
            vec!["GET comments", "(If-None-Match)"]
        );
        assert_eq!(
            wrap("load_config(app.toml)", 14),
            vec!["load_config(", "app.toml)"]
        );
        assert_eq!(
            wrap_into("GitHub REST API", 3),
            vec!["GitHub", "REST", "API"]
        );
        assert_eq!(
            wrap_into("resolve_repository", 3),
            vec!["resolve_repository"]
        );
    }

    /// `upload_file(` / `path)` was a break inside an identifier although a space
    /// before it gave room: spaces first, a word cut only when it is wider than the line.
    #[test]
    fn wraps_at_spaces_before_cutting_a_word() {
        assert_eq!(
            wrap("call upload_file(path)", 18),
            vec!["call", "upload_file(path)"]
        );
        assert_eq!(
            wrap("GET /repos/o/r/issues/42/comments", 20),
            vec!["GET /repos/o/r/", "issues/42/comments"]
        );
        let call = "call upload_file(path)";
        assert_eq!(Words::new(call).count(call, 18, Cuts::Fields), 2);
        // a dotted name only when it is wider than the line on its own
        assert_eq!(
            wrap("enqueue(pull_request.synchronize, pr=42)", 16),
            vec!["enqueue(", "pull_request.", "synchronize,", "pr=42)"]
        );
        assert_eq!(
            wrap("read app.toml now", 9),
            vec!["read", "app.toml", "now"]
        );
    }

    /// A line wrapped from its words measured once wraps as `wrap_cut` does at every
    /// width and with every cut, also at the narrowest width that wraps alike.
    #[test]
    fn words_wrap_as_wrap_does() {
        for s in [
            "POST /login/oauth/access_token grant_type=device_code",
            "enqueue(pull_request.synchronize, pr=42) then ack",
            "set_password(\"quizz\", \"github.com\", token)",
            "the user types WDJB-MJHT and approves the quizz app",
            "access_token gho_… with scope repo",
            "ExitStatus{code: 0} conclusion=success",
            "SELECT pg_try_advisory_lock(42) at \"2024-06-03T14:00:00Z\"",
            "日本語 の ラベル は 幅 が 二 倍",
        ] {
            let words = Words::new(s);
            for (max, cuts) in (1..=60).flat_map(|m| [Cuts::Fields, Cuts::Names].map(|c| (m, c))) {
                let wrapped = wrap_cut(s, max, cuts);
                let at = format!("{s:?} at {max}, {cuts:?}");
                assert_eq!(words.wrap(s, max, cuts), wrapped, "{at}");
                assert_eq!(words.count(s, max, cuts), wrapped.len().max(1), "{at}");
                let same = words.same_as(max);
                assert_eq!(wrap_cut(s, same, cuts), wrapped, "{at} and {same}");
            }
        }
    }

    /// A name too wide for its line on its own (`pg_try_advisory_lock(`, a timestamp) was
    /// kept whole, and its gap as wide as it: a sequence label may now cut it after its
    /// `_` and `-`, as a last resort; graph labels and the first tries keep it whole.
    #[test]
    fn names_wider_than_the_line_cut_after_their_joiners_only_when_asked() {
        let s = "SELECT pg_try_advisory_lock(42) at 2024-06-03T14:00:00Z";
        assert_eq!(
            wrap_cut(s, 14, Cuts::Names),
            vec![
                "SELECT pg_",
                "try_advisory_",
                "lock(42) at",
                "2024-06-",
                "03T14:00:00Z"
            ]
        );
        for whole in [wrap(s, 14), wrap_fields(s, 14)] {
            assert!(
                whole.iter().any(|l| l.contains("pg_try_advisory_lock(")),
                "{whole:?}"
            );
            assert!(
                whole.iter().any(|l| l.contains("2024-06-03T14:00:00Z")),
                "{whole:?}"
            );
        }
        // a leading `--` or a `_` at a name's edge is no joiner
        assert_eq!(
            wrap_cut("--output-format _private", 8, Cuts::Names),
            vec!["--output-", "format", "_private"]
        );
    }

    /// A host or an address wider than the line breaks only after the `:` that ends it.
    #[test]
    fn host_names_and_addresses_stay_whole() {
        assert_eq!(
            wrap("git@github.com:octo/quizz.git", 16),
            vec!["git@github.com:", "octo/quizz.git"]
        );
        assert_eq!(
            wrap("ops@hooks.example.org", 10),
            vec!["ops@hooks.example.org"]
        );
        assert_eq!(
            wrap("see api.github.com", 10),
            vec!["see", "api.github.com"]
        );
        assert_eq!(
            wrap("body.content[0].text", 12),
            vec!["body.", "content[0].", "text"]
        );
    }

    #[test]
    fn br_splits_lines() {
        assert_eq!(label_lines("a<br/>b<BR>c<br />d"), vec!["a", "b", "c", "d"]);
        assert_eq!(label_lines("#quot;x#quot; #9829;"), vec!["\"x\" ♥"]);
    }

    /// The one-pass width of drawn lines agrees with the per-character measure.
    #[test]
    fn drawn_glyphs_measure_alike_both_ways() {
        for c in '\u{2500}'..='\u{25f7}' {
            let s = format!("a{c}b");
            assert_eq!(display_width(&s), slow_width(&s), "{c:?}");
        }
    }

    #[test]
    fn width_counts_wide_chars() {
        assert_eq!(display_width("日本"), 4);
        assert_eq!(display_width("ab"), 2);
    }
}
