/* config.c - the INI config file and the plugin loader.
 *
 * The file is read in two passes: first every line into (section, key, value,
 * line number), so that any later complaint can say file:line; then plugins
 * are loaded (every *.so of plugin_dir, then each `plugin =`), and each
 * [profile NAME] section becomes an ordered technique list. A small parser of
 * our own (not inih) because every semantic error must carry its line. */
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sudoku/alloc.h"
#include "sudoku/cache.h"
#include "sudoku/host.h"

typedef struct conf_line {
    char section[64];
    char key[64];
    char value[SDK_CONFIG_VALUE_MAX];
    int line;
} conf_line;

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

/* One whole line of f into buf (its newline dropped): 1, 0 at the end of the
 * file, -1 when the line is longer than SDK_CONFIG_LINE_MAX (the rest of it is
 * read and dropped) or holds a NUL byte (-2). */
static int read_line(FILE *f, char *buf)
{
    size_t n = 0;
    int ch, rc = 1;
    bool any = false;
    while ((ch = getc(f)) != EOF) {
        any = true;
        if (ch == '\n') break;
        if (ch == 0 && rc == 1) rc = -2;
        if (n < SDK_CONFIG_LINE_MAX)
            buf[n++] = (char)ch;
        else if (rc == 1)
            rc = -1;
    }
    buf[n] = 0;
    return any ? rc : 0;
}

/* Read all key lines; false with err on a malformed line. Lines are read
 * whole (up to SDK_CONFIG_LINE_MAX bytes: a longer one is an error, never
 * cut in pieces), and every name and value must fit its field (no silent
 * truncation), so what the file says is what is read, at the line it is on.
 * name is what messages call the file. */
static bool read_lines(const char *path, const char *name, conf_line **out, int *nout,
                       sdk_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        sdk_error_set(err, SDK_E_CONFIG, "%s: cannot read: %s", name, strerror(errno));
        return false;
    }
    char *buf = sdk_xmalloc(SDK_CONFIG_LINE_MAX + 1), section[64] = "";
    int n = 0, cap = 0, lineno = 0, rc;
    conf_line *v = NULL;
    bool ok = true;
    while (ok && (rc = read_line(f, buf)) != 0) {
        lineno++;
        if (rc == -1) {
            sdk_error_set(err, SDK_E_CONFIG, "%s:%d: line longer than %d bytes", name, lineno,
                          SDK_CONFIG_LINE_MAX);
            ok = false;
            break;
        }
        if (rc == -2) {
            sdk_error_set(err, SDK_E_CONFIG, "%s:%d: the line holds a NUL byte", name, lineno);
            ok = false;
            break;
        }
        char *s = buf;
        /* Strip comments: ';' or '#' at the start or after whitespace. */
        for (char *q = s; *q; q++)
            if ((*q == ';' || *q == '#') && (q == s || isspace((unsigned char)q[-1]))) {
                *q = 0;
                break;
            }
        s = trim(s);
        if (!*s) continue;
        if (*s == '[') {
            char *e = strchr(s, ']');
            if (!e || e[1]) {
                sdk_error_set(err, SDK_E_CONFIG, "%s:%d: section header without closing ']'", name,
                              lineno);
                ok = false;
                break;
            }
            *e = 0;
            char *sec = trim(s + 1);
            if (strlen(sec) >= sizeof section) {
                sdk_error_set(err, SDK_E_CONFIG, "%s:%d: section name longer than %zu bytes", name,
                              lineno, sizeof section - 1);
                ok = false;
                break;
            }
            snprintf(section, sizeof section, "%s", sec);
            continue;
        }
        char *eq = strchr(s, '=');
        if (!eq) {
            sdk_error_set(err, SDK_E_CONFIG, "%s:%d: expected 'key = value', got '%.60s'", name,
                          lineno, s);
            ok = false;
            break;
        }
        if (!*section) {
            sdk_error_set(err, SDK_E_CONFIG, "%s:%d: key outside any [section]", name, lineno);
            ok = false;
            break;
        }
        *eq = 0;
        char *key = trim(s), *val = trim(eq + 1);
        if (strlen(key) >= sizeof v->key || strlen(val) >= sizeof v->value) {
            sdk_error_set(err, SDK_E_CONFIG, "%s:%d: %s longer than %zu bytes", name, lineno,
                          strlen(key) >= sizeof v->key ? "key" : "value",
                          (strlen(key) >= sizeof v->key ? sizeof v->key : sizeof v->value) - 1);
            ok = false;
            break;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            v = sdk_xrealloc(v, sizeof *v * (size_t)cap);
        }
        conf_line *l = &v[n++];
        snprintf(l->section, sizeof l->section, "%s", section);
        snprintf(l->key, sizeof l->key, "%s", key);
        snprintf(l->value, sizeof l->value, "%s", val);
        l->line = lineno;
    }
    free(buf);
    fclose(f);
    if (!ok) {
        free(v);
        return false;
    }
    *out = v;
    *nout = n;
    return true;
}

