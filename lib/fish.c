/* fish.c - the fish enumerator shared by the fish plugin and kraken fish:
 * every basic / Franken / Mutant fish of a digit, finless or finned, with its
 * fins, endo fins, cannibalistic candidates and eliminations (see fish.h);
 * and the same search limited to the fish that can be new since a pattern
 * without fish (sdk_fish_find_since: the fish plugin's path through a
 * puzzle). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "sudoku/fish.h"

enum { MASK_ROW = 1, MASK_COL = 2, MASK_BOX = 4 };
#define ALL_HOUSES ((1u << 27) - 1)
#define LINE_HOUSES ((1u << 18) - 1) /* rows and columns */
/* Lost candidates up to which a search since a pattern asks the witness
 * search first (see below): each one costs a few small searches. */
#define WITNESS_MAX_GONE 2

/* Open base cells no two of which share a house that may still be a cover
 * house (a greedy choice, kept as the base set grows), and what they say of
 * the eliminations (see "where a base set can eliminate" below). */
typedef struct indep {
    sdk_bb cells;                   /* the independent cells */
    sdk_bb shared;                  /* cells sharing such a house with one of them */
    sdk_bb away[SDK_FISH_MAX_SIZE]; /* away[k]: cells that k + 1 of them or more do not see */
    sdk_bb xok;                     /* cells the fish may eliminate */
} indep;

/* Per possible elimination x, independent cells away from x (see "where a
 * base set can eliminate"): the cells sharing a may-be-cover house with
 * them, and how many there are; one table per number of base houses, read
 * at the cells x of st->ind.xok (the x still possible at that level). */
typedef struct xlevel {
    uint8_t count[SDK_CELLS];
    sdk_bb shared[SDK_CELLS];
} xlevel;

/* The search keeps its bitboards as pairs of plain words in the hot
 * recursion (cover_rec): passed as sdk_bb values, GCC's SLP vectorizer moves
 * them between general and vector registers through the stack, and the
 * store-forwarding stalls cost a third of the search. */
typedef struct search {
    const sdk_grid *g;
    const sdk_fish_search *s;
    int digit;
    sdk_bb cand;           /* cells holding the digit */
    sdk_bb house_cand[27]; /* candidates per house */
    unsigned base_types;   /* MASK_* allowed for base houses in this pass */
    uint32_t base_bits;    /* houses that base_rec may add (of those types) */
    unsigned cover_types;  /* MASK_* allowed for cover houses in this pass */
    uint32_t cover_bits;   /* houses of the cover types (bit per house) */
    bool second_pass;      /* column-based pass of a basic/Franken search */
    bool finned;           /* s->finned */
    int max_fins;          /* s->max_fins */
    const sdk_bb *sees;    /* per cell: what a fin there sees (peers, and with
                              fins->reach what it reaches) */
    const sdk_bb *seen_by; /* per cell x: the cells whose `sees` holds x */
    sdk_bb *far;           /* per candidate x: the cells but x that `seen_by[x]` lacks */
    const uint64_t *fsets; /* fins->sets (NULL: none) */
    int fwords;            /* fins->set_words */
    sdk_fish_fn fn;
    void *ctx;
    int stop;
    /* current base */
    int n; /* size being searched */
    int nbase;
    uint8_t base[SDK_FISH_MAX_SIZE];
    uint32_t base_used; /* bit per house */
    sdk_bb B, E;        /* base candidates, endo fins */
    /* current cover */
    int ncover;
    uint8_t cover[SDK_FISH_MAX_SIZE];
    uint32_t cover_used; /* bit per house of the current cover */
    uint32_t touch;      /* cover-type houses holding a base candidate */
    indep ind;           /* the base set's independent cells (see below) */
    /* with fin sets, per number of base houses: the set bits that k + 1
     * independent cells or more lack, and the bits still possible */
    uint64_t set_away[SDK_FISH_MAX_SIZE + 1][SDK_FISH_MAX_SIZE][SDK_FISH_SET_WORDS];
    uint64_t set_ok[SDK_FISH_MAX_SIZE + 1][SDK_FISH_SET_WORDS];
    /* searching since a pattern without fish (sdk_fish_find_since; last, so
     * that the full search's fields keep their places) */
    sdk_bb gone;       /* the candidates lost since (none: a full search) */
    uint32_t want;     /* base-type houses holding one: the base holds one of them */
    bool uncover;      /* and a lost one it holds stays uncovered or is an endo fin */
    bool all;          /* P has no fish of any class the search reports (see
                          sdk_fish_find_since_all), not only none of one */
    uint64_t ulo, uhi; /* lost base candidates in no cover house yet (one must
                          stay so; else a bit past the grid, never covered) */
    /* the witness search (see "a witness for a new fish" below) */
    bool witness;                     /* looking for any fish at all: the first one stops it */
    int wit;                          /* the lost cell chosen as witness */
    bool per_x;                       /* keep the bound per elimination (st->xl) */
    xlevel xl[SDK_FISH_MAX_SIZE + 1]; /* per number of base houses (see below) */
    /* per number of base houses: the cells in one (two, three) houses or
     * more that cannot be cover houses (see cover_short) */
    sdk_bb short1[SDK_FISH_MAX_SIZE + 1], short2[SDK_FISH_MAX_SIZE + 1],
        short3[SDK_FISH_MAX_SIZE + 1];
} search;

static unsigned type_mask(int h)
{
    return 1u << sdk_house_type(h);
}

static unsigned houses_mask(const uint8_t *hs, int n)
{
    unsigned m = 0;
    for (int i = 0; i < n; i++) m |= type_mask(hs[i]);
    return m;
}

static int classify(unsigned bm, unsigned cm)
{
    if ((bm == MASK_ROW && cm == MASK_COL) || (bm == MASK_COL && cm == MASK_ROW))
        return SDK_FISH_BASIC;
    bool rb = bm == MASK_ROW || bm == (MASK_ROW | MASK_BOX);
    bool cb = bm == MASK_COL || bm == (MASK_COL | MASK_BOX);
    bool cc = cm == MASK_COL || cm == (MASK_COL | MASK_BOX);
    bool cr = cm == MASK_ROW || cm == (MASK_ROW | MASK_BOX);
    if ((rb && cc) || (cb && cr)) return SDK_FISH_FRANKEN;
    return SDK_FISH_MUTANT;
}

static void sort_houses(uint8_t *h, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && h[j - 1] > h[j]; j--) {
            uint8_t t = h[j];
            h[j] = h[j - 1];
            h[j - 1] = t;
        }
}

static inline int cell_of(uint64_t lo, uint64_t hi)
{
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(hi);
}

/* The fins chosen so far: exo fins F, how many fins with the endo fins, and
 * the cells that see all of them (every cell while there is none). */
typedef struct fins_t {
    uint64_t flo, fhi; /* F */
    uint64_t plo, phi; /* cells every fin sees (st->sees) */
    int n;
    const uint64_t *sets; /* with fin sets: their intersection (NULL: no fin yet) */
} fins_t;

