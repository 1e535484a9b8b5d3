use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{ArgGroup, Args};

use super::SourceArgs;
use super::grading::{grade_with_progress, summarise};
use crate::comment::{parse_results_comment, render_results_comment};
use crate::grade::{DEFAULT_CONCURRENCY, EnvSnapshot, keep_previous, select_grader};
use crate::quiz::{Answers, Outcome, Quiz, Results, assemble, grade_closed};
use crate::session::Session;
use crate::source::{QuizSource, SourceError, read_text};
use crate::store::Store;

/// Grade answers: closed questions here, open answers through an LLM when one is set up.
///
/// Either an answers file against a quiz (--quiz, --answers), or the answers saved by
/// `quizz take` for a quiz (--demo, --file); the second saves the results into the attempt.
/// Open answers already graded are kept (only pending ones are graded) unless --regrade.
/// Progress goes to stderr, the results to stdout. `quizz doctor` shows which grader is used.
#[derive(Args)]
#[command(
    group(ArgGroup::new("mode").required(true).args(["quiz", "demo", "file"])),
    after_help = "Examples:\n  \
        quizz grade --demo                the saved answers of the demo quiz\n  \
        quizz grade --file comment.md     the saved answers of a quiz file\n  \
        quizz grade --demo --markdown     the results comment, as take posts it\n  \
        quizz grade --file comment.md --regrade\n  \
        quizz grade --quiz comment.md --answers answers.json\n  \
        quizz grade --quiz quiz.json --answers answers.json --json > results.json\n  \
        quizz grade --quiz quiz.json --answers answers.json --previous results.json\n\n\
        Output: on a terminal, a summary of the results; piped, the markdown results comment \
        (--markdown prints it on a terminal too); with --json, the results state. With \
        --previous, open answers graded there are kept and only pending ones are graded.\n\n\
        The answers file is the original Answers model:\n  \
        {\"version\":\"1\",\"pr_number\":7,\"entries\":[{\"question_id\":\"q1\",\"value\":\"...\"}]}\n\
        value: the option text (mcq), the label (mermaid), \"true\"/\"false\" (tf), free text (open).\n\n\
        Exit status: 0 graded (open answers with no grader stay pending), 1 some open answer \
        failed to grade (results are still printed, those answers stay pending), 2 unusable input."
)]
pub struct GradeArgs {
    /// The quiz: quiz-state JSON or a whole comment in markdown (`-` reads stdin).
    #[arg(long, value_name = "SOURCE", requires = "answers")]
    quiz: Option<PathBuf>,
    /// The answers file (JSON, the Answers model).
    #[arg(long, value_name = "ANSWERS.json", requires = "quiz")]
    answers: Option<PathBuf>,
    /// Earlier results (results JSON, or a results comment) for --quiz: open answers graded
    /// there are kept, only pending ones are graded.
    #[arg(long, value_name = "RESULTS", requires = "quiz")]
    previous: Option<PathBuf>,
    /// With the saved answers (--demo, --file): the quiz whose saved answers to grade.
    #[command(flatten)]
    source: SourceArgs,
    /// Grade every open answer again, even those already graded (one whose new grading
    /// fails keeps its earlier grade).
    #[arg(long, conflicts_with = "previous")]
    regrade: bool,
    /// Print the results state JSON.
    #[arg(long)]
    json: bool,
    /// Print the markdown results comment (what `take` posts), also on a terminal.
    #[arg(long, conflicts_with = "json")]
    markdown: bool,
    /// Open answers graded at the same time.
    #[arg(long, short = 'j', value_name = "N", default_value_t = DEFAULT_JOBS,
          value_parser = clap::value_parser!(u16).range(1..=32))]
    jobs: u16,
}

#[allow(clippy::cast_possible_truncation)] // DEFAULT_CONCURRENCY is 4
const DEFAULT_JOBS: u16 = DEFAULT_CONCURRENCY as u16;

pub fn run(args: &GradeArgs) -> Result<()> {
    // Ctrl-C or a signal ends the `claude` graders too, not only quizz.
    crate::signals::exit_on_signals(None);
    match (&args.quiz, &args.answers) {
        (Some(quiz), Some(answers)) => grade_files(args, quiz, answers),
        _ => grade_saved(args),
    }
}

/// `--quiz Q --answers A [--previous R]`: prints the results, saves nothing.
fn grade_files(args: &GradeArgs, quiz_path: &Path, answers_path: &Path) -> Result<()> {
    let loaded = QuizSource::File(quiz_path.to_path_buf()).load()?;
    let text = read_text(answers_path)?;
    let answers = Answers::parse(&text).map_err(|cause| SourceError::Format {
        name: answers_path.display().to_string(),
        cause,
    })?;
    let quiz = &loaded.quiz;
    let mut previous = grade_closed(quiz, &answers);
    if let Some(path) = &args.previous {
        let results = read_results(path)?;
        previous = keep_previous(quiz, &answers, &outcomes_from(quiz, &results));
    }
    let retry = format!(
        "quizz grade --quiz {} --answers {} --previous RESULTS  (RESULTS: this output, saved)",
        shell_word(quiz_path),
        shell_word(answers_path)
    );
    finish(
        args,
        quiz,
        &answers,
        &previous,
        Some(&retry),
        &BTreeMap::new(),
        &[],
        |_| Ok(()),
    )
}

