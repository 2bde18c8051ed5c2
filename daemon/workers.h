/* workers.h - the worker pool and its job queue, as the rest of sudokud sees
 * them. A client request that needs plugin code becomes a job; workers.c
 * alone holds the jobs (the unanswered ones and the queue of those with work
 * not yet handed out), the worker processes and their counters. The other
 * files talk to it through these calls: hand it a request, tell it a
 * connection went away, ask how much is waiting, stop it. Nobody else walks
 * the queue or the workers, so their rules (turns between connections, piece
 * sizes, deadlines, crashes) live in one file.
 *
 * The pool answers each job exactly once, on the job's connection (with
 * conn_send), and reports back through conn_job_done and
 * daemon_check_drained (daemon.h). */
#ifndef SUDOKUD_WORKERS_H
#define SUDOKUD_WORKERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <msgpack.h>

typedef struct conn conn;

/* ---- requests ---------------------------------------------------------------- */

typedef enum {
    WORKERS_SUBMITTED,     /* queued: it will be answered */
    WORKERS_OUT_OF_MEMORY, /* the job could not be made */
    WORKERS_OVER_BUDGET,   /* its bytes would pass max_input_memory */
} workers_submit_result;

/* Queue a request of c for the workers (a copy of what it needs is taken
 * from params). Anything but WORKERS_SUBMITTED: nothing was queued, and the
 * caller answers the error. */
workers_submit_result workers_submit(conn *c, uint32_t msgid, const char *method,
                                     const msgpack_object *params);
/* A connection is going away: its jobs are answered to nobody, and the
 * workers on them are stopped. */
void workers_forget_conn(conn *c);

/* ---- what is going on -------------------------------------------------------- */

/* Requests given to the pool and not yet answered (waiting or running). */
int workers_jobs(void);

typedef struct workers_stats {
    int workers; /* ready to serve (idle or busy) */
    int busy;
    int queued;       /* jobs with work not yet handed out */
    int jobs;         /* as workers_jobs() */
    uint64_t crashes; /* workers that crashed or ran out of memory on a task */
    uint64_t killed;  /* workers killed from outside */
} workers_stats;
void workers_get_stats(workers_stats *s);

/* ---- the pool's life ----------------------------------------------------------- */

/* Startup: spawn the workers of the config that serves; false when none
 * could start. */
bool workers_start(void);
/* Hand queued work to idle workers (a held connection read its answers; a
 * refused reload leaves the old generation serving). */
void workers_dispatch(void);
/* The memory each idle worker shares with the daemon for pieces and answers
 * (daemon.h) back to the kernel: an idle daemon's trim (trim.c). */
void workers_trim_shared(void);
/* Drained (no job left): stop every worker and the pool's timers. */
void workers_stop_all(void);

/* ---- reload (reload.c) --------------------------------------------------------- */

/* Start n workers of generation gen on config fd (not yet serving). */
void workers_try_generation(unsigned gen, int n, int config_fd);
/* The plugin a starting worker of gen is loading ("" when none). */
const char *workers_loading(unsigned gen);
void workers_kill_generation(unsigned gen);
/* Reload accepted (gen is D.generation): old workers retire. */
void workers_roll(void);

#endif
