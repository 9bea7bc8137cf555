//! Conservation: whatever went in comes out exactly once, and each
//! producer's items come out in the order it put them in. The stress tests
//! and the concurrent fuzz targets of every queue crate check this.

use std::fmt;

/// What the stress producers push: who pushed it, and its place in that
/// producer's sequence.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Item {
    pub producer: u32,
    pub seq: u32,
}

impl fmt::Debug for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}#{}", self.producer, self.seq)
    }
}

/// Asserts that the union of `streams` holds every `Item` of `producers`
/// producers × `0..per_producer` exactly once, and that within each stream
/// each producer's items come in strictly increasing sequence order.
pub fn assert_exactly_once_in_order(
    what: &str,
    producers: usize,
    per_producer: u32,
    streams: &[(String, &[Item])],
) {
    if let Err(e) = check_exactly_once_in_order(&vec![per_producer; producers], streams) {
        panic!("{what}: {e}");
    }
}

/// The check of [`assert_exactly_once_in_order`] where producer `p` put in
/// `pushed[p]` items (sequence numbers `0..pushed[p]`); `Err` says what
/// went wrong (for callers that report rather than panic, such as fuzz
/// targets).
pub fn check_exactly_once_in_order(
    pushed: &[u32],
    streams: &[(String, &[Item])],
) -> Result<(), String> {
    let mut seen: Vec<Vec<u8>> = pushed.iter().map(|&n| vec![0u8; n as usize]).collect();
    for (name, stream) in streams {
        let mut last: Vec<Option<u32>> = vec![None; pushed.len()];
        for (at, item) in stream.iter().enumerate() {
            let p = item.producer as usize;
            if p >= pushed.len() || item.seq >= pushed[p] {
                return Err(format!("{name} got {item:?}, which no producer pushed"));
            }
            if let Some(prev) = last[p] {
                if item.seq <= prev {
                    return Err(format!(
                        "{name} got producer {p}'s items out of order: #{prev} then #{} (at index {at})",
                        item.seq
                    ));
                }
            }
            last[p] = Some(item.seq);
            let count = &mut seen[p][item.seq as usize];
            *count = count.saturating_add(1);
        }
    }
    let mut wrong = Vec::new();
    let mut wrong_count = 0usize;
    for (p, counts) in seen.iter().enumerate() {
        for (seq, &count) in counts.iter().enumerate() {
            if count != 1 {
                wrong_count += 1;
                if wrong.len() < 10 {
                    wrong.push(format!("p{p}#{seq} seen {count} times"));
                }
            }
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{wrong_count} items not seen exactly once, e.g. {wrong:?}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(producer: u32, seq: u32) -> Item {
        Item { producer, seq }
    }

    fn check(pushed: &[u32], streams: &[&[Item]]) -> Result<(), String> {
        let named: Vec<(String, &[Item])> = streams
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("stream {i}"), *s))
            .collect();
        check_exactly_once_in_order(pushed, &named)
    }

    #[test]
    fn accepts_interleaved_streams_in_per_producer_order() {
        let a = [item(0, 0), item(1, 0), item(0, 2)];
        let b = [item(0, 1), item(1, 1)];
        assert_eq!(check(&[3, 2], &[&a, &b]), Ok(()));
    }

    #[test]
    fn rejects_a_lost_a_duplicated_an_invented_and_a_reordered_item() {
        assert!(check(&[2], &[&[item(0, 0)]]).is_err(), "lost");
        assert!(
            check(&[1], &[&[item(0, 0)], &[item(0, 0)]]).is_err(),
            "duplicated"
        );
        assert!(
            check(&[1], &[&[item(0, 0), item(0, 1)]]).is_err(),
            "invented"
        );
        assert!(check(&[1], &[&[item(1, 0)]]).is_err(), "unknown producer");
        assert!(
            check(&[2], &[&[item(0, 1), item(0, 0)]]).is_err(),
            "reordered"
        );
    }
}
