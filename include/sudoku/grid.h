/* sudoku/grid.h - the grid model of the SDK.
 *
 * 81 cells, index 0..80, row-major. A cell is either solved (value 1..9) or
 * holds a 9-bit candidate mask (bit d-1 set when digit d is still possible).
 * Next to the cell masks the grid keeps, per digit, an 81-bit bitboard of the
 * cells where that digit is a candidate: fish and single-digit patterns want
 * bitboards, subsets want cell masks. sdk_grid_place() and sdk_grid_eliminate()
 * keep both views in sync; never write the arrays by hand.
 *
 * Houses are numbered 0..8 rows, 9..17 columns, 18..26 boxes. Text always says
 * r1c1..r9c9 and b1..b9.
 */
#ifndef SUDOKU_GRID_H
#define SUDOKU_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sudoku/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SDK_CELLS 81
#define SDK_HOUSES 27
#define SDK_ALL_DIGITS 0x1ffu

/* ---- bit counting ------------------------------------------------------- */

/* The one population count of the project. With the POPCNT instruction (the
 * default build on x86-64, SUDOKU_POPCNT) or on targets whose compilers
 * inline the builtin, the builtin; on x86-64 without POPCNT the builtin is a
 * call into libgcc, so count the bits in place instead. */
static inline int sdk_popcount64(uint64_t x)
{
#if defined(__POPCNT__) || !defined(__x86_64__)
    return __builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* ---- 81-bit bitboards: cells 0..63 in lo, 64..80 in hi ---------------- */

typedef struct sdk_bb {
    uint64_t lo, hi;
} sdk_bb;

static inline sdk_bb sdk_bb_none(void)
{
    return (sdk_bb){0, 0};
}
static inline sdk_bb sdk_bb_cell(int c)
{
    return c < 64 ? (sdk_bb){1ULL << c, 0} : (sdk_bb){0, 1ULL << (c - 64)};
}
static inline bool sdk_bb_has(sdk_bb b, int c)
{
    return c < 64 ? (b.lo >> c) & 1 : (b.hi >> (c - 64)) & 1;
}
static inline void sdk_bb_add(sdk_bb *b, int c)
{
    if (c < 64)
        b->lo |= 1ULL << c;
    else
        b->hi |= 1ULL << (c - 64);
}
static inline void sdk_bb_del(sdk_bb *b, int c)
{
    if (c < 64)
        b->lo &= ~(1ULL << c);
    else
        b->hi &= ~(1ULL << (c - 64));
}
static inline sdk_bb sdk_bb_and(sdk_bb a, sdk_bb b)
{
    return (sdk_bb){a.lo & b.lo, a.hi & b.hi};
}
static inline sdk_bb sdk_bb_or(sdk_bb a, sdk_bb b)
{
    return (sdk_bb){a.lo | b.lo, a.hi | b.hi};
}
static inline sdk_bb sdk_bb_andnot(sdk_bb a, sdk_bb b)
{
    return (sdk_bb){a.lo & ~b.lo, a.hi & ~b.hi};
}
static inline bool sdk_bb_empty(sdk_bb b)
{
    return (b.lo | b.hi) == 0;
}
static inline bool sdk_bb_eq(sdk_bb a, sdk_bb b)
{
    return a.lo == b.lo && a.hi == b.hi;
}
static inline bool sdk_bb_subset(sdk_bb a, sdk_bb b)
{
    return sdk_bb_empty(sdk_bb_andnot(a, b));
}
static inline int sdk_bb_count(sdk_bb b)
{
    return sdk_popcount64(b.lo) + sdk_popcount64(b.hi);
}
/* Lowest cell in b, or -1 when empty. */
static inline int sdk_bb_first(sdk_bb b)
{
    if (b.lo) return __builtin_ctzll(b.lo);
    if (b.hi) return 64 + __builtin_ctzll(b.hi);
    return -1;
}
/* Remove and return the lowest cell of *b (b must not be empty). */
static inline int sdk_bb_pop(sdk_bb *b)
{
    int c = sdk_bb_first(*b);
    sdk_bb_del(b, c);
    return c;
}
/* First cell of b after cell c, or -1. */
static inline int sdk_bb_next(sdk_bb b, int c)
{
    c++;
    if (c < 64) {
        uint64_t m = b.lo & (~0ULL << c);
        if (m) return __builtin_ctzll(m);
        return b.hi ? 64 + __builtin_ctzll(b.hi) : -1;
    }
    if (c >= 81) return -1;
    uint64_t m = b.hi & (~0ULL << (c - 64));
    return m ? 64 + __builtin_ctzll(m) : -1;
}
/* Visit every cell of a bitboard in increasing order; `break` works. bb is
 * evaluated on every step, so pass a variable. */
#define SDK_BB_FOREACH(cell, bb)                                                                   \
    for (int cell = sdk_bb_first(bb); cell >= 0; cell = sdk_bb_next((bb), cell))

/* ---- digit masks: bit d-1 is digit d ------------------------------------ */

static inline int sdk_mask_count(unsigned m)
{
    return sdk_popcount64(m);
}
static inline unsigned sdk_digit_bit(int d)
{
    return 1u << (d - 1);
}
/* Lowest digit of a non-empty mask. */
static inline int sdk_mask_first(unsigned m)
{
    return __builtin_ctz(m) + 1;
}
/* Visit every digit (1..9) of a mask in increasing order; `break` works. */
#define SDK_MASK_FOREACH(digit, mask)                                                              \
    for (int sdk__m_##digit = (int)(mask), digit = 0;                                              \
         sdk__m_##digit && (digit = __builtin_ctz((unsigned)sdk__m_##digit) + 1);                  \
         sdk__m_##digit &= sdk__m_##digit - 1)

/* ---- geometry ----------------------------------------------------------- */

SDK_API extern const uint8_t sdk_house_cell[SDK_HOUSES][9]; /* cells of each house, in order */
SDK_API extern const uint8_t sdk_cell_house[SDK_CELLS][3];  /* row, column, box house of a cell */
SDK_API extern const uint8_t sdk_cell_peer[SDK_CELLS][20];  /* the 20 peers of a cell */
SDK_API extern const sdk_bb sdk_house_bb[SDK_HOUSES];
SDK_API extern const sdk_bb sdk_peer_bb[SDK_CELLS];

static inline int sdk_row(int cell)
{
    return cell / 9;
}
static inline int sdk_col(int cell)
{
    return cell % 9;
}
static inline int sdk_box(int cell)
{
    return (cell / 27) * 3 + (cell % 9) / 3;
}
static inline int sdk_cell_at(int row, int col)
{
    return row * 9 + col;
}
static inline bool sdk_sees(int a, int b)
{
    return a != b && sdk_bb_has(sdk_peer_bb[a], b);
}
/* Cells that see every cell of set (the set's own cells excluded). */
SDK_API sdk_bb sdk_common_peers(sdk_bb set);

enum { SDK_ROW = 0, SDK_COL = 1, SDK_BOX = 2 };
static inline int sdk_house_type(int house)
{
    return house / 9;
}

/* ---- the grid ----------------------------------------------------------- */

typedef struct sdk_grid {
    uint8_t value[SDK_CELLS]; /* 0 empty, else 1..9 */
    uint8_t given[SDK_CELLS]; /* 1 when value is a clue, 0 when placed while solving */
    uint16_t cand[SDK_CELLS]; /* candidate mask of an empty cell; 0 for a solved cell */
    sdk_bb digit[9];          /* digit[d-1]: cells where d is a candidate */
    sdk_bb solved;            /* cells that hold a value */
} sdk_grid;

/* An empty grid: every cell empty with all nine candidates. */
SDK_API void sdk_grid_init(sdk_grid *g);
/* Put digit in cell and remove it from the cell's peers' candidates. */
SDK_API void sdk_grid_place(sdk_grid *g, int cell, int digit, bool given);
/* Remove a candidate; returns true when it was there. */
SDK_API bool sdk_grid_eliminate(sdk_grid *g, int cell, int digit);
static inline bool sdk_grid_has(const sdk_grid *g, int cell, int digit)
{
    return (g->cand[cell] >> (digit - 1)) & 1;
}
/* Cells of house h where digit d is a candidate. */
static inline sdk_bb sdk_house_digit(const sdk_grid *g, int h, int d)
{
    return sdk_bb_and(sdk_house_bb[h], g->digit[d - 1]);
}
/* Digits already placed somewhere in house h. */
SDK_API unsigned sdk_house_placed(const sdk_grid *g, int h);
SDK_API int sdk_grid_empty_count(const sdk_grid *g);
static inline bool sdk_grid_solved(const sdk_grid *g)
{
    return sdk_bb_count(g->solved) == 81;
}

/* Check that the grid is consistent: no digit twice in a house, every empty
 * cell has a candidate, every missing digit of a house has a place. On failure
 * returns false and writes a sentence naming the cells ("digit 5 twice in row 2
 * (r2c3, r2c8)", "r4c5 has no candidate left", "digit 3 has no place in
 * column 7"). */
SDK_API bool sdk_grid_check(const sdk_grid *g, char *why, size_t n);

/* Names: "r1c1" (buf >= 5), "row 2" / "column 7" / "box 3" (buf >= 10),
 * short house names "r2" / "c7" / "b3". */
SDK_API const char *sdk_cell_name(int cell, char *buf);
SDK_API const char *sdk_house_name(int house, char *buf);
SDK_API const char *sdk_house_short(int house, char *buf);

#ifdef __cplusplus
}
#endif
#endif
