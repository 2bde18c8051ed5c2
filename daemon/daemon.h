/* daemon.h - sudokud's internal declarations: the daemon state, connections,
 * jobs (one per client request), the worker pool, the worker frame format and
 * logging. Each .c file owns one job: main.c (options, startup, signals),
 * server.c (socket, connections), rpc.c (requests from clients), workers.c
 * (the pool, the job queue and routing: workers.h), worker_main.c (the worker process), reload.c
 * (which config serves: read, checked by a child, rolled out), log.c. */
#ifndef SUDOKUD_DAEMON_H
#define SUDOKUD_DAEMON_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>
#include "sudoku/service.h"
#include "sudoku/wire.h"

#ifndef SUDOKUD_VERSION
#define SUDOKUD_VERSION "0.0.0"
#endif

/* ---- logging (log.c) ----------------------------------------------------- */

enum { LOG_ERR_ = 0, LOG_WARN_, LOG_INFO_, LOG_DEBUG_ };
void log_init(int level, bool use_syslog, const char *ident);
int log_level_parse(const char *s); /* -1 when unknown */
const char *log_level_name(int level);
int log_level(void);
void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_err(...) log_msg(LOG_ERR_, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN_, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO_, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG_, __VA_ARGS__)

/* ---- worker frames ------------------------------------------------------- *
 * daemon -> worker: u32 big-endian length, then msgpack [method, params, mode]
 *   (mode 0: answer the whole result; mode 1: a batch chunk, one ITEM per puzzle).
 * worker -> daemon: u32 big-endian body length, u8 kind, then the body. */
enum {
    FRAME_READY = 0, /* body: {techniques: n, profiles: [names]}; the worker loaded its config */
    FRAME_RESULT,    /* body: the packed result object */
    FRAME_ERROR,     /* body: the packed {code, message} map (before READY: the config
                        does not load, and the worker exits) */
    FRAME_ITEM,      /* body: one packed per-puzzle result */
    FRAME_END,       /* the chunk is done */
    FRAME_RING,      /* body: u64 at, u32 n (native order): frames (ITEMs, END) of n
                        bytes in the shared ring at `at` (see worker_shm) */
};
/* daemon -> worker: a length with SHM_FRAME set has its body (that many
 * bytes less the flags) in a shared piece area, not on the socket: the
 * second area when SHM_AREA_B is set too, else the first. */
#define SHM_FRAME 0x80000000u
#define SHM_AREA_B 0x40000000u
/* The kernel's send buffer asked for on the daemon's end of a client's
 * connection and on both ends of a worker's: a batch's answer or a piece of
 * a few hundred KiB then crosses in one write and one wakeup of its reader
 * rather than in 200 KiB parts (the default), each a wakeup of both sides.
 * The kernel caps it at net.core.wmem_max. (Not on sudoctl's end: there
 * it made a batch of 17clue.txt take twice the wall time.) */
#define SOCKET_BUFFER (512 << 10)
#define FRAME_HEAD 5
#define PROBE_FD 3  /* where a worker finds its probe (shared memory) */
#define CONFIG_FD 4 /* where a worker finds the daemon's copy of the config */

/* The memory a worker shares with the daemon: the service's technique probe,
 * and which puzzle of a batch chunk it is on. A worker sends the answers of a
 * chunk in bursts (a few ms of work each), so after a crash the daemon tells
 * the puzzle that crashed (item) from the ones that were answered but not yet
 * sent (got..item-1: they go back to the queue). */
typedef struct worker_shm {
    sdk_service_probe probe; /* first: the service sees only this */
    volatile int32_t item;   /* batch chunk: index of the puzzle being served */
    /* frames the worker began to serve (it counts them as it reads them):
     * with a piece queued behind another, which of the two it was on */
    volatile uint32_t begun;
    /* how the worker ended, when it could tell: a signal sent from outside
     * (its sender), or a fault while out of memory (worker_memory) */
    volatile int32_t signo, sender_pid, sender_uid;
    volatile int32_t out_of_memory;
    char loading[512]; /* the plugin being loaded ("" none): blamed if it dies or hangs */
    /* the answers' ring: bytes below this (of all ever put there) were read */
    volatile uint64_t ring_read;
} worker_shm;

/* A batch's bytes between the daemon and a worker go through memory they
 * share, behind worker_shm in the same mapping, rather than through the
 * socket (which copies them into the kernel and out again, a page
 * allocated and freed per 4 KiB: a third of the daemon's CPU on a solve
 * batch). The socket still carries the order: a piece's request is packed
 * into a piece area the worker does not read (there are two: the next
 * piece is written while the worker serves the one before, so it goes on
 * without waiting for the daemon), and a 4-byte head (SHM_FRAME) tells the
 * worker; the worker copies a burst of answer
 * frames into the ring and sends a FRAME_RING naming where they are; the
 * daemon reads them there, then moves ring_read. What does not fit (a big
 * piece, a full ring) takes the socket as before. The daemon gives the
 * pages back when it trims (trim.c; the worker is idle then). */
