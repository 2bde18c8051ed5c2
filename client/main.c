/* main.c - sudoctl, the command-line client of sudokud: the command
 * dispatcher. It parses the options, checks which go with which command,
 * turns them into a request's params, and hands the work on: puzzle
 * commands to the batch pipeline (batch.c, which reads the puzzles through
 * input.c and prints through render.c), single calls (status, techniques,
 * reload) here, generate to generate.c, stop and reaching or starting the
 * daemon to autostart.c. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "autostart.h"
#include "batch.h"
#include "color.h"
#include "generate.h"
#include "grid_text.h"
#include "i18n.h"
#include "share_text.h"
#include "render.h"
#include "rpc.h"

#ifndef SUDOCTL_VERSION
#define SUDOCTL_VERSION "0"
#endif

typedef struct opts {
    const char *socket;
    bool socket_given;
    double timeout; /* seconds, 0: none */
    int mode;
    const char *profile;
    bool no_guess, all, grid, pencil, trace, logic, no_autostart, als, gnpx, trace_links;
    bool passes;        /* explain: the seed 004 singles program's pass count */
    int color;          /* COLOR_AUTO / ALWAYS / NEVER */
    const char *lang;   /* --lang: eo, ja, nl, hi, en (else the locale) */
    int share;          /* explain --format: SHARE_FORUM / SHARE_HODOKU */
    const char *assume; /* trace: "r2c2=1" / "r2c2<>1" */
    char *techniques;   /* "a,b" */
    const char **files;
    int nfiles;
    int chunk, window;
    int progress; /* -1 auto, 0 off, 1 on */
    long max_trace;
    const char *format; /* --format: serate's conversions (rate) */
} opts;

static const char *prog = "sudoctl";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s [options] COMMAND [PUZZLE...]\n"
            "\n"
            "commands:\n"
            "  solve       solution and whether it is unique (--logic: by techniques)\n"
            "  rate        ER/EP/ED difficulty, level, hardest technique\n"
            "  explain     every step, one numbered line each (--grid, --trace)\n"
            "  hint        the next step (--technique a,b  --all)\n"
            "  trace       what follows from an assumption (r2c2=1, r2c2<>1), in super links\n"
            "  techniques  the techniques of a profile, in order\n"
            "  generate    puzzles made to order (see sudoctl generate --help)\n"
            "  status      the daemon's status\n"
            "  reload      make the daemon re-read its config (says what changed)\n"
            "  stop        make the daemon finish what is in flight and exit\n"
            "\n"
            "Puzzles come from the arguments, from -f FILE (repeatable; '-' is stdin), or\n"
            "from stdin when neither is given: 81-character lines ('.', '0', '*', '_'\n"
            "empty), printed grids, candidate grids (729 characters or printed\n"
            "pencilmarks), HoDoKu library lines, SadMan .sdk files.\n"
            "\n"
            "options:\n"
            "  --socket PATH      daemon socket (default $XDG_RUNTIME_DIR/sudokud.sock,\n"
            "                     else /tmp/sudokud-UID/sudokud.sock)\n"
            "  --system           the system-wide daemon (/run/sudokud/sudokud.sock)\n"
            "  --timeout SECONDS  each request's deadline, sent to the daemon (which then\n"
            "                     stops its work); exit status 4 when it passes\n"
            "  --json             one JSON object per puzzle\n"
            "  --html             an HTML page drawing each step\n"
            "  --lines            one 81-character line per puzzle (solve: the solution)\n"
            "  --csv              CSV with a header (explain, hint: a row per step)\n"
            "  --format FMT       rate: serate's conversions, e.g. '%%g ED=%%r/%%p/%%d'\n"
            "                     (%%r %%p %%d %%R %%P %%D %%S %%T %%U %%g %%i %%m %%M %%n\n"
            "                     %%e %%l %%t %%%%: see the README)\n"
            "  --profile NAME     technique profile\n"
            "  --no-guess         no trial and error\n"
            "  --technique a,b    hint: only these techniques (any loaded one, in the\n"
            "                     profile or not); explain: add them to the profile\n"
            "  --all              hint: every step of the position; techniques: every\n"
            "                     loaded technique, whatever the profiles\n"
            "  --grid[=pencil]    explain, hint: the candidate grid before each step, the\n"
            "                     step's pattern on it (=pencil: one line per row)\n"
            "  --color=WHEN       auto (a terminal without NO_COLOR), always, never\n"
            "  --lang LANG        en, eo, ja, nl or hi (default: the locale)\n"
            "  --format forum|hodoku  explain: one line per step to post on a forum\n"
            "                     (Eureka chains), or HoDoKu's solution path wording\n"
            "                     (with --profile hodoku, HoDoKu's own order)\n"
            "  --trace            explain: also the backtracking trace (--max-trace N);\n"
            "                     with --grid as the Dutch seed's program prints it\n"
            "  --passes           explain: also the Hindi seed's singles program's pass\n"
            "                     count and the grid it reaches\n"
            "  --trace-links      explain, hint, solve --logic: each step's chains as\n"
            "                     consequence lines (r2c6/+8 [W r2c2/+1 -> r2c8/-1] => ...)\n"
            "  --assume A, --als  trace: the assumption (or the first argument), ALS links\n"
            "  --gnpx             trace, --trace-links: GNPX's super-link rules and notation\n"
            "                     (trace --als: with ALS links)\n"
            "  --logic            solve: by techniques, with the steps\n"
            "  -f FILE            read puzzles from FILE\n"
            "  --no-autostart     do not start a per-user sudokud when none answers\n"
            "  --no-progress, --progress   progress bar on stderr (default: when a terminal)\n"
            "  --chunk N, --window N       puzzles per request, requests in flight\n"
            "\n"
            "exit status: 0 all good, 1 some puzzle invalid, unsolvable or not solved by\n"
            "the techniques, 2 usage, 3 cannot reach the daemon, 4 --timeout passed,\n"
            "130 interrupted\n",
            prog);
}

