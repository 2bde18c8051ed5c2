/* life.c - what a daemon one lives with needs beyond serving: a private
 * per-user socket folder when there is no XDG_RUNTIME_DIR (like tmux's
 * /tmp/tmux-UID: ours, mode 0700, checked before use), an idle exit for
 * daemons started on demand, what a reload changed (techniques and profiles
 * added or removed, profiles changed), and noticing a plugin file replaced
 * on disk.
 *
 * Plugins on disk: a worker maps each plugin .so. `install` (or `cp` to a
 * new name and `mv`) makes a new file: the old mapping stays valid but runs
 * the old code; `cp` over the file rewrites the mapped pages under the
 * workers, and the next call into the plugin crashes. So before a request
 * goes to the workers, the daemon compares each plugin's (device, inode,
 * size, mtime) with what it was when the config was loaded; a difference
 * reloads the config, so that the request is served by a new generation of
 * workers that mapped the new files. An inotify watch on the plugins'
 * folders (and files: a symbolic link's target may live elsewhere) says
 * when to look: a change queues an event at once, so while none came a
 * request costs one read() rather than a stat() of every plugin (a tenth of
 * the daemon's syscalls on a solve batch). Without a watch (inotify's limits
 * reached), and every PLUGIN_RECHECK_MS anyway, it looks at most every
 * PLUGIN_CHECK_MS. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>
#include "daemon.h"
#include "workers.h"
#include "sudoku/host.h"

/* ---- the socket's folder --------------------------------------------------- */

static void private_dir_name(char *out, size_t n)
{
    sdk_wire_private_dir(out, n);
}

void life_default_socket(char *out, size_t n, bool system_mode)
{
    sdk_wire_default_socket(system_mode, out, n);
}

bool life_is_private_default(const char *path)
{
    char want[4096];
    private_dir_name(want, sizeof want - 1);
    strcat(want, "/");
    return !strncmp(path, want, strlen(want)) && !strchr(path + strlen(want), '/');
}

bool life_private_dir(const char *dir, char *why, size_t n)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(why, n, "cannot create %s: %s", dir, strerror(errno));
        return false;
    }
    struct stat st;
    if (lstat(dir, &st) != 0) {
        snprintf(why, n, "%s: %s", dir, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, n, "%s is not a directory (a symbolic link or a file put there by someone)",
                 dir);
        return false;
    }
    if (st.st_uid != getuid()) {
        snprintf(why, n, "%s belongs to uid %u, not to us (uid %u): not using it", dir,
                 (unsigned)st.st_uid, (unsigned)getuid());
        return false;
    }
    if (st.st_mode & 077) {
        snprintf(why, n,
                 "%s has mode %04o: others could reach the socket; it must be 0700 "
                 "(chmod 700 %s)",
                 dir, (unsigned)(st.st_mode & 07777), dir);
        return false;
    }
    return true;
}

/* ---- idle exit --------------------------------------------------------------- */

static uv_timer_t idle_timer;
static bool idle_on;
static uint64_t idle_ms, idle_since;

static void on_idle_tick(uv_timer_t *t)
{
    (void)t;
    uint64_t now = now_ms();
    if (server_connections() > 0 || workers_jobs() > 0 || D.draining) {
        idle_since = now;
        return;
    }
    if (now - idle_since < idle_ms) return;
    log_info("idle for %llu s (idle_exit): exiting", (unsigned long long)(idle_ms / 1000));
    daemon_begin_drain();
}

void life_idle_start(uint64_t ms)
{
    if (!ms || idle_on) return;
    idle_ms = ms;
    idle_since = now_ms();
    uv_timer_init(D.loop, &idle_timer);
    uint64_t tick = ms / 4 < 1000 ? (ms / 4 ? ms / 4 : 1) : 1000;
    uv_timer_start(&idle_timer, on_idle_tick, tick, tick);
    idle_on = true;
}

void life_idle_stop(void)
{
    if (!idle_on) return;
    idle_on = false;
    uv_timer_stop(&idle_timer);
    uv_close((uv_handle_t *)&idle_timer, NULL);
}

bool life_parse_duration(const char *s, uint64_t *ms)
{
    if (!strcmp(s, "off") || !strcmp(s, "never")) {
        *ms = 0;
        return true;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v >= 0) || v > 1e7) return false;
    double unit = 1000;
    if (!strcmp(end, "ms"))
        unit = 1;
    else if (!strcmp(end, "") || !strcmp(end, "s"))
        unit = 1000;
    else if (!strcmp(end, "m") || !strcmp(end, "min"))
        unit = 60000;
    else if (!strcmp(end, "h"))
        unit = 3600000;
    else
        return false;
    *ms = (uint64_t)(v * unit + 0.5);
    return true;
}

