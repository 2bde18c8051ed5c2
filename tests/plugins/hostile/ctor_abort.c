/* ctor_abort.c - a test plugin whose ELF constructor aborts: whoever loads
 * it dies. sudokud's master must never load it; a reload that adds it is
 * refused by name and the daemon keeps serving. */
#include <stdlib.h>
#include "sudoku/technique.h"

__attribute__((constructor)) static void die_on_load(void)
{
    abort();
}

static int find_nothing(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    (void)ctx, (void)g, (void)sink;
    return SDK_CONTINUE;
}

static const sdk_technique abort_on_load = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "abort-on-load",
    .name = "Abort On Load",
    .difficulty = 10,
    .find = find_nothing,
};
SDK_PLUGIN(&abort_on_load)
