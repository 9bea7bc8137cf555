//! The consumers' dependency graph, checked and turned into gates when the
//! disruptor is built.
//!
//! The builder records each consumer with the consumers it is after (by
//! index, names already resolved). [`resolve`] refuses a graph that is not
//! safe to run, and gives each consumer its gate and the producers theirs:
//!
//! - no cycle: a consumer after itself, directly or through others, would
//!   wait for ever ([`BuildError::Cycle`], naming the cycle);
//! - a mutable handler is ordered against every other consumer (one of the
//!   two is after the other, directly or not): a consumer unordered with it
//!   could read an event while it writes it
//!   ([`BuildError::MutableHandlerUnordered`]);
//! - a consumer's gate holds its direct dependencies (none: the producers
//!   alone bound it); the producers' gate holds the leaves, the consumers
//!   nobody is after, so no event is overwritten before every consumer has
//!   finished with it (each consumer is a leaf or an ancestor of one, and
//!   no consumer passes one it is after, so the slowest leaf is behind
//!   every consumer).

use crate::error::BuildError;
use crate::gate::{Dependency, Gate};
use crate::sequence::AtomicSequence;
use crate::sync::Arc;

/// One consumer, as the build sees it.
pub(crate) struct Node {
    pub(crate) name: String,
    pub(crate) sequence: Arc<AtomicSequence>,
    /// A mutable handler.
    pub(crate) writer: bool,
    /// An event poller (its sequence jumps to MAX when it is dropped).
    pub(crate) poller: bool,
    /// The consumers it is after (indices into the node list).
    pub(crate) after: Vec<usize>,
}

/// The gates of a checked graph.
pub(crate) struct Resolved {
    /// Each consumer's gate, by index.
    pub(crate) gates: Vec<Gate>,
    /// The producers' gate: the leaves.
    pub(crate) leaves: Gate,
    /// Per consumer: true if it is after an event poller, directly or not
    /// (then only the caller's polling, or the poller's drop, lets it finish).
    pub(crate) after_a_poller: Vec<bool>,
}

/// Checks the graph and builds its gates.
pub(crate) fn resolve(nodes: &[Node]) -> Result<Resolved, BuildError> {
    let order = topological_order(nodes)?;
    let n = nodes.len();
    // ancestors[i][j]: consumer i is after consumer j, directly or not.
    let mut ancestors = vec![vec![false; n]; n];
    for &i in &order {
        for &d in &nodes[i].after {
            // `d` comes first in the order: its row is complete.
            let of_d = ancestors[d].clone();
            for (a, b) in ancestors[i].iter_mut().zip(of_d) {
                *a |= b;
            }
            ancestors[i][d] = true;
        }
    }
    for (w, writer) in nodes.iter().enumerate().filter(|(_, x)| x.writer) {
        if let Some(o) = (0..n).find(|&o| o != w && !ancestors[w][o] && !ancestors[o][w]) {
            return Err(BuildError::MutableHandlerUnordered {
                handler: writer.name.clone(),
                other: nodes[o].name.clone(),
            });
        }
    }
    let mut gates: Vec<Option<Gate>> = vec![None; n];
    let dependency = |gates: &[Option<Gate>], d: usize| Dependency {
        sequence: Arc::clone(&nodes[d].sequence),
        behind: nodes[d]
            .poller
            .then(|| Box::new(gates[d].clone().expect("dependencies first"))),
    };
    for &i in &order {
        let gate = Gate::new(
            nodes[i]
                .after
                .iter()
                .map(|&d| dependency(&gates, d))
                .collect(),
        );
        gates[i] = Some(gate);
    }
    let mut has_dependents = vec![false; n];
    for node in nodes {
        for &d in &node.after {
            has_dependents[d] = true;
        }
    }
    let leaves = Gate::new(
        (0..n)
            .filter(|&i| !has_dependents[i])
            .map(|i| dependency(&gates, i))
            .collect(),
    );
    let after_a_poller = (0..n)
        .map(|i| (0..n).any(|j| ancestors[i][j] && nodes[j].poller))
        .collect();
    Ok(Resolved {
        gates: gates.into_iter().map(|g| g.expect("every node")).collect(),
        leaves,
        after_a_poller,
    })
}

