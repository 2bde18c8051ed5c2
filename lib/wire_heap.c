/* wire_heap.c - the heap a batch's buffers grow in, on transparent huge
 * pages.
 *
 * A batch in sudoctl touches a few MiB of fresh memory once (a new process
 * every run): the ring's arenas of packed puzzles, the answers as they
 * arrive, the lines for stdout. Each 4 KiB page costs a page fault when
 * first written, and on a virtual machine a fault costs ~11 us of CPU
 * (measured: 12 us a page touched one by one, 0.35 us a page when the
 * kernel maps 2 MiB at once): ~580 faults and 6 ms of sudoctl's CPU a run
 * of 17clue.txt, a fifth of it. So the heap's next megabytes are marked for
 * huge pages (madvise MADV_HUGEPAGE, which the kernel's default `madvise`
 * mode honours) before those buffers are allocated: a block is malloc'ed
 * and freed again, the 2 MiB-aligned middle of it marked. The free block
 * stays at the heap's top (the caller keeps glibc's mmap and trim
 * thresholds above it: rpc_connect), where the next big buffers come from;
 * a pad block, kept until the release, takes the part below the first huge
 * page, which would else hold up to 2 MiB of the next buffers on small
 * pages. Nothing is touched here, and a page is only mapped when written,
 * so an unused reservation costs no memory.
 *
 * The release gives the pad back and marks the range MADV_NOHUGEPAGE: in a
 * process that lives on and trims its heap, khugepaged would else fill a
 * marked 2 MiB range that keeps one page in use to a whole huge page.
 * (Tried in sudokud for the batch after its idle trim, reserved at the
 * first big read: runs 1.2 s apart, each after a trim, cost the daemon
 * 20.6 ms against 21.7 without, and in the bench's runs it kept 400-700
 * faults after a trim and cost more without one: not kept.) */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "sudoku/wire.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

static void *pad;
static uintptr_t marked_from, marked_to;

void sdk_wire_heap_reserve(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (marked_to) return;
    char *p = malloc(bytes + HUGE_PAGE);
    if (!p) return;
    uintptr_t from = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t to = ((uintptr_t)p + bytes + HUGE_PAGE) & ~(HUGE_PAGE - 1);
    /* a hint: where it fails, nothing changes */
    if (to > from && madvise((void *)from, to - from, MADV_HUGEPAGE) == 0)
        marked_from = from, marked_to = to;
    free(p);
    /* the block after the pad starts where p did plus the pad's size and
     * its chunk header: just below `from` */
    if (marked_to && from - (uintptr_t)p > 64) pad = malloc(from - (uintptr_t)p - 32);
#else
    (void)bytes;
#endif
}

void sdk_wire_heap_release(void)
{
    free(pad);
    pad = NULL;
#ifdef MADV_NOHUGEPAGE
    if (marked_to) madvise((void *)marked_from, marked_to - marked_from, MADV_NOHUGEPAGE);
#endif
    marked_from = marked_to = 0;
}
