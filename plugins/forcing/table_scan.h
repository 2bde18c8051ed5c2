/* table_scan.h - which contradiction a premise's table shows, read a row of
 * the grid at a time (see table_scan.c). */
#ifndef FORCING_TABLE_SCAN_H
#define FORCING_TABLE_SCAN_H

#include "sudoku/grid.h"
#include "forcing_private.h"

/* The grid's side of the scan, made once per position: per row its
 * candidates as 81 bits (cell-major, as a cset: bit 9 * i + d - 1 for the
 * row's i-th cell and digit d) in two words (cells 0-6, cells 7-8), the
 * empty cells as the first bit of their nine, and the digits each house
 * holds as candidates. */
typedef struct table_scan_grid {
    uint64_t cand_lo[9], cand_hi[9];
    uint64_t empty_lo[9], empty_hi[9];
    uint16_t present[27];
} table_scan_grid;

void table_scan_grid_init(table_scan_grid *sg, const sdk_grid *g);

/* The kind of contradiction the table (on, off) shows, in the order and with
 * the numbers of forcing.c's table_contradiction(): 2 a candidate both true
 * and false, 4 an empty cell with every candidate false, 6 a house's digit
 * with every place false; 0 for none. */
int table_scan(const table_scan_grid *sg, const cset *on, const cset *off);

#endif
