//! Every order of `n` items, for the "try every order" options.

/// Calls `visit` with every permutation of `0..n` (Heap's algorithm, each
/// one swap away from the previous) until it returns `false`.
pub fn for_each(n: usize, mut visit: impl FnMut(&[usize]) -> bool) {
    let mut order: Vec<usize> = (0..n).collect();
    if !visit(&order) {
        return;
    }
    let mut counters = vec![0; n];
    let mut i = 0;
    while i < n {
        if counters[i] < i {
            let swap = if i % 2 == 0 { 0 } else { counters[i] };
            order.swap(swap, i);
            if !visit(&order) {
                return;
            }
            counters[i] += 1;
            i = 0;
        } else {
            counters[i] = 0;
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visits_every_permutation_once() {
        for n in 0..=6 {
            let mut seen = std::collections::BTreeSet::new();
            for_each(n, |p| seen.insert(p.to_vec()));
            let factorial: usize = (1..=n).product();
            assert_eq!(seen.len(), factorial, "n = {n}");
        }
    }

    #[test]
    fn stops_when_asked() {
        let mut calls = 0;
        for_each(5, |_| {
            calls += 1;
            calls < 7
        });
        assert_eq!(calls, 7);
    }
}
