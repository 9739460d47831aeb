//! The DSL's values: symbolic expressions built with Rust operators.
//!
//! An [`Expr`] is a tree recorded at assembly time, never a runtime value:
//! `m.get("a") + 1` builds `Add(Var a, Const "1")`; the tracer turns the tree
//! into stack code when the expression is stored or tested. This module only
//! builds trees; it emits nothing (see `trace`).
//!
//! Values are strings. Booleans are `T`/`F`; integers are non-negative
//! decimals (see [`INT_DIGITS`](crate::ir::INT_DIGITS)).

use std::ops;
use std::rc::Rc;

/// A symbolic value.
#[derive(Debug, Clone)]
pub struct Expr(pub(crate) Rc<Node>);

#[derive(Debug)]
pub(crate) enum Node {
    Const(String),
    /// A variable read, with the variable's generation when it was read:
    /// the tracer refuses it if the variable was written since.
    Var {
        name: String,
        generation: u64,
    },
    Not(Expr),
    And(Expr, Expr),
    Or(Expr, Expr),
    Eq(Expr, Expr),
    Add(Expr, Expr),
    Sub(Expr, Expr),
    Lt(Expr, Expr),
    Concat(Expr, Expr),
    IsAny(Expr, Vec<String>),
}

impl Expr {
    fn node(node: Node) -> Expr {
        Expr(Rc::new(node))
    }

    /// A constant.
    pub fn constant(value: impl Into<String>) -> Expr {
        Expr::node(Node::Const(value.into()))
    }

    pub(crate) fn var(name: &str, generation: u64) -> Expr {
        Expr::node(Node::Var {
            name: name.to_string(),
            generation,
        })
    }

    /// `self == other` (string equality).
    pub fn eq(&self, other: impl Into<Expr>) -> Expr {
        Expr::node(Node::Eq(self.clone(), other.into()))
    }

    /// `self != other`.
    pub fn ne(&self, other: impl Into<Expr>) -> Expr {
        !self.eq(other)
    }

    /// `self < other` (integers).
    pub fn lt(&self, other: impl Into<Expr>) -> Expr {
        Expr::node(Node::Lt(self.clone(), other.into()))
    }

    /// `self > other` (integers).
    pub fn gt(&self, other: impl Into<Expr>) -> Expr {
        other.into().lt(self.clone())
    }

    /// `self <= other` (integers).
    pub fn le(&self, other: impl Into<Expr>) -> Expr {
        !self.gt(other)
    }

    /// `self >= other` (integers).
    pub fn ge(&self, other: impl Into<Expr>) -> Expr {
        !self.lt(other)
    }

    /// `self` followed by `other` (strings).
    pub fn concat(&self, other: impl Into<Expr>) -> Expr {
        Expr::node(Node::Concat(self.clone(), other.into()))
    }

    /// Whether `self` is one of `values`.
    pub fn is_any<S: AsRef<str>>(&self, values: &[S]) -> Expr {
        Expr::node(Node::IsAny(
            self.clone(),
            values.iter().map(|v| v.as_ref().to_string()).collect(),
        ))
    }
}

impl From<&str> for Expr {
    fn from(v: &str) -> Expr {
        Expr::constant(v)
    }
}

impl From<String> for Expr {
    fn from(v: String) -> Expr {
        Expr::constant(v)
    }
}

impl From<&Expr> for Expr {
    fn from(e: &Expr) -> Expr {
        e.clone()
    }
}

impl From<bool> for Expr {
    fn from(b: bool) -> Expr {
        Expr::constant(if b { crate::ir::TRUE } else { crate::ir::FALSE })
    }
}

macro_rules! from_unsigned {
    ($($t:ty),*) => {$(
        impl From<$t> for Expr {
            fn from(n: $t) -> Expr {
                Expr::constant(n.to_string())
            }
        }
    )*};
}
from_unsigned!(u8, u16, u32, u64, usize);

impl<R: Into<Expr>> ops::Add<R> for Expr {
    type Output = Expr;
    fn add(self, rhs: R) -> Expr {
        Expr::node(Node::Add(self, rhs.into()))
    }
}

impl<R: Into<Expr>> ops::Add<R> for &Expr {
    type Output = Expr;
    fn add(self, rhs: R) -> Expr {
        self.clone() + rhs
    }
}

/// Saturating subtraction: `a - b` is 0 when `b > a`.
impl<R: Into<Expr>> ops::Sub<R> for Expr {
    type Output = Expr;
    fn sub(self, rhs: R) -> Expr {
        Expr::node(Node::Sub(self, rhs.into()))
    }
}

impl<R: Into<Expr>> ops::Sub<R> for &Expr {
    type Output = Expr;
    fn sub(self, rhs: R) -> Expr {
        self.clone() - rhs
    }
}

impl ops::Not for Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        Expr::node(Node::Not(self))
    }
}

impl ops::Not for &Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        !self.clone()
    }
}

impl<R: Into<Expr>> ops::BitAnd<R> for Expr {
    type Output = Expr;
    fn bitand(self, rhs: R) -> Expr {
        Expr::node(Node::And(self, rhs.into()))
    }
}

impl<R: Into<Expr>> ops::BitOr<R> for Expr {
    type Output = Expr;
    fn bitor(self, rhs: R) -> Expr {
        Expr::node(Node::Or(self, rhs.into()))
    }
}
