//! The 95% confidence interval a claim's number is judged by.
//!
//! A check's number is a mean over independent samples (one per seed, or
//! one per request of an incast run); its interval is the Student-t
//! interval of that mean, `mean ± t(0.975, n - 1) · s / √n`. The interval,
//! never the mean alone, is compared with the paper's statement
//! ([`super::judge`]): noise is met with more seeds, never with a wider
//! bound. One sample has no interval: it is the point itself, and the
//! report says so.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};

/// Confidence level of every interval in the report.
pub const LEVEL: f64 = 0.95;

/// A mean and its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Mean of the samples (NaN when there are none or one is NaN).
    pub mean: f64,
    /// Lower end of the interval.
    pub lo: f64,
    /// Upper end of the interval.
    pub hi: f64,
    /// Number of samples.
    pub n: usize,
}

impl Interval {
    /// The interval of the mean of `samples`. A NaN sample (a run that did
    /// not finish) makes the whole interval NaN: such a number is missing,
    /// not small.
    pub fn of(samples: &[f64]) -> Interval {
        let n = samples.len();
        if n == 0 || samples.iter().any(|x| x.is_nan()) {
            return Interval { mean: f64::NAN, lo: f64::NAN, hi: f64::NAN, n };
        }
        let mean = samples.iter().sum::<f64>() / n as f64;
        if n == 1 {
            return Interval { mean, lo: mean, hi: mean, n };
        }
        let var = samples.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        let half = t_quantile(n - 1) * (var / n as f64).sqrt();
        Interval { mean, lo: mean - half, hi: mean + half, n }
    }

    /// Whether the interval is missing (a run did not finish).
    pub fn is_nan(&self) -> bool {
        self.mean.is_nan()
    }
}

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom
/// (12.71 for 1, 4.30 for 2, 2.26 for 9, 1.96 in the limit).
pub fn t_quantile(df: usize) -> f64 {
    let t = StudentsT::new(0.0, 1.0, df.max(1) as f64).expect("positive degrees of freedom");
    t.inverse_cdf(1.0 - (1.0 - LEVEL) / 2.0)
}

/// Mean of `v` (NaN when empty or when any value is NaN).
pub fn mean(v: impl IntoIterator<Item = f64>) -> f64 {
    let (mut s, mut n) = (0.0, 0usize);
    for x in v {
        s += x;
        n += 1;
    }
    if n == 0 {
        f64::NAN
    } else {
        s / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_are_the_textbook_values() {
        for (df, t) in [(1, 12.706), (2, 4.303), (4, 2.776), (9, 2.262), (29, 2.045)] {
            assert!((t_quantile(df) - t).abs() < 1e-3, "df {df}: {}", t_quantile(df));
        }
    }

    #[test]
    fn an_interval_is_the_student_t_interval_of_the_mean() {
        // Samples 1, 2, 3: mean 2, s = 1, half width 4.303 / sqrt(3).
        let i = Interval::of(&[1.0, 2.0, 3.0]);
        assert_eq!(i.mean, 2.0);
        assert!(((i.hi - i.lo) / 2.0 - 4.303 / 3f64.sqrt()).abs() < 1e-3);
        assert_eq!(i.n, 3);
        // One sample: the point itself; equal samples: no width.
        assert_eq!(Interval::of(&[5.0]), Interval { mean: 5.0, lo: 5.0, hi: 5.0, n: 1 });
        let same = Interval::of(&[2.0, 2.0]);
        assert_eq!((same.lo, same.hi), (2.0, 2.0));
        // A missing run makes the number missing.
        assert!(Interval::of(&[1.0, f64::NAN]).is_nan() && Interval::of(&[]).is_nan());
    }
}