/// `--demo` / `--file SOURCE`: the answers saved by `quizz take`; results saved back.
fn grade_saved(args: &GradeArgs) -> Result<()> {
    let loaded = args.source.source()?.load()?;
    let describe = loaded.origin.describe();
    let store = Store::open_default()?;
    let mut session = Session::open(store, loaded).context("cannot open the saved answers")?;
    for note in &session.notes {
        errln!("note: {}", crate::text::sanitize(note));
    }
    let answers = session.answers();
    if answers.values.values().all(|v| v.trim().is_empty()) {
        bail!(
            "no saved answers for {describe}: take it first with `quizz take {}`",
            args.source.command_args()
        );
    }
    let quiz = session.quiz.clone();
    let saved = session
        .attempt()
        .results
        .clone()
        .and_then(|v| Results::from_value(v).ok());
    // What a regrade that fails keeps.
    let kept = saved
        .as_ref()
        .map(|r| keep_previous(&quiz, &answers, &outcomes_from(&quiz, r)))
        .unwrap_or_default();
    let previous = match (&saved, args.regrade) {
        (Some(results), false) => keep_previous(&quiz, &answers, &outcomes_from(&quiz, results)),
        _ => grade_closed(&quiz, &answers),
    };
    let ratings = session.attempt().confidence.clone();
    // The command that grades what stays pending is this one.
    finish(
        args,
        &quiz,
        &answers,
        &previous,
        None,
        &ratings,
        &kept,
        |results| {
            session
                .set_results(results)
                .and_then(|()| session.flush())
                .context("cannot save the results")
        },
    )
}

/// Grades what `previous` has pending; `kept`: saved grades that a failed regrade keeps (a
/// grade never goes back to pending).
#[allow(clippy::too_many_arguments)] // the two callers differ in each
fn finish(
    args: &GradeArgs,
    quiz: &Quiz,
    answers: &Answers,
    previous: &[Outcome],
    retry: Option<&str>,
    ratings: &BTreeMap<String, u8>,
    kept: &[Outcome],
    save: impl FnOnce(&Results) -> Result<()>,
) -> Result<()> {
    let selection = select_grader(&EnvSnapshot::from_process());
    let mut err = std::io::stderr();
    let mut graded = grade_with_progress(
        quiz,
        answers,
        previous,
        &selection,
        usize::from(args.jobs),
        &mut err,
    )?;
    // A regrade that failed keeps the earlier grade: a grade never goes back to pending.
    let mut kept_ids = Vec::new();
    for ((now, saved), q) in graded.outcomes.iter_mut().zip(kept).zip(&quiz.questions) {
        if *now == Outcome::Pending && matches!(saved, Outcome::Scored { .. }) {
            now.clone_from(saved);
            kept_ids.push(q.id.clone());
        }
    }
    graded.failed.retain(|id| !kept_ids.contains(id));
    let mut results = assemble(quiz, &graded.outcomes);
    results.set_confidence(ratings);
    save(&results)?;
    if args.json {
        outln!("{}", results.to_pretty_json());
    } else if args.markdown || !std::io::stdout().is_terminal() {
        outln!("{}", render_results_comment(&results)?);
    } else {
        super::report::print_results(&mut std::io::stdout().lock(), quiz, answers, &results)?;
    }
    summarise(&graded, &selection, &mut err, retry)?;
    if !kept_ids.is_empty() {
        let ids: Vec<String> = kept_ids
            .iter()
            .map(|i| crate::text::sanitize_line(i))
            .collect();
        bail!(
            "{} could not be graded again ({}): the earlier grade is kept",
            crate::text::plural(ids.len(), "open answer", "open answers"),
            ids.join(", ")
        );
    }
    if !graded.failed.is_empty() {
        bail!(
            "{} could not be graded; the results above are provisional",
            crate::text::plural(graded.failed.len(), "open answer", "open answers")
        );
    }
    Ok(())
}

/// Results JSON, or a results comment (its state block, or the legacy list).
fn read_results(path: &Path) -> Result<Results> {
    let text = read_text(path)?;
    if let Ok(results) = Results::parse(&text) {
        return Ok(results);
    }
    let parsed = parse_results_comment(&text).map_err(|cause| SourceError::Comment {
        name: path.display().to_string(),
        cause,
    })?;
    Ok(parsed.results)
}

/// One outcome per question from earlier results: graded ones scored, the rest pending.
fn outcomes_from(quiz: &Quiz, results: &Results) -> Vec<Outcome> {
    quiz.questions
        .iter()
        .map(|q| {
            results
                .result(&q.id)
                .map_or(Outcome::Pending, |r| Outcome::Scored {
                    score: r.score.min(100),
                    feedback: r.feedback.clone(),
                })
        })
        .collect()
}

/// A path as one shell word (quoted when it needs to be), for a command to copy.
pub(super) fn shell_word(path: &Path) -> String {
    let text = crate::text::sanitize_line(&path.display().to_string());
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c))
    {
        text
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}