static void fins_add(const search *st, fins_t *f, int c)
{
    if (c < 64)
        f->flo |= 1ULL << c;
    else
        f->fhi |= 1ULL << (c - 64);
    f->n++;
    f->plo &= st->sees[c].lo;
    f->phi &= st->sees[c].hi;
}

/* The cells every fin of `fins` sees (st->sees); every cell when none. */
static sdk_bb common_sees(const search *st, sdk_bb fins)
{
    if (st->sees == sdk_peer_bb) return sdk_common_peers(fins);
    sdk_bb r = {~0ULL, (1ULL << 17) - 1};
    SDK_BB_FOREACH(c, fins) r = sdk_bb_and(r, st->sees[c]);
    return r;
}

/* With fin sets: out = the fins' intersection and the set of cell c; does
 * it hold a bit? (Without: always.) */
static bool sets_meet(const search *st, const uint64_t *acc, int c, uint64_t *out)
{
    if (!st->fsets) return true;
    const uint64_t *set = st->fsets + (size_t)c * (size_t)st->fwords;
    uint64_t any = 0;
    for (int w = 0; w < st->fwords; w++) {
        out[w] = acc ? acc[w] & set[w] : set[w];
        any |= out[w];
    }
    return any != 0;
}

/* Fin sets: do the fins and the base candidates of one cover house have a
 * set bit in common? */
static bool cover_sets_meet(const search *st, const fins_t *fs)
{
    for (int i = 0; i < st->ncover; i++) {
        uint64_t acc[SDK_FISH_SET_WORDS], any = 0;
        memcpy(acc, fs->sets, sizeof acc[0] * (size_t)st->fwords);
        SDK_BB_FOREACH(c, sdk_bb_and(st->B, sdk_house_bb[st->cover[i]])) {
            const uint64_t *set = st->fsets + (size_t)c * (size_t)st->fwords;
            for (int w = 0; w < st->fwords; w++) acc[w] &= set[w];
        }
        for (int w = 0; w < st->fwords; w++) any |= acc[w];
        if (any) return true;
    }
    return false;
}

/* A complete (base, cover, fins) candidate: check it and report it. */
static void evaluate(search *st, const fins_t *fs)
{
    const sdk_fish_search *s = st->s;
    sdk_bb F = {fs->flo, fs->fhi};
    sdk_bb allF = sdk_bb_or(F, st->E);
    int nf = fs->n;
    if (nf == 0 ? !s->finless : (!s->finned || nf > s->max_fins)) return;
    if (st->second_pass) {
        /* boxes-only base and cover were already seen in the row pass */
        unsigned bm = houses_mask(st->base, st->nbase), cm = houses_mask(st->cover, st->ncover);
        if (bm == MASK_BOX && cm == MASK_BOX) return;
    }
    uint64_t clo = 0, chi = 0, klo = 0, khi = 0;
    for (int i = 0; i < st->ncover; i++) {
        sdk_bb hc = st->house_cand[st->cover[i]];
        klo |= clo & hc.lo;
        khi |= chi & hc.hi;
        clo |= hc.lo;
        chi |= hc.hi;
    }
    uint64_t elo = ((clo & ~st->B.lo) | klo) & fs->plo;
    uint64_t ehi = ((chi & ~st->B.hi) | khi) & fs->phi;
    if (s->need_elims && (elo | ehi) == 0) return;
    if (st->fsets && !cover_sets_meet(st, fs)) return;
    if (st->sees != sdk_peer_bb) { /* the eliminations are what every fin sees */
        sdk_bb p = sdk_common_peers(allF);
        elo = ((clo & ~st->B.lo) | klo) & p.lo;
        ehi = ((chi & ~st->B.hi) | khi) & p.hi;
    }

    sdk_fish f;
    memset(&f, 0, sizeof f);
    sdk_bb C = {clo, chi}, cannibal = {klo, khi};
    sdk_bb potential = sdk_bb_or(sdk_bb_andnot(C, st->B), cannibal);
    f.digit = st->digit;
    f.size = st->n;
    memcpy(f.base, st->base, (size_t)st->nbase);
    memcpy(f.cover, st->cover, (size_t)st->ncover);
    sort_houses(f.base, st->nbase);
    sort_houses(f.cover, st->ncover);
    f.kind = classify(houses_mask(f.base, st->nbase), houses_mask(f.cover, st->ncover));
    if (s->only_kind && f.kind != s->kind) return;
    f.sashimi = false;
    if (f.kind == SDK_FISH_BASIC)
        for (int i = 0; i < st->nbase; i++)
            if (sdk_bb_count(sdk_bb_andnot(st->house_cand[f.base[i]], allF)) <= 1) {
                f.sashimi = true;
                break;
            }
    f.base_cells = st->B;
    f.cover_cells = C;
    f.fins = F;
    f.endo_fins = st->E;
    f.cannibal = cannibal;
    f.potential = potential;
    f.elims = (sdk_bb){elo, ehi};
    if (st->fn(st->ctx, &f)) st->stop = 1;
}

/* Can a fin set still lead to an elimination? (Fins must share a peer holding
 * the digit.) */
static bool fins_viable(const search *st, const fins_t *f)
{
    return !st->s->need_elims || ((f->plo & st->ind.xok.lo) | (f->phi & st->ind.xok.hi)) != 0;
}

/* Houses still free to be cover houses. */
static inline uint32_t cover_free(const search *st, uint32_t excluded)
{
    return st->cover_bits & ~(st->base_used | excluded | st->cover_used);
}

/* The recursions below come twice, compiled for a full search and for a
 * search since a pattern (`since`, a constant in each copy: see "searching
 * since a pattern" below), so that the full search (kraken fish's) does
 * none of the second one's work. */
#define ALWAYS_INLINE inline __attribute__((always_inline))

static void extras_full(search *st, const fins_t *fs, uint32_t excluded, int from);
static void extras_since(search *st, const fins_t *fs, uint32_t excluded, int from);

/* All base cells are handled: fill the cover set up to n with houses that
 * touch the base but cover nothing new (they only add cannibalism). */
static ALWAYS_INLINE void extras_t(search *st, const fins_t *fs, uint32_t excluded, int from,
                                   const bool since)
{
    if (st->stop) return;
    if (st->ncover == st->n) {
        evaluate(st, fs);
        return;
    }
    uint32_t free = cover_free(st, excluded) & ~((1u << from) - 1);
    while (free && !st->stop) {
        int h = __builtin_ctz(free);
        free &= free - 1;
        const sdk_bb *hc = &st->house_cand[h];
        if (((hc->lo & st->B.lo) | (hc->hi & st->B.hi)) == 0) continue;
        if (((hc->lo & fs->flo) | (hc->hi & fs->fhi)) != 0) continue;
        uint64_t ulo = st->ulo, uhi = st->uhi;
        if (since) {
            if (((ulo & ~sdk_house_bb[h].lo) | (uhi & ~sdk_house_bb[h].hi)) == 0) continue;
            st->ulo = ulo & ~sdk_house_bb[h].lo;
            st->uhi = uhi & ~sdk_house_bb[h].hi;
        }
        st->cover[st->ncover++] = (uint8_t)h;
        st->cover_used |= 1u << h;
        if (since)
            extras_since(st, fs, excluded, h + 1);
        else
            extras_full(st, fs, excluded, h + 1);
        st->cover_used &= ~(1u << h);
        st->ncover--;
        if (since) {
            st->ulo = ulo;
            st->uhi = uhi;
        }
    }
}