/* ---- socket, connecting, starting a daemon ---------------------------------- */

static rpc_conn *connect_daemon(const opts *o)
{
    connect_opts co = {
        .socket = o->socket,
        .may_start = !o->socket_given && !o->no_autostart,
        .hint_how = o->socket_given || o->no_autostart
                        ? ""
                        : " (sudoctl starts one by itself on the default socket unless "
                          "--no-autostart)",
    };
    return daemon_connect(&co);
}

/* For generate.c: connect as every command does. */
static rpc_conn *gen_connect(const char *socket, bool socket_given, bool no_autostart)
{
    opts o = {.socket = socket, .socket_given = socket_given, .no_autostart = no_autostart};
    return connect_daemon(&o);
}

/* The command word: the first argument that is neither an option nor an
 * option's value. */
static const char *command_word(int argc, char **argv)
{
    static const char *const with_value[] = {
        "--socket", "--timeout",   "--profile", "--technique", "--techniques", "--chunk",
        "--window", "--max-trace", "--assume",  "--file",      "-f",           "--format"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) return i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-' || !a[1]) return a;
        for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
            if (!strcmp(a, with_value[k])) i++;
    }
    return NULL;
}

/* ---- params --------------------------------------------------------------- */

static void pack_str(msgpack_packer *pk, const char *s)
{
    size_t l = strlen(s);
    msgpack_pack_str(pk, l);
    msgpack_pack_str_body(pk, s, l);
}

static int count_techniques(const char *list)
{
    int n = 0;
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l) n++;
        p = e ? e + 1 : p + l;
    }
    return n;
}

static bool daemon_lacks_compact; /* it refused solve's `compact` */

