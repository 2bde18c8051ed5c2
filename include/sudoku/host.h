/* sudoku/host.h - the config file and the plugin loader.
 *
 * The config is an INI file:
 *
 *     [sudokud]
 *     plugin_dir = /usr/lib/sudokud/plugins   ; relative paths: from the config's folder
 *     plugin = /opt/extra/my-technique.so     ; further plugins (repeatable)
 *     workers = 0                             ; 0: one per core (at most 4 per core)
 *     default_profile = default
 *     uniqueness = on                         ; off: uniqueness techniques never act
 *     max_message = 16M                       ; limits: conf/sudokud.conf lists them
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
 * version, duplicate id, id named in no plugin, bad line (file:line), a line
 * longer than SDK_CONFIG_LINE_MAX, a number out of its range (the range is in
 * the message).
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
    /* the cache registry the plugin registers in (sudoku/cache.h): that of
     * the libsudoku.so it links, NULL when it links none */
    void (*release_caches)(void);
    void (*forget_caches)(const void *addr);
} sdk_plugin;

/* Lines are read whole up to this many bytes (a longer one is an error). */
#define SDK_CONFIG_LINE_MAX 4096
#define SDK_CONFIG_VALUE_MAX 512
/* `workers` may be at most this many per core (sdk_config_max_workers). */
#define SDK_WORKERS_PER_CORE 4

typedef struct sdk_config {
    char path[512]; /* the name messages use (and relative paths start from) */
    char plugin_dir[512];
    char default_profile[48];
    int workers;     /* 0: one per core; at most SDK_WORKERS_PER_CORE x cores */
    int deadline_ms; /* per puzzle */
    int max_connections;
    int max_connections_per_uid;
    int max_queue;
    int max_message;            /* bytes a message may take while parsed */
    int max_trace;              /* the largest max_trace a request may ask for */
    int read_timeout_ms;        /* an incomplete message */
    int idle_timeout_ms;        /* a connection with nothing in flight, 0: never */
    int load_timeout_ms;        /* loading the plugins, in a worker */
    long long max_input_memory; /* incomplete messages, all connections */
    long long max_output;       /* unsent answers per connection before its jobs wait */
    long long max_answer;       /* bytes of one answer (a whole batch) */
    long long worker_memory;    /* a worker's data limit (RLIMIT_DATA), 0: none */
    bool no_uniqueness;         /* uniqueness = off */
    long long idle_exit_ms;     /* idle_exit = 10m (a daemon started on demand), -1: not set */
    int nplugin;
    sdk_plugin *plugin;
    int nprofile;
    sdk_profile *profile;
} sdk_config;

/* Load the config and its plugins. On error fills err (msg "file:line: ...")
 * and returns false; cfg is then empty. */
bool sdk_config_load(const char *path, sdk_config *cfg, sdk_error *err);
/* The same, reading path but naming the file `name` in messages and
 * resolving relative paths from name's folder (a copy read through a file
 * descriptor keeps its meaning). name NULL: path. */
bool sdk_config_load_named(const char *path, const char *name, sdk_config *cfg, sdk_error *err);
/* Only the [sudokud] settings, checked (every line read, sections known);
 * no plugin is loaded, so no plugin code runs. cfg needs no free. */
bool sdk_config_read_settings(const char *path, const char *name, sdk_config *cfg, sdk_error *err);
/* The largest `workers` this machine accepts. */
int sdk_config_max_workers(void);
/* Called with a plugin's path before it is loaded (its constructors and its
 * list function run) and with NULL after: a worker tells its daemon which
 * plugin it is in, should that plugin kill or hang it. */
typedef void (*sdk_plugin_observer)(const char *path, void *arg);
void sdk_config_observe_plugins(sdk_plugin_observer fn, void *arg);
void sdk_config_free(sdk_config *cfg);
/* Free the calling thread's caches (sudoku/cache.h): the host's own and
 * those registered in the libsudoku.so the plugins link. Between requests
 * only, never during a find. */
void sdk_config_release_caches(const sdk_config *cfg);
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
