/* memhog.c - a test plugin that allocates (and touches) 64 MiB blocks until
 * an allocation fails, then writes through the NULL it got, as careless code
 * does. Under sudokud's worker_memory limit that is a clear
 * `memory-exceeded`. It never takes more than 2 GiB (without a limit it
 * gives up and finds nothing). */
#include <stdlib.h>
#include <string.h>
#include "sudoku/technique.h"

#define BLOCK ((size_t)64 << 20)

static int find_hog(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    (void)ctx, (void)g, (void)sink;
    void *blocks[32];
    int n = 0;
    for (; n < 32; n++) {
        blocks[n] = malloc(BLOCK);
        if (!blocks[n]) {
            volatile char *p = blocks[n];
            p[0] = 1; /* the careless write */
        }
        memset(blocks[n], 1, BLOCK);
    }
    while (n > 0) free(blocks[--n]);
    return SDK_CONTINUE;
}

static const sdk_technique memhog = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "memhog",
    .name = "Memory Hog",
    .difficulty = 10,
    .find = find_hog,
};
SDK_PLUGIN(&memhog)
