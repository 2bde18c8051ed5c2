/* strong.c - strong links (conjugate pairs) of one digit; see sudoku/strong.h. */
#include "sudoku/strong.h"

int sdk_strong_partner(const sdk_grid *g, int d, int cell, int house)
{
    sdk_bb in = sdk_house_digit(g, house, d);
    if (sdk_bb_count(in) != 2 || !sdk_bb_has(in, cell)) return -1;
    sdk_bb_del(&in, cell);
    return sdk_bb_first(in);
}

bool sdk_strong_link(const sdk_grid *g, int d, int a, int b)
{
    if (a == b) return false;
    for (int k = 0; k < 3; k++) {
        int h = sdk_cell_house[a][k];
        if (sdk_cell_house[b][k] != h) continue;
        if (sdk_strong_partner(g, d, a, h) == b) return true;
    }
    return false;
}

int sdk_strong_graph(const sdk_grid *g, int d, sdk_bb strong[SDK_CELLS])
{
    for (int c = 0; c < SDK_CELLS; c++) strong[c] = sdk_bb_none();
    for (int h = 0; h < SDK_HOUSES; h++) {
        sdk_bb in = sdk_house_digit(g, h, d);
        if (sdk_bb_count(in) != 2) continue;
        int a = sdk_bb_pop(&in), b = sdk_bb_first(in);
        sdk_bb_add(&strong[a], b);
        sdk_bb_add(&strong[b], a);
    }
    int n = 0;
    for (int c = 0; c < SDK_CELLS; c++) n += !sdk_bb_empty(strong[c]);
    return n;
}

unsigned sdk_strong_houses(const sdk_grid *g, int d, int type)
{
    unsigned m = 0;
    for (int i = 0; i < 9; i++)
        if (sdk_bb_count(sdk_house_digit(g, type * 9 + i, d)) == 2) m |= 1u << i;
    return m;
}
