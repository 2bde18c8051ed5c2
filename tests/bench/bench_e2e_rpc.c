/* bench_e2e_rpc.c - small-request load on a running sudokud: requests/s and
 * latency percentiles (p50, p99) for one method with one puzzle per request,
 * over C connections each keeping D requests in flight (D = 1: not
 * pipelined). Uses sudoctl's msgpack-rpc client (client/rpc.c).
 *
 * usage: bench_e2e_rpc -s SOCKET [-c conns] [-d depth] [-n requests-per-conn]
 *                      [-m method] [-p puzzle]
 * Prints: "conns C depth D requests N rps R p50_us X p99_us Y errors E".
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rpc.h"

static const char *sock_path, *method = "solve";
static const char *puzzle =
    "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..";
static int depth = 1, per_conn = 2000;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct worker {
    pthread_t th;
    double *lat; /* seconds, one per request */
    int done, errors;
    bool failed;
} worker;

static void *run(void *arg)
{
    worker *w = arg;
    rpc_conn *c = rpc_connect(sock_path);
    if (!c) {
        perror(sock_path);
        w->failed = true;
        return NULL;
    }
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    if (strcmp(method, "status") && strcmp(method, "techniques")) {
        msgpack_pack_map(&pk, 1);
        msgpack_pack_str(&pk, 6);
        msgpack_pack_str_body(&pk, "puzzle", 6);
        size_t l = strlen(puzzle);
        msgpack_pack_str(&pk, l);
        msgpack_pack_str_body(&pk, puzzle, l);
    } else
        msgpack_pack_map(&pk, 0);
    /* msgids are 1, 2, ... in send order: sent[msgid - 1] is its send time */
    double *sent = calloc((size_t)per_conn + 1, sizeof *sent);
    int nsent = 0;
    while (w->done < per_conn) {
        while (nsent < per_conn && nsent - w->done < depth) {
            uint32_t id = rpc_send(c, method, sb.data, sb.size);
            sent[id - 1] = now();
            nsent++;
        }
        rpc_msg m;
        int r = rpc_wait(c, &m, 30000);
        if (r <= 0) {
            fprintf(stderr, "connection: %s\n", r == 0 ? "timeout" : rpc_error(c));
            w->failed = true;
            break;
        }
        if (m.kind == 1 && m.msgid >= 1 && m.msgid <= (uint32_t)per_conn) {
            w->lat[w->done++] = now() - sent[m.msgid - 1];
            if (m.error.type != MSGPACK_OBJECT_NIL) w->errors++;
        }
        rpc_msg_free(&m);
    }
    free(sent);
    msgpack_sbuffer_destroy(&sb);
    rpc_close(c);
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int conns = 1, c;
    while ((c = getopt(argc, argv, "s:c:d:n:m:p:")) != -1) {
        switch (c) {
        case 's':
            sock_path = optarg;
            break;
        case 'c':
            conns = atoi(optarg);
            break;
        case 'd':
            depth = atoi(optarg);
            break;
        case 'n':
            per_conn = atoi(optarg);
            break;
        case 'm':
            method = optarg;
            break;
        case 'p':
            puzzle = optarg;
            break;
        default:
            sock_path = NULL;
        }
    }
    if (!sock_path || conns < 1 || depth < 1 || per_conn < 1) {
        fprintf(stderr,
                "usage: %s -s SOCKET [-c conns] [-d depth] [-n requests] [-m method] [-p puzzle]\n",
                argv[0]);
        return 2;
    }
    worker *w = calloc((size_t)conns, sizeof *w);
    double t0 = now();
    for (int i = 0; i < conns; i++) {
        w[i].lat = calloc((size_t)per_conn, sizeof *w[i].lat);
        pthread_create(&w[i].th, NULL, run, &w[i]);
    }
    for (int i = 0; i < conns; i++) pthread_join(w[i].th, NULL);
    double el = now() - t0;
    size_t total = 0;
    int errors = 0;
    bool failed = false;
    for (int i = 0; i < conns; i++)
        total += (size_t)w[i].done, errors += w[i].errors, failed |= w[i].failed;
    double *all = malloc((total ? total : 1) * sizeof *all);
    size_t k = 0;
    for (int i = 0; i < conns; i++) {
        memcpy(all + k, w[i].lat, (size_t)w[i].done * sizeof *all);
        k += (size_t)w[i].done;
        free(w[i].lat);
    }
    qsort(all, total, sizeof *all, cmp_double);
    double p50 = total ? all[total / 2] : 0, p99 = total ? all[(size_t)(total * 0.99)] : 0;
    printf("conns %d depth %d requests %zu rps %.0f p50_us %.0f p99_us %.0f errors %d\n", conns,
           depth, total, total / el, p50 * 1e6, p99 * 1e6, errors);
    free(all);
    free(w);
    return failed ? 1 : 0;
}
