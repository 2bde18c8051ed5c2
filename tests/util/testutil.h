/* testutil.h - helpers shared by the tests: where the data and the build are,
 * reading a puzzle file, loading the build tree's config. */
#ifndef SUDOKU_TESTUTIL_H
#define SUDOKU_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "sudoku/host.h"

/* $SUDOKU_DATA/name (the shared data folder). */
const char *tu_data_path(const char *name);
/* $SUDOKU_REGLIB/name. */
const char *tu_reglib_path(const char *name);
/* Read up to max puzzles (81-char lines) of a data file, every `stride`-th.
 * Returns the count; *out is malloc'd, 81 values per puzzle. */
int tu_read_puzzles(const char *name, int max, int stride, uint8_t (**out)[81]);
/* Load the build tree's default config (fails the test on error). */
void tu_load_config(sdk_config *cfg);

#endif
