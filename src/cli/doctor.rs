use std::time::Instant;

use anyhow::{Result, bail};
use clap::Args;

use crate::grade::{
    BackendKind, DEFAULT_BASE_URL, EnvSnapshot, GRADER_SETUP, GradeError, GradeEvent, Selection,
    claude_version, grade_blocking, select_grader,
};
use crate::quiz::{Answers, Outcome, Quiz, parse_quiz};
use crate::text::sanitize_line;

/// Show which grader quizz would use for open answers (the same backend writes quizzes),
/// and why.
///
/// Names the environment variables it saw, never the value of a key or token.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz doctor\n  quizz doctor --check      also grade a tiny test answer (one API call)\n\n\
Backends, in order: QUIZZ_GRADER=anthropic|claude|none if set; ANTHROPIC_API_KEY (Messages API); \
a `claude` binary (CLAUDE_BIN or PATH); ANTHROPIC_AUTH_TOKEN (Messages API, bearer); none.\n\n\
Exit status: 0 ok (no grader set up is ok), 1 when QUIZZ_GRADER names a grader that cannot be \
used or the test call fails."
)]
pub struct DoctorArgs {
    /// Make one test call: grade a tiny answer and report the time it took.
    #[arg(long)]
    check: bool,
}

const CHECK_QUIZ: &str = r#"{"version":"1","pr_number":0,"questions":[{"type":"open","id":"check",
"prompt":"What is 2 + 2?","rubric":"The answer states that 2 + 2 is 4."}]}"#;

pub fn run(args: &DoctorArgs) -> Result<()> {
    let env = EnvSnapshot::from_process();
    let selection = select_grader(&env);
    print_selection(&env, &selection)?;
    // A grader asked for and not had is a set-up to fix: fail as a failed check does.
    if let Some(problem) = &selection.unusable {
        bail!("no grader: {problem}");
    }
    if !args.check {
        if selection.grader.is_some() {
            outln!("check:    not run (`quizz doctor --check` makes one test call)");
        }
        return Ok(());
    }
    let Some(grader) = selection.grader.as_ref().map(|g| g.grader.clone()) else {
        bail!("no grader to check: set one up as described above");
    };
    let quiz: Quiz = parse_quiz(CHECK_QUIZ)?;
    let mut answers = Answers::default();
    answers.values.insert("check".into(), "4".into());
    let previous = vec![Outcome::Pending];
    let started = Instant::now();
    let mut failure: Option<GradeError> = None;
    let outcomes = grade_blocking(&quiz, &answers, &previous, grader, 1, |event| {
        if let GradeEvent::Finished {
            outcome: Err(e), ..
        } = event
        {
            failure = Some(e.clone());
        }
    })?;
    let took = started.elapsed().as_secs_f64();
    match (outcomes.first(), failure) {
        (Some(Outcome::Scored { score, .. }), _) => {
            outln!("check:    ok: a test answer was graded {score}% in {took:.1} s");
            Ok(())
        }
        (_, Some(e)) => {
            outln!("check:    failed after {took:.1} s: {}", e.to_line());
            bail!("the test call failed: {}", e.to_line())
        }
        _ => bail!("the test call returned no grade"),
    }
}

/// Who writes quizzes (`quizz take 7` on a PR without one, `--local`, `generate`): the
/// grader's backend, in one call or as a plan and a call per question.
fn print_writer(env: &EnvSnapshot, selection: &Selection) -> std::io::Result<()> {
    if selection.backend == BackendKind::None {
        outln!("writer:   none: quizz writes no quiz either (the grader's backend writes them)");
        return Ok(());
    }
    let (how, read) = crate::generate::Generator::from_env(env, selection.backend);
    let note = match (how, read.is_some()) {
        (_, true) => "",
        (crate::generate::Generator::Pipeline, false) => {
            " (the default on the Messages API: question 1 is ready while the rest is written, the whole quiz in half the time; QUIZZ_GENERATE=single for one call)"
        }
        (crate::generate::Generator::Single, false) => {
            " (the default with the claude CLI; QUIZZ_GENERATE=pipeline for a plan and a call per question)"
        }
    };
    outln!(
        "writer:   the same backend writes quizzes: {}{note}",
        how.describe()
    );
    let writer = crate::generate::select_generator(env, std::path::Path::new("."));
    for note in read.iter().chain(
        writer
            .reasons
            .iter()
            .filter(|r| r.starts_with("QUIZZ_GENERATE_TIMEOUT")),
    ) {
        outln!("          ({})", sanitize_line(note));
    }
    Ok(())
}

fn print_selection(env: &EnvSnapshot, selection: &Selection) -> std::io::Result<()> {
    outln!("grader:   {}", selection.backend.describe());
    if selection.backend != BackendKind::None {
        outln!(
            "model:    {} ({})",
            sanitize_line(&selection.model),
            selection.model_origin()
        );
    }
    let base_from_env = env
        .get("ANTHROPIC_BASE_URL")
        .is_some_and(|v| !v.trim().is_empty());
    let base = if base_from_env {
        format!(
            "{} (from ANTHROPIC_BASE_URL)",
            sanitize_line(&selection.base_url)
        )
    } else if selection.backend == BackendKind::ClaudeCli {
        "the claude CLI's own default (ANTHROPIC_BASE_URL is not set)".to_string()
    } else {
        format!("{DEFAULT_BASE_URL} (default)")
    };
    outln!("base URL: {base}");
    print_writer(env, selection)?;
    // The test call's `claude` ends with quizz on Ctrl-C or a signal.
    crate::signals::exit_on_signals(None);
    if let Some(bin) = &selection.claude_bin {
        let version = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| GradeError::Runtime(e.to_string()))
            .and_then(|rt| rt.block_on(claude_version(bin)));
        let version = match version {
            Ok(v) => v,
            Err(e) => format!("version unknown: {}", e.to_line()),
        };
        outln!(
            "claude:   {} ({})",
            sanitize_line(&bin.display().to_string()),
            sanitize_line(&version)
        );
    }
    outln!("why:");
    for reason in &selection.reasons {
        outln!("  - {}", sanitize_line(reason));
    }
    outln!("variables (values of keys and tokens are never shown):");
    for (name, state) in env.described() {
        outln!("  {name:<31} {}", sanitize_line(&state));
    }
    let forced_off = env
        .get("QUIZZ_GRADER")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("none"));
    if forced_off {
        outln!(
            "\nGrading is turned off by QUIZZ_GRADER=none: open answers stay pending.\n\
             To grade them, unset it (`unset QUIZZ_GRADER`), or set it to anthropic or claude;\n\
             then `quizz grade` grades what is pending."
        );
    } else if selection.backend == BackendKind::None {
        outln!();
        let text = format!(
            "To grade open answers, {GRADER_SETUP}. Until then open answers stay pending; \
             `quizz grade` grades them later."
        );
        for line in crate::text::wrap_with(&text, 80, "", "") {
            outln!("{line}");
        }
    }
    Ok(())
}
