//! A claim of a paper as data: where it is in the paper, the sentence it
//! tests and its readings, the setting of its runs and the open choices it
//! is also judged under ([`Variant`]), plus a `measure` function that asks
//! the [`Lab`] for runs and turns their outcomes into checks. Every claim
//! is made by one constructor, [`Claim::new`], and its methods.

use super::cause::Cause;
use super::format::{fmt, thousands};
use super::judge::Check;
use super::lab::{Applied, Lab};
use super::readings::Reading;
use serde::{Deserialize, Serialize};

/// Which size every claim runs at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Reduced sizes (the tests pin every verdict at this size).
    Quick,
    /// Sizes as close to the papers' as this machine allows within an hour
    /// on two cores (`docs/fidelity.md`).
    Full,
}

impl Mode {
    /// "quick" or "full".
    pub fn name(self) -> &'static str {
        match self {
            Mode::Quick => "quick",
            Mode::Full => "full",
        }
    }
}

/// The runs of a claim at one size.
#[derive(Clone, Copy, Debug)]
pub struct Size {
    /// Flows per run: one value for every run, or one per point of `xs`;
    /// empty: the scenario's own.
    pub flows: &'static [u64],
    /// Seeds; a check's samples are usually one per seed.
    pub seeds: &'static [u64],
    /// The points along the claim's axis ([`Setting::axis`]); empty: one
    /// point, the scenario as it is.
    pub xs: &'static [f64],
    /// Requests per run of a closed-loop matrix (incast, query
    /// aggregation); 0: the scenario's.
    pub requests: u32,
    /// Flows per run for the runs of a named scenario, in place of
    /// `flows` (a claim over two workloads shares each workload's runs with
    /// the claims of that workload alone).
    pub per_scenario: &'static [(&'static str, u64)],
}

impl Size {
    /// The flows of the runs at point `i` (`None`: the scenario's).
    pub fn flows_at(&self, i: usize) -> Option<u64> {
        match self.flows.len() {
            0 => None,
            1 => Some(self.flows[0]),
            _ => Some(self.flows[i]),
        }
    }

    /// The points, or one unnamed point when the claim has no axis.
    pub fn points(&self) -> Vec<f64> {
        if self.xs.is_empty() {
            vec![f64::NAN]
        } else {
            self.xs.to_vec()
        }
    }

    /// In words: "loads 0.2, 0.5, 0.8; 2,000 flows; seeds 1, 2".
    pub fn describe(&self, axis: &str) -> String {
        let list = |v: &[String]| v.join(", ");
        let mut parts = Vec::new();
        if !self.xs.is_empty() {
            parts.push(format!("{axis} {}", list(&self.xs.iter().map(|x| fmt(*x)).collect::<Vec<_>>())));
        }
        match self.flows.len() {
            0 => parts.push("the scenario's flows".into()),
            1 => parts.push(format!("{} flows", thousands(self.flows[0]))),
            _ => parts.push(format!("{} flows", list(&self.flows.iter().map(|f| thousands(*f)).collect::<Vec<_>>()))),
        }
        for (name, f) in self.per_scenario {
            parts.push(format!("{} flows for {name}", thousands(*f)));
        }
        if self.requests > 0 {
            parts.push(format!("{} request{} per run", thousands(self.requests as u64), if self.requests == 1 { "" } else { "s" }));
        }
        let seeds = list(&self.seeds.iter().map(u64::to_string).collect::<Vec<_>>());
        parts.push(format!("seed{} {seeds}", if self.seeds.len() == 1 { "" } else { "s" }));
        parts.join("; ")
    }
}

/// The paper a claim comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Paper {
    /// Alizadeh et al., SIGCOMM 2013.
    PFabric,
    /// Gao et al., CoNEXT 2015.
    PHost,
    /// Hong, Caesar, Godfrey, SIGCOMM 2012.
    Pdq,
    /// Munir et al., SIGCOMM 2014.
    Pase,
    /// Vamanan, Hasan, Vijaykumar, SIGCOMM 2012 (not a source paper).
    D2tcp,
    /// Munir et al., INFOCOM 2013 (not a source paper).
    L2dct,
}

