//! A level the grid's values meet all along one of its edges (efficiency
//! `1/m` where the compute time tends to 0, say) is traced along that edge
//! (marching squares takes values within the tolerance of a level as on
//! it): the edge of the map, not a line it can draw. Such pieces are left
//! out of the chart; the rest of the level's line is drawn as traced.

/// Relative closeness to an edge below which a point counts as on it (a
/// crossing at a corner on a logarithmic axis comes back from `exp(ln x)`,
/// a few ulps from `x`).
const ON_EDGE: f64 = 1e-9;

/// The pieces of `pieces` without the segments that run along an edge of
/// the grid `xs × ys` (both ends on the same edge), split where such a
/// segment is left out; pieces reduced to a point are dropped.
pub(crate) fn off_edges(pieces: &[Vec<[f64; 2]>], xs: &[f64], ys: &[f64]) -> Vec<Vec<[f64; 2]>> {
    let (Some(x_edges), Some(y_edges)) = (edges(xs), edges(ys)) else {
        return pieces.to_vec();
    };
    let near = |v: f64, edge: f64| (v - edge).abs() <= ON_EDGE * edge.abs().max(v.abs());
    let along = |a: [f64; 2], b: [f64; 2]| {
        x_edges.iter().any(|&e| near(a[0], e) && near(b[0], e))
            || y_edges.iter().any(|&e| near(a[1], e) && near(b[1], e))
    };
    let mut out = Vec::new();
    for piece in pieces {
        let mut run: Vec<[f64; 2]> = Vec::new();
        for (k, &p) in piece.iter().enumerate() {
            if k > 0 && along(piece[k - 1], p) {
                out.push(std::mem::take(&mut run));
            }
            run.push(p);
        }
        out.push(run);
    }
    out.retain(|run| run.len() > 1);
    out
}

/// The first and last grid coordinates, if the axis has any.
fn edges(values: &[f64]) -> Option<[f64; 2]> {
    Some([*values.first()?, *values.last()?])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A piece that runs along the left edge and then into the grid keeps
    /// only its inner part; one wholly along an edge is gone; one that
    /// only touches an edge stays whole.
    #[test]
    fn segments_along_an_edge_are_left_out() {
        let (xs, ys) = ([1.0, 2.0, 3.0], [10.0, 20.0, 30.0]);
        let along_then_in = vec![[1.0, 10.0], [1.0 + 1e-15, 15.0], [2.0, 25.0], [2.5, 30.0]];
        let along = vec![[1.0, 10.0], [1.0, 20.0], [1.0, 30.0]];
        let touching = vec![[1.0, 15.0], [2.0, 20.0], [3.0, 25.0]];
        let kept = off_edges(&[along_then_in, along, touching.clone()], &xs, &ys);
        assert_eq!(
            kept,
            vec![
                vec![[1.0 + 1e-15, 15.0], [2.0, 25.0], [2.5, 30.0]],
                touching
            ]
        );
    }

    /// Values equal to the level up to rounding all along the left column
    /// (the limit of the efficiency as the compute time tends to 0), the
    /// rest below it, trace the level along that edge only: it is not
    /// drawn.
    #[test]
    fn a_level_met_along_an_edge_is_not_drawn_there() {
        let xs: Vec<f64> = (0..6).map(|i| 10f64.powi(i - 6)).collect();
        let ys: Vec<f64> = (0..8).map(|j| f64::from(j) + 1.0).collect();
        let ulp = |j: usize| if j % 3 == 1 { -2e-17 } else { 0.0 };
        let values: Vec<Vec<Option<f64>>> = (0..ys.len())
            .map(|j| {
                (0..xs.len())
                    .map(|i| Some(0.1 + ulp(j) - 0.01 * i as f64))
                    .collect()
            })
            .collect();
        let traced = super::super::march::march(&xs, &ys, &values, 0.1, true, false);
        assert!(!traced.is_empty(), "the edge is traced");
        assert!(off_edges(&traced, &xs, &ys).is_empty(), "{traced:?}");
    }
}
