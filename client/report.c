/* report.c - `sudoctl explain --html` and `rate --html`: one self-contained,
 * interactive page (no network).
 *
 * The page is data plus a script. For each puzzle the C side writes one JSON
 * object into a <script type="application/json"> block: the rating summary,
 * the grid before every step (values and candidate masks, so the script needs
 * no Sudoku logic of its own and draws exactly what the engine saw), and the
 * steps as the daemon sent them (technique, text, placements, eliminations,
 * marks with roles, houses, links) plus their chains split into branches with
 * each branch written in Eureka notation (chain_text.c). The script
 * (report.js, compiled in) draws one grid at a time with previous/next
 * buttons, arrow keys and a step list; `rate --html` is one table the script
 * makes sortable. The page's words come from the label table below, so that
 * they follow the language of the step texts. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "chain_text.h"
#include "i18n.h"
#include "rpc.h"
#include "sudoku/format.h"
#include "sudoku/grid.h"

extern const char report_js[];
extern const char report_css[];

/* Write s into f with '<' as \u003c, so that JSON inside a <script> element
 * can never close it. */
static void put_script_safe(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '<')
            fputs("\\u003c", f);
        else
            putc(s[i], f);
    }
}

/* Run a writer into memory, then put it script-safe. */
typedef void (*json_fn)(FILE *m, const void *arg);
static void safe_json(FILE *f, json_fn fn, const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return;
    fn(m, arg);
    fclose(m);
    put_script_safe(f, buf, len);
    free(buf);
}

static void jstr(FILE *f, const char *s)
{
    json_string(f, s, strlen(s));
}

/* ---- the page's words ------------------------------------------------------ */

static const char *const label_keys[][2] = {
    {"title_explain", N_("Sudoku explained")},
    {"title_rate", N_("Sudoku ratings")},
    {"summary", N_("Summary")},
    {"rating", N_("Rating (ER/EP/ED)")},
    {"level", N_("Level")},
    {"score", N_("Score")},
    {"steps", N_("Steps")},
    {"solved", N_("solved")},
    {"stuck", N_("stuck")},
    {"hardest", N_("Hardest step")},
    {"techniques", N_("Techniques used")},
    {"technique", N_("Technique")},
    {"count", N_("Count")},
    {"difficulty", N_("Difficulty")},
    {"prev", N_("Previous")},
    {"next", N_("Next")},
    {"first", N_("First")},
    {"last", N_("Last")},
    {"step", N_("Step")},
    {"of", N_("of")},
    {"start", N_("Start: the puzzle")},
    {"end", N_("The end")},
    {"fold", N_("Fold runs of singles")},
    {"singles", N_("singles")},
    {"branch", N_("Branch")},
    {"all", N_("all")},
    {"keys",
     N_("Keys: left/right arrows step, Home/End, up/down arrows pick a branch, f folds singles")},
    {"legend", N_("Legend")},
    {"eliminated", N_("eliminated")},
    {"placed", N_("placed")},
    {"strong", N_("strong link")},
    {"weak", N_("weak link")},
    {"puzzle", N_("Puzzle")},
    {"error", N_("error")},
    {"given", N_("given")},
    {"candidates", N_("candidates")},
    {"role_base", N_("base")},
    {"role_cover", N_("cover")},
    {"role_fin", N_("fin")},
    {"role_endofin", N_("endo fin")},
    {"role_pivot", N_("pivot")},
    {"role_pincer", N_("pincer")},
    {"role_on", N_("on (true)")},
    {"role_off", N_("off (false)")},
    {"role_als", N_("almost locked set")},
    {"role_target", N_("target")},
    {"profile", N_("Profile")},
    {"where", N_("From")},
    {"no_step", N_("no step found")},
    {"inner_head", N_("then the profile's earlier techniques:")},
    {"by_steps", N_("by steps")},
    {"inner", N_("inner step")},
};

/* The level names of the rating (lib/engine.c), for the catalogs. */
static const char *const level_names[] __attribute__((unused)) = {
    N_("none"), N_("easy"), N_("medium"), N_("hard"), N_("unfair"), N_("extreme")};

