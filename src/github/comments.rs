//! Issue comments as quizz reads them: which ones hold a quiz, who may be trusted, and
//! the results comment quizz writes (one per taker per quiz, with a one-line history).

use serde::{Deserialize, Serialize};

use crate::comment::{
    Marker, QUIZ_SUMMARY, RESULTS_SUMMARY, locate_state, parse_results_comment,
    render_results_comment,
};
use crate::quiz::Results;
use crate::store::AttemptStamp;
use crate::text::sanitize_line;

use super::error::GithubError;

/// GitHub refuses longer comment bodies (422).
pub const COMMENT_LIMIT: usize = crate::comment::GITHUB_COMMENT_LIMIT;
pub(crate) const HISTORY_PREFIX: &str = "Earlier attempts: ";
const HISTORY_MAX: usize = 10;

/// The fields of GitHub's issue-comment object that quizz uses (others are ignored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comment {
    pub id: u64,
    #[serde(default)]
    pub html_url: String,
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub user: Option<User>,
    #[serde(default)]
    pub created_at: String,
    #[serde(default)]
    pub updated_at: String,
}

/// What a results comment's marker says (nothing, for the original tool's comments).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResultsMarker {
    pub taker: Option<String>,
    pub quiz: Option<u64>,
    /// The attempt and when it was graded (`attempt=2 id=… graded=…`), in comments written
    /// by this version of quizz and later.
    pub stamp: Option<AttemptStamp>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    pub login: String,
    #[serde(rename = "type", default)]
    pub kind: String,
}

impl Comment {
    pub fn login(&self) -> &str {
        self.user.as_ref().map_or("ghost", |u| u.login.as_str())
    }

    pub fn is_bot(&self) -> bool {
        self.user.as_ref().is_some_and(|u| u.kind == "Bot")
    }

    pub fn body(&self) -> &str {
        self.body.as_deref().unwrap_or("")
    }

    /// A quiz: the quiz marker, or the quiz state block (a copy of the rendered page).
    pub fn is_quiz(&self) -> bool {
        let body = self.body();
        match Marker::find(body) {
            Some(m) => m.kind == "quiz",
            None => body.contains(QUIZ_SUMMARY) && locate_state(body, QUIZ_SUMMARY).is_some(),
        }
    }

    /// The head commit a quiz comment was written for, when quizz's marker names it
    /// (`<!-- quizz:quiz v1 head=SHA -->`).
    pub fn quiz_head(&self) -> Option<&str> {
        let first = self.body().lines().find(|l| !l.trim().is_empty())?.trim();
        let inner = first.strip_prefix("<!--")?.strip_suffix("-->")?.trim();
        let mut words = inner.split_whitespace();
        if words.next()? != "quizz:quiz" {
            return None;
        }
        words
            .find_map(|w| w.strip_prefix("head="))
            .filter(|h| (7..=64).contains(&h.len()) && h.bytes().all(|b| b.is_ascii_hexdigit()))
    }

    /// A results comment written by quizz: `(taker, quiz comment id)` from its marker.
    pub fn results_marker(&self) -> Option<(String, u64)> {
        let first = self.body().lines().find(|l| !l.trim().is_empty())?.trim();
        let inner = first.strip_prefix("<!--")?.strip_suffix("-->")?.trim();
        let mut words = inner.split_whitespace();
        if words.next()? != "quizz:results" {
            return None;
        }
        let mut taker = None;
        let mut quiz = None;
        for w in words {
            if let Some(v) = w.strip_prefix("taker=") {
                taker = Some(v.to_string());
            } else if let Some(v) = w.strip_prefix("quiz=") {
                quiz = v.parse().ok();
            }
        }
        Some((taker?, quiz?))
    }