int sdk_parse_difficulty(const char *s)
{
    int whole = 0, frac = 0, digits = 0;
    const char *p = s;
    if (!isdigit((unsigned char)*p)) return -1;
    while (isdigit((unsigned char)*p)) {
        if (++digits > 3) return -1; /* before it can overflow */
        whole = whole * 10 + (*p++ - '0');
    }
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p)) return -1;
        frac = *p++ - '0';
    }
    return *p ? -1 : whole * 10 + frac;
}

bool sdk_options_parse(const char *text, sdk_options *o, char *why, size_t n)
{
    memset(o, 0, sizeof *o);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *t = strtok(buf, " \t,"); t; t = strtok(NULL, " \t,")) {
        if (o->n >= SDK_MAX_OPTIONS) {
            snprintf(why, n, "more than %d options", SDK_MAX_OPTIONS);
            return false;
        }
        char *eq = strchr(t, '=');
        if (eq) *eq = 0;
        if (!*t || strlen(t) >= sizeof o->kv[0].key) {
            snprintf(why, n, "bad option name '%.40s'", t);
            return false;
        }
        snprintf(o->kv[o->n].key, sizeof o->kv[0].key, "%s", t);
        snprintf(o->kv[o->n].val, sizeof o->kv[0].val, "%s", eq ? eq + 1 : "");
        o->n++;
    }
    return true;
}

static bool plugin_open(const char *path, sdk_plugin *pl, sdk_error *err);

static bool valid_id(const char *id)
{
    if (!id || !*id || !islower((unsigned char)*id)) return false;
    for (const char *p = id; *p; p++)
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '-') return false;
    return true;
}

static sdk_plugin_observer g_observer;
static void *g_observer_arg;

void sdk_config_observe_plugins(sdk_plugin_observer fn, void *arg)
{
    g_observer = fn;
    g_observer_arg = arg;
}

bool sdk_plugin_open(const char *path, sdk_plugin *pl, sdk_error *err)
{
    if (g_observer) g_observer(path, g_observer_arg);
    bool ok = plugin_open(path, pl, err);
    if (g_observer) g_observer(NULL, g_observer_arg);
    return ok;
}

static bool plugin_open(const char *path, sdk_plugin *pl, sdk_error *err)
{
    memset(pl, 0, sizeof *pl);
    snprintf(pl->path, sizeof pl->path, "%s", path);
    pl->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!pl->handle) {
        sdk_error_set(err, SDK_E_PLUGIN, "%s: cannot load: %s", path, dlerror());
        return false;
    }
    sdk_plugin_fn fn;
    *(void **)&fn = dlsym(pl->handle, SDK_PLUGIN_SYMBOL);
    if (!fn) {
        sdk_error_set(err, SDK_E_PLUGIN, "%s: no symbol '%s' (not a sudokud plugin?)", path,
                      SDK_PLUGIN_SYMBOL);
        sdk_plugin_close(pl);
        return false;
    }
    pl->list = fn();
    /* found in the plugin's dependencies: its libsudoku.so */
    *(void **)&pl->release_caches = dlsym(pl->handle, "sdk_cache_release_all");
    *(void **)&pl->forget_caches = dlsym(pl->handle, "sdk_cache_forget_module");
    if (!pl->list || !pl->list[0]) {
        sdk_error_set(err, SDK_E_PLUGIN, "%s: exports no technique", path);
        sdk_plugin_close(pl);
        return false;
    }
    for (int i = 0; pl->list[i]; i++) {
        const sdk_technique *t = pl->list[i];
        /* abi is the first field in every version, so it can be read from
         * any descriptor; nothing else is, until it matches. */
        if (t->abi != SDK_ABI_VERSION) {
            sdk_error_set(err, SDK_E_PLUGIN,
                          "%s: technique #%d was built for plugin ABI %u, this sudokud loads "
                          "ABI %u only: rebuild the plugin against this SDK (docs/PLUGINS.md)",
                          path, i + 1, t->abi, SDK_ABI_VERSION);
            sdk_plugin_close(pl);
            return false;
        }
        if (t->size < sizeof(sdk_technique)) {
            sdk_error_set(err, SDK_E_PLUGIN,
                          "%s: technique #%d has a descriptor of %u bytes, ABI %u needs %zu: "
                          "rebuild the plugin against this SDK (docs/PLUGINS.md)",
                          path, i + 1, t->size, SDK_ABI_VERSION, sizeof(sdk_technique));
            sdk_plugin_close(pl);
            return false;
        }
        if (!valid_id(t->id) || !t->name || !t->find) {
            sdk_error_set(err, SDK_E_PLUGIN, "%s: technique #%d has %s", path, i + 1,
                          !valid_id(t->id) ? "no kebab-case id"
                          : !t->name       ? "no name"
                                           : "no find function");
            sdk_plugin_close(pl);
            return false;
        }
    }
    return true;
}

