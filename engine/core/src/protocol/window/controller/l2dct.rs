//! L2DCT's controller (Munir et al., INFOCOM 2013, section IV): DCTCP
//! whose cut uses b = alpha^w_c and whose congestion-avoidance increase is
//! w_c / w_max per round trip, w_c falling with the bytes sent
//! ([`Weights::weight`]). It is [`Dctcp`] with the rule [`Weights`].

use super::{AckEvent, Dctcp, DctcpConfig, DctcpRule};
use crate::protocol::window::params::L2dctParams;

/// L2DCT's weights and the bytes sent at which they change (section IV).
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// Smallest weight w_min.
    pub min_weight: f64,
    /// Largest weight w_max.
    pub max_weight: f64,
    /// Bytes sent up to which the weight is w_max.
    pub full_weight_bytes: u64,
    /// Bytes sent from which the weight is w_min.
    pub min_weight_bytes: u64,
}

impl Weights {
    /// L2DCT's weight w_c of a flow that has sent `bytes_sent` payload
    /// bytes (section IV, least attained service): w_max up to
    /// `full_weight_bytes`, then falling linearly to w_min at
    /// `min_weight_bytes` and staying there. The thresholds' defaults come
    /// from the ns-3 L2dctSocket port (200 and 1000 segments), see
    /// `L2dctParams`.
    pub fn weight(&self, bytes_sent: u64) -> f64 {
        if bytes_sent <= self.full_weight_bytes {
            return self.max_weight;
        }
        let span = (self.min_weight_bytes - self.full_weight_bytes) as f64;
        let f = ((bytes_sent - self.full_weight_bytes) as f64 / span).min(1.0);
        self.max_weight - (self.max_weight - self.min_weight) * f
    }
}

/// L2DCT's parameters: DCTCP's and the weights.
#[derive(Clone, Copy, Debug)]
pub struct L2dctConfig {
    /// DCTCP's part.
    pub dctcp: DctcpConfig,
    /// The weights.
    pub weights: Weights,
}

impl L2dctConfig {
    /// From L2DCT's parameters.
    pub fn new(p: &L2dctParams) -> Self {
        L2dctConfig {
            dctcp: DctcpConfig::new(&p.dctcp_part()),
            weights: Weights {
                min_weight: p.min_weight,
                max_weight: p.max_weight,
                full_weight_bytes: p.full_weight_bytes,
                min_weight_bytes: p.min_weight_bytes,
            },
        }
    }
}

impl DctcpRule for Weights {
    /// b = alpha^w_c (section IV).
    #[inline(always)]
    fn cut_fraction(&self, alpha: f64, _cwnd: f64, ack: &AckEvent) -> f64 {
        alpha.powf(self.weight(ack.bytes_sent()))
    }
    /// k = w_c / w_max packets per window in congestion avoidance
    /// (section IV).
    #[inline(always)]
    fn gain(&self, ack: &AckEvent) -> f64 {
        self.weight(ack.bytes_sent()) / self.max_weight
    }
}

/// One flow's L2DCT controller: DCTCP's state with the weights (the weight
/// follows from the bytes sent, which the ACK carries).
pub type L2dct = Dctcp<Weights>;

#[cfg(test)]
mod tests {
    use super::*;

    /// L2DCT section IV: the weight falls with bytes sent, so a flow that
    /// has sent more grows slower (k = w / w_max) and cuts more
    /// (b = alpha^w with alpha < 1).
    #[test]
    fn l2dct_weight_favours_flows_that_sent_less() {
        let cc = L2dctConfig::new(&L2dctParams::default()).weights;
        let (full, floor) = (cc.full_weight_bytes, cc.min_weight_bytes);
        assert_eq!(cc.weight(0), 2.5);
        assert_eq!(cc.weight(full), 2.5);
        assert!((cc.weight((full + floor) / 2) - (2.5 + 0.125) / 2.0).abs() < 1e-9, "linear in between");
        assert_eq!(cc.weight(floor), 0.125);
        assert_eq!(cc.weight(100 * floor), 0.125);
        let (small, large) = (cc.weight(100_000), cc.weight(1_000_000));
        assert!(small > large);
        assert!(small / cc.max_weight > large / cc.max_weight, "the larger flow grows slower");
        let alpha: f64 = 0.3;
        assert!(alpha.powf(small) < alpha.powf(large), "the larger flow cuts more");
    }
}
