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