/* Pack the params map of a puzzle request (puzzles: the batch). */
static void pack_params(msgpack_packer *out, const opts *o, const char *cmd, const char *packed,
                        size_t packed_len, int n, bool progress)
{
    msgpack_packer pk = *out;
    bool explain = !strcmp(cmd, "explain"), trace = !strcmp(cmd, "trace");
    int nt = count_techniques(o->techniques);
    bool timing = o->format && !strcmp(cmd, "rate") && outfmt_wants(o->format, "e");
    int keys = 1 + (o->profile ? 1 : 0) + (o->no_guess ? 1 : 0) + (nt ? 1 : 0) + (o->all ? 1 : 0) +
               (o->logic ? 1 : 0) + (explain && o->trace ? 1 : 0) +
               (explain && o->max_trace > 0 ? 1 : 0) + (trace ? 1 : 0) + (trace && o->als ? 1 : 0) +
               (trace && o->gnpx ? 1 : 0) + (progress ? 1 : 0) + (explain && o->passes ? 1 : 0) +
               (o->timeout > 0 ? 1 : 0);
    /* --json solve: a unique answer comes as [solution, guesses] */
    bool compact =
        o->mode == OUT_JSON && !strcmp(cmd, "solve") && !o->logic && !daemon_lacks_compact;
    keys += (timing ? 1 : 0) + (compact ? 1 : 0);
    msgpack_pack_map(&pk, (size_t)keys);
    if (o->timeout > 0) { /* the daemon stops the work when it passes */
        pack_str(&pk, "timeout_ms");
        msgpack_pack_uint64(&pk, (uint64_t)(o->timeout * 1000 + 0.5));
    }
    pack_str(&pk, "puzzles");
    msgpack_pack_array(&pk, (size_t)n);
    rpc_send_lent(&pk, packed, packed_len); /* sent from the batch's buffer */
    if (o->profile) {
        pack_str(&pk, "profile");
        pack_str(&pk, o->profile);
    }
    if (compact) {
        pack_str(&pk, "compact");
        msgpack_pack_true(&pk);
    }
    if (timing) { /* serate's %e: the daemon times each puzzle */
        pack_str(&pk, "timing");
        msgpack_pack_true(&pk);
    }
    if (o->no_guess) {
        pack_str(&pk, "no_guess");
        msgpack_pack_true(&pk);
    }
    if (progress) { /* the daemon then tells how far a request got */
        pack_str(&pk, "progress");
        msgpack_pack_true(&pk);
    }
    if (nt) {
        pack_str(&pk, "techniques");
        msgpack_pack_array(&pk, (size_t)nt);
        for (const char *p = o->techniques; *p;) {
            const char *e = strchr(p, ',');
            size_t l = e ? (size_t)(e - p) : strlen(p);
            if (l) {
                msgpack_pack_str(&pk, l);
                msgpack_pack_str_body(&pk, p, l);
            }
            p = e ? e + 1 : p + l;
        }
    }
    if (o->all) {
        pack_str(&pk, "all");
        msgpack_pack_true(&pk);
    }
    if (o->logic) {
        pack_str(&pk, "logic");
        msgpack_pack_true(&pk);
    }
    if (explain && o->trace) {
        pack_str(&pk, "trace");
        msgpack_pack_true(&pk);
    }
    if (explain && o->passes) {
        pack_str(&pk, "passes");
        msgpack_pack_true(&pk);
    }
    if (explain && o->max_trace > 0) {
        pack_str(&pk, "max_trace");
        msgpack_pack_int64(&pk, o->max_trace);
    }
    if (trace) {
        pack_str(&pk, "assumption");
        pack_str(&pk, o->assume);
        if (o->als) {
            pack_str(&pk, "als");
            msgpack_pack_true(&pk);
        }
        if (o->gnpx) {
            pack_str(&pk, "gnpx");
            msgpack_pack_true(&pk);
        }
    }
}

/* "r2c2=1" / "r2c2<>1" (the daemon checks it precisely; this only tells an
 * assumption from a puzzle on the command line). */
static bool looks_like_assumption(const char *s)
{
    return (s[0] == 'r' || s[0] == 'R') && s[1] >= '1' && s[1] <= '9' &&
           (s[2] == 'c' || s[2] == 'C') && s[3] >= '1' && s[3] <= '9' &&
           (s[4] == '=' || (s[4] == '<' && s[5] == '>'));
}

/* ---- puzzle commands: the batch pipeline (batch.c) ------------------------ */

/* A sudokud older than `compact` refuses it as an unknown parameter: the
 * requests go again without it. */
static bool batch_refused(const batch_plan *p, const char *code, const char *msg)
{
    (void)p;
    if (strcmp(code, SDK_E_REQUEST) != 0 || !strstr(msg, "unknown parameter 'compact'"))
        return false;
    daemon_lacks_compact = true; /* and for the requests in flight that asked for it */
    return true;
}

static void pack_batch_params(msgpack_packer *pk, const batch_plan *p, const char *packed,
                              size_t packed_len, int n, bool progress)
{
    pack_params(pk, p->pack_ctx, p->method, packed, packed_len, n, progress);
}

/* Are all the inputs regular files (`-f FILE`, `< FILE`)? A pipe may bring
 * its puzzles slowly: a request waits for its chunk to fill. */
static bool inputs_are_files(const char **files, int nfiles)
{
    for (int i = 0; i < nfiles; i++) {
        struct stat st;
        bool in = !strcmp(files[i], "-");
        if ((in ? fstat(0, &st) : stat(files[i], &st)) != 0 || !S_ISREG(st.st_mode)) return false;
    }
    return true;
}