static void extras_full(search *st, const fins_t *fs, uint32_t excluded, int from)
{
    extras_t(st, fs, excluded, from, false);
}

static void extras_since(search *st, const fins_t *fs, uint32_t excluded, int from)
{
    extras_t(st, fs, excluded, from, true);
}

static uint32_t cell_houses_bits(int c)
{
    return (1u << sdk_cell_house[c][0]) | (1u << sdk_cell_house[c][1]) |
           (1u << sdk_cell_house[c][2]);
}

/* No cover house left: every open cell must be a fin. */
static void all_fins(search *st, uint64_t olo, uint64_t ohi, const fins_t *fs)
{
    if (!st->finned || fs->n + sdk_popcount64(olo) + sdk_popcount64(ohi) > st->max_fins) return;
    fins_t f2 = *fs;
    uint64_t acc[SDK_FISH_SET_WORDS];
    while (olo) {
        int c = __builtin_ctzll(olo);
        if (!sets_meet(st, f2.sets, c, acc)) return;
        if (st->fsets) f2.sets = acc;
        fins_add(st, &f2, c);
        olo &= olo - 1;
    }
    while (ohi) {
        int c = 64 + __builtin_ctzll(ohi);
        if (!sets_meet(st, f2.sets, c, acc)) return;
        if (st->fsets) f2.sets = acc;
        fins_add(st, &f2, c);
        ohi &= ohi - 1;
    }
    if (!fins_viable(st, &f2)) return;
    evaluate(st, &f2);
}

/* With fins, an elimination sees every fin and lies in a cover house (in two
 * when it is a base candidate: cannibalism): is there still such a cell, given
 * the cover houses chosen so far and those that may still be chosen? */
static bool elim_possible(const search *st, const fins_t *fs, uint32_t excluded)
{
    if (!st->s->need_elims || fs->n == 0) return true;
    uint32_t may = st->cover_used;
    if (st->ncover < st->n) may |= cover_free(st, excluded) & st->touch;
    uint64_t tlo = fs->plo & st->ind.xok.lo, thi = fs->phi & st->ind.xok.hi;
    while (tlo | thi) {
        int x;
        if (tlo) {
            x = __builtin_ctzll(tlo);
            tlo &= tlo - 1;
        } else {
            x = 64 + __builtin_ctzll(thi);
            thi &= thi - 1;
        }
        int in = (may >> sdk_cell_house[x][0] & 1) + (may >> sdk_cell_house[x][1] & 1) +
                 (may >> sdk_cell_house[x][2] & 1);
        if (in >= (sdk_bb_has(st->B, x) ? 2 : 1)) return true;
    }
    return false;
}

/* ---- where a base set can eliminate ------------------------------------
 *
 * Let x be an elimination of a fish. Every fin sees x, so the base cells that
 * do not see x (x aside) are all covered. A cover house holding x covers
 * nothing of them (its other cells see x), and x lies in a cover house (in
 * two when it is a base cell: cannibalism). So the base cells away from x are
 * covered by n - 1 cover houses (n - 2), which is impossible when more of
 * them than that pairwise share no house that may be a cover house. Such a
 * set of independent cells is kept as the base set grows (st->ind: houses
 * only leave the may-be-cover set, so the cells stay independent), with the
 * cells x that too many of them do not see (away[]); a base set (and every
 * larger one) where no candidate is left to eliminate is skipped. At a full
 * base set each remaining x is tested once more against an independent set
 * of its own (greedy, among the base cells away from x), and the cover search
 * only looks for eliminations among the cells that pass. For finned Franken
 * jellyfish on a hard puzzle's digits, 98% of the base sets go. The same
 * count is also kept per x as the base set grows (st->xl: each x its own
 * greedy choice among the cells away from it, which holds more of them than
 * the shared one does), so most base sets go before they are full. */

/* Add open base cell c to the independent cells (avail: the houses that may
 * be cover houses). */
static void indep_add(search *st, int c, uint32_t avail)
{
    indep *in = &st->ind;
    sdk_bb_add(&in->cells, c);
    sdk_bb_add(&in->shared, c);
    for (int k = 0; k < 3; k++)
        if (avail >> sdk_cell_house[c][k] & 1)
            in->shared = sdk_bb_or(in->shared, sdk_house_bb[sdk_cell_house[c][k]]);
    sdk_bb far = {~st->sees[c].lo, ~st->sees[c].hi & ((1ULL << 17) - 1)};
    sdk_bb_del(&far, c);
    for (int k = st->n - 1; k > 0; k--)
        in->away[k] = sdk_bb_or(in->away[k], sdk_bb_and(in->away[k - 1], far));
    in->away[0] = sdk_bb_or(in->away[0], far);
}

/* A greedy count of cells of `cells` no two of which share a house of
 * `avail`, from the lowest cell up; stops past limit. */
static int independent_count(uint32_t avail, sdk_bb cells, int limit)
{
    int n = 0;
    while (!sdk_bb_empty(cells) && n <= limit) {
        int c = sdk_bb_first(cells);
        sdk_bb_del(&cells, c);
        for (int k = 0; k < 3; k++)
            if (avail >> sdk_cell_house[c][k] & 1)
                cells = sdk_bb_andnot(cells, sdk_house_bb[sdk_cell_house[c][k]]);
        n++;
    }
    return n;
}

/* The cells a full base set (st->B, st->E, st->touch) may eliminate: those
 * of st->ind.xok in a house that touches the base (every cover house does)
 * that pass the count, a base cell with one house less. */
static sdk_bb elim_cells(const search *st)
{
    uint32_t avail = st->cover_bits & ~st->base_used;
    sdk_bb open = sdk_bb_andnot(st->B, st->E);
    sdk_bb X = sdk_bb_none();
    for (uint32_t t = st->touch; t; t &= t - 1) X = sdk_bb_or(X, sdk_house_bb[__builtin_ctz(t)]);
    X = sdk_bb_and(X, st->ind.xok);
    sdk_bb ok = sdk_bb_none();
    SDK_BB_FOREACH(x, X) {
        int limit = st->n - 1;
        if (sdk_bb_has(st->B, x)) {
            limit--;
            if (limit < 0 || sdk_bb_has(st->ind.away[limit], x)) continue;
        }
        sdk_bb away = sdk_bb_and(open, st->far[x]);
        if (independent_count(avail, away, limit) > limit) continue;
        sdk_bb_add(&ok, x);
    }
    return ok;
}

/* Cover the base cells in `open` one at a time: the first open cell is either
 * a fin (its houses may then never be cover houses) or is covered by one of
 * its houses; choosing the i-th house excludes the earlier alternatives, so
 * every cover set comes out once. */
