/* autostart.c - how sudoctl reaches sudokud.
 *
 * The per-user socket lives in $XDG_RUNTIME_DIR (a private folder the login
 * manager makes), and without it (containers, cron, ssh without a session)
 * in /tmp/sudokud-UID, a folder of our own with mode 0700 that we check
 * before trusting (another user could have made it first: tmux does the
 * same with /tmp/tmux-UID). Never /run/sudokud: that is the system daemon's
 * (`--system`), with other plugins and other users.
 *
 * When nothing answers on the default socket, sudoctl starts the sudokud
 * next to it with `--idle-exit`: a daemon started on demand goes away by
 * itself after idle_exit (10 minutes by default) without clients. */
#include "autostart.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *prog = "sudoctl";
static char default_buf[PATH_MAX];

static void private_dir_name(char *out, size_t n)
{
    sdk_wire_private_dir(out, n);
}

const char *daemon_default_socket(void)
{
    return sdk_wire_default_socket(false, default_buf, sizeof default_buf);
}

static bool is_private_default(const char *path)
{
    char want[PATH_MAX];
    private_dir_name(want, sizeof want - 1);
    strcat(want, "/");
    return !strncmp(path, want, strlen(want)) && !strchr(path + strlen(want), '/');
}

static void owner_text(const struct stat *st, char *buf, size_t n)
{
    struct passwd *pw = getpwuid(st->st_uid);
    struct group *gr = getgrgid(st->st_gid);
    char u[32], g[32];
    snprintf(u, sizeof u, "%u", (unsigned)st->st_uid);
    snprintf(g, sizeof g, "%u", (unsigned)st->st_gid);
    snprintf(buf, n, "owner %s, group %s, mode %04o", pw ? pw->pw_name : u, gr ? gr->gr_name : g,
             (unsigned)(st->st_mode & 07777));
}

/* The private folder must be ours and closed to others, else we do not use
 * it (why says so). A missing folder is fine: the daemon makes it. */
static bool private_dir_ok(const char *sock, char *why, size_t n)
{
    if (!is_private_default(sock)) return true;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", sock);
    dirname(dir);
    struct stat st;
    if (lstat(dir, &st) != 0) return errno == ENOENT;
    char own[160];
    owner_text(&st, own, sizeof own);
    if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077)) {
        snprintf(why, n,
                 "%s is not a private folder of yours (%s%s): not using it; remove it, or "
                 "set XDG_RUNTIME_DIR, or give --socket PATH",
                 dir, S_ISDIR(st.st_mode) ? "" : "not a directory, ", own);
        return false;
    }
    return true;
}

/* The folder of this executable, for finding sudokud next to it. */
static bool self_dir(char *buf, size_t n)
{
    ssize_t l = readlink("/proc/self/exe", buf, n - 1);
    if (l <= 0) return false;
    buf[l] = 0;
    char *s = strrchr(buf, '/');
    if (!s) return false;
    *s = 0;
    return true;
}

/* Start sudokud in the background on path. sudokud detaches by itself and its
 * first process exits once the socket is ready, so waiting for it tells
 * whether the start worked. Its stderr goes to a log next to the socket (a
 * pipe we hold would otherwise stay open as long as the daemon runs). */
static bool spawn_daemon(const char *path, char *why, size_t n)
{
    char dir[PATH_MAX], exe[PATH_MAX + 16], conf[PATH_MAX + 64], log[PATH_MAX + 8];
    if (!self_dir(dir, sizeof dir)) {
        snprintf(why, n, "cannot find sudoctl's own folder");
        return false;
    }
    snprintf(exe, sizeof exe, "%s/sudokud", dir);
    if (access(exe, X_OK) != 0) {
        snprintf(why, n, "no sudokud next to sudoctl (%s)", exe);
        return false;
    }
    /* the private folder first, so that the log can go there */
    if (is_private_default(path)) {
        char pd[PATH_MAX];
        snprintf(pd, sizeof pd, "%s", path);
        if (mkdir(dirname(pd), 0700) != 0 && errno != EEXIST) {
            snprintf(why, n, "cannot create %s: %s", pd, strerror(errno));
            return false;
        }
        if (!private_dir_ok(path, why, n)) return false;
    }
    /* The config that goes with this binary: the build or install tree's
     * ../etc/sudokud/sudokud.conf, else /etc/sudokud, else sudokud's own. */
    snprintf(conf, sizeof conf, "%s/../etc/sudokud/sudokud.conf", dir);
    bool have_conf = access(conf, R_OK) == 0;
    if (!have_conf) {
        snprintf(conf, sizeof conf, "/etc/sudokud/sudokud.conf");
        have_conf = access(conf, R_OK) == 0;
    }
    snprintf(log, sizeof log, "%s.log", path);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, n, "fork: %s", strerror(errno));
        return false;
    }
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY);
        int err = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (in >= 0) dup2(in, 0);
        if (out >= 0) dup2(out, 1);
        dup2(err >= 0 ? err : out, 2);
        /* started on demand: it goes away when nobody uses it (idle_exit) */
        if (have_conf)
            execl(exe, "sudokud", "--socket", path, "--config", conf, "--idle-exit", (char *)NULL);
        else
            execl(exe, "sudokud", "--socket", path, "--idle-exit", (char *)NULL);
        _exit(127);
    }
    fprintf(stderr, "%s: no sudokud on %s, starting one (log: %s)\n", prog, path, log);
    int st = 0;
    for (int i = 0; i < 1000; i++) { /* up to 10 s */
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) {
            if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return true;
            snprintf(why, n, "sudokud failed to start (%s %d); see %s",
                     WIFEXITED(st) ? "exit status" : "signal",
                     WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), log);
            return false;
        }
        struct timespec ts = {0, 10 * 1000000};
        nanosleep(&ts, NULL);
    }
    return true; /* still starting: connecting will tell */
}