#define SHM_PIECE_OFF ((sizeof(worker_shm) + 4095) & ~(size_t)4095)
#define SHM_PIECE_SIZE ((size_t)128 << 10)
#define SHM_RING_OFF (SHM_PIECE_OFF + 2 * SHM_PIECE_SIZE)
/* The ring's size: this, or SUDOKUD_RING_KIB's (tests: 0, no shared memory
 * at all; a few KiB, most bursts take the socket between the ring's). The
 * worker takes it from the mapping's size. */
#define SHM_RING_SIZE ((size_t)256 << 10)
#define SHM_RING_ENV "SUDOKUD_RING_KIB"

/* The worker's copy of the config is named by this variable (the accepted
 * file's path: messages and relative paths), its bytes come from CONFIG_FD. */
#define CONFIG_NAME_ENV "SUDOKUD_CONFIG_NAME"

int worker_main(const char *config_path); /* worker_main.c */

/* AddressSanitizer reserves terabytes of shadow memory: a data limit
 * (RLIMIT_DATA or RLIMIT_AS) would make every later mmap fail. */
#if defined(__SANITIZE_ADDRESS__)
#define SUDOKUD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SUDOKUD_ASAN 1
#endif
#endif
#ifndef SUDOKUD_ASAN
#define SUDOKUD_ASAN 0
#endif

/* ---- daemon state -------------------------------------------------------- */

typedef struct conn conn;

typedef struct limits {
    int workers;
    int deadline_ms;
    int max_connections;
    int max_connections_per_uid;
    int max_queue;
    size_t max_message;
    size_t max_input_memory; /* incomplete messages and accepted requests, all connections */
    size_t max_output;       /* unsent bytes of a connection before its jobs wait */
    size_t max_answer;       /* one answer (a batch: all its results) */
    int read_timeout_ms;     /* an incomplete message */
    int idle_timeout_ms;     /* nothing in flight, 0: never */
    int load_timeout_ms;     /* a worker loading its plugins */
    size_t worker_memory;    /* RLIMIT_DATA of a worker, 0: none */
    long long idle_exit_ms;  /* the config's idle_exit, -1: not set, 0: off */
} limits;

typedef struct daemon_state {
    uv_loop_t *loop;
    char exe[4096];
    char config_path[4096];
    char socket_path[4096];
    char pid_file[4096];
    int workers_opt;       /* --workers, 0: from the config */
    uint64_t idle_exit_ms; /* exit after this long with no connection (0: never) */
    bool foreground;
    bool system_mode; /* --system: the system-wide daemon (socket 0660) */
    char group[64];   /* --group: the socket's group ("" none) */
    long sock_gid;    /* its gid (system mode: ours), -1: owner-only socket */
    bool activated;   /* the listener came from systemd (LISTEN_FDS) */
    int pid_fd;       /* the locked pid file, -1: none */
    int config_fd;    /* the loaded config's sealed copy the workers load, -1: the file */
    limits lim;
    int nprofile;
    char (*profiles)[48];
    int ntechniques;
    unsigned generation; /* config loads */
    uint64_t started_ms;

    uv_pipe_t listener;
    bool listening;
    bool draining;
    uv_signal_t sig_hup, sig_term, sig_int;

    uint64_t requests;
    size_t input_memory; /* incomplete messages + accepted requests, bytes */
    int ready_fd;        /* detaching: tell the parent we listen (-1: none) */
} daemon_state;

extern daemon_state D;

/* Idle memory back to the kernel (trim.c): trim_setup() the daemon's malloc
 * settings, trim_start() its timer. */
void trim_setup(void);
void trim_start(void);

/* ---- the config that serves (reload.c) ------------------------------------- *
 * The master reads only the settings; a child loads the plugins (the master
 * never runs plugin code). */

/* Startup: read the config, have a short-lived worker load it, keep the
 * numbers and profile names. False with err when it does not load. */
bool daemon_load_config(const char *path, sdk_error *err);
/* Reload (SIGHUP): start a new generation of workers on the file as it is
 * now; the old one serves until the new one is ready. False with err when
 * the settings are refused at once (the rest is logged when known). */
bool daemon_reload(sdk_error *err);
/* The reload method: answered when the new generation is ready or refused. */
void daemon_reload_request(conn *c, uint32_t msgid);
void reload_forget_conn(conn *c);
/* workers.c reports on the workers of a generation being tried. */
bool reload_trying(unsigned gen);
void reload_worker_ready(unsigned gen, const char *body, size_t n);
void reload_worker_failed(unsigned gen, const char *code, const char *msg);
/* A worker of gen died (or was killed) before it was ready. */
void reload_loader_died(unsigned gen, const worker_shm *shm, int status, int sig);
void reload_cancel(const char *why);

