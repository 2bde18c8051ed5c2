/* trim.c - an idle daemon gives its memory back.
 *
 * A batch's buffers (a request of thousands of puzzles, the results gathered
 * for it, the answer being written) come and go by the megabyte. glibc's
 * malloc keeps what is freed for the next allocation, and after a big block
 * is freed it raises its mmap threshold, so later big blocks come from the
 * heap and stay there: an idle daemon would keep its high-water mark.
 *
 * So a timer looks every TRIM_MS; when no request is left, none came for
 * TRIM_QUIET_MS and some came since the last trim, malloc_trim(0) hands the
 * free pages back to the kernel (and after TRIM_SHARED_QUIET_MS the pieces
 * and answers an idle worker shares with the daemon: workers_trim_shared).
 * The quiet five seconds keep a batch's buffers for a client that sends the
 * next batch soon (a script running sudoctl in a loop): without them each
 * run faulted in megabytes anew (~950 page faults in the daemon per run of
 * 17clue.txt, 0.019-0.029 s of its CPU against 0.006-0.008 s without a
 * trim). One second was too short on a loaded machine, where the runs of
 * such a loop come more than a second apart (bench_e2e.py --only lean at
 * load 13-15, 2026-12-02). The workers wait as long (worker_main.c): with
 * 200 ms each run faulted 60-70 pages in again in the two workers; a
 * worker's longer idle poll() did not slow the next batch (bench_e2e.py
 * --only lean at load 10-12, either build right after the in-process
 * run: wall 0.88 against 0.90 of one core, 2026-12-03; an earlier "twice
 * as long" with one second did not come back).
 * The timer is unreferenced: it never keeps the loop (or a draining daemon)
 * alive. The workers do the same between requests (worker_main.c).
 *
 * With that, the busy daemon need not give memory back at every free:
 * trim_setup() keeps big blocks in the heap (no mmap, munmap and a page
 * fault per 4 KiB for every batch answer); while work goes on, memory stays
 * at what the work in flight needs, and the idle trim returns it. The
 * workers do the same since 2026-12-03 (worker_main.c, with a 256 MiB trim
 * threshold): a hard rating's search buffers were faulted in again after
 * every free, and a page fault costs ~11 us of CPU on this machine kind.
 * An earlier try had found explain slower there (techniques calloc big
 * tables, which fresh mappings give zeroed for free: 2.16 s against
 * 2.03 s on 6 hard puzzles); measured again with the faults counted, it
 * was not (see worker_main.c). */
#include <malloc.h>
#include "daemon.h"
#include "workers.h"

#define TRIM_MS 250
#define TRIM_QUIET_MS 5000
/* The memory shared with the workers goes back later: pages punched out
 * of it cost the next batch more than their faults (sudoctl --json solve
 * -f 17clue.txt after 1.6 s idle, alternated with main's: 0.5 ms of CPU
 * less than main when they were dropped at every trim, 8 ms less when
 * not), and they are few (a piece and a ring, ~0.35 MiB a worker, counted
 * in both processes' RSS). */
#define TRIM_SHARED_QUIET_MS 10000

static uv_timer_t trim_timer;
static uint64_t trimmed_at = (uint64_t)-1;        /* D.requests when it last trimmed */
static uint64_t shared_trimmed_at = (uint64_t)-1; /* ... the shared memory */
static uint64_t seen = (uint64_t)-1;              /* D.requests at the last look */
static uint64_t quiet_since;                      /* no request since then (ms) */

static void on_trim(uv_timer_t *t)
{
    (void)t;
    uint64_t now = uv_now(D.loop);
    if (workers_jobs() > 0 || D.requests != seen) {
        seen = D.requests;
        quiet_since = now;
        return;
    }
    if (D.requests != trimmed_at && now - quiet_since >= TRIM_QUIET_MS) {
        trimmed_at = D.requests;
        malloc_trim(0);
    }
    if (D.requests != shared_trimmed_at && now - quiet_since >= TRIM_SHARED_QUIET_MS) {
        shared_trimmed_at = D.requests;
        workers_trim_shared(); /* the pieces and rings a batch filled */
    }
}

void trim_setup(void)
{
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

void trim_start(void)
{
    malloc_trim(0); /* what reading and checking the config used */
    uv_timer_init(D.loop, &trim_timer);
    uv_timer_start(&trim_timer, on_trim, TRIM_MS, TRIM_MS);
    uv_unref((uv_handle_t *)&trim_timer);
}
