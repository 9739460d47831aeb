//! The plan: which kind of node searches each ply, decided here and
//! nowhere else.
//!
//! A [`NodePlan`] is a list of node [`Kind`]s, one a ply from the root;
//! the last covers the last two plies (a node's candidates and their
//! replies, the leaves), so a plan of `n` kinds searches `n + 1` plies.
//! [`NodePlan::of`] writes down the plan of every [`Depth`]; an [`At`]
//! is a node's place in a plan, which `search::node` dispatches on. A
//! node kind is one module of this folder (named on each variant). A new
//! kind (a selective one: reductions, pruning, ProbCut) is one module
//! with its `node` function, one variant here (data it needs rides on
//! the variant, as [`Kind::DeepRoot`]'s `bounded` does), its arm in
//! `search::node` (the compiler asks for it) and its entries in
//! [`NodePlan::of`]; a property the other kinds must know of it (as
//! [`Kind::arrives_evaluated`]) is a method here, and the rules the
//! plans keep are the tests below. The native search's shape of the same
//! depth (`vocabulary::Plan`: full-width and capture plies) must agree
//! with the kinds (a test below too); the reference asks this module what
//! the regex program does at the root ([`regex_root`]).
//!
//! This module decides; it emits nothing.

use crate::vocabulary::{Depth, Plan};

/// How a node is searched. Each variant names its module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Every legal move, each searched by the next ply's node (`full`):
    /// the root with its cut off.
    Full,
    /// Every legal move, each scored by its replies: the last two plies,
    /// full width (`leaves`).
    LastTwo,
    /// The capture plies: good captures and standing pat (every legal
    /// move in check), each scored by the opponent's such replies: the
    /// last two plies (`captures`). Its positions arrive evaluated.
    Captures,
    /// A probed node: its probe first, then the rest given it
    /// (`probed`).
    Probed(Probed),
    /// The root with the probe cut: its probe first, then each candidate
    /// cut by its own probe (`probed_root`).
    ProbedRoot,
    /// Depth 6's root: the rest of the plan's root, whose candidates
    /// within a window of its probe are searched a ply deeper by the
    /// rest of the plan, for the opponent (`deep_root`); `bounded`: with
    /// the deep probe's bounds (the root cut on).
    DeepRoot {
        /// The deep probe bounds the kept candidates' reply searches.
        bounded: bool,
    },
}

/// How a probed node cuts its candidates once it has its probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Probed {
    /// By what they stand at: the last full-width ply above the capture
    /// plies (`standing`).
    Standing,
    /// By their own probes, each the probe of the node below it (a probed
    /// one): the ply above [`Probed::Standing`] (`own_probes`).
    OwnProbes,
}

impl Kind {
    /// Whether its positions must arrive with their evaluation for the
    /// side to move (`eval::EVAL_VAR`), carried down by the node above.
    pub(crate) fn arrives_evaluated(self) -> bool {
        self == Kind::Captures
    }
}

/// Whether the root drops candidates that cannot reach its probe's score
/// (`probed_root`). It never changes the move or the score; `Off` is
/// there for the tests that check so. Depth 6 is made by depth 5's root
/// cut and has no uncut form: there `Off` leaves out only the bounds of
/// its deep probe (`deep_root`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootCut {
    /// Drop them (what every front end plays).
    On,
    /// Search every root candidate (at depth 6: every candidate depth 5's
    /// root cut keeps, without the deep probe's bounds).
    Off,
}

/// The most kinds a plan has (depth 6's).
const MOST: usize = 5;

/// A search's node kinds, one a ply from the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NodePlan {
    kinds: [Kind; MOST],
    len: usize,
    guards_root: bool,
    late: Option<u32>,
}

impl NodePlan {
    /// The plan of a `depth`-ply search with the root cut `cut`.
    pub(crate) fn of(depth: Depth, cut: RootCut) -> NodePlan {
        use Kind::{Captures, DeepRoot, Full, LastTwo, ProbedRoot};
        const STANDING: Kind = Kind::Probed(Probed::Standing);
        const OWN_PROBES: Kind = Kind::Probed(Probed::OwnProbes);
        let root = match cut {
            RootCut::On => ProbedRoot,
            RootCut::Off => Full,
        };
        let bounded = cut == RootCut::On;
        match depth.plies() {
            2 => NodePlan::new(&[LastTwo], false),
            3 => NodePlan::new(&[root, LastTwo], true),
            4 => NodePlan::new(&[root, STANDING, Captures], true),
            5 => NodePlan::new(&[root, OWN_PROBES, STANDING, Captures], true),
            _ => NodePlan::new(
                &[
                    DeepRoot { bounded },
                    ProbedRoot,
                    OWN_PROBES,
                    STANDING,
                    Captures,
                ],
                true,
            ),
        }
    }

