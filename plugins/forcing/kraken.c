/* kraken.c - kraken fish: a finned fish whose fins are followed by chains.
 *
 * A finned fish alone proves only this: either the fish holds (its digit is
 * confined to the cover houses, so it leaves them outside the base) or one
 * of its fins is true. The plain finned fish then eliminates only where
 * every fin sees the target. Kraken fish follow each fin further, by the
 * static forcing chains of forcing.c (forcing_private.h): a candidate the
 * fish would eliminate without its fins, that every fin implies false by
 * some chain, is false whichever case holds (type 1, HoDoKu 0371).
 *
 * Type 2 (HoDoKu 0372) splits the fish instead: in each cover house one of
 * its base candidates is true, or a fin is. If each of these (and each fin)
 * implies that a candidate - any digit - is false, it is false.
 *
 * The fish come from the shared enumerator of fish.h; the chains are read
 * from the premise tables (what each candidate assumed true implies; all of
 * a position's tables come from one pass over the link graph, forcing.c),
 * so a kraken check costs a few set intersections; the chains themselves
 * are searched again only for the steps that get emitted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/fish.h"
#include "sudoku/solver.h"
#include "forcing_private.h"

/* Fish from the shared enumerator (fish.h), finned, up to max-size (default
 * 4), basic by default, Franken with franken=1, Mutant with mutant=1. Fins
 * are the exo and endo fins: either the fish holds or one fin is true.
 *  type 1: a potential elimination of the fish (a cover candidate outside the
 *          base, or a cannibal) that every fin implies false is false;
 *  type 2: in every cover house, one of its base candidates or a fin is true:
 *          any candidate (any digit) that each of them implies false is false.
 * The implications are the static chains of the forcing chains: group nodes,
 * and with als=1 ALS nodes too (links.h), as forcing-chain-* take them. */
typedef struct kctx {
    sctx *s;
    const sdk_grid *g;
    int type;
    const sdk_technique *t;
    seen *sn;
    sdk_step *st;
    sdk_sink *sink;
    int ret;
} kctx;

static const char *fish_name(const sdk_fish *f, char *buf, size_t n)
{
    static const char *const names[] = {"X-Wing",    "Swordfish", "Jellyfish",
                                        "Squirmbag", "Whale",     "Leviathan"};
    const char *kind = f->kind == SDK_FISH_FRANKEN  ? "Franken "
                       : f->kind == SDK_FISH_MUTANT ? "Mutant "
                                                    : "";
    snprintf(buf, n, "%s %s%s", f->sashimi ? "Sashimi" : "Finned", kind,
             names[f->size >= 2 && f->size <= 7 ? f->size - 2 : 0]);
    return buf;
}

/* Start a kraken step: fish text, houses and pattern marks. */
static void kraken_head(kctx *k, const sdk_fish *f, sdk_bb fins)
{
    sdk_step *st = k->st;
    sdk_step_init(st, k->t);
    char nm[64], bh[32], ch[32];
    sdk_fish_houses(f->base, f->size, bh, sizeof bh);
    sdk_fish_houses(f->cover, f->size, ch, sizeof ch);
    sdk_step_printf(st, "Kraken Fish Type %d: %s: %d %s %s", k->type, fish_name(f, nm, sizeof nm),
                    f->digit, bh, ch);
    SDK_BB_FOREACH(x, fins) {
        char a[8];
        sdk_step_printf(st, " f%s", sdk_cell_name(x, a));
    }
    for (int i = 0; i < f->size; i++) {
        sdk_step_house(st, f->base[i], SDK_ROLE_BASE);
        sdk_step_house(st, f->cover[i], SDK_ROLE_COVER);
    }
    sdk_step_mark_bb(st, sdk_bb_andnot(f->base_cells, fins), f->digit, SDK_ROLE_BASE);
    sdk_step_mark_bb(st, f->fins, f->digit, SDK_ROLE_FIN);
    sdk_step_mark_bb(st, f->endo_fins, f->digit, SDK_ROLE_ENDOFIN);
}

