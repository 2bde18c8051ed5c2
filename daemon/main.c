/* main.c - sudokud: options, finding the config and the socket, user or
 * system mode (--system, --group), detaching, the pid file (locked: a second
 * daemon on it refuses to start), telling systemd (sd.c), signals (SIGHUP
 * reloads, SIGTERM/SIGINT drain and exit), and the worker mode switch
 * (`--worker`). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "daemon.h"
#include "workers.h"

daemon_state D;

uint64_t now_ms(void)
{
    return uv_hrtime() / 1000000u;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: sudokud [options]\n"
               "  --socket PATH     listen here (default $XDG_RUNTIME_DIR/sudokud.sock,\n"
               "                    else /tmp/sudokud-UID/sudokud.sock, a private folder)\n"
               "  --system          the system-wide daemon: /run/sudokud/sudokud.sock, mode\n"
               "                    0660; the socket's group may connect\n"
               "  --group NAME      the socket's group (mode 0660; its members may connect)\n"
               "  --config FILE     config (default <bindir>/../etc/sudokud/sudokud.conf)\n"
               "  --foreground      do not detach (for systemd and terminals)\n"
               "  --log-level L     error, warning, info (default) or debug\n"
               "  --pid-file FILE   write the daemon's pid here\n"
               "  --workers N       worker processes (default: the config's, 0 = one per core)\n"
               "  --idle-exit[=T]   exit after T with no client (600, 30s, 10m, 1h; default:\n"
               "                    the config's idle_exit, else 10m); never with --system\n"
               "                    or under systemd\n"
               "  -h, --help, --version\n");
}

static void on_signal(uv_signal_t *s, int signum)
{
    (void)s;
    if (signum == SIGHUP) {
        sdk_error err;
        daemon_reload_why("SIGHUP");
        daemon_reload(&err);
        return;
    }
    log_info("%s: draining and exiting", signum == SIGTERM ? "SIGTERM" : "SIGINT");
    daemon_begin_drain();
}

static void close_cb(uv_handle_t *h)
{
    (void)h;
}

static void walk_close(uv_handle_t *h, void *arg)
{
    (void)arg;
    if (!uv_is_closing(h)) uv_close(h, close_cb);
}

void daemon_begin_drain(void)
{
    if (D.draining) return;
    D.draining = true;
    sd_notifyf("STOPPING=1\nSTATUS=draining: %d requests to answer", workers_jobs());
    server_stop_listening();
    daemon_check_drained();
}

void daemon_check_drained(void)
{
    static bool done;
    if (!D.draining || workers_jobs() > 0 || done) return;
    done = true;
    log_info("drained: %llu requests served", (unsigned long long)D.requests);
    workers_stop_all();
    server_close_all();
    uv_signal_stop(&D.sig_hup);
    uv_signal_stop(&D.sig_term);
    uv_signal_stop(&D.sig_int);
    uv_close((uv_handle_t *)&D.sig_hup, NULL);
    uv_close((uv_handle_t *)&D.sig_term, NULL);
    uv_close((uv_handle_t *)&D.sig_int, NULL);
    life_idle_stop();
}

static bool default_config(char *out, size_t n)
{
    char exe[PATH_MAX];
    snprintf(exe, sizeof exe, "%s", D.exe);
    int k = snprintf(out, n, "%s/../etc/sudokud/sudokud.conf", dirname(exe));
    if (k < 0 || (size_t)k >= n || access(out, R_OK) != 0)
        snprintf(out, n, "/etc/sudokud/sudokud.conf");
    return true;
}

/* Detach: the parent waits until the child listens (or fails) so that whoever
 * started us can connect at once. Returns in the child. */
static void detach(void)
{
    int p[2];
    if (pipe(p) != 0) {
        perror("sudokud: pipe");
        exit(1);
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("sudokud: fork");
        exit(1);
    }
    if (pid > 0) {
        close(p[1]);
        char c;
        ssize_t r;
        do r = read(p[0], &c, 1);
        while (r < 0 && errno == EINTR);
        _exit(r == 1 ? 0 : 1);
    }
    close(p[0]);
    fcntl(p[1], F_SETFD, FD_CLOEXEC);
    D.ready_fd = p[1];
    setsid();
    if (chdir("/") != 0) { /* keep going: nothing depends on the cwd */
    }
    int fd = open("/dev/null", O_RDWR);
    if (fd >= 0) {
        dup2(fd, 0);
        dup2(fd, 1);
        if (isatty(2)) dup2(fd, 2); /* keep a redirected stderr (a log file) */
        if (fd > 2) close(fd);
    }
}

