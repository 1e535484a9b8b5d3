//! Everyone's results on a pull request (`quizz results`, and the one-line summary of the
//! overview): one row per taker, from the results comments in the cache.
//!
//! quizz's own results comments name the taker and the quiz comment in their marker
//! (`<!-- quizz:results v1 taker=alice quiz=123 -->`); the original tool's name neither, so
//! their author is the taker. A row is **verified** when the comment's author is the taker it
//! names: anyone can paste a results block naming someone else, and such a row is shown as
//! unverified and never counted for the person it names. A row is **stale** when it is the
//! result of another quiz than the current one (quizz's marker names another quiz comment,
//! or an original-format comment was posted before the current quiz comment).

use serde::Serialize;

use super::comments::{Comment, HISTORY_PREFIX, earlier_scores};
use crate::comment::parse_results_comment;

/// One taker's latest results on the pull request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResultRow {
    /// Who the results are for: the taker the marker names, else the comment's author.
    pub taker: String,
    /// Who posted the comment.
    pub author: String,
    pub total_score: u32,
    /// Questions answered right, and questions counted (graded or pending).
    pub correct: usize,
    pub questions: usize,
    /// Open answers not graded yet (the score is provisional while some are).
    pub pending: usize,
    /// Earlier attempts named in the comment's history line, plus this one.
    pub attempts: usize,
    /// The best of this score and the earlier attempts' in the history line.
    pub best_score: u32,
    pub updated_at: String,
    pub url: String,
    /// The comment's author is the taker it names.
    pub verified: bool,
    /// The results of an older quiz than the current one.
    pub stale: bool,
    /// The quiz comment the results are for, when the marker names it.
    pub quiz_comment_id: Option<u64>,
    pub comment_id: u64,
}

impl ResultRow {
    /// Reads one results comment, judged against the current quiz comment (if any).
    pub fn from_comment(comment: &Comment, quiz: Option<&Comment>) -> Option<Self> {
        let marker = comment.results_info()?;
        let parsed = parse_results_comment(comment.body()).ok()?;
        let results = parsed.results;
        let author = comment.login().to_string();
        let taker = marker.taker.clone().unwrap_or_else(|| author.clone());
        let verified = taker.eq_ignore_ascii_case(&author);
        let stale = match (quiz, marker.quiz) {
            (None, _) => false,
            (Some(q), Some(id)) => id != q.id,
            (Some(q), None) => comment.created_at < q.created_at,
        };
        let history = comment
            .body()
            .lines()
            .find_map(|l| l.trim().strip_prefix(HISTORY_PREFIX))
            .map_or(0, |h| {
                h.split(" · ").filter(|e| !e.trim().is_empty()).count()
            });
        let best_score = earlier_scores(comment.body())
            .into_iter()
            .fold(results.total_score, u32::max);
        Some(Self {
            taker,
            author,
            best_score,
            total_score: results.total_score,
            correct: results.per_question.iter().filter(|r| r.correct).count(),
            questions: results.per_question.len() + results.pending.len(),
            pending: results.pending.len(),
            attempts: history + 1,
            updated_at: comment.updated_at.clone(),
            url: comment.html_url.clone(),
            verified,
            stale,
            quiz_comment_id: marker.quiz,
            comment_id: comment.id,
        })
    }
}

/// Every taker's latest results, best score first.
///
/// Verified rows: one per taker, the results for the current quiz when they have some, else
/// their latest. Unverified rows: one per (author, named taker), shown for what they are.
pub fn result_rows(comments: &[Comment], quiz: Option<&Comment>) -> Vec<ResultRow> {
    let mut rows: Vec<ResultRow> = Vec::new();
    for row in comments
        .iter()
        .filter_map(|c| ResultRow::from_comment(c, quiz))
    {
        let same = |r: &ResultRow| {
            r.verified == row.verified
                && r.taker.eq_ignore_ascii_case(&row.taker)
                && r.author.eq_ignore_ascii_case(&row.author)
        };
        match rows.iter_mut().find(|r| same(r)) {
            Some(existing) => {
                let newer = (!row.stale, &row.updated_at, row.comment_id)
                    > (!existing.stale, &existing.updated_at, existing.comment_id);
                if newer {
                    *existing = row;
                }
            }
            None => rows.push(row),
        }
    }
    rows.sort_by(|a, b| {
        b.total_score
            .cmp(&a.total_score)
            .then(b.verified.cmp(&a.verified))
            .then(a.stale.cmp(&b.stale))
            .then_with(|| a.taker.to_lowercase().cmp(&b.taker.to_lowercase()))
    });
    rows
}

