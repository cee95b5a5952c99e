//! The work a worker of the page's star does on a chunk: a pointer chase.
//!
//! A chunk of `n` entries of 4 bytes is one cycle through all of them
//! (`next[i]` is the entry after `i`), drawn at random from a seed. The
//! worker follows it from entry 0 for `n` steps: every step is a load whose
//! address is the value just loaded, so the processor can neither predict
//! nor overlap them. While the chunk fits in a cache, a step costs that
//! cache's latency; past it, most steps pay the next level's (the memory's),
//! which is \[2\]'s core and out-of-core memory one level up, the same
//! `max(a1 α, a2 α + b2)` shape.
//!
//! The worker folds every entry it visits into a checksum. The originator
//! gets the same checksum while it draws the chunk (it knows the cycle's
//! order then), so a worker that skipped work or computed wrongly is caught,
//! and no compiler can optimise the chase away.

use std::fmt;

use crate::core::presentation::draw::Draw;

/// Bytes per entry (a `u32` index).
pub const ENTRY_BYTES: usize = 4;

/// The most entries a chunk has: 1 GB, beyond any browser's memory for
/// one worker, yet far below `u32::MAX` (an index must fit an entry).
pub const MAX_ENTRIES: usize = 1 << 28;

/// The checksum's start (FNV-1a's offset basis).
const START: u32 = 0x811C_9DC5;

/// Why a chunk cannot be drawn or followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelError {
    /// A size that is not a number of MB from 8 bytes to 1 GB.
    Size(String),
    /// An entry points outside the chunk (at step `step`).
    OutOfRange {
        /// The step (0-based) at which the bad entry was read.
        step: usize,
        /// The entry's value.
        value: u32,
    },
    /// After `n` steps the chase is not back at entry 0: not one cycle.
    NotACycle,
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelError::Size(what) => write!(
                f,
                "a chunk must be from 8 bytes to {} MB (got {what})",
                MAX_ENTRIES * ENTRY_BYTES / 1_000_000
            ),
            KernelError::OutOfRange { step, value } => write!(
                f,
                "the chunk's entry at step {step} points outside it (to {value})"
            ),
            KernelError::NotACycle => {
                write!(
                    f,
                    "the chunk is not one cycle: its chase does not come back to entry 0"
                )
            }
        }
    }
}

impl std::error::Error for KernelError {}

/// A chunk ready to send, and the checksum its chase must give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// `next[i]`: the entry visited after entry `i`.
    pub next: Vec<u32>,
    /// The checksum of [`chase`] over `next`.
    pub checksum: u32,
}

/// The number of entries of a chunk of `size_mb` MB (10⁶ bytes), at least 2.
pub fn entries_of(size_mb: f64) -> Result<usize, KernelError> {
    let bytes = size_mb * 1e6;
    let max = (MAX_ENTRIES * ENTRY_BYTES) as f64;
    if !bytes.is_finite() || bytes < (2 * ENTRY_BYTES) as f64 || bytes > max {
        return Err(KernelError::Size(format!("{size_mb} MB")));
    }
    Ok((bytes / ENTRY_BYTES as f64).round() as usize)
}

/// One step of the checksum: FNV-1a over the visited entry's index.
fn fold(sum: u32, entry: u32) -> u32 {
    (sum ^ entry).wrapping_mul(0x0100_0193)
}

/// A chunk of `entries` entries forming one cycle, drawn from `seed`:
/// the visiting order is a uniformly random order of entries `1..n` after
/// entry 0 (Fisher–Yates), so every cycle through all entries is equally
/// likely and the chase's addresses have no pattern a prefetcher can learn.
pub fn draw(entries: usize, seed: u64) -> Result<Chunk, KernelError> {
    if !(2..=MAX_ENTRIES).contains(&entries) {
        return Err(KernelError::Size(format!("{entries} entries")));
    }
    let mut draw = Draw::new(seed);
    // `entries` ≤ MAX_ENTRIES < u32::MAX: every index fits an entry.
    let mut order: Vec<u32> = (1..entries as u32).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, draw.below(i + 1));
    }
    let mut next = vec![0u32; entries];
    let mut at = 0u32;
    let mut checksum = START;
    for &to in &order {
        next[at as usize] = to;
        checksum = fold(checksum, to);
        at = to;
    }
    // The last entry leads back to the start, which the chase visits last.
    next[at as usize] = 0;
    checksum = fold(checksum, 0);
    Ok(Chunk { next, checksum })
}

