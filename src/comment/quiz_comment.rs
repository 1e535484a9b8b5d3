//! The quiz comment as the bot lays it out (used for tests, `show --markdown`, and fakes).

use super::escape::{code_fence, json_for_html};
use super::locate::QUIZ_SUMMARY;
use crate::quiz::{QuestionKind, Quiz};

pub fn render_quiz_comment(quiz: &Quiz) -> String {
    render(
        quiz,
        "<!-- quizz:quiz v1 -->\n## Quiz on your PR\n\nTake it: `quizz take` or scroll down.\n",
    )
}

/// The comment of a quiz quizz wrote for head commit `head` (hex): its marker names the
/// head, so the bot posts one quiz per push.
pub fn render_written_quiz_comment(quiz: &Quiz, head: &str) -> String {
    let head: String = head.chars().filter(char::is_ascii_hexdigit).collect();
    let short = head.get(..7).unwrap_or(&head);
    render(
        quiz,
        &format!(
            "<!-- quizz:quiz v1 head={head} -->\n## Quiz on your PR\n\nWritten by quizz from the \
             diff at {short}. Take it: `quizz take` or scroll down. The state block at the end \
             holds the answers.\n"
        ),
    )
}

fn render(quiz: &Quiz, head: &str) -> String {
    let mut out = head.to_string();
    for (i, q) in quiz.questions.iter().enumerate() {
        out.push_str(&format!(
            "\n### Question {} — {}\n{}\n",
            i + 1,
            q.kind.type_name(),
            q.prompt.trim()
        ));
        match &q.kind {
            QuestionKind::Mcq { options, .. } => {
                out.push('\n');
                for o in options {
                    out.push_str(&format!("- {}\n", o.replace('\n', " ")));
                }
            }
            QuestionKind::TrueFalse { .. } => out.push_str("\n- true / false\n"),
            QuestionKind::Mermaid { options, .. } => {
                out.push('\n');
                for o in options {
                    let fence = code_fence(&o.source);
                    out.push_str(&format!(
                        "#### Option {}\n{fence}mermaid\n{}\n{fence}\n",
                        o.label,
                        o.source.trim_end()
                    ));
                }
            }
            QuestionKind::Open { .. } | QuestionKind::Unsupported { .. } => out.push('\n'),
        }
    }
    out.push_str(&format!(
        "\n---\n<details><summary>{QUIZ_SUMMARY}</summary>\n\n```json\n{}\n```\n</details>\n",
        json_for_html(&quiz.to_pretty_json())
    ));
    out
}
