/* outfmt.c - sudoctl's machine-friendly outputs: plain 81-character lines
 * (--lines), CSV with a header (--csv) and serate's --format conversions.
 *
 * serate (Sudoku Explainer's command-line rater, as extended by
 * SukakuExplainer) prints one line per puzzle from a format string in which
 * %CHARACTER is a conversion and everything else is copied. We take its
 * per-puzzle ("final") conversions, so that scripts written for serate keep
 * working on sudoctl's output:
 *
 *   %r %p %d   ER, EP, ED with one decimal (0.0 when the puzzle failed; ER
 *              20.0 when the techniques do not solve it, as serate)
 *   %R %P %D   the name of the technique behind ER / EP / ED
 *   %S %T %U   the same as technique ids (serate: its short names)
 *   %g         the input puzzle as read (one line)
 *   %i         the puzzle as 81 characters, '0' for an empty cell
 *   %m %M      its candidates: 729 characters / a printed pencilmark grid
 *   %n         the ordinal of the puzzle, from 1
 *   %e         the time the rating took on the daemon (1.23s, 2m05s, ...)
 *   %l %t %%   a newline, a tab, a '%'
 *
 * The technique names come from one `techniques` call (a second connection,
 * made only when the format asks for a name). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "rpc.h"
#include "sudoku/format.h"

/* ---- serate's format -------------------------------------------------------- */

static const char conversions[] = "rpdRPDSTUgimMnelt%";

bool outfmt_check(const char *fmt, char *why, size_t n)
{
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') continue;
        p++;
        if (!*p) {
            snprintf(why, n, "--format ends with a lone '%%' (write %%%% for a '%%')");
            return false;
        }
        if (!strchr(conversions, *p)) {
            if (*p == 'h' || *p == 's')
                snprintf(why, n,
                         "--format: %%%c is one of serate's per-step conversions (--after); "
                         "sudoctl formats whole puzzles only: %%r %%p %%d %%R %%P %%D %%S %%T %%U "
                         "%%g %%i %%m %%M %%n %%e %%l %%t %%%%",
                         *p);
            else
                snprintf(why, n,
                         "--format: '%%%c' is not a conversion (have %%r %%p %%d %%R %%P %%D %%S "
                         "%%T %%U %%g %%i %%m %%M %%n %%e %%l %%t %%%%)",
                         *p);
            return false;
        }
    }
    return true;
}

bool outfmt_wants(const char *fmt, const char *convs)
{
    for (const char *p = fmt; p && *p; p++)
        if (*p == '%' && p[1]) {
            if (strchr(convs, p[1])) return true;
            p++;
        }
    return false;
}

/* Technique id -> name, from the daemon (once). */
static struct {
    bool loaded;
    int n;
    char (*id)[64];
    char (*name)[96];
} names;

static void load_names(const render_opts *o)
{
    names.loaded = true;
    if (!o->socket) return;
    rpc_conn *c = rpc_connect(o->socket);
    if (!c) return;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    if (o->profile) {
        msgpack_pack_map(&pk, 1);
        msgpack_pack_str(&pk, 7);
        msgpack_pack_str_body(&pk, "profile", 7);
        size_t l = strlen(o->profile);
        msgpack_pack_str(&pk, l);
        msgpack_pack_str_body(&pk, o->profile, l);
    } else
        msgpack_pack_map(&pk, 0);
    rpc_msg m;
    if (rpc_call(c, "techniques", sb.data, sb.size, &m, 30000) == 1) {
        const msgpack_object *t = sdk_wire_get(&m.result, "techniques");
        size_t k = t && t->type == MSGPACK_OBJECT_ARRAY ? t->via.array.size : 0;
        names.id = calloc(k ? k : 1, sizeof *names.id);
        names.name = calloc(k ? k : 1, sizeof *names.name);
        if (names.id && names.name)
            for (size_t i = 0; i < k; i++) {
                sdk_wire_text(sdk_wire_get(&t->via.array.ptr[i], "id"), names.id[i],
                              sizeof names.id[i]);
                sdk_wire_text(sdk_wire_get(&t->via.array.ptr[i], "name"), names.name[i],
                              sizeof names.name[i]);
                names.n++;
            }
        rpc_msg_free(&m);
    }
    msgpack_sbuffer_destroy(&sb);
    rpc_close(c);
}