    /// A results comment, quizz's or the original tool's: what its marker names (quizz's
    /// name the taker and the quiz comment; the original's name neither, and a copy of
    /// the rendered page has no marker at all).
    pub fn results_info(&self) -> Option<ResultsMarker> {
        let body = self.body();
        let first = body.lines().find(|l| !l.trim().is_empty())?.trim();
        let marker = first
            .strip_prefix("<!--")
            .and_then(|m| m.strip_suffix("-->"))
            .map(str::trim);
        if let Some(inner) = marker {
            let mut words = inner.split_whitespace();
            if matches!(words.next(), Some("quizz:results" | "cognit:results")) {
                let mut info = ResultsMarker::default();
                let (mut number, mut id, mut graded) = (None, String::new(), None);
                for w in words {
                    if let Some(v) = w.strip_prefix("taker=") {
                        info.taker = Some(v.to_string()).filter(|t| !t.is_empty());
                    } else if let Some(v) = w.strip_prefix("quiz=") {
                        info.quiz = v.parse().ok();
                    } else if let Some(v) = w.strip_prefix("attempt=") {
                        number = v.parse().ok();
                    } else if let Some(v) = w.strip_prefix("id=") {
                        id = v.to_string();
                    } else if let Some(v) = w.strip_prefix("graded=") {
                        graded = v.parse().ok();
                    }
                }
                info.stamp = graded.map(|graded_at_ms| AttemptStamp {
                    number: number.unwrap_or(0),
                    id,
                    graded_at_ms,
                });
                return Some(info);
            }
        }
        (body.contains(RESULTS_SUMMARY) && locate_state(body, RESULTS_SUMMARY).is_some())
            .then(ResultsMarker::default)
    }

    /// Whether quizz keeps this comment in its cache (quizzes and results only).
    pub fn is_relevant(&self) -> bool {
        self.is_quiz() || self.results_info().is_some()
    }

    /// "@login on 2026-01-02 (link)", safe to print.
    pub fn describe(&self) -> String {
        let date = self.created_at.get(..10).unwrap_or(&self.created_at);
        format!(
            "@{} on {} ({})",
            sanitize_line(self.login()),
            sanitize_line(date),
            sanitize_line(&self.html_url)
        )
    }
}

/// Who may post the quiz: bots (`user.type == "Bot"`) plus logins the user named.
#[derive(Debug, Clone, Default)]
pub struct Trust {
    pub logins: Vec<String>,
}

impl Trust {
    pub fn trusts(&self, c: &Comment) -> bool {
        c.is_bot()
            || self
                .logins
                .iter()
                .any(|l| l.trim_start_matches('@').eq_ignore_ascii_case(c.login()))
    }
}

/// The outcome of looking for the quiz among a PR's comments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuizPick<'a> {
    /// The newest quiz from a trusted author; `ignored` are newer untrusted ones.
    Found {
        comment: &'a Comment,
        ignored: Vec<&'a Comment>,
    },
    /// Quiz comments exist, none from a trusted author (newest first).
    Untrusted(Vec<&'a Comment>),
    None,
}

/// Newest = latest `created_at` (GitHub lists oldest first; ids grow with time too).
pub fn pick_quiz<'a>(comments: &'a [Comment], trust: &Trust) -> QuizPick<'a> {
    let mut quizzes: Vec<&Comment> = comments.iter().filter(|c| c.is_quiz()).collect();
    quizzes.sort_by(|a, b| (&b.created_at, b.id).cmp(&(&a.created_at, a.id)));
    if quizzes.is_empty() {
        return QuizPick::None;
    }
    match quizzes.iter().position(|c| trust.trusts(c)) {
        Some(i) => QuizPick::Found {
            comment: quizzes[i],
            ignored: quizzes[..i].to_vec(),
        },
        None => QuizPick::Untrusted(quizzes),
    }
}

/// The taker's results comment for this quiz, if they posted one (author and marker agree).
pub fn find_own<'a>(comments: &'a [Comment], login: &str, quiz_id: u64) -> Option<&'a Comment> {
    comments
        .iter()
        .filter(|c| {
            c.login().eq_ignore_ascii_case(login)
                && c.results_marker()
                    .is_some_and(|(t, q)| t.eq_ignore_ascii_case(login) && q == quiz_id)
        })
        .max_by_key(|c| c.id)
}

