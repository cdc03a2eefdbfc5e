//! Splitting one keyword-day's metrics into parts (countries, devices, hours, search terms,
//! ads) so the parts add up exactly to the whole and each part stays consistent: taps ≤
//! impressions, installs ≤ taps, new downloads + redownloads = installs, and every tap
//! costs the keyword-day's single CPT. Counts are apportioned by largest remainder, each
//! level by the previous level's parts (taps by impressions, installs by taps, ...), which
//! keeps every part under its parent.

use crate::metrics::Totals;

/// Splits `total` into parts proportional to integer `weights` (largest remainder; ties to
/// the earlier part). A zero weight sum puts everything in the first part.
pub fn apportion(total: u64, weights: &[u64]) -> Vec<u64> {
    let sum: u128 = weights.iter().map(|w| u128::from(*w)).sum();
    if weights.is_empty() {
        return vec![];
    }
    if sum == 0 {
        let mut out = vec![0; weights.len()];
        out[0] = total;
        return out;
    }
    let mut out = Vec::with_capacity(weights.len());
    let mut rems = Vec::with_capacity(weights.len());
    let mut given = 0u64;
    for (i, w) in weights.iter().enumerate() {
        let q = u128::from(total) * u128::from(*w);
        let floor = (q / sum) as u64;
        out.push(floor);
        given += floor;
        rems.push((q % sum, i));
    }
    rems.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, i) in rems.into_iter().take((total - given) as usize) {
        out[i] += 1;
    }
    out
}

/// Float weights as integers (a millionth of the largest weight is the resolution).
pub fn int_weights(weights: &[f64]) -> Vec<u64> {
    weights
        .iter()
        .map(|w| (w.max(0.0) * 1e6).round() as u64)
        .collect()
}

/// Splits one keyword-day (one CPT) into parts proportional to `weights`.
pub fn split(t: &Totals, weights: &[f64]) -> Vec<Totals> {
    let n = weights.len();
    if n == 1 {
        return vec![*t];
    }
    if t.impressions == 0 && t.view_installs() == 0 {
        return vec![Totals::default(); n];
    }
    let base = int_weights(weights);
    let imps = apportion(t.impressions, &base);
    let by_imps = if t.impressions > 0 {
        imps.clone()
    } else {
        base
    };
    let taps = apportion(t.taps, &by_imps);
    let tap_installs = apportion(t.tap_installs(), &taps);
    let tap_new = apportion(t.tap_new_downloads, &tap_installs);
    let views = apportion(t.view_installs(), &by_imps);
    let view_new = apportion(t.view_new_downloads, &views);
    let cpt = if t.taps > 0 {
        t.spend / t.taps as i64
    } else {
        0
    };
    (0..n)
        .map(|i| Totals {
            impressions: imps[i],
            taps: taps[i],
            tap_new_downloads: tap_new[i],
            tap_redownloads: tap_installs[i] - tap_new[i],
            view_new_downloads: view_new[i],
            view_redownloads: views[i] - view_new[i],
            spend: taps[i] as i64 * cpt,
        })
        .collect()
}

/// Scales one keyword-day down by `f` ≤ 1 (budget capping): every count is floored, so
/// the order between counts holds, and spend stays taps × the same CPT.
pub fn scale(t: &Totals, f: f64) -> Totals {
    let s = |x: u64| ((x as f64) * f).floor() as u64;
    let cpt = if t.taps > 0 {
        t.spend / t.taps as i64
    } else {
        0
    };
    let taps = s(t.taps);
    let tap_installs = s(t.tap_installs());
    let tap_new = s(t.tap_new_downloads);
    let views = s(t.view_installs());
    let view_new = s(t.view_new_downloads);
    Totals {
        impressions: s(t.impressions),
        taps,
        tap_new_downloads: tap_new,
        tap_redownloads: tap_installs - tap_new,
        view_new_downloads: view_new,
        view_redownloads: views - view_new,
        spend: taps as i64 * cpt,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Totals {
        Totals {
            impressions: 1003,
            taps: 97,
            tap_new_downloads: 41,
            tap_redownloads: 6,
            view_new_downloads: 3,
            view_redownloads: 1,
            spend: 97 * 1_230_000,
        }
    }

    #[test]
    fn parts_add_up_and_stay_consistent() {
        let t = sample();
        for weights in [
            vec![1.0],
            vec![0.5, 0.3, 0.2],
            vec![0.82, 0.18],
            vec![0.0, 1.0, 0.0, 3.0],
        ] {
            let parts = split(&t, &weights);
            let mut sum = Totals::default();
            for p in &parts {
                assert!(p.taps <= p.impressions, "{p:?}");
                assert!(p.tap_installs() <= p.taps, "{p:?}");
                assert_eq!(p.spend, p.taps as i64 * 1_230_000);
                sum.add(p);
            }
            assert_eq!(sum, t, "{weights:?}");
        }
    }

    #[test]
    fn scaling_keeps_the_order_of_counts() {
        let t = sample();
        let s = scale(&t, 0.37);
        assert!(s.taps <= s.impressions && s.tap_installs() <= s.taps);
        assert!(s.spend as f64 <= t.spend as f64 * 0.37);
        assert_eq!(apportion(5, &[1, 1, 1]), vec![2, 2, 1]);
    }
}
