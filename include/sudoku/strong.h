/* sudoku/strong.h - strong links (conjugate pairs) of one digit.
 *
 * A house holding exactly two candidates of a digit links them strongly: one
 * of the two is the digit. Single-digit patterns (skyscraper, kite, turbot
 * fish, X-chains), colouring and the sudokilo "bracket" are built from these.
 */
#ifndef SUDOKU_STRONG_H
#define SUDOKU_STRONG_H

#include "sudoku/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The other cell of house h holding digit d when h holds exactly two
 * candidates of d and cell is one of them; -1 otherwise. */
SDK_API int sdk_strong_partner(const sdk_grid *g, int d, int cell, int house);

/* True when a and b are the only two candidates of d in some house they share. */
SDK_API bool sdk_strong_link(const sdk_grid *g, int d, int a, int b);

/* The strong-link graph of digit d: strong[c] is the set of cells strongly
 * linked to c (empty for cells without d). Returns the number of cells that
 * have at least one strong link. */
SDK_API int sdk_strong_graph(const sdk_grid *g, int d, sdk_bb strong[SDK_CELLS]);

/* The houses of the given type (SDK_ROW, SDK_COL, SDK_BOX) holding exactly
 * two candidates of d, as a 9-bit mask of house indices within the type. */
SDK_API unsigned sdk_strong_houses(const sdk_grid *g, int d, int type);

#ifdef __cplusplus
}
#endif
#endif
