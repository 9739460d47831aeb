//! The sequential test of `match --sprt`: the generalized sequential
//! probability ratio test (GSPRT) over pentanomial game pairs, with the
//! hypotheses in normalized Elo, as fastchess and OpenBench compute it.
//!
//! A pair is one opening played from both sides; its two games give our
//! engine 0, ½, 1, 1½ or 2 points, the five outcomes whose counts are the
//! pentanomial ([`Pentanomial`]). Scaled to a pair score `a` of 0, ¼, ½,
//! ¾ or 1, a distribution `p` of pairs has a mean `μ`, a standard
//! deviation `σ` and a normalized t-value `t = (μ - ½) / σ`; its
//! normalized Elo is `t / √2 · 800 / ln 10` (the `√2` turns the pair's
//! deviation into a game's). The log-likelihood ratio of the counts `n`
//! is `Σ n_i ln(p1_i / p0_i)`, where `p0` and `p1` are the distributions of
//! largest likelihood for the counts whose t-values are those of `elo0`
//! and `elo1`: each is `p_i = p̂_i / (1 + x b_i)` (`p̂` the observed
//! frequencies, a zero count taken as 0.001), with `b_i` the constraint's
//! gradient at the current `p` and `x` the root of `Σ p̂_i b_i / (1 + x
//! b_i) = 0`, iterated until `p` stops moving. The test accepts H1 when
//! the ratio reaches `ln((1 - β) / α)` and H0 when it falls to `ln(β /
//! (1 - α))` (Wald's bounds, no correction for the overshoot).
//!
//! Sources of the formulas (the code is this project's): M. Van den
//! Bergh's normalized Elo and the exact GSPRT for it, as merged into
//! fishtest (<https://github.com/official-stockfish/fishtest/pull/914>,
//! <https://github.com/official-stockfish/fishtest/pull/927>) and taken
//! up by fastchess (<https://github.com/Disservin/fastchess/pull/222>,
//! `model=normalized`, its default) and OpenBench. The tests pin values
//! published by those tools and values from
//! `crates/cli/tools/sprt_reference.py`, an independent implementation of
//! the same formulas.
//!
//! It knows nothing of chess, engines or games beyond a pair's points.

use std::fmt;

use anyhow::{anyhow, Result};

/// A pair's outcomes: the pair score `a` of each (our engine's points in
/// the pair, halved).
const OUTCOMES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// What a count of zero is taken as, so that every outcome keeps some
/// likelihood (as the published implementations do).
const ZERO_COUNT: f64 = 1e-3;

/// Normalized Elo per unit of a pair distribution's t-value:
/// `800 / ln 10 / √2`.
fn nelo_per_t() -> f64 {
    800.0 / std::f64::consts::LN_10 / std::f64::consts::SQRT_2
}

/// The counts of game pairs by our engine's points in the pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Pentanomial {
    /// Pairs that gave us 0, ½, 1, 1½ and 2 points (the order fastchess
    /// and OpenBench print, `LL, LD, WL+DD, WD, WW`).
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts one pair that gave us `half_points` half points (0 to 4).
    ///
    /// # Panics
    ///
    /// When `half_points` is over 4.
    pub(super) fn add(&mut self, half_points: u32) {
        self.counts[half_points as usize] += 1;
    }

    /// How many pairs were counted.
    pub(super) fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The observed frequencies (a zero count as [`ZERO_COUNT`]) and
    /// their total.
    fn frequencies(&self) -> ([f64; 5], f64) {
        let n = self
            .counts
            .map(|c| if c == 0 { ZERO_COUNT } else { f64::from(c) });
        let total: f64 = n.iter().sum();
        (n.map(|c| c / total), total)
    }

    /// The mean pair score and its standard deviation, `None` without a
    /// pair.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let p = self.counts.map(|c| f64::from(c) / f64::from(n));
        let (mean, variance) = moments(&p);
        Some((mean, variance.sqrt()))
    }

    /// Our Elo (logistic) with a 95% interval: the Elo of the mean pair
    /// score `μ` and of `μ ± 1.96 σ / √n` (`σ` the pairs' standard
    /// deviation), `None` without a pair.
    pub(super) fn elo(&self) -> Option<Interval> {
        let (mean, sd) = self.moments()?;
        let half = 1.96 * sd / f64::from(self.pairs()).sqrt();
        let logistic = |s: f64| {
            if s <= 0.0 {
                f64::NEG_INFINITY
            } else if s >= 1.0 {
                f64::INFINITY
            } else {
                -400.0 * (1.0 / s - 1.0).log10()
            }
        };
        Some(Interval {
            value: logistic(mean),
            low: logistic(mean - half),
            high: logistic(mean + half),
        })
    }

    /// Our normalized Elo with a 95% interval (`± 1.96 / √n` in t), `None`
    /// without a pair or when every pair scored alike.
    pub(super) fn normalized_elo(&self) -> Option<Interval> {
        let (mean, sd) = self.moments()?;
        if sd == 0.0 {
            return None;
        }
        let value = (mean - 0.5) / sd * nelo_per_t();
        let half = 1.96 / f64::from(self.pairs()).sqrt() * nelo_per_t();
        Some(Interval {
            value,
            low: value - half,
            high: value + half,
        })
    }
}