    fn new(kinds: &[Kind], guards_root: bool) -> NodePlan {
        let mut all = [Kind::Full; MOST];
        all[..kinds.len()].copy_from_slice(kinds);
        NodePlan {
            kinds: all,
            len: kinds.len(),
            guards_root,
            late: None,
        }
    }

    /// The plan with late-move pruning `late` (`late`: keep that many
    /// best-looking candidates) at its probed nodes below the root, or
    /// without it (`None`, what [`NodePlan::of`] gives).
    pub(crate) fn with_late(self, late: Option<u32>) -> NodePlan {
        NodePlan { late, ..self }
    }

    /// The plies it searches.
    #[cfg(test)]
    pub(crate) fn plies(self) -> u32 {
        self.len as u32 + 1
    }

    /// Its nodes: the plies that have one (the last covers two plies).
    pub(crate) fn len(self) -> u32 {
        self.len as u32
    }

    /// The kind of the node at `ply` (1 the root).
    ///
    /// # Panics
    ///
    /// Past the last node (the last ply is its node's replies).
    pub(crate) fn kind(self, ply: u32) -> Kind {
        assert!(
            (1..=self.len as u32).contains(&ply),
            "no node at ply {ply} of {self:?}"
        );
        self.kinds[ply as usize - 1]
    }

    /// Whether the root's candidates get the mate guard (`guard`), with
    /// the root cut on or off alike.
    pub(crate) fn guards_root(self) -> bool {
        self.guards_root
    }

    /// The plan after its root: what depth 6's root cuts by and searches
    /// a ply deeper with (`deep_root`), a plan of its own (its ply 1 the
    /// old ply 2), the mate guard as before.
    pub(crate) fn rest(self) -> NodePlan {
        NodePlan::new(&self.kinds[1..self.len], self.guards_root).with_late(self.late)
    }

    /// Whether the root's probe names the opponent's best reply to its
    /// move, which each root candidate's own probe then searches too
    /// (`probed_root`): where the node below the root is probed and its
    /// candidates are not cut by standing, so it can name its best; not
    /// with late-move pruning, where that reply may be one the node below
    /// does not search (`late`).
    pub(crate) fn root_probe_names_refutation(self) -> bool {
        self.len >= 2 && self.kind(2) == Kind::Probed(Probed::OwnProbes) && self.late.is_none()
    }

    /// Whether the root hands its probe's score down to the third ply
    /// (`vars::ROOT_BOUND`): where that ply cuts by standing.
    pub(crate) fn bounds_third_ply(self) -> bool {
        self.len >= 3 && self.kind(3) == Kind::Probed(Probed::Standing)
    }
}

/// A node's place in a plan: the plan and the node's ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct At {
    plan: NodePlan,
    ply: u32,
}

impl At {
    /// The root of `plan`.
    pub(crate) fn root(plan: NodePlan) -> At {
        At { plan, ply: 1 }
    }

    /// The node at `ply` of `plan`.
    ///
    /// # Panics
    ///
    /// Past the plan's last node.
    pub(crate) fn new(plan: NodePlan, ply: u32) -> At {
        plan.kind(ply);
        At { plan, ply }
    }

    /// Its plan.
    pub(crate) fn plan(self) -> NodePlan {
        self.plan
    }

    /// Its ply, 1 at the root: mate scores count from it.
    pub(crate) fn ply(self) -> u32 {
        self.ply
    }

    /// Its kind.
    pub(crate) fn kind(self) -> Kind {
        self.plan.kind(self.ply)
    }

    /// The node below it: its candidates' positions.
    pub(crate) fn next(self) -> At {
        At {
            plan: self.plan,
            ply: self.ply + 1,
        }
    }

    /// Whether it is the root.
    pub(crate) fn is_root(self) -> bool {
        self.ply == 1
    }

    /// How many best-looking candidates it keeps where late-move pruning
    /// acts (`late`): at a probed node, below the root, where the plan
    /// has it.
    pub(crate) fn late(self) -> Option<u32> {
        self.probed().and(self.plan.late)
    }

    /// How it cuts given its probe, if it is a probed node.
    pub(crate) fn probed(self) -> Option<Probed> {
        match self.kind() {
            Kind::Probed(probed) => Some(probed),
            _ => None,
        }
    }
}