/* ---- what a config load changed ----------------------------------------------- */

typedef struct plugin_file {
    char path[512];
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    bool exists;
} plugin_file;

typedef struct loaded {
    int ntech;
    char (*tech)[48]; /* every loaded technique id */
    int nprof;
    char (*prof)[48];
    uint64_t *sig; /* per profile: a hash of its ids, options and difficulties */
    int nfile;
    plugin_file *file;
} loaded;

static loaded cur;
static int watch_fd = -1; /* inotify on the plugins' folders and files (-1: none) */
static bool watch_fresh;  /* (re)made: the next request looks once, for what came before */

static void watch_plugins(void);

#define MAX_LISTED 64
static struct {
    bool have; /* a config was loaded before this one */
    int nadd, nrem, npadd, nprem, npchg;
    char add[MAX_LISTED][48], rem[MAX_LISTED][48];
    char padd[MAX_LISTED][48], prem[MAX_LISTED][48], pchg[MAX_LISTED][48];
    int more_add, more_rem;
} diff;

static void loaded_free(loaded *l)
{
    free(l->tech);
    free(l->prof);
    free(l->sig);
    free(l->file);
    memset(l, 0, sizeof *l);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void stat_file(plugin_file *f)
{
    struct stat st;
    f->exists = stat(f->path, &st) == 0;
    if (!f->exists) return;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->size = st.st_size;
    f->mtime = st.st_mtim;
}

static bool has(char (*list)[48], int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i], id)) return true;
    return false;
}

static void add_name(char (*list)[48], int *n, int *more, const char *name)
{
    if (*n < MAX_LISTED)
        snprintf(list[(*n)++], 48, "%s", name);
    else if (more)
        (*more)++;
}

/* In a worker that loaded the config: the READY frame's extra keys (ids:
 * every technique id, sigs: per profile a hash of its entries, in the order
 * of profiles, plugin_files: the plugin paths). The master never loads
 * plugins; it learns them from here. */
int life_ready_keys(void)
{
    return 3;
}

void life_pack_ready(msgpack_packer *pk, const sdk_config *cfg)
{
    int nt = 0;
    for (int i = 0; i < cfg->nplugin; i++)
        for (int k = 0; cfg->plugin[i].list && cfg->plugin[i].list[k]; k++) nt++;
    sdk_wire_str(pk, "ids");
    msgpack_pack_array(pk, (size_t)nt);
    for (int i = 0; i < cfg->nplugin; i++)
        for (int k = 0; cfg->plugin[i].list && cfg->plugin[i].list[k]; k++) {
            const char *id = cfg->plugin[i].list[k]->id;
            sdk_wire_str(pk, id ? id : "?");
        }
    sdk_wire_str(pk, "sigs");
    msgpack_pack_array(pk, (size_t)cfg->nprofile);
    for (int i = 0; i < cfg->nprofile; i++) {
        const sdk_profile *p = &cfg->profile[i];
        uint64_t h = 1469598103934665603ull;
        for (int k = 0; k < p->n; k++) {
            const sdk_entry *e = &p->entry[k];
            h = fnv(h, e->tech->id, strlen(e->tech->id) + 1);
            h = fnv(h, &e->difficulty, sizeof e->difficulty);
            for (int o = 0; o < e->opts->n && o < SDK_MAX_OPTIONS; o++) {
                h = fnv(h, e->opts->kv[o].key, strnlen(e->opts->kv[o].key, 32) + 1);
                h = fnv(h, e->opts->kv[o].val, strnlen(e->opts->kv[o].val, 96) + 1);
            }
        }
        h = fnv(h, &p->no_uniqueness, sizeof p->no_uniqueness);
        h = fnv(h, &p->scan, sizeof p->scan);
        msgpack_pack_uint64(pk, h);
    }
    sdk_wire_str(pk, "plugin_files");
    msgpack_pack_array(pk, (size_t)cfg->nplugin);
    for (int i = 0; i < cfg->nplugin; i++) sdk_wire_str(pk, cfg->plugin[i].path);
}