/// The mean and variance of the pair score under `p`.
fn moments(p: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = p.iter().zip(OUTCOMES).map(|(p, a)| p * a).sum();
    let variance = p
        .iter()
        .zip(OUTCOMES)
        .map(|(p, a)| p * (a - mean).powi(2))
        .sum();
    (mean, variance)
}

/// An estimate and its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Interval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl fmt::Display for Interval {
    /// `+12.3 [-4.5, +29.0]`; an infinite end as `inf`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let number = |x: f64| {
            if x.is_finite() {
                // Adding zero turns a -0 into 0.
                format!("{:+.1}", x + 0.0)
            } else if x > 0.0 {
                "+inf".to_string()
            } else {
                "-inf".to_string()
            }
        };
        write!(
            f,
            "{} [{}, {}]",
            number(self.value),
            number(self.low),
            number(self.high)
        )
    }
}

/// The test's design: the two hypotheses in normalized Elo and the error
/// rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Decision {
    /// H0: our engine is `elo0` or weaker.
    H0,
    /// H1: our engine is `elo1` or stronger.
    H1,
}

impl Sprt {
    /// The design `ELO0,ELO1[,ALPHA,BETA]` (`--sprt`; alpha and beta 0.05
    /// when not given).
    ///
    /// # Errors
    ///
    /// Not two or four numbers, `ELO0 >= ELO1`, or an error rate outside
    /// (0, 0.5).
    pub(super) fn parse(text: &str) -> Result<Sprt> {
        let bad = || {
            anyhow!(
                "--sprt {}: use ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA (normalized Elo, ELO0 < ELO1, error rates between 0 and 0.5), e.g. 0,50",
                super::quote(text)
            )
        };
        let numbers: Vec<f64> = text
            .split(',')
            .map(|n| n.trim().parse::<f64>().map_err(|_| bad()))
            .collect::<Result<_>>()?;
        let (elo0, elo1, alpha, beta) = match numbers[..] {
            [e0, e1] => (e0, e1, 0.05, 0.05),
            [e0, e1, a, b] => (e0, e1, a, b),
            _ => return Err(bad()),
        };
        let rate = |r: f64| r > 0.0 && r < 0.5;
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1 && rate(alpha) && rate(beta)) {
            return Err(bad());
        }
        // Beyond this the pair distributions of the hypotheses leave the
        // range a pentanomial can have.
        if elo0.abs() > 1000.0 || elo1.abs() > 1000.0 {
            return Err(bad());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds of the log-likelihood ratio: H0 is accepted at or below
    /// the first, H1 at or above the second.
    pub(super) fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for the pairs counted
    /// (0 without a pair).
    pub(super) fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let (observed, total) = pairs.frequencies();
        let t = |elo: f64| elo / nelo_per_t();
        let p0 = most_likely(&observed, t(self.elo0));
        let p1 = most_likely(&observed, t(self.elo1));
        total
            * observed
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(o, (a, b))| o * (b / a).ln())
                .sum::<f64>()
    }

    /// The decision the pairs counted reach, if any.
    pub(super) fn decision(&self, pairs: &Pentanomial) -> Option<Decision> {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Decision::H1)
        } else if llr <= lower {
            Some(Decision::H0)
        } else {
            None
        }
    }

    /// The number of pairs Wald's approximation expects the test to take
    /// when our engine's normalized Elo is `elo`: the log-likelihood ratio
    /// drifts by `(t1 - t0)(2t - t0 - t1) / 2` a pair with variance
    /// `(t1 - t0)²` (t the pair t-values), and stops at a bound, overshoot
    /// ignored; `None` where the drift is zero.
    pub(super) fn expected_pairs(&self, elo: f64) -> Option<f64> {
        let t = |e: f64| e / nelo_per_t();
        let (t0, t1, t) = (t(self.elo0), t(self.elo1), t(elo));
        let drift = (t1 - t0) * (2.0 * t - t0 - t1) / 2.0;
        let variance = (t1 - t0).powi(2);
        if drift == 0.0 {
            return None;
        }
        let (lower, upper) = self.bounds();
        // The chance of reaching the upper bound first, for a Brownian
        // motion with this drift and variance.
        let k = 2.0 * drift / variance;
        let h1 = (1.0 - (-k * lower).exp()) / ((-k * upper).exp() - (-k * lower).exp());
        Some((h1 * upper + (1.0 - h1) * lower) / drift)
    }

    /// The test's line: its design, the ratio and its bounds, the pairs
    /// and the estimates, e.g. `LLR 1.23 (-2.94, 2.94) [0, 50] α 0.05 β
    /// 0.05; pairs 12: 0 2 5 4 1; Elo +35.2 [-5.1, +75.0] (95%); nElo ...`.
    pub(super) fn line(&self, pairs: &Pentanomial) -> String {
        let (lower, upper) = self.bounds();
        let c = pairs.counts;
        let mut out = format!(
            "LLR {:.2} ({lower:.2}, {upper:.2}) [{}, {}] alpha {} beta {}; pairs {} (0, 1/2, 1, 3/2, 2 points): {} {} {} {} {}",
            self.llr(pairs),
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            pairs.pairs(),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        );
        if let Some(elo) = pairs.elo() {
            out.push_str(&format!("; Elo {elo} (95%)"));
        }
        if let Some(nelo) = pairs.normalized_elo() {
            out.push_str(&format!("; nElo {nelo}"));
        }
        out
    }
}

