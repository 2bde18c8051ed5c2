/* fish_reach.c - where the fins of a finned basic fish can all lead: cheap
 * necessary conditions that spare kraken fish most of their fish search.
 *
 * Kraken fish (plugins/forcing/kraken.c) search finned fish whose fins, and
 * in type 2 also the base candidates of one cover house, all imply one
 * conclusion z. On a hard grid nearly every search finds nothing, and the
 * fish search is what it costs. Turn the question round: fix z, and call a
 * cell of the digit "good" when it implies z (false), "bad" otherwise.
 *
 * Take a basic fish, base rows R (n of them), cover columns C (the same
 * with rows and columns swapped). Its fins are the candidates of R outside
 * C, and each cover column holds a candidate of R (the enumerator chooses
 * none that does not).
 *   - Type 2, conclusion z: the fins and the candidates of R in one cover
 *     column c are good, so the bad candidates of R lie in the n - 1 other
 *     cover columns; and the candidates of R span n + 1 columns at least
 *     (the n cover columns and a fin's).
 *   - Type 1, target x of the digit, a cover cell outside the base: x's row
 *     is not in R and x's column is in C; every fin is good, so the bad
 *     candidates of R lie in C, that is x's column and n - 1 others, all
 *     holding a candidate of R; the candidates of R span n + 1 columns; and
 *     some fin does not see x (else the plain finned fish would take x):
 *     a good candidate of R outside x's box, in a column outside C.
 * So some n rows (2 <= n <= the largest size) have their bad candidates in
 * n - 1 columns (type 1: n, x's among them), which for a z that few cells
 * imply (nearly all of them) no n rows have. The test runs per z on nine
 * 9-bit masks, rows then columns, over the subsets of the rows whose bad
 * candidates fit at all; what passes is a superset of what the fish search
 * can conclude, so the search, given only that, finds the same fish with
 * the same conclusions in the same order (and none at all when nothing
 * passes). On the hardest puzzles 1 z in 10,000 passes. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/cache.h"
#include "sudoku/fish.h"
#include "thread_cache.h"

/* A line's cells as a 9-bit mask over the cross lines (bit k: column k of
 * a row, row k of a column). */
static inline int popcount9(unsigned m)
{
    return __builtin_popcount(m);
}

/* The lines a fish may use, as the recursion reads them. */
typedef struct lines {
    int n;            /* lines that can take part */
    uint16_t bad[9];  /* their bad cells (with the target's cross line, type 1) */
    uint16_t all[9];  /* their candidates */
    uint16_t away[9]; /* their good cells away from the target (type 1; type 2: all) */
    unsigned slack;   /* type 2: 1 (one cover line holds good cells only), type 1: 0 */
    int max_size;
} lines;

/* Some k more lines (from index i on) with the union of bad cells `bad`,
 * of candidates `all`, of `away` cells `away`: see the header. */
static bool lines_fit(const lines *L, int i, int k, unsigned bad, unsigned all, unsigned away)
{
    if (k >= 2 && popcount9(bad) + (int)L->slack <= k && !(bad & ~all) && popcount9(all) > k &&
        (away & ~bad))
        return true;
    if (k == L->max_size) return false;
    for (; i < L->n; i++) {
        unsigned b = bad | L->bad[i];
        if (popcount9(b) + (int)L->slack > L->max_size) continue;
        if (lines_fit(L, i + 1, k + 1, b, all | L->all[i], away | L->away[i])) return true;
    }
    return false;
}

/* cand[l], good[l]: the candidates and the good cells of line l; the target
 * at line tl, cross line tk (tl < 0: type 2); box[l]: the cross lines of
 * line l in the target's box. */
static bool some_fish(const uint16_t *cand, const uint16_t *good, int tl, int tk,
                      const uint16_t *box, int max_size)
{
    lines L = {.n = 0, .slack = tl < 0 ? 1 : 0, .max_size = max_size};
    unsigned start = tl < 0 ? 0 : 1u << tk;
    for (int l = 0; l < 9; l++) {
        if (!cand[l] || l == tl) continue;
        unsigned b = (cand[l] & ~good[l]) | start;
        if (popcount9(b) + (int)L.slack > max_size) continue;
        L.bad[L.n] = (uint16_t)b;
        L.all[L.n] = cand[l];
        L.away[L.n++] = (uint16_t)(tl < 0 ? cand[l] : good[l] & ~box[l]);
    }
    return L.n >= 2 && lines_fit(&L, 0, 0, start, 0, 0);
}