/* In the master: what a READY frame says, kept until its generation serves. */
life_loaded *life_parse_ready(const msgpack_object *o)
{
    const msgpack_object *ids = sdk_wire_get(o, "ids"), *sigs = sdk_wire_get(o, "sigs"),
                         *files = sdk_wire_get(o, "plugin_files"),
                         *prof = sdk_wire_get(o, "profiles");
    if (!ids || ids->type != MSGPACK_OBJECT_ARRAY || !sigs || sigs->type != MSGPACK_OBJECT_ARRAY ||
        !files || files->type != MSGPACK_OBJECT_ARRAY || !prof ||
        prof->type != MSGPACK_OBJECT_ARRAY || prof->via.array.size != sigs->via.array.size)
        return NULL;
    loaded *nw = calloc(1, sizeof *nw);
    if (!nw) return NULL;
    uint32_t nt = ids->via.array.size, np = prof->via.array.size, nf = files->via.array.size;
    nw->tech = calloc((size_t)nt + 1, sizeof *nw->tech);
    nw->prof = calloc((size_t)np + 1, sizeof *nw->prof);
    nw->sig = calloc((size_t)np + 1, sizeof *nw->sig);
    nw->file = calloc((size_t)nf + 1, sizeof *nw->file);
    if (!nw->tech || !nw->prof || !nw->sig || !nw->file) {
        life_loaded_free(nw);
        return NULL;
    }
    for (uint32_t i = 0; i < nt; i++)
        if (sdk_wire_copy_str(&ids->via.array.ptr[i], nw->tech[nw->ntech], 48)) nw->ntech++;
    for (uint32_t i = 0; i < np; i++) {
        const msgpack_object *sg = &sigs->via.array.ptr[i];
        if (!sdk_wire_copy_str(&prof->via.array.ptr[i], nw->prof[nw->nprof], 48) ||
            sg->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
            continue;
        nw->sig[nw->nprof++] = sg->via.u64;
    }
    for (uint32_t i = 0; i < nf; i++) {
        plugin_file *f = &nw->file[nw->nfile];
        if (!sdk_wire_copy_str(&files->via.array.ptr[i], f->path, sizeof f->path)) continue;
        stat_file(f); /* the master only looks at the file, it never maps it */
        nw->nfile++;
    }
    return nw;
}

void life_loaded_free(life_loaded *l)
{
    if (!l) return;
    loaded_free(l);
    free(l);
}

/* The generation that loaded nw serves now: what changed since the last. */
void life_generation_accepted(life_loaded *nwp)
{
    if (!nwp) return;
    loaded nw = *nwp;
    free(nwp);
    memset(&diff, 0, sizeof diff);
    diff.have = cur.tech != NULL;
    if (diff.have) {
        for (int i = 0; i < nw.ntech; i++)
            if (!has(cur.tech, cur.ntech, nw.tech[i]))
                add_name(diff.add, &diff.nadd, &diff.more_add, nw.tech[i]);
        for (int i = 0; i < cur.ntech; i++)
            if (!has(nw.tech, nw.ntech, cur.tech[i]))
                add_name(diff.rem, &diff.nrem, &diff.more_rem, cur.tech[i]);
        for (int i = 0; i < nw.nprof; i++) {
            int j = 0;
            while (j < cur.nprof && strcmp(cur.prof[j], nw.prof[i])) j++;
            if (j == cur.nprof)
                add_name(diff.padd, &diff.npadd, NULL, nw.prof[i]);
            else if (cur.sig[j] != nw.sig[i])
                add_name(diff.pchg, &diff.npchg, NULL, nw.prof[i]);
        }
        for (int j = 0; j < cur.nprof; j++)
            if (!has(nw.prof, nw.nprof, cur.prof[j]))
                add_name(diff.prem, &diff.nprem, NULL, cur.prof[j]);
    }
    loaded_free(&cur);
    cur = nw;
    watch_plugins();
}

void life_free(void)
{
    loaded_free(&cur);
    if (watch_fd >= 0) close(watch_fd);
    watch_fd = -1;
}

static void pack_names(msgpack_packer *pk, const char *key, char (*list)[48], int n)
{
    sdk_wire_str(pk, key);
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++) sdk_wire_str(pk, list[i]);
}

int life_changes_keys(void)
{
    return 5;
}

void life_pack_changes(msgpack_packer *pk)
{
    pack_names(pk, "added", diff.add, diff.nadd);
    pack_names(pk, "removed", diff.rem, diff.nrem);
    pack_names(pk, "profiles_added", diff.padd, diff.npadd);
    pack_names(pk, "profiles_removed", diff.prem, diff.nprem);
    pack_names(pk, "profiles_changed", diff.pchg, diff.npchg);
}

static void cat_names(char *buf, size_t n, const char *label, char (*list)[48], int k, int more)
{
    size_t l = strlen(buf);
    if (!k || l >= n) return;
    l += (size_t)snprintf(buf + l, n - l, "; %s", label);
    for (int i = 0; i < k && l < n; i++)
        l += (size_t)snprintf(buf + l, n - l, "%s%s", i ? ", " : " ", list[i]);
    if (more && l < n) snprintf(buf + l, n - l, " and %d more", more);
}

