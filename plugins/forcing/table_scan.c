/* table_scan.c - which contradiction a premise's table shows, without
 * looking at its 81 cells one by one.
 *
 * The static forcing chains ask, for every component of premises on a
 * position, whether its table (what the premise makes true, what it makes
 * false; 729-bit sets, candidate k = cell * 9 + digit - 1) breaks the grid:
 * a candidate both true and false, an empty cell whose candidates are all
 * false, or a house where a digit has no place left. Only the answer is
 * wanted there (the chains of a step are written by the slow scan, once).
 *
 * A row of the grid is 81 consecutive bits of such a set: nine groups of
 * nine, one per cell. Two shifts take a row out as two words (cells 0-6 in
 * 63 bits, cells 7-8 in 18), and then:
 *  - the candidates left alive are the grid's candidates without the false
 *    ones, a word at a time;
 *  - a cell has one alive when its group is not zero: OR-ing each bit with
 *    the eight above it (four shifts) leaves that answer in the group's
 *    first bit;
 *  - the digits alive in the row are its groups OR-ed together (shifts by
 *    9, 18, 36); the columns' are the rows' words OR-ed together, group j
 *    being column j, and the boxes' three groups of a band's OR.
 * A house lacks a digit when it holds the digit as a candidate and no alive
 * group has it. */
#include "table_scan.h"

#define GROUP_FIRSTS 0x0040201008040201ULL /* bit 0 of each 9-bit group (7) */

/* n (<= 63) bits of the 12 words w from bit s on. */
static inline uint64_t bits_at(const uint64_t *w, int s, int n)
{
    int i = s >> 6, o = s & 63;
    uint64_t v = w[i] >> o;
    if (o && o + n > 64) v |= w[i + 1] << (64 - o);
    return v & ((1ULL << n) - 1);
}

/* Bit 9i set when group i of x is not zero. */
static inline uint64_t groups_nonzero(uint64_t x)
{
    uint64_t y = x | x >> 1;
    y |= y >> 2;
    y |= y >> 4;
    y |= x >> 8;
    return y & GROUP_FIRSTS;
}

/* The OR of a row's nine groups (lo: seven, hi: two), as a digit mask. */
static inline unsigned groups_or(uint64_t lo, uint64_t hi)
{
    lo |= lo >> 9;
    lo |= lo >> 18;
    lo |= lo >> 36;
    return (unsigned)((lo | hi | hi >> 9) & 0x1ff);
}

/* The digits of column j from the OR of the rows' words. */
static inline unsigned column_of(uint64_t lo, uint64_t hi, int j)
{
    return (unsigned)((j < 7 ? lo >> (9 * j) : hi >> (9 * (j - 7))) & 0x1ff);
}

/* The digits of the three boxes of a band from the OR of its rows' words. */
static inline void boxes_of(uint64_t lo, uint64_t hi, unsigned box[3])
{
    box[0] = (unsigned)((lo | lo >> 9 | lo >> 18) & 0x1ff);
    box[1] = (unsigned)((lo >> 27 | lo >> 36 | lo >> 45) & 0x1ff);
    box[2] = (unsigned)((lo >> 54 | hi | hi >> 9) & 0x1ff);
}

void table_scan_grid_init(table_scan_grid *sg, const sdk_grid *g)
{
    uint64_t col_lo = 0, col_hi = 0;
    for (int r = 0; r < 9; r++) {
        uint64_t lo = 0, hi = 0, elo = 0, ehi = 0;
        for (int i = 0; i < 9; i++) {
            int c = r * 9 + i;
            uint64_t m = g->cand[c] & 0x1ffu, e = g->value[c] ? 0 : 1;
            if (i < 7) {
                lo |= m << (9 * i);
                elo |= e << (9 * i);
            } else {
                hi |= m << (9 * (i - 7));
                ehi |= e << (9 * (i - 7));
            }
        }
        sg->cand_lo[r] = lo;
        sg->cand_hi[r] = hi;
        sg->empty_lo[r] = elo;
        sg->empty_hi[r] = ehi;
        sg->present[r] = (uint16_t)groups_or(lo, hi);
        col_lo |= lo;
        col_hi |= hi;
    }
    for (int j = 0; j < 9; j++) sg->present[9 + j] = (uint16_t)column_of(col_lo, col_hi, j);
    for (int band = 0; band < 3; band++) {
        uint64_t lo = 0, hi = 0;
        for (int r = band * 3; r < band * 3 + 3; r++) {
            lo |= sg->cand_lo[r];
            hi |= sg->cand_hi[r];
        }
        unsigned box[3];
        boxes_of(lo, hi, box);
        for (int s = 0; s < 3; s++) sg->present[18 + band * 3 + s] = (uint16_t)box[s];
    }
}

int table_scan(const table_scan_grid *sg, const cset *on, const cset *off)
{
    for (int w = 0; w < 12; w++) {
        uint64_t both = on->w[w] & off->w[w];
        if (both) {
            /* bits past the last candidate are never set in a table */
            if (w * 64 + __builtin_ctzll(both) < SDK_NCAND) return 2;
            break;
        }
    }
    uint64_t alive_lo[9], alive_hi[9];
    bool dead_cell = false;
    /* unrolled: each row's words and shifts are then constants */
#pragma GCC unroll 9
    for (int r = 0; r < 9; r++) {
        uint64_t lo = sg->cand_lo[r] & ~bits_at(off->w, 81 * r, 63);
        uint64_t hi = sg->cand_hi[r] & ~bits_at(off->w, 81 * r + 63, 18);
        alive_lo[r] = lo;
        alive_hi[r] = hi;
        if ((sg->empty_lo[r] & ~groups_nonzero(lo)) | (sg->empty_hi[r] & ~groups_nonzero(hi)))
            dead_cell = true;
    }
    if (dead_cell) return 4;
    uint64_t col_lo = 0, col_hi = 0;
    for (int r = 0; r < 9; r++) {
        if (sg->present[r] & ~groups_or(alive_lo[r], alive_hi[r])) return 6;
        col_lo |= alive_lo[r];
        col_hi |= alive_hi[r];
    }
    for (int j = 0; j < 9; j++)
        if (sg->present[9 + j] & ~column_of(col_lo, col_hi, j)) return 6;
    for (int band = 0; band < 3; band++) {
        int r = band * 3;
        unsigned box[3];
        boxes_of(alive_lo[r] | alive_lo[r + 1] | alive_lo[r + 2],
                 alive_hi[r] | alive_hi[r + 1] | alive_hi[r + 2], box);
        for (int s = 0; s < 3; s++)
            if (sg->present[18 + band * 3 + s] & ~box[s]) return 6;
    }
    return 0;
}
