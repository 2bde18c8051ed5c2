/* generate.c - `sudoctl generate`: puzzles made to order by the daemon.
 *
 * The options become one target (docs/PROTOCOL.md, method `generate`); the
 * count is asked for in pieces (`first`, `count`) with a few pieces in
 * flight, so the daemon spreads them over its workers and the output starts
 * at once, in order, with constant memory. Puzzle i of a seed is the same
 * whoever makes it, so a run with --seed is reproducible. Text output is
 * exactly `sudoctl rate`'s line for the puzzle, so a generated file rates
 * back to itself. */
#include "generate.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "render.h"

#define EXIT_PUZZLE 1
#define EXIT_USAGE 2
#define EXIT_DAEMON 3
#define WINDOW 4

static const char *prog = "sudoctl";

static void gen_usage(FILE *f)
{
    fprintf(f,
            "usage: %s generate [options]\n"
            "\n"
            "Makes puzzles with exactly one solution, to order. Every puzzle comes with\n"
            "its rating as `sudoctl rate` gives it (the same line, in text).\n"
            "\n"
            "target (all combinable):\n"
            "  --count N            how many puzzles (default 1)\n"
            "  --er A-B             Sudoku Explainer rating range (9.0-, -4.5, 7.1)\n"
            "  --ep A-B, --ed A-B   SE's pearl and diamond ratings\n"
            "  --level L            HoDoKu level: easy, medium, hard, unfair, extreme\n"
            "                       (judged with the hodoku profile)\n"
            "  --needs ID[,ID..]    the solution path uses these techniques\n"
            "  --hardest ID         the hardest step is this technique\n"
            "  --pattern            --needs comes right after simple steps (singles,\n"
            "                       intersections, subsets): HoDoKu's ssts X ssts\n"
            "  --symmetry S         none, rotational, rot90, mirror, flip, biaxial,\n"
            "                       diagonal, antidiagonal, dihedral\n"
            "  --clues A-B          number of clues\n"
            "  --minimal            no clue can be taken away\n"
            "  --givens GRID        the clue cells (81 characters: digit or x = clue)\n"
            "  --profile NAME       profile that rates the puzzles (default: the\n"
            "                       daemon's; hodoku when only --level is given)\n"
            "  --seed S             same seed, same puzzles (default: from the clock)\n"
            "  --max-seconds S      time budget per puzzle (default 300, within the\n"
            "                       daemon's deadline)\n"
            "  --max-tries N        candidate puzzles to rate per puzzle at most\n"
            "\n"
            "output: --json (one object per puzzle), --html, else text lines\n"
            "other: --socket PATH, --timeout S, --no-autostart, --progress, --no-progress\n"
            "\n"
            "exit status: 0 all made, 1 some target not met within its budget, 2 usage,\n"
            "3 cannot reach the daemon\n",
            prog);
}

/* "A-B", "A-", "-B" or "A" into [lo, hi]; ratings in tenths. -1: open. */
static bool parse_range(const char *s, bool tenths, double lo_min, double hi_max, double *lo,
                        double *hi)
{
    *lo = *hi = -1;
    const char *dash = strchr(s, '-');
    char a[32] = "", b[32] = "";
    if (strlen(s) >= sizeof a) return false;
    if (dash) {
        memcpy(a, s, (size_t)(dash - s));
        a[dash - s] = 0;
        snprintf(b, sizeof b, "%s", dash + 1);
    } else {
        snprintf(a, sizeof a, "%s", s);
        snprintf(b, sizeof b, "%s", s);
    }
    if (!*a && !*b) return false;
    const char *part[2] = {a, b};
    double *out[2] = {lo, hi};
    for (int i = 0; i < 2; i++) {
        if (!*part[i]) continue;
        char *end;
        errno = 0;
        double v = strtod(part[i], &end);
        if (errno || *end || end == part[i] || v < lo_min || v > hi_max) return false;
        if (!tenths && v != floor(v)) return false;
        *out[i] = v;
    }
    return *lo < 0 || *hi < 0 || *lo <= *hi;
}

