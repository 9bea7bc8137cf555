/*
 * coherence: a QEMU (linux-user) plugin that counts the cache-line
 * transfers between the guest's threads, for machines without a PMU
 * (issue 15 §2: neither the 2-core VMs nor the lent 16-core machine has
 * one, so `perf stat`/`perf c2c` count nothing there).
 *
 * Model. Every guest load and store (atomic read-modify-writes count as
 * stores) goes through a MESI-like directory of 64-byte lines with
 * unbounded per-thread caches: each line has a set of threads holding a
 * valid copy and at most one holding it modified. An access by thread c
 * is classed by the state it finds:
 *
 *   hit            c holds a valid copy (a store also needs it exclusive
 *                  or modified: c alone holds it);
 *   load-hitm      a load of a line another thread holds modified: the
 *                  line comes from that thread's cache (perf c2c's HITM);
 *   load-shared    a load of a line only other threads hold, clean: it
 *                  comes from another cache (or L3) without a write-back;
 *   store-hitm     a store to a line another thread holds modified (RFO
 *                  with data);
 *   store-shared   a store to a line only other threads hold clean (RFO
 *                  with data);
 *   upgrade        a store to a line c shares with others: their copies
 *                  are invalidated, no data moves;
 *   cold           the first touch of a line (or one the table forgot).
 *
 * "Transfers" are the four classes in which data moves between threads'
 * caches: load-hitm + load-shared + store-hitm + store-shared. Upgrades
 * move no data but cost an invalidation round; they are printed apart.
 * With no capacity limit there are no evictions: this counts what the
 * algorithm forces, not what a small cache adds.
 *
 * The directory is a direct-mapped table of 2^22 words, one per line
 * (tag, modified owner, sharer bits), updated with compare-and-swap, so
 * the guest's threads run in parallel as they do natively (qemu-user
 * runs each guest thread on a host thread). A line whose slot holds
 * another line's tag starts cold; the tag has 40 bits, collisions
 * between the ring's few hundred lines do not happen in practice.
 *
 * Guest threads are QEMU's vCPU indices (the main thread is 0, threads
 * take the lowest free index); up to 16 are tracked, higher indices
 * share a bit (each index modulo 16).
 *
 * Output at exit, on stderr through qemu_plugin_outs, one line per thread
 * that accessed memory and a total:
 *   coherence: vcpu=N accesses=... hits=... load-hitm=... load-shared=...
 *       store-hitm=... store-shared=... upgrades=... cold=... transfers=...
 *
 * With the argument top=N it also prints the N lines that moved most,
 * each with its address and its transfers and upgrades, and a summary of
 * where the rest moved: which line is the index, which a slot, is read off
 * the addresses (a ring's slots are one run of consecutive lines).
 *
 * Build: gcc -O2 -shared -fPIC -o coherence.so coherence.c
 * Run:   qemu-x86_64 -d plugin -plugin ./coherence.so[,top=8] ./program args
 *        (-d plugin: qemu_plugin_outs writes to QEMU's log, stderr)
 *
 * Written for QEMU's plugin API version 1 (QEMU 4.2 to 8.1, Debian 12's
 * qemu-user 7.2); the declarations below are the parts of that API this
 * plugin calls.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the QEMU plugin API (version 1) used here ---- */
typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info_t;
enum qemu_plugin_cb_flags { CB_NO_REGS = 0 };
enum qemu_plugin_mem_rw { MEM_R = 1, MEM_W = 2, MEM_RW = 3 };
typedef void (*tb_trans_cb)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*mem_cb)(unsigned int, qemu_plugin_meminfo_t, uint64_t, void *);
typedef void (*udata_cb)(qemu_plugin_id_t, void *);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, tb_trans_cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *, mem_cb,
                                      enum qemu_plugin_cb_flags,
                                      enum qemu_plugin_mem_rw, void *);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, udata_cb, void *);