static void labels_json(FILE *m, const void *arg)
{
    (void)arg;
    putc('{', m);
    for (size_t i = 0; i < sizeof label_keys / sizeof *label_keys; i++) {
        if (i) putc(',', m);
        jstr(m, label_keys[i][0]);
        putc(':', m);
        jstr(m, _(label_keys[i][1]));
    }
    putc('}', m);
}

void report_begin(FILE *f, const char *cmd)
{
    bool rate = !strcmp(cmd, "rate");
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\">\n", i18n_lang());
    fputs("<meta name=\"viewport\" content=\"width=device-width\">\n<title>", f);
    const char *title = rate ? _("Sudoku ratings") : _("Sudoku explained");
    html_escape(f, title, strlen(title));
    fprintf(f, "</title>\n<style>\n%s</style>\n</head><body class=\"%s\">\n", report_css,
            rate ? "rate" : "explain");
    fputs("<script type=\"application/json\" id=\"labels\">", f);
    safe_json(f, labels_json, NULL);
    fputs("</script>\n<h1>", f);
    html_escape(f, title, strlen(title));
    fputs("</h1>\n", f);
    if (rate) {
        fputs("<table id=\"rates\" class=\"sortable\"><thead><tr>", f);
        const char *cols[][2] = {{"num", "#"},         {"text", N_("Puzzle")},
                                 {"num", "ER"},        {"num", "EP"},
                                 {"num", "ED"},        {"text", N_("Level")},
                                 {"num", N_("Score")}, {"text", N_("Hardest step")},
                                 {"num", N_("Steps")}, {"text", N_("solved")}};
        for (size_t i = 0; i < sizeof cols / sizeof *cols; i++) {
            fprintf(f, "<th data-type=\"%s\" tabindex=\"0\">", cols[i][0]);
            const char *t = _(cols[i][1]);
            html_escape(f, t, strlen(t));
            fputs("</th>", f);
        }
        fputs("</tr></thead><tbody>\n", f);
    } else {
        fputs("<div id=\"app\"></div>\n", f);
    }
}

void report_end(FILE *f, const char *cmd)
{
    if (!strcmp(cmd, "rate")) fputs("</tbody></table>\n", f);
    fprintf(f, "<script>\n%s</script>\n</body></html>\n", report_js);
}

/* ---- rate: one table row per puzzle ------------------------------------------ */

static int rate_rows;

static void cell_text(FILE *f, const msgpack_object *v)
{
    fputs("<td>", f);
    if (v && (v->type == MSGPACK_OBJECT_FLOAT32 || v->type == MSGPACK_OBJECT_FLOAT64))
        fprintf(f, "%.1f", v->via.f64);
    else if (v && v->type == MSGPACK_OBJECT_STR)
        html_escape(f, v->via.str.ptr, v->via.str.size);
    else if (v && v->type == MSGPACK_OBJECT_BOOLEAN) {
        const char *t = v->via.boolean ? _("yes") : _("no");
        html_escape(f, t, strlen(t));
    } else if (v && v->type != MSGPACK_OBJECT_NIL)
        json_write(f, v);
    fputs("</td>", f);
}

static void rate_row(FILE *f, const msgpack_object *r, const char *input, const char *where,
                     const char *code, const char *message)
{
    fprintf(f, "<tr><td>%d</td><td class=\"mono\" title=\"", ++rate_rows);
    if (where) html_escape(f, where, strlen(where));
    fputs("\">", f);
    const msgpack_object *p = r ? sdk_wire_get(r, "puzzle") : NULL;
    if (p && p->type == MSGPACK_OBJECT_STR)
        html_escape(f, p->via.str.ptr, p->via.str.size);
    else
        html_escape(f, input, strlen(input));
    fputs("</td>", f);
    if (code) {
        fputs("<td colspan=\"8\" class=\"error\">", f);
        html_escape(f, code, strlen(code));
        fputs(": ", f);
        html_escape(f, message, strlen(message));
        fputs("</td></tr>\n", f);
        return;
    }
    const char *keys[] = {"er", "ep", "ed", "level", "score", "hardest", "steps", "solved"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const msgpack_object *v = sdk_wire_get(r, keys[i]);
        char lv[32];
        if (!strcmp(keys[i], "level") && v && v->type == MSGPACK_OBJECT_STR) {
            const char *t = _(sdk_wire_text(v, lv, sizeof lv));
            fputs("<td>", f);
            html_escape(f, t, strlen(t));
            fputs("</td>", f);
        } else
            cell_text(f, v);
    }
    fputs("</tr>\n", f);
}

