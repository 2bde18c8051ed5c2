/* sudoku/solver.h - the fast brute-force solver.
 *
 * A bitboard solver that finds the solution and counts solutions up to a limit
 * (2 answers "unique or not"), returning up to two of them. It never explains
 * anything: it is the oracle the engine checks puzzles against, and the
 * benchmark's subject. A second, deliberately naive backtracker records every
 * try as the Dutch seed prints it, for `explain --trace`.
 */
#ifndef SUDOKU_SOLVER_H
#define SUDOKU_SOLVER_H

#include "sudoku/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sdk_solver_stats {
    uint64_t guesses; /* branches taken */
} sdk_solver_stats;

/* Solve from 81 values (0 = empty). Counts solutions up to limit (>= 1) and
 * writes the first min(count, 2) of them to sol (may be NULL). Returns the
 * count (0 when the givens already conflict). */
int sdk_solve(const uint8_t values[81], int limit, uint8_t (*sol)[81], sdk_solver_stats *st);

/* The same from a candidate grid: solutions must respect the grid's values
 * and candidates. */
int sdk_solve_grid(const sdk_grid *g, int limit, uint8_t (*sol)[81], sdk_solver_stats *st);

/* The naive backtracking trace (the Dutch seed): fill empty cells in index
 * order trying 1..9, report every try. */
typedef enum sdk_trace_result {
    SDK_TRACE_ACCEPTED = 0, /* valid digit found */
    SDK_TRACE_IN_ROW,       /* already in this row */
    SDK_TRACE_IN_COL,       /* already in this column */
    SDK_TRACE_IN_BOX,       /* already in this box */
    SDK_TRACE_BACKTRACK,    /* no valid digit: back to the previous cell */
} sdk_trace_result;

typedef struct sdk_trace_event {
    long step;  /* 1, 2, ... */
    int cell;   /* 0..80 */
    int digit;  /* digit tried (0 for a backtrack) */
    int result; /* sdk_trace_result */
} sdk_trace_event;

/* Calls fn for every try until solved, proven impossible, or max_events
 * reached. Returns 1 solved (values filled), 0 no solution, -1 cut off. */
int sdk_backtrack_trace(uint8_t values[81], long max_events,
                        void (*fn)(void *ctx, const sdk_trace_event *ev), void *ctx);
const char *sdk_trace_result_text(int result);

/* The Hindi seed's singles solver (seeds/004) run literally: sweeps of naked
 * and hidden singles over the unknown cells, in its order, until a sweep
 * changes nothing (81 at most). Returns the number of sweeps ("passes", the
 * idle one included) and writes the grid reached to out (0: still unknown). */
int sdk_seed004_passes(const uint8_t values[81], uint8_t out[81]);

#ifdef __cplusplus
}
#endif
#endif
