/* step_text.c - a step's text for people, in one notation.
 *
 * Plugins write their texts in the notation of the program they follow (SE's
 * [r6c1+3 -> r5c2-3], HoDoKu's XY-chain "1- r4c1 -9- r4c7 -1", Eureka). The
 * client rewrites what it can from the step's structure: a step whose chain is
 * one branch becomes "Name: <Eureka chain> => effect"; a forcing step keeps its
 * summary ("r2c9=2 => r9c2/#7 is both true and false") and lists its branches
 * separately (chain_text.c). The technique's name is translated from the
 * catalogs (the English name is the message id). */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "chain_text.h"
#include "i18n.h"
#include "render.h"
#include "report.h"
#include "rpc.h"

/* Techniques whose whole text is their chain. */
static bool chain_technique(const msgpack_object *id)
{
    static const char *const ids[] = {"xy-chain",
                                      "x-chain",
                                      "aic",
                                      "continuous-nice-loop",
                                      "discontinuous-nice-loop",
                                      "grouped-aic",
                                      "grouped-continuous-nice-loop",
                                      "grouped-discontinuous-nice-loop",
                                      "remote-pair",
                                      "turbot-fish",
                                      "se-forcing-x-chain",
                                      "se-forcing-chain"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
        if (sdk_wire_str_is(id, ids[i])) return true;
    return false;
}

/* The effect: "r1c2=5" or eliminations grouped by digit, "r3c2,r4c2<>7". */
static void effect(FILE *m, const msgpack_object *s)
{
    const msgpack_object *pl = sdk_wire_get(s, "placements"), *el = sdk_wire_get(s, "eliminations");
    bool any = false;
    for (size_t i = 0; i < sdk_wire_len(pl) && pl->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *v = &pl->via.array.ptr[i];
        if (v->type != MSGPACK_OBJECT_STR) continue;
        fprintf(m, "%s%.*s", any ? ", " : "", (int)v->via.str.size, v->via.str.ptr);
        any = true;
    }
    for (int d = 1; d <= 9; d++) {
        bool first = true;
        for (size_t i = 0; i < sdk_wire_len(el) && el->type == MSGPACK_OBJECT_ARRAY; i++) {
            int c, dg;
            bool place;
            if (!sdk_wire_cand(&el->via.array.ptr[i], &c, &dg, &place) || dg != d) continue;
            fprintf(m, "%sr%dc%d", first ? (any ? ", " : "") : ",", c / 9 + 1, c % 9 + 1);
            first = false;
            any = true;
        }
        if (!first) fprintf(m, "<>%d", d);
    }
}

/* ---- the words of plugin texts, translated ---------------------------------
 *
 * Plugins write English. Their texts are notation (cells, digits, =>) around
 * a few fixed phrases; each phrase below is matched (POSIX regex) and written
 * again from the catalog's template, {1} {2} standing for what the regex
 * caught (a house caught in a phrase is translated too). The technique's name
 * is replaced by its translation beforehand. Words a language has no
 * template for stay English (the catalog test makes sure all have one). */

typedef struct phrase {
    const char *re;   /* English, extended regex with groups */
    const char *tmpl; /* message id: the English with {1}, {2} */
    regex_t rx;
    bool ok;
} phrase;

static phrase houses[] = {
    {"^row ([1-9])$", N_("row {1}"), {0}, false},
    {"^column ([1-9])$", N_("column {1}"), {0}, false},
    {"^box ([1-9])$", N_("box {1}"), {0}, false},
};

static phrase phrases[] = {
    {"\\(in ((row|column|box) [1-9])\\)", N_("(in {1})"), {0}, false},
    {"digit ([1-9]) has no place in ((row|column|box) [1-9])",
     N_("digit {1} has no place in {2}"),
     {0},
     false},
    {"digit ([1-9]) twice in ((row|column|box) [1-9])", N_("digit {1} twice in {2}"), {0}, false},
    {"(r[1-9]c[1-9]) has no candidate left", N_("{1} has no candidate left"), {0}, false},
    {"(r[1-9]c[1-9]/#[1-9]) is both true and false", N_("{1} is both true and false"), {0}, false},
    {"\\(connected by ([^)]*)\\)", N_("(connected by {1})"), {0}, false},
    {"nested dynamic chains break the grid",
     N_("nested dynamic chains break the grid"),
     {0},
     false},
    {"(^|[ :])([1-9][,/1-9]*) in ([rcb][1-9][1-9rc,]*)", N_("{1}{2} in {3}"), {0}, false},
    {" Contradiction([:(])", N_(" Contradiction{1}"), {0}, false},
    {" Verity([:( ])", N_(" Verity{1}"), {0}, false},
    /* dynamic chains, bifurcation */
    {"a locked set misses digit ([1-9])", N_("a locked set misses digit {1}"), {0}, false},
    {"(r[1-9]c[1-9]) is one of \\{", N_("{1} is one of {"), {0}, false},
    {"trying (r[1-9]c[1-9]=[1-9]) breaks the grid", N_("trying {1} breaks the grid"), {0}, false},
    {"after ([0-9]+) steps?", N_("after {1} step(s)"), {0}, false},
    {"\\(true/false\\)", N_("(true/false)"), {0}, false},
    /* wings, uniqueness, BUG+n */
    {"connected by ([1-9]) in ([rcb][1-9])", N_("connected by {1} in {2}"), {0}, false},
    {"\\(naked subset with ([^)]+) in ([^)]+)\\)",
     N_("(naked subset with {1} in {2})"),
     {0},
     false},
    {"locked in ([rcb][1-9]|r[1-9]+c[1-9]+)", N_("locked in {1}"), {0}, false},
    /* the sudokilo program's segments */
    {"since ([^,]+) holds ([^ ,]+) and ([^,]+) holds ([^ ,]+)",
     N_("since {1} holds {2} and {3} holds {4}"),
     {0},
     false},
    {"since ([^,]+) holds ([^ ,]+) and ([1-9]) is in ([^,]+\\))",
     N_("since {1} holds {2} and {3} is in {4}"),
     {0},
     false},
    {"since (b[1-9]) and (b[1-9]) hold it only in ([^ ,]+) and ([^ ,]+)",
     N_("since {1} and {2} hold it only in {3} and {4}"),
     {0},
     false},
    {"since ([1-9]) is in ([^,]+) and in ([^ ,]+( \\(b[1-9]\\))?)",
     N_("since {1} is in {2} and in {3}"),
     {0},
     false},
    /* Sudoku Explainer's texts */
    {"([1-9]) in ((row|column|box) [1-9])", N_("{1} in {2}"), {0}, false},
    {"hidden single in ([^:]+):", N_("hidden single in {1}:"), {0}, false},
    {"hidden single (r[1-9]c[1-9]=[1-9])", N_("hidden single {1}"), {0}, false},
    {"\\(([0-9]+) nodes\\)", N_("({1} nodes)"), {0}, false},
    {"both on & off", N_("both on & off"), {0}, false},
    {"on & off ==>", N_("on & off ==>"), {0}, false},
    {"cycle through", N_("cycle through"), {0}, false},
    {"(r[1-9]c[1-9]\\.[1-9]) off", N_("{1} off"), {0}, false},
    {"(r[1-9]c[1-9]\\.[1-9]) on([ )]|$)", N_("{1} on{2}"), {0}, false},
};

static void compile(phrase *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!p[i].ok) p[i].ok = regcomp(&p[i].rx, p[i].re, REG_EXTENDED) == 0;
}

