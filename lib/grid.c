/* grid.c - the grid model: placing digits and removing candidates while the
 * cell masks and the per-digit bitboards stay in sync; consistency checks;
 * names of cells and houses. */
#include <stdio.h>
#include <string.h>
#include "sudoku/grid.h"

void sdk_grid_init(sdk_grid *g)
{
    memset(g, 0, sizeof *g);
    sdk_bb all = {~0ULL, (1ULL << 17) - 1};
    for (int c = 0; c < SDK_CELLS; c++) g->cand[c] = SDK_ALL_DIGITS;
    for (int d = 0; d < 9; d++) g->digit[d] = all;
}

void sdk_grid_place(sdk_grid *g, int cell, int digit, bool given)
{
    SDK_MASK_FOREACH(d, g->cand[cell]) sdk_bb_del(&g->digit[d - 1], cell);
    g->cand[cell] = 0;
    g->value[cell] = (uint8_t)digit;
    g->given[cell] = given;
    sdk_bb_add(&g->solved, cell);
    unsigned bit = sdk_digit_bit(digit);
    for (int i = 0; i < 20; i++) g->cand[sdk_cell_peer[cell][i]] &= (uint16_t)~bit;
    g->digit[digit - 1] = sdk_bb_andnot(g->digit[digit - 1], sdk_peer_bb[cell]);
}

bool sdk_grid_eliminate(sdk_grid *g, int cell, int digit)
{
    unsigned bit = sdk_digit_bit(digit);
    if (!(g->cand[cell] & bit)) return false;
    g->cand[cell] &= (uint16_t)~bit;
    sdk_bb_del(&g->digit[digit - 1], cell);
    return true;
}

unsigned sdk_house_placed(const sdk_grid *g, int h)
{
    unsigned m = 0;
    for (int i = 0; i < 9; i++) {
        int v = g->value[sdk_house_cell[h][i]];
        if (v) m |= sdk_digit_bit(v);
    }
    return m;
}

int sdk_grid_empty_count(const sdk_grid *g)
{
    return 81 - sdk_bb_count(g->solved);
}

sdk_bb sdk_common_peers(sdk_bb set)
{
    sdk_bb r = {~0ULL, (1ULL << 17) - 1};
    SDK_BB_FOREACH(c, set) r = sdk_bb_and(r, sdk_peer_bb[c]);
    return sdk_bb_andnot(r, set);
}

/* The common case, that nothing is wrong, with bitboards only; the slow
 * path below then finds and names what is. */
static bool grid_ok(const sdk_grid *g)
{
    sdk_bb placed[9] = {{0, 0}}, any = {0, 0};
    for (int c = 0; c < SDK_CELLS; c++)
        if (g->value[c]) {
            sdk_bb_add(&placed[g->value[c] - 1], c);
            sdk_bb_add(&any, c);
        }
    for (int d = 0; d < 9; d++) any = sdk_bb_or(any, g->digit[d]);
    if (any.lo != ~0ULL || any.hi != (1ULL << 17) - 1) return false; /* a cell without candidates */
    for (int d = 0; d < 9; d++) {
        for (int h = 0; h < SDK_HOUSES; h++) {
            sdk_bb in = sdk_bb_and(sdk_house_bb[h], placed[d]);
            if (sdk_bb_empty(in)) {
                if (sdk_bb_empty(sdk_bb_and(sdk_house_bb[h], g->digit[d]))) return false;
            } else if ((in.lo & (in.lo - 1)) || (in.hi & (in.hi - 1)) || (in.lo && in.hi)) {
                return false; /* twice in a house */
            }
        }
    }
    return true;
}

bool sdk_grid_check(const sdk_grid *g, char *why, size_t n)
{
    if (grid_ok(g)) return true;
    char a[8], b[8], h[16];
    for (int house = 0; house < SDK_HOUSES; house++) {
        int seen[10] = {0};
        for (int i = 0; i < 9; i++) {
            int c = sdk_house_cell[house][i], v = g->value[c];
            if (!v) continue;
            if (seen[v]) {
                snprintf(why, n, "digit %d twice in %s (%s, %s)", v, sdk_house_name(house, h),
                         sdk_cell_name(seen[v] - 1, a), sdk_cell_name(c, b));
                return false;
            }
            seen[v] = c + 1;
        }
    }
    for (int c = 0; c < SDK_CELLS; c++) {
        if (!g->value[c] && !g->cand[c]) {
            snprintf(why, n, "%s has no candidate left", sdk_cell_name(c, a));
            return false;
        }
    }
    for (int house = 0; house < SDK_HOUSES; house++) {
        unsigned placed = sdk_house_placed(g, house);
        for (int d = 1; d <= 9; d++) {
            if (placed & sdk_digit_bit(d)) continue;
            if (sdk_bb_empty(sdk_house_digit(g, house, d))) {
                snprintf(why, n, "digit %d has no place in %s", d, sdk_house_name(house, h));
                return false;
            }
        }
    }
    return true;
}

const char *sdk_cell_name(int cell, char *buf)
{
    buf[0] = 'r';
    buf[1] = (char)('1' + sdk_row(cell));
    buf[2] = 'c';
    buf[3] = (char)('1' + sdk_col(cell));
    buf[4] = 0;
    return buf;
}

const char *sdk_house_name(int house, char *buf)
{
    static const char *kind[] = {"row", "column", "box"};
    snprintf(buf, 10, "%s %c", kind[(house / 9) % 3], '1' + house % 9);
    return buf;
}

const char *sdk_house_short(int house, char *buf)
{
    buf[0] = "rcb"[(house / 9) % 3];
    buf[1] = (char)('1' + house % 9);
    buf[2] = 0;
    return buf;
}
