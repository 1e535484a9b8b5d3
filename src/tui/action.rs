//! Everything that can change the app's state. Keys, the terminal, and background work
//! all become an `Action`; only `update` applies them.

use std::path::PathBuf;

use crate::quiz::OpenGrade;

/// What an external editor left: the file (kept until its text is saved) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditedFile {
    pub question_id: String,
    pub path: PathBuf,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// `q`: quit, asking first when answers are not graded yet.
    Quit,
    /// Ctrl-C, SIGTERM: quit now (answers are already saved).
    ForceQuit,
    /// Yes to the question over the screen.
    Yes,
    /// No to the question over the screen (it closes, nothing happens).
    No,
    /// Stop grading: answers are kept, open ones stay pending.
    StopGrading,
    Start,
    NextQuestion,
    PrevQuestion,
    /// The top of what scrolls (a question, the results, the help), else the first
    /// question or row.
    Top,
    /// The last question or row, and on it, its bottom.
    Bottom,
    CursorDown,
    CursorUp,
    /// Space/Enter on the option under the cursor.
    Choose,
    /// `1`–`9`: pick option n (0-based here).
    Pick(usize),
    PickTrue,
    PickFalse,
    /// Practice, `1`–`9` after an answer: how sure the taker is, 1 guessing to 5 certain
    /// (a digit above 5 skips the rating, as any other key does).
    Rate(u8),
    ClearAnswer,
    ToggleFlag,
    StartEditing,
    StopEditing,
    /// Esc and a key typed together in the editor (terminals send them as Alt+key):
    /// leave the editor, then the key does what it does there.
    StopEditingThen(ratatui::crossterm::event::KeyEvent),
    /// A letter with no command on an open question: it starts an empty answer (a
    /// written one changes only after an edit key).
    WriteKey(ratatui::crossterm::event::KeyEvent),
    /// A key other than Enter/Esc over a notice: the notice closes and the key does what
    /// it does underneath (typing goes on).
    CloseNoticeThen(ratatui::crossterm::event::KeyEvent),
    /// A key inside the open-answer editor.
    EditorKey(ratatui::crossterm::event::KeyEvent),
    /// The answer box's last step undone (by word, paste, `$EDITOR`).
    Undo,
    Paste(String),
    /// Open `$VISUAL`/`$EDITOR` on the answer.
    ExternalEditor,
    /// The external editor closed with this text (or failed: a one-line reason).
    ExternalEditorDone(Result<EditedFile, String>),
    /// Another window owns the attempt: make this one save it.
    TakeOver,
    /// The overview of a graded attempt: its results.
    ShowResults,
    /// The overview of a graded attempt: grade the open answers still pending.
    GradePending,
    /// The overview of a graded attempt: clear the answers and start again.
    NewAttempt,
    /// Diagram questions: mark where the options differ.
    ToggleDifferences,
    /// Diagram questions: drawn, or the compact list.
    ToggleDiagramList,
    /// Diagram questions: only what differs between the options, or the options again.
    ToggleComparison,
    /// Practice: no confidence rating for this answer; show the verdict.
    SkipRating,
    /// Questions with an anchor: open or close the code panel (kept while moving on).
    ToggleCode,
    /// The code panel scrolls on its own.
    CodeDown,
    CodeUp,
    /// A mouse wheel notch over the view.
    WheelDown,
    WheelUp,
    OpenReview,
    /// `P` on the results: post them to the PR (the taker's confirmation) and quit.
    Post,
    Submit,
    Back,
    ToggleHelp,
    ScrollDown,
    ScrollUp,
    PageDown,
    PageUp,
    Resize(u16, u16),
    /// A question's options, drawn off the UI thread.
    DiagramsDrawn(
        super::drawings::DrawingKey,
        std::sync::Arc<super::diagrams::Arranged>,
    ),
    /// Spinner frame while grading runs.
    Tick,
    /// Twice a second: who saves the attempt, and what the other window saved.
    Poll,
    GradeStarted(String),
    GradeFinished(String, Result<OpenGrade, String>),
    /// Grading is over: one outcome per question (still pending where it failed).
    GradingDone(Vec<crate::quiz::Outcome>),
    /// What the writing of the rest of the quiz told: a stage, a question, its end.
    Writing(Box<crate::generate::growing::WritingNews>),
    /// Esc while the rest is written: stop writing (asks first), keep what is written.
    StopWriting,
    /// The code of questions that arrived while the UI was open (their code panel).
    CodeRead(Box<crate::code::CodeBook>),
}

impl Action {
    /// Actions that come from the program (ticks, grading, a resize, the editor coming
    /// back, the wheel) rather than a key: they neither clear the status line nor answer a
    /// question the UI asked.
    /// A digit key's action ([`super::keymap::Key::Digits`]) for digit `d` (`'1'`–`'9'`).
    #[must_use]
    pub fn with_digit(&self, d: char) -> Self {
        let n = d.to_digit(10).unwrap_or(1);
        match self {
            Self::Rate(_) => Self::Rate(u8::try_from(n).unwrap_or(1)),
            _ => Self::Pick(usize::try_from(n).unwrap_or(1).saturating_sub(1)),
        }
    }

    pub fn is_passive(&self) -> bool {
        matches!(
            self,
            Self::Tick
                | Self::Poll
                | Self::DiagramsDrawn(..)
                | Self::Resize(..)
                | Self::GradeStarted(_)
                | Self::GradeFinished(..)
                | Self::GradingDone(_)
                | Self::Writing(_)
                | Self::CodeRead(_)
                | Self::ExternalEditorDone(_)
                | Self::WheelDown
                | Self::WheelUp
        )
    }
}
