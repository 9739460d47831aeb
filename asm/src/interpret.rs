//! The interpreter (the ISA's reference meaning): what each instruction
//! means.
//!
//! It runs instructions over the structured [`State`] (threads with tag,
//! stack and variables) in plain Rust. It is the oracle of the whole
//! design: the lowering is correct when `render(run(instrs, s))` equals the
//! VM running `lower(instrs)` on `render(s)`, byte for byte. It must not
//! look at regexes or rewrites (except through nothing: specials bring their
//! own meaning via [`Special::apply`](crate::ir::Special::apply)).

use regex_vm::state::{State, Thread};

use crate::ir::{Instr, RefError, FALSE, INT_DIGITS, TRUE};

/// Runs `instrs` in order over `state`.
///
/// # Errors
///
/// The first precondition an instruction breaks; `state` then holds the
/// state before that instruction.
pub fn run(instrs: &[Instr], state: &mut State) -> Result<(), RefError> {
    for instr in instrs {
        execute(instr, state)?;
    }
    Ok(())
}

/// Runs one instruction. On error the state is unchanged.
///
/// # Errors
///
/// The broken precondition.
pub fn execute(instr: &Instr, state: &mut State) -> Result<(), RefError> {
    let name = instr.name();
    match instr {
        Instr::Boot(text) => {
            if state.prefix.is_empty() && state.threads.is_empty() {
                *state = State::parse(text).map_err(|source| RefError::BadBoot {
                    instr: name,
                    source,
                })?;
            }
            Ok(())
        }
        Instr::Pause(tag) => {
            for t in state.threads.iter_mut().filter(|t| t.is_active()) {
                t.tag = Some(tag.clone());
            }
            Ok(())
        }
        Instr::Reactivate(tag) => {
            for t in &mut state.threads {
                if t.tag.as_ref() == Some(tag) {
                    t.tag = None;
                }
            }
            Ok(())
        }
        Instr::DestroyActive => {
            state.threads.retain(|t| !t.is_active());
            Ok(())
        }
        Instr::ForkInactive(tag) => expand(state, |t| {
            let mut copy = t.clone();
            copy.tag = Some(tag.clone());
            Ok(vec![t, copy])
        }),
        Instr::ForkBool => expand(state, |t| {
            let mut yes = t.clone();
            let mut no = t;
            yes.stack.insert(0, TRUE.to_string());
            no.stack.insert(0, FALSE.to_string());
            Ok(vec![yes, no])
        }),
        Instr::ForkList(values) => expand(state, |t| {
            Ok(values
                .iter()
                .map(|v| {
                    let mut c = t.clone();
                    c.stack.insert(0, v.clone());
                    c
                })
                .collect())
        }),
        Instr::Join => {
            let mut out: Vec<Thread> = Vec::with_capacity(state.threads.len());
            let mut prev_active = false;
            for t in std::mem::take(&mut state.threads) {
                match out.last_mut() {
                    Some(head) if prev_active && t.is_active() => head.stack.extend(t.stack),
                    _ => {
                        prev_active = t.is_active();
                        out.push(t);
                    }
                }
            }
            state.threads = out;
            Ok(())
        }
        Instr::Absorb(tag) => {
            let mut out: Vec<Thread> = Vec::with_capacity(state.threads.len());
            let mut threads = std::mem::take(&mut state.threads).into_iter().peekable();
            while let Some(mut t) = threads.next() {
                if t.tag.as_ref() == Some(tag) {
                    if let Some(next) = threads.next_if(Thread::is_active) {
                        t.stack.extend(next.stack);
                    }
                }
                out.push(t);
            }
            state.threads = out;
            Ok(())
        }
        Instr::Cond(tag) => {
            // Check every active thread first so that an error changes nothing.
            for t in state.threads.iter().filter(|t| t.is_active()) {
                need(&name, t, 1)?;
                boolean(&name, &t.stack[0])?;
            }
            for t in state.threads.iter_mut().filter(|t| t.is_active()) {
                if t.stack.remove(0) == FALSE {
                    t.tag = Some(tag.clone());
                }
            }
            Ok(())
        }
        Instr::Special(s) => {
            if let Some(result) = s.apply_state(state) {
                *state = result?;
                return Ok(());
            }
            let mut out = Vec::with_capacity(state.threads.len());
            for t in &state.threads {
                if t.is_active() {
                    out.extend(s.apply(t.clone())?);
                } else {
                    out.push(t.clone());
                }
            }
            state.threads = out;
            Ok(())
        }
        Instr::CondVarIn(var, values, tag) => {
            for t in state.threads.iter().filter(|t| t.is_active()) {
                lookup(&name, t, var.as_str())?;
            }
            for t in state.threads.iter_mut().filter(|t| t.is_active()) {
                let v = t.var(var.as_str()).unwrap_or_default();
                if !values.iter().any(|w| w == v) {
                    t.tag = Some(tag.clone());
                }
            }
            Ok(())
        }
        _ => {
            let mut next = state.threads.clone();
            for t in next.iter_mut().filter(|t| t.is_active()) {
                execute_in_thread(instr, &name, t)?;
            }
            state.threads = next;
            Ok(())
        }
    }
}

