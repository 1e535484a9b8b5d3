//! Piped input to a plain take: a line that is not UTF-8 text is named and asked again,
//! and what is printed after a prompt starts on its own line (a pipe echoes nothing).

use std::path::Path;
use std::process::Output;

fn take_demo(data: &Path, stdin: &[u8]) -> Output {
    crate::cli_polish::quizz(data, &["take", "--demo", "--plain"], stdin)
}

#[test]
fn a_line_that_is_not_utf8_is_named_and_the_next_line_is_the_answer() {
    let data = tempfile::tempdir().unwrap();
    // Line 1: Latin-1 bytes; line 2: the answer to q1. Line 6: part of the open answer.
    let out = take_demo(
        data.path(),
        b"caf\xe9\n1\nf\n2\nf\nmy \xc3\x28 answer\ntest\n.\nA\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(
            "Line 1 of the input is not UTF-8 text, so it cannot be read; type it again."
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("Line 6 of the input is not UTF-8 text"),
        "{stdout}"
    );
    // The take went on: q1 was answered by line 2, q4 (line 5) too, q6 by the last line.
    assert!(stdout.contains("1. ✓ right  q1"), "{stdout}");
    assert!(stdout.contains("4. ✓ right  q4"), "{stdout}");
    assert!(stdout.contains("── Question 6 of 6"), "{stdout}");
}

#[test]
fn what_follows_a_piped_prompt_starts_on_its_own_line() {
    let data = tempfile::tempdir().unwrap();
    let out = take_demo(data.path(), b"9\n1\nf\n2\nf\n\nD\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("Answer (1-4): \nNot an option: type a number from 1 to 4"),
        "{stdout}"
    );
    // Nothing is printed on a prompt's line: the next output (a hint, the grading's note,
    // the results) begins a line of its own.
    for line in stdout.lines() {
        if let Some((_, after)) = line.split_once("): ") {
            assert!(
                !line.starts_with("Answer (") || after.is_empty(),
                "glued to the prompt: {line:?}\n{stdout}"
            );
        }
    }
}
