use super::*;

fn pairs(counts: [u32; 5]) -> Pentanomial {
    Pentanomial { counts }
}

fn design(elo0: f64, elo1: f64) -> Sprt {
    Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
    }
}

/// Log-likelihood ratios the tools that use this test published, each
/// with the precision it was published to.
#[test]
fn the_llr_matches_published_values() {
    /// Pairs, bounds, the published LLR, its decimals, where.
    type Published = ([u32; 5], f64, f64, f64, i32, &'static str);
    let published: [Published; 6] = [
        // A fishtest raw-statistics page ("Normalized (exact)"):
        // montytest.muzhen.org/tests/stats/69d3c8dc7c5b3724e29d2712.
        ([13, 37, 50, 25, 3], 0.0, 4.0, -0.54912, 5, "montytest"),
        // fastchess PR 426, the test cases of the normalized model.
        (
            [365, 16618, 36229, 16974, 390],
            0.0,
            2.0,
            2.25,
            2,
            "fastchess 426",
        ),
        // fastchess PR 783 printed 2.94598; ours (and the reference
        // script's) is 2.94550, the same to two places.
        (
            [379, 10170, 21828, 10640, 343],
            0.0,
            2.0,
            2.95,
            2,
            "fastchess 783",
        ),
        // OpenBench result lines quoted in engines' pull requests:
        // aronpetko/integral 11, ProgramciDusunur/Potential 272 and 565.
        (
            [502, 3262, 5796, 3256, 520],
            0.0,
            5.0,
            -2.08,
            2,
            "OpenBench",
        ),
        ([147, 796, 2264, 874, 150], -5.0, 0.0, 2.96, 2, "OpenBench"),
        (
            [1400, 4234, 7874, 4238, 1373],
            -5.0,
            0.0,
            2.95,
            2,
            "OpenBench",
        ),
    ];
    for (counts, elo0, elo1, llr, places, source) in published {
        let ours = design(elo0, elo1).llr(&pairs(counts));
        let scale = 10f64.powi(places);
        assert_eq!(
            (ours * scale).round() / scale,
            llr,
            "{source}: {counts:?} [{elo0}, {elo1}]: {ours}"
        );
    }
}

/// The values `crates/cli/tools/sprt_reference.py` prints (an
/// independent implementation of the same formulas), to six places,
/// small samples and empty outcomes included.
#[test]
fn the_llr_matches_the_reference_script() {
    let reference: [([u32; 5], f64, f64, f64); 7] = [
        ([13, 37, 50, 25, 3], 0.0, 4.0, -0.549125),
        ([365, 16618, 36229, 16974, 390], 0.0, 2.0, 2.250368),
        ([379, 10170, 21828, 10640, 343], 0.0, 2.0, 2.945495),
        ([502, 3262, 5796, 3256, 520], 0.0, 5.0, -2.077362),
        ([27, 538, 1167, 649, 45], 0.0, 3.0, 2.123434),
        ([0, 3, 10, 6, 1], 0.0, 50.0, 0.925034),
        ([2, 5, 4, 1, 0], -10.0, 40.0, -1.539386),
    ];
    for (counts, elo0, elo1, llr) in reference {
        let ours = design(elo0, elo1).llr(&pairs(counts));
        assert!(
            (ours - llr).abs() < 5e-6,
            "{counts:?} [{elo0}, {elo1}]: {ours}, the script {llr}"
        );
    }
    assert_eq!(design(0.0, 5.0).llr(&Pentanomial::default()), 0.0);
}

#[test]
fn the_estimates_match_published_values() {
    // fastchess PR 783: "Normalized Elo: 3.05 +/- 2.31".
    let nelo = pairs([379, 10170, 21828, 10640, 343])
        .normalized_elo()
        .unwrap();
    assert_eq!((nelo.value * 100.0).round() / 100.0, 3.05);
    assert_eq!(((nelo.high - nelo.value) * 100.0).round() / 100.0, 2.31);
    // montytest's page: "Normalized Elo -63.97", Elo -43.6578.
    let few = pairs([13, 37, 50, 25, 3]);
    let nelo = few.normalized_elo().unwrap();
    assert_eq!((nelo.value * 100.0).round() / 100.0, -63.97);
    let elo = few.elo().unwrap();
    assert!((elo.value - -43.6578).abs() < 1e-4, "{elo:?}");
    // Its interval, computed apart: mean 0.4375, variance 0.057617 a
    // pair, 128 pairs: 0.4375 -+ 1.96 * 0.24004 / sqrt(128) = 0.395916
    // .. 0.479084, Elo -73.398 .. -14.542.
    assert!((elo.low - -73.398).abs() < 0.001, "{elo:?}");
    assert!((elo.high - -14.542).abs() < 0.001, "{elo:?}");
    assert_eq!(elo.to_string(), "-43.7 [-73.4, -14.5]");
    // One outcome only: no spread, so no normalized Elo; an even score
    // prints without a minus sign.
    assert_eq!(pairs([0, 0, 7, 0, 0]).normalized_elo(), None);
    assert_eq!(
        pairs([0, 0, 7, 0, 0]).elo().unwrap().to_string(),
        "+0.0 [+0.0, +0.0]"
    );
    assert_eq!(Pentanomial::default().elo(), None);
}

#[test]
fn bounds_are_walds_and_designs_parse() {
    let (lower, upper) = design(0.0, 5.0).bounds();
    assert!((lower - (0.05f64 / 0.95).ln()).abs() < 1e-12);
    assert!((upper - 2.944438979).abs() < 1e-9);
    // Quanticade PR 186 (OpenBench): alpha 0.05, beta 0.1 print as
    // (-2.25, 2.89).
    let s = Sprt::parse("0,3,0.05,0.1").unwrap();
    let (lower, upper) = s.bounds();
    assert_eq!(
        (format!("{lower:.2}"), format!("{upper:.2}")),
        ("-2.25".to_string(), "2.89".to_string())
    );
    assert_eq!(
        s.llr(&pairs([27, 538, 1167, 649, 45])).to_string()[..4],
        *"2.12"
    );
    assert_eq!(Sprt::parse(" 0 , 50 ").unwrap(), design(0.0, 50.0));
    for bad in [
        "",
        "0",
        "50,0",
        "0,0",
        "0,5,0.05",
        "0,5,0,0.05",
        "0,5,0.6,0.05",
        "a,b",
        "0,2000",
        "0,5,1,2,3",
    ] {
        let e = Sprt::parse(bad).unwrap_err().to_string();
        assert!(e.starts_with("--sprt `"), "{bad}: {e}");
    }
}

/// The pair distribution of two synthetic players `elo` (logistic) apart
/// whose games are drawn `draws` of the time, independently, colour
/// making no difference: the chances of 0, ½, 1, 1½ and 2 points.
fn synthetic_pairs(elo: f64, draws: f64) -> [f64; 5] {
    let score = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let game = [1.0 - score - draws / 2.0, draws, score - draws / 2.0];
    let mut p = [0.0; 5];
    for (i, a) in game.iter().enumerate() {
        for (j, b) in game.iter().enumerate() {
            p[i + j] += a * b;
        }
    }
    p
}

/// The normalized Elo of a pair distribution.
fn normalized(p: &[f64; 5]) -> f64 {
    let (mean, variance) = moments(p);
    (mean - 0.5) / variance.sqrt() * nelo_per_t()
}

/// The logistic Elo whose synthetic players (games drawn 40% of the time)
/// are `nelo` apart in normalized Elo.
fn logistic_for(nelo: f64) -> f64 {
    let (mut lo, mut hi) = (-400.0, 400.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if normalized(&synthetic_pairs(mid, DRAWS)) < nelo {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

const DRAWS: f64 = 0.4;

/// Plays pairs drawn from `p` until the test decides: the decision and
/// the pairs it took.
fn simulate(sprt: &Sprt, p: &[f64; 5], rng: &mut chess::games::Rng) -> (Decision, u32) {
    let mut counted = Pentanomial::default();
    loop {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut sum = 0.0;
        let outcome = (0..5)
            .find(|&i| {
                sum += p[i];
                u < sum
            })
            .unwrap_or(4);
        counted.add(outcome as u32);
        if let Some(decision) = sprt.decision(&counted) {
            return (decision, counted.pairs());
        }
    }
}

#[test]
fn a_synthetic_match_accepts_the_stronger_and_rejects_the_equal() {
    let sprt = design(0.0, 50.0);
    let stronger = synthetic_pairs(logistic_for(50.0), DRAWS);
    assert!((normalized(&stronger) - 50.0).abs() < 1e-6);
    let equal = synthetic_pairs(0.0, DRAWS);
    // Far stronger and far weaker players are decided every time.
    for seed in 0..20 {
        let mut rng = chess::games::Rng::new(seed);
        let far = synthetic_pairs(logistic_for(150.0), DRAWS);
        assert_eq!(simulate(&sprt, &far, &mut rng).0, Decision::H1, "{seed}");
        let weaker = synthetic_pairs(logistic_for(-100.0), DRAWS);
        assert_eq!(simulate(&sprt, &weaker, &mut rng).0, Decision::H0, "{seed}");
    }
    // At the hypotheses themselves one run is decided rightly 95% of the
    // time: this seed's runs are (pinned so that a change of the
    // arithmetic shows).
    let mut rng = chess::games::Rng::new(7);
    assert_eq!(simulate(&sprt, &stronger, &mut rng), (Decision::H1, 160));
    assert_eq!(simulate(&sprt, &equal, &mut rng), (Decision::H0, 153));
}

/// The target of issue 70: with alpha = beta = 0.05, a +50 (normalized)
/// Elo difference is decided in the number of pairs theory predicts, and
/// with the error rates it promises.
#[test]
fn a_50_elo_difference_is_decided_in_the_pairs_theory_predicts() {
    let sprt = design(0.0, 50.0);
    let theory = sprt.expected_pairs(50.0).unwrap();
    // crates/cli/tools/sprt_reference.py: 127.9539.
    assert!((theory - 127.9539).abs() < 1e-3, "{theory}");
    const RUNS: u64 = 2000;
    for (nelo, wrong) in [(50.0, Decision::H0), (0.0, Decision::H1)] {
        let p = synthetic_pairs(logistic_for(nelo), DRAWS);
        let (mut errors, mut total) = (0u64, 0u64);
        for run in 0..RUNS {
            let mut rng = chess::games::Rng::for_game(70, run);
            let (decision, n) = simulate(&sprt, &p, &mut rng);
            errors += u64::from(decision == wrong);
            total += u64::from(n);
        }
        let mean = total as f64 / RUNS as f64;
        let rate = errors as f64 / RUNS as f64;
        eprintln!("nElo {nelo}: {RUNS} runs, mean {mean:.1} pairs (theory {theory:.1}), wrong decisions {rate:.3}");
        assert!(
            (mean / theory - 1.0).abs() < 0.15,
            "nElo {nelo}: {mean} pairs, theory {theory}"
        );
        assert!(rate < 0.065, "nElo {nelo}: {rate} wrong");
    }
}