/* A caught house ("row 4") in the reader's language; else as it is. */
static void put_house(FILE *m, const char *s, size_t n)
{
    char buf[32];
    if (n < sizeof buf) {
        memcpy(buf, s, n);
        buf[n] = 0;
        for (size_t i = 0; i < sizeof houses / sizeof *houses; i++) {
            regmatch_t g[2];
            if (houses[i].ok && !regexec(&houses[i].rx, buf, 2, g, 0)) {
                for (const char *t = _(houses[i].tmpl); *t; t++) {
                    if (t[0] == '{' && t[1] == '1' && t[2] == '}') {
                        fwrite(buf + g[1].rm_so, 1, (size_t)(g[1].rm_eo - g[1].rm_so), m);
                        t += 2;
                    } else
                        putc(*t, m);
                }
                return;
            }
        }
    }
    fwrite(s, 1, n, m);
}

/* text with every phrase written from its template; malloc'd. */
static char *translate_phrases(const char *text)
{
    compile(houses, sizeof houses / sizeof *houses);
    compile(phrases, sizeof phrases / sizeof *phrases);
    char *cur = strdup(text);
    for (size_t i = 0; cur && i < sizeof phrases / sizeof *phrases; i++) {
        phrase *p = &phrases[i];
        if (!p->ok) continue;
        const char *tmpl = _(p->tmpl);
        if (tmpl == p->tmpl) continue; /* English: as it is */
        char *out = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&out, &len);
        if (!m) break;
        const char *at = cur;
        regmatch_t g[6];
        while (*at && !regexec(&p->rx, at, 6, g, at == cur ? 0 : REG_NOTBOL)) {
            fwrite(at, 1, (size_t)g[0].rm_so, m);
            for (const char *t = tmpl; *t; t++) {
                int k;
                if (t[0] == '{' && t[1] >= '1' && t[1] <= '5' && t[2] == '}' &&
                    g[k = t[1] - '0'].rm_so >= 0) {
                    put_house(m, at + g[k].rm_so, (size_t)(g[k].rm_eo - g[k].rm_so));
                    t += 2;
                } else
                    putc(*t, m);
            }
            if (g[0].rm_eo == 0) break;
            at += g[0].rm_eo;
        }
        fputs(at, m);
        fclose(m);
        free(cur);
        cur = out;
    }
    return cur;
}

char *step_text_alloc(const msgpack_object *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    char name[128], text[2048];
    sdk_wire_text(sdk_wire_get(s, "name"), name, sizeof name);
    sdk_wire_text(sdk_wire_get(s, "text"), text, sizeof text);
    const char *tname = _(name);
    chain_branch br[2];
    int nb = chain_branches(s, br, 2);
    if (nb == 1 && chain_technique(sdk_wire_get(s, "technique"))) {
        static char eu[8192];
        chain_eureka(s, br[0].start, br[0].end, eu, sizeof eu);
        fprintf(m, "%s: %s => ", tname, eu);
        effect(m, s);
    } else {
        size_t nl = strlen(name);
        char *rest = translate_phrases(nl && !strncmp(text, name, nl) ? text + nl : text);
        if (nl && !strncmp(text, name, nl)) fputs(tname, m);
        fputs(rest ? rest : text, m);
        free(rest);
    }
    fclose(m);
    return buf;
}
