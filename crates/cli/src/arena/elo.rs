//! The score of `match` as an Elo difference.
//!
//! One formula, stated where it is computed: the logistic Elo difference of
//! the score fraction, and a 95% margin from the per-game standard
//! deviation. It knows nothing of chess or of games beyond their points.

use std::fmt;

/// An Elo difference and the half-width of its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Elo {
    /// `-400 log10(1/s - 1)` for the score fraction `s`; infinite at 0 or 1.
    pub diff: f64,
    /// Half the distance between the Elo of `s ± 1.96 σ/√n`, where `σ` is
    /// the standard deviation of the per-game points; infinite when a bound
    /// reaches 0 or 1.
    pub margin: f64,
}

/// The logistic Elo difference of a score, and its 95% margin from the
/// per-game standard deviation.
pub(super) fn elo(wins: u32, draws: u32, losses: u32) -> Option<Elo> {
    let n = f64::from(wins + draws + losses);
    if n == 0.0 {
        return None;
    }
    let (w, d, l) = (f64::from(wins), f64::from(draws), f64::from(losses));
    let s = (w + 0.5 * d) / n;
    let variance = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
    let half = 1.96 * variance.sqrt() / n.sqrt();
    let of = |s: f64| {
        if s <= 0.0 {
            f64::NEG_INFINITY
        } else if s >= 1.0 {
            f64::INFINITY
        } else {
            -400.0 * (1.0 / s - 1.0).log10()
        }
    };
    let (lo, hi) = (of(s - half), of(s + half));
    let margin = if lo.is_finite() && hi.is_finite() {
        (hi - lo) / 2.0
    } else {
        f64::INFINITY
    };
    Some(Elo {
        // Adding zero turns the -0 of an even score into 0.
        diff: of(s) + 0.0,
        margin,
    })
}

impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let number = |x: f64| {
            if x.is_finite() {
                format!("{x:.0}")
            } else {
                "inf".to_string()
            }
        };
        let sign = if self.diff > 0.0 { "+" } else { "" };
        let diff = if self.diff.is_infinite() {
            format!("{}inf", if self.diff > 0.0 { "+" } else { "-" })
        } else {
            format!("{sign}{}", number(self.diff))
        };
        write!(f, "{diff} ± {} (95%)", number(self.margin))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        let even = elo(5, 0, 5).unwrap();
        assert!(even.diff.abs() < 1e-9);
        assert_eq!(even.to_string(), "0 ± 252 (95%)");
        // 75%: -400 log10(1/3) = 190.85.
        let e = elo(3, 0, 1).unwrap();
        assert!((e.diff - 190.849).abs() < 0.01, "{e:?}");
        // 6/2/2: s = 0.7, sigma = 0.4, s ± 1.96 * 0.4 / sqrt(10) =
        // 0.452077 .. 0.947923, Elo -33.40 .. 504.04 (computed apart).
        let e = elo(6, 2, 2).unwrap();
        assert!((e.diff - 147.19).abs() < 0.01, "{e:?}");
        assert!((e.margin - 268.72).abs() < 0.05, "{e:?}");
        assert_eq!(e.to_string(), "+147 ± 269 (95%)");
        // All losses: no finite estimate.
        let zero = elo(0, 0, 20).unwrap();
        assert_eq!(zero.diff, f64::NEG_INFINITY);
        assert_eq!(zero.to_string(), "-inf ± inf (95%)");
        assert_eq!(elo(0, 0, 0), None);
    }
}