/// The results comment body: the original layout with a marker naming quizz, the taker,
/// the quiz comment and the attempt, and a one-line history of earlier attempts (from
/// `previous`: its own history, then itself unless it holds the same attempt).
pub fn results_body(
    results: &Results,
    taker: &str,
    quiz_id: u64,
    stamp: Option<&AttemptStamp>,
    previous: Option<&Comment>,
) -> Result<String, GithubError> {
    let base = render_results_comment(results).map_err(|e| match e {
        crate::comment::CommentError::TooLarge { json_chars } => {
            GithubError::TooBig { chars: json_chars }
        }
        other => GithubError::Protocol {
            what: "the results comment".into(),
            detail: other.to_string(),
        },
    })?;
    let attempt = stamp.map_or_else(String::new, |s| {
        let id = Some(s.id.as_str())
            .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric()))
            .map_or_else(String::new, |id| format!(" id={id}"));
        format!(" attempt={}{id} graded={}", s.number, s.graded_at_ms)
    });
    let marker = format!("<!-- quizz:results v1 taker={taker} quiz={quiz_id}{attempt} -->");
    let rest = base.split_once('\n').map_or("", |(_, r)| r);
    let history = previous.map(|p| history_of(p, stamp)).unwrap_or_default();
    let mut lines: Vec<String> = rest.lines().map(str::to_string).collect();
    if !history.is_empty() {
        let line = format!("{HISTORY_PREFIX}{}", history.join(" · "));
        let at = lines
            .iter()
            .position(|l| l.starts_with("**Total:"))
            .map_or(0, |i| i + 1);
        lines.insert(at, String::new());
        lines.insert(at + 1, line);
    }
    let body = format!("{marker}\n{}", lines.join("\n"));
    let chars = body.chars().count();
    if chars > COMMENT_LIMIT {
        return Err(GithubError::TooBig { chars });
    }
    Ok(body)
}

/// Whether `a` and `b` stamp the same attempt (graded again, or posted again).
fn same_attempt(a: &AttemptStamp, b: &AttemptStamp) -> bool {
    if a.id.is_empty() || b.id.is_empty() {
        a.graded_at_ms == b.graded_at_ms
    } else {
        a.id == b.id
    }
}

