/* prop_memo.h - short propagations that got stuck, kept to be replayed.
 *
 * A nested forcing chain propagates (ctx->propagate) assumption after
 * assumption, and at the next step of the puzzle's path the same ones again:
 * an assumption that did not break the grid before is tried anew. Often the
 * grid it starts from is the same as then (the step taken since changed only
 * what the assumption's chain removes anyway). A propagation is a function
 * of the profile, the position it stops before, the depth, the unique flag,
 * the step bound and the grid (every technique's find() is; their memos only
 * spare work), so from the same grid it applies the same steps and gets stuck
 * at the same place. The engine keeps, per thread and for the public call
 * (run, find, hint) it is in, the last few short propagations that got stuck
 * with the steps they applied; from a kept grid it replays those steps
 * instead of searching them, and the caller sees the same steps, grid and
 * result. Broken or long propagations are not kept: they end a forcing
 * chain's search or do not repeat. */
#ifndef SUDOKU_PROP_MEMO_H
#define SUDOKU_PROP_MEMO_H
#include <stdbool.h>
#include "sudoku/grid.h"
#include "sudoku/step.h"

/* What a propagation depends on besides its grid. */
typedef struct prop_key {
    unsigned long call;  /* the engine's public call (so one profile, one run) */
    const void *profile; /* the profile it runs */
    int position, depth, max_steps;
    bool unique;
} prop_key;

/* The steps a kept propagation from g applied before it got stuck, in order
 * (*n of them), or NULL when none is kept. */
const sdk_step *const *prop_memo_find(const prop_key *k, const sdk_grid *g, int *n);

/* Recording a propagation from g: begin (a handle, or -1 when memos are
 * off), then add each step it applies (before applying it), then keep when
 * it got stuck (nothing more found). A recording not kept holds nothing; one
 * whose slot a later (nested) recording took is dropped. */
int prop_memo_begin(const prop_key *k, const sdk_grid *g);
void prop_memo_add(int handle, const sdk_step *s);
void prop_memo_keep(int handle);

/* Off: nothing is kept or replayed (tests compare with the search). */
void prop_memo_enable(bool on);
/* Propagations this thread replayed so far. */
unsigned long prop_memo_replays(void);

#endif