/* Access refused: say whose socket it is and what to do. */
static void explain_access(const char *sock)
{
    char dir[PATH_MAX], own[160];
    snprintf(dir, sizeof dir, "%s", sock);
    dirname(dir);
    struct stat st;
    const char *what = sock;
    if (stat(sock, &st) != 0) { /* the folder keeps us out */
        what = dir;
        if (stat(dir, &st) != 0) return;
    }
    owner_text(&st, own, sizeof own);
    fprintf(stderr, "%s: %s: %s; you are uid %u\n", prog, what, own, (unsigned)getuid());
    struct group *gr = getgrgid(st.st_gid);
    if (!strcmp(sock, SYSTEM_SOCKET) && (st.st_mode & 060) && gr)
        fprintf(stderr,
                "%s: members of group %s may connect: ask an administrator for "
                "`usermod -aG %s $USER` (then log in again)\n",
                prog, gr->gr_name, gr->gr_name);
    fprintf(stderr,
            "%s: or use a daemon of your own: `sudoctl --socket PATH ...` (started by itself), "
            "or the default per-user one (no --socket)\n",
            prog);
}

rpc_conn *daemon_connect(const connect_opts *o)
{
    char why[PATH_MAX + 256] = "";
    if (!private_dir_ok(o->socket, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", prog, why);
        return NULL;
    }
    rpc_conn *c = rpc_connect(o->socket);
    if (c) return c;
    int e = errno;
    if (o->may_start && (e == ENOENT || e == ECONNREFUSED)) {
        if (spawn_daemon(o->socket, why, sizeof why)) {
            for (int i = 0; i < 500; i++) { /* the socket: up to 10 s */
                struct timespec ts = {0, 20 * 1000000};
                nanosleep(&ts, NULL);
                c = rpc_connect(o->socket);
                if (c) return c;
                e = errno;
            }
            snprintf(why, sizeof why,
                     "started sudokud, but it did not open %s within 10 s (see %s.log)", o->socket,
                     o->socket);
        }
    }
    fprintf(stderr, "%s: cannot reach sudokud at %s: %s\n", prog, o->socket, strerror(e));
    if (*why) fprintf(stderr, "%s: %s\n", prog, why);
    if (e == EACCES || e == EPERM) {
        explain_access(o->socket);
        return NULL;
    }
    fprintf(stderr, "%s: start it with `sudokud --socket %s &`%s\n", prog, o->socket,
            o->hint_how ? o->hint_how : "");
    return NULL;
}

/* ---- stop ------------------------------------------------------------------- */

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Is the process pid still running (a zombie is not: its parent has not
 * reaped it yet)? */
static bool running(long long pid)
{
    if (pid <= 0 || kill((pid_t)pid, 0) != 0) return false;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%lld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return true;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *e = strrchr(buf, ')');
    return !(e && e[1] == ' ' && (e[2] == 'Z' || e[2] == 'X'));
}

int daemon_stop(const char *sock, double timeout_s, bool quiet)
{
    connect_opts co = {.socket = sock, .may_start = false, .hint_how = ""};
    rpc_conn *c = rpc_connect(sock);
    if (!c) {
        int e = errno;
        if (e == ENOENT || e == ECONNREFUSED) {
            fprintf(stderr, "%s: no sudokud on %s: nothing to stop\n", prog, sock);
            return 3;
        }
        c = daemon_connect(&co); /* says why, with the socket's owner and mode */
        if (!c) return 3;
    }
    rpc_msg m;
    long long limit = timeout_s > 0 ? (long long)(timeout_s * 1000) : 120000;
    long long t0 = mono_ms();
    int r = rpc_call(c, "shutdown", NULL, 0, &m, (int)limit);
    if (r <= 0) {
        fprintf(stderr, "%s: %s\n", prog,
                r == 0 ? "sudokud did not answer the shutdown request in time" : rpc_error(c));
        rpc_close(c);
        return r == 0 ? 4 : 3;
    }
    if (m.error.type != MSGPACK_OBJECT_NIL) {
        char code[64], msg[512];
        fprintf(stderr, "%s: stop: %s: %s\n", prog,
                sdk_wire_text(sdk_wire_get(&m.error, "code"), code, sizeof code),
                sdk_wire_text(sdk_wire_get(&m.error, "message"), msg, sizeof msg));
        rpc_msg_free(&m);
        rpc_close(c);
        return 1;
    }
    long long pid = sdk_wire_int(sdk_wire_get(&m.result, "pid"), 0),
              jobs = sdk_wire_int(sdk_wire_get(&m.result, "jobs"), 0);
    rpc_msg_free(&m);
    if (!quiet)
        fprintf(stderr, "%s: stopping sudokud (pid %lld) on %s%s\n", prog, pid, sock,
                jobs ? ": answering the requests in flight first" : "");
    /* drained: the daemon closes every connection; then its process goes */
    for (;;) {
        long long left = limit - (mono_ms() - t0);
        if (left <= 0) break;
        r = rpc_wait(c, &m, (int)left);
        if (r < 0) break;
        if (r == 1) rpc_msg_free(&m);
    }
    rpc_close(c);
    while (running(pid) && mono_ms() - t0 < limit) {
        struct timespec ts = {0, 10 * 1000000};
        nanosleep(&ts, NULL);
    }
    if (running(pid)) {
        fprintf(stderr, "%s: sudokud (pid %lld) is still running after %.0f s\n", prog, pid,
                limit / 1000.0);
        return 4;
    }
    if (!quiet) printf("sudokud stopped\n");
    return 0;
}