/// Who took the current quiz: verified, current results only.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TakersSummary {
    pub takers: usize,
    /// The best total score among them: each taker's latest or an earlier attempt's.
    pub best: Option<u32>,
}

impl TakersSummary {
    pub fn of(rows: &[ResultRow]) -> Self {
        let counted: Vec<&ResultRow> = rows.iter().filter(|r| r.verified && !r.stale).collect();
        Self {
            takers: counted.len(),
            best: counted.iter().map(|r| r.best_score).max(),
        }
    }

    /// `3 people took this quiz · best 90%`; `None` when nobody posted results yet.
    pub fn line(&self) -> Option<String> {
        let best = self.best?;
        let who = if self.takers == 1 {
            "1 person".to_string()
        } else {
            format!("{} people", self.takers)
        };
        Some(format!("{who} took this quiz · best {best}%"))
    }
}

/// Seconds since the Unix epoch of a GitHub timestamp (`2026-01-02T03:04:05Z`).
pub fn parse_timestamp(text: &str) -> Option<u64> {
    let (date, time) = text.trim().split_once('T')?;
    let time = time.strip_suffix('Z').unwrap_or(time);
    let mut ymd = date.split('-').map(|p| p.parse::<i64>().ok());
    let (year, month, day) = (ymd.next()??, ymd.next()??, ymd.next()??);
    let mut hms = time
        .split(['+', '.'])
        .next()?
        .split(':')
        .map(|p| p.parse::<i64>().ok());
    let (hours, minutes, seconds) = (
        hms.next()??,
        hms.next()??,
        hms.next().flatten().unwrap_or(0),
    );
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400 + hours * 3600 + minutes * 60 + seconds).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::comments::{User, results_body};
    use crate::quiz::{QuestionResult, Results};

    fn comment(id: u64, login: &str, body: &str, at: &str) -> Comment {
        Comment {
            id,
            html_url: format!("https://github.com/o/r/pull/7#issuecomment-{id}"),
            body: Some(body.to_string()),
            user: Some(User {
                login: login.into(),
                kind: if login.ends_with("[bot]") {
                    "Bot"
                } else {
                    "User"
                }
                .into(),
            }),
            created_at: at.into(),
            updated_at: at.into(),
        }
    }

    fn results(score: u32, right: usize, wrong: usize, pending: usize) -> Results {
        let mut per_question = Vec::new();
        for i in 0..right + wrong {
            per_question.push(QuestionResult {
                question_id: format!("q{i}"),
                correct: i < right,
                score: if i < right { 100 } else { 0 },
                feedback: String::new(),
                confidence: None,
                extra: serde_json::Map::new(),
            });
        }
        Results {
            pr_number: 7,
            total_score: score,
            per_question,
            pending: (0..pending).map(|i| format!("o{i}")).collect(),
            ..Results::default()
        }
    }

    const QUIZ: &str = "<!-- quizz:quiz v1 -->\nquiz";

    #[test]
    fn rows_are_verified_stale_and_counted_as_the_issue_says() {
        let old_quiz = comment(10, "quiz-bot[bot]", QUIZ, "2026-01-01T00:00:00Z");
        let quiz = comment(20, "quiz-bot[bot]", QUIZ, "2026-01-05T00:00:00Z");
        let alice_first = results_body(&results(50, 1, 1, 0), "alice", 20, None, None).unwrap();
        let alice_posted = comment(30, "alice", &alice_first, "2026-01-06T00:00:00Z");
        let alice_again = results_body(
            &results(90, 2, 0, 0),
            "alice",
            20,
            None,
            Some(&alice_posted),
        )
        .unwrap();
        let original = crate::comment::render_results_comment(&results(70, 2, 1, 1)).unwrap();
        let comments = vec![
            old_quiz,
            quiz.clone(),
            // bob took the old quiz with quizz.
            comment(
                21,
                "bob",
                &results_body(&results(100, 2, 0, 0), "bob", 10, None, None).unwrap(),
                "2026-01-05T01:00:00Z",
            ),
            // alice, second attempt (edited in place).
            comment(30, "alice", &alice_again, "2026-01-07T00:00:00Z"),
            // carol, with the original tool, after the quiz.
            comment(31, "carol", &original, "2026-01-06T00:00:00Z"),
            // dave, with the original tool, before the current quiz.
            comment(11, "dave", &original, "2026-01-02T00:00:00Z"),
            // mallory pastes a block naming alice, with a perfect score.
            comment(
                40,
                "mallory",
                &results_body(&results(100, 2, 0, 0), "alice", 20, None, None).unwrap(),
                "2026-01-08T00:00:00Z",
            ),
        ];
        let rows = result_rows(&comments, Some(&quiz));
        let by = |author: &str| rows.iter().find(|r| r.author == author).unwrap();
        assert_eq!(rows.len(), 5, "{rows:#?}");
        let alice = by("alice");
        assert_eq!(
            (
                alice.total_score,
                alice.correct,
                alice.questions,
                alice.attempts
            ),
            (90, 2, 2, 2)
        );
        assert!(alice.verified && !alice.stale);
        let bob = by("bob");
        assert!(bob.verified && bob.stale, "{bob:?}");
        let carol = by("carol");
        assert_eq!(carol.taker, "carol");
        assert!(carol.verified && !carol.stale && carol.pending == 1 && carol.questions == 4);
        assert!(by("dave").stale);
        let forged = by("mallory");
        assert_eq!(forged.taker, "alice");
        assert!(!forged.verified);
        // Best score first; the forged 100 never counts for alice.
        assert_eq!(rows[0].total_score, 100);
        let summary = TakersSummary::of(&rows);
        assert_eq!(
            summary,
            TakersSummary {
                takers: 2,
                best: Some(90)
            }
        );
        assert_eq!(
            summary.line().as_deref(),
            Some("2 people took this quiz · best 90%")
        );
        assert_eq!(TakersSummary::default().line(), None);
    }

    #[test]
    fn the_best_is_the_best_attempt_not_the_latest() {
        let quiz = comment(20, "quiz-bot[bot]", QUIZ, "2026-01-05T00:00:00Z");
        let first = results_body(&results(97, 2, 0, 0), "alice", 20, None, None).unwrap();
        let posted = comment(30, "alice", &first, "2026-01-06T00:00:00Z");
        let later = results_body(&results(15, 0, 2, 0), "alice", 20, None, Some(&posted)).unwrap();
        let rows = result_rows(
            &[
                quiz.clone(),
                comment(30, "alice", &later, "2026-01-07T00:00:00Z"),
            ],
            Some(&quiz),
        );
        assert_eq!((rows[0].total_score, rows[0].best_score), (15, 97));
        let summary = TakersSummary::of(&rows);
        assert_eq!(summary.best, Some(97));
        assert_eq!(
            summary.line().as_deref(),
            Some("1 person took this quiz · best 97%")
        );
    }

    #[test]
    fn timestamps() {
        assert_eq!(parse_timestamp("2026-01-01T00:00:00Z"), Some(1_767_225_600));
        assert_eq!(parse_timestamp("2000-02-29T00:00:00Z"), Some(951_782_400));
        assert_eq!(parse_timestamp("2026-01-01T00:01:02Z"), Some(1_767_225_662));
        assert_eq!(parse_timestamp("yesterday"), None);
    }
}
