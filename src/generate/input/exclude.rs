//! Files a model learns nothing from: lockfiles, minified and map files, binaries,
//! vendored and generated code, known by their names (`.gitattributes` marks are in
//! `attributes`).

use super::Reason;

const LOCKFILES: &[&str] = &[
    "package-lock.json",
    "npm-shrinkwrap.json",
    "pnpm-lock.yaml",
    "yarn.lock",
    "bun.lockb",
    "bun.lock",
    "Cargo.lock",
    "Gemfile.lock",
    "poetry.lock",
    "Pipfile.lock",
    "uv.lock",
    "composer.lock",
    "go.sum",
    "flake.lock",
    "mix.lock",
    "pubspec.lock",
    "packages.lock.json",
    "Podfile.lock",
    "gradle.lockfile",
];

const BINARY_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "ico", "bmp", "tif", "tiff", "webp", "avif", "svg", "pdf", "woff",
    "woff2", "ttf", "otf", "eot", "zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "tar",
    "jar", "war", "class", "wasm", "exe", "dll", "so", "dylib", "a", "o", "obj", "lib", "pyc",
    "pyo", "mp3", "mp4", "mov", "avi", "webm", "ogg", "wav", "flac", "psd", "sqlite", "db", "bin",
    "dat",
];

/// Directories whose files are someone else's code.
const VENDORED_DIRS: &[&str] = &[
    "vendor",
    "vendors",
    "third_party",
    "third-party",
    "thirdparty",
    "node_modules",
    "bower_components",
    "Pods",
];

/// Top-level directories of build output.
const GENERATED_DIRS: &[&str] = &["dist", "__generated__"];

/// Name endings of generated code (protobuf, gRPC, code generators' conventions).
const GENERATED_SUFFIXES: &[&str] = &[
    ".pb.go",
    ".pb.cc",
    ".pb.h",
    "_pb2.py",
    "_pb2_grpc.py",
    "_pb2.pyi",
    ".pb.swift",
    "_pb.js",
    "_pb.d.ts",
    "_grpc.pb.go",
    ".g.dart",
    ".freezed.dart",
    ".designer.cs",
    ".generated.cs",
    ".generated.ts",
    ".generated.js",
    ".gen.go",
    "_generated.go",
    "_generated.rs",
];

/// Why a file is left out, judged by its path alone.
pub fn by_name(path: &str) -> Option<Reason> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    if LOCKFILES.contains(&name) || ext == "lock" {
        return Some(Reason::Lockfile);
    }
    if ext == "map" {
        return Some(Reason::SourceMap);
    }
    if [".min.js", ".min.css", ".min.mjs", "-min.js", ".bundle.js"]
        .iter()
        .any(|s| lower.ends_with(s))
    {
        return Some(Reason::Minified);
    }
    if BINARY_EXTENSIONS.contains(&ext) {
        return Some(Reason::Binary);
    }
    let dirs: Vec<&str> = path.split('/').collect();
    let dirs = &dirs[..dirs.len().saturating_sub(1)];
    if dirs.iter().any(|d| VENDORED_DIRS.contains(d)) {
        return Some(Reason::Vendored {
            by_attribute: false,
        });
    }
    if dirs.first().is_some_and(|d| GENERATED_DIRS.contains(d))
        || GENERATED_SUFFIXES.iter().any(|s| lower.ends_with(s))
    {
        return Some(Reason::Generated {
            by_attribute: false,
        });
    }
    None
}

/// Whether a text is really binary: a NUL byte near its start (what git looks at).
pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(8000)].contains(&0)
}

/// A text whose lines are far longer than code's is minified, whatever its name.
pub fn looks_minified(text: &str) -> bool {
    let longest = text.lines().map(str::len).max().unwrap_or(0);
    longest > 2000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_names() {
        assert_eq!(by_name("Cargo.lock"), Some(Reason::Lockfile));
        assert_eq!(by_name("web/package-lock.json"), Some(Reason::Lockfile));
        assert_eq!(by_name("web/app.min.js"), Some(Reason::Minified));
        assert_eq!(by_name("web/app.js.map"), Some(Reason::SourceMap));
        assert_eq!(by_name("assets/logo.PNG"), Some(Reason::Binary));
        assert_eq!(
            by_name("vendor/lib/x.go"),
            Some(Reason::Vendored {
                by_attribute: false
            })
        );
        assert_eq!(
            by_name("api/v1/user.pb.go"),
            Some(Reason::Generated {
                by_attribute: false
            })
        );
        assert_eq!(by_name("src/lock.rs"), None);
        assert_eq!(by_name("src/vendor.rs"), None);
        assert_eq!(by_name("docs/build.md"), None);
    }
}
