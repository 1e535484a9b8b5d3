//! Words as the checks compare them: lower-cased runs of letters, digits and `_`, with
//! the little words every sentence has left out.

use std::collections::BTreeSet;

const COMMON: &[&str] = &[
    "the", "and", "for", "that", "this", "with", "from", "into", "when", "what", "which", "does",
    "will", "would", "should", "could", "then", "than", "them", "they", "their", "there", "here",
    "have", "has", "had", "been", "being", "are", "was", "were", "is", "it", "its", "of", "to",
    "in", "on", "at", "by", "or", "an", "a", "be", "as", "if", "not", "no", "so", "do", "why",
    "how", "who", "only", "also", "just", "each", "every", "any", "all", "some", "one", "two",
    "after", "before", "because", "while", "where", "your", "you", "code", "call", "calls",
    "called", "value", "returns", "return",
];

/// The distinct content words of a text (three letters or more, common words left out),
/// a plural or third-person `s` dropped so that "includes" meets "include".
pub fn content(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().count() >= 3)
        .map(str::to_lowercase)
        .filter(|w| !COMMON.contains(&w.as_str()))
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.len() >= 3 && !stem.ends_with('s') => stem.to_string(),
            _ => w,
        })
        .collect()
}

/// Words of a text, in order (for counting length and copies).
pub fn all(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}
