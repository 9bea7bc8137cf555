//! Writing claimed events and publishing them, also when the producer's
//! closure unwinds.

use crate::batch::BatchIterMut;
use crate::error::PublishError;
use crate::sequence::Sequence;
use crate::shared::Shared;

/// Publishes `lo..=hi` when dropped: after the producer's closure returns,
/// and also if it unwinds, so a consumer never waits on a claimed slot that
/// nobody will publish (it sees the event as far as the closure got).
/// `SINGLE`: published by the single producer (see [`Shared::publish`]).
struct PublishOnDrop<'a, E, const SINGLE: bool> {
    shared: &'a Shared<E>,
    lo: Sequence,
    hi: Sequence,
}

impl<E, const SINGLE: bool> Drop for PublishOnDrop<'_, E, SINGLE> {
    #[inline(always)]
    fn drop(&mut self) {
        self.shared.publish::<SINGLE>(self.lo, self.hi);
    }
}

/// Runs `f` on the claimed event `seq` and publishes it (`SINGLE`: as
/// the single producer).
#[inline]
pub(super) fn write_one<E, const SINGLE: bool>(
    shared: &Shared<E>,
    seq: Sequence,
    f: impl FnOnce(&mut E),
) -> Sequence {
    let publish = PublishOnDrop::<E, SINGLE> {
        shared,
        lo: seq,
        hi: seq,
    };
    // SAFETY: `seq` is claimed by this producer and not yet published:
    // every leaf has finished with its slot's previous event, and no
    // consumer reads it before `publish` drops.
    unsafe { shared.ring.write(seq, f) };
    drop(publish);
    seq
}

/// Runs `f` on the claimed events `lo..=hi` and publishes them (`SINGLE`:
/// as the single producer).
#[inline]
pub(super) fn write_batch<E, const SINGLE: bool>(
    shared: &Shared<E>,
    lo: Sequence,
    hi: Sequence,
    f: impl FnOnce(BatchIterMut<'_, E>),
) -> Sequence {
    let publish = PublishOnDrop::<E, SINGLE> { shared, lo, hi };
    // SAFETY: `lo..=hi` is claimed by this producer and unpublished until
    // `publish` drops, after `f` (and every `&mut E` it got) is done.
    f(unsafe { BatchIterMut::new(&shared.ring, lo, hi) });
    drop(publish);
    hi
}

/// Checks a batch size: `1..=size`.
#[inline]
pub(super) fn check_batch(n: usize, size: usize) -> Result<(), PublishError> {
    if n == 0 || n > size {
        return Err(PublishError::BatchSize { requested: n, size });
    }
    Ok(())
}
