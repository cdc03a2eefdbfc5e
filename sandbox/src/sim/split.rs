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

/// [`apportion`] into `out` (as long as `weights`), without allocating for up to 16 parts.
pub fn apportion_into(total: u64, weights: &[u64], out: &mut [u64]) {
    let n = weights.len();
    if n > 16 {
        out.copy_from_slice(&apportion(total, weights));
        return;
    }
    if n == 0 {
        return;
    }
    if total == 0 {
        out.fill(0);
        return;
    }
    let sum: u128 = weights.iter().map(|w| u128::from(*w)).sum();
    if sum == 0 {
        out.fill(0);
        out[0] = total;
        return;
    }
    // Products that fit in 64 bits (every split the simulation makes) divide in 64 bits:
    // the same quotients and remainders, several times faster than 128-bit division.
    let widest = weights.iter().copied().max().unwrap_or(0);
    if sum <= u128::from(u64::MAX) && u128::from(total) * u128::from(widest) <= u128::from(u64::MAX)
    {
        let sum = sum as u64;
        let mut rems = [0u64; 16];
        let mut given = 0u64;
        for (i, w) in weights.iter().enumerate() {
            let q = total * *w;
            out[i] = q / sum;
            given += out[i];
            rems[i] = q % sum;
        }
        give_largest(&rems[..n], total - given, out);
        return;
    }
    let mut rems = [0u128; 16];
    let mut given = 0u64;
    for (i, w) in weights.iter().enumerate() {
        let q = u128::from(total) * u128::from(*w);
        out[i] = (q / sum) as u64;
        given += out[i];
        rems[i] = q % sum;
    }
    give_largest(&rems[..n], total - given, out);
}

/// Gives one more to the `left` parts with the largest remainders, ties to the earlier
/// part (as [`apportion`] does).
fn give_largest<R: Ord>(rems: &[R], left: u64, out: &mut [u64]) {
    let mut taken = [false; 16];
    for _ in 0..left {
        let mut best: Option<usize> = None;
        for i in 0..rems.len() {
            if !taken[i] && best.is_none_or(|b| rems[i] > rems[b]) {
                best = Some(i);
            }
        }
        let Some(b) = best else { break };
        taken[b] = true;
        out[b] += 1;
    }
}

/// [`split`] over integer weights (as [`int_weights`] gives), into `out` (cleared first),
/// without allocating for up to 16 parts; the same parts as [`split`].
pub fn split_ints_into(t: &Totals, base: &[u64], out: &mut Vec<Totals>) {
    out.clear();
    let n = base.len();
    if n == 1 {
        out.push(*t);
        return;
    }
    if t.impressions == 0 && t.view_installs() == 0 {
        out.resize(n, Totals::default());
        return;
    }
    if n > 16 {
        let weights: Vec<f64> = base.iter().map(|w| *w as f64 / 1e6).collect();
        out.extend(split(t, &weights));
        return;
    }
    let mut imps = [0u64; 16];
    apportion_into(t.impressions, base, &mut imps[..n]);
    let by_imps: &[u64] = if t.impressions > 0 { &imps[..n] } else { base };
    let mut taps = [0u64; 16];
    apportion_into(t.taps, by_imps, &mut taps[..n]);
    let mut tap_installs = [0u64; 16];
    apportion_into(t.tap_installs(), &taps[..n], &mut tap_installs[..n]);
    let mut tap_new = [0u64; 16];
    apportion_into(t.tap_new_downloads, &tap_installs[..n], &mut tap_new[..n]);
    let mut views = [0u64; 16];
    apportion_into(t.view_installs(), by_imps, &mut views[..n]);
    let mut view_new = [0u64; 16];
    apportion_into(t.view_new_downloads, &views[..n], &mut view_new[..n]);
    let cpt = if t.taps > 0 {
        t.spend / t.taps as i64
    } else {
        0
    };
    out.extend((0..n).map(|i| Totals {
        impressions: imps[i],
        taps: taps[i],
        tap_new_downloads: tap_new[i],
        tap_redownloads: tap_installs[i] - tap_new[i],
        view_new_downloads: view_new[i],
        view_redownloads: views[i] - view_new[i],
        spend: taps[i] as i64 * cpt,
    }));
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

    #[test]
    fn the_allocation_free_split_gives_the_same_parts() {
        let t = sample();
        let mut out = Vec::new();
        for weights in [
            vec![1.0],
            vec![0.5, 0.3, 0.2],
            vec![0.82, 0.18],
            vec![0.0, 1.0, 0.0, 3.0],
            vec![0.1; 7],
            vec![0.0; 3],
            vec![0.01; 20],
        ] {
            split_ints_into(&t, &int_weights(&weights), &mut out);
            assert_eq!(out, split(&t, &weights), "{weights:?}");
            let zero = Totals::default();
            split_ints_into(&zero, &int_weights(&weights), &mut out);
            assert_eq!(out, split(&zero, &weights), "{weights:?}");
        }
        for total in [0u64, 1, 2, 7, 1000] {
            for weights in [vec![3u64, 3, 3], vec![0, 0], vec![1, 5, 2, 5, 1]] {
                let mut out = vec![0; weights.len()];
                apportion_into(total, &weights, &mut out);
                assert_eq!(out, apportion(total, &weights), "{total} {weights:?}");
            }
        }
        // Products past 64 bits take the 128-bit path.
        for (total, weights) in [
            (u64::MAX / 3, vec![u64::MAX / 4, 1, 7]),
            (1 << 40, vec![1 << 30, 3 << 29, 5]),
            (12_345, vec![u64::MAX, u64::MAX - 1]),
        ] {
            let mut out = vec![0; weights.len()];
            apportion_into(total, &weights, &mut out);
            assert_eq!(out, apportion(total, &weights), "{total} {weights:?}");
            assert_eq!(
                out.iter().map(|x| u128::from(*x)).sum::<u128>(),
                u128::from(total)
            );
        }
    }
}
