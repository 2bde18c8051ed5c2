/* bad_abi.c - a plugin built for another ABI version: the loader must refuse it. */
#include "sudoku/technique.h"

static int find_nothing(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    (void)ctx, (void)g, (void)sink;
    return SDK_CONTINUE;
}

static const sdk_technique future = {
    .abi = SDK_ABI_VERSION + 1,
    .size = sizeof(sdk_technique),
    .id = "from-the-future",
    .name = "From the Future",
    .difficulty = 10,
    .find = find_nothing,
};
SDK_PLUGIN(&future)
