/* hodoku.h - HoDoKu's choice among several steps of one technique (private
 * to the engine).
 *
 * HoDoKu takes singles from two queues its grid keeps: a cell joins the naked
 * single queue when it is left with one candidate, a (cell, digit) joins the
 * hidden single queue when a house is left with one place for the digit, in
 * the order its setCell/delCandidate make these changes (givens in cell order,
 * a placement's peers in cell order, houses row, column, box). Full House and
 * Naked Single take the first live entry of the first queue, Hidden Single the
 * first live entry of the second. Which single comes first changes the score
 * (a hidden single counts 14, a naked single 4), so the engine follows the
 * same queues when a profile entry says `pick=ns-queue` or `pick=hs-queue`.
 *
 * Most other HoDoKu searches collect every instance and sort them; the first
 * has the most eliminations, then the smallest "index sum" of the eliminated
 * candidates, then the shortest chain (`pick=best`). Steps that place digits
 * (forcing chains and nets) come before those that only eliminate; among
 * them the most placements, then the lowest sum of the placed cells' indices,
 * then the shortest chain (HoDoKu's TablingComparator).
 */
#ifndef SUDOKU_HODOKU_H
#define SUDOKU_HODOKU_H

#include "sudoku/step.h"

typedef struct sdk_hq_entry {
    uint8_t cell, digit;
} sdk_hq_entry;

#define SDK_HQ_MAX 2048

typedef struct sdk_hq {
    uint16_t cand[81];    /* candidate masks (bit d), 0 once set */
    uint8_t value[81];    /* placed digits */
    uint8_t free[27][10]; /* places left for each digit in each house */
    int nns, nhs;
    sdk_hq_entry ns[SDK_HQ_MAX], hs[SDK_HQ_MAX];
} sdk_hq;

/* Start from g as HoDoKu loads a puzzle: an empty grid, every placed cell set
 * in cell order, then the candidates g lacks removed in cell order. */
void sdk_hq_init(sdk_hq *q, const sdk_grid *g);
/* Apply a step: its placements (setCell), then its eliminations. */
void sdk_hq_apply(sdk_hq *q, const sdk_step *s);
/* The queue position of a single step (lower comes first; INT_MAX when the
 * step is no single of that queue). */
int sdk_hq_rank_ns(const sdk_hq *q, const sdk_step *s);
int sdk_hq_rank_hs(const sdk_hq *q, const sdk_step *s);

/* pick=best: is a better than b in HoDoKu's order of steps? */
bool sdk_hodoku_better(const sdk_step *a, const sdk_step *b);
/* pick=tabling: the same in the order of HoDoKu's forcing chains and nets
 * (its TablingComparator): eliminations compared candidate by candidate
 * (cell*10+digit, in cell order), not by index sum. */
bool sdk_hodoku_better_tabling(const sdk_step *a, const sdk_step *b);

#endif
