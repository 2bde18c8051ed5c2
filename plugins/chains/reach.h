/* reach.h - which premises of a chain search can reach a literal worth a
 * check (see reach.c). */
#ifndef CHAINS_REACH_H
#define CHAINS_REACH_H

#include <stdbool.h>
#include <stdint.h>
#include "sudoku/links.h"

typedef struct chain_reach {
    bool ok;         /* false: no answers (every premise must be searched) */
    int n, words;    /* present nodes, 64-bit words of a set of them */
    int ncand;       /* present candidate nodes (indices 0 .. ncand - 1) */
    int *idx;        /* per node: its index among the present nodes, or -1 */
    int *node;       /* per index: the node */
    int *scc;        /* per index: the root of its component (reach.c: reach_walk) */
    uint64_t *after; /* per root: the true literals its component reaches */
    uint64_t *into;  /* per candidate index: the true literals with a link into its false one */
    uint64_t *tmp;   /* two sets of work space */
    /* the arrays' sizes and the build's work space, kept for the next build */
    int nodes_cap, sets_cap, into_cap, tmp_cap, sadj_cap, adj_cap;
    int *work;
    int *tfirst, *tadj; /* per index, its true literal's successors (reach.c) */
    int *sfirst, *sadj; /* per index, its false literal's successors (reach.c) */
    int *via;           /* per index, where a weak link into its false literal leads */
} chain_reach;

/* Build the reachability of L (not kept: L's edges are read now only) into
 * r, which is zeroed or holds an earlier build (its arrays are reused).
 * Leaves r->ok false for graphs whose links do not alternate between true
 * and false literals (ALS nodes). */
void chain_reach_build(const sdk_links *L, chain_reach *r);
void chain_reach_free(chain_reach *r);

/* false when the search from the true premise (c, d) certainly reaches no
 * literal of c other than c's false candidates (all at distance 1). */
bool chain_reach_true_may_loop(const chain_reach *r, const sdk_grid *g, int c, int d);

/* An AIC from the false (c, d) to the true (ec, ed) that could eliminate
 * (the ends chains.c checks). */
bool chain_aic_end(const sdk_grid *g, int c, int d, int ec, int ed);

/* false when the search from the false premise (c, d) certainly reaches no
 * literal of c past its direct successors, and no true candidate that could
 * end an AIC (chain_aic_end) past them. */
bool chain_reach_false_may_chain(const chain_reach *r, const sdk_links *L, const sdk_grid *g, int c,
                                 int d);

#endif
