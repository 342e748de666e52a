//! Empirical flow-size CDFs (docs/model.md#workloads). The three measured
//! workloads ship inside the engine (copied into `scenarios/workloads/`), so
//! no run reads a file at run time.

use crate::rng::SimRng;
use crate::units::MSS;

/// Web search (DCTCP paper's measurements), in packets of 1460 B.
pub const WEBSEARCH_CSV: &str = include_str!("../../../../scenarios/workloads/websearch.csv");
/// Data mining (VL2 paper's measurements), in packets of 1460 B.
pub const DATAMINING_CSV: &str = include_str!("../../../../scenarios/workloads/datamining.csv");
/// IMC10 (Benson et al.), in packets of 1460 B.
pub const IMC10_CSV: &str = include_str!("../../../../scenarios/workloads/imc10.csv");

/// A flow-size CDF: points (size in packets, cumulative probability),
/// sampled by inversion with linear interpolation between points.
#[derive(Clone, Debug, PartialEq)]
pub struct Cdf {
    points: Vec<(f64, f64)>,
}

impl Cdf {
    /// Parses the `packets,cdf` CSV format of `scenarios/workloads/`
    /// (lines starting with `#` and the header are skipped).
    pub fn parse_csv(text: &str) -> Result<Cdf, String> {
        let mut points = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || line.starts_with("packets") {
                continue;
            }
            let mut it = line.split(',');
            let parse = |s: Option<&str>| s.and_then(|s| s.trim().parse::<f64>().ok());
            match (parse(it.next()), parse(it.next())) {
                (Some(x), Some(p)) => points.push((x, p)),
                _ => return Err(format!("line {}: expected `packets,cdf`, got `{line}`", i + 1)),
            }
        }
        Cdf::from_points(points)
    }

    /// Builds a CDF from (packets, probability) points, checking that sizes
    /// are positive and both columns are non-decreasing, ending at 1.
    pub fn from_points(points: Vec<(f64, f64)>) -> Result<Cdf, String> {
        if points.len() < 2 {
            return Err("a CDF needs at least two points".into());
        }
        for (i, w) in points.windows(2).enumerate() {
            if w[1].0 < w[0].0 || w[1].1 < w[0].1 {
                return Err(format!("point {}: sizes and probabilities must not decrease", i + 2));
            }
        }
        if points.iter().any(|&(x, p)| x.is_nan() || x < 1.0 || !(0.0..=1.0).contains(&p)) {
            return Err("sizes must be at least 1 packet and probabilities within [0, 1]".into());
        }
        if (points.last().unwrap().1 - 1.0).abs() > 1e-9 {
            return Err("the last probability must be 1".into());
        }
        Ok(Cdf { points })
    }

    /// Mean size in packets of the interpolated distribution.
    pub fn mean_packets(&self) -> f64 {
        let mut m = self.points[0].0 * self.points[0].1;
        for w in self.points.windows(2) {
            m += (w[1].1 - w[0].1) * (w[0].0 + w[1].0) / 2.0;
        }
        m
    }

    /// Mean size in payload bytes.
    pub fn mean_bytes(&self) -> f64 {
        self.mean_packets() * MSS as f64
    }

    /// Draws a size in whole packets (at least one).
    pub fn sample_packets(&self, rng: &mut SimRng) -> u64 {
        let u = rng.unit();
        let pts = &self.points;
        let mut x = pts.last().unwrap().0;
        for w in pts.windows(2) {
            if u <= w[1].1 {
                let (x0, p0) = w[0];
                let (x1, p1) = w[1];
                x = if p1 > p0 { x0 + (x1 - x0) * (u - p0) / (p1 - p0) } else { x1 };
                break;
            }
        }
        (x.round() as u64).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Stream;

    #[test]
    fn shipped_cdfs_have_the_documented_means() {
        // Means stated in the files' headers (packets).
        for (csv, mean) in [(WEBSEARCH_CSV, 1141.0), (DATAMINING_CSV, 5117.0), (IMC10_CSV, 134.0)] {
            let c = Cdf::parse_csv(csv).unwrap();
            let m = c.mean_packets();
            assert!((m - mean).abs() / mean < 0.01, "mean {m} vs {mean}");
        }
    }

    #[test]
    fn sampling_reproduces_the_mean() {
        let c = Cdf::parse_csv(WEBSEARCH_CSV).unwrap();
        let mut r = SimRng::new(3, Stream::Sizes);
        let n = 400_000;
        let m = (0..n).map(|_| c.sample_packets(&mut r) as f64).sum::<f64>() / n as f64;
        // Heavy tail: the standard deviation is about 2500 packets, so the
        // standard error is about 4; allow 6 sigma plus rounding.
        assert!((m - c.mean_packets()).abs() < 25.0, "sample mean {m}");
    }

    #[test]
    fn bad_cdfs_are_rejected() {
        assert!(Cdf::parse_csv("1,0\n2,0.5").unwrap_err().contains("last probability"));
        assert!(Cdf::parse_csv("5,0\n2,1").unwrap_err().contains("must not decrease"));
        assert!(Cdf::parse_csv("x,y").unwrap_err().contains("line 1"));
    }
}
