/* test_cache_release.c - caches released between requests rebuild
 * transparently (sudoku/cache.h).
 *
 * A worker frees the techniques' caches when it is idle; the next request
 * must rate and explain exactly as it would with them. So each profile
 * rates hard puzzles twice: once with the caches kept from puzzle to
 * puzzle and from step to step, once with every cache released before
 * each puzzle and after every top-level find (between finds, so also
 * between two techniques that share a cache on one position: harder than
 * a host's release between requests), and the two transcripts (every
 * step's technique, text and effect, each rating) must be the same.
 * Under ASan this also checks that nothing is read from a released cache.
 * The registry itself: a function noted twice is called once, and a closed
 * module's functions are forgotten. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/cache.h"
#include "testutil.h"

static sdk_config cfg;

static int setup(void **state)
{
    (void)state;
    tu_load_config(&cfg);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sdk_config_free(&cfg);
    return 0;
}

/* A transcript: text appended to a growing buffer. */
typedef struct transcript {
    char *s;
    size_t n, cap;
    bool release_each_find;
    int released; /* how many releases it made */
} transcript;

static void say(transcript *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(transcript *t, const char *fmt, ...)
{
    char line[SDK_STEP_TEXT + 256];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t len = k < 0 ? 0 : (size_t)k < sizeof line ? (size_t)k : sizeof line - 1;
    if (t->n + len + 1 > t->cap) {
        t->cap = (t->n + len + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    memcpy(t->s + t->n, line, len + 1);
    t->n += len;
}

static int on_step(void *c, const sdk_step *s, const sdk_grid *before)
{
    (void)before;
    transcript *t = c;
    char effect[512];
    say(t, "%s d%d | %s | %s\n", s->tech ? s->tech->id : "?", s->difficulty, s->text,
        sdk_step_effect(s, effect, sizeof effect));
    return 0;
}

/* After each top-level find (no find runs then): release. */
static void after_find(void *arg, const sdk_profile *p, int entry, int depth, int outer)
{
    (void)p, (void)entry;
    transcript *t = arg;
    if (depth > 0 || outer >= 0) return;
    sdk_config_release_caches(&cfg);
    t->released++;
}

/* Rate n puzzles of the data file (every stride-th from the first) with
 * profile, into t. */
static void rate_all(const char *profile, int n, int stride, transcript *t)
{
    const sdk_profile *p = sdk_config_profile(&cfg, profile);
    assert_non_null(p);
    uint8_t(*puz)[81] = NULL;
    int got = tu_read_puzzles("forum_hardest_1106.txt", n, stride, &puz);
    assert_int_equal(got, n);
    for (int i = 0; i < n; i++) {
        if (t->release_each_find) {
            sdk_config_release_caches(&cfg);
            t->released++;
        }
        sdk_grid g;
        sdk_grid_from_values(&g, puz[i]);
        sdk_observer releaser = {NULL, after_find, t};
        sdk_run_opts o = {.unique = true, .observer = t->release_each_find ? &releaser : NULL};
        sdk_rating r;
        memset(&r, 0, sizeof r);
        sdk_engine_run(p, &g, &o, on_step, t, &r);
        say(t, "puzzle %d: er %d ep %d ed %d score %d level %d steps %d status %d\n", i, r.er, r.ep,
            r.ed, r.score, r.level, r.steps, r.status);
    }
    free(puz);
}

static void same_with_and_without_release(const char *profile, int n, int stride)
{
    transcript kept = {0}, released = {.release_each_find = true};
    rate_all(profile, n, stride, &kept);
    rate_all(profile, n, stride, &released);
    assert_true(released.released > n);
    assert_string_equal(kept.s, released.s);
    free(kept.s);
    free(released.s);
}

/* SE's nested searches (se_memo, the search pool, handoffs, closures,
 * static links), fish reach, the uniqueness and misc memos. */
static void default_profile_rates_the_same(void **state)
{
    (void)state;
    same_with_and_without_release("default", 3, 97);
}

/* Forcing chains and nets (tables, search buffer), chains (reach, misses,
 * the shared link graphs), ALS (lists, bases, chain spaces), prop_memo. */
static void hodoku_profile_rates_the_same(void **state)
{
    (void)state;
    same_with_and_without_release("hodoku", 4, 61);
}

static void standard_profile_rates_the_same(void **state)
{
    (void)state;
    same_with_and_without_release("standard", 3, 83);
}

/* After a hard rating the caches hold megabytes; released, the heap in use
 * falls back (not measurable under ASan, whose allocator malloc_info does
 * not describe). */
static void release_gives_the_memory_back(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip();
#else
    transcript t = {0};
    rate_all("default", 1, 1, &t); /* line 1 of the hardest */
    struct mallinfo2 before = mallinfo2();
    sdk_config_release_caches(&cfg);
    struct mallinfo2 after = mallinfo2();
    size_t was = before.uordblks + before.hblkhd, now = after.uordblks + after.hblkhd;
    assert_true(was > now + ((size_t)1 << 20));
    free(t.s);
#endif
}

static int calls;
static void count_release(void)
{
    calls++;
}

/* Last: forgetting this executable's module drops the library's own
 * functions too (the static libsudoku linked into the test). */
static void registry_calls_each_function_once_until_forgotten(void **state)
{
    (void)state;
    sdk_cache_register(count_release);
    sdk_cache_register(count_release);
    calls = 0;
    sdk_cache_release_all();
    assert_int_equal(calls, 1);
    sdk_cache_release_all();
    assert_int_equal(calls, 2);
    sdk_cache_forget_module((const void *)&calls);
    sdk_cache_release_all();
    assert_int_equal(calls, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_profile_rates_the_same),
        cmocka_unit_test(hodoku_profile_rates_the_same),
        cmocka_unit_test(standard_profile_rates_the_same),
        cmocka_unit_test(release_gives_the_memory_back),
        cmocka_unit_test(registry_calls_each_function_once_until_forgotten),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
