//! A small deterministic generator (SplitMix64) for the random instances
//! of the model tests: the same seed, the same instances, everywhere.
// Each test crate uses the methods it needs.
#![allow(dead_code)]

/// The generator's state.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[low, high)`.
    pub fn between(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.unit()
    }

    /// `10^x` with `x` uniform in `[low, high)`.
    pub fn log(&mut self, low: f64, high: f64) -> f64 {
        10f64.powf(self.between(low, high))
    }

    /// Uniform in `1..=n`.
    pub fn upto(&mut self, n: usize) -> usize {
        1 + (self.next() % n as u64) as usize
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