void qemu_plugin_outs(const char *);
__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* ---- the directory ---- */
#define LINE_SHIFT 6
#define SLOTS_LOG 22
#define THREADS 16

/* A slot: bits 0-15 the threads holding a valid copy, bits 16-20 the
 * thread holding it modified plus one (0: none), bits 24-63 the line's
 * tag (its number above the slot bits). 0 is an empty slot. */
#define SHARERS(w) ((uint32_t)((w) & 0xffff))
#define OWNER(w) ((int)(((w) >> 16) & 0x1f) - 1)
#define TAG(w) ((w) >> 24)
#define MAKE(tag, owner, sharers) \
    (((uint64_t)(tag) << 24) | ((uint64_t)((owner) + 1) << 16) | (sharers))

static _Atomic uint64_t *directory;

/* Per slot of the directory, with top=N: the line it last counted for
 * and that line's transfers and upgrades (a slot taken over by another
 * line starts again from zero). */
struct line_counts {
    _Atomic uint64_t line;
    _Atomic uint64_t transfers;
    _Atomic uint64_t upgrades;
};
static struct line_counts *per_line;
static int top;

enum class_ { HIT, LOAD_HITM, LOAD_SHARED, STORE_HITM, STORE_SHARED, UPGRADE, COLD, CLASSES };
static const char *const names[CLASSES] = {
    "hits", "load-hitm", "load-shared", "store-hitm", "store-shared", "upgrades", "cold",
};

/* Per-thread counts, each thread's on lines of its own: a vCPU's
 * callbacks run on that vCPU's host thread only. */
struct counts {
    _Alignas(64) uint64_t n[CLASSES];
    uint64_t accesses;
};
static struct counts counts[THREADS];

/* One access to one line: the new state and the class, by the state found. */
static void access_line(unsigned int me, uint64_t line, bool store)
{
    uint64_t slot = line & ((1u << SLOTS_LOG) - 1);
    uint64_t tag = (line >> SLOTS_LOG) & ((1ull << 40) - 1);
    uint32_t bit = 1u << me;
    _Atomic uint64_t *w = &directory[slot];
    uint64_t old = atomic_load_explicit(w, memory_order_relaxed);
    for (;;) {
        uint32_t sharers = 0;
        int owner = -1;
        if (old != 0 && TAG(old) == tag) {
            sharers = SHARERS(old);
            owner = OWNER(old);
        }
        enum class_ c;
        uint64_t next;
        if (!store) {
            if (sharers & bit) {
                c = HIT;
            } else if (owner >= 0) {
                c = LOAD_HITM;
            } else if (sharers) {
                c = LOAD_SHARED;
            } else {
                c = COLD;
            }
            /* A load leaves nobody modified unless the loader owned it. */
            next = MAKE(tag, owner == (int)me ? owner : -1, sharers | bit);
        } else {
            if (sharers == bit) {
                c = HIT; /* exclusive or modified already */
            } else if (sharers & bit) {
                c = UPGRADE;
            } else if (owner >= 0) {
                c = STORE_HITM;
            } else if (sharers) {
                c = STORE_SHARED;
            } else {
                c = COLD;
            }
            next = MAKE(tag, (int)me, bit);
        }
        if (next == old ||
            atomic_compare_exchange_weak_explicit(w, &old, next, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            counts[me].n[c]++;
            if (per_line != NULL && c != HIT && c != COLD) {
                struct line_counts *l = &per_line[slot];
                if (atomic_load_explicit(&l->line, memory_order_relaxed) != line) {
                    atomic_store_explicit(&l->line, line, memory_order_relaxed);
                    atomic_store_explicit(&l->transfers, 0, memory_order_relaxed);
                    atomic_store_explicit(&l->upgrades, 0, memory_order_relaxed);
                }
                atomic_fetch_add_explicit(c == UPGRADE ? &l->upgrades : &l->transfers, 1,
                                          memory_order_relaxed);
            }
            return;
        }
    }
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    (void)udata;
    unsigned int me = vcpu % THREADS;
    uint64_t size = 1ull << qemu_plugin_mem_size_shift(info);
    bool store = qemu_plugin_mem_is_store(info);
    counts[me].accesses++;
    uint64_t first = vaddr >> LINE_SHIFT, last = (vaddr + size - 1) >> LINE_SHIFT;
    for (uint64_t line = first; line <= last; line++) {
        access_line(me, line, store);
    }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), on_mem, CB_NO_REGS,
                                         MEM_RW, NULL);
    }
}