/// Follows the chunk from entry 0 for as many steps as it has entries and
/// returns the checksum of the entries visited. A chunk with an entry
/// outside it, or that is not back at 0 at the end, is refused (never a
/// panic: the data came over a channel).
pub fn chase(next: &[u32]) -> Result<u32, KernelError> {
    let mut at = 0u32;
    let mut checksum = START;
    for step in 0..next.len() {
        at = *next
            .get(at as usize)
            .ok_or(KernelError::OutOfRange { step, value: at })?;
        checksum = fold(checksum, at);
    }
    if at != 0 {
        return Err(KernelError::NotACycle);
    }
    Ok(checksum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drawn_chunk_is_one_cycle_and_its_chase_gives_its_checksum() {
        for (entries, seed) in [(2, 0), (3, 1), (10, 7), (1000, 42), (65_537, 9)] {
            let chunk = draw(entries, seed).unwrap();
            assert_eq!(chunk.next.len(), entries);
            // One cycle: from 0, every entry is visited once before 0 again.
            let mut seen = vec![false; entries];
            let mut at = 0usize;
            for _ in 0..entries {
                at = chunk.next[at] as usize;
                assert!(!seen[at], "entry {at} visited twice");
                seen[at] = true;
            }
            assert_eq!(at, 0);
            assert_eq!(chase(&chunk.next), Ok(chunk.checksum));
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_chunk_and_another_seed_another() {
        let a = draw(5000, 3).unwrap();
        assert_eq!(a, draw(5000, 3).unwrap());
        let b = draw(5000, 4).unwrap();
        assert_ne!(a.next, b.next);
        assert_ne!(a.checksum, b.checksum);
    }

    #[test]
    fn the_checksum_depends_on_the_order_visited() {
        // Two cycles through the same entries in another order.
        let one = [1, 2, 3, 0];
        let other = [2, 3, 1, 0];
        assert_ne!(chase(&one).unwrap(), chase(&other).unwrap());
    }

    #[test]
    fn a_changed_entry_is_caught() {
        let chunk = draw(4096, 11).unwrap();
        // Swapping two successors keeps every entry in range but changes
        // the cycle: either the chase no longer returns to 0 or the
        // checksum differs.
        let mut bad = chunk.next.clone();
        bad.swap(5, 900);
        assert_ne!(chase(&bad), Ok(chunk.checksum));
        let mut outside = chunk.next.clone();
        outside[0] = 4096;
        assert_eq!(
            chase(&outside),
            Err(KernelError::OutOfRange {
                step: 1,
                value: 4096
            })
        );
    }

    #[test]
    fn two_cycles_are_not_one() {
        // 0 → 1 → 0 and 2 → 3 → 2: back at 0 after 4 steps, but only half
        // the chunk visited; the checksum tells it from a single cycle.
        let two = [1, 0, 3, 2];
        let single = draw(4, 1).unwrap();
        assert_ne!(chase(&two).ok(), Some(single.checksum));
        assert_eq!(chase(&[1, 2, 0, 0]), Err(KernelError::NotACycle));
    }

    #[test]
    fn sizes_are_read_in_mb_and_bad_ones_refused() {
        assert_eq!(entries_of(1.0), Ok(250_000));
        assert_eq!(entries_of(0.004), Ok(1000));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 2000.0, 1e-6] {
            let e = entries_of(bad).unwrap_err();
            assert!(e.to_string().starts_with("a chunk must be"), "{e}");
        }
        assert!(draw(1, 0).is_err());
        assert!(draw(MAX_ENTRIES + 1, 0).is_err());
    }
}