void sdk_plugin_close(sdk_plugin *pl)
{
    if (pl->list) { /* its cache functions go with it (the list is its own) */
        if (pl->forget_caches) pl->forget_caches(pl->list);
        sdk_cache_forget_module(pl->list);
    }
    if (pl->handle) dlclose(pl->handle);
    pl->release_caches = NULL;
    pl->forget_caches = NULL;
    pl->handle = NULL;
    pl->list = NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool add_plugin(sdk_config *cfg, const char *path, const char *where, sdk_error *err)
{
    sdk_plugin pl;
    if (!sdk_plugin_open(path, &pl, err)) {
        if (where) {
            sdk_error e2 = *err;
            sdk_error_set(err, e2.code, "%s: %s", where, e2.msg);
        }
        return false;
    }
    for (int i = 0; pl.list[i]; i++) {
        const char *src;
        if (sdk_config_technique(cfg, pl.list[i]->id, &src)) {
            sdk_error_set(err, SDK_E_PLUGIN, "%s%sduplicate technique id '%s' in %s and %s",
                          where ? where : "", where ? ": " : "", pl.list[i]->id, src, path);
            sdk_plugin_close(&pl);
            return false;
        }
    }
    cfg->plugin = sdk_xrealloc(cfg->plugin, sizeof *cfg->plugin * (size_t)(cfg->nplugin + 1));
    cfg->plugin[cfg->nplugin++] = pl;
    return true;
}

static bool load_dir(sdk_config *cfg, sdk_error *err)
{
    DIR *d = opendir(cfg->plugin_dir);
    if (!d) {
        sdk_error_set(err, SDK_E_CONFIG, "%s: plugin_dir %s: %s", cfg->path, cfg->plugin_dir,
                      strerror(errno));
        return false;
    }
    char **names = NULL;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len > 3 && strcmp(de->d_name + len - 3, ".so") == 0) {
            names = sdk_xrealloc(names, sizeof *names * (size_t)(n + 1));
            names[n++] = strdup(de->d_name);
        }
    }
    closedir(d);
    if (n > 1) qsort(names, (size_t)n, sizeof *names, cmp_str); /* names is NULL when n is 0 */
    bool ok = true;
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", cfg->plugin_dir, names[i]);
        if (ok && !add_plugin(cfg, path, NULL, err)) ok = false;
        free(names[i]);
    }
    free(names);
    return ok;
}

/* path relative to the config's folder unless absolute. */
static void resolve(const char *cfgpath, const char *p, char *out, size_t n)
{
    if (p[0] == '/') {
        snprintf(out, n, "%s", p);
        return;
    }
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", cfgpath);
    snprintf(out, n, "%s/%s", dirname(tmp), p);
}

int sdk_config_max_workers(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    long max = SDK_WORKERS_PER_CORE * cores;
    return max < SDK_WORKERS_PER_CORE ? SDK_WORKERS_PER_CORE : max > 1024 ? 1024 : (int)max;
}

