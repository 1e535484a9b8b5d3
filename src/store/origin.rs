use std::path::PathBuf;

use sha2::{Digest, Sha256};

/// Where a quiz came from: part of the key its answers are saved under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The quiz compiled into the binary.
    Demo,
    /// A local file (absolute path).
    File(PathBuf),
    /// A pull request on a GitHub host.
    PullRequest {
        host: String,
        owner: String,
        repo: String,
        number: u64,
    },
    /// A quiz quizz wrote for a local change: the repository (its remote's URL or its
    /// top-level folder) and the change's digest.
    Local { repository: String, digest: String },
}

impl Origin {
    /// A relative path that names this origin inside the store.
    pub fn key_path(&self) -> PathBuf {
        match self {
            Self::Demo => PathBuf::from("demo"),
            Self::File(path) => {
                let hash = Sha256::digest(path.to_string_lossy().as_bytes());
                let short = crate::text::hex(&hash[..6]);
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                PathBuf::from("file").join(format!("{}-{short}", safe(&name)))
            }
            Self::PullRequest {
                host,
                owner,
                repo,
                number,
            } => [safe(host), safe(owner), safe(repo), number.to_string()]
                .iter()
                .collect(),
            Self::Local { repository, digest } => {
                let hash = Sha256::digest(repository.as_bytes());
                let name = repository
                    .trim_end_matches(['/', '\\'])
                    .rsplit(['/', '\\', ':'])
                    .next()
                    .unwrap_or_default()
                    .trim_end_matches(".git");
                let short: String = digest
                    .chars()
                    .filter(char::is_ascii_hexdigit)
                    .take(16)
                    .collect();
                PathBuf::from("local")
                    .join(format!("{}-{}", safe(name), crate::text::hex(&hash[..6])))
                    .join(safe(&short))
            }
        }
    }

    /// How to name the origin to a person.
    pub fn describe(&self) -> String {
        match self {
            Self::Demo => "the demo quiz".to_string(),
            Self::File(path) => format!("file {}", path.display()),
            Self::PullRequest {
                host,
                owner,
                repo,
                number,
            } => {
                if host == "github.com" {
                    format!("{owner}/{repo}#{number}")
                } else {
                    format!("{host}/{owner}/{repo}#{number}")
                }
            }
            Self::Local { repository, .. } => format!("the local change in {repository}"),
        }
    }
}

/// A path component that cannot escape the store or clash with `.`/`..`.
fn safe(part: &str) -> String {
    let cleaned: String = part
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match cleaned.trim_matches('.') {
        "" => "_".to_string(),
        _ => cleaned,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_stay_inside_the_store() {
        let pr = Origin::PullRequest {
            host: "github.com".into(),
            owner: "..".into(),
            repo: "a/b".into(),
            number: 7,
        };
        assert_eq!(pr.key_path(), PathBuf::from("github.com/_/a_b/7"));
        let file = Origin::File(PathBuf::from("/tmp/x y.md"));
        let key = file.key_path();
        assert!(key.starts_with("file") && key.to_string_lossy().contains("x_y.md-"));
        let local = Origin::Local {
            repository: "https://github.com/octo/app.git".into(),
            digest: "../".repeat(20),
        };
        let key = local.key_path();
        assert!(
            key.starts_with("local") && key.to_string_lossy().contains("/app-"),
            "{key:?}"
        );
        assert_eq!(key.components().count(), 3, "{key:?}");
    }
}