/// The entries of a comment's `Earlier attempts:` line: `["50% (2026-01-02)", …]`.
fn history_entries(body: &str) -> Vec<String> {
    body.lines()
        .find_map(|l| l.trim().strip_prefix(HISTORY_PREFIX))
        .map(|h| {
            h.split(" · ")
                .map(|e| e.trim().to_string())
                .filter(|e| !e.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The scores of a comment's `Earlier attempts:` line, oldest first.
pub fn earlier_scores(body: &str) -> Vec<u32> {
    history_entries(body)
        .iter()
        .filter_map(|e| e.split('%').next()?.trim().parse().ok())
        .collect()
}

/// Earlier entries of `previous`, then `previous` itself unless it is the attempt being
/// posted (`stamp`): posting an attempt again never lists it as an earlier one.
fn history_of(previous: &Comment, stamp: Option<&AttemptStamp>) -> Vec<String> {
    let body = previous.body();
    let mut entries = history_entries(body);
    let same = stamp
        .zip(previous.results_info().and_then(|m| m.stamp))
        .is_some_and(|(a, b)| same_attempt(a, &b));
    if !same && let Ok(parsed) = parse_results_comment(body) {
        let date = previous
            .updated_at
            .get(..10)
            .unwrap_or(&previous.updated_at);
        entries.push(format!("{}% ({date})", parsed.results.total_score));
    }
    let skip = entries.len().saturating_sub(HISTORY_MAX);
    entries.into_iter().skip(skip).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comment(id: u64, login: &str, kind: &str, body: &str, at: &str) -> Comment {
        Comment {
            id,
            html_url: format!("https://github.com/o/r/pull/7#issuecomment-{id}"),
            body: Some(body.to_string()),
            user: Some(User {
                login: login.into(),
                kind: kind.into(),
            }),
            created_at: at.into(),
            updated_at: at.into(),
        }
    }

    const QUIZ: &str = include_str!("../../assets/demo-quiz.json");

    fn quiz_body() -> String {
        format!(
            "<!-- quizz:quiz v1 -->\n## Quiz\n<details><summary>{QUIZ_SUMMARY}</summary>\n\n```json\n{QUIZ}\n```\n</details>"
        )
    }

    #[test]
    fn newest_trusted_quiz_wins_and_newer_untrusted_ones_are_reported() {
        let comments = vec![
            comment(
                1,
                "quiz-bot[bot]",
                "Bot",
                &quiz_body(),
                "2026-01-01T00:00:00Z",
            ),
            comment(2, "alice", "User", "LGTM", "2026-01-02T00:00:00Z"),
            comment(3, "mallory", "User", &quiz_body(), "2026-01-03T00:00:00Z"),
        ];
        let QuizPick::Found { comment, ignored } = pick_quiz(&comments, &Trust::default()) else {
            panic!("expected a pick");
        };
        assert_eq!(comment.id, 1);
        assert_eq!(ignored.len(), 1);
        assert_eq!(ignored[0].login(), "mallory");
        let trust = Trust {
            logins: vec!["@Mallory".into()],
        };
        assert!(
            matches!(pick_quiz(&comments, &trust), QuizPick::Found { comment, .. } if comment.id == 3)
        );
        let only_users = &comments[1..];
        assert!(
            matches!(pick_quiz(only_users, &Trust::default()), QuizPick::Untrusted(v) if v[0].id == 3)
        );
        assert_eq!(
            pick_quiz(&comments[1..2], &Trust::default()),
            QuizPick::None
        );
    }

    #[test]
    fn results_comment_names_the_taker_and_keeps_a_history() {
        let results = Results {
            pr_number: 7,
            total_score: 50,
            ..Results::default()
        };
        let first = results_body(&results, "alice", 11, None, None).unwrap();
        assert!(
            first.starts_with("<!-- quizz:results v1 taker=alice quiz=11 -->\n## Quiz results")
        );
        assert!(!first.contains(HISTORY_PREFIX));
        let posted = comment(20, "alice", "User", &first, "2026-02-03T04:05:06Z");
        assert_eq!(posted.results_marker(), Some(("alice".into(), 11)));
        assert_eq!(
            find_own(std::slice::from_ref(&posted), "alice", 11).map(|c| c.id),
            Some(20)
        );
        assert!(find_own(std::slice::from_ref(&posted), "alice", 12).is_none());
        // Someone else copying alice's marker is not alice's comment.
        let forged = comment(21, "mallory", "User", &first, "2026-02-03T04:05:06Z");
        assert!(find_own(std::slice::from_ref(&forged), "alice", 11).is_none());

        let better = Results {
            total_score: 83,
            ..results.clone()
        };
        let second = results_body(&better, "alice", 11, None, Some(&posted)).unwrap();
        assert!(
            second.contains("**Total: 83%**\n\nEarlier attempts: 50% (2026-02-03)"),
            "{second}"
        );
        let posted2 = comment(20, "alice", "User", &second, "2026-02-04T00:00:00Z");
        let third = results_body(&results, "alice", 11, None, Some(&posted2)).unwrap();
        assert!(
            third.contains("Earlier attempts: 50% (2026-02-03) · 83% (2026-02-04)"),
            "{third}"
        );
        assert_eq!(
            parse_results_comment(&third).unwrap().results.total_score,
            50
        );
    }

    #[test]
    fn the_marker_carries_the_attempt_and_posting_one_again_adds_no_earlier_attempt() {
        let results = Results {
            pr_number: 7,
            total_score: 80,
            ..Results::default()
        };
        let stamp = AttemptStamp {
            number: 1,
            id: "ab12cd34".into(),
            graded_at_ms: 1_767_225_600_123,
        };
        let body = results_body(&results, "alice", 11, Some(&stamp), None).unwrap();
        assert!(
            body.starts_with(
                "<!-- quizz:results v1 taker=alice quiz=11 attempt=1 id=ab12cd34 graded=1767225600123 -->\n"
            ),
            "{body}"
        );
        let posted = comment(20, "alice", "User", &body, "2026-02-03T04:05:06Z");
        // Older readers' view is unchanged; this one sees the stamp.
        assert_eq!(posted.results_marker(), Some(("alice".into(), 11)));
        let info = posted.results_info().unwrap();
        assert_eq!(info.stamp.as_ref(), Some(&stamp));
        // The same attempt posted again (a retry, or its pending answers graded): no history.
        let regraded = AttemptStamp {
            graded_at_ms: stamp.graded_at_ms + 5,
            ..stamp.clone()
        };
        let again = results_body(&results, "alice", 11, Some(&regraded), Some(&posted)).unwrap();
        assert!(!again.contains(HISTORY_PREFIX), "{again}");
        // The next attempt lists it.
        let next = AttemptStamp {
            number: 2,
            id: "ffff0000".into(),
            graded_at_ms: stamp.graded_at_ms + 60_000,
        };
        let second = results_body(&results, "alice", 11, Some(&next), Some(&posted)).unwrap();
        assert!(
            second.contains("Earlier attempts: 80% (2026-02-03)"),
            "{second}"
        );
        assert_eq!(earlier_scores(&second), [80]);
        // An original-tool marker reads with no stamp.
        let original = crate::comment::render_results_comment(&results).unwrap();
        let theirs = comment(21, "bob", "User", &original, "2026-02-03T04:05:06Z");
        assert_eq!(theirs.results_info(), Some(ResultsMarker::default()));
    }
}
