//! The envelope of one part of a split request (`dlt split`): which
//! request it belongs to and where it stands, so that its answer, solved
//! anywhere, can be joined with the others and checked to belong.

use serde::{Deserialize, Serialize};

/// Where a part stands in its whole request. A request carries it as
/// `"part"`, and so does its answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// The hash of the whole request's canonical JSON
    /// ([`crate::core::domain::hash::of_json`]): an answer whose hash differs
    /// belongs to another request.
    pub of: String,
    /// The part's number, from 0.
    pub index: usize,
    /// How many parts the whole request was split into.
    pub count: usize,
    /// For a group of the model's own pieces (`dlt split --parts N` with
    /// fewer parts than pieces): the pieces `[from, to)`, the request
    /// being the whole one. Absent when the request is one piece.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<[usize; 2]>,
}

impl Part {
    /// The pieces of group `index` of `count` over `pieces` pieces: as
    /// even as whole pieces allow, in order.
    pub fn group(index: usize, count: usize, pieces: usize) -> [usize; 2] {
        let count = count.max(1);
        [index * pieces / count, (index + 1) * pieces / count]
    }
}

#[cfg(test)]
mod tests {
    use super::Part;

    #[test]
    fn groups_cover_every_piece_once() {
        for pieces in 1..20 {
            for count in 1..=pieces {
                let groups: Vec<_> = (0..count).map(|i| Part::group(i, count, pieces)).collect();
                assert_eq!(groups[0][0], 0);
                assert_eq!(groups[count - 1][1], pieces);
                assert!(groups.windows(2).all(|w| w[0][1] == w[1][0]));
                assert!(groups.iter().all(|[a, b]| a < b));
            }
        }
    }
}
