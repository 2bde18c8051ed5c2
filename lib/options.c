/* options.c - a technique's options as find() reads them: the key=value
 * pairs of its profile line (sdk_options, parsed by the config reader),
 * looked up by key with a default. Part of the plugin SDK (technique.h). */
#include <stdlib.h>
#include <string.h>
#include "sudoku/technique.h"

const char *sdk_opt(const sdk_ctx *ctx, const char *key)
{
    if (!ctx || !ctx->opts) return NULL;
    for (int i = 0; i < ctx->opts->n; i++)
        if (strcmp(ctx->opts->kv[i].key, key) == 0) return ctx->opts->kv[i].val;
    return NULL;
}

int sdk_opt_int(const sdk_ctx *ctx, const char *key, int def)
{
    const char *v = sdk_opt(ctx, key);
    if (!v || !*v) return def;
    char *end;
    long x = strtol(v, &end, 10);
    return *end ? def : (int)x;
}

bool sdk_opt_bool(const sdk_ctx *ctx, const char *key, bool def)
{
    const char *v = sdk_opt(ctx, key);
    if (!v) return def;
    if (!*v || !strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on"))
        return true;
    return false;
}
