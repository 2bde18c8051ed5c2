/* grid_memo.h - the grid a technique searched last (per thread), to tell
 * which cells changed since.
 *
 * Sue de Coq, APE and ATE keep what their last search found (or did not)
 * and skip the patterns whose cells are the same now: within a puzzle's
 * path the grid only loses candidates, and a pattern made of unchanged
 * cells gives what it gave then. Each technique decides what "touches a
 * changed cell" means for its patterns; this only keeps the grid. */
#ifndef SUDOKU_MISC_GRID_MEMO_H
#define SUDOKU_MISC_GRID_MEMO_H
#include <stdbool.h>
#include <string.h>
#include "sudoku/grid.h"

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

static inline void grid_memo_store(grid_memo *m, const sdk_grid *g)
{
    m->valid = true;
    memcpy(m->value, g->value, sizeof m->value);
    memcpy(m->cand, g->cand, sizeof m->cand);
}

#endif