static int clamp_size(int max_size)
{
    return max_size > SDK_FISH_MAX_SIZE ? SDK_FISH_MAX_SIZE : max_size;
}

/* The answers of some_fish per thread, for the next calls: a function of
 * the digit's candidates, the good cells (rows; the columns say the same),
 * the target (-1: a set bit, type 2) and max_size. The same chains come back
 * at the next positions, where the digit's candidates and most implications
 * stay. Direct-mapped; a slot taken by another key is overwritten. 16384
 * slots: on the median puzzles of issue 11 a test in 12 misses (2048: one
 * in 7), near the one in 14 an unbounded table gives. */
struct tested {
    sdk_bb cand;
    uint16_t good[9];
    int8_t target;
    uint8_t max_size; /* 0: empty */
    bool fits;
};
enum { TESTED_SLOTS = 16384 };

/* A thread's state: the kept answers, and sdk_fish_basic_sets_keep's good
 * cells per bit of the sets (indexed by the bit; all zero between calls). */
typedef struct reach_state {
    struct tested tested[TESTED_SLOTS];
    uint16_t good_row[SDK_FISH_SET_WORDS * 64][9];
} reach_state;

/* The state is on the heap (670 kB: too much for the static TLS a thread's
 * stack gives up), one per thread, freed when the thread ends or the host
 * releases it (sudoku/cache.h). A thread-local variable's address costs a
 * call to __tls_get_addr in a shared library (and GCC makes that call
 * again inside the loops rather than keep it): so it is read once per call
 * here, out of line, and the state passed on. */
static void reach_release(void);
static thread_cache tc = {.destroy = free, .release = reach_release};
static _Thread_local reach_state *mine;

/* The host's release (sudoku/cache.h): the kept answers go, the next
 * call starts as a new thread does. */
static void reach_release(void)
{
    thread_cache_drop(&tc, mine);
    mine = NULL;
}

static __attribute__((noinline)) reach_state *this_thread(void)
{
    if (!mine) mine = thread_cache_new(&tc, sizeof *mine);
    return mine;
}

/* The columns' good cells from the rows'. */
static void transpose9(const uint16_t *row, uint16_t *col)
{
    memset(col, 0, 9 * sizeof *col);
    for (int r = 0; r < 9; r++)
        for (unsigned m = row[r]; m; m &= m - 1) col[__builtin_ctz(m)] |= (uint16_t)(1u << r);
}

static uint64_t tested_key(sdk_bb cand, int max_size, int target)
{
    return cand.lo * 0x9E3779B97F4A7C15ULL ^ cand.hi * 0xD6E8FEB86659FD93ULL ^
           (uint64_t)max_size * 0x94D049BB133111EBULL ^
           (uint64_t)(target + 1) * 0xBF58476D1CE4E5B9ULL;
}

static uint64_t tested_hash(uint64_t key, const uint16_t *good)
{
    uint64_t a, b;
    memcpy(&a, good, 8);
    memcpy(&b, good + 4, 8);
    return key ^ a * 0x9E3779B97F4A7C15ULL ^ b * 0xC2B2AE3D27D4EB4FULL ^
           (uint64_t)good[8] * 0x165667B19E3779F9ULL;
}

static struct tested *tested_at(reach_state *rs, uint64_t h)
{
    return &rs->tested[(h ^ h >> 29 ^ h >> 47) & (TESTED_SLOTS - 1)];
}

/* The kept entry for the key, or NULL. */
static struct tested *tested_slot(reach_state *rs, uint64_t h, sdk_bb cand, const uint16_t *good,
                                  int max_size, int target)
{
    struct tested *t = tested_at(rs, h);
    if (t->max_size == max_size && t->target == target && sdk_bb_eq(t->cand, cand) &&
        !memcmp(t->good, good, sizeof t->good))
        return t;
    return NULL;
}

static void tested_put(reach_state *rs, uint64_t h, sdk_bb cand, const uint16_t *good, int max_size,
                       int target, bool fits)
{
    struct tested *t = tested_at(rs, h);
    t->cand = cand;
    memcpy(t->good, good, sizeof t->good);
    t->target = (int8_t)target;
    t->max_size = (uint8_t)max_size;
    t->fits = fits;
}

