//! Seeded random streams, one per purpose, so that changing how often one
//! part of the model draws (say, the protocol) never changes what another
//! part draws (say, the flow arrivals). Every draw uses fixed-width integers
//! and `libm`, so native and WebAssembly runs draw identical numbers.

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// What a random stream is used for. Each purpose gets its own generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Flow arrival times.
    Arrivals = 1,
    /// Flow sizes.
    Sizes = 2,
    /// Sources and destinations (traffic matrix).
    Endpoints = 3,
    /// Per-packet spraying over equal-cost paths.
    Spraying = 4,
    /// Deadlines and tenants.
    FlowAttributes = 5,
    /// Anything a protocol draws.
    Protocol = 6,
}

/// A seeded generator for one purpose.
#[derive(Clone, Debug)]
pub struct SimRng(Xoshiro256PlusPlus);

impl SimRng {
    /// The generator for `stream` under the run's `seed`.
    pub fn new(seed: u64, stream: Stream) -> Self {
        // SplitMix-style mixing keeps streams of nearby seeds unrelated.
        let mut z = seed ^ (stream as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        SimRng(Xoshiro256PlusPlus::seed_from_u64(z))
    }
    /// A uniform float in [0, 1).
    #[inline]
    pub fn unit(&mut self) -> f64 {
        // 53 random bits, the standard construction; identical on all targets.
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    /// A uniform integer in [0, n). `n` must be positive.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        self.0.random_range(0..n)
    }
    /// An exponential draw with the given mean (inversion; `libm::log` so that
    /// WebAssembly and native agree to the last bit).
    pub fn exponential(&mut self, mean: f64) -> f64 {
        let u = 1.0 - self.unit(); // in (0, 1]
        -mean * libm::log(u)
    }
    /// A uniform float in [lo, hi).
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_independent() {
        let a: Vec<u32> = (0..5)
            .map({
                let mut r = SimRng::new(7, Stream::Sizes);
                move |_| r.below(1000)
            })
            .collect();
        let b: Vec<u32> = (0..5)
            .map({
                let mut r = SimRng::new(7, Stream::Sizes);
                move |_| r.below(1000)
            })
            .collect();
        let c: Vec<u32> = (0..5)
            .map({
                let mut r = SimRng::new(7, Stream::Arrivals);
                move |_| r.below(1000)
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn exponential_mean_is_close() {
        let mut r = SimRng::new(1, Stream::Arrivals);
        let n = 200_000;
        let m: f64 = (0..n).map(|_| r.exponential(3.0)).sum::<f64>() / n as f64;
        // Standard error of the mean is 3/sqrt(n) = 0.0067; allow 5 sigma.
        assert!((m - 3.0).abs() < 0.034, "mean {m}");
    }
}
