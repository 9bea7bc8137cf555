//! The heavy half of an asymmetric barrier: `membarrier(2)` with
//! `MEMBARRIER_CMD_PRIVATE_EXPEDITED`, which runs a full barrier on every
//! CPU that runs a thread of this process (as hotq-spsc's waiting layer
//! does; the crates share no code, so each has its own). Where the call is
//! missing (not Linux, a kernel before 4.14, a seccomp filter) or cannot
//! be used (miri, loom), `available()` says no, and the caller keeps its
//! symmetric fences. See `channel/fill_barrier.rs` for its one use.

#[cfg(all(target_os = "linux", not(loom), not(miri)))]
mod imp {
    use core::sync::atomic::{AtomicU8, Ordering};

    // From linux/membarrier.h.
    const CMD_QUERY: libc::c_long = 0;
    const CMD_PRIVATE_EXPEDITED: libc::c_long = 1 << 3;
    const CMD_REGISTER_PRIVATE_EXPEDITED: libc::c_long = 1 << 4;

    const UNKNOWN: u8 = 0;
    const YES: u8 = 1;
    const NO: u8 = 2;

    /// The process-wide answer of [`available`]: one byte, so a plain
    /// atomic; racing first calls both register, which is idempotent.
    static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);

    fn membarrier(cmd: libc::c_long) -> libc::c_long {
        // SAFETY: `membarrier(cmd, flags = 0, cpu_id = 0)` reads no memory
        // of ours; an unknown or refused command only returns -1.
        unsafe {
            libc::syscall(
                libc::SYS_membarrier,
                cmd,
                0 as libc::c_long,
                0 as libc::c_long,
            )
        }
    }

    fn register() -> bool {
        let supported = membarrier(CMD_QUERY);
        supported >= 0
            && supported & CMD_PRIVATE_EXPEDITED != 0
            && membarrier(CMD_REGISTER_PRIVATE_EXPEDITED) == 0
    }

    pub(crate) fn available() -> bool {
        // Relaxed: the answer is one byte; the registration it reports is
        // kernel state, ordered by the system calls themselves.
        match STATE.load(Ordering::Relaxed) {
            YES => true,
            NO => false,
            _ => {
                let yes = register();
                STATE.store(if yes { YES } else { NO }, Ordering::Relaxed);
                yes
            }
        }
    }

    pub(crate) fn heavy() {
        if membarrier(CMD_PRIVATE_EXPEDITED) == 0 {
            return;
        }
        // Registered once, but a `fork`ed child starts unregistered:
        // register again and retry. A refusal now would leave the light
        // side without its barrier: a loud error, never a lost wake-up.
        assert!(
            register() && membarrier(CMD_PRIVATE_EXPEDITED) == 0,
            "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after registration succeeded"
        );
    }
}

#[cfg(not(all(target_os = "linux", not(loom), not(miri))))]
mod imp {
    pub(crate) fn available() -> bool {
        false
    }

    pub(crate) fn heavy() {
        unreachable!("no asymmetric barrier here: every fill fences")
    }
}

/// Whether [`heavy`] is the system call. Registers the process for it on
/// the first call; later calls read the cached answer.
pub(crate) use imp::available;
/// Runs the system call; only after [`available`] said yes.
pub(crate) use imp::heavy;