static void cover_rec_full(search *st, uint64_t olo, uint64_t ohi, const fins_t *fs,
                           uint32_t excluded);
static void cover_rec_since(search *st, uint64_t olo, uint64_t ohi, const fins_t *fs,
                            uint32_t excluded);

static ALWAYS_INLINE void cover_rec(search *st, uint64_t olo, uint64_t ohi, const fins_t *fs,
                                    uint32_t excluded, const bool since)
{
    if (st->stop) return;
    if ((olo | ohi) == 0) {
        if (since)
            extras_since(st, fs, excluded, 0);
        else
            extras_full(st, fs, excluded, 0);
        return;
    }
    if (st->ncover == st->n) {
        all_fins(st, olo, ohi, fs);
        return;
    }
    if (!elim_possible(st, fs, excluded)) return;
    int c = cell_of(olo, ohi);
    /* c covered by one of its houses */
    uint32_t ex = excluded;
    bool last = st->ncover + 1 == st->n;
    for (int k = 0; k < 3 && !st->stop; k++) {
        int h = sdk_cell_house[c][k];
        uint32_t hb = 1u << h;
        if (!(cover_free(st, ex) & hb)) continue;
        uint64_t ulo = st->ulo, uhi = st->uhi;
        if (since) {
            if (((ulo & ~sdk_house_bb[h].lo) | (uhi & ~sdk_house_bb[h].hi)) == 0) {
                ex |= hb;
                continue;
            }
            st->ulo = ulo & ~sdk_house_bb[h].lo;
            st->uhi = uhi & ~sdk_house_bb[h].hi;
        }
        uint64_t nlo = olo & ~st->house_cand[h].lo, nhi = ohi & ~st->house_cand[h].hi;
        st->cover[st->ncover++] = (uint8_t)h;
        st->cover_used |= hb;
        if (last && (nlo | nhi))
            all_fins(st, nlo, nhi, fs); /* what cover_rec would do, without the call */
        else if (since)
            cover_rec_since(st, nlo, nhi, fs, ex);
        else
            cover_rec_full(st, nlo, nhi, fs, ex);
        st->cover_used &= ~hb;
        st->ncover--;
        if (since) {
            st->ulo = ulo;
            st->uhi = uhi;
        }
        ex |= hb;
    }
    /* c a fin */
    uint64_t acc[SDK_FISH_SET_WORDS];
    if (st->finned && fs->n + 1 <= st->max_fins && !st->stop && sets_meet(st, fs->sets, c, acc)) {
        fins_t f2 = *fs;
        if (st->fsets) f2.sets = acc;
        fins_add(st, &f2, c);
        if (fins_viable(st, &f2)) {
            if (c < 64)
                olo &= ~(1ULL << c);
            else
                ohi &= ~(1ULL << (c - 64));
            if (since)
                cover_rec_since(st, olo, ohi, &f2, excluded | cell_houses_bits(c));
            else
                cover_rec_full(st, olo, ohi, &f2, excluded | cell_houses_bits(c));
        }
    }
}

static void cover_rec_full(search *st, uint64_t olo, uint64_t ohi, const fins_t *fs,
                           uint32_t excluded)
{
    cover_rec(st, olo, ohi, fs, excluded, false);
}

static void cover_rec_since(search *st, uint64_t olo, uint64_t ohi, const fins_t *fs,
                            uint32_t excluded)
{
    cover_rec(st, olo, ohi, fs, excluded, true);
}

/* Fin sets: the same count for a bit z of the sets. The fins and the base
 * candidates of one cover house all have z (see sdk_fish_fins in fish.h), so the
 * base candidates without z lie in the n - 1 other cover houses, and the
 * endo fins have z. Level st->nbase + 1 from level st->nbase, with the cells
 * `added` to the independent ones and the new endo fins. */
static bool sets_viable(search *st, sdk_bb added, sdk_bb endo)
{
    int m = st->nbase, n = st->n, words = st->fwords;
    memcpy(st->set_away[m + 1], st->set_away[m], sizeof st->set_away[m][0] * (size_t)n);
    memcpy(st->set_ok[m + 1], st->set_ok[m], sizeof st->set_ok[m]);
    uint64_t(*away)[SDK_FISH_SET_WORDS] = st->set_away[m + 1];
    uint64_t *ok = st->set_ok[m + 1];
    SDK_BB_FOREACH(c, added) {
        const uint64_t *set = st->fsets + (size_t)c * (size_t)words;
        for (int w = 0; w < words; w++) {
            for (int k = n - 1; k > 0; k--) away[k][w] |= away[k - 1][w] & ~set[w];
            away[0][w] |= ~set[w];
        }
    }
    SDK_BB_FOREACH(e, endo) {
        const uint64_t *set = st->fsets + (size_t)e * (size_t)words;
        for (int w = 0; w < words; w++) ok[w] &= set[w];
    }
    uint64_t any = 0;
    for (int w = 0; w < words; w++) any |= ok[w] &= ~away[n - 1][w];
    return any != 0;
}

/* The eliminations st->ind.xok starts from, each without independent cells
 * yet (level 0). */
static void xlevel_start(search *st)
{
    xlevel *l = &st->xl[0];
    SDK_BB_FOREACH(x, st->ind.xok) {
        l->count[x] = 0;
        l->shared[x] = sdk_bb_none();
    }
}

/* A house joins the base (avail: the houses that may still be cover
 * houses; fresh: its cells new to the base; B: the base cells with it).
 * Each x of `ok` on the list takes its independent cells among the fresh
 * ones away from it, greedily (the greedy of the whole base set, st->ind,
 * does not look at x, and elim_cells comes only at a full base); x stays
 * while they fit in the cover houses without x (n - 1, or n - 2 when x is a
 * base cell: a cannibal lies in two). The next level's list, and the x
 * kept. */