/* ---- explain / hint: the data of one puzzle ------------------------------------ */

static bool grid_of(const char *text, sdk_grid *g)
{
    sdk_error err;
    return text && sdk_parse(text, g, &err);
}

static void apply_step(sdk_grid *g, const msgpack_object *s)
{
    const char *keys[] = {"placements", "eliminations"};
    for (int k = 0; k < 2; k++) {
        const msgpack_object *a = sdk_wire_get(s, keys[k]);
        for (size_t i = 0; i < sdk_wire_len(a) && a->type == MSGPACK_OBJECT_ARRAY; i++) {
            int c, d;
            bool pl;
            if (!sdk_wire_cand(&a->via.array.ptr[i], &c, &d, &pl)) continue;
            if (pl) {
                if (!g->value[c]) sdk_grid_place(g, c, d, false);
            } else
                sdk_grid_eliminate(g, c, d);
        }
    }
}

/* A grid as 81 value digits then 81 three-hex-digit candidate masks. */
static void state_json(FILE *m, const sdk_grid *g)
{
    putc('"', m);
    for (int c = 0; c < 81; c++) putc('0' + g->value[c], m);
    for (int c = 0; c < 81; c++) fprintf(m, "%03x", g->value[c] ? 0 : (unsigned)g->cand[c] & 0x3ff);
    putc('"', m);
}

/* The entries of a map without its braces (so that keys can be added). */
static void map_entries(FILE *m, const msgpack_object *o, bool *first)
{
    if (!o || o->type != MSGPACK_OBJECT_MAP) return;
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object *k = &o->via.map.ptr[i].key;
        if (k->type != MSGPACK_OBJECT_STR) continue;
        if (!*first) putc(',', m);
        *first = false;
        json_string(m, k->via.str.ptr, k->via.str.size);
        putc(':', m);
        json_write(m, &o->via.map.ptr[i].val);
    }
}

typedef struct puzzle_arg {
    const render_opts *o;
    const msgpack_object *r;
    const char *input, *where, *code, *message;
} puzzle_arg;

static void step_json(FILE *m, const msgpack_object *s)
{
    bool first = true;
    putc('{', m);
    map_entries(m, s, &first);
    /* the technique's name and the text in the reader's language and notation */
    char name[128];
    sdk_wire_text(sdk_wire_get(s, "name"), name, sizeof name);
    fputs(",\"tname\":", m);
    jstr(m, _(name));
    char *text = step_text_alloc(s);
    if (text) {
        fputs(",\"reading\":", m);
        jstr(m, text);
        free(text);
    }
    /* a nested step's inner steps in the reader's language */
    const msgpack_object *in = sdk_wire_get(s, "inner");
    if (sdk_wire_len(in) && in->type == MSGPACK_OBJECT_ARRAY) {
        fputs(",\"inner_reading\":[", m);
        for (uint32_t i = 0; i < in->via.array.size; i++) {
            char *it = step_text_alloc(&in->via.array.ptr[i]);
            if (i) putc(',', m);
            jstr(m, it ? it : "");
            free(it);
        }
        putc(']', m);
    }
    chain_branch br[64];
    int nb = chain_branches(s, br, 64);
    fputs(",\"branches\":[", m);
    for (int b = 0; b < nb; b++) {
        static char eu[8192];
        char end[32];
        chain_eureka(s, br[b].start, br[b].end, eu, sizeof eu);
        chain_branch_end(s, &br[b], end, sizeof end);
        fprintf(m, "%s[%d,%d,", b ? "," : "", br[b].start, br[b].end);
        jstr(m, eu);
        putc(',', m);
        jstr(m, end);
        putc(']', m);
    }
    fputs("]}", m);
}

