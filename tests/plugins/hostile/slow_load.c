/* slow_load.c - a test plugin whose list function sleeps 20 s: loading it
 * hangs. A reload that adds it must be refused by name within the daemon's
 * load_timeout_ms while the old workers keep answering. */
#include <unistd.h>
#include "sudoku/technique.h"

static int find_nothing(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    (void)ctx, (void)g, (void)sink;
    return SDK_CONTINUE;
}

static const sdk_technique slow = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "slow-to-load",
    .name = "Slow To Load",
    .difficulty = 10,
    .find = find_nothing,
};
static const sdk_technique *const list[] = {&slow, NULL};

__attribute__((visibility("default"))) const sdk_technique *const *sudoku_techniques(void)
{
    sleep(20);
    return list;
}
