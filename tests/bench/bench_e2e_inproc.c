/* bench_e2e_inproc.c - the in-process baseline of the end-to-end benchmark:
 * the work `sudoctl solve -f FILE` asks of sudokud, done in one thread of one
 * process, so that bench_e2e.py can report end-to-end throughput as a ratio.
 *
 * Modes:
 *   direct  - read the file with sdk_reader, sdk_parse, sdk_solve_grid
 *             (count to 2), print "<solution>  unique" lines (to /dev/null)
 *   service - the same puzzles through sdk_service_handle("solve") in batches
 *             of 256, as a sudokud worker runs them (msgpack in and out)
 *   solver  - the in-process count-to-2 solver alone, as bench_solver times
 *             it: the file read and parsed first (not timed), then
 *             sdk_solve(values, 2) on every puzzle
 *
 * usage: bench_e2e_inproc [-r runs] [-m direct|service|solver] [-c config] FILE
 * Prints one line per run and the medians: "median_s <wall seconds> puzzles
 * <n> rate <per wall second> cpu_s <process CPU seconds>" (the CPU of the
 * timed part only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sudoku/format.h"
#include "sudoku/host.h"
#include "sudoku/service.h"
#include "sudoku/solver.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static long run_direct(const char *file, FILE *out)
{
    FILE *in = fopen(file, "r");
    if (!in) return -1;
    sdk_reader rd;
    sdk_reader_init(&rd, in);
    const char *text;
    long line, n = 0;
    while (sdk_reader_next(&rd, &text, &line) == 1) {
        sdk_grid g;
        sdk_error err;
        n++;
        if (!sdk_parse(text, &g, &err)) {
            fprintf(out, "%s  error: %s: %s\n", text, err.code, err.msg);
            continue;
        }
        uint8_t sol[2][81];
        sdk_solver_stats st = {0};
        int k = sdk_solve_grid(&g, 2, sol, &st);
        char buf[96];
        if (k >= 1) {
            for (int i = 0; i < 81; i++) buf[i] = (char)('0' + sol[0][i]);
            buf[81] = 0;
        } else
            sdk_format_line(&g, buf);
        fprintf(out, "%s  %s\n", buf, k == 1 ? "unique" : k == 0 ? "none" : "multiple");
    }
    sdk_reader_free(&rd);
    fclose(in);
    return n;
}

/* The puzzles of file as values, for the solver mode (read once). */
static uint8_t (*load_values(const char *file, long *n))[81]
{
    FILE *in = fopen(file, "r");
    if (!in) return NULL;
    sdk_reader rd;
    sdk_reader_init(&rd, in);
    const char *text;
    long line, cap = 1024;
    uint8_t(*v)[81] = malloc((size_t)cap * 81);
    *n = 0;
    while (v && sdk_reader_next(&rd, &text, &line) == 1) {
        sdk_grid g;
        sdk_error err;
        if (!sdk_parse(text, &g, &err)) continue;
        if (*n == cap) {
            cap *= 2;
            uint8_t(*w)[81] = realloc(v, (size_t)cap * 81);
            if (!w) break;
            v = w;
        }
        memcpy(v[(*n)++], g.value, 81);
    }
    sdk_reader_free(&rd);
    fclose(in);
    return v;
}

static long run_solver(uint8_t (*v)[81], long n, FILE *out)
{
    long unique = 0;
    for (long i = 0; i < n; i++) {
        uint8_t sol[2][81];
        sdk_solver_stats st;
        unique += sdk_solve(v[i], 2, sol, &st) == 1;
    }
    fprintf(out, "%ld unique\n", unique);
    return n;
}