/* Chains from every cell of `from` (digit d true) to lit; emit the step. */
static int kraken_emit(kctx *k, const sdk_fish *f, sdk_bb from, int lit)
{
    sdk_step *st = k->st;
    int len = 0;
    const char *sep = ":";
    SDK_BB_FOREACH(x, from) {
        char nm[8], txt[256];
        len += forcing_add_chain(k->s, SDK_LIT(SDK_CAND_NODE(x, f->digit), 1), lit, st, txt,
                                 sizeof txt);
        sdk_step_printf(st, "%s %s: %s", sep, sdk_cell_name(x, nm), txt);
        sep = ";";
    }
    conclude(st, lit);
    st->difficulty = diff_len(k->t->difficulty + (f->size - 2), len);
    k->ret = sdk_emit(k->sink, st);
    return k->ret == SDK_STOP;
}

static int kraken_on_fish(void *vk, const sdk_fish *f)
{
    kctx *k = vk;
    int d = f->digit;
    sdk_bb fins = sdk_bb_or(f->fins, f->endo_fins);
    if (sdk_bb_empty(fins)) return 0;
    if (k->type == 1) {
        /* potential eliminations the finned fish itself cannot make */
        sdk_bb targets = sdk_bb_andnot(sdk_bb_and(f->potential, k->g->digit[d - 1]), f->elims);
        SDK_BB_FOREACH(x, targets) {
            int tk = x * 9 + d - 1;
            bool all = true;
            SDK_BB_FOREACH(fc, fins) {
                if (!cs_has(&forcing_table(k->s, SDK_LIT(SDK_CAND_NODE(fc, d), 1))->off, tk)) {
                    all = false;
                    break;
                }
            }
            if (!all || !seen_add(k->sn, 2 * tk)) continue;
            kraken_head(k, f, fins);
            sdk_step_mark(k->st, x, d, SDK_ROLE_TARGET);
            if (kraken_emit(k, f, fins, 2 * tk)) return 1;
        }
        return 0;
    }
    /* what every fin implies false, then per cover house with its base
     * candidates (S); the conclusions in ascending order */
    cset fin_off;
    memset(&fin_off, 0xff, sizeof fin_off);
    SDK_BB_FOREACH(x, fins)
        cs_and(&fin_off, &forcing_table(k->s, SDK_LIT(SDK_CAND_NODE(x, d), 1))->off);
    if (cs_empty(&fin_off)) return 0;
    for (int i = 0; i < f->size; i++) {
        sdk_bb S = sdk_bb_or(sdk_bb_and(f->base_cells, sdk_house_bb[f->cover[i]]), fins);
        cset off = fin_off;
        SDK_BB_FOREACH(x, sdk_bb_andnot(S, fins))
            cs_and(&off, &forcing_table(k->s, SDK_LIT(SDK_CAND_NODE(x, d), 1))->off);
        for (int w = 0; w < 12; w++)
            for (uint64_t bits = off.w[w]; bits; bits &= bits - 1) {
                int tk = w * 64 + __builtin_ctzll(bits);
                if (tk >= SDK_NCAND) break;
                int x = tk / 9, e = tk % 9 + 1;
                if (k->g->value[x] || !sdk_grid_has(k->g, x, e)) continue;
                /* what the finned fish eliminates by itself, or an element of S */
                if (e == d && (sdk_bb_has(f->elims, x) || sdk_bb_has(S, x))) continue;
                if (!seen_add(k->sn, 2 * tk)) continue;
                kraken_head(k, f, fins);
                char hn[16];
                sdk_step_printf(k->st, " (%s)", sdk_house_short(f->cover[i], hn));
                sdk_step_mark(k->st, x, e, SDK_ROLE_TARGET);
                if (kraken_emit(k, f, S, 2 * tk)) return 1;
            }
    }
    return 0;
}

/* Type 2: the fish search reads the sets only to ask whether some bit is
 * common to a fin set and a cover house's base cells (each bit one candidate
 * the fish might conclude false), so the bits can be renumbered: only the
 * bits that can be a conclusion, packed into as few words as they fill (a
 * hard grid has a few hundred candidates left of 729, a search step then
 * costs a third). A conclusion is implied false by every fin and by the base
 * candidates of a cover house (at least one, in a basic fish none of them a
 * fin): by two cells at least in a basic fish, one in others. Nor is a
 * candidate of `truth` (true in a solution of the grid, when one is known):
 * the conclusions are sound. Nor, in a basic fish, a bit that no n rows
 * (columns) of the digit can conclude (sdk_fish_basic_sets_keep: nearly
 * every bit on a hard grid, and then the search is skipped). The sets of
 * the cells `cand` (stride SDK_FISH_SET_WORDS) go packed into `packed`
 * (stride fins->set_words). False when no bit is left: no conclusion. */
