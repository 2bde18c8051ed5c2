/* inner.h - the inner steps of a nested forcing chain (inner.c). */
#ifndef FORCING_INNER_H
#define FORCING_INNER_H

#include "sudoku/technique.h"

typedef struct inner_log inner_log;

/* A log for one find() call: it builds inner steps in the host's scratch
 * step 1 of ctx (the caller builds its step in 0). */
inner_log *inner_log_new(const sdk_ctx *ctx);
void inner_log_free(inner_log *l);
/* Start recording a propagation from grid w: returns the sink to hand
 * ctx->propagate_steps. */
sdk_sink *inner_log_start(inner_log *l, const sdk_grid *w);
/* The propagation broke the grid: write into st, for each candidate the break
 * needs gone (or placed), the inner steps that do it (sdk_step.inner and
 * .claim). False (st marked truncated) when they do not fit the step. */
bool inner_log_explain(const inner_log *l, sdk_step *st);

#endif