/* The numeric keys of [sudokud]: where the value goes, its range, and what
 * the error adds. Byte sizes may end in K, M or G (binary: 16M = 16 MiB). */
typedef struct num_key {
    const char *key;
    size_t off; /* offsetof in sdk_config */
    bool wide;  /* long long (else int) */
    bool bytes; /* K/M/G suffixes */
    long long lo, hi;
    bool zero_ok; /* 0 allowed below lo (it means none/off) */
    const char *note;
} num_key;

#define MiB (1LL << 20)
static const num_key num_keys[] = {
    {"workers", offsetof(sdk_config, workers), false, false, 0, 0, false, "0: one per core"},
    {"deadline_ms", offsetof(sdk_config, deadline_ms), false, false, 10, 86400000, false,
     "per puzzle"},
    {"max_connections", offsetof(sdk_config, max_connections), false, false, 1, 65536, false, NULL},
    {"max_connections_per_uid", offsetof(sdk_config, max_connections_per_uid), false, false, 1,
     65536, false, "at most max_connections"},
    {"max_queue", offsetof(sdk_config, max_queue), false, false, 1, 1000000, false, NULL},
    {"max_message", offsetof(sdk_config, max_message), false, true, 4096, 1LL << 30, false,
     "bytes of a message, parsed"},
    {"max_input_memory", offsetof(sdk_config, max_input_memory), true, true, MiB, 1LL << 40, false,
     "bytes, all connections"},
    {"max_output", offsetof(sdk_config, max_output), true, true, 65536, 1LL << 30, false,
     "unsent bytes per connection"},
    {"max_answer", offsetof(sdk_config, max_answer), true, true, 65536, 1LL << 30, false,
     "bytes of one answer"},
    {"max_trace", offsetof(sdk_config, max_trace), false, false, 1, 2000000, false, NULL},
    {"read_timeout_ms", offsetof(sdk_config, read_timeout_ms), false, false, 100, 3600000, false,
     NULL},
    {"idle_timeout_ms", offsetof(sdk_config, idle_timeout_ms), false, false, 100, 86400000, true,
     "0: never"},
    {"load_timeout_ms", offsetof(sdk_config, load_timeout_ms), false, false, 100, 600000, false,
     NULL},
    {"worker_memory", offsetof(sdk_config, worker_memory), true, true, 64 * MiB, 1LL << 40, true,
     "bytes, 0: no limit"},
    {"idle_exit", offsetof(sdk_config, idle_exit_ms), true, false, 1000, 7 * 86400000LL, true,
     "a duration: 600, 30s, 10m, 1h; 0 or off: never"},
};

static bool parse_duration_ms(const conf_line *l, const char *path, long long *out, sdk_error *err);

static bool parse_num(const num_key *k, const conf_line *l, const char *name, sdk_config *cfg,
                      sdk_error *err)
{
    if (!strcmp(k->key, "idle_exit")) { /* a duration with units, in ms */
        long long ms;
        if (!parse_duration_ms(l, name, &ms, err)) return false;
        if (ms != 0 && (ms < k->lo || ms > k->hi)) {
            sdk_error_set(err, SDK_E_CONFIG,
                          "%s:%d: %s must be off or from 1s to 7 days (%s), got '%s'", name,
                          l->line, l->key, k->note, l->value);
            return false;
        }
        *(long long *)((char *)cfg + k->off) = ms;
        return true;
    }
    long long lo = k->lo, hi = k->hi;
    char note[128];
    snprintf(note, sizeof note, "%s", k->note ? k->note : "");
    if (!strcmp(k->key, "workers")) {
        hi = sdk_config_max_workers();
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        snprintf(note, sizeof note, "0: one per core; at most %d per core, %ld core%s here",
                 SDK_WORKERS_PER_CORE, cores < 1 ? 1 : cores, cores == 1 ? "" : "s");
    }
    errno = 0;
    char *end;
    long long v = strtoll(l->value, &end, 10);
    bool ok = *l->value && end != l->value && errno == 0 && isdigit((unsigned char)*l->value);
    if (ok && k->bytes && *end) {
        int shift = *end == 'K' || *end == 'k'   ? 10
                    : *end == 'M' || *end == 'm' ? 20
                    : *end == 'G' || *end == 'g' ? 30
                                                 : -1;
        if (shift < 0 || end[1] || v > (1LL << 50))
            ok = false;
        else
            v <<= shift, end++;
    }
    if (ok && *end) ok = false;
    if (!ok || ((v < lo || v > hi) && !(k->zero_ok && v == 0))) {
        sdk_error_set(err, SDK_E_CONFIG,
                      "%s:%d: %s must be a whole number from %s%lld to %lld%s%s%s, got '%s'", name,
                      l->line, l->key, k->zero_ok ? "0 or " : "", lo, hi, *note ? " (" : "", note,
                      *note ? ")" : "", l->value);
        return false;
    }
    char *field = (char *)cfg + k->off;
    if (k->wide)
        *(long long *)field = v;
    else
        *(int *)field = (int)v;
    return true;
}

