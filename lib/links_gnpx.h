/* links_gnpx.h - GNPX's super-link search (links_gnpx.c), used by
 * sdk_trace_assumption for SDK_DYN_GNPX; and the cell-list text both files
 * write ("r2c78", "r1789c9", "r1c9 r2c78"). Internal to libsudoku. */
#ifndef SUDOKU_LINKS_GNPX_H
#define SUDOKU_LINKS_GNPX_H

#include "sudoku/links.h"

/* sdk_trace_assumption with SDK_DYN_GNPX: the same callbacks, GNPX's lines. */
bool sdk_gnpx_trace(const sdk_grid *g, int cell, int digit, bool on, unsigned flags,
                    sdk_trace_fn fn, void *ctx);

/* The cells as GNPX names a set: one column "r1789c9", else row by row. */
void sdk_cells_text(sdk_bb cells, char *buf, size_t n);

#endif
