/* small_size.c - a descriptor that claims this ABI but is smaller than the
 * sdk_technique the host knows (a plugin built from a stale or hand-made
 * header): the loader must refuse it. */
#include "sudoku/technique.h"

static int find_nothing(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    (void)ctx, (void)g, (void)sink;
    return SDK_CONTINUE;
}

static const sdk_technique short_one = {
    .abi = SDK_ABI_VERSION,
    .size = offsetof(sdk_technique, data),
    .id = "too-short",
    .name = "Too Short",
    .difficulty = 10,
    .find = find_nothing,
};
SDK_PLUGIN(&short_one)
