/* trace.c - the naive backtracking trace of the Dutch seed (seeds/001).
 *
 * The empty cells are filled in index order; each one tries the digits from
 * one above its current value up to 9, checking the row, then the column,
 * then the box. Every try is reported. An accepted digit moves on to the next
 * empty cell; when no digit fits, the cell is cleared and the search goes back
 * to the previous empty cell (a backtrack). As in the seed, the step number
 * counts accepted digits and backtracks: the rejected tries before them carry
 * the number of the step they belong to (the seed's example takes 10,789
 * steps).
 */
#include "sudoku/solver.h"

#include <string.h>

static int box_of(int cell)
{
    return (cell / 27) * 3 + (cell % 9) / 3;
}

/* Why digit d cannot go in cell (row first, then column, then box), or
 * SDK_TRACE_ACCEPTED. */
static int check(const uint8_t v[81], int cell, int d)
{
    int r = cell / 9, c = cell % 9;
    for (int k = 0; k < 9; k++)
        if (r * 9 + k != cell && v[r * 9 + k] == d) return SDK_TRACE_IN_ROW;
    for (int k = 0; k < 9; k++)
        if (k * 9 + c != cell && v[k * 9 + c] == d) return SDK_TRACE_IN_COL;
    int b0 = (cell / 27) * 27 + ((cell % 9) / 3) * 3;
    for (int k = 0; k < 9; k++) {
        int o = b0 + (k / 3) * 9 + k % 3;
        if (o != cell && v[o] == d) return SDK_TRACE_IN_BOX;
    }
    return SDK_TRACE_ACCEPTED;
}

static int givens_conflict(const uint8_t v[81])
{
    unsigned row[9] = {0}, col[9] = {0}, box[9] = {0};
    for (int cell = 0; cell < 81; cell++) {
        int d = v[cell];
        if (!d) continue;
        if (d > 9) return 1;
        unsigned bit = 1u << d;
        int r = cell / 9, c = cell % 9, b = box_of(cell);
        if ((row[r] | col[c] | box[b]) & bit) return 1;
        row[r] |= bit;
        col[c] |= bit;
        box[b] |= bit;
    }
    return 0;
}

/* max_events <= 0: no limit. Givens that already conflict give 0 at once,
 * without events (the search could not end in reasonable time). On 0 and -1
 * values is left as given. */
int sdk_backtrack_trace(uint8_t values[81], long max_events,
                        void (*fn)(void *ctx, const sdk_trace_event *ev), void *ctx)
{
    if (givens_conflict(values)) return 0;
    uint8_t orig[81];
    memcpy(orig, values, sizeof orig);
    int empty[81], n = 0;
    for (int cell = 0; cell < 81; cell++)
        if (!values[cell]) empty[n++] = cell;

    long step = 1, events = 0;
    int k = 0;
    while (k < n) {
        int cell = empty[k];
        int accepted = 0;
        for (int d = values[cell] + 1; d <= 9; d++) {
            if (max_events > 0 && events >= max_events) goto cut;
            int res = check(values, cell, d);
            events++;
            if (fn) {
                sdk_trace_event ev = {.step = step, .cell = cell, .digit = d, .result = res};
                fn(ctx, &ev);
            }
            if (res == SDK_TRACE_ACCEPTED) {
                values[cell] = (uint8_t)d;
                accepted = 1;
                break;
            }
        }
        if (accepted) {
            step++;
            k++;
            continue;
        }
        if (max_events > 0 && events >= max_events) goto cut;
        events++;
        if (fn) {
            sdk_trace_event ev = {
                .step = step, .cell = cell, .digit = 0, .result = SDK_TRACE_BACKTRACK};
            fn(ctx, &ev);
        }
        step++;
        values[cell] = 0;
        if (--k < 0) {
            memcpy(values, orig, sizeof orig);
            return 0;
        }
    }
    return 1;
cut:
    memcpy(values, orig, sizeof orig);
    return -1;
}

const char *sdk_trace_result_text(int result)
{
    switch (result) {
    case SDK_TRACE_ACCEPTED:
        return "valid digit found";
    case SDK_TRACE_IN_ROW:
        return "already in this row";
    case SDK_TRACE_IN_COL:
        return "already in this column";
    case SDK_TRACE_IN_BOX:
        return "already in this box";
    case SDK_TRACE_BACKTRACK:
        return "no valid digit: backtrack";
    default:
        return "unknown result";
    }
}