/// What the regex program does at the root of a search of `shape` (a
/// native search's plan): whether it runs the mate guard and whether it
/// searches depth 6's ply more. Both `false` for a shape no depth has.
pub(crate) fn regex_root(shape: Plan) -> (bool, bool) {
    match Depth::all().find(|d| d.plan() == shape) {
        Some(depth) => {
            let plan = NodePlan::of(depth, RootCut::On);
            let deepens = matches!(plan.kind(1), Kind::DeepRoot { .. });
            (plan.guards_root(), deepens)
        }
        None => (false, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each depth's kinds agree with its shape: the capture kind covers
    /// exactly the capture plies, and the plies add up.
    #[test]
    fn every_depths_kinds_agree_with_its_shape() {
        for depth in Depth::all() {
            let shape = depth.plan();
            for cut in [RootCut::On, RootCut::Off] {
                let plan = NodePlan::of(depth, cut);
                assert_eq!(plan.plies(), shape.plies, "{depth}");
                for ply in 1..plan.plies() {
                    let captures = plan.kind(ply) == Kind::Captures;
                    assert_eq!(captures, shape.captures_at(ply), "{depth} ply {ply}");
                    if captures {
                        assert!(shape.captures_at(ply + 1), "{depth}: the last two");
                    }
                }
            }
        }
    }

    /// What the kinds' modules rely on: the last kind (and only it) covers
    /// the last two plies; the roots stand at the root (a probed root
    /// also right after a deep one, whose rest is a plan of its own); a
    /// node cut by own probes has a probed node below it; the capture
    /// plies arrive evaluated, which only the standing node above them
    /// does.
    #[test]
    fn the_plans_keep_the_rules_their_kinds_rely_on() {
        for depth in Depth::all() {
            for cut in [RootCut::On, RootCut::Off] {
                let plan = NodePlan::of(depth, cut);
                let last = plan.plies() - 1;
                for ply in 1..=last {
                    let at = At::new(plan, ply);
                    let kind = at.kind();
                    let leaves = matches!(kind, Kind::LastTwo | Kind::Captures);
                    assert_eq!(leaves, ply == last, "{depth} ply {ply}: {kind:?}");
                    let after_deep = ply == 2 && matches!(plan.kind(1), Kind::DeepRoot { .. });
                    match kind {
                        Kind::Full | Kind::DeepRoot { .. } => assert!(at.is_root()),
                        Kind::ProbedRoot => assert!(at.is_root() || after_deep),
                        Kind::Probed(Probed::OwnProbes) => {
                            assert!(at.next().probed().is_some(), "{depth} ply {ply}");
                        }
                        Kind::Captures => {
                            let above = plan.kind(ply - 1);
                            assert_eq!(above, Kind::Probed(Probed::Standing), "{depth}");
                        }
                        _ => {}
                    }
                    if let Kind::DeepRoot { .. } = kind {
                        assert_eq!(plan.rest().kind(1), Kind::ProbedRoot);
                    }
                }
            }
        }
    }

    /// Depth 6 is depth 5's plan after a deep root, and the root cut
    /// changes only the root.
    #[test]
    fn depth_6_is_a_deep_root_over_depth_5() {
        let five = NodePlan::of(Depth::exactly(5), RootCut::On);
        for cut in [RootCut::On, RootCut::Off] {
            let six = NodePlan::of(Depth::exactly(6), cut);
            assert_eq!(six.rest(), five);
            let bounded = cut == RootCut::On;
            assert_eq!(six.kind(1), Kind::DeepRoot { bounded });
        }
        for depth in Depth::all().filter(|d| d.plies() < 6) {
            let on = NodePlan::of(depth, RootCut::On);
            let off = NodePlan::of(depth, RootCut::Off);
            assert_eq!(on.rest(), off.rest(), "{depth}");
            assert_eq!(on.guards_root(), off.guards_root(), "{depth}");
        }
    }

    /// Late-move pruning acts at the probed nodes below the root and
    /// nowhere else, only where the plan has it, survives `rest`, and
    /// turns off the root's refutation probe.
    #[test]
    fn late_moves_act_at_the_probed_nodes_below_the_root() {
        for depth in Depth::all() {
            let off = NodePlan::of(depth, RootCut::On);
            let on = off.with_late(Some(3));
            for ply in 1..=on.len() {
                let at = At::new(on, ply);
                assert_eq!(at.late().is_some(), at.probed().is_some(), "{depth} {ply}");
                assert_eq!(at.late().is_some(), at.late() == Some(3));
                assert!(!(at.is_root() && at.late().is_some()));
                assert_eq!(At::new(off, ply).late(), None);
            }
            if on.len() > 1 {
                assert_eq!(on.rest(), off.rest().with_late(Some(3)));
            }
            assert!(!on.root_probe_names_refutation());
            assert_eq!(
                crate::search::late_acts(depth),
                depth.plies() >= 4,
                "{depth}"
            );
        }
    }

    #[test]
    fn the_regex_roots_guard_from_depth_3_and_deepen_at_6() {
        for depth in Depth::all() {
            let (guards, deepens) = regex_root(depth.plan());
            assert_eq!(guards, depth.plies() >= 3, "{depth}");
            assert_eq!(deepens, depth.plies() == 6, "{depth}");
        }
        assert_eq!(regex_root(Plan { full: 3, plies: 4 }), (false, false));
    }
}
