/* sudoku/host.h - the config file and the plugin loader.
 *
 * The config is an INI file:
 *
 *     [sudokud]
 *     plugin_dir = /usr/lib/sudokud/plugins   ; relative paths: from the config's folder
 *     plugin = /opt/extra/my-technique.so     ; further plugins (repeatable)
 *     workers = 0                             ; 0: one per core
 *     default_profile = default
 *     uniqueness = on                         ; off: uniqueness techniques never act
 *
 *     [profile default]
 *     full-house =
 *     hidden-single-box = difficulty=1.2
 *     fish = max-size=4
 *     bifurcation =
 *
 * Every `*.so` in plugin_dir and every `plugin =` is loaded; each profile lists
 * technique ids in the order the engine tries them, each with options. Loading
 * refuses with a precise message: unreadable file, missing symbol, wrong ABI
 * version, duplicate id, id named in no plugin, bad line (file:line).
 */
#ifndef SUDOKU_HOST_H
#define SUDOKU_HOST_H

#include "sudoku/engine.h"
#include "sudoku/format.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sdk_plugin {
    char path[512];
    void *handle;
    const sdk_technique *const *list;
} sdk_plugin;

typedef struct sdk_config {
    char path[512];
    char plugin_dir[512];
    char default_profile[48];
    int workers;               /* 0: one per core */
    int deadline_ms;           /* per request, 0: none */
    int max_connections;
    int max_queue;
    int max_message;           /* bytes */
    bool no_uniqueness;        /* uniqueness = off */
    long long idle_exit_ms;    /* idle_exit = 10m (a daemon started on demand), -1: not set */
    int nplugin;
    sdk_plugin *plugin;
    int nprofile;
    sdk_profile *profile;
} sdk_config;

/* Load the config and its plugins. On error fills err (msg "file:line: ...")
 * and returns false; cfg is then empty. */
bool sdk_config_load(const char *path, sdk_config *cfg, sdk_error *err);
void sdk_config_free(sdk_config *cfg);
/* A profile by name; NULL or "" names the default. */
const sdk_profile *sdk_config_profile(const sdk_config *cfg, const char *name);
/* Every loaded technique, in plugin order. */
const sdk_technique *sdk_config_technique(const sdk_config *cfg, const char *id,
                                          const char **source);

/* Load one plugin file (used by the config and by tests). */
bool sdk_plugin_open(const char *path, sdk_plugin *pl, sdk_error *err);
void sdk_plugin_close(sdk_plugin *pl);

/* Parse "max-size=4 difficulty=3.2 flag" into options. */
bool sdk_options_parse(const char *text, sdk_options *o, char *why, size_t n);
/* "3.2" -> 32; returns -1 when not a number with at most one decimal. */
int sdk_parse_difficulty(const char *s);

#ifdef __cplusplus
}
#endif
#endif
