//! Why a claim does not agree: one of four kinds of cause, each with the
//! evidence it rests on. Every claim that does not agree at full size says
//! which (the report's "cause" column and the paragraph under its checks);
//! a verdict that agrees needs none and the report shows none for it.

use serde::Serialize;

/// The kind of cause of a verdict other than "agrees".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CauseKind {
    /// A mechanism or default of dcsim was wrong and is fixed: the text
    /// names it, the commit that fixed it, and the verdict before and after.
    DcsimErrorFixed,
    /// The paper's own simulator, run on the same setting, gives dcsim's
    /// answer rather than the paper's.
    AuthorsSimulatorAgrees,
    /// A setting the paper leaves open decides the verdict: the text names
    /// the sensitivity row whose reading flips it and quotes the paper's
    /// sentence that leaves it open.
    OpenSetting,
    /// None of the above is shown: the text says what was checked and what
    /// the data suggest.
    Unexplained,
}

impl CauseKind {
    /// Every kind, in the order the report counts them.
    pub const ALL: [CauseKind; 4] = [CauseKind::DcsimErrorFixed, CauseKind::AuthorsSimulatorAgrees, CauseKind::OpenSetting, CauseKind::Unexplained];

    /// The kind in the report's words.
    pub fn name(self) -> &'static str {
        match self {
            CauseKind::DcsimErrorFixed => "dcsim error, fixed",
            CauseKind::AuthorsSimulatorAgrees => "the authors' simulator agrees with dcsim",
            CauseKind::OpenSetting => "an open setting decides it",
            CauseKind::Unexplained => "unexplained",
        }
    }
}

/// Why a claim does not agree: the kind and its evidence in a few
/// sentences, written from the full report's numbers.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Cause {
    /// The kind.
    pub kind: CauseKind,
    /// The evidence: the mechanism and commit, the sensitivity row and the
    /// paper's sentence, or what was checked.
    pub why: &'static str,
}