void daemon_begin_drain(void);

/* Say what asks for the next reload (its one log line names it). */
void daemon_reload_why(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void daemon_check_drained(void);
uint64_t now_ms(void);

/* ---- living with the daemon (life.c) ------------------------------------------ */

/* The default socket: --system's, else $XDG_RUNTIME_DIR/sudokud.sock, else
 * /tmp/sudokud-UID/sudokud.sock (never the system daemon's). */
void life_default_socket(char *out, size_t n, bool system_mode);
bool life_is_private_default(const char *path);
/* Make or check the private folder: a directory of ours, mode 0700. */
bool life_private_dir(const char *dir, char *why, size_t n);
/* "600", "30s", "10m", "1h", "250ms", "off"; false when not a duration. */
bool life_parse_duration(const char *s, uint64_t *ms);
void life_idle_start(uint64_t ms);
void life_idle_stop(void);
/* What a loaded config has (technique ids, profile signatures, plugin
 * files): a worker packs it into its READY frame (life_ready_keys more keys),
 * the master parses it, and when that generation serves, remembers it and
 * what changed since the last. */
struct sdk_config;
typedef struct loaded life_loaded;
int life_ready_keys(void);
void life_pack_ready(msgpack_packer *pk, const struct sdk_config *cfg);
life_loaded *life_parse_ready(const msgpack_object *o);
void life_loaded_free(life_loaded *l);
void life_generation_accepted(life_loaded *l);
void life_free(void);
int life_changes_keys(void);
void life_pack_changes(msgpack_packer *pk);
const char *life_changes_text(char *buf, size_t n);
/* Before work goes to the workers: reload when a plugin file changed. */
void life_check_plugins(void);
/* True while the reload a changed plugin asked for runs: no dispatch. */
bool life_plugins_stale(void);
void life_reload_ended(void);

/* ---- systemd (sd.c) ---------------------------------------------------------- */

/* Read NOTIFY_SOCKET and LISTEN_FDS (then remove them from the environment). */
void sd_init(void);
bool sd_notifying(void);
/* Send "READY=1", "RELOADING=1", "STOPPING=1", "STATUS=..." lines (one
 * datagram) when there is a notify socket; nothing otherwise. */
void sd_notifyf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The socket systemd passed (activation), -1 when none. */
int sd_listen_fd(void);

/* ---- connections (server.c) ------------------------------------------------ */

struct conn {
    uv_pipe_t h;
    sdk_wire_reader rd;
    conn *next, *prev;
    unsigned id;
    int jobs;               /* unanswered requests of this connection */
    uint64_t last_served;   /* when a worker last took a piece of its work */
    unsigned pass;          /* workers.c's pick(): seen in this pass */
    unsigned uid;           /* the peer's */
    uint64_t partial_since; /* ms: an incomplete message began (0: none) */
    uint64_t last_active;   /* ms: the last byte read or answer written */
    size_t partial;         /* its metered cost, counted in D.input_memory */
    size_t kept;            /* a busy reader's big buffer, counted there too (server.c) */
    bool held;              /* unsent answers passed max_output: its jobs wait */
    bool closing;           /* no more reading; close when writes are done */
    bool paused;            /* reading stopped while writes back up */
    bool dead;              /* handle closed */
};

bool server_listen(sdk_error *err);
void server_stop_listening(void);
/* Send bytes (copied) to a connection. */
void conn_send(conn *c, const char *data, size_t n);
/* An answer built in place, not copied: conn_send_alloc(n) gives room for
 * n bytes (NULL when out of memory), conn_send_built() sends the first n of
 * them and owns the buffer from then on; given NULL it closes the
 * connection, as conn_send does when out of memory. */
char *conn_send_alloc(size_t n);
void conn_send_built(conn *c, char *data, size_t n);
/* An answer sent from memory it does not own: head (n bytes, copied), then
 * the parts as they are, in one write; done(arg) once they are written (or
 * the connection is gone), when they may be freed. */
void conn_send_parts(conn *c, const char *head, size_t n, const uv_buf_t *parts, unsigned nparts,
                     void (*done)(void *), void *arg);
/* Send an error response. */
void conn_send_error(conn *c, uint32_t msgid, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Stop reading and close after pending writes. */
void conn_close(conn *c);
/* One of c's jobs was answered (c->jobs already decremented). */
void conn_job_done(conn *c);
void server_close_all(void);
/* Connections open now. */
int server_connections(void);
/* The config that serves changed D.lim: the open connections take its
 * max_message. */
void server_limits_changed(void);
/* Bytes written to c but not yet taken by the peer. */
size_t conn_unsent(conn *c);

/* ---- requests (rpc.c) -------------------------------------------------------- */

/* One whole message from a client. */
void rpc_handle(conn *c, const msgpack_object *o);

/* ---- jobs and workers: workers.h (their state is private to workers.c) ---- */

#endif