/* "600" (seconds), "30s", "10m", "1h", "250ms", "off" -> milliseconds. */
static bool parse_duration_ms(const conf_line *l, const char *path, long long *out, sdk_error *err)
{
    if (!strcmp(l->value, "off") || !strcmp(l->value, "never")) {
        *out = 0;
        return true;
    }
    char *end;
    errno = 0;
    double v = strtod(l->value, &end);
    double unit = !strcmp(end, "ms")                         ? 1
                  : !*end || !strcmp(end, "s")               ? 1000
                  : !strcmp(end, "m") || !strcmp(end, "min") ? 60000
                  : !strcmp(end, "h")                        ? 3600000
                                                             : -1;
    if (end == l->value || errno || !(v >= 0) || v > 1e7 || unit < 0) {
        sdk_error_set(err, SDK_E_CONFIG,
                      "%s:%d: %s must be a duration (600, 30s, 10m, 1h or off), got '%s'", path,
                      l->line, l->key, l->value);
        return false;
    }
    *out = (long long)(v * unit + 0.5);
    return true;
}

static sdk_profile *profile_by_name(sdk_config *cfg, const char *name)
{
    for (int i = 0; i < cfg->nprofile; i++)
        if (strcmp(cfg->profile[i].name, name) == 0) return &cfg->profile[i];
    return NULL;
}

static void set_defaults(sdk_config *cfg, const char *name)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->path, sizeof cfg->path, "%s", name);
    snprintf(cfg->default_profile, sizeof cfg->default_profile, "default");
    cfg->deadline_ms = 60000;
    cfg->max_connections = 256;
    cfg->max_queue = 4096;
    cfg->max_message = 16 << 20;
    cfg->max_input_memory = 256 * MiB;
    cfg->max_output = 32 * MiB;
    cfg->max_answer = 64 * MiB;
    cfg->max_trace = 2000000;
    cfg->read_timeout_ms = 10000;
    cfg->idle_timeout_ms = 600000;
    cfg->load_timeout_ms = 30000;
    cfg->worker_memory = 4096 * MiB;
    cfg->idle_exit_ms = -1;
}