/// The consumers, each after every consumer it is after; or the first cycle
/// found, as [`BuildError::Cycle`].
fn topological_order(nodes: &[Node]) -> Result<Vec<usize>, BuildError> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    fn visit(
        i: usize,
        nodes: &[Node],
        marks: &mut [Mark],
        path: &mut Vec<usize>,
        order: &mut Vec<usize>,
    ) -> Result<(), BuildError> {
        match marks[i] {
            Mark::Done => return Ok(()),
            Mark::OnPath => {
                // The path from `i`'s first visit to here is the cycle.
                let from = path.iter().position(|&p| p == i).expect("on the path");
                let mut handlers: Vec<String> = path[from..]
                    .iter()
                    .map(|&p| nodes[p].name.clone())
                    .collect();
                // Written in the direction "x is after y": the path runs
                // from a consumer to the ones it is after.
                handlers.push(nodes[i].name.clone());
                return Err(BuildError::Cycle { handlers });
            }
            Mark::New => {}
        }
        marks[i] = Mark::OnPath;
        path.push(i);
        for &d in &nodes[i].after {
            visit(d, nodes, marks, path, order)?;
        }
        path.pop();
        marks[i] = Mark::Done;
        order.push(i);
        Ok(())
    }
    let mut marks = vec![Mark::New; nodes.len()];
    let mut order = Vec::with_capacity(nodes.len());
    let mut path = Vec::new();
    for i in 0..nodes.len() {
        visit(i, nodes, &mut marks, &mut path, &mut order)?;
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::INITIAL;

    fn node(name: &str, writer: bool, after: &[usize]) -> Node {
        Node {
            name: name.into(),
            sequence: Arc::new(AtomicSequence::new(INITIAL)),
            writer,
            poller: false,
            after: after.to_vec(),
        }
    }

    #[test]
    fn a_cycle_is_named_in_order() {
        // a after c, b after a, c after b.
        let nodes = [
            node("a", false, &[2]),
            node("b", false, &[0]),
            node("c", false, &[1]),
        ];
        assert_eq!(
            resolve(&nodes).err(),
            Some(BuildError::Cycle {
                handlers: vec!["a".into(), "c".into(), "b".into(), "a".into()]
            })
        );
        let nodes = [node("self", false, &[0])];
        assert_eq!(
            resolve(&nodes).err(),
            Some(BuildError::Cycle {
                handlers: vec!["self".into(), "self".into()]
            })
        );
    }

    #[test]
    fn a_writer_must_be_ordered_against_every_consumer() {
        // The five-handler graph with C mutable: D (after B) is unordered with C.
        let five = |c_writer| {
            [
                node("a", false, &[]),
                node("b", false, &[]),
                node("c", c_writer, &[0]),
                node("d", false, &[1]),
                node("e", false, &[2, 3]),
            ]
        };
        assert_eq!(
            resolve(&five(true)).err(),
            Some(BuildError::MutableHandlerUnordered {
                handler: "c".into(),
                other: "b".into()
            })
        );
        assert!(resolve(&five(false)).is_ok());
        // A chain of writers is fine: each is ordered against all.
        let chain = [
            node("w0", true, &[]),
            node("w1", true, &[0]),
            node("r", false, &[1]),
        ];
        assert!(resolve(&chain).is_ok());
    }

    #[test]
    fn leaves_and_poller_descendants() {
        let mut nodes = vec![
            node("a", false, &[]),
            node("p", false, &[0]),
            node("c", false, &[1]),
        ];
        nodes[1].poller = true;
        let r = resolve(&nodes).unwrap();
        assert_eq!(r.after_a_poller, [false, false, true]);
        assert_eq!(r.leaves.len(), 1);
    }
}