static void pack_str(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

static void pack_range(msgpack_packer *pk, const char *key, const double r[2], bool tenths)
{
    pack_str(pk, key);
    msgpack_pack_array(pk, 2);
    for (int i = 0; i < 2; i++) {
        if (r[i] < 0)
            msgpack_pack_nil(pk);
        else if (tenths)
            msgpack_pack_double(pk, r[i]);
        else
            msgpack_pack_int(pk, (int)r[i]);
    }
}

typedef struct target {
    long count, seed, max_tries;
    double max_seconds;
    double er[2], ep[2], ed[2], clues[2];
    bool has_er, has_ep, has_ed, has_clues, pattern, minimal;
    const char *level, *needs, *hardest, *symmetry, *givens, *profile;
} target;

/* The params of the piece [first, first+count). */
static void pack_target(msgpack_sbuffer *sb, const target *t, long first, long count, bool progress)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    int n = 3 + t->has_er + t->has_ep + t->has_ed + t->has_clues + t->pattern + t->minimal +
            !!t->level + !!t->needs + !!t->hardest + !!t->symmetry + !!t->givens + !!t->profile +
            (t->max_tries > 0) + (t->max_seconds > 0) + progress;
    msgpack_pack_map(&pk, (size_t)n);
    pack_str(&pk, "seed");
    msgpack_pack_long(&pk, t->seed);
    pack_str(&pk, "first");
    msgpack_pack_long(&pk, first);
    pack_str(&pk, "count");
    msgpack_pack_long(&pk, count);
    if (t->has_er) pack_range(&pk, "er", t->er, true);
    if (t->has_ep) pack_range(&pk, "ep", t->ep, true);
    if (t->has_ed) pack_range(&pk, "ed", t->ed, true);
    if (t->has_clues) pack_range(&pk, "clues", t->clues, false);
    if (t->pattern) pack_str(&pk, "pattern"), msgpack_pack_true(&pk);
    if (t->minimal) pack_str(&pk, "minimal"), msgpack_pack_true(&pk);
    if (t->level) pack_str(&pk, "level"), pack_str(&pk, t->level);
    if (t->hardest) pack_str(&pk, "hardest"), pack_str(&pk, t->hardest);
    if (t->symmetry) pack_str(&pk, "symmetry"), pack_str(&pk, t->symmetry);
    if (t->givens) pack_str(&pk, "givens"), pack_str(&pk, t->givens);
    if (t->profile) pack_str(&pk, "profile"), pack_str(&pk, t->profile);
    if (t->max_tries > 0) pack_str(&pk, "max_tries"), msgpack_pack_long(&pk, t->max_tries);
    if (t->max_seconds > 0) pack_str(&pk, "max_seconds"), msgpack_pack_double(&pk, t->max_seconds);
    if (progress) pack_str(&pk, "progress"), msgpack_pack_true(&pk);
    if (t->needs) {
        int k = 1;
        for (const char *p = t->needs; *p; p++) k += *p == ',';
        pack_str(&pk, "needs");
        msgpack_pack_array(&pk, (size_t)k);
        const char *p = t->needs;
        for (int i = 0; i < k; i++) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            msgpack_pack_str(&pk, len);
            msgpack_pack_str_body(&pk, p, len);
            p = e ? e + 1 : p + len;
        }
    }
}

/* Text: `sudoctl rate`'s line. */
static void print_text(FILE *f, const msgpack_object *r)
{
    char pz[128], lv[32], hd[64];
    double v[3];
    const char *k[3] = {"er", "ep", "ed"};
    for (int i = 0; i < 3; i++) v[i] = sdk_wire_num(sdk_wire_get(r, k[i]), 0);
    fprintf(f, "%s  %.1f/%.1f/%.1f  %s  %s\n",
            sdk_wire_text(sdk_wire_get(r, "puzzle"), pz, sizeof pz), v[0], v[1], v[2],
            sdk_wire_text(sdk_wire_get(r, "level"), lv, sizeof lv),
            sdk_wire_text(sdk_wire_get(r, "hardest"), hd, sizeof hd));
}

typedef struct piece {
    uint32_t msgid;
    long first, count;
    bool done;
    rpc_msg m;
} piece;