/// The distribution of largest likelihood for the observed frequencies
/// `observed` whose t-value is `t` (see the module doc).
fn most_likely(observed: &[f64; 5], t: f64) -> [f64; 5] {
    // Started between the observed frequencies and the uniform
    // distribution: from a distribution with all its mass on one outcome
    // the first step could not reach the t-value.
    let mut p = observed.map(|o| (o + 0.2) / 2.0);
    for _ in 0..1000 {
        let (mean, variance) = moments(&p);
        let sd = variance.sqrt();
        // The gradient of `μ - ½ - t σ` at `p`, shifted so that its mean
        // under `p` is that constraint's value.
        let b =
            OUTCOMES.map(|a| a - 0.5 - t * ((a - mean).powi(2) - variance) / (2.0 * sd) - t * sd);
        let Some(x) = secular_root(observed, &b) else {
            // No tilt of the observed frequencies reaches the t-value
            // from here: step closer to the uniform distribution.
            p = p.map(|q| (q + 0.2) / 2.0);
            continue;
        };
        let mut next = [0.0; 5];
        for i in 0..5 {
            next[i] = observed[i] / (1.0 + x * b[i]);
        }
        let total: f64 = next.iter().sum();
        let next = next.map(|q| q / total);
        let moved = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if moved < 1e-13 {
            break;
        }
    }
    p
}

/// The root `x` of `Σ w_i b_i / (1 + x b_i) = 0` where every `1 + x b_i`
/// is positive, by bisection (the sum falls as `x` grows); `None` when
/// the `b_i` do not change sign.
fn secular_root(w: &[f64; 5], b: &[f64; 5]) -> Option<f64> {
    let (min, max) = b
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    if min >= 0.0 || max <= 0.0 {
        return None;
    }
    let f = |x: f64| -> f64 { w.iter().zip(b).map(|(w, b)| w * b / (1.0 + x * b)).sum() };
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((lo + hi) / 2.0)
}

#[cfg(test)]
mod tests;