const char *life_changes_text(char *buf, size_t n)
{
    snprintf(buf, n, "%d techniques", cur.ntech);
    if (!diff.have) return buf;
    if (!diff.nadd && !diff.nrem && !diff.npadd && !diff.nprem && !diff.npchg) {
        size_t l = strlen(buf);
        snprintf(buf + l, n - l, "; nothing changed");
        return buf;
    }
    cat_names(buf, n, "added:", diff.add, diff.nadd, diff.more_add);
    cat_names(buf, n, "removed:", diff.rem, diff.nrem, diff.more_rem);
    cat_names(buf, n, "new profiles:", diff.padd, diff.npadd, 0);
    cat_names(buf, n, "profiles gone:", diff.prem, diff.nprem, 0);
    cat_names(buf, n, "profiles changed:", diff.pchg, diff.npchg, 0);
    return buf;
}

/* ---- plugins replaced on disk ---------------------------------------------------- */

#define PLUGIN_CHECK_MS 20
#define PLUGIN_RECHECK_MS 1000

/* Watch what the new generation's plugins are made of. */
static void watch_plugins(void)
{
    if (watch_fd >= 0) close(watch_fd);
    watch_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    watch_fresh = true;
    if (watch_fd < 0) return;
    const uint32_t in_dir = IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_MODIFY |
                            IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF,
                   on_file = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF;
    for (int i = 0; i < cur.nfile; i++) {
        char dir[sizeof cur.file[i].path];
        snprintf(dir, sizeof dir, "%s", cur.file[i].path);
        char *slash = strrchr(dir, '/');
        if (!slash)
            snprintf(dir, sizeof dir, ".");
        else
            slash[slash == dir] = 0; /* "/x.so": the root */
        if (inotify_add_watch(watch_fd, dir, in_dir) < 0 ||
            (cur.file[i].exists && inotify_add_watch(watch_fd, cur.file[i].path, on_file) < 0)) {
            log_debug("plugins on disk: no inotify watch on %s (%s): looked at every %d ms",
                      cur.file[i].path, strerror(errno), PLUGIN_CHECK_MS);
            close(watch_fd);
            watch_fd = -1;
            return;
        }
    }
}

static bool same_file(const plugin_file *a, const plugin_file *b)
{
    return a->exists == b->exists &&
           (!a->exists ||
            (a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
             a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec));
}

/* A plugin changed on disk and its reload is in progress: requests wait for
 * the new generation (the old workers' mappings may be stale). */
static bool plugins_stale;

bool life_plugins_stale(void)
{
    return plugins_stale;
}

void life_reload_ended(void)
{
    if (!plugins_stale) return;
    plugins_stale = false;
    workers_dispatch(); /* refused: the old generation serves what waited */
}

void life_check_plugins(void)
{
    static uint64_t last;
    uint64_t now = now_ms();
    if (watch_fd >= 0 && !watch_fresh) {
        char ev[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
        ssize_t n = read(watch_fd, ev, sizeof ev);
        bool changes = n > 0;
        while (n > 0) n = read(watch_fd, ev, sizeof ev);  /* what queued: one look for all */
        if (n < 0 && errno != EAGAIN && errno != EINTR) { /* the watch is gone: stat */
            close(watch_fd);
            watch_fd = -1;
            changes = true;
        }
        if (!changes && now - last < PLUGIN_RECHECK_MS) return;
    } else if (last && now - last < PLUGIN_CHECK_MS && !watch_fresh) {
        return;
    }
    watch_fresh = false;
    last = now;
    const char *changed = NULL;
    for (int i = 0; i < cur.nfile && !changed; i++) {
        plugin_file f = cur.file[i];
        stat_file(&f);
        if (!same_file(&f, &cur.file[i])) {
            changed = cur.file[i].path;
            daemon_reload_why("plugin %s %s on disk", changed,
                              f.exists ? "changed" : "was removed");
        }
    }
    if (!changed) return;
    /* the reload is asynchronous: the new generation answers once ready.
     * Whether it is accepted or refused, this change was seen: do not ask
     * again on every request (an accepted one replaces cur) */
    for (int i = 0; i < cur.nfile; i++) stat_file(&cur.file[i]);
    sdk_error err;
    if (daemon_reload(&err))
        plugins_stale = true; /* cleared when that reload ends (reload.c's finish) */
    else
        log_warn("plugin changed on disk, no reload: %s", err.msg);
}
