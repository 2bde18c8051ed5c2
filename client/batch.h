/* batch.h - sudoctl's batch pipeline: puzzles go to sudokud in requests of
 * several puzzles (pieces), a bounded window of them in flight, and the
 * answers come out in input order. The window keeps both the daemon and the
 * client busy without holding the whole input in memory: a million-line file
 * runs in constant memory, and the first answers print at once (the first
 * pieces are small and grow). Busy answers are retried with a backoff; an
 * error of a whole request that concerns its puzzles (a crash, a deadline)
 * is printed for each of them; one about the request stops the run. Ctrl-C
 * prints what is complete and says how much was lost; a closed stdout
 * (`| head`) ends the run at once. */
#ifndef SUDOCTL_BATCH_H
#define SUDOCTL_BATCH_H

#include <stdbool.h>
#include <msgpack.h>

#include "render.h"
#include "rpc.h"

/* sudoctl's exit statuses (every command) */
#define EXIT_PUZZLE 1 /* some puzzle invalid, unsolvable or not solved */
#define EXIT_USAGE 2
#define EXIT_DAEMON 3 /* cannot reach the daemon, or it refused the request */
#define EXIT_DEADLINE 4
#define EXIT_INTERRUPTED 130

/* Pack the params map of one request of the plan for these puzzles with pk
 * (p->pack_ctx: the caller's); progress: ask the daemon for progress
 * notifications. The puzzles come already packed: `packed` (packed_len
 * bytes) holds their n msgpack strings one after the other, to be lent to
 * the queue (rpc_send_lent) after the array's header. */
typedef struct batch_plan batch_plan;
typedef void batch_pack_fn(msgpack_packer *pk, const batch_plan *p, const char *packed,
                           size_t packed_len, int n, bool progress);

struct batch_plan {
    const char *prog;   /* for the messages */
    const char *method; /* the daemon's method: solve, rate, explain, hint, trace */
    rpc_conn *conn;     /* connected (the caller closes it) */
    char **args;        /* puzzles from the command line, read first */
    int nargs;
    const char **files; /* then these files ("-": stdin) */
    int nfiles;
    int chunk;        /* puzzles per request */
    bool chunk_fixed; /* every request that size (else the first ones are small) */
    int window;       /* requests in flight */
    double timeout;   /* the requests' timeout in s (0: none): stop waiting after it */
    int progress;     /* progress bar on stderr: -1 auto (a terminal, files), 0 off, 1 on */
    const render_opts *ro;
    batch_pack_fn *pack;
    const void *pack_ctx;
    /* A request refused with this error: true when pack now asks otherwise
     * (an older sudokud that does not know an optional parameter), and the
     * request is sent again. NULL: none. */
    bool (*refused)(const batch_plan *p, const char *code, const char *msg);
};

/* Send every puzzle of the input, print the answers; the exit status. From
 * an interactive stdin, each line is answered as it is typed. */
int batch_run(const batch_plan *p);

#endif
