/* miss_memo.c - the recent positions where a chain search found nothing.
 *
 * A chain search's result depends on nothing but the position (values and
 * candidates) and the link flags. Within a nested forcing chain the ladder
 * asks for chains on the positions each assumption propagates to, and the
 * assumptions of one position, and the same assumption made again on the
 * next position (one candidate fewer), often reach positions that were
 * searched a few hundred calls before: about one search in ten on the
 * hardest puzzles repeats an earlier one exactly, and nearly every search
 * there finds nothing. So each thread keeps the positions of its last
 * misses in a small table (direct mapped by a hash of the position, whole
 * positions compared), and a position found there is answered "nothing"
 * without building its graph. Only exact repeats are answered: no search
 * is skipped that could differ. */
#include "miss_memo.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"

#define MISS_SLOTS 512 /* a power of two */

typedef struct miss_entry {
    uint64_t hash; /* 0: empty */
    unsigned flags;
    uint8_t value[SDK_CELLS];
    uint16_t cand[SDK_CELLS];
} miss_entry;

/* Freed by the thread that unloads the plugin. */
static _Thread_local miss_entry *table;

__attribute__((destructor)) static void miss_memo_release(void)
{
    free(table);
    table = NULL;
}

static uint64_t position_hash(const sdk_grid *g, unsigned flags)
{
    uint64_t h = 1469598103934665603ULL ^ flags;
    for (int c = 0; c < SDK_CELLS; c++) {
        h ^= (uint64_t)g->cand[c] | (uint64_t)g->value[c] << 16;
        h *= 1099511628211ULL;
    }
    h ^= h >> 31;
    return h | 1;
}

static bool same(const miss_entry *e, uint64_t h, const sdk_grid *g, unsigned flags)
{
    return e->hash == h && e->flags == flags && !memcmp(e->cand, g->cand, sizeof e->cand) &&
           !memcmp(e->value, g->value, sizeof e->value);
}

bool chain_miss_seen(const sdk_grid *g, unsigned flags)
{
    if (!table) return false;
    uint64_t h = position_hash(g, flags);
    return same(&table[(h >> 8) % MISS_SLOTS], h, g, flags);
}

void chain_miss_store(const sdk_grid *g, unsigned flags)
{
    if (!table) table = sdk_xcalloc(MISS_SLOTS, sizeof *table);
    uint64_t h = position_hash(g, flags);
    miss_entry *e = &table[(h >> 8) % MISS_SLOTS];
    e->hash = h;
    e->flags = flags;
    memcpy(e->value, g->value, sizeof e->value);
    memcpy(e->cand, g->cand, sizeof e->cand);
}
