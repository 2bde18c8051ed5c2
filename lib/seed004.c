/* seed004.c - the Hindi seed's singles solver (seeds/004), literally: sweeps
 * over the grid counting passes, the number its page reports.
 *
 * Each cell is given, unknown or solved; an unknown cell keeps a candidate
 * list, at first 1..9. A pass visits the unknown cells row by row. At each,
 * the "loner" step strikes from its list the digits of its row, column and
 * box (what is placed so far, this pass included) and places the digit when
 * one is left; then the "hidden loner" step, for the row, the column and the
 * box in turn, takes its list minus the lists of the other unknown cells of
 * that house (as they stand: a cell not visited yet still has its old list)
 * and places the digit when exactly one is left. Passes repeat while one
 * changed something, 81 at most; the count includes the last, idle pass. */
#include "sudoku/solver.h"

#include <string.h>

enum { GIVEN, UNKNOWN, SOLVED };

typedef struct s004 {
    uint8_t value[81];
    uint8_t state[81];
    uint16_t cand[81]; /* bit d: digit d a candidate */
} s004;

static uint16_t house_values(const s004 *s, int cell, int kind)
{
    int r = cell / 9, c = cell % 9, b0 = (r / 3) * 27 + (c / 3) * 3;
    uint16_t m = 0;
    for (int k = 0; k < 9; k++) {
        int o = kind == 0 ? r * 9 + k : kind == 1 ? k * 9 + c : b0 + (k / 3) * 9 + k % 3;
        if (s->value[o]) m |= (uint16_t)(1u << s->value[o]);
    }
    return m;
}

static void mark_solved(s004 *s, int cell, int d)
{
    s->value[cell] = (uint8_t)d;
    s->state[cell] = SOLVED;
}

static int only_digit(uint16_t m)
{
    return m && !(m & (m - 1)) ? __builtin_ctz(m) : 0;
}

static int solve_single(s004 *s, int cell)
{
    for (int kind = 0; kind < 3; kind++) s->cand[cell] &= (uint16_t)~house_values(s, cell, kind);
    int d = only_digit(s->cand[cell]);
    if (!d) return 0;
    mark_solved(s, cell, d);
    return 1;
}

/* The cell's list minus the lists of the house's other unknown cells. */
static uint16_t less(const s004 *s, int cell, int kind)
{
    int r = cell / 9, c = cell % 9, b0 = (r / 3) * 27 + (c / 3) * 3;
    uint16_t m = s->cand[cell];
    for (int k = 0; k < 9; k++) {
        int o = kind == 0 ? r * 9 + k : kind == 1 ? k * 9 + c : b0 + (k / 3) * 9 + k % 3;
        if (o == cell || s->state[o] != UNKNOWN) continue;
        m &= (uint16_t)~s->cand[o];
    }
    return m;
}

static int solve_hidden_single(s004 *s, int cell)
{
    int changed = 0;
    for (int kind = 0; kind < 3; kind++) {
        int d = only_digit(less(s, cell, kind));
        if (d) {
            mark_solved(s, cell, d);
            changed++;
        }
    }
    return changed;
}

int sdk_seed004_passes(const uint8_t values[81], uint8_t out[81])
{
    s004 s;
    for (int c = 0; c < 81; c++) {
        s.value[c] = values[c];
        s.state[c] = values[c] ? GIVEN : UNKNOWN;
        s.cand[c] = values[c] ? 0 : 0x3FE;
    }
    int passes = 0, changed;
    do {
        changed = 0;
        for (int c = 0; c < 81; c++) {
            if (s.state[c] != UNKNOWN) continue;
            changed += solve_single(&s, c);
            changed += solve_hidden_single(&s, c);
        }
        passes++;
        if (81 < passes) break;
    } while (changed);
    memcpy(out, s.value, 81);
    return passes;
}