static int run_batch(const opts *o, const char *cmd, char **args, int nargs)
{
    const char *stdin_only[] = {"-"};
    const char **files = o->files;
    int nfiles = o->nfiles;
    if (!nargs && !nfiles) {
        files = stdin_only;
        nfiles = 1;
    }
    int chunk_size = o->chunk;
    if (chunk_size <= 0) {
        if (!strcmp(cmd, "explain") || !strcmp(cmd, "trace"))
            chunk_size = 8;
        else if (!strcmp(cmd, "hint") || o->logic)
            chunk_size = 32;
        else if (!strcmp(cmd, "solve") && inputs_are_files(files, nfiles))
            chunk_size = 4096; /* microseconds a puzzle: few, big messages */
        else
            chunk_size = 256;
    }
    render_opts ro = {
        .out = stdout,
        .mode = o->mode,
        .cmd = cmd,
        .grid = o->grid,
        .pencil = o->pencil,
        .color = o->color,
        .share = o->share,
        .trace = o->trace,
        .logic = o->logic,
        .trace_links = o->trace_links,
        .gnpx = o->gnpx,
        .big = nargs > 0 && !nfiles,
        .headers =
            nargs + nfiles > 1 || (nfiles > 0 && strcmp(cmd, "solve") && strcmp(cmd, "rate")),
        .format = o->format,
        .socket = o->socket,
        .profile = o->profile,
    };
    /* one puzzle from the arguments: no header */
    if (nargs == 1 && !o->nfiles) ro.headers = false;

    int window = o->window > 0 ? o->window : chunk_size > 256 ? 4 : 16; /* big: 4 are plenty */
    rpc_conn *conn = connect_daemon(o);
    if (!conn) return EXIT_DAEMON;
    batch_plan plan = {
        .prog = prog,
        .method = cmd,
        .conn = conn,
        .args = args,
        .nargs = nargs,
        .files = files,
        .nfiles = nfiles,
        .chunk = chunk_size,
        .chunk_fixed = o->chunk > 0,
        .window = window,
        .timeout = o->timeout,
        .progress = o->progress,
        .ro = &ro,
        .pack = pack_batch_params,
        .pack_ctx = o,
        .refused = batch_refused,
    };
    int status = batch_run(&plan);
    rpc_close(conn);
    return status;
}

/* ---- single-call commands -------------------------------------------------- */

static int run_simple(const opts *o, const char *cmd)
{
    rpc_conn *conn = connect_daemon(o);
    if (!conn) return EXIT_DAEMON;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    if (!strcmp(cmd, "techniques") && (o->profile || o->all)) {
        msgpack_pack_map(&pk, 1);
        pack_str(&pk, o->all ? "all" : "profile");
        if (o->all)
            msgpack_pack_true(&pk);
        else
            pack_str(&pk, o->profile);
    } else
        msgpack_pack_map(&pk, 0);
    rpc_msg m;
    int r =
        rpc_call(conn, cmd, sb.data, sb.size, &m, o->timeout > 0 ? (int)(o->timeout * 1000) : -1);
    msgpack_sbuffer_destroy(&sb);
    int status = 0;
    if (r == 0) {
        fprintf(stderr, "%s: sudokud did not answer within %g s\n", prog, o->timeout);
        status = EXIT_DEADLINE;
    } else if (r < 0) {
        fprintf(stderr, "%s: %s\n", prog, rpc_error(conn));
        status = EXIT_DAEMON;
    } else {
        render_opts ro = {
            .out = stdout, .mode = o->mode == OUT_HTML ? OUT_TEXT : o->mode, .cmd = cmd};
        if (m.error.type != MSGPACK_OBJECT_NIL) {
            char code[64], msg[1024];
            sdk_wire_text(sdk_wire_get(&m.error, "code"), code, sizeof code);
            sdk_wire_text(sdk_wire_get(&m.error, "message"), msg, sizeof msg);
            if (o->mode == OUT_JSON) {
                printf("{\"error\":");
                json_write(stdout, &m.error);
                printf("}\n");
            }
            fprintf(stderr, "%s: %s: %s: %s\n", prog, cmd, code, msg);
            status = EXIT_PUZZLE;
        } else if (!strcmp(cmd, "techniques"))
            render_techniques(&ro, &m.result);
        else if (!strcmp(cmd, "status"))
            render_status(&ro, &m.result);
        else
            render_reload(&ro, &m.result);
        rpc_msg_free(&m);
    }
    fflush(stdout);
    rpc_close(conn);
    return status;
}