bool sdk_fish_basic_sets_keep(sdk_bb cand, const uint64_t *sets, int set_words, int max_size,
                              uint64_t *keep)
{
    max_size = clamp_size(max_size);
    if (max_size < 2 || set_words < 1 || set_words > SDK_FISH_SET_WORDS) return false;
    uint64_t kept = 0;
    for (int w = 0; w < set_words; w++) kept |= keep[w];
    if (!kept) return false;
    /* per kept bit (at its place w * 64 + bit), the good cells row by row;
     * every row is zero again once read below */
    reach_state *rs = this_thread();
    uint16_t(*good_row)[9] = rs->good_row;
    uint16_t cand_row[9] = {0}, cand_col[9] = {0}, none[9] = {0};
    SDK_BB_FOREACH(c, cand) {
        int r = c / 9, k = c % 9;
        cand_row[r] |= (uint16_t)(1u << k);
        cand_col[k] |= (uint16_t)(1u << r);
        const uint64_t *set = sets + (size_t)c * (size_t)set_words;
        for (int w = 0; w < set_words; w++)
            for (uint64_t m = set[w] & keep[w]; m; m &= m - 1)
                good_row[w * 64 + __builtin_ctzll(m)][r] |= (uint16_t)(1u << k);
    }
    /* many bits have the same good cells (what one chain reaches), here
     * and at the next positions, where the digit's candidates and most
     * chains stay: the answer is kept (see `tested`) */
    uint64_t hc = tested_key(cand, max_size, -1);
    uint64_t any = 0;
    for (int w = 0; w < set_words; w++) {
        for (uint64_t m = keep[w]; m; m &= m - 1) {
            uint16_t *good = good_row[w * 64 + __builtin_ctzll(m)];
            uint64_t h = tested_hash(hc, good);
            struct tested *t = tested_slot(rs, h, cand, good, max_size, -1);
            bool fits;
            if (t) {
                fits = t->fits;
            } else {
                uint16_t good_col[9];
                transpose9(good, good_col);
                fits = some_fish(cand_row, good, -1, 0, none, max_size) ||
                       some_fish(cand_col, good_col, -1, 0, none, max_size);
                tested_put(rs, h, cand, good, max_size, -1, fits);
            }
            memset(good, 0, sizeof good_row[0]);
            if (!fits) keep[w] &= ~(m & -m);
        }
        any |= keep[w];
    }
    return any != 0;
}

sdk_bb sdk_fish_basic_reach_targets(sdk_bb cand, const sdk_bb *reach, sdk_bb targets, int max_size)
{
    max_size = clamp_size(max_size);
    sdk_bb pass = sdk_bb_none();
    if (max_size < 2) return pass;
    /* per target cell, the good cells (a peer of it, or reaching it) row by
     * row and column by column */
    uint16_t good_row[SDK_CELLS][9], good_col[SDK_CELLS][9];
    uint16_t cand_row[9] = {0}, cand_col[9] = {0};
    reach_state *rs = this_thread();
    SDK_BB_FOREACH(x, targets) {
        memset(good_row[x], 0, sizeof good_row[x]);
        memset(good_col[x], 0, sizeof good_col[x]);
    }
    SDK_BB_FOREACH(c, cand) {
        int r = c / 9, k = c % 9;
        cand_row[r] |= (uint16_t)(1u << k);
        cand_col[k] |= (uint16_t)(1u << r);
        SDK_BB_FOREACH(x, sdk_bb_and(sdk_bb_or(reach[c], sdk_peer_bb[c]), targets)) {
            good_row[x][r] |= (uint16_t)(1u << k);
            good_col[x][k] |= (uint16_t)(1u << r);
        }
    }
    /* the answers are kept as sdk_fish_basic_sets_keep's are (`tested`):
     * the same chains reach the same targets at the next positions */
    SDK_BB_FOREACH(x, targets) {
        uint64_t h = tested_hash(tested_key(cand, max_size, x), good_row[x]);
        struct tested *t = tested_slot(rs, h, cand, good_row[x], max_size, x);
        bool fits;
        if (t) {
            fits = t->fits;
        } else {
            int xr = x / 9, xc = x % 9;
            uint16_t box_row[9] = {0}, box_col[9] = {0}; /* the cross lines in x's box */
            for (int l = 0; l < 9; l++) {
                if (l / 3 == xr / 3) box_row[l] = (uint16_t)(7u << (xc / 3 * 3));
                if (l / 3 == xc / 3) box_col[l] = (uint16_t)(7u << (xr / 3 * 3));
            }
            fits = some_fish(cand_row, good_row[x], xr, xc, box_row, max_size) ||
                   some_fish(cand_col, good_col[x], xc, xr, box_col, max_size);
            tested_put(rs, h, cand, good_row[x], max_size, x, fits);
        }
        if (fits) sdk_bb_add(&pass, x);
    }
    return pass;
}