static sdk_bb xlevel_next(search *st, uint32_t avail, sdk_bb fresh, sdk_bb B, sdk_bb ok)
{
    const xlevel *l = &st->xl[st->nbase];
    xlevel *next = &st->xl[st->nbase + 1];
    /* the last level's table is never read: a full base set goes to the
     * cover search (elim_cells), which has no use for it */
    bool last = st->nbase + 1 == st->n;
    uint64_t klo = 0, khi = 0; /* the x kept */
    /* what a fresh cell chosen adds to an x's shared cells (itself and its
     * may-be-cover houses): the same for every x (it depends on the cell
     * and avail only), so made once, when some x first takes the cell
     * (dlo, dhi: the cells made; most fresh cells are taken by no x); the
     * loop below keeps plain words (see `search`) */
    sdk_bb contrib[SDK_CELLS];
    uint64_t dlo = 0, dhi = 0;
    /* ok is within st->ind.xok, the x of this level (base_viable) */
    for (int half = 0; half < 2; half++) {
        for (uint64_t m = half ? ok.hi : ok.lo; m; m &= m - 1) {
            int x = half * 64 + __builtin_ctzll(m);
            int limit = st->n - (sdk_bb_has(B, x) ? 2 : 1), count = l->count[x];
            sdk_bb shared = l->shared[x];
            uint64_t clo = fresh.lo & st->far[x].lo & ~shared.lo;
            uint64_t chi = fresh.hi & st->far[x].hi & ~shared.hi;
            while (clo | chi) {
                if (count >= limit) break; /* one cell more than fits: x goes */
                int c = clo ? __builtin_ctzll(clo) : 64 + __builtin_ctzll(chi);
                count++;
                if (!((c < 64 ? dlo >> c : dhi >> (c - 64)) & 1)) {
                    sdk_bb sh = sdk_bb_none();
                    sdk_bb_add(&sh, c);
                    for (int j = 0; j < 3; j++)
                        if (avail >> sdk_cell_house[c][j] & 1)
                            sh = sdk_bb_or(sh, sdk_house_bb[sdk_cell_house[c][j]]);
                    contrib[c] = sh;
                    if (c < 64)
                        dlo |= 1ULL << c;
                    else
                        dhi |= 1ULL << (c - 64);
                }
                shared.lo |= contrib[c].lo;
                shared.hi |= contrib[c].hi;
                clo &= ~shared.lo;
                chi &= ~shared.hi;
            }
            if ((clo | chi) || count > limit) continue; /* x a base cell now: limit - 1 */
            if (!last) {
                next->count[x] = (uint8_t)count;
                next->shared[x] = shared;
            }
            if (half)
                khi |= m & -m;
            else
                klo |= m & -m;
        }
    }
    return (sdk_bb){klo, khi};
}

/* Before the houses that may join the base at this level are tried: when
 * every x on the list has used up its cover houses (count at its limit),
 * a house keeps x only when it holds no cell that would count for x (open,
 * not seeing x, not sharing a may-be-cover house with x's independent
 * cells) and does not make x a base cell (a lower limit); kill[i] holds
 * those cells for the i-th x. A house that meets every kill[i] would leave
 * xlevel_next no x, and base_viable would say no: it is skipped without
 * the call. Returns the number of x (kill[] filled), or -1 when some x has
 * room left (every house is tried). On hard puzzles most last-level houses
 * go this way. */
static int xlevel_kills(const search *st, sdk_bb *kill)
{
    const xlevel *l = &st->xl[st->nbase];
    sdk_bb open = sdk_bb_andnot(st->cand, st->B);
    int n = 0;
    SDK_BB_FOREACH(x, st->ind.xok) {
        bool in_base = sdk_bb_has(st->B, x);
        if (l->count[x] < st->n - (in_base ? 2 : 1)) return -1;
        sdk_bb k = sdk_bb_andnot(sdk_bb_and(open, st->far[x]), l->shared[x]);
        if (!in_base) sdk_bb_add(&k, x);
        kill[n++] = k;
    }
    return n;
}

/* Does house candidates hc miss some kill[i] (see xlevel_kills)? */
static inline bool house_keeps_some(sdk_bb hc, const sdk_bb *kill, int nkill)
{
    for (int i = 0; i < nkill; i++)
        if (((hc.lo & kill[i].lo) | (hc.hi & kill[i].hi)) == 0) return true;
    return false;
}

/* May a house join the base when its candidates already in the base are
 * endo? Those become endo fins: only in a finned search, within the fin
 * limits, and (with need_elims) with a candidate left that every fin sees.
 * *E2: the fins with them. */
static inline bool endo_fins_ok(const search *st, sdk_bb endo, sdk_bb *E2)
{
    *E2 = st->E;
    if (sdk_bb_empty(endo)) return true;
    *E2 = sdk_bb_or(st->E, endo);
    int fins = sdk_bb_count(*E2);
    if (!st->s->finned || fins > st->s->max_endo_fins || fins > st->s->max_fins) return false;
    return !st->s->need_elims || !sdk_bb_empty(sdk_bb_and(common_sees(st, *E2), st->cand));
}

/* ---- where an elimination lies -------------------------------------------
 *
 * An elimination lies in a cover house, a base cell (a cannibal) in two:
 * a cell whose houses that may still be cover houses (of the cover types,
 * neither in the base nor banned) are too few is none. Those houses only
 * go as the base grows, so the cells short of them, kept per level as the
 * cells with one, two or three houses that cannot be cover houses, only
 * grow too. */

/* One more house H that cannot be a cover house: the cells of H move up a
 * count (s1: one such house or more, s2: two, s3: three). */
static inline void cover_short_add(sdk_bb *s1, sdk_bb *s2, sdk_bb *s3, sdk_bb H)
{
    *s3 = sdk_bb_or(*s3, sdk_bb_and(*s2, H));
    *s2 = sdk_bb_or(*s2, sdk_bb_and(*s1, H));
    *s1 = sdk_bb_or(*s1, H);
}

/* Level 0: the houses not of the cover types (or banned). */
static void cover_short_start(search *st)
{
    sdk_bb s1 = sdk_bb_none(), s2 = sdk_bb_none(), s3 = sdk_bb_none();
    for (uint32_t out = ~st->cover_bits & ALL_HOUSES; out; out &= out - 1)
        cover_short_add(&s1, &s2, &s3, sdk_house_bb[__builtin_ctz(out)]);
    st->short1[0] = s1;
    st->short2[0] = s2;
    st->short3[0] = s3;
}

/* House h joins the base (level st->nbase + 1), B the base cells with it:
 * the x of ok that stay possible. */
static sdk_bb cover_short(search *st, int h, sdk_bb B, sdk_bb ok)
{
    int k = st->nbase;
    sdk_bb s1 = st->short1[k], s2 = st->short2[k], s3 = st->short3[k];
    if (st->cover_bits >> h & 1) cover_short_add(&s1, &s2, &s3, sdk_house_bb[h]);
    st->short1[k + 1] = s1;
    st->short2[k + 1] = s2;
    st->short3[k + 1] = s3;
    return sdk_bb_andnot(ok, sdk_bb_or(s3, sdk_bb_and(B, s2)));
}

/* Add house h (its candidates hc, those already in the base endo, the endo
 * fins then E2) to the independent cells: can the base set still give a
 * fish? (With need_elims: some candidate left to eliminate; finless: at most
 * n independent cells, each needing a cover house of its own.) */