static void puzzle_json(FILE *m, const void *arg)
{
    const puzzle_arg *a = arg;
    const msgpack_object *r = a->r;
    putc('{', m);
    fputs("\"input\":", m);
    jstr(m, a->input);
    fputs(",\"where\":", m);
    jstr(m, a->where ? a->where : "");
    if (a->code) {
        fputs(",\"error\":{\"code\":", m);
        jstr(m, a->code);
        fputs(",\"message\":", m);
        jstr(m, a->message);
        fputs("}}", m);
        return;
    }
    const msgpack_object *err = sdk_wire_get(r, "error");
    if (err && err->type != MSGPACK_OBJECT_NIL) {
        fputs(",\"error\":", m);
        json_write(m, err);
        putc('}', m);
        return;
    }
    static const char *const keys[] = {"puzzle", "solved", "status", "er",      "ep",
                                       "ed",     "level",  "score",  "hardest", "profile"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const msgpack_object *v = sdk_wire_get(r, keys[i]);
        if (!v) continue;
        fputs(",", m);
        jstr(m, keys[i]);
        putc(':', m);
        json_write(m, v);
    }
    fprintf(m, ",\"command\":\"%s\"", a->o->cmd);
    char level[32];
    if (sdk_wire_get(r, "level")) {
        fputs(",\"tlevel\":", m);
        jstr(m, _(sdk_wire_text(sdk_wire_get(r, "level"), level, sizeof level)));
    }
    sdk_grid g;
    const msgpack_object *p = sdk_wire_get(r, "puzzle");
    bool have = grid_of(a->input, &g);
    if (!have && p && p->type == MSGPACK_OBJECT_STR) {
        char *t = strndup(p->via.str.ptr, p->via.str.size);
        have = grid_of(t, &g);
        free(t);
    }
    const msgpack_object *steps = sdk_wire_get(r, "steps");
    size_t n = steps && steps->type == MSGPACK_OBJECT_ARRAY ? steps->via.array.size : 0;
    bool advance = !strcmp(a->o->cmd, "explain");
    if (have) {
        fputs(",\"givens\":\"", m);
        for (int c = 0; c < 81; c++) putc(g.given[c] ? '1' : '0', m);
        fputs("\",\"states\":[", m);
        for (size_t i = 0; i <= n; i++) {
            if (i) putc(',', m);
            state_json(m, &g);
            if (i < n && advance) apply_step(&g, &steps->via.array.ptr[i]);
        }
        putc(']', m);
    }
    fputs(",\"steps\":[", m);
    for (size_t i = 0; i < n; i++) {
        if (i) putc(',', m);
        step_json(m, &steps->via.array.ptr[i]);
    }
    fputs("]}", m);
}

static void explain_data(FILE *f, const puzzle_arg *a)
{
    fputs("<script type=\"application/json\" class=\"puzzle-data\">", f);
    safe_json(f, puzzle_json, a);
    fputs("</script>\n", f);
}

void report_puzzle(const render_opts *o, const msgpack_object *r, const char *input,
                   const char *where)
{
    if (!strcmp(o->cmd, "rate")) {
        const msgpack_object *err = sdk_wire_get(r, "error");
        if (err && err->type != MSGPACK_OBJECT_NIL) {
            char code[64], msg[512];
            rate_row(o->out, r, input, where,
                     sdk_wire_text(sdk_wire_get(err, "code"), code, sizeof code),
                     sdk_wire_text(sdk_wire_get(err, "message"), msg, sizeof msg));
        } else
            rate_row(o->out, r, input, where, NULL, NULL);
        return;
    }
    puzzle_arg a = {o, r, input, where, NULL, NULL};
    explain_data(o->out, &a);
}

void report_failure(const render_opts *o, const char *input, const char *where, const char *code,
                    const char *message)
{
    if (!strcmp(o->cmd, "rate")) {
        rate_row(o->out, NULL, input, where, code, message);
        return;
    }
    puzzle_arg a = {o, NULL, input, where, code, message};
    explain_data(o->out, &a);
}

bool report_wants(const char *cmd)
{
    return !strcmp(cmd, "explain") || !strcmp(cmd, "hint") || !strcmp(cmd, "rate");
}
