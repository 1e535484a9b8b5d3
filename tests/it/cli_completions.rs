//! `quizz completions SHELL` and `quizz man`, through the real binary.

use std::process::{Command, Output};

/// Every subcommand, as a user types it.
const COMMANDS: [&str; 16] = [
    "take",
    "show",
    "grade",
    "doctor",
    "fetch",
    "generate",
    "post",
    "status",
    "results",
    "auth",
    "auth login",
    "auth status",
    "auth logout",
    "mermaid",
    "completions",
    "man",
];

fn quizz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quizz"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let out = quizz(args);
    assert!(
        out.status.success(),
        "quizz {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "quizz {args:?} wrote to stderr");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn bash_completion_knows_the_commands() {
    let script = stdout_of(&["completions", "bash"]);
    assert!(script.contains("_quizz()"), "{script}");
    assert!(script.contains("complete -F _quizz"), "{script}");
    for word in [
        "take",
        "show",
        "grade",
        "mermaid",
        "completions",
        "man",
        "--demo",
    ] {
        assert!(script.contains(word), "bash completion lacks {word}");
    }
}

/// Bash itself completes `quizz ta` to `take` with the script loaded.
#[test]
fn bash_completes_a_command() {
    let script = stdout_of(&["completions", "bash"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quizz.bash");
    std::fs::write(&path, script).unwrap();
    let run = Command::new("bash")
        .arg("--norc")
        .arg("-c")
        .arg(
            "source \"$1\" && COMP_WORDS=(quizz ta) COMP_CWORD=1 COMP_LINE='quizz ta' COMP_POINT=8 \
             && _quizz quizz ta quizz && printf '%s\\n' \"${COMPREPLY[@]}\"",
        )
        .arg("bash")
        .arg(&path)
        .output();
    let Ok(out) = run else {
        eprintln!("bash is not installed: not checked");
        return;
    };
    let words = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(words.trim(), "take");
}

#[test]
fn every_shell_gets_a_script() {
    for (shell, marker) in [
        ("bash", "complete -F _quizz"),
        ("zsh", "#compdef quizz"),
        ("fish", "complete -c quizz"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[quizz]"),
    ] {
        let script = stdout_of(&["completions", shell]);
        assert!(script.contains(marker), "{shell}: no {marker:?}");
        assert!(script.contains("take"), "{shell}: no `take`");
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let out = quizz(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bash") && err.contains("zsh"), "{err}");
}

#[test]
fn the_man_page_covers_every_command() {
    let page = stdout_of(&["man"]);
    assert!(page.starts_with(".TH "), "{}", &page[..page.len().min(200)]);
    assert!(page.contains(".SH NAME"));
    assert!(page.contains(".SH SYNOPSIS"));
    assert!(page.contains(".SH COMMANDS"));
    assert!(page.contains(".SH EXAMPLES"));
    // The definition of the apostrophe string, once, after `.TH`.
    assert_eq!(page.matches(".ds Aq").count(), 2);
    for command in COMMANDS {
        // roff escapes `-` in option names but not in these words.
        let heading = format!(".SH \"QUIZZ {}\"", command.to_uppercase());
        assert!(page.contains(&heading), "no section {heading}");
        assert!(
            page.contains(&format!("quizz {command}")),
            "no `quizz {command}`"
        );
    }
    // The options of a command are in its section, e.g. take's --demo.
    let take = page.split(".SH \"QUIZZ TAKE\"").nth(1).unwrap();
    let take = take.split(".SH \"QUIZZ SHOW\"").next().unwrap();
    assert!(take.contains("\\-\\-demo"), "{take}");
    // A one-page manual: no references to per-command pages that do not exist.
    assert!(!page.contains("quizz\\-take(1)"));
}

#[test]
fn the_man_page_lists_exactly_the_visible_commands() {
    let page = stdout_of(&["man"]);
    let help = stdout_of(&["--help"]);
    for line in help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
    {
        let Some(entry) = line.strip_prefix("  ") else {
            break;
        };
        if entry.starts_with(' ') {
            continue; // a wrapped description
        }
        let name = entry.split_whitespace().next().unwrap();
        if name == "help" {
            continue;
        }
        assert!(
            COMMANDS.contains(&name),
            "`quizz {name}` is not in this test's list"
        );
        assert!(page.contains(&format!(".SH \"QUIZZ {}\"", name.to_uppercase())));
    }
}