/* Pass 1: the [sudokud] section (and that every section is known). */
static bool read_settings(const char *name, conf_line *lines, int n, sdk_config *cfg,
                          bool *have_dir, sdk_error *err)
{
    bool ok = true, per_uid = false;
    *have_dir = false;
    for (int i = 0; i < n && ok; i++) {
        conf_line *l = &lines[i];
        if (strcmp(l->section, "sudokud") != 0) {
            if (strncmp(l->section, "profile ", 8) != 0) {
                sdk_error_set(err, SDK_E_CONFIG,
                              "%s:%d: unknown section [%s] (expected [sudokud] or [profile NAME])",
                              name, l->line, l->section);
                ok = false;
            }
            continue;
        }
        const num_key *nk = NULL;
        for (size_t k = 0; k < sizeof num_keys / sizeof *num_keys; k++)
            if (!strcmp(l->key, num_keys[k].key)) nk = &num_keys[k];
        if (nk) {
            ok = parse_num(nk, l, name, cfg, err);
            per_uid |= !strcmp(l->key, "max_connections_per_uid");
        } else if (!strcmp(l->key, "plugin_dir")) {
            resolve(name, l->value, cfg->plugin_dir, sizeof cfg->plugin_dir);
            *have_dir = true;
        } else if (!strcmp(l->key, "default_profile")) {
            if (strlen(l->value) >= sizeof cfg->default_profile) {
                sdk_error_set(err, SDK_E_CONFIG, "%s:%d: default_profile longer than %zu bytes",
                              name, l->line, sizeof cfg->default_profile - 1);
                ok = false;
            }
            snprintf(cfg->default_profile, sizeof cfg->default_profile, "%s", l->value);
        } else if (!strcmp(l->key, "uniqueness")) {
            if (!strcmp(l->value, "on") || !strcmp(l->value, "off")) {
                cfg->no_uniqueness = !strcmp(l->value, "off");
            } else {
                sdk_error_set(err, SDK_E_CONFIG, "%s:%d: uniqueness must be on or off, got '%s'",
                              name, l->line, l->value);
                ok = false;
            }
        } else if (strcmp(l->key, "plugin") != 0) {
            sdk_error_set(err, SDK_E_CONFIG, "%s:%d: unknown key '%s' in [sudokud]", name, l->line,
                          l->key);
            ok = false;
        }
    }
    if (!ok) return false;
    if (!per_uid) cfg->max_connections_per_uid = (cfg->max_connections + 1) / 2;
    if (cfg->max_connections_per_uid > cfg->max_connections) {
        sdk_error_set(err, SDK_E_CONFIG,
                      "%s: max_connections_per_uid (%d) is more than max_connections (%d)", name,
                      cfg->max_connections_per_uid, cfg->max_connections);
        return false;
    }
    if (cfg->max_input_memory < cfg->max_message) {
        sdk_error_set(err, SDK_E_CONFIG,
                      "%s: max_input_memory (%lld) is less than max_message (%d): no message of "
                      "that size could arrive",
                      name, cfg->max_input_memory, cfg->max_message);
        return false;
    }
    return true;
}

bool sdk_config_read_settings(const char *path, const char *name, sdk_config *cfg, sdk_error *err)
{
    if (!name) name = path;
    set_defaults(cfg, name);
    conf_line *lines;
    int n;
    if (!read_lines(path, name, &lines, &n, err)) return false;
    bool have_dir;
    bool ok = read_settings(name, lines, n, cfg, &have_dir, err);
    free(lines);
    return ok;
}

bool sdk_config_load(const char *path, sdk_config *cfg, sdk_error *err)
{
    return sdk_config_load_named(path, NULL, cfg, err);
}

