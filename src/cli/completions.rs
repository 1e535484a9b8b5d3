//! `quizz completions SHELL` (a shell completion script) and `quizz man` (the manual page).

use std::io::Write;

use anyhow::Result;
use clap::{Args, Command, CommandFactory};
use clap_complete::Shell;
use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, roman};

/// Print a completion script for your shell.
#[derive(Args)]
#[command(after_help = "Install (new shells pick it up):\n  \
        bash  quizz completions bash > ~/.local/share/bash-completion/completions/quizz\n  \
        zsh   quizz completions zsh > ~/.zfunc/_quizz   (and fpath+=(~/.zfunc) in ~/.zshrc)\n  \
        fish  quizz completions fish > ~/.config/fish/completions/quizz.fish")]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Print quizz's manual page (roff): every command on one page.
#[derive(Args)]
#[command(after_help = "Examples:\n  quizz man | man -l -\n  \
        quizz man > ~/.local/share/man/man1/quizz.1 && man quizz")]
pub struct ManArgs {}

pub fn run_completions(args: &CompletionsArgs) -> Result<()> {
    let mut cmd = super::Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "quizz", &mut script);
    print(&script)
}

pub fn run_man(_args: &ManArgs) -> Result<()> {
    print(&man_page()?)
}

/// Writes to stdout; a reader that stops early (`| head`) is not an error.
fn print(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// One page for the whole CLI: the top-level sections, a list of the commands, then a section
/// per command (nested ones too) with its synopsis, description, options and examples.
pub fn man_page() -> std::io::Result<Vec<u8>> {
    let mut cmd = super::Cli::command().disable_help_subcommand(true);
    cmd.build();
    let man = Man::new(cmd.clone()).title("QUIZZ");
    // `.TH` first, then the apostrophe string every roff fragment defines, once.
    let mut page = roff(|w| man.render_title(w))?;
    page.push_str(AQ);
    page.push_str(&roff(|w| man.render_name_section(w))?);
    page.push_str(&roff(|w| man.render_synopsis_section(w))?);
    page.push_str(&roff(|w| man.render_description_section(w))?);
    page.push_str(&roff(|w| man.render_options_section(w))?);

    let mut commands = Vec::new();
    collect(&cmd, &mut commands);
    let mut list = Roff::default();
    list.control("SH", ["COMMANDS"]);
    for sub in &commands {
        list.control("TP", []);
        list.text([bold(full_name(sub))]);
        if let Some(about) = sub.get_about() {
            list.text([roman(about.to_string())]);
        }
    }
    page.push_str(&roff(|w| list.to_writer(w))?);

    for sub in &commands {
        let mut heading = Roff::default();
        heading.control("SH", [full_name(sub).to_uppercase().as_str()]);
        page.push_str(&roff(|w| heading.to_writer(w))?);
        let man = Man::new(sub.clone());
        let mut body = roff(|w| man.render_synopsis_section(w))?;
        body.push_str(&roff(|w| man.render_description_section(w))?);
        if sub.get_arguments().any(|a| !a.is_hide_set()) {
            body.push_str(&roff(|w| man.render_options_section(w))?);
        }
        if sub.get_after_help().is_some() || sub.get_after_long_help().is_some() {
            body.push_str(&roff(|w| man.render_extra_section(w))?);
        }
        page.push_str(&demote(&body));
    }

    let examples = roff(|w| man.render_extra_section(w))?;
    page.push_str(
        &examples
            .replacen(".SH EXTRA\nExamples:\n", ".SH EXAMPLES\n", 1)
            .replacen(".SH EXTRA\n", ".SH NOTES\n", 1),
    );
    page.push_str(&roff(|w| man.render_version_section(w))?);
    Ok(page.into_bytes())
}

/// The definition of `\*(Aq` (a straight apostrophe) that each rendered fragment starts with.
const AQ: &str = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";

/// One rendered fragment, without its own copy of [`AQ`].
fn roff(render: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<String> {
    let mut out = Vec::new();
    render(&mut out)?;
    let text = String::from_utf8(out).map_err(std::io::Error::other)?;
    Ok(text.replace(AQ, ""))
}

/// Every visible subcommand, depth first, in definition order.
fn collect(cmd: &Command, out: &mut Vec<Command>) {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        out.push(sub.clone());
        collect(sub, out);
    }
}

/// `quizz auth login`, as typed.
fn full_name(cmd: &Command) -> String {
    cmd.get_bin_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_string()
}

/// A command's own sections become subsections of its section; its examples a paragraph.
fn demote(roff: &str) -> String {
    let mut out = String::new();
    for line in roff.lines() {
        match line.strip_prefix(".SH ") {
            Some("EXTRA") => out.push_str(".PP"),
            Some(heading) => {
                out.push_str(".SS ");
                out.push_str(&title_case(heading));
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

fn title_case(heading: &str) -> String {
    let lower = heading.trim_matches('"').to_lowercase();
    let mut chars = lower.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
