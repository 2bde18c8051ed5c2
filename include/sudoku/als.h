/* sudoku/als.h - almost locked sets (ALS) and their restricted commons.
 *
 * An ALS is a set of N cells of one house holding exactly N+1 candidate digits
 * together (a bivalue cell is a 1-cell ALS). If one of its digits is removed,
 * the rest is a locked set. Two ALSs A and B have a restricted common candidate
 * (RCC) x when both hold x, no cell they share holds x, and every cell of A
 * with x sees every cell of B with x: then x is true in at most one of them.
 *
 * This module lists all ALSs of a grid and computes RCCs. It is shared by the
 * ALS plugin (ALS-XZ, ALS-XY-Wing, ALS chain, Death Blossom) and by the chain
 * plugins (ALS nodes in grouped nice loops, AICs and forcing chains): an ALS
 * node is entered through a digit x (every x-cell of the ALS is false) and
 * then, for every other digit z of the ALS, at least one z-cell of the ALS is
 * true, so z is false in every cell of peers[z-1].
 *
 * Everything here is pure and reentrant; lists are malloc'd by the callee and
 * freed with the matching _free function.
 */
#ifndef SUDOKU_ALS_H
#define SUDOKU_ALS_H

#include "sudoku/grid.h"
#include "sudoku/step.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One almost locked set. */
typedef struct sdk_als {
    sdk_bb cells;     /* its N cells (all empty, all in house) */
    sdk_bb dcells[9]; /* dcells[d-1]: the ALS cells holding digit d (empty if d not in digits) */
    sdk_bb peers[9];  /* peers[d-1]: cells outside the ALS where d is still a candidate and
                       * that see every cell of dcells[d-1] (empty when d is not in digits) */
    sdk_bb all_peers; /* union of peers[] over its digits */
    uint16_t digits;  /* candidate mask, N+1 bits */
    uint8_t ncell;    /* N */
    uint8_t house;    /* a house holding every cell (the first one found: rows, columns, boxes) */
} sdk_als;

/* Which ALSs to collect. */
typedef struct sdk_als_opts {
    int min_cells; /* 1 includes bivalue cells as 1-cell ALSs (ALS-XZ, wings); 2 leaves them out
                    * (chains use plain cells for those). 0 means 1. */
    int max_cells; /* largest N (1..8); 0 means 8 */
} sdk_als_opts;

typedef struct sdk_als_list {
    int n, cap;
    sdk_als *als; /* distinct cell sets (an ALS lying in a row and a box is listed once,
                   * under its first house), in order of discovery: house by house */
} sdk_als_list;

/* Collect every ALS of g (o may be NULL: all sizes 1..8). Returns the count, or
 * -1 when memory ran out (out is then empty). out needs no initialisation. */
SDK_API int sdk_als_collect(const sdk_grid *g, const sdk_als_opts *o, sdk_als_list *out);
SDK_API void sdk_als_list_free(sdk_als_list *l);

/* The same list as sdk_als_collect(g, NULL, out) when g descends from the
 * grid prev was collected on (all sizes) with the candidates of the cells
 * in changed changed (cells that got a value included): a house without
 * such a cell keeps its sets, only their peers lose the candidates g lost;
 * the other houses are walked again. Returns the count, or -1 when memory
 * ran out (out is then empty). */
SDK_API int sdk_als_collect_since(const sdk_grid *g, const sdk_als_list *prev, sdk_bb changed,
                                  sdk_als_list *out);

/* Do the two ALSs share a cell? */
static inline bool sdk_als_overlap(const sdk_als *a, const sdk_als *b)
{
    return !sdk_bb_empty(sdk_bb_and(a->cells, b->cells));
}

/* The restricted common candidates of a and b as a digit mask. Overlapping
 * sets give 0 unless allow_overlap; with overlap allowed, a digit held by a
 * shared cell is never restricted. */
SDK_API unsigned sdk_als_rcc(const sdk_als *a, const sdk_als *b, bool allow_overlap);

/* Cells outside a and b, holding candidate d, that see every cell of a and of
 * b holding d (d is false there as soon as d is true in a or in b). Empty if
 * neither holds d. */
SDK_API sdk_bb sdk_als_common_peers(const sdk_als *a, const sdk_als *b, int d);

/* The RCC graph of a list: one entry per ordered pair (a, b), a != b, with
 * at least one RCC. Entries are sorted by a, then b; the entries of a are
 * edge[first[a]] .. edge[first[a+1]-1]. */
typedef struct sdk_rcc {
    int a, b;
    uint16_t digits; /* the RCC mask (1 bit: singly linked, 2: doubly linked) */
} sdk_rcc;

typedef struct sdk_rcc_graph {
    int n, cap; /* edges */
    sdk_rcc *edge;
    int nals;
    int *first; /* nals + 1 offsets */
} sdk_rcc_graph;

/* Build the graph of l (both directions of every pair). Returns the edge count
 * or -1 when memory ran out. */
SDK_API int sdk_rcc_graph_build(const sdk_als_list *l, bool allow_overlap, sdk_rcc_graph *out);
SDK_API void sdk_rcc_graph_free(sdk_rcc_graph *gr);

/* "r5c56 {234}" (HoDoKu's notation): compact cells and digits. Returns buf. */
SDK_API char *sdk_als_text(const sdk_als *a, char *buf, size_t n);

/* Mark every candidate of the ALS in a step with role (usually SDK_ROLE_ALS). */
SDK_API void sdk_als_mark(sdk_step *s, const sdk_als *a, sdk_role role);

#ifdef __cplusplus
}
#endif
#endif