/// Replaces each active thread by the threads `f` makes of it.
fn expand(
    state: &mut State,
    mut f: impl FnMut(Thread) -> Result<Vec<Thread>, RefError>,
) -> Result<(), RefError> {
    let mut out = Vec::with_capacity(state.threads.len());
    for t in std::mem::take(&mut state.threads) {
        if t.is_active() {
            out.extend(f(t)?);
        } else {
            out.push(t);
        }
    }
    state.threads = out;
    Ok(())
}

fn need(name: &str, t: &Thread, n: usize) -> Result<(), RefError> {
    if t.stack.len() < n {
        return Err(RefError::StackUnderflow {
            instr: name.to_string(),
            have: t.stack.len(),
            need: n,
        });
    }
    Ok(())
}

fn pop(name: &str, t: &mut Thread) -> Result<String, RefError> {
    need(name, t, 1)?;
    Ok(t.stack.remove(0))
}

fn push(t: &mut Thread, v: impl Into<String>) {
    t.stack.insert(0, v.into());
}

fn boolean(name: &str, v: &str) -> Result<bool, RefError> {
    match v {
        TRUE => Ok(true),
        FALSE => Ok(false),
        _ => Err(RefError::BadOperand {
            instr: name.to_string(),
            value: v.to_string(),
            expected: "a boolean (T or F)",
        }),
    }
}

fn int(name: &str, v: &str) -> Result<u64, RefError> {
    let canonical = !v.is_empty()
        && v.len() <= INT_DIGITS
        && v.bytes().all(|b| b.is_ascii_digit())
        && (v == "0" || !v.starts_with('0'));
    if !canonical {
        return Err(RefError::BadOperand {
            instr: name.to_string(),
            value: v.to_string(),
            expected: "a canonical decimal integer of at most INT_DIGITS digits",
        });
    }
    Ok(v.parse().expect("checked digits"))
}

fn bool_value(b: bool) -> &'static str {
    if b {
        TRUE
    } else {
        FALSE
    }
}

fn lookup<'t>(name: &str, t: &'t Thread, var: &str) -> Result<&'t str, RefError> {
    t.var(var).ok_or_else(|| RefError::UnsetVariable {
        instr: name.to_string(),
        name: var.to_string(),
    })
}

fn assign(t: &mut Thread, var: &regex_vm::VarName, value: String) {
    t.vars.retain(|(n, _)| n != var);
    t.vars.insert(0, (var.clone(), value));
}

/// The meaning of a thread-local instruction on one active thread.
fn execute_in_thread(instr: &Instr, name: &str, t: &mut Thread) -> Result<(), RefError> {
    match instr {
        Instr::Push(v) => push(t, v.clone()),
        Instr::Pop => {
            pop(name, t)?;
        }
        Instr::Dup => {
            need(name, t, 1)?;
            let v = t.stack[0].clone();
            push(t, v);
        }
        Instr::Swap => {
            need(name, t, 2)?;
            t.stack.swap(0, 1);
        }
        Instr::Lookup(var) => {
            let v = lookup(name, t, var.as_str())?.to_string();
            push(t, v);
        }
        Instr::AssignPop(var) => {
            let v = pop(name, t)?;
            assign(t, var, v);
        }
        Instr::Delete(var) => t.vars.retain(|(n, _)| n != var),
        Instr::Set(var, v) => assign(t, var, v.clone()),
        Instr::Eq => {
            need(name, t, 2)?;
            let a = pop(name, t)?;
            let b = pop(name, t)?;
            push(t, bool_value(a == b));
        }
        Instr::Not => {
            need(name, t, 1)?;
            let b = boolean(name, &t.stack[0])?;
            t.stack[0] = bool_value(!b).to_string();
        }
        Instr::And | Instr::Or => {
            need(name, t, 2)?;
            let a = boolean(name, &t.stack[0])?;
            let b = boolean(name, &t.stack[1])?;
            t.stack.drain(..2);
            let r = if matches!(instr, Instr::And) {
                a && b
            } else {
                a || b
            };
            push(t, bool_value(r));
        }
        Instr::IsAny(set) => {
            let v = pop(name, t)?;
            push(t, bool_value(set.contains(&v)));
        }
        Instr::StackEmpty => {
            let empty = t.stack.is_empty();
            push(t, bool_value(empty));
        }
        Instr::Concat => {
            need(name, t, 2)?;
            let a = pop(name, t)?;
            let b = pop(name, t)?;
            push(t, b + &a);
        }
        Instr::Add | Instr::Sub | Instr::Lt => {
            need(name, t, 2)?;
            let a = int(name, &t.stack[0])?;
            let b = int(name, &t.stack[1])?;
            t.stack.drain(..2);
            let r = match instr {
                Instr::Add => (b + a).to_string(),
                Instr::Sub => b.saturating_sub(a).to_string(),
                _ => bool_value(b < a).to_string(),
            };
            push(t, r);
        }
        Instr::VarEq(var, v) => {
            let eq = lookup(name, t, var.as_str())? == v;
            push(t, bool_value(eq));
        }
        Instr::Boot(_)
        | Instr::Pause(_)
        | Instr::Reactivate(_)
        | Instr::DestroyActive
        | Instr::ForkInactive(_)
        | Instr::ForkBool
        | Instr::ForkList(_)
        | Instr::Join
        | Instr::Absorb(_)
        | Instr::Cond(_)
        | Instr::CondVarIn(..)
        | Instr::Special(_) => unreachable!("{name} is handled at the state level"),
    }
    Ok(())
}