/* The name of technique id (the id itself when the daemon did not say). */
static const char *technique_name(const render_opts *o, const char *id)
{
    if (!*id) return "";
    if (!names.loaded) load_names(o);
    for (int i = 0; i < names.n; i++)
        if (!strcmp(names.id[i], id)) return names.name[i];
    return id;
}

/* ER/EP/ED as serate prints them: one decimal; floats or integer tenths. */
static void put_rating(FILE *f, const msgpack_object *v)
{
    double d = 0;
    if (v && (v->type == MSGPACK_OBJECT_FLOAT32 || v->type == MSGPACK_OBJECT_FLOAT64))
        d = v->via.f64;
    else if (v && (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER ||
                   v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER))
        d = sdk_wire_num(v, 0) / 10.0;
    if (!isfinite(d)) d = 0;
    fprintf(f, "%.1f", d);
}

/* Elapsed seconds as serate writes them: 1.23s, 2m05s, 1h02m, 1d03h. */
static void put_time(FILE *f, double s)
{
    long t = (long)(s * 100); /* hundredths */
    long sec = t / 100;
    if (sec < 60)
        fprintf(f, "%ld.%02lds", sec, t % 100);
    else if (sec < 3600)
        fprintf(f, "%ldm%02lds", sec / 60, sec % 60);
    else if (sec < 86400)
        fprintf(f, "%ldh%02ldm", sec / 3600, sec % 3600 / 60);
    else
        fprintf(f, "%ldd%02ldh", sec / 86400, sec % 86400 / 3600);
}

/* The puzzle text on one line (line breaks become spaces). */
static void put_oneline(FILE *f, const char *s)
{
    size_t n = strlen(s);
    while (n && strchr("\r\n \t", s[n - 1])) n--;
    for (size_t i = 0; i < n; i++) putc(s[i] == '\n' || s[i] == '\r' ? ' ' : s[i], f);
}

static long ordinal;

static void format_puzzle(const render_opts *o, const msgpack_object *r, const char *input)
{
    FILE *f = o->out;
    sdk_grid g;
    sdk_error err;
    bool have = sdk_parse(input, &g, &err);
    bool ok = r != NULL;
    ordinal++;
    char buf[4096];
    for (const char *p = o->format; *p; p++) {
        if (*p != '%' || !p[1]) {
            putc(*p, f);
            continue;
        }
        char c = *++p;
        const char *key = NULL;
        switch (c) {
        case 'r':
            if (ok && !sdk_wire_bool(sdk_wire_get(r, "solved"), true))
                fputs("20.0", f); /* serate: valid, but the techniques do not solve it */
            else
                put_rating(f, ok ? sdk_wire_get(r, "er") : NULL);
            break;
        case 'p':
        case 'd':
            put_rating(f, ok ? sdk_wire_get(r, c == 'p' ? "ep" : "ed") : NULL);
            break;
        case 'R':
        case 'S':
            key = "hardest";
            break;
        case 'P':
        case 'T':
            key = "ep_technique";
            break;
        case 'D':
        case 'U':
            key = "ed_technique";
            break;
        case 'g':
            put_oneline(f, input);
            break;
        case 'i':
            if (have)
                for (int i = 0; i < 81; i++) putc('0' + g.value[i], f);
            else
                put_oneline(f, input);
            break;
        case 'm':
            if (have) fputs(sdk_format_cands729(&g, buf), f);
            break;
        case 'M':
            if (have) {
                sdk_format_pencilmarks(&g, buf, sizeof buf);
                size_t l = strlen(buf);
                if (l && buf[l - 1] == '\n') buf[l - 1] = 0;
                fputs(buf, f);
            }
            break;
        case 'n':
            fprintf(f, "%ld", ordinal);
            break;
        case 'e':
            put_time(f, ok ? sdk_wire_num(sdk_wire_get(r, "time"), 0) : 0);
            break;
        case 'l':
            putc('\n', f);
            break;
        case 't':
            putc('\t', f);
            break;
        default:
            putc(c, f);
        }
        if (key && ok) {
            char id[64];
            sdk_wire_text(sdk_wire_get(r, key), id, sizeof id);
            fputs(c == 'R' || c == 'P' || c == 'D' ? technique_name(o, id) : id, f);
        }
    }
    putc('\n', f);
}

/* ---- CSV ------------------------------------------------------------------ */