static bool pack_sets(const uint64_t *sets, uint64_t *packed, sdk_bb cand,
                      const sdk_fish_search *fs, const cset *truth, sdk_fish_fins *fins)
{
    bool two = fs->kind == SDK_FISH_BASIC;
    uint64_t once[SDK_FISH_SET_WORDS] = {0}, twice[SDK_FISH_SET_WORDS] = {0};
    SDK_BB_FOREACH(c, cand) {
        const uint64_t *set = sets + (size_t)c * SDK_FISH_SET_WORDS;
        for (int w = 0; w < SDK_FISH_SET_WORDS; w++) {
            twice[w] |= once[w] & set[w];
            once[w] |= set[w];
        }
    }
    uint64_t *keep = two ? twice : once;
    for (int w = 0; w < SDK_FISH_SET_WORDS; w++) keep[w] &= ~truth->w[w];
    /* nor a bit no basic fish can conclude at all (fish.h) */
    if (two && !sdk_fish_basic_sets_keep(cand, sets, SDK_FISH_SET_WORDS, fs->max_size, keep))
        return false;
    int rank[SDK_FISH_SET_WORDS], n = 0; /* bits kept before word w */
    for (int w = 0; w < SDK_FISH_SET_WORDS; w++) {
        rank[w] = n;
        n += __builtin_popcountll(keep[w]);
    }
    if (n == 0) return false;
    int words = (n + 63) / 64;
    SDK_BB_FOREACH(c, cand) {
        const uint64_t *set = sets + (size_t)c * SDK_FISH_SET_WORDS;
        uint64_t *out = packed + (size_t)c * (size_t)words;
        memset(out, 0, sizeof *out * (size_t)words);
        for (int w = 0; w < SDK_FISH_SET_WORDS; w++)
            for (uint64_t m = set[w] & keep[w]; m; m &= m - 1) {
                uint64_t below = keep[w] & ((m & -m) - 1);
                int r = rank[w] + __builtin_popcountll(below);
                out[r >> 6] |= 1ULL << (r & 63);
            }
    }
    fins->set_words = words;
    return true;
}