/* Is pid a live sudokud other than us? */
static bool live_sudokud(long pid)
{
    if (pid <= 0 || pid == (long)getpid() || (kill((pid_t)pid, 0) != 0 && errno == ESRCH))
        return false;
    char path[64], comm[64] = "";
    snprintf(path, sizeof path, "/proc/%ld/comm", pid);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    bool ok = fgets(comm, sizeof comm, f) != NULL;
    fclose(f);
    return ok && !strncmp(comm, "sudokud", 7);
}

/* The pid file: open and lock it (a write lock held as long as we run; locks
 * are not inherited, so the workers do not hold it). A file locked by another
 * process, or naming another live sudokud, means a daemon runs: refuse. With
 * keep, write our pid and keep the file open (D.pid_fd); else only check. */
static bool pid_file_take(bool keep, char *why, size_t n)
{
    if (!D.pid_file[0]) return true;
    int fd = open(D.pid_file, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(why, n, "pid file %s: %s", D.pid_file, strerror(errno));
        return false;
    }
    char buf[32] = "";
    ssize_t r = pread(fd, buf, sizeof buf - 1, 0);
    long pid = r > 0 ? strtol(buf, NULL, 10) : 0;
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(fd, F_SETLK, &fl) != 0) {
        struct flock q = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        if (fcntl(fd, F_GETLK, &q) == 0 && q.l_type != F_UNLCK) pid = q.l_pid;
        snprintf(why, n, "another sudokud (pid %ld) holds the pid file %s", pid, D.pid_file);
        close(fd);
        return false;
    }
    if (live_sudokud(pid)) {
        snprintf(why, n, "the pid file %s names a running sudokud (pid %ld)", D.pid_file, pid);
        close(fd);
        return false;
    }
    if (!keep) {
        close(fd); /* releases the lock */
        return true;
    }
    int k = snprintf(buf, sizeof buf, "%d\n", (int)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, buf, (size_t)k, 0) != k) {
        snprintf(why, n, "pid file %s: %s", D.pid_file, strerror(errno));
        close(fd);
        return false;
    }
    D.pid_fd = fd;
    return true;
}

static void pid_file_release(void)
{
    if (D.pid_fd < 0) return;
    unlink(D.pid_file); /* while we still hold the lock */
    close(D.pid_fd);
    D.pid_fd = -1;
}

/* --group: the group must exist. */
static bool resolve_group(void)
{
    if (!D.group[0]) {
        D.sock_gid = D.system_mode ? (long)getgid() : -1;
        return true;
    }
    errno = 0;
    struct group *g = getgrnam(D.group);
    if (!g) {
        char *end;
        long id = strtol(D.group, &end, 10);
        if (!*end && id >= 0 && (g = getgrgid((gid_t)id)) != NULL) {
            D.sock_gid = (long)g->gr_gid;
            return true;
        }
        fprintf(stderr, "sudokud: --group: there is no group named '%s'%s%s\n", D.group,
                errno ? ": " : "", errno ? strerror(errno) : "");
        return false;
    }
    D.sock_gid = (long)g->gr_gid;
    return true;
}

