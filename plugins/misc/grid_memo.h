/* grid_memo.h - the grids a technique searched last (per thread), to tell
 * which cells changed since and search only the patterns they touch.
 *
 * Within one puzzle's path the grid only loses candidates. A technique that
 * reports patterns in a fixed order keeps, per thread, the last grid it
 * searched with the rank of the first pattern that gave a step there (none:
 * every pattern gave nothing). On the next grid, a pattern ranked before
 * that one whose defining cells did not change gave nothing then and gives
 * nothing now, so it is skipped; the others are examined in the usual order
 * and the steps are those of the full search. Two rules make "gives nothing
 * now" hold, and each technique says which one it relies on:
 *  - same inputs: everything the pattern reads (its cells, its targets) is
 *    equal on both grids; any earlier grid will do;
 *  - descendant: the pattern's cells are equal and the grid now is a
 *    descendant of the kept one (no cell gained a candidate or lost its
 *    value), so its eliminations now are a subset of those then (none).
 *    A grid that is no descendant (another puzzle, another branch) gets
 *    the full search.
 *
 * Two grids are kept: the one of the last search at the top (depth 0) and
 * the one of the last search inside a propagate (depth > 0). A forcing
 * chain propagates many assumptions from one grid G: each inner grid
 * descends from G, which the top level searched last, while the inner grid
 * before belongs to another assumption. The search starts from whichever
 * kept grid differs in fewer cells.
 *
 * digit_memo is the same for techniques searching digit by digit, whose
 * steps for a digit depend on that digit's candidates only. */
#ifndef SUDOKU_MISC_GRID_MEMO_H
#define SUDOKU_MISC_GRID_MEMO_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/technique.h"

typedef struct grid_memo {
    bool valid; /* false until a search stored its grid */
    uint8_t value[SDK_CELLS];
    uint16_t cand[SDK_CELLS];
} grid_memo;

/* The cells whose value or candidates differ between m's grid and g (every
 * cell when m holds none). */
static inline sdk_bb grid_memo_changed(const grid_memo *m, const sdk_grid *g)
{
    sdk_bb changed = sdk_bb_none();
    for (int c = 0; c < SDK_CELLS; c++)
        if (!m->valid || m->cand[c] != g->cand[c] || m->value[c] != g->value[c])
            sdk_bb_add(&changed, c);
    return changed;
}

/* Does g descend from m's grid (every candidate of g was there, every value
 * of m's grid is still set)? */
static inline bool grid_memo_descends(const grid_memo *m, const sdk_grid *g)
{
    if (!m->valid) return false;
    for (int c = 0; c < SDK_CELLS; c++)
        if ((g->cand[c] & ~m->cand[c]) || (m->value[c] && m->value[c] != g->value[c])) return false;
    return true;
}

static inline void grid_memo_store(grid_memo *m, const sdk_grid *g)
{
    m->valid = true;
    memcpy(m->value, g->value, sizeof m->value);
    memcpy(m->cand, g->cand, sizeof m->cand);
}

/* ---- first pattern that gave a step, per depth ---------------------------- */

#define PATTERN_NONE UINT64_MAX /* no pattern gave a step */

typedef struct pattern_memo {
    grid_memo grid;
    uint64_t first; /* rank of the first pattern that gave a step on grid */
} pattern_memo;

/* What a search may skip: a pattern ranked before `first` and touching no
 * cell of `changed` (ref: the grid compared with; NULL: search everything,
 * changed is then every cell and first 0). */
typedef struct pattern_since {
    const grid_memo *ref;
    sdk_bb changed;
    uint64_t first;
} pattern_since;

static inline int pattern_memo_slot(const sdk_ctx *ctx)
{
    return ctx->depth > 0;
}

/* The kept grid of memo[2] to search from (the one with fewer changed
 * cells; with `descendant`, only one g descends from). */
static inline pattern_since pattern_memo_begin(const pattern_memo memo[2], const sdk_grid *g,
                                               bool descendant)
{
    pattern_since best = {NULL, {~0ULL, (1ULL << (SDK_CELLS - 64)) - 1}, 0};
    int fewest = SDK_CELLS + 1;
    for (int k = 0; k < 2; k++) {
        const pattern_memo *m = &memo[k];
        if (!m->grid.valid || (descendant && !grid_memo_descends(&m->grid, g))) continue;
        sdk_bb changed = grid_memo_changed(&m->grid, g);
        int n = sdk_bb_count(changed);
        if (n < fewest) {
            fewest = n;
            best = (pattern_since){&m->grid, changed, m->first};
        }
    }
    return best;
}