/* A field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
static void csv_field(FILE *f, const char *s, size_t n)
{
    bool quote = false;
    for (size_t i = 0; i < n; i++)
        if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r') quote = true;
    if (!quote) {
        fwrite(s, 1, n, f);
        return;
    }
    putc('"', f);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') putc('"', f);
        putc(s[i], f);
    }
    putc('"', f);
}

static void csv_str(FILE *f, const char *s)
{
    csv_field(f, s, strlen(s));
}

/* A wire value as a CSV field: strings as they are, arrays joined by spaces,
 * ratings with one decimal, booleans true/false. */
static void csv_value(FILE *f, const msgpack_object *v, bool rating)
{
    if (!v || v->type == MSGPACK_OBJECT_NIL) return;
    if (rating) {
        put_rating(f, v);
        return;
    }
    switch (v->type) {
    case MSGPACK_OBJECT_STR:
        csv_field(f, v->via.str.ptr, v->via.str.size);
        break;
    case MSGPACK_OBJECT_BOOLEAN:
        fputs(v->via.boolean ? "true" : "false", f);
        break;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        fprintf(f, "%lld", sdk_wire_int(v, 0));
        break;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        fprintf(f, "%g", v->via.f64);
        break;
    case MSGPACK_OBJECT_ARRAY: {
        char *s = NULL;
        size_t n = 0;
        FILE *m = open_memstream(&s, &n);
        if (!m) return;
        for (uint32_t i = 0; i < v->via.array.size; i++) {
            const msgpack_object *e = &v->via.array.ptr[i];
            if (i) putc(' ', m);
            if (e->type == MSGPACK_OBJECT_STR) fwrite(e->via.str.ptr, 1, e->via.str.size, m);
        }
        fclose(m);
        csv_field(f, s, n);
        free(s);
        break;
    }
    default:
        break;
    }
}

typedef struct csv_cols {
    const char *cmd;
    const char *header;
    const char *keys[12]; /* after `puzzle`; "*" marks a rating */
} csv_cols;

static const csv_cols csv_table[] = {
    {"solve", "puzzle,status,solution,solutions,error", {"status", "solution", "solutions"}},
    {"rate",
     "puzzle,er,ep,ed,level,score,hardest,ep_technique,ed_technique,solved,steps,error",
     {"*er", "*ep", "*ed", "level", "score", "hardest", "ep_technique", "ed_technique", "solved",
      "steps"}},
    {"explain",
     "puzzle,step,technique,name,difficulty,placements,eliminations,text,error",
     {"technique", "name", "*difficulty", "placements", "eliminations", "text"}},
    {"hint",
     "puzzle,step,technique,name,difficulty,placements,eliminations,text,error",
     {"technique", "name", "*difficulty", "placements", "eliminations", "text"}},
    {"trace", "puzzle,assumption,line,error", {"assumption"}},
};

static const csv_cols *csv_for(const char *cmd)
{
    for (size_t i = 0; i < sizeof csv_table / sizeof *csv_table; i++)
        if (!strcmp(csv_table[i].cmd, cmd)) return &csv_table[i];
    return NULL;
}

static int csv_ncols(const csv_cols *t)
{
    int n = 1;
    for (const char *p = t->header; *p; p++) n += *p == ',';
    return n;
}

/* The puzzle column: the 81-character form when it parses, else as read. */
static void csv_puzzle(FILE *f, const char *input)
{
    sdk_grid g;
    sdk_error err;
    char line[82];
    if (sdk_parse(input, &g, &err))
        csv_str(f, sdk_format_line(&g, line));
    else {
        char *s = NULL;
        size_t n = 0;
        FILE *m = open_memstream(&s, &n);
        if (!m) return;
        put_oneline(m, input);
        fclose(m);
        csv_field(f, s, n);
        free(s);
    }
}

/* One row: the puzzle, (the step number,) the keys of map v, padded to the
 * header's width; the error text last. */
static void csv_row(FILE *f, const csv_cols *t, const char *input, long step,
                    const msgpack_object *v, const char *error)
{
    int ncols = csv_ncols(t), col = 1;
    csv_puzzle(f, input);
    bool per_step = !strcmp(t->cmd, "explain") || !strcmp(t->cmd, "hint");
    if (per_step) {
        putc(',', f);
        if (step > 0) fprintf(f, "%ld", step);
        col++;
    }
    for (int k = 0; t->keys[k] && col < ncols - 1; k++, col++) {
        putc(',', f);
        const char *key = t->keys[k];
        bool rating = *key == '*';
        if (v) csv_value(f, sdk_wire_get(v, key + rating), rating);
    }
    while (col < ncols - 1) {
        putc(',', f);
        col++;
    }
    putc(',', f);
    if (error) csv_str(f, error);
    putc('\n', f);
}