bool sdk_config_load_named(const char *path, const char *name, sdk_config *cfg, sdk_error *err)
{
    if (!name) name = path;
    set_defaults(cfg, name);
    conf_line *lines;
    int n;
    if (!read_lines(path, name, &lines, &n, err)) return false;
    bool have_dir;
    bool ok = read_settings(name, lines, n, cfg, &have_dir, err);
    if (ok && have_dir) ok = load_dir(cfg, err);
    for (int i = 0; i < n && ok; i++) {
        conf_line *l = &lines[i];
        if (strcmp(l->section, "sudokud") != 0 || strcmp(l->key, "plugin") != 0) continue;
        char p[1024], where[600];
        resolve(name, l->value, p, sizeof p);
        snprintf(where, sizeof where, "%s:%d", name, l->line);
        ok = add_plugin(cfg, p, where, err);
    }
    /* Pass 2: profiles. */
    for (int i = 0; i < n && ok; i++) {
        conf_line *l = &lines[i];
        if (strcmp(l->section, "sudokud") == 0) continue;
        const char *pname = trim(l->section + 8);
        sdk_profile *p = profile_by_name(cfg, pname);
        if (!p) {
            cfg->profile =
                sdk_xrealloc(cfg->profile, sizeof *cfg->profile * (size_t)(cfg->nprofile + 1));
            p = &cfg->profile[cfg->nprofile++];
            memset(p, 0, sizeof *p);
            snprintf(p->name, sizeof p->name, "%s", pname);
            p->no_uniqueness = cfg->no_uniqueness;
        }
        if (!strcmp(l->key, "scan")) { /* a profile setting, not a technique */
            p->scan = sdk_scan_parse(l->value);
            if (p->scan < 0) {
                sdk_error_set(err, SDK_E_CONFIG, "%s:%d: scan must be step or grid, got '%s'", name,
                              l->line, l->value);
                ok = false;
                break;
            }
            continue;
        }
        const char *src;
        const sdk_technique *t = sdk_config_technique(cfg, l->key, &src);
        if (!t) {
            sdk_error_set(err, SDK_E_TECHNIQUE,
                          "%s:%d: technique '%s' is in no loaded plugin (plugin_dir %s)", name,
                          l->line, l->key, cfg->plugin_dir[0] ? cfg->plugin_dir : "not set");
            ok = false;
            break;
        }
        if (sdk_profile_find(p, l->key) >= 0) {
            sdk_error_set(err, SDK_E_CONFIG, "%s:%d: technique '%s' named twice in profile %s",
                          name, l->line, l->key, p->name);
            ok = false;
            break;
        }
        sdk_options o;
        char why[128];
        if (!sdk_options_parse(l->value, &o, why, sizeof why)) {
            sdk_error_set(err, SDK_E_CONFIG, "%s:%d: %s", name, l->line, why);
            ok = false;
            break;
        }
        int difficulty = -1;
        sdk_options rest = {0};
        for (int k = 0; k < o.n; k++) {
            if (!strcmp(o.kv[k].key, "scan") && sdk_scan_parse(o.kv[k].val) < 0) {
                sdk_error_set(err, SDK_E_CONFIG, "%s:%d: scan must be step or grid, got '%s'", name,
                              l->line, o.kv[k].val);
                ok = false;
            } else if (!strcmp(o.kv[k].key, "pick") && sdk_pick_parse(o.kv[k].val) < 0) {
                sdk_error_set(err, SDK_E_CONFIG,
                              "%s:%d: pick must be first, best, easiest, digit, tabling, "
                              "ns-queue or hs-queue, got '%s'",
                              name, l->line, o.kv[k].val);
                ok = false;
            } else if (!strcmp(o.kv[k].key, "difficulty")) {
                difficulty = sdk_parse_difficulty(o.kv[k].val);
                if (difficulty < 0) {
                    sdk_error_set(err, SDK_E_CONFIG,
                                  "%s:%d: difficulty must look like 3.2, got '%s'", name, l->line,
                                  o.kv[k].val);
                    ok = false;
                }
            } else {
                rest.kv[rest.n++] = o.kv[k];
            }
        }
        if (ok) sdk_profile_add(p, t, &rest, difficulty, src);
    }
    if (ok && !profile_by_name(cfg, cfg->default_profile)) {
        sdk_error_set(err, SDK_E_PROFILE, "%s: default profile '%s' is not defined", name,
                      cfg->default_profile);
        ok = false;
    }
    free(lines);
    if (!ok) sdk_config_free(cfg);
    return ok;
}

void sdk_config_release_caches(const sdk_config *cfg)
{
    sdk_cache_release_all(); /* the host's own registry (static libsudoku) */
    for (int i = 0; i < cfg->nplugin; i++) {
        void (*release)(void) = cfg->plugin[i].release_caches;
        bool done = !release || release == sdk_cache_release_all;
        for (int k = 0; k < i && !done; k++) done = cfg->plugin[k].release_caches == release;
        if (!done) release();
    }
}

void sdk_config_free(sdk_config *cfg)
{
    for (int i = 0; i < cfg->nprofile; i++) sdk_profile_free(&cfg->profile[i]);
    free(cfg->profile);
    for (int i = 0; i < cfg->nplugin; i++) sdk_plugin_close(&cfg->plugin[i]);
    free(cfg->plugin);
    cfg->profile = NULL;
    cfg->plugin = NULL;
    cfg->nprofile = cfg->nplugin = 0;
}

const sdk_profile *sdk_config_profile(const sdk_config *cfg, const char *name)
{
    if (!name || !*name) name = cfg->default_profile;
    for (int i = 0; i < cfg->nprofile; i++)
        if (strcmp(cfg->profile[i].name, name) == 0) return &cfg->profile[i];
    return NULL;
}

const sdk_technique *sdk_config_technique(const sdk_config *cfg, const char *id,
                                          const char **source)
{
    for (int i = 0; i < cfg->nplugin; i++)
        for (int k = 0; cfg->plugin[i].list[k]; k++)
            if (strcmp(cfg->plugin[i].list[k]->id, id) == 0) {
                if (source) *source = cfg->plugin[i].path;
                return cfg->plugin[i].list[k];
            }
    return NULL;
}
