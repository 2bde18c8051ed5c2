/* step_text.c - a step's text for people, in one notation.
 *
 * Plugins write their texts in the notation of the program they follow (SE's
 * [r6c1+3 -> r5c2-3], HoDoKu's XY-chain "1- r4c1 -9- r4c7 -1", Eureka). The
 * client rewrites what it can from the step's structure: a step whose chain is
 * one branch becomes "Name: <Eureka chain> => effect"; a forcing step keeps its
 * summary ("r2c9=2 => r9c2/#7 is both true and false") and lists its branches
 * separately (chain_text.c). The technique's name is translated from the
 * catalogs (the English name is the message id). */
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
        if (mp_str_eq(id, ids[i])) return true;
    return false;
}

/* The effect: "r1c2=5" or eliminations grouped by digit, "r3c2,r4c2<>7". */
static void effect(FILE *m, const msgpack_object *s)
{
    const msgpack_object *pl = mp_get(s, "placements"), *el = mp_get(s, "eliminations");
    bool any = false;
    for (size_t i = 0; i < mp_len(pl) && pl->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *v = &pl->via.array.ptr[i];
        if (v->type != MSGPACK_OBJECT_STR) continue;
        fprintf(m, "%s%.*s", any ? ", " : "", (int)v->via.str.size, v->via.str.ptr);
        any = true;
    }
    for (int d = 1; d <= 9; d++) {
        bool first = true;
        for (size_t i = 0; i < mp_len(el) && el->type == MSGPACK_OBJECT_ARRAY; i++) {
            int c, dg;
            bool place;
            if (!parse_cand(&el->via.array.ptr[i], &c, &dg, &place) || dg != d) continue;
            fprintf(m, "%sr%dc%d", first ? (any ? ", " : "") : ",", c / 9 + 1, c % 9 + 1);
            first = false;
            any = true;
        }
        if (!first) fprintf(m, "<>%d", d);
    }
}

char *step_text_alloc(const msgpack_object *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    char name[128], text[2048];
    mp_str(mp_get(s, "name"), name, sizeof name);
    mp_str(mp_get(s, "text"), text, sizeof text);
    const char *tname = _(name);
    chain_branch br[2];
    int nb = chain_branches(s, br, 2);
    if (nb == 1 && chain_technique(mp_get(s, "technique"))) {
        static char eu[8192];
        chain_eureka(s, br[0].start, br[0].end, eu, sizeof eu);
        fprintf(m, "%s: %s => ", tname, eu);
        effect(m, s);
    } else {
        size_t nl = strlen(name);
        if (nl && !strncmp(text, name, nl))
            fprintf(m, "%s%s", tname, text + nl);
        else
            fputs(text, m);
    }
    fclose(m);
    return buf;
}
