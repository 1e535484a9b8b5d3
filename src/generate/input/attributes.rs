//! Paths a repository's `.gitattributes` marks `linguist-generated` or
//! `linguist-vendored`: GitHub folds them in a diff, and a quiz should not ask about them.

use std::collections::BTreeMap;
use std::path::Path;

use super::Reason;
use super::git::run;

/// The marked paths and what each is marked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marked(BTreeMap<String, Reason>);

impl Marked {
    /// Nothing marked (no repository to ask).
    pub fn none() -> Self {
        Self::default()
    }

    pub fn mark(&mut self, path: impl Into<String>, reason: Reason) {
        self.0.insert(path.into(), reason);
    }

    pub fn get(&self, path: &str) -> Option<&Reason> {
        self.0.get(path)
    }

    /// Asks git which of `paths` the repository's attributes mark (`git check-attr`,
    /// which reads every `.gitattributes` of the work tree the way git itself does). A
    /// failure marks nothing: the files are then judged by their names alone.
    pub fn from_repo(dir: &Path, paths: &[&str]) -> Self {
        let mut marked = Self::none();
        for chunk in paths.chunks(500) {
            let mut args = vec![
                "check-attr",
                "-z",
                "linguist-generated",
                "linguist-vendored",
                "--",
            ];
            args.extend(chunk);
            let Ok(out) = run(dir, &args) else {
                return marked;
            };
            marked.read_check_attr(&out);
        }
        marked
    }

    /// `check-attr -z` output: `path NUL attribute NUL value NUL`, repeated.
    fn read_check_attr(&mut self, out: &str) {
        let fields: Vec<&str> = out.split('\0').collect();
        for triple in fields.chunks_exact(3) {
            let [path, attribute, value] = triple else {
                continue;
            };
            if !matches!(*value, "set" | "true") {
                continue;
            }
            let reason = match *attribute {
                "linguist-generated" => Reason::Generated { by_attribute: true },
                "linguist-vendored" => Reason::Vendored { by_attribute: true },
                _ => continue,
            };
            // Generated wins over vendored: it says more about why.
            let keep = matches!(self.0.get(*path), Some(Reason::Generated { .. }));
            if !keep {
                self.mark(*path, reason);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_set_and_true_values_only() {
        let mut m = Marked::none();
        m.read_check_attr(
            "a.rs\0linguist-generated\0set\0a.rs\0linguist-vendored\0unspecified\0\
             b.js\0linguist-generated\0false\0b.js\0linguist-vendored\0true\0",
        );
        assert_eq!(
            m.get("a.rs"),
            Some(&Reason::Generated { by_attribute: true })
        );
        assert_eq!(
            m.get("b.js"),
            Some(&Reason::Vendored { by_attribute: true })
        );
        assert_eq!(m.get("c.rs"), None);
    }
}
