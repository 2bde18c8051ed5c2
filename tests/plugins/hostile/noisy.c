/* noisy.c - a test plugin that writes to stderr every time it runs (50
 * lines): the daemon's log must not be flooded with it. */
#include <stdio.h>
#include "sudoku/technique.h"

static int find_noise(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    (void)ctx, (void)g, (void)sink;
    for (int i = 0; i < 50; i++) fprintf(stderr, "noisy: looking at the grid, line %d\n", i);
    return SDK_CONTINUE;
}

static const sdk_technique noisy = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "noisy",
    .name = "Noisy",
    .difficulty = 10,
    .find = find_noise,
};
SDK_PLUGIN(&noisy)