/* Kraken fish: the type (1 or 2) is the descriptor's data. */
static int find_kraken(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *tech = ctx->self;
    int type = *(const int *)tech->data;
    sdk_fish_search fs;
    sdk_fish_search_init(&fs);
    fs.min_size = 2;
    fs.max_size = sdk_opt_int(ctx, "max-size", 4);
    if (fs.max_size < 2) fs.max_size = 2;
    if (fs.max_size > SDK_FISH_MAX_SIZE) fs.max_size = SDK_FISH_MAX_SIZE;
    fs.kind = sdk_opt_bool(ctx, "mutant", false)    ? SDK_FISH_MUTANT
              : sdk_opt_bool(ctx, "franken", false) ? SDK_FISH_FRANKEN
                                                    : SDK_FISH_BASIC;
    fs.finless = false;
    fs.finned = true;
    fs.max_fins = sdk_opt_int(ctx, "max-fins", 5);
    fs.max_endo_fins = sdk_opt_int(ctx, "max-endo-fins", 2);
    sctx s;
    kctx k = {.s = &s, .g = g, .type = type, .t = tech, .sink = sink, .ret = SDK_CONTINUE};
    k.st = sdk_scratch_step(ctx, 0);
    k.sn = sdk_xcalloc(1, sizeof *k.sn);
    unsigned flags = SDK_LINKS_GROUPS | (sdk_opt_bool(ctx, "als", false) ? SDK_LINKS_ALS : 0);
    /* What each candidate of the digit implies false: type 1 needs every fin
     * to reach a potential elimination of the fish (fins.reach: the search
     * then skips what cannot), type 2 the fins to agree on some candidate
     * (fins.sets). */
    fs.need_elims = type == 1;
    sdk_bb reach[SDK_CELLS];
    uint64_t *sets = type == 2 ? sdk_xcalloc(SDK_CELLS * SDK_FISH_SET_WORDS, sizeof *sets) : NULL;
    uint64_t *packed =
        type == 2 ? sdk_xcalloc(SDK_CELLS * SDK_FISH_SET_WORDS, sizeof *packed) : NULL;
    sdk_fish_fins fins = {0};
    if (type == 1) {
        memset(reach, 0, sizeof reach);
        fins.reach = reach;
    } else {
        fins.sets = packed; /* pack_sets() fills it and the word count */
    }
    /* A sound step never eliminates a candidate of a solution: with one at
     * hand, those are no target (type 1) and no conclusion (type 2). The
     * same steps, from a smaller search. */
    cset truth;
    memset(&truth, 0, sizeof truth);
    uint8_t solution[SDK_CELLS];
    if (forcing_solution(g, solution))
        for (int c = 0; c < SDK_CELLS; c++)
            if (!g->value[c]) cs_add(&truth, c * 9 + solution[c] - 1);
    if (forcing_links_init(&s, g, flags)) {
        for (int d = 1; d <= 9; d++) {
            sdk_bb cand = g->digit[d - 1];
            if (sdk_bb_empty(cand)) continue;
            bool far = false; /* type 1: a cell reaching beyond its peers */
            /* type 1: the digit's candidates that may be a target, as a set */
            cset may_target;
            if (type == 1) {
                memset(&may_target, 0, sizeof may_target);
                SDK_BB_FOREACH(x, cand)
                    if (!cs_has(&truth, x * 9 + d - 1)) cs_add(&may_target, x * 9 + d - 1);
            }
            SDK_BB_FOREACH(c, cand) {
                const cset *off = &forcing_table(&s, SDK_LIT(SDK_CAND_NODE(c, d), 1))->off;
                if (type == 1) {
                    /* the cells x of cand with (x, d) made false and no
                     * truth: the set bits of off within may_target */
                    sdk_bb b = cs_cells_within(off, &may_target);
                    reach[c] = b;
                    far |= !sdk_bb_empty(sdk_bb_andnot(b, sdk_peer_bb[c]));
                } else {
                    memcpy(sets + (size_t)c * SDK_FISH_SET_WORDS, off->w, sizeof off->w);
                }
            }
            /* A type 1 target is one the fins do not all see (kraken_on_fish:
             * f->elims holds what they all see), so some fin reaches it
             * beyond its peers: without such a cell the digit has none. */
            bool skip = type == 1 && !far;
            if (type == 1 && !skip && fs.kind == SDK_FISH_BASIC) {
                /* only the targets a basic fish can have (fish.h): on a hard
                 * grid, nearly always none */
                sdk_bb targets = sdk_bb_none();
                SDK_BB_FOREACH(c, cand) targets = sdk_bb_or(targets, reach[c]);
                targets = sdk_fish_basic_reach_targets(cand, reach, targets, fs.max_size);
                SDK_BB_FOREACH(c, cand) reach[c] = sdk_bb_and(reach[c], targets);
                skip = sdk_bb_empty(targets);
            }
            if (type == 2) skip = !pack_sets(sets, packed, cand, &fs, &truth, &fins);
            if (!skip && sdk_fish_find_fins(g, d, &fs, &fins, kraken_on_fish, &k)) break;
            if (type == 1)
                SDK_BB_FOREACH(c, cand) reach[c] = sdk_bb_none();
        }
        forcing_static_free(&s);
    }
    free(sets);
    free(packed);
    free(k.sn);
    return k.ret;
}

static const int kraken_1 = 1, kraken_2 = 2;

const sdk_technique kraken_type1 = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "kraken-fish",
    .name = "Kraken Fish",
    .difficulty = 80,
    .score = 500,
    .level = SDK_LEVEL_EXTREME,
    .find = find_kraken,
    .data = &kraken_1,
    .summary = "a finned fish whose fins each lead by a chain to the elimination "
               "(type 1; franken=1, mutant=1 widen the fish; als=1 adds ALS links)",
};
const sdk_technique kraken_type2 = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "kraken-fish-2",
    .name = "Kraken Fish Type 2",
    .difficulty = 80,
    .score = 500,
    .level = SDK_LEVEL_EXTREME,
    .find = find_kraken,
    .data = &kraken_2,
    .summary = "a finned fish: the base candidates of one cover house and the fins each imply "
               "the elimination (franken=1, mutant=1 widen the fish; als=1 adds ALS links)",
};