/* Keep g and the rank of the first pattern that gave a step on it. */
static inline void pattern_memo_end(pattern_memo memo[2], const sdk_ctx *ctx, const sdk_grid *g,
                                    uint64_t first)
{
    pattern_memo *m = &memo[pattern_memo_slot(ctx)];
    grid_memo_store(&m->grid, g);
    m->first = first;
}

/* May the pattern of rank `rank` with cells `cells` be skipped? */
static inline bool pattern_memo_skip(const pattern_since *s, uint64_t rank, sdk_bb cells)
{
    return rank < s->first && sdk_bb_empty(sdk_bb_and(cells, s->changed));
}

/* ---- per digit: single-digit patterns ---------------------------------------
 *
 * A technique searching digit by digit (1 to 9), whose steps for digit d
 * depend on d's candidates only, keeps per thread the candidates of every
 * digit on an earlier grid and the first digit that gave a step there
 * ("same inputs"): a digit before it whose candidates are the same gives
 * nothing now either. */
typedef struct digit_memo {
    bool valid;
    int option; /* what the search's options made of it (kept grids of others are not used) */
    int first;  /* the first digit that gave a step, 10: none (or, for a search
                 * ranking (place, digit) pairs, the first rank: see intersections.c) */
    sdk_bb digit[9];
} digit_memo;

/* The digits of g below `below` with the same candidates as on m's grid (bit d). */
static inline unsigned digit_memo_same(const digit_memo *m, const sdk_grid *g, int below)
{
    unsigned same = 0;
    for (int d = 1; d < below && d <= 9; d++)
        if (sdk_bb_eq(m->digit[d - 1], g->digit[d - 1])) same |= 1u << d;
    return same;
}

/* The digits that may be skipped on g (bit d), from whichever of memo[2]
 * (searched with the same option) allows more. */
static inline unsigned digit_memo_begin(const digit_memo memo[2], const sdk_grid *g, int option)
{
    unsigned best = 0;
    for (int k = 0; k < 2; k++) {
        const digit_memo *m = &memo[k];
        if (!m->valid || m->option != option) continue;
        unsigned skip = digit_memo_same(m, g, m->first);
        if (sdk_popcount64(skip) > sdk_popcount64(best)) best = skip;
    }
    return best;
}

static inline void digit_memo_end(digit_memo memo[2], const sdk_ctx *ctx, const sdk_grid *g,
                                  int option, int first)
{
    digit_memo *m = &memo[pattern_memo_slot(ctx)];
    m->valid = true;
    m->option = option;
    m->first = first;
    memcpy(m->digit, g->digit, sizeof m->digit);
}

/* ---- whole positions: exact repeats of a miss -------------------------------
 *
 * Inside nested forcing chains the ladder runs on the positions each
 * assumption propagates to; another assumption, or the same one on the next
 * position, often reaches a position searched a few hundred calls before,
 * and nearly every search there finds nothing. A search whose result depends
 * on the position (values and candidates) and its options alone keeps its
 * recent misses per thread in a direct-mapped table of nslot entries (a power
 * of two, made on the first miss), hashed by position and options and
 * compared whole: only exact repeats are answered "nothing". The options are
 * one 64-bit key the caller packs without loss. */
typedef struct position_miss {
    uint64_t hash; /* 0: empty */
    uint64_t key;  /* the search's options */
    uint8_t value[SDK_CELLS];
    uint16_t cand[SDK_CELLS];
} position_miss;

static inline uint64_t position_miss_hash(const sdk_grid *g, uint64_t key)
{
    uint64_t h = 1469598103934665603ULL ^ key;
    for (int c = 0; c < SDK_CELLS; c++) {
        h ^= (uint64_t)g->cand[c] | (uint64_t)g->value[c] << 16;
        h *= 1099511628211ULL;
    }
    h ^= h >> 31;
    return h | 1;
}

/* Did a search with options key find nothing on g recently (table may be NULL)? */
static inline bool position_miss_seen(const position_miss *table, unsigned nslot, const sdk_grid *g,
                                      uint64_t key)
{
    if (!table) return false;
    uint64_t h = position_miss_hash(g, key);
    const position_miss *e = &table[(h >> 8) & (nslot - 1)];
    return e->hash == h && e->key == key && !memcmp(e->cand, g->cand, sizeof e->cand) &&
           !memcmp(e->value, g->value, sizeof e->value);
}

/* A search with options key found nothing on g. */
static inline void position_miss_note(position_miss **table, unsigned nslot, const sdk_grid *g,
                                      uint64_t key)
{
    if (!*table) *table = sdk_xcalloc(nslot, sizeof **table);
    uint64_t h = position_miss_hash(g, key);
    position_miss *e = &(*table)[(h >> 8) & (nslot - 1)];
    e->hash = h;
    e->key = key;
    memcpy(e->value, g->value, sizeof e->value);
    memcpy(e->cand, g->cand, sizeof e->cand);
}

#endif