static long run_service(const char *file, sdk_service *sv, FILE *out)
{
    FILE *in = fopen(file, "r");
    if (!in) return -1;
    sdk_reader rd;
    sdk_reader_init(&rd, in);
    const char *text;
    long line, n = 0;
    enum { CHUNK = 256 };
    char *batch[CHUNK];
    int nb = 0;
    bool eof = false;
    msgpack_sbuffer req, res;
    msgpack_sbuffer_init(&req);
    msgpack_sbuffer_init(&res);
    while (!eof) {
        if (sdk_reader_next(&rd, &text, &line) == 1)
            batch[nb++] = strdup(text);
        else
            eof = true;
        if (nb == CHUNK || (eof && nb)) {
            msgpack_packer pk;
            msgpack_sbuffer_clear(&req);
            msgpack_packer_init(&pk, &req, msgpack_sbuffer_write);
            msgpack_pack_map(&pk, 1);
            msgpack_pack_str(&pk, 7);
            msgpack_pack_str_body(&pk, "puzzles", 7);
            msgpack_pack_array(&pk, (size_t)nb);
            for (int i = 0; i < nb; i++) {
                size_t l = strlen(batch[i]);
                msgpack_pack_str(&pk, l);
                msgpack_pack_str_body(&pk, batch[i], l);
                free(batch[i]);
            }
            msgpack_unpacked up;
            msgpack_unpacked_init(&up);
            msgpack_unpack_next(&up, req.data, req.size, NULL);
            msgpack_sbuffer_clear(&res);
            msgpack_packer rp;
            msgpack_packer_init(&rp, &res, msgpack_sbuffer_write);
            sdk_error err;
            if (!sdk_service_handle(sv, "solve", &up.data, &rp, &err))
                fprintf(stderr, "service: %s: %s\n", err.code, err.msg);
            fwrite(res.data, 1, res.size, out);
            msgpack_unpacked_destroy(&up);
            n += nb;
            nb = 0;
        }
    }
    msgpack_sbuffer_destroy(&req);
    msgpack_sbuffer_destroy(&res);
    sdk_reader_free(&rd);
    fclose(in);
    return n;
}

int main(int argc, char **argv)
{
    int runs = 5, c;
    const char *mode = "direct", *conf = getenv("SUDOKU_CONF");
    while ((c = getopt(argc, argv, "r:m:c:")) != -1) {
        switch (c) {
        case 'r':
            runs = atoi(optarg);
            break;
        case 'm':
            mode = optarg;
            break;
        case 'c':
            conf = optarg;
            break;
        default:
            fprintf(stderr, "usage: %s [-r runs] [-m direct|service|solver] [-c config] FILE\n",
                    argv[0]);
            return 2;
        }
    }
    if (optind >= argc || runs < 1) {
        fprintf(stderr, "usage: %s [-r runs] [-m direct|service|solver] [-c config] FILE\n",
                argv[0]);
        return 2;
    }
    const char *file = argv[optind];
    bool service = !strcmp(mode, "service"), solver = !strcmp(mode, "solver");
    long nv = 0;
    uint8_t(*values)[81] = solver ? load_values(file, &nv) : NULL;
    if (solver && !values) {
        perror(file);
        return 1;
    }
    sdk_config cfg;
    sdk_service sv;
    sdk_error err;
    if (service) {
        if (!conf) {
            fprintf(stderr, "service mode needs -c config (or $SUDOKU_CONF)\n");
            return 2;
        }
        if (!sdk_config_load(conf, &cfg, &err) || !sdk_service_init(&sv, &cfg, NULL, &err)) {
            fprintf(stderr, "%s: %s\n", conf, err.msg);
            return 1;
        }
    }
    FILE *out = fopen("/dev/null", "w");
    double *t = calloc((size_t)runs * 2, sizeof *t), *cpu = t + runs;
    long n = 0;
    for (int r = 0; r < runs; r++) {
        double t0 = now(), c0 = cpu_now();
        n = solver    ? run_solver(values, nv, out)
            : service ? run_service(file, &sv, out)
                      : run_direct(file, out);
        fflush(out);
        t[r] = now() - t0;
        cpu[r] = cpu_now() - c0;
        if (n < 0) {
            perror(file);
            return 1;
        }
        printf("run %d: %.4f s  %.0f puzzles/s  cpu %.4f s\n", r + 1, t[r], n / t[r], cpu[r]);
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    qsort(cpu, (size_t)runs, sizeof *cpu, cmp_double);
    printf("median_s %.6f puzzles %ld rate %.0f cpu_s %.6f\n", t[runs / 2], n, n / t[runs / 2],
           cpu[runs / 2]);
    free(values);
    fclose(out);
    free(t);
    if (service) {
        sdk_service_free(&sv);
        sdk_config_free(&cfg);
    }
    return 0;
}
