/* se_memo.h - results of nested chain searches, kept by the grid they ran
 * on (see se_memo.c). */
#ifndef SE_MEMO_H
#define SE_MEMO_H
#include <stddef.h>
#include "sudoku/grid.h"

/* A top-level search starts on g: what was kept for grids of another puzzle
 * (g not within the grid of the previous search) goes. */
void se_memo_begin(const sdk_grid *g);
/* The result kept for (kind, g), or NULL; *len gets its size. Valid until
 * the next se_memo_put or se_memo_begin. */
const void *se_memo_get(int kind, const sdk_grid *g, size_t *len);
/* Keep a copy of the result of (kind, g). */
void se_memo_put(int kind, const sdk_grid *g, const void *data, size_t len);
/* Everything kept goes (the thread's memory back). */
void se_memo_drop(void);
#endif
