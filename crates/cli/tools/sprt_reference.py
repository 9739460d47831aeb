#!/usr/bin/env python3
"""Reference values for `match --sprt` (crates/cli/src/arena/sprt.rs).

An implementation of the pentanomial GSPRT with normalized Elo bounds,
written from the published formulas (M. Van den Bergh's normalized Elo and
the exact GSPRT for it, fishtest PRs 914 and 927), independently of the
Rust code: a different starting point, a different root search. It prints
the log-likelihood ratio, the normalized Elo and Wald's expected number of
pairs for the cases the Rust tests pin. Run: python3 sprt_reference.py
"""
import math

OUTCOMES = [0.0, 0.25, 0.5, 0.75, 1.0]
NELO_PER_T = 800 / math.log(10) / math.sqrt(2)


def moments(p):
    mean = sum(q * a for q, a in zip(p, OUTCOMES))
    return mean, sum(q * (a - mean) ** 2 for q, a in zip(p, OUTCOMES))


def root(w, b):
    """x with sum(w b / (1 + x b)) == 0, 1 + x b > 0 everywhere."""
    lo, hi = -1 / max(b), -1 / min(b)
    f = lambda x: sum(wi * bi / (1 + x * bi) for wi, bi in zip(w, b))
    for _ in range(300):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def most_likely(observed, t):
    """The distribution of largest likelihood with t-value t."""
    p = [(1 - 1e-6) * o + 1e-6 / 5 for o in observed]
    for _ in range(10000):
        mean, var = moments(p)
        sd = math.sqrt(var)
        # d/dp_i of (mean - 1/2 - t sd), shifted to average the constraint.
        b = [a - 0.5 - t * ((a - mean) ** 2 - var) / (2 * sd) - t * sd for a in OUTCOMES]
        x = root(observed, b)
        q = [o / (1 + x * bi) for o, bi in zip(observed, b)]
        s = sum(q)
        q = [v / s for v in q]
        if max(abs(u - v) for u, v in zip(p, q)) < 1e-15:
            return q
        p = q
    return p


def llr(counts, elo0, elo1):
    n = [c if c > 0 else 1e-3 for c in counts]
    total = sum(n)
    observed = [c / total for c in n]
    p0 = most_likely(observed, elo0 / NELO_PER_T)
    p1 = most_likely(observed, elo1 / NELO_PER_T)
    return total * sum(o * math.log(b / a) for o, a, b in zip(observed, p0, p1))


def nelo(counts):
    n = sum(counts)
    mean, var = moments([c / n for c in counts])
    return (mean - 0.5) / math.sqrt(var) * NELO_PER_T


def wald_pairs(elo0, elo1, alpha, beta, elo):
    t0, t1, t = elo0 / NELO_PER_T, elo1 / NELO_PER_T, elo / NELO_PER_T
    drift = (t1 - t0) * (2 * t - t0 - t1) / 2
    k = 2 * drift / (t1 - t0) ** 2
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    h1 = (1 - math.exp(-k * lower)) / (math.exp(-k * upper) - math.exp(-k * lower))
    return (h1 * upper + (1 - h1) * lower) / drift


CASES = [
    ([13, 37, 50, 25, 3], 0, 4),
    ([365, 16618, 36229, 16974, 390], 0, 2),
    ([379, 10170, 21828, 10640, 343], 0, 2),
    ([502, 3262, 5796, 3256, 520], 0, 5),
    ([27, 538, 1167, 649, 45], 0, 3),
    ([0, 3, 10, 6, 1], 0, 50),
    ([2, 5, 4, 1, 0], -10, 40),
]

if __name__ == "__main__":
    for counts, e0, e1 in CASES:
        print(f"{counts} [{e0}, {e1}]: LLR {llr(counts, e0, e1):.6f}, nElo {nelo(counts):.4f}")
    print(f"Wald pairs, [0, 50], alpha = beta = 0.05, at 50: {wald_pairs(0, 50, 0.05, 0.05, 50):.4f}")
    print(f"Wald pairs, [0, 50], alpha = beta = 0.05, at 25: {wald_pairs(0, 50, 0.05, 0.05, 25.000001):.4f}")
