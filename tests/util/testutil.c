/* testutil.c - see testutil.h. */
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *env_or(const char *name, const char *def)
{
    const char *v = getenv(name);
    return v && *v ? v : def;
}

const char *tu_data_path(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s", env_or("SUDOKU_DATA", "../shared/data"), name);
    return buf;
}

const char *tu_reglib_path(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s", env_or("SUDOKU_REGLIB", "../shared/reglib"), name);
    return buf;
}

const char *tu_source_path(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s", env_or("SUDOKU_SOURCE", "."), name);
    return buf;
}

int tu_read_puzzles(const char *name, int max, int stride, uint8_t (**out)[81])
{
    FILE *f = fopen(tu_data_path(name), "r");
    if (!f) fail_msg("cannot open %s", tu_data_path(name));
    uint8_t(*p)[81] = malloc(sizeof *p * (size_t)max);
    char line[512];
    int n = 0;
    long k = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strlen(line) < 81) continue;
        if (k++ % stride) continue;
        for (int i = 0; i < 81; i++)
            p[n][i] = (line[i] >= '1' && line[i] <= '9') ? (uint8_t)(line[i] - '0') : 0;
        n++;
    }
    fclose(f);
    *out = p;
    return n;
}

void tu_load_config(sdk_config *cfg)
{
    sdk_error err;
    const char *path = env_or("SUDOKU_CONF", "build/etc/sudokud/sudokud.conf");
    if (!sdk_config_load(path, cfg, &err)) fail_msg("config %s: %s", path, err.msg);
}

/* ---- plugins ------------------------------------------------------------ */

#define TU_MAX_PLUGINS 16
static sdk_plugin tu_plugins[TU_MAX_PLUGINS];
static char tu_plugin_names[TU_MAX_PLUGINS][64];
static int tu_nplugins;

void tu_plugin_register(const char *name, const sdk_technique *const *list)
{
    if (tu_nplugins == TU_MAX_PLUGINS) fail_msg("too many plugins open");
    snprintf(tu_plugin_names[tu_nplugins], sizeof tu_plugin_names[0], "%s", name);
    tu_plugins[tu_nplugins++].list = list;
}

const sdk_technique *const *tu_plugin(const char *name)
{
    for (int i = 0; i < tu_nplugins; i++)
        if (!strcmp(tu_plugin_names[i], name)) return tu_plugins[i].list;
    if (tu_nplugins == TU_MAX_PLUGINS) fail_msg("too many plugins open");
    char path[1024];
    snprintf(path, sizeof path, "%s/lib/sudokud/plugins/%s.so", env_or("SUDOKU_BUILD", "build"),
             name);
    sdk_error err;
    if (!sdk_plugin_open(path, &tu_plugins[tu_nplugins], &err)) return NULL;
    snprintf(tu_plugin_names[tu_nplugins], sizeof tu_plugin_names[0], "%s", name);
    return tu_plugins[tu_nplugins++].list;
}

const sdk_technique *tu_tech(const char *plugin, const char *id)
{
    const sdk_technique *const *l = tu_plugin(plugin);
    if (!l) fail_msg("cannot load plugin %s from $SUDOKU_BUILD", plugin);
    for (int i = 0; l[i]; i++)
        if (!strcmp(l[i]->id, id)) return l[i];
    fail_msg("technique %s not in plugin %s", id, plugin);
    return NULL;
}

/* ---- collecting steps --------------------------------------------------- */

int tu_collect(void *ctx, const sdk_step *s)
{
    tu_steps *st = ctx;
    if (st->n == st->cap) {
        st->cap = st->cap ? st->cap * 2 : 16;
        st->s = realloc(st->s, sizeof *st->s * (size_t)st->cap);
        assert_non_null(st->s);
    }
    st->s[st->n++] = *s;
    return st->limit && st->n >= st->limit ? SDK_STOP : SDK_CONTINUE;
}

int tu_find_all(const sdk_technique *t, const char *opts, const sdk_grid *g, tu_steps *out)
{
    sdk_options o;
    memset(&o, 0, sizeof o);
    char why[128];
    if (opts && *opts && !sdk_options_parse(opts, &o, why, sizeof why))
        fail_msg("options '%s' of %s: %s", opts, t->id, why);
    sdk_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.self = t;
    ctx.opts = &o;
    ctx.unique = true;
    sdk_sink sink = {tu_collect, out};
    out->n = 0;
    return t->find(&ctx, g, &sink);
}

void tu_steps_free(tu_steps *st)
{
    free(st->s);
    st->s = NULL;
    st->n = st->cap = 0;
}