impl Paper {
    /// Short name for tables.
    pub fn short(self) -> &'static str {
        match self {
            Paper::PFabric => "pFabric",
            Paper::PHost => "pHost",
            Paper::Pdq => "PDQ",
            Paper::Pase => "PASE",
            Paper::D2tcp => "D2TCP",
            Paper::L2dct => "L2DCT",
        }
    }

    /// Authors, venue and year.
    pub fn cite(self) -> &'static str {
        match self {
            Paper::PFabric => "pFabric (Alizadeh et al., SIGCOMM 2013)",
            Paper::PHost => "pHost (Gao et al., CoNEXT 2015)",
            Paper::Pdq => "PDQ (Hong, Caesar, Godfrey, SIGCOMM 2012)",
            Paper::Pase => "PASE (Munir et al., SIGCOMM 2014)",
            Paper::D2tcp => "D2TCP (Vamanan, Hasan, Vijaykumar, SIGCOMM 2012)",
            Paper::L2dct => "L2DCT (Munir et al., INFOCOM 2013)",
        }
    }

    /// Whether the paper is one of the project's source papers (its text in
    /// `../shared/papers/`); the others' claims get a section of their own.
    pub fn is_source(self) -> bool {
        !matches!(self, Paper::D2tcp | Paper::L2dct)
    }
}

/// Another reasonable reading of a choice the paper leaves open: the claim
/// is judged again with these settings (the report's sensitivity table).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Variant {
    /// Short name ("DCTCP initial alpha 0").
    pub name: &'static str,
    /// Its source or reason.
    pub why: &'static str,
    /// The settings that make it.
    pub settings: &'static [Applied],
}

/// Where and how big a claim's runs are; claims measured on the same runs
/// share one.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    /// The scenario files (`scenarios/<name>.json`) the runs start from.
    pub scenarios: &'static [&'static str],
    /// What [`Size::xs`] are (loads, senders, flows per query, ...).
    pub axis: &'static str,
    /// Reduced size (`--quick`).
    pub quick: Size,
    /// Full size.
    pub full: Size,
    /// The paper's own size, as far as the paper says.
    pub paper_size: &'static str,
    /// Where the setting departs from the paper's (modelling choices,
    /// smaller sizes); empty: none.
    pub deviations: &'static [&'static str],
}

/// One claim of a paper, with everything needed to test it and report it.
pub struct Claim {
    /// Stable identifier (`--filter` matches it).
    pub id: &'static str,
    /// The paper.
    pub paper: Paper,
    /// Section ("4.2").
    pub section: &'static str,
    /// Figure or table, when the claim has one ("Figure 10(a)").
    pub figure: &'static str,
    /// The sentence the claim tests, as the paper words it.
    pub quote: &'static str,
    /// Whether the quote is in the excerpts of `../shared/papers/`
    /// (otherwise it is cited from the paper).
    pub in_excerpt: bool,
    /// The claim in a few words of this project's.
    pub statement: &'static str,
    /// The quantitative readings of the quote the checks test.
    pub readings: &'static [Reading],
    /// Its runs' scenarios, sizes and deviations.
    pub setting: Setting,
    /// Settings applied to every run beyond the scenario files.
    pub applied: &'static [Applied],
    /// Other reasonable readings of the open choices the verdict may depend
    /// on; each is judged too.
    pub variants: &'static [Variant],
    /// Where the claim is not reproduced or differs at full size: what was
    /// checked and what the data suggest (`""`: nothing to add to the
    /// checks and notes). Written from the full report's numbers; the
    /// Markdown and the page show it under the checks.
    pub discussion: &'static str,
    /// Why the claim does not agree at full size (`None`: no cause given;
    /// the report shows a cause only beside a verdict other than agrees).
    /// The registry fills it from [`claims::causes`].
    pub cause: Option<Cause>,
    /// Asks the lab for runs and judges them; `None` while the lab only
    /// collects the runs asked for (the first pass).
    pub measure: fn(&Lab, &Size) -> Option<Judged>,
}