int main(int argc, char **argv)
{
    enum {
        O_SOCKET = 1,
        O_CONFIG,
        O_FG,
        O_LOG,
        O_PID,
        O_WORKERS,
        O_WORKER,
        O_VERSION,
        O_HELP,
        O_SYSTEM,
        O_GROUP,
        O_IDLE
    };
    static const struct option opts[] = {
        {"socket", required_argument, 0, O_SOCKET},
        {"config", required_argument, 0, O_CONFIG},
        {"foreground", no_argument, 0, O_FG},
        {"log-level", required_argument, 0, O_LOG},
        {"pid-file", required_argument, 0, O_PID},
        {"workers", required_argument, 0, O_WORKERS},
        {"worker", no_argument, 0, O_WORKER},
        {"version", no_argument, 0, O_VERSION},
        {"help", no_argument, 0, O_HELP},
        {"system", no_argument, 0, O_SYSTEM},
        {"group", required_argument, 0, O_GROUP},
        {"idle-exit", optional_argument, 0, O_IDLE},
        {0, 0, 0, 0},
    };
    memset(&D, 0, sizeof D);
    D.ready_fd = -1;
    D.pid_fd = -1;
    D.config_fd = -1;
    D.sock_gid = -1;
    size_t exelen = sizeof D.exe;
    if (uv_exepath(D.exe, &exelen) != 0) snprintf(D.exe, sizeof D.exe, "%s", argv[0]);
    bool worker = false, use_syslog = false;
    int level = LOG_INFO_;
    int c;
    bool idle_given = false;
    uint64_t idle_opt = 0; /* --idle-exit=T; 0 with idle_given: the config's or 10m */
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case O_SOCKET:
            snprintf(D.socket_path, sizeof D.socket_path, "%s", optarg);
            break;
        case O_CONFIG:
            snprintf(D.config_path, sizeof D.config_path, "%s", optarg);
            break;
        case O_FG:
            D.foreground = true;
            break;
        case O_LOG:
            level = log_level_parse(optarg);
            if (level < 0) {
                fprintf(stderr, "sudokud: --log-level: '%s' is not error|warning|info|debug\n",
                        optarg);
                return 2;
            }
            break;
        case O_PID:
            snprintf(D.pid_file, sizeof D.pid_file, "%s", optarg);
            break;
        case O_WORKERS: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || n < 1 || n > 256) {
                fprintf(stderr, "sudokud: --workers: '%s' is not a number from 1 to 256\n", optarg);
                return 2;
            }
            D.workers_opt = (int)n;
            break;
        }
        case O_WORKER:
            worker = true;
            break;
        case O_SYSTEM:
            D.system_mode = true;
            break;
        case O_GROUP:
            if (!*optarg || strlen(optarg) >= sizeof D.group) {
                fprintf(stderr, "sudokud: --group: '%s' is not a group name\n", optarg);
                return 2;
            }
            snprintf(D.group, sizeof D.group, "%s", optarg);
            break;
        case O_VERSION:
            printf("sudokud %s\n", SUDOKUD_VERSION);
            return 0;
        case O_IDLE:
            idle_given = true;
            if (optarg && !life_parse_duration(optarg, &idle_opt)) {
                fprintf(stderr,
                        "sudokud: --idle-exit: '%s' is not a duration (600, 30s, 10m, 1h, off)\n",
                        optarg);
                return 2;
            }
            if (optarg && !idle_opt) idle_given = false; /* off */
            break;
        case 'h':
        case O_HELP:
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "sudokud: unexpected argument '%s'\n", argv[optind]);
        usage(stderr);
        return 2;
    }
    if (!D.config_path[0]) default_config(D.config_path, sizeof D.config_path);
    char real[PATH_MAX];
    if (!worker && realpath(D.config_path, real)) /* a worker's may be its snapshot's fd */
        snprintf(D.config_path, sizeof D.config_path, "%s", real);

    if (worker) {
        log_init(level, false, "sudokud-worker");
        return worker_main(D.config_path);
    }
    trim_setup();

    if (!D.socket_path[0]) life_default_socket(D.socket_path, sizeof D.socket_path, D.system_mode);
    if (D.socket_path[0] != '/') {
        char cwd[PATH_MAX], abs[PATH_MAX * 2];
        if (getcwd(cwd, sizeof cwd)) {
            snprintf(abs, sizeof abs, "%s/%s", cwd, D.socket_path);
            if ((size_t)snprintf(D.socket_path, sizeof D.socket_path, "%s", abs) >=
                sizeof D.socket_path) {
                fprintf(stderr, "sudokud: socket path too long\n");
                return 2;
            }
        }
    }
    if (D.pid_file[0] && D.pid_file[0] != '/') {
        char cwd[PATH_MAX], abs[PATH_MAX * 2];
        if (getcwd(cwd, sizeof cwd)) {
            snprintf(abs, sizeof abs, "%s/%s", cwd, D.pid_file);
            if ((size_t)snprintf(D.pid_file, sizeof D.pid_file, "%s", abs) >= sizeof D.pid_file) {
                fprintf(stderr, "sudokud: pid file path too long\n");
                return 2;
            }
        }
    }
    log_init(level, false, "sudokud");
    if (!resolve_group()) return 2;
    sd_init();
    sdk_error err;
    if (!daemon_load_config(D.config_path, &err)) {
        log_err("config: %s", err.msg);
        return 1;
    }
    char why[PATH_MAX + 128];
    if (life_is_private_default(D.socket_path) && sd_listen_fd() < 0) {
        char dir[sizeof D.socket_path];
        snprintf(dir, sizeof dir, "%s", D.socket_path);
        if (!life_private_dir(dirname(dir), why, sizeof why)) {
            log_err("%s", why);
            return 1;
        }
    }
    /* idle exit: for daemons started on demand, never for the system daemon
     * or one systemd runs (it decides when we stop) */
    if (idle_given || D.lim.idle_exit_ms > 0) {
        uint64_t ms = idle_opt                 ? idle_opt
                      : D.lim.idle_exit_ms > 0 ? (uint64_t)D.lim.idle_exit_ms
                                               : 600000;
        if (!idle_opt && idle_given && D.lim.idle_exit_ms == 0) ms = 0; /* the config says off */
        bool systemd = sd_notifying() || sd_listen_fd() >= 0 || getenv("INVOCATION_ID");
        if (D.system_mode || systemd)
            log_info("idle exit off: %s", D.system_mode ? "--system" : "under systemd");
        else
            D.idle_exit_ms = ms;
    }
    if (!pid_file_take(false, why, sizeof why)) { /* before detaching: say it here */
        log_err("%s", why);
        return 1;
    }
    if (!D.foreground) {
        detach();
        use_syslog = true;
        log_init(level, use_syslog, "sudokud");
    }
    signal(SIGPIPE, SIG_IGN);
    D.loop = uv_default_loop();
    D.started_ms = now_ms();
    uv_signal_init(D.loop, &D.sig_hup);
    uv_signal_init(D.loop, &D.sig_term);
    uv_signal_init(D.loop, &D.sig_int);
    uv_signal_start(&D.sig_hup, on_signal, SIGHUP);
    uv_signal_start(&D.sig_term, on_signal, SIGTERM);
    uv_signal_start(&D.sig_int, on_signal, SIGINT);

    bool listening = server_listen(&err);
    if (!listening) snprintf(why, sizeof why, "%s", err.msg);
    if (!listening || !pid_file_take(true, why, sizeof why)) {
        log_err("%s", why);
        sd_notifyf("STATUS=%s", why);
        server_stop_listening();
        uv_walk(D.loop, walk_close, NULL);
        uv_run(D.loop, UV_RUN_DEFAULT);
        uv_loop_close(D.loop);
        free(D.profiles);
        return 1;
    }
    if (!workers_start()) {
        log_err("cannot start workers");
        pid_file_release();
        return 1;
    }
    log_info("sudokud %s listening on %s%s (config %s, %d workers)", SUDOKUD_VERSION, D.socket_path,
             D.activated ? " (from systemd)" : "", D.config_path, D.lim.workers);
    trim_start();
    if (D.idle_exit_ms) {
        log_info("exits after %.0f s without clients (idle_exit)", D.idle_exit_ms / 1000.0);
        life_idle_start(D.idle_exit_ms);
    }
    sd_notifyf("READY=1\nMAINPID=%d\nSTATUS=listening on %s (%d workers)", (int)getpid(),
               D.socket_path, D.lim.workers);
    if (D.ready_fd >= 0) {
        if (write(D.ready_fd, "1", 1) != 1) log_warn("cannot tell the parent we are ready");
        close(D.ready_fd);
        D.ready_fd = -1;
    }
    uv_run(D.loop, UV_RUN_DEFAULT);
    uv_walk(D.loop, walk_close, NULL);
    uv_run(D.loop, UV_RUN_DEFAULT);
    int rc = uv_loop_close(D.loop);
    if (rc) log_warn("event loop closed with handles open: %s", uv_strerror(rc));
    pid_file_release();
    free(D.profiles);
    life_free();
    log_info("exiting");
    return 0;
}