static bool base_viable(search *st, int h, sdk_bb hc, sdk_bb endo, sdk_bb E2)
{
    uint32_t avail = st->cover_bits & ~(st->base_used | 1u << h);
    sdk_bb fresh = sdk_bb_andnot(sdk_bb_andnot(hc, endo), st->ind.shared);
    sdk_bb added = sdk_bb_none();
    while (!sdk_bb_empty(fresh)) {
        int c = sdk_bb_first(fresh);
        indep_add(st, c, avail);
        sdk_bb_add(&added, c);
        fresh = sdk_bb_andnot(fresh, st->ind.shared);
    }
    if (!st->finned && sdk_bb_count(st->ind.cells) > st->n) return false;
    if (st->fsets && !sets_viable(st, added, endo)) return false;
    if (!st->s->need_elims) return true;
    sdk_bb ok = sdk_bb_andnot(st->ind.xok, st->ind.away[st->n - 1]);
    /* an x in the base (from now on: the base only grows) is a cannibal, in
     * two cover houses, so the cells away from it go in n - 2 others, which
     * n - 1 independent cells away from it (away[n - 2]) do not fit: what
     * elim_cells says at a full base, said as soon as it holds, before the
     * bound per x looks at x (a bitboard test against a loop per x) */
    if (st->n >= 2)
        ok = sdk_bb_andnot(ok, sdk_bb_and(sdk_bb_or(st->B, hc), st->ind.away[st->n - 2]));
    if (!sdk_bb_empty(endo)) ok = sdk_bb_and(ok, common_sees(st, E2));
    ok = cover_short(st, h, sdk_bb_or(st->B, hc), ok);
    /* no x left: xlevel_next would keep none and write nothing */
    if (st->per_x && !sdk_bb_empty(ok))
        ok = xlevel_next(st, avail, sdk_bb_andnot(hc, endo), sdk_bb_or(st->B, hc), ok);
    st->ind.xok = ok;
    return !sdk_bb_empty(ok);
}

/* ---- searching since a pattern without fish ----------------------------
 *
 * P: a pattern of the digit's candidates, a superset of the grid's, on which
 * the search found no fish of some kind and class; R: the candidates of P
 * the grid lacks. Take a fish on the grid and the same base and cover
 * houses on P: the base gains the cells of R in its houses (R_B), the cover
 * houses only hold more candidates. When no cell of R_B is a fin on P (each
 * in one base house only, and in a cover house), the fins and endo fins are
 * the grid's, and so is the kind, and the eliminations are a superset: a
 * fish of that kind on P. When R_B is empty, it is also of the same class,
 * which P has none of. So every such fish of the grid has a base house
 * holding a cell of R (st->want). And when the class cannot change, either a
 * cell of R_B lies in two base houses or one lies in no cover house (st->ulo,
 * st->uhi: the cells of R_B no cover house holds yet; a cover house that
 * would leave none is not tried). The class can change for a finned basic
 * fish only: a base house that loses a covered candidate can make it
 * sashimi, so searches that report finned basic fish do without this second
 * rule (st->uncover). What is skipped holds no such fish, and the rest comes
 * in the usual order.
 *
 * When P holds no fish of the kind of any class the search reports
 * (sdk_fish_find_since_all, st->all), the class may change: the fish on P
 * is one of a class P has none of all the same. So the second rule holds
 * for every search then, and the witness search below too. */

/* At a full base set: set up the lost cells to keep uncovered; false when
 * the base holds none. */
static bool since_base(search *st)
{
    sdk_bb rb = sdk_bb_none();
    for (int i = 0; i < st->nbase; i++) rb = sdk_bb_or(rb, sdk_house_bb[st->base[i]]);
    rb = sdk_bb_and(rb, st->gone);
    if (sdk_bb_empty(rb)) return false;
    if (!st->uncover) return true;
    SDK_BB_FOREACH(r, rb) {
        int in = (st->base_used >> sdk_cell_house[r][0] & 1) +
                 (st->base_used >> sdk_cell_house[r][1] & 1) +
                 (st->base_used >> sdk_cell_house[r][2] & 1);
        if (in >= 2) return true; /* an endo fin on P: any cover */
    }
    st->ulo = rb.lo;
    st->uhi = rb.hi;
    return true;
}

/* ---- a witness for a new fish -------------------------------------------
 *
 * When few candidates went since P (sdk_fish_find_since), most base sets
 * still hold one of them, and the search above costs about what a full one
 * does. So first a cheaper question: is there any such fish at all? Nearly
 * always not; only when there is does the search above run, for the order.
 *
 * Take a fish of the grid whose kind and class P has none of. By the rules
 * above, some lost cell r of R_B (the witness) is, on P, uncovered and in
 * one base house only (an exo fin), or in two base houses (an endo fin).
 * The first case pins that base house and bans r's other houses from base
 * and cover; the second pins two houses of r. Each lost cell and case is
 * searched on its own (a fish may come twice: only whether there is one
 * counts), pinned houses first, then the others ascending.
 *
 * When the class is finned (Franken and Mutant only: st->uncover), more
 * holds, and so it does for every class when P has no fish of any class
 * the search reports (st->all: a finless fish of the grid is a finned one
 * on P, which the search would report too). On P the same houses give the
 * fish with the fins of the grid's plus those of R_B, and the grid's
 * eliminations x among its potential ones. P has no such fish, so either
 * the fin limits fail on P or each x does not see some new fin. Every
 * witness r is tried, so an x that sees r only counts when the limits can
 * fail: too many endo fins (known with the base), or more than max_fins
 * fins in all, which needs fins seeing x (the open base cells among x's
 * peers) enough to reach it with all of R_B. */

/* The eliminations the witness allows at a full base set. */
static sdk_bb witness_elims(const search *st)
{
    sdk_bb all = {~0ULL, (1ULL << 17) - 1};
    /* a finless fish of the grid is finned on P: P says nothing of it
     * unless P has no finned fish either */
    if (st->s->finless && !(st->all && st->s->finned)) return all;
    sdk_bb rb = sdk_bb_none();
    for (int i = 0; i < st->nbase; i++) rb = sdk_bb_or(rb, sdk_house_bb[st->base[i]]);
    rb = sdk_bb_and(rb, st->gone);
    int endo = sdk_bb_count(st->E);
    SDK_BB_FOREACH(r, rb) {
        int in = (st->base_used >> sdk_cell_house[r][0] & 1) +
                 (st->base_used >> sdk_cell_house[r][1] & 1) +
                 (st->base_used >> sdk_cell_house[r][2] & 1);
        endo += in >= 2;
    }
    if (endo > st->s->max_endo_fins) return all;
    int need = st->s->max_fins + 1 - sdk_bb_count(st->E) - sdk_bb_count(rb);
    if (need <= 0) return all;
    sdk_bb ok = sdk_bb_andnot(all, sdk_peer_bb[st->wit]);
    sdk_bb open = sdk_bb_andnot(st->B, st->E);
    SDK_BB_FOREACH(x, sdk_bb_andnot(st->ind.xok, ok))
        if (sdk_bb_count(sdk_bb_and(open, sdk_peer_bb[x])) >= need) sdk_bb_add(&ok, x);
    return ok;
}

/* Choose base houses (ascending, from index `from`), then search covers. */
static void base_rec_full(search *st, int from);
static void base_rec_since(search *st, int from);

