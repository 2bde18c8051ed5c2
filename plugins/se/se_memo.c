/* se_memo.c - results of nested chain searches, kept by the grid they ran on.
 *
 * SE's nested levels run a whole chain search (forcing chains, multiple or
 * dynamic forcing chains) each time a propagation stalls, on the working
 * grid of that moment. Such a search reads nothing but that grid (values
 * and candidates), so its result is a function of (kind of search, grid);
 * and the same grids come back: two assumptions that imply each other (the
 * two candidates of a bivalue cell, on and off) stall on the same grid, the
 * levels that resume a lower level's runs stall where it did, and after a
 * step most runs of the next search meet grids the previous one met. So each
 * result is kept here by its exact grid (compared whole, not by hash) and
 * the next search on that grid takes it instead of running again.
 *
 * One store per thread: entries appended to one buffer, an open-addressing
 * table of their offsets. When the buffer reaches its budget everything
 * goes and filling starts again; when a search starts on a grid that is not
 * within the previous one (another puzzle), everything goes too. The host
 * may free the store between requests (sudoku/cache.h): a store made again
 * empty only runs searches the full store would have answered, with the
 * same results. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "se_memo.h"
#include "sudoku/alloc.h"
#include "sudoku/cache.h"

/* Bytes of results kept at most per thread. The store stays allocated after
 * a worker's last puzzle until the worker's idle trim releases the caches
 * (daemon/worker_main.c), so the budget is what a worker may hold beyond
 * its start while requests come: 16 MiB, above
 * what the hardest public puzzles use (line 113 and 43 of
 * forum_hardest_1106: the same peak RSS, 37 MB, with 48 MiB or 16). */
#define MEMO_BUDGET ((size_t)16 << 20)

typedef struct entry_head {
    uint64_t hash;
    int32_t kind;
    uint32_t len; /* bytes of result after the head */
    uint8_t value[81];
    uint16_t cand[81];
} entry_head;

typedef struct memo {
    unsigned char *buf;
    size_t len, cap;
    uint64_t *slot; /* offset + 1 of an entry, 0: empty */
    size_t nslot, n;
    sdk_grid last; /* the grid of the last top-level search */
    int has_last;
} memo;

static _Thread_local memo M;

static uint64_t grid_hash(int kind, const sdk_grid *g)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)kind;
    const unsigned char *p = (const unsigned char *)g->cand;
    for (size_t i = 0; i + 8 <= sizeof g->cand; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    uint16_t tail = g->cand[80];
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
    for (size_t i = 0; i + 8 <= sizeof g->value; i += 8) {
        uint64_t w;
        memcpy(&w, g->value + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    h = (h ^ g->value[80]) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 31);
}

static const entry_head *head_at(uint64_t off)
{
    return (const entry_head *)(M.buf + off);
}

static void memo_clear(void)
{
    M.len = M.n = 0;
    if (M.slot) memset(M.slot, 0, sizeof *M.slot * M.nslot);
}

void se_memo_drop(void)
{
    free(M.buf);
    free(M.slot);
    memset(&M, 0, sizeof M);
}

/* Whether every candidate of g is one of w's, with the same values. */
static int grid_within(const sdk_grid *g, const sdk_grid *w)
{
    for (int i = 0; i < 81; i++) {
        if (g->cand[i] & ~w->cand[i]) return 0;
        if (w->value[i] && g->value[i] != w->value[i]) return 0;
    }
    return 1;
}

void se_memo_begin(const sdk_grid *g)
{
    if (M.has_last && !grid_within(g, &M.last)) memo_clear();
    M.last = *g;
    M.has_last = 1;
}

static size_t find_slot(uint64_t hash, int kind, const sdk_grid *g, int *found)
{
    size_t mask = M.nslot - 1, i = (size_t)hash & mask;
    for (; M.slot[i]; i = (i + 1) & mask) {
        const entry_head *e = head_at(M.slot[i] - 1);
        if (e->hash == hash && e->kind == kind && !memcmp(e->cand, g->cand, sizeof e->cand) &&
            !memcmp(e->value, g->value, sizeof e->value)) {
            *found = 1;
            return i;
        }
    }
    *found = 0;
    return i;
}

const void *se_memo_get(int kind, const sdk_grid *g, size_t *len)
{
    if (!M.n) return NULL;
    int found;
    size_t i = find_slot(grid_hash(kind, g), kind, g, &found);
    if (!found) return NULL;
    const entry_head *e = head_at(M.slot[i] - 1);
    *len = e->len;
    return e + 1;
}

void se_memo_put(int kind, const sdk_grid *g, const void *data, size_t len)
{
    size_t need = (sizeof(entry_head) + len + 7) & ~(size_t)7;
    if (need > MEMO_BUDGET / 4) return; /* too big to be worth keeping */
    if (M.len + need > MEMO_BUDGET) memo_clear();
    if (2 * (M.n + 1) > M.nslot) { /* grow the table: entries stay where they are */
        size_t ns = M.nslot ? M.nslot * 2 : 4096;
        if (!M.nslot) sdk_cache_register(se_memo_drop); /* the host may free it all */
        uint64_t *t = sdk_xcalloc(ns, sizeof *t);
        for (size_t k = 0; k < M.nslot; k++) {
            if (!M.slot[k]) continue;
            size_t j = (size_t)head_at(M.slot[k] - 1)->hash & (ns - 1);
            while (t[j]) j = (j + 1) & (ns - 1);
            t[j] = M.slot[k];
        }
        free(M.slot);
        M.slot = t;
        M.nslot = ns;
    }
    uint64_t hash = grid_hash(kind, g);
    int found;
    size_t i = find_slot(hash, kind, g, &found);
    if (found) return;
    if (M.len + need > M.cap) {
        size_t nc = M.cap ? M.cap : (size_t)1 << 20;
        while (nc < M.len + need) nc *= 2;
        M.buf = sdk_xrealloc(M.buf, nc);
        M.cap = nc;
    }
    entry_head *e = (entry_head *)(M.buf + M.len);
    e->hash = hash;
    e->kind = kind;
    e->len = (uint32_t)len;
    memcpy(e->value, g->value, sizeof e->value);
    memcpy(e->cand, g->cand, sizeof e->cand);
    if (len) memcpy(e + 1, data, len); /* data may be NULL when len is 0 */
    M.slot[i] = M.len + 1;
    M.len += need;
    M.n++;
}

__attribute__((destructor)) static void memo_at_unload(void)
{
    se_memo_drop();
}