impl Claim {
    /// The size for `mode`.
    pub fn size(&self, mode: Mode) -> &Size {
        match mode {
            Mode::Quick => &self.setting.quick,
            Mode::Full => &self.setting.full,
        }
    }
    /// "section 4.2, Figure 10(a)"; "abstract; section 4.2, Figure 3".
    pub fn source(&self) -> String {
        let place = self
            .section
            .split("; ")
            .map(|p| if p.starts_with(|c: char| c.is_ascii_digit()) { format!("section {p}") } else { p.to_string() })
            .collect::<Vec<_>>()
            .join("; ");
        if self.figure.is_empty() {
            place
        } else {
            format!("{place}, {}", self.figure)
        }
    }
    /// The one constructor of a claim: claim `id` of `paper`, from
    /// `section` ("4.2", "abstract; 4.2") and `figure` (`""`: none),
    /// quoted from the paper's excerpt, with no settings beyond its
    /// scenarios and no variant. The methods below add the rest:
    /// [`Claim::says`], [`Claim::reads`], [`Claim::on`] and
    /// [`Claim::measured_by`] always (the registry's tests refuse a claim
    /// without a quote, a statement, readings, scenarios or runs), the
    /// others when the claim has them.
    pub const fn new(paper: Paper, id: &'static str, section: &'static str, figure: &'static str) -> Claim {
        Claim {
            id,
            paper,
            section,
            figure,
            quote: "",
            in_excerpt: true,
            statement: "",
            readings: &[],
            setting: NO_SETTING,
            applied: &[],
            variants: &[],
            discussion: "",
            cause: None,
            measure: unmeasured,
        }
    }
    /// The sentence it tests (see [`Claim::quote`]) and the claim in the
    /// project's words.
    pub const fn says(self, quote: &'static str, statement: &'static str) -> Claim {
        Claim { quote, statement, ..self }
    }
    /// The readings of the quote its checks test.
    pub const fn reads(self, readings: &'static [Reading]) -> Claim {
        Claim { readings, ..self }
    }
    /// Its runs' scenarios, sizes and deviations.
    pub const fn on(self, setting: Setting) -> Claim {
        Claim { setting, ..self }
    }
    /// Settings applied to every run beyond the scenario files.
    pub const fn applying(self, applied: &'static [Applied]) -> Claim {
        Claim { applied, ..self }
    }
    /// Other readings of the paper's open choices it is also judged under.
    pub const fn with_variants(self, variants: &'static [Variant]) -> Claim {
        Claim { variants, ..self }
    }
    /// The quote is cited from the paper, not from the excerpts of
    /// `../shared/papers/`.
    pub const fn cited(self) -> Claim {
        Claim { in_excerpt: false, ..self }
    }
    /// How it asks the lab for runs and judges them.
    pub const fn measured_by(self, measure: fn(&Lab, &Size) -> Option<Judged>) -> Claim {
        Claim { measure, ..self }
    }
    /// The same claim with its discussion (see [`Claim::discussion`]).
    pub const fn discussing(self, discussion: &'static str) -> Claim {
        Claim { discussion, ..self }
    }
    /// The same claim with the cause of its verdict (see [`Claim::cause`]).
    pub const fn caused(self, cause: Option<Cause>) -> Claim {
        Claim { cause, ..self }
    }
    /// The reading with key `key`.
    pub fn reading(&self, key: &str) -> Option<&Reading> {
        self.readings.iter().find(|r| r.key == key)
    }
}

/// What a claim's measurement gives.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Judged {
    /// dcsim's value(s) in a few words, from the checks' numbers.
    pub value: String,
    /// The numbers the verdict is computed from.
    pub checks: Vec<Check>,
    /// More numbers worth reading beside the checks (not judged).
    pub notes: Vec<String>,
}

/// The setting of a claim not yet given one: no scenario, no run.
const NO_SETTING: Setting = {
    let none = Size { flows: &[], seeds: &[], xs: &[], requests: 0, per_scenario: &[] };
    Setting { scenarios: &[], axis: "", quick: none, full: none, paper_size: "", deviations: &[] }
};

/// The measure of a claim not yet given one: it asks for no run and
/// judges nothing (the registry's tests refuse it).
fn unmeasured(_: &Lab, _: &Size) -> Option<Judged> {
    None
}