/* ---- main ------------------------------------------------------------------ */

enum {
    OPT_SOCKET = 256,
    OPT_TIMEOUT,
    OPT_JSON,
    OPT_HTML,
    OPT_PROFILE,
    OPT_NO_GUESS,
    OPT_TECHNIQUE,
    OPT_ALL,
    OPT_GRID,
    OPT_TRACE,
    OPT_LOGIC,
    OPT_NO_AUTOSTART,
    OPT_CHUNK,
    OPT_WINDOW,
    OPT_PROGRESS,
    OPT_NO_PROGRESS,
    OPT_MAX_TRACE,
    OPT_ASSUME,
    OPT_ALS,
    OPT_GNPX,
    OPT_VERSION,
    OPT_SYSTEM,
    OPT_TRACE_LINKS,
    OPT_PASSES,
    OPT_COLOR,
    OPT_LANG,
    OPT_LINES,
    OPT_CSV,
    OPT_FORMAT,
};

static bool parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"socket", required_argument, NULL, OPT_SOCKET},
        {"system", no_argument, NULL, OPT_SYSTEM},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"json", no_argument, NULL, OPT_JSON},
        {"html", no_argument, NULL, OPT_HTML},
        {"lines", no_argument, NULL, OPT_LINES},
        {"csv", no_argument, NULL, OPT_CSV},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"profile", required_argument, NULL, OPT_PROFILE},
        {"no-guess", no_argument, NULL, OPT_NO_GUESS},
        {"technique", required_argument, NULL, OPT_TECHNIQUE},
        {"techniques", required_argument, NULL, OPT_TECHNIQUE},
        {"all", no_argument, NULL, OPT_ALL},
        {"grid", optional_argument, NULL, OPT_GRID},
        {"color", required_argument, NULL, OPT_COLOR},
        {"colour", required_argument, NULL, OPT_COLOR},
        {"lang", required_argument, NULL, OPT_LANG},
        {"trace", no_argument, NULL, OPT_TRACE},
        {"trace-links", no_argument, NULL, OPT_TRACE_LINKS},
        {"passes", no_argument, NULL, OPT_PASSES},
        {"logic", no_argument, NULL, OPT_LOGIC},
        {"no-autostart", no_argument, NULL, OPT_NO_AUTOSTART},
        {"chunk", required_argument, NULL, OPT_CHUNK},
        {"window", required_argument, NULL, OPT_WINDOW},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
        {"max-trace", required_argument, NULL, OPT_MAX_TRACE},
        {"assume", required_argument, NULL, OPT_ASSUME},
        {"als", no_argument, NULL, OPT_ALS},
        {"gnpx", no_argument, NULL, OPT_GNPX},
        {"file", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    /* SIGPIPE stays default: `sudoctl rate -f big | head` ends like any filter
     * (the socket writes use MSG_NOSIGNAL). */
    signal(SIGPIPE, SIG_DFL);
    const char *word = command_word(argc, argv);
    if (word && !strcmp(word, "generate")) {
        gen_env env = {.socket = daemon_default_socket(), .connect = gen_connect};
        return generate_main(argc, argv, &env);
    }
    opts o = {.progress = -1};
    const char *file_list[argc]; /* -f FILE, at most one per argument */
    o.files = file_list;
    static char tech_buf[4096]; /* --technique ids, joined with commas */
    int ch;
    long v;
    /* "+": options stop at the first non-option only when POSIXLY_CORRECT; we
     * allow options after the command too (GNU permutation). */
    while ((ch = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
        switch (ch) {
        case OPT_SOCKET:
            o.socket = optarg;
            o.socket_given = true;
            break;
        case OPT_SYSTEM: /* never autostarted: systemd runs it */
            o.socket = SDK_WIRE_SYSTEM_SOCKET;
            o.socket_given = true;
            break;
        case OPT_TIMEOUT: {
            char *end;
            o.timeout = strtod(optarg, &end);
            if (end == optarg || *end || !(o.timeout > 0) || o.timeout > 1e6) {
                fprintf(stderr, "%s: --timeout wants a positive number of seconds, not '%s'\n",
                        prog, optarg);
                return EXIT_USAGE;
            }
            break;
        }
        case OPT_JSON:
            o.mode = OUT_JSON;
            break;
        case OPT_HTML:
            o.mode = OUT_HTML;
            break;
        case OPT_LINES:
            o.mode = OUT_LINES;
            break;
        case OPT_CSV:
            o.mode = OUT_CSV;
            break;
        case OPT_PROFILE:
            o.profile = optarg;
            break;
        case OPT_NO_GUESS:
            o.no_guess = true;
            break;
        case OPT_TECHNIQUE: {
            /* repeatable: join with commas */
            size_t have = strlen(tech_buf);
            if (have + strlen(optarg) + 2 > sizeof tech_buf) {
                fprintf(stderr, "%s: --technique lists are longer than %zu characters\n", prog,
                        sizeof tech_buf - 1);
                return EXIT_USAGE;
            }
            snprintf(tech_buf + have, sizeof tech_buf - have, "%s%s", have ? "," : "", optarg);
            break;
        }
        case OPT_ALL:
            o.all = true;
            break;
        case OPT_GRID:
            o.grid = true;
            if (optarg && strcmp(optarg, "pencil")) {
                fprintf(stderr, "%s: --grid takes no value or =pencil, not '%s'\n", prog, optarg);
                return EXIT_USAGE;
            }
            o.pencil = optarg != NULL;
            break;
        case OPT_FORMAT:
            if (!strcmp(optarg, "forum"))
                o.share = SHARE_FORUM;
            else if (!strcmp(optarg, "hodoku"))
                o.share = SHARE_HODOKU;
            else { /* rate: serate's conversions (outfmt.c) */
                char why[512];
                if (!outfmt_check(optarg, why, sizeof why)) {
                    fprintf(stderr, "%s: %s\n", prog, why);
                    return EXIT_USAGE;
                }
                o.mode = OUT_FORMAT;
                o.format = optarg;
            }
            break;
        case OPT_LANG:
            o.lang = optarg;
            break;
        case OPT_COLOR:
            if (!strcmp(optarg, "auto"))
                o.color = COLOR_AUTO;
            else if (!strcmp(optarg, "always"))
                o.color = COLOR_ALWAYS;
            else if (!strcmp(optarg, "never"))
                o.color = COLOR_NEVER;
            else {
                fprintf(stderr, "%s: --color wants auto, always or never, not '%s'\n", prog,
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_TRACE:
            o.trace = true;
            break;
        case OPT_TRACE_LINKS:
            o.trace_links = true;
            break;
        case OPT_PASSES:
            o.passes = true;
            break;
        case OPT_LOGIC:
            o.logic = true;
            break;
        case OPT_NO_AUTOSTART:
            o.no_autostart = true;
            break;
        case OPT_CHUNK:
            if (!parse_int(optarg, 1, 100000, &v)) {
                fprintf(stderr, "%s: --chunk wants 1..100000\n", prog);
                return EXIT_USAGE;
            }
            o.chunk = (int)v;
            break;
        case OPT_WINDOW:
            if (!parse_int(optarg, 1, 4096, &v)) {
                fprintf(stderr, "%s: --window wants 1..4096\n", prog);
                return EXIT_USAGE;
            }
            o.window = (int)v;
            break;
        case OPT_MAX_TRACE:
            if (!parse_int(optarg, 1, 100000000, &v)) {
                fprintf(stderr, "%s: --max-trace wants a positive number\n", prog);
                return EXIT_USAGE;
            }
            o.max_trace = v;
            break;
        case OPT_ASSUME:
            o.assume = optarg;
            break;
        case OPT_ALS:
            o.als = true;
            break;
        case OPT_GNPX:
            o.gnpx = true;
            break;
        case OPT_PROGRESS:
            o.progress = 1;
            break;
        case OPT_NO_PROGRESS:
            o.progress = 0;
            break;
        case 'f':
            o.files[o.nfiles++] = optarg;
            break;
        case 'h':
            usage(stdout);
            return 0;
        case OPT_VERSION:
            printf("sudoctl %s\n", SUDOCTL_VERSION);
            return 0;
        default:
            fprintf(stderr, "%s: try '%s --help'\n", prog, prog);
            return EXIT_USAGE;
        }
    }
    o.techniques = tech_buf[0] ? tech_buf : NULL;
    if (!i18n_init(o.lang)) {
        fprintf(stderr, "%s: --lang: no catalog for '%s' (languages: en, eo, ja, nl, hi)\n", prog,
                o.lang);
        return EXIT_USAGE;
    }
    color_setup(o.mode == OUT_TEXT ? (color_when)o.color : COLOR_NEVER, 1);
    if (!o.socket) o.socket = daemon_default_socket();
    if (optind >= argc) {
        fprintf(
            stderr,
            "%s: which command? (solve, rate, explain, hint, trace, techniques, status, reload, "
            "stop)\n",
            prog);
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[optind++];
    char **args = argv + optind;
    int nargs = argc - optind;
    static const char *const batch_cmds[] = {"solve", "rate", "explain", "hint", "trace"};
    static const char *const simple_cmds[] = {"techniques", "status", "reload", "stop"};
    bool batch = false, simple = false;
    for (size_t i = 0; i < sizeof batch_cmds / sizeof *batch_cmds; i++)
        if (!strcmp(cmd, batch_cmds[i])) batch = true;
    for (size_t i = 0; i < sizeof simple_cmds / sizeof *simple_cmds; i++)
        if (!strcmp(cmd, simple_cmds[i])) simple = true;
    if (!batch && !simple) {
        fprintf(stderr, "%s: unknown command '%s' (try '%s --help')\n", prog, cmd, prog);
        return EXIT_USAGE;
    }
    /* options that only make sense for some commands */
    struct {
        bool set;
        const char *name, *cmd;
    } only[] = {
        {o.all && strcmp(cmd, "techniques"), "--all", "hint or techniques"},
        {o.techniques != NULL && strcmp(cmd, "explain"), "--technique", "hint or explain"},
        {o.trace, "--trace", "explain"},
        {o.passes, "--passes", "explain"},
        {o.logic, "--logic", "solve"},
        {o.max_trace > 0, "--max-trace", "explain"},
        {o.als, "--als", "trace"},
        {o.assume != NULL, "--assume", "trace"},
    };
    for (size_t i = 0; i < sizeof only / sizeof *only; i++)
        if (only[i].set && strncmp(cmd, only[i].cmd, strlen(cmd))) {
            fprintf(stderr, "%s: %s goes with %s only\n", prog, only[i].name, only[i].cmd);
            return EXIT_USAGE;
        }
    if (o.share && (strcmp(cmd, "explain") || o.mode != OUT_TEXT)) {
        fprintf(stderr, "%s: --format goes with explain, as text, only\n", prog);
        return EXIT_USAGE;
    }
    if (o.format && strcmp(cmd, "rate")) {
        fprintf(stderr,
                "%s: --format goes with rate only (serate's conversions; explain takes "
                "--format forum or hodoku)\n",
                prog);
        return EXIT_USAGE;
    }
    if (o.grid && strcmp(cmd, "explain") && strcmp(cmd, "hint")) {
        fprintf(stderr, "%s: --grid goes with explain or hint only\n", prog);
        return EXIT_USAGE;
    }
    if (o.gnpx && strcmp(cmd, "trace") && !o.trace_links) {
        fprintf(stderr, "%s: --gnpx goes with trace or --trace-links only\n", prog);
        return EXIT_USAGE;
    }
    if (o.trace_links && strcmp(cmd, "explain") && strcmp(cmd, "hint") &&
        (strcmp(cmd, "solve") || !o.logic)) {
        fprintf(stderr, "%s: --trace-links goes with explain, hint or solve --logic only\n", prog);
        return EXIT_USAGE;
    }
    if (!strcmp(cmd, "trace")) {
        if (!o.assume && nargs && looks_like_assumption(args[0])) {
            o.assume = args[0];
            args++;
            nargs--;
        }
        if (!o.assume) {
            fprintf(stderr,
                    "%s: trace wants an assumption: sudoctl trace r2c2=1 PUZZLE (or --assume "
                    "r2c2<>1);\n"
                    "%s: the backtracking trace is `sudoctl explain --trace PUZZLE`\n",
                    prog, prog);
            return EXIT_USAGE;
        }
    }
    if (simple && (nargs || o.nfiles)) {
        fprintf(stderr, "%s: %s takes no puzzles\n", prog, cmd);
        return EXIT_USAGE;
    }
    if (!strcmp(cmd, "stop")) return daemon_stop(o.socket, o.timeout, false);
    return simple ? run_simple(&o, cmd) : run_batch(&o, cmd, args, nargs);
}