static void print_counts(const char *who, const struct counts *k)
{
    char line[512];
    int at = snprintf(line, sizeof line, "coherence: %s accesses=%llu", who,
                      (unsigned long long)k->accesses);
    for (int c = 0; c < CLASSES; c++) {
        at += snprintf(line + at, sizeof line - at, " %s=%llu", names[c],
                       (unsigned long long)k->n[c]);
    }
    snprintf(line + at, sizeof line - at, " transfers=%llu\n",
             (unsigned long long)(k->n[LOAD_HITM] + k->n[LOAD_SHARED] + k->n[STORE_HITM] +
                                  k->n[STORE_SHARED]));
    qemu_plugin_outs(line);
}

/* The `top` lines with the most transfers, heaviest first. */
static void print_top_lines(void)
{
    size_t slots = (size_t)1 << SLOTS_LOG;
    size_t *best = calloc((size_t)top, sizeof *best);
    int found = 0;
    if (best == NULL) {
        return;
    }
    for (size_t i = 0; i < slots; i++) {
        uint64_t t = atomic_load(&per_line[i].transfers) + atomic_load(&per_line[i].upgrades);
        if (t == 0) {
            continue;
        }
        int at = found < top ? found++ : top;
        while (at > 0) {
            size_t b = best[at - 1];
            if (atomic_load(&per_line[b].transfers) + atomic_load(&per_line[b].upgrades) >= t) {
                break;
            }
            if (at < top) {
                best[at] = b;
            }
            at--;
        }
        if (at < top) {
            best[at] = i;
        }
    }
    for (int k = 0; k < found; k++) {
        char line[160];
        struct line_counts *l = &per_line[best[k]];
        snprintf(line, sizeof line, "coherence: line=0x%llx transfers=%llu upgrades=%llu\n",
                 (unsigned long long)(atomic_load(&l->line) << LINE_SHIFT),
                 (unsigned long long)atomic_load(&l->transfers),
                 (unsigned long long)atomic_load(&l->upgrades));
        qemu_plugin_outs(line);
    }
    free(best);
}

static void on_exit_(qemu_plugin_id_t id, void *udata)
{
    (void)id;
    (void)udata;
    struct counts total = {0};
    for (int t = 0; t < THREADS; t++) {
        if (counts[t].accesses == 0) {
            continue;
        }
        char who[32];
        snprintf(who, sizeof who, "vcpu=%d", t);
        print_counts(who, &counts[t]);
        total.accesses += counts[t].accesses;
        for (int c = 0; c < CLASSES; c++) {
            total.n[c] += counts[t].n[c];
        }
    }
    print_counts("vcpu=all", &total);
    if (per_line != NULL) {
        print_top_lines();
    }
}

__attribute__((visibility("default"))) int
qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info, int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "top=", 4) == 0) {
            top = atoi(argv[i] + 4);
        } else {
            fprintf(stderr, "coherence: unknown argument %s (top=N)\n", argv[i]);
            return 1;
        }
    }
    directory = calloc((size_t)1 << SLOTS_LOG, sizeof *directory);
    if (directory == NULL) {
        return 1;
    }
    if (top > 0) {
        per_line = calloc((size_t)1 << SLOTS_LOG, sizeof *per_line);
        if (per_line == NULL) {
            return 1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit_, NULL);
    return 0;
}