/* ---- entry points ------------------------------------------------------------ */

void outfmt_begin(const render_opts *o)
{
    if (o->mode != OUT_CSV) return;
    const csv_cols *t = csv_for(o->cmd);
    if (t) fprintf(o->out, "%s\n", t->header);
}

static void failure_text(char *buf, size_t n, const char *code, const char *message)
{
    snprintf(buf, n, "%s: %s", code, message);
}

void outfmt_failure(const render_opts *o, const char *input, const char *where, const char *code,
                    const char *message)
{
    FILE *f = o->out;
    char why[1024];
    failure_text(why, sizeof why, code, message);
    if (o->mode == OUT_CSV) {
        const csv_cols *t = csv_for(o->cmd);
        if (t) csv_row(f, t, input, 0, NULL, why);
    } else if (o->mode == OUT_FORMAT)
        format_puzzle(o, NULL, input);
    /* --lines: no line for a failed puzzle; the message says which */
    fflush(f);
    fprintf(stderr, "sudoctl: %s%s%s\n", where && *where ? where : "", where && *where ? ": " : "",
            why);
}

bool outfmt_puzzle(const render_opts *o, const msgpack_object *r, const char *input,
                   const char *where)
{
    FILE *f = o->out;
    const msgpack_object *err = sdk_wire_get(r, "error");
    if (err && err->type != MSGPACK_OBJECT_NIL) {
        char code[64], msg[512];
        outfmt_failure(o, input, where, sdk_wire_text(sdk_wire_get(err, "code"), code, sizeof code),
                       sdk_wire_text(sdk_wire_get(err, "message"), msg, sizeof msg));
        return false;
    }
    bool solve = !strcmp(o->cmd, "solve");
    const msgpack_object *st = sdk_wire_get(r, "status");
    bool ok = !solve || sdk_wire_str_is(st, "unique");
    switch (o->mode) {
    case OUT_LINES: {
        char line[82];
        sdk_grid g;
        sdk_error e;
        const msgpack_object *sol = sdk_wire_get(r, "solution");
        if (solve) {
            if (ok && sol && sol->type == MSGPACK_OBJECT_STR)
                fprintf(f, "%.*s\n", (int)sol->via.str.size, sol->via.str.ptr);
            else {
                fflush(f);
                fprintf(stderr, "sudoctl: %s%s%s\n", where ? where : "", where ? ": " : "",
                        sdk_wire_str_is(st, "none") ? "no solution" : "more than one solution");
            }
        } else if (sdk_parse(input, &g, &e))
            fprintf(f, "%s\n", sdk_format_line(&g, line));
        break;
    }
    case OUT_CSV: {
        const csv_cols *t = csv_for(o->cmd);
        if (!t) break;
        if (!strcmp(o->cmd, "explain") || !strcmp(o->cmd, "hint")) {
            const msgpack_object *steps = sdk_wire_get(r, "steps");
            size_t n = steps && steps->type == MSGPACK_OBJECT_ARRAY ? steps->via.array.size : 0;
            for (size_t i = 0; i < n; i++)
                csv_row(f, t, input, (long)i + 1, &steps->via.array.ptr[i], NULL);
            if (!n) csv_row(f, t, input, 0, NULL, NULL);
        } else if (!strcmp(o->cmd, "trace")) {
            const msgpack_object *lines = sdk_wire_get(r, "lines");
            size_t n = lines && lines->type == MSGPACK_OBJECT_ARRAY ? lines->via.array.size : 0;
            for (size_t i = 0; i < n; i++) {
                csv_puzzle(f, input);
                putc(',', f);
                csv_value(f, sdk_wire_get(r, "assumption"), false);
                putc(',', f);
                csv_value(f, &lines->via.array.ptr[i], false);
                fputs(",\n", f);
            }
        } else
            csv_row(f, t, input, 0, r, NULL);
        break;
    }
    case OUT_FORMAT:
        format_puzzle(o, r, input);
        break;
    default:
        break;
    }
    return ok;
}