int generate_main(int argc, char **argv, const gen_env *env)
{
    enum {
        O_COUNT = 300,
        O_ER,
        O_EP,
        O_ED,
        O_LEVEL,
        O_NEEDS,
        O_HARDEST,
        O_PATTERN,
        O_SYMMETRY,
        O_CLUES,
        O_MINIMAL,
        O_GIVENS,
        O_PROFILE,
        O_SEED,
        O_MAX_SECONDS,
        O_MAX_TRIES,
        O_SOCKET,
        O_TIMEOUT,
        O_JSON,
        O_HTML,
        O_NO_AUTOSTART,
        O_PROGRESS,
        O_NO_PROGRESS
    };
    static const struct option longopts[] = {
        {"count", required_argument, NULL, O_COUNT},
        {"er", required_argument, NULL, O_ER},
        {"ep", required_argument, NULL, O_EP},
        {"ed", required_argument, NULL, O_ED},
        {"level", required_argument, NULL, O_LEVEL},
        {"needs", required_argument, NULL, O_NEEDS},
        {"hardest", required_argument, NULL, O_HARDEST},
        {"pattern", no_argument, NULL, O_PATTERN},
        {"symmetry", required_argument, NULL, O_SYMMETRY},
        {"clues", required_argument, NULL, O_CLUES},
        {"minimal", no_argument, NULL, O_MINIMAL},
        {"givens", required_argument, NULL, O_GIVENS},
        {"profile", required_argument, NULL, O_PROFILE},
        {"seed", required_argument, NULL, O_SEED},
        {"max-seconds", required_argument, NULL, O_MAX_SECONDS},
        {"max-tries", required_argument, NULL, O_MAX_TRIES},
        {"socket", required_argument, NULL, O_SOCKET},
        {"timeout", required_argument, NULL, O_TIMEOUT},
        {"json", no_argument, NULL, O_JSON},
        {"html", no_argument, NULL, O_HTML},
        {"no-autostart", no_argument, NULL, O_NO_AUTOSTART},
        {"progress", no_argument, NULL, O_PROGRESS},
        {"no-progress", no_argument, NULL, O_NO_PROGRESS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    target t = {.count = 1, .seed = -1};
    const char *socket = env->socket;
    bool socket_given = false, no_autostart = false;
    double timeout = 0;
    int mode = OUT_TEXT, progress_opt = -1;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        char *end;
        double lo, hi;
        switch (ch) {
        case O_COUNT:
            errno = 0;
            t.count = strtol(optarg, &end, 10);
            if (errno || *end || end == optarg || t.count < 1 || t.count > 100000000) {
                fprintf(stderr, "%s: --count wants 1..100000000, not '%s'\n", prog, optarg);
                return EXIT_USAGE;
            }
            break;
        case O_ER:
        case O_EP:
        case O_ED: {
            const char *name = ch == O_ER ? "--er" : ch == O_EP ? "--ep" : "--ed";
            if (!parse_range(optarg, true, 0, 100, &lo, &hi)) {
                fprintf(stderr,
                        "%s: %s wants a rating range like 7.0-8.9, 9.0- or -4.5 (ratings 0 to "
                        "100, low end first), not '%s'\n",
                        prog, name, optarg);
                return EXIT_USAGE;
            }
            double *r = ch == O_ER ? t.er : ch == O_EP ? t.ep : t.ed;
            r[0] = lo, r[1] = hi;
            if (ch == O_ER) t.has_er = true;
            if (ch == O_EP) t.has_ep = true;
            if (ch == O_ED) t.has_ed = true;
            break;
        }
        case O_CLUES:
            if (!parse_range(optarg, false, 17, 81, &lo, &hi)) {
                fprintf(stderr,
                        "%s: --clues wants a whole range within 17-81 like 22-26, 30- or -24, "
                        "not '%s'\n",
                        prog, optarg);
                return EXIT_USAGE;
            }
            t.clues[0] = lo, t.clues[1] = hi, t.has_clues = true;
            break;
        case O_LEVEL:
            t.level = optarg;
            break;
        case O_NEEDS:
            t.needs = optarg;
            break;
        case O_HARDEST:
            t.hardest = optarg;
            break;
        case O_PATTERN:
            t.pattern = true;
            break;
        case O_SYMMETRY:
            t.symmetry = optarg;
            break;
        case O_MINIMAL:
            t.minimal = true;
            break;
        case O_GIVENS:
            t.givens = optarg;
            break;
        case O_PROFILE:
            t.profile = optarg;
            break;
        case O_SEED:
            errno = 0;
            t.seed = strtol(optarg, &end, 10);
            if (errno || *end || end == optarg || t.seed < 0) {
                fprintf(stderr, "%s: --seed wants a number >= 0, not '%s'\n", prog, optarg);
                return EXIT_USAGE;
            }
            break;
        case O_MAX_SECONDS:
            t.max_seconds = strtod(optarg, &end);
            if (*end || end == optarg || !(t.max_seconds > 0) || t.max_seconds > 86400) {
                fprintf(stderr, "%s: --max-seconds wants 0 < S <= 86400, not '%s'\n", prog, optarg);
                return EXIT_USAGE;
            }
            break;
        case O_MAX_TRIES:
            errno = 0;
            t.max_tries = strtol(optarg, &end, 10);
            if (errno || *end || end == optarg || t.max_tries < 1) {
                fprintf(stderr, "%s: --max-tries wants a positive number, not '%s'\n", prog,
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case O_SOCKET:
            socket = optarg;
            socket_given = true;
            break;
        case O_TIMEOUT:
            timeout = strtod(optarg, &end);
            if (*end || end == optarg || !(timeout > 0)) {
                fprintf(stderr, "%s: --timeout wants a positive number of seconds\n", prog);
                return EXIT_USAGE;
            }
            break;
        case O_JSON:
            mode = OUT_JSON;
            break;
        case O_HTML:
            mode = OUT_HTML;
            break;
        case O_NO_AUTOSTART:
            no_autostart = true;
            break;
        case O_PROGRESS:
            progress_opt = 1;
            break;
        case O_NO_PROGRESS:
            progress_opt = 0;
            break;
        case 'h':
            gen_usage(stdout);
            return 0;
        default:
            fprintf(stderr, "%s: try '%s generate --help'\n", prog, prog);
            return EXIT_USAGE;
        }
    }
    /* the command word itself is the one operand */
    int operands = 0;
    for (int i = optind; i < argc; i++)
        if (strcmp(argv[i], "generate") || operands++) {
            fprintf(stderr,
                    "%s: generate takes no puzzles ('%s'); see --givens for a clue "
                    "pattern\n",
                    prog, argv[i]);
            return EXIT_USAGE;
        }
    if (t.pattern && !t.needs) {
        fprintf(stderr,
                "%s: --pattern goes with --needs (the technique after the simple "
                "steps)\n",
                prog);
        return EXIT_USAGE;
    }
    if (t.seed < 0)
        t.seed =
            (long)(((uint64_t)time(NULL) * 2654435761u) ^ (uint64_t)getpid()) & 0x7fffffffffffL;

    rpc_conn *conn = env->connect(socket, socket_given, no_autostart);
    if (!conn) return EXIT_DAEMON;
    bool show = progress_opt == 1 || (progress_opt < 0 && isatty(2));
    progress pg;
    progress_init(&pg, show, progress_opt == 1, t.count, 0);
    render_opts ro = {.out = stdout, .mode = mode, .cmd = "rate"};
    if (mode == OUT_HTML) render_begin(&ro);

    /* pieces: small enough to spread over the workers and show progress */
    long chunk = t.count / 16;
    if (chunk < 1) chunk = 1;
    if (chunk > 64) chunk = 64;
    piece win[WINDOW];
    int nwin = 0, head = 0;
    long next = 0, printed = 0, failed = 0;
    int status = 0;
    while (printed < t.count) {
        while (nwin < WINDOW && next < t.count) {
            piece *p = &win[(head + nwin) % WINDOW];
            memset(p, 0, sizeof *p);
            p->first = next;
            p->count = t.count - next < chunk ? t.count - next : chunk;
            msgpack_sbuffer sb;
            msgpack_sbuffer_init(&sb);
            pack_target(&sb, &t, p->first, p->count, show);
            p->msgid = rpc_send(conn, "generate", sb.data, sb.size);
            msgpack_sbuffer_destroy(&sb);
            next += p->count;
            nwin++;
        }
        rpc_msg m;
        int r = rpc_wait(conn, &m, timeout > 0 ? (int)(timeout * 1000) : -1);
        if (r == 0) {
            fprintf(stderr, "%s: sudokud did not answer within %g s\n", prog, timeout);
            status = EXIT_DAEMON;
            break;
        }
        if (r < 0) {
            fprintf(stderr, "%s: %s\n", prog, rpc_error(conn));
            status = EXIT_DAEMON;
            break;
        }
        if (m.kind == 2) { /* progress of the piece at the head */
            if (m.method_len == 8 && !memcmp(m.method, "progress", 8) && nwin > 0) {
                const msgpack_object *pr = &m.result;
                if (pr->type == MSGPACK_OBJECT_ARRAY && pr->via.array.size == 1)
                    pr = pr->via.array.ptr;
                if ((uint32_t)sdk_wire_int(sdk_wire_get(pr, "msgid"), -1) == win[head].msgid)
                    progress_update(&pg, printed + sdk_wire_int(sdk_wire_get(pr, "done"), 0), 0);
            }
            rpc_msg_free(&m);
            continue;
        }
        int k;
        for (k = 0; k < nwin; k++)
            if (win[(head + k) % WINDOW].msgid == m.msgid && !win[(head + k) % WINDOW].done) break;
        if (k == nwin) {
            rpc_msg_free(&m);
            continue;
        }
        piece *p = &win[(head + k) % WINDOW];
        p->m = m;
        p->done = true;
        while (nwin > 0 && win[head].done) { /* print in order */
            piece *q = &win[head];
            if (q->m.error.type != MSGPACK_OBJECT_NIL) {
                char code[64], msg[1024];
                sdk_wire_text(sdk_wire_get(&q->m.error, "code"), code, sizeof code);
                sdk_wire_text(sdk_wire_get(&q->m.error, "message"), msg, sizeof msg);
                progress_end(&pg);
                fprintf(stderr, "%s: generate: %s: %s\n", prog, code, msg);
                rpc_msg_free(&q->m);
                status = EXIT_USAGE;
                goto out;
            }
            const msgpack_object *res = sdk_wire_get(&q->m.result, "results");
            for (size_t i = 0; res && i < sdk_wire_len(res); i++) {
                const msgpack_object *it = &res->via.array.ptr[i];
                const msgpack_object *e = sdk_wire_get(it, "error");
                if (e && e->type != MSGPACK_OBJECT_NIL) {
                    char code[64], msg[1024];
                    failed++;
                    if (mode == OUT_JSON) {
                        json_write(stdout, it);
                        putchar('\n');
                    }
                    fprintf(stderr, "%s: puzzle %lld: %s: %s\n", prog,
                            sdk_wire_int(sdk_wire_get(it, "index"), -1),
                            sdk_wire_text(sdk_wire_get(e, "code"), code, sizeof code),
                            sdk_wire_text(sdk_wire_get(e, "message"), msg, sizeof msg));
                } else if (mode == OUT_JSON) {
                    json_write(stdout, it);
                    putchar('\n');
                } else if (mode == OUT_HTML) {
                    char pz[128];
                    sdk_wire_text(sdk_wire_get(it, "puzzle"), pz, sizeof pz);
                    render_puzzle(&ro, it, pz, "generated");
                } else {
                    print_text(stdout, it);
                }
            }
            printed += q->count;
            progress_update(&pg, printed, 0);
            rpc_msg_free(&q->m);
            head = (head + 1) % WINDOW;
            nwin--;
        }
        if (ferror(stdout)) break;
    }
out:
    for (int k = 0; k < nwin; k++)
        if (win[(head + k) % WINDOW].done) rpc_msg_free(&win[(head + k) % WINDOW].m);
    progress_end(&pg);
    if (mode == OUT_HTML) render_end(&ro);
    fflush(stdout);
    rpc_close(conn);
    if (!status && failed) status = EXIT_PUZZLE;
    return status;
}
