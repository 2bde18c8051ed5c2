/* miss_memo.h - the recent positions where a chain search found nothing,
 * per thread (see miss_memo.c). */
#ifndef CHAINS_MISS_MEMO_H
#define CHAINS_MISS_MEMO_H

#include <stdbool.h>
#include "sudoku/grid.h"

/* Did a search with these link flags find nothing on g (the same values and
 * candidates) recently? */
bool chain_miss_seen(const sdk_grid *g, unsigned flags);
/* A search with these link flags found nothing on g. */
void chain_miss_store(const sdk_grid *g, unsigned flags);

#endif
