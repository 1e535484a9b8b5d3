//! Anchor paths come from a PR comment: untrusted. Only a plain repository-relative path
//! is read; anything that could reach outside the repository is refused before reading.

/// Why a path is not read, or `Ok` with its normal form (`a/b.rs`, no `./`).
pub fn checked(path: &str) -> Result<String, String> {
    if path.is_empty() {
        return Err("the anchor has no path".into());
    }
    if path.len() > 4096 || path.chars().any(char::is_control) {
        return Err("the anchor's path is not a usable file name".into());
    }
    if path.starts_with('/') || path.starts_with('\\') || has_drive(path) {
        return Err("an absolute path is outside the repository: not read".into());
    }
    let mut parts = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => return Err("the path leaves the repository (..): not read".into()),
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return Err("the anchor's path names no file".into());
    }
    if parts.iter().any(|p| p.eq_ignore_ascii_case(".git")) {
        return Err("a path inside .git is not part of the repository's code: not read".into());
    }
    Ok(parts.join("/"))
}

fn has_drive(path: &str) -> bool {
    let b = path.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
}

/// Where a symlink at `link` (a checked path) pointing to `target` lands, when that stays
/// inside the repository.
pub fn resolve_link(link: &str, target: &str) -> Result<String, String> {
    if target.starts_with('/') || has_drive(target) {
        return Err("a symlink to an absolute path leaves the repository: not read".into());
    }
    let mut parts: Vec<&str> = link.split('/').collect();
    parts.pop();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err("a symlink that leaves the repository: not read".into());
                }
            }
            p => parts.push(p),
        }
    }
    checked(&parts.join("/"))
}

/// The path for a URL: each segment percent-encoded, `/` kept between them.
pub fn url_path(path: &str) -> String {
    path.split('/')
        .map(crate::github::client::encode_query)
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_inside_the_repository_are_read() {
        assert_eq!(checked("src/./a.rs").unwrap(), "src/a.rs");
        assert_eq!(checked("a//b.py").unwrap(), "a/b.py");
        for bad in [
            "",
            "/etc/passwd",
            "../../etc/passwd",
            "src/../../x",
            "C:/Windows/x",
            "\\\\server\\x",
            ".git/config",
            "a/\u{1b}[2J",
            "./",
        ] {
            assert!(checked(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn symlinks_resolve_only_within_the_repository() {
        assert_eq!(resolve_link("src/a.rs", "b.rs").unwrap(), "src/b.rs");
        assert_eq!(resolve_link("src/a.rs", "../lib/b.rs").unwrap(), "lib/b.rs");
        assert!(resolve_link("src/a.rs", "../../etc/passwd").is_err());
        assert!(resolve_link("a.rs", "/etc/passwd").is_err());
    }
}