static ALWAYS_INLINE void base_rec(search *st, int from, const bool since)
{
    if (st->stop) return;
    if (st->nbase == st->n) {
        st->ncover = 0;
        st->cover_used = 0;
        st->touch = 0;
        if (since) {
            st->ulo = 0;
            st->uhi = 1ULL << 40; /* past the grid: no cover house holds it */
            if (!since_base(st)) return;
        }
        uint32_t cb = st->cover_bits & ~st->base_used;
        while (cb) {
            int h = __builtin_ctz(cb);
            cb &= cb - 1;
            if (!sdk_bb_empty(sdk_bb_and(st->house_cand[h], st->B))) st->touch |= 1u << h;
        }
        /* with fin sets: the bits still possible, the endo fins' among them */
        fins_t f0 = {0,
                     0,
                     ~0ULL,
                     (1ULL << 17) - 1,
                     sdk_bb_count(st->E),
                     st->fsets ? st->set_ok[st->n] : NULL};
        if (f0.n) {
            sdk_bb p = common_sees(st, st->E);
            f0.plo = p.lo;
            f0.phi = p.hi;
        }
        sdk_bb xok0 = st->ind.xok;
        if (!since && st->witness) {
            if (st->s->only_kind && st->s->kind == SDK_FISH_FRANKEN &&
                !(st->base_used & LINE_HOUSES))
                return;
            st->ind.xok = sdk_bb_and(xok0, witness_elims(st));
        }
        if (st->s->need_elims) {
            st->ind.xok = elim_cells(st);
            if (sdk_bb_empty(st->ind.xok)) {
                st->ind.xok = xok0;
                return;
            }
        }
        sdk_bb open = sdk_bb_andnot(st->B, st->E);
        if (since && st->uncover)
            cover_rec_since(st, open.lo, open.hi, &f0, 0);
        else
            cover_rec_full(st, open.lo, open.hi, &f0, 0);
        st->ind.xok = xok0;
        return;
    }
    /* no wanted house yet: one must come, the last one at the last level */
    bool want_one = since && !(st->base_used & st->want), last = st->nbase + 1 == st->n;
    sdk_bb kill[SDK_CELLS];
    int nkill = st->per_x ? xlevel_kills(st, kill) : -1;
    uint32_t next = st->base_bits & ~((1u << from) - 1);
    if (since && want_one) /* up to the last wanted house; at the last level those only */
        next &= last ? st->want : (st->want ? (2u << (31 - __builtin_clz(st->want))) - 1 : 0);
    /* a Franken fish has a row (column) in its base: houses come in order
     * rows, columns, boxes, so none is left to come at a box */
    if (st->s->only_kind && st->s->kind == SDK_FISH_FRANKEN && !(st->base_used & LINE_HOUSES))
        next &= LINE_HOUSES;
    for (; next && !st->stop; next &= next - 1) {
        int h = __builtin_ctz(next);
        sdk_bb hc = st->house_cand[h];
        if (sdk_bb_empty(hc)) continue;
        if (nkill >= 0 && !house_keeps_some(hc, kill, nkill)) continue;
        sdk_bb endo = sdk_bb_and(st->B, hc), E2;
        if (!endo_fins_ok(st, endo, &E2)) continue;
        indep ind0 = st->ind;
        if (!base_viable(st, h, hc, endo, E2)) {
            st->ind = ind0;
            continue;
        }
        sdk_bb B0 = st->B, E0 = st->E;
        st->B = sdk_bb_or(st->B, hc);
        st->E = E2;
        st->base[st->nbase++] = (uint8_t)h;
        st->base_used |= 1u << h;
        if (since)
            base_rec_since(st, h + 1);
        else
            base_rec_full(st, h + 1);
        st->base_used &= ~(1u << h);
        st->nbase--;
        st->B = B0;
        st->E = E0;
        st->ind = ind0;
    }
}

static void base_rec_full(search *st, int from)
{
    base_rec(st, from, false);
}

static void base_rec_since(search *st, int from)
{
    base_rec(st, from, true);
}

/* Add house h to the base for good (a pinned house): false when no fish
 * can have it (the tests of base_rec). */
static bool pin_house(search *st, int h)
{
    sdk_bb hc = st->house_cand[h];
    if (sdk_bb_empty(hc) || !(type_mask(h) & st->base_types)) return false;
    sdk_bb endo = sdk_bb_and(st->B, hc), E2;
    if (!endo_fins_ok(st, endo, &E2)) return false;
    if (!base_viable(st, h, hc, endo, E2)) return false;
    st->B = sdk_bb_or(st->B, hc);
    st->E = E2;
    st->base[st->nbase++] = (uint8_t)h;
    st->base_used |= 1u << h;
    return true;
}

/* One case of witness r: the houses `pins` in the base, the houses `ban`
 * neither in the base nor in the cover. */
static void witness_case(search *st, int r, uint32_t pins, uint32_t ban)
{
    uint32_t cover_bits = st->cover_bits;
    st->cover_bits &= ~ban;
    st->wit = r;
    st->nbase = 0;
    st->base_used = 0;
    st->B = st->E = sdk_bb_none();
    memset(&st->ind, 0, sizeof st->ind);
    st->ind.xok = st->cand;
    xlevel_start(st);
    cover_short_start(st);
    bool ok = __builtin_popcount(pins) <= st->n;
    for (uint32_t p = pins; p && ok; p &= p - 1) ok = pin_house(st, __builtin_ctz(p));
    if (ok) {
        uint32_t base_bits = st->base_bits;
        st->base_bits &= ~(pins | ban);
        base_rec_full(st, 0);
        st->base_bits = base_bits;
    }
    st->cover_bits = cover_bits;
}

/* Is there a fish with a witness among the lost cells (stops at one)? */
static void witness_search(search *st)
{
    SDK_BB_FOREACH(r, st->gone) {
        int hs[3], nh = 0;
        uint32_t rh = cell_houses_bits(r);
        for (int k = 0; k < 3; k++) {
            int h = sdk_cell_house[r][k];
            if (type_mask(h) & st->base_types && !sdk_bb_empty(st->house_cand[h])) hs[nh++] = h;
        }
        for (int i = 0; i < nh && !st->stop; i++) /* r an exo fin on P */
            witness_case(st, r, 1u << hs[i], rh & ~(1u << hs[i]));
        for (int i = 0; i < nh && !st->stop; i++) /* r an endo fin on P */
            for (int j = i + 1; j < nh && !st->stop; j++)
                witness_case(st, r, 1u << hs[i] | 1u << hs[j], 0);
        if (st->stop) return;
    }
}

void sdk_fish_search_init(sdk_fish_search *s)
{
    s->min_size = 2;
    s->max_size = 4;
    s->kind = SDK_FISH_BASIC;
    s->finless = true;
    s->finned = true;
    s->max_fins = 5;
    s->max_endo_fins = 2;
    s->need_elims = true;
    s->only_kind = false;
}

