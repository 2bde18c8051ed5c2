/* share_text.c - explanations as text to share and compare.
 *
 *  --format forum   one line per step as players post them on forums: the
 *                   technique, its pattern or its chain in Eureka notation,
 *                   "=>" the effect; a forcing step's branches on the same
 *                   line; a run of singles as one line.
 *  --format hodoku  HoDoKu's solution path (its /vp output): a header line
 *                   "<puzzle> #n <Level> (<score>)", then one indented line
 *                   per step with HoDoKu's step names and chain notation
 *                   ("9 r5c2 -9- r9c2 =9= r9c1", "2 2- r1c2 -8- r1c7 ... -2"),
 *                   so that a path can be compared line by line with
 *                   HoDoKu's (../shared/data/hodoku_paths_public.txt). */
#include "share_text.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "chain_text.h"
#include "report.h"
#include "rpc.h"

static bool is_single(const msgpack_object *s)
{
    static const char *const ids[] = {"full-house", "hidden-single-box", "hidden-single-line",
                                      "naked-single", "band-hatching"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
        if (sdk_wire_str_is(sdk_wire_get(s, "technique"), ids[i])) return true;
    return false;
}

static const msgpack_object *steps_of(const msgpack_object *r)
{
    const msgpack_object *st = sdk_wire_get(r, "steps");
    return st && st->type == MSGPACK_OBJECT_ARRAY ? st : NULL;
}

/* ---- forum ------------------------------------------------------------------ */

static void forum_puzzle(FILE *f, const msgpack_object *r, const char *input)
{
    const msgpack_object *steps = steps_of(r);
    char buf[128];
    const msgpack_object *p = sdk_wire_get(r, "puzzle");
    fprintf(f, "%s\n",
            p && p->type == MSGPACK_OBJECT_STR ? sdk_wire_text(p, buf, sizeof buf) : input);
    size_t n = steps ? steps->via.array.size : 0;
    for (size_t i = 0; i < n;) {
        const msgpack_object *s = &steps->via.array.ptr[i];
        if (is_single(s)) { /* a run of singles: one line */
            size_t j = i;
            fputs("singles:", f);
            for (; j < n && is_single(&steps->via.array.ptr[j]); j++) {
                const msgpack_object *pl = sdk_wire_get(&steps->via.array.ptr[j], "placements");
                for (size_t k = 0; k < sdk_wire_len(pl) && pl->type == MSGPACK_OBJECT_ARRAY; k++)
                    fprintf(f, " %s", sdk_wire_text(&pl->via.array.ptr[k], buf, sizeof buf));
            }
            putc('\n', f);
            i = j;
            continue;
        }
        char *text = step_text_alloc(s);
        fputs(text ? text : "", f);
        free(text);
        chain_branch br[64];
        int nb = chain_branches(s, br, 64);
        if (nb > 1) {
            static char eu[8192];
            fputs(" [", f);
            for (int b = 0; b < nb; b++)
                fprintf(f, "%s%d) %s", b ? "; " : "", b + 1,
                        chain_eureka(s, br[b].start, br[b].end, eu, sizeof eu));
            putc(']', f);
        }
        putc('\n', f);
        i++;
    }
}

/* ---- hodoku ----------------------------------------------------------------- */

/* HoDoKu's name for a step. */
static const char *hodoku_name(const msgpack_object *s, char *buf, size_t n)
{
    static const char *const map[][2] = {
        {"hidden-single-box", "Hidden Single"},   {"hidden-single-line", "Hidden Single"},
        {"als-xz", "Almost Locked Set XZ-Rule"},  {"als-xy-wing", "Almost Locked Set XY-Wing"},
        {"als-chain", "Almost Locked Set Chain"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (sdk_wire_str_is(sdk_wire_get(s, "technique"), map[i][0])) return map[i][1];
    return sdk_wire_text(sdk_wire_get(s, "name"), buf, n);
}

typedef struct hnode {
    char cells[40];
    int digit;
} hnode;

static bool hnode_of(const msgpack_object *o, hnode *h)
{
    char s[64];
    sdk_wire_text(o, s, sizeof s);
    char *slash = strchr(s, '/');
    if (!slash || slash - s >= (long)sizeof h->cells) return false;
    memcpy(h->cells, s, (size_t)(slash - s));
    h->cells[slash - s] = 0;
    const char *q = slash + 1;
    if (*q == '+' || *q == '-') q++;
    h->digit = *q - '0';
    return h->digit >= 1 && h->digit <= 9;
}

/* A one-branch chain in HoDoKu's notation: the links between cells labelled
 * -d- (weak) or =d= (strong), links inside a cell left implicit. `style`:
 * 0 loops and X-chains ("9 r5c2 -9- r9c2"), 1 AIC and XY-chains ("2 2- r1c2
 * -8- r1c7 ... -2"). False when the step has no such chain. */
static bool hodoku_chain(FILE *m, const msgpack_object *s, int style)
{
    chain_branch br[2];
    if (chain_branches(s, br, 2) != 1) return false;
    const msgpack_object *links = sdk_wire_get(s, "links");
    hnode first, last;
    if (!hnode_of(sdk_wire_get(&links->via.array.ptr[br[0].start], "from"), &first)) return false;
    if (style == 1)
        fprintf(m, "%d %d- %s", first.digit, first.digit, first.cells);
    else
        fprintf(m, "%d %s", first.digit, first.cells);
    last = first;
    for (int i = br[0].start; i < br[0].end; i++) {
        const msgpack_object *l = &links->via.array.ptr[i];
        hnode a, b;
        if (!hnode_of(sdk_wire_get(l, "from"), &a) || !hnode_of(sdk_wire_get(l, "to"), &b))
            return false;
        last = b;
        if (!strcmp(a.cells, b.cells)) continue; /* inside a cell */
        bool strong = sdk_wire_bool(sdk_wire_get(l, "strong"), false);
        fprintf(m, " %s%d%s %s", strong ? "=" : "-", b.digit, strong ? "=" : "-", b.cells);
    }
    if (style == 1) fprintf(m, " -%d", last.digit);
    return true;
}

/* "in r2" / "in r6c3" for a forcing contradiction, from the phrase saying
 * what broke. */
static bool forcing_where(const char *text, char *out, size_t n)
{
    static const char *const res[] = {
        "has no place in (row|column|box) ([1-9])",
        "twice in (row|column|box) ([1-9])",
        "(r[1-9]c[1-9]) has no candidate left",
        "(r[1-9]c[1-9])/#[1-9] is both true and false",
    };
    for (size_t i = 0; i < sizeof res / sizeof *res; i++) {
        regex_t rx;
        regmatch_t g[3];
        if (regcomp(&rx, res[i], REG_EXTENDED)) continue;
        bool hit = !regexec(&rx, text, 3, g, 0);
        if (hit) {
            if (i < 2) {
                char k = text[g[1].rm_so] == 'r' ? 'r' : text[g[1].rm_so] == 'c' ? 'c' : 'b';
                snprintf(out, n, "%c%c", k, text[g[2].rm_so]);
            } else
                snprintf(out, n, "%.*s", (int)(g[1].rm_eo - g[1].rm_so), text + g[1].rm_so);
        }
        regfree(&rx);
        if (hit) return true;
    }
    return false;
}

static void effect_text(FILE *m, const msgpack_object *s)
{
    char text[2048];
    sdk_wire_text(sdk_wire_get(s, "text"), text, sizeof text);
    const char *e = strstr(text, " => ");
    for (const char *x = e; x; x = strstr(x + 4, " => ")) e = x; /* the last one */
    fputs(e ? e : "", m);
}

static void hodoku_step(FILE *f, const msgpack_object *s)
{
    char name[128], text[2048];
    const char *hn = hodoku_name(s, name, sizeof name);
    sdk_wire_text(sdk_wire_get(s, "text"), text, sizeof text);
    char tech[64];
    sdk_wire_text(sdk_wire_get(s, "technique"), tech, sizeof tech);
    fprintf(f, "   %s", hn);
    int style = -1;
    if (!strcmp(tech, "aic") || !strcmp(tech, "grouped-aic") || !strcmp(tech, "xy-chain"))
        style = 1;
    else if (!strcmp(tech, "x-chain") || strstr(tech, "discontinuous-nice-loop"))
        style = 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    bool done = false;
    if (m && style >= 0) {
        fputs(": ", m);
        done = hodoku_chain(m, s, style);
        if (done) effect_text(m, s);
    }
    char where[16];
    if (m && !done && strstr(tech, "forcing-chain") && strstr(text, "Contradiction") &&
        forcing_where(text, where, sizeof where)) {
        fprintf(m, " in %s", where);
        effect_text(m, s);
        done = true;
    }
    if (m) fclose(m);
    if (done)
        fputs(buf, f);
    else {
        /* the plugin's own text after its name: HoDoKu's wording already */
        const char *colon = strchr(text, ':');
        const char *arrow = strstr(text, " => ");
        char *in = strstr(text, " (in ");
        if (in && (!strncmp(tech, "hidden-single", 13) || !strcmp(tech, "full-house")))
            *in = 0; /* HoDoKu names no house */
        if (colon && (!arrow || colon < arrow))
            fputs(colon, f);
        else if (arrow)
            fputs(arrow, f);
    }
    free(buf);
    putc('\n', f);
}

static int hodoku_count;

static void hodoku_puzzle(FILE *f, const msgpack_object *r, const char *input)
{
    char buf[128], level[32];
    const msgpack_object *p = sdk_wire_get(r, "puzzle");
    sdk_wire_text(sdk_wire_get(r, "level"), level, sizeof level);
    if (level[0] >= 'a' && level[0] <= 'z') level[0] = (char)(level[0] - 'a' + 'A');
    fprintf(f, "%s #%d %s (%lld)\n",
            p && p->type == MSGPACK_OBJECT_STR ? sdk_wire_text(p, buf, sizeof buf) : input,
            ++hodoku_count, level, sdk_wire_int(sdk_wire_get(r, "score"), 0));
    const msgpack_object *steps = steps_of(r);
    for (size_t i = 0; steps && i < steps->via.array.size; i++)
        hodoku_step(f, &steps->via.array.ptr[i]);
}

void share_puzzle(FILE *f, int format, const msgpack_object *r, const char *input)
{
    if (format == SHARE_FORUM)
        forum_puzzle(f, r, input);
    else
        hodoku_puzzle(f, r, input);
}
