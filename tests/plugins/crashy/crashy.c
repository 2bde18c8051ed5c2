/* crashy.c - a test-only plugin for sudokud's fault handling. Two techniques
 * that do nothing on every puzzle but one:
 *   crash-test  aborts (SIGABRT) on CRASHY_CRASH_PUZZLE,
 *   hang-test   spins forever on CRASHY_HANG_PUZZLE (for the deadline).
 * A puzzle is recognised by its givens, so it works at every step. The
 * config tests use is build/test-plugins/crashy.conf (these two first, then
 * the usual singles). */
#include <stdlib.h>
#include "sudoku/technique.h"

/* kaggle_10k.txt lines 2 and 3 (singles solve both). */
#define CRASHY_CRASH_PUZZLE                                                                        \
    "6..12.384..8459.72.....6..5...264.3..7..8...694...3...31.....5..897.....5.2...19."
#define CRASHY_HANG_PUZZLE                                                                         \
    "4972.....1..4....5....16.9862.3...4.3..9.......1.726....2..587....6....453..97.61"

static bool is_puzzle(const sdk_grid *g, const char *p)
{
    for (int c = 0; c < 81; c++) {
        int want = p[c] >= '1' && p[c] <= '9' ? p[c] - '0' : 0;
        int have = g->given[c] ? g->value[c] : 0;
        if (want != have) return false;
    }
    return true;
}

static int find_crash(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    (void)ctx, (void)sink;
    if (is_puzzle(g, CRASHY_CRASH_PUZZLE)) abort();
    return SDK_CONTINUE;
}

static int find_hang(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    (void)ctx, (void)sink;
    if (is_puzzle(g, CRASHY_HANG_PUZZLE))
        for (volatile unsigned long spin = 0;; spin++) {
        }
    return SDK_CONTINUE;
}

static const sdk_technique crash_test = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "crash-test",
    .name = "Crash Test",
    .difficulty = 10,
    .score = 0,
    .level = SDK_LEVEL_EASY,
    .find = find_crash,
    .summary = "test only: aborts on one puzzle",
};

static const sdk_technique hang_test = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "hang-test",
    .name = "Hang Test",
    .difficulty = 10,
    .score = 0,
    .level = SDK_LEVEL_EASY,
    .find = find_hang,
    .summary = "test only: never returns on one puzzle",
};

SDK_PLUGIN(&crash_test, &hang_test)