static int find_digit(const sdk_grid *g, int d, const sdk_fish_search *s, const sdk_fish_fins *fins,
                      sdk_bb gone, bool all, bool witness, sdk_fish_fn fn, void *ctx)
{
    search st;
    memset(&st, 0, offsetof(search, set_away)); /* the set arrays: set up when used */
    st.g = g;
    st.s = s;
    st.digit = d;
    st.cand = g->digit[d - 1];
    st.finned = s->finned;
    st.max_fins = s->max_fins;
    st.sees = st.seen_by = sdk_peer_bb;
    sdk_bb sees[SDK_CELLS], seen_by[SDK_CELLS];
    if (fins && fins->reach) {
        memset(seen_by, 0, sizeof seen_by);
        for (int c = 0; c < SDK_CELLS; c++) {
            sees[c] = sdk_bb_or(sdk_peer_bb[c], fins->reach[c]);
            SDK_BB_FOREACH(x, sees[c]) sdk_bb_add(&seen_by[x], c);
        }
        st.sees = sees;
        st.seen_by = seen_by;
    }
    sdk_bb far[SDK_CELLS]; /* read at the candidates only */
    SDK_BB_FOREACH(x, st.cand) {
        far[x] = (sdk_bb){~st.seen_by[x].lo, ~st.seen_by[x].hi & ((1ULL << 17) - 1)};
        sdk_bb_del(&far[x], x);
    }
    st.far = far;
    if (fins && fins->sets && fins->set_words >= 1 && fins->set_words <= SDK_FISH_SET_WORDS) {
        st.fsets = fins->sets;
        st.fwords = fins->set_words;
    }
    st.fn = fn;
    st.ctx = ctx;
    st.gone = gone;
    st.witness = witness;
    st.wit = -1;
    /* the bound per x pays where the base sets are many and wide: measured
     * on hard puzzles, it costs finless-only and basic fish more than it
     * saves (a search of both classes goes through the finned one's base
     * sets: it pays there as it does for finned fish alone) */
    st.per_x = s->need_elims && s->finned && s->kind != SDK_FISH_BASIC;
    st.all = all;
    st.uncover = all || !(s->finned && (s->kind == SDK_FISH_BASIC || !s->only_kind));
    uint32_t want = ALL_HOUSES;
    if (!sdk_bb_empty(gone)) {
        want = 0;
        SDK_BB_FOREACH(c, gone)
            want |= 1u << sdk_cell_house[c][0] | 1u << sdk_cell_house[c][1] |
                    1u << sdk_cell_house[c][2];
    }
    for (int h = 0; h < 27; h++) st.house_cand[h] = sdk_bb_and(sdk_house_bb[h], st.cand);
    int lo = s->min_size < 1 ? 1 : s->min_size;
    int hi = s->max_size > SDK_FISH_MAX_SIZE ? SDK_FISH_MAX_SIZE : s->max_size;
    for (int n = lo; n <= hi && !st.stop; n++) {
        st.n = n;
        int passes = s->kind == SDK_FISH_MUTANT ? 1 : 2;
        for (int p = 0; p < passes && !st.stop; p++) {
            st.second_pass = p == 1;
            if (s->kind == SDK_FISH_MUTANT) {
                st.base_types = st.cover_types = MASK_ROW | MASK_COL | MASK_BOX;
            } else {
                unsigned box = s->kind == SDK_FISH_FRANKEN ? MASK_BOX : 0;
                st.base_types = (p == 0 ? MASK_ROW : MASK_COL) | box;
                st.cover_types = (p == 0 ? MASK_COL : MASK_ROW) | box;
            }
            st.cover_bits = st.base_bits = 0;
            for (int h = 0; h < 27; h++) {
                if (type_mask(h) & st.cover_types) st.cover_bits |= 1u << h;
                if (type_mask(h) & st.base_types) st.base_bits |= 1u << h;
            }
            st.want = 0;
            if (!sdk_bb_empty(st.gone))
                for (int h = 0; h < 27; h++)
                    if (type_mask(h) & st.base_types && want >> h & 1) st.want |= 1u << h;
            st.nbase = 0;
            st.base_used = 0;
            st.B = st.E = sdk_bb_none();
            memset(&st.ind, 0, sizeof st.ind);
            st.ind.xok = st.cand;
            xlevel_start(&st);
            cover_short_start(&st);
            if (st.fsets) {
                memset(st.set_away[0], 0, sizeof st.set_away[0]);
                memset(st.set_ok[0], 0xff, sizeof st.set_ok[0]);
            }
            if (witness)
                witness_search(&st);
            else if (sdk_bb_empty(st.gone))
                base_rec_full(&st, 0);
            else
                base_rec_since(&st, 0);
        }
    }
    return st.stop;
}

int sdk_fish_find_fins(const sdk_grid *g, int digit, const sdk_fish_search *s,
                       const sdk_fish_fins *fins, sdk_fish_fn fn, void *ctx)
{
    for (int d = 1; d <= 9; d++) {
        if (digit && d != digit) continue;
        if (find_digit(g, d, s, fins, sdk_bb_none(), false, false, fn, ctx)) return 1;
    }
    return 0;
}

/* The witness search's report: one fish is enough. */
static int any_fish(void *ctx, const sdk_fish *f)
{
    (void)ctx;
    (void)f;
    return 1;
}

/* sdk_fish_find_since (all: sdk_fish_find_since_all). */
static int find_since(const sdk_grid *g, int digit, const sdk_fish_search *s, sdk_bb before,
                      bool all, sdk_fish_fn fn, void *ctx)
{
    if (digit < 1 || digit > 9) return sdk_fish_find(g, digit, s, fn, ctx);
    sdk_bb cand = g->digit[digit - 1];
    if (!sdk_bb_empty(sdk_bb_andnot(cand, before))) return sdk_fish_find(g, digit, s, fn, ctx);
    sdk_bb gone = sdk_bb_andnot(before, cand);
    if (sdk_bb_empty(gone)) return 0; /* P itself: nothing of that kind and class */
    bool uncover = all || !(s->finned && (s->kind == SDK_FISH_BASIC || !s->only_kind));
    if (uncover && s->need_elims && sdk_bb_count(gone) <= WITNESS_MAX_GONE &&
        !find_digit(g, digit, s, NULL, gone, all, true, any_fish, NULL))
        return 0;
    return find_digit(g, digit, s, NULL, gone, all, false, fn, ctx);
}

int sdk_fish_find_since(const sdk_grid *g, int digit, const sdk_fish_search *s, sdk_bb before,
                        sdk_fish_fn fn, void *ctx)
{
    return find_since(g, digit, s, before, false, fn, ctx);
}

int sdk_fish_find_since_all(const sdk_grid *g, int digit, const sdk_fish_search *s, sdk_bb before,
                            sdk_fish_fn fn, void *ctx)
{
    return find_since(g, digit, s, before, true, fn, ctx);
}

int sdk_fish_find(const sdk_grid *g, int digit, const sdk_fish_search *s, sdk_fish_fn fn, void *ctx)
{
    return sdk_fish_find_fins(g, digit, s, NULL, fn, ctx);
}

char *sdk_fish_houses(const uint8_t *houses, int n, char *buf, size_t len)
{
    static const char letter[3] = {'r', 'c', 'b'};
    size_t k = 0;
    int last = -1;
    buf[0] = 0;
    for (int i = 0; i < n && k + 3 < len; i++) {
        int t = sdk_house_type(houses[i]);
        if (t != last) buf[k++] = letter[t];
        buf[k++] = (char)('1' + houses[i] % 9);
        last = t;
    }
    buf[k] = 0;
    return buf;
}
