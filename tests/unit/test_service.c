/* test_service.c - one request executed in-process with the build tree's
 * config: every method's result shape, batches, and the precise error of
 * everything a request can get wrong. */
#include "testutil.h"
#include <stdarg.h>
#include <string.h>
#include "sudoku/service.h"
#include "sudoku/solver.h"

/* kaggle_10k.txt line 1: singles only. */
static const char *EASY =
    ".4.1...5.1.7..396.52...8..........17...9.68..8.3.5.62..9..6.5436...8.7..25..971..";
/* top1465 #1: needs more than the basic techniques. */
static const char *HARD =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/* Few clues: many solutions. */
static const char *MANY =
    "1........2........3........4........5........6........7........8........9........";

static sdk_config cfg;
static sdk_service sv;

static int setup(void **state)
{
    (void)state;
    tu_load_config(&cfg);
    sdk_error err;
    if (!sdk_service_init(&sv, &cfg, NULL, &err)) return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sdk_service_free(&sv);
    sdk_config_free(&cfg);
    return 0;
}

typedef struct call {
    msgpack_sbuffer params, result;
    sdk_wire_reader pin, rin;
    const msgpack_object *res;
    sdk_error err;
    bool ok;
} call;

/* do_call(&c, "rate", "puzzle", 's', text, "no_guess", 'b', 1, NULL):
 * keys with a type ('s' string, 'b' bool, 'i' int, 'a' array of n strings
 * given as (int n, const char **v), 'n' nil, 'x' an int where a string goes). */
static void do_call(call *c, const char *method, ...)
{
    memset(c, 0, sizeof *c);
    msgpack_sbuffer_init(&c->params);
    msgpack_sbuffer_init(&c->result);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &c->params, msgpack_sbuffer_write);
    va_list ap;
    int n = 0;
    va_start(ap, method);
    for (const char *k; (k = va_arg(ap, const char *));) {
        int t = va_arg(ap, int);
        n++;
        if (t == 's')
            (void)va_arg(ap, const char *);
        else if (t == 'b' || t == 'i' || t == 'x')
            (void)va_arg(ap, int);
        else if (t == 'a')
            (void)va_arg(ap, int), (void)va_arg(ap, const char **);
    }
    va_end(ap);
    msgpack_pack_map(&pk, (size_t)n);
    va_start(ap, method);
    for (const char *k; (k = va_arg(ap, const char *));) {
        int t = va_arg(ap, int);
        sdk_wire_str(&pk, k);
        if (t == 's')
            sdk_wire_str(&pk, va_arg(ap, const char *));
        else if (t == 'b')
            va_arg(ap, int) ? msgpack_pack_true(&pk) : msgpack_pack_false(&pk);
        else if (t == 'i' || t == 'x')
            msgpack_pack_int(&pk, va_arg(ap, int));
        else if (t == 'n')
            msgpack_pack_nil(&pk);
        else if (t == 'a') {
            int m = va_arg(ap, int);
            const char **v = va_arg(ap, const char **);
            msgpack_pack_array(&pk, (size_t)m);
            for (int i = 0; i < m; i++) sdk_wire_str(&pk, v[i]);
        }
    }
    va_end(ap);
    const msgpack_object *params;
    assert_true(sdk_wire_reader_init(&c->pin, 64 << 20));
    assert_true(sdk_wire_reader_feed(&c->pin, c->params.data, c->params.size));
    assert_int_equal(sdk_wire_reader_next(&c->pin, &params, &c->err), 1);
    msgpack_packer out;
    msgpack_packer_init(&out, &c->result, msgpack_sbuffer_write);
    c->ok = sdk_service_handle(&sv, method, params, &out, &c->err);
    assert_true(sdk_wire_reader_init(&c->rin, 64 << 20));
    if (c->ok) {
        assert_true(c->result.size > 0);
        assert_true(sdk_wire_reader_feed(&c->rin, c->result.data, c->result.size));
        assert_int_equal(sdk_wire_reader_next(&c->rin, &c->res, &c->err), 1);
        assert_int_equal(sdk_wire_reader_pending(&c->rin), 0); /* exactly one object */
        assert_int_equal(c->res->type, MSGPACK_OBJECT_MAP);
    } else {
        assert_int_equal(c->result.size, 0); /* nothing packed on failure */
        assert_true(c->err.code[0] != 0);
        assert_true(c->err.msg[0] != 0);
    }
}

static void call_free(call *c)
{
    sdk_wire_reader_free(&c->pin);
    sdk_wire_reader_free(&c->rin);
    msgpack_sbuffer_destroy(&c->params);
    msgpack_sbuffer_destroy(&c->result);
}

static void expect_error(call *c, const char *code, const char *needle)
{
    assert_false(c->ok);
    if (strcmp(c->err.code, code) != 0)
        fail_msg("code %s (%s), wanted %s", c->err.code, c->err.msg, code);
    if (needle && !strstr(c->err.msg, needle))
        fail_msg("message '%s' lacks '%s'", c->err.msg, needle);
}

static const msgpack_object *get(const msgpack_object *m, const char *key)
{
    const msgpack_object *v = sdk_wire_get(m, key);
    if (!v) fail_msg("no key '%s' in the result", key);
    return v;
}

static void str_of(const msgpack_object *o, char *buf, size_t n)
{
    assert_true(sdk_wire_copy_str(o, buf, n));
}

static void solution_of(const char *p, char out[82])
{
    uint8_t v[81], sol[2][81];
    for (int i = 0; i < 81; i++) v[i] = p[i] >= '1' && p[i] <= '9' ? (uint8_t)(p[i] - '0') : 0;
    assert_int_equal(sdk_solve(v, 2, sol, NULL), 1);
    for (int i = 0; i < 81; i++) out[i] = (char)('0' + sol[0][i]);
    out[81] = 0;
}

static void test_solve(void **state)
{
    (void)state;
    call c;
    char buf[800], want[82];
    do_call(&c, "solve", "puzzle", 's', EASY, NULL);
    assert_true(c.ok);
    str_of(get(c.res, "status"), buf, sizeof buf);
    assert_string_equal(buf, "unique");
    str_of(get(c.res, "solution"), buf, sizeof buf);
    solution_of(EASY, want);
    assert_string_equal(buf, want);
    str_of(get(c.res, "puzzle"), buf, sizeof buf);
    assert_string_equal(buf, EASY);
    assert_int_equal(get(c.res, "solutions")->via.u64, 1);
    assert_null(sdk_wire_get(c.res, "steps")); /* only with logic */
    assert_null(sdk_wire_get(c.res, "differ"));
    call_free(&c);

    do_call(&c, "solve", "puzzle", 's', MANY, NULL);
    assert_true(c.ok);
    str_of(get(c.res, "status"), buf, sizeof buf);
    assert_string_equal(buf, "multiple");
    char s1[82], s2[82];
    str_of(get(c.res, "solution"), s1, sizeof s1);
    str_of(get(c.res, "solution2"), s2, sizeof s2);
    const msgpack_object *d = get(c.res, "differ");
    int differ = 0;
    for (int i = 0; i < 81; i++) differ += s1[i] != s2[i];
    assert_true(differ > 0);
    assert_int_equal(d->via.array.size, differ);
    int first = 0;
    while (s1[first] == s2[first]) first++;
    snprintf(buf, sizeof buf, "r%dc%d", first / 9 + 1, first % 9 + 1);
    assert_true(sdk_wire_str_is(&d->via.array.ptr[0], buf));
    call_free(&c);

    /* One wrong given (not a direct conflict): no solution, yet solve answers. */
    char wrong[82];
    strcpy(wrong, EASY);
    solution_of(EASY, want);
    int cell = 0;
    while (wrong[cell] != '.') cell++;
    wrong[cell] = want[cell] == '9' ? '8' : (char)(want[cell] + 1);
    do_call(&c, "solve", "puzzle", 's', wrong, NULL);
    if (c.ok) {
        str_of(get(c.res, "status"), buf, sizeof buf);
        assert_string_equal(buf, "none");
        assert_int_equal(get(c.res, "solution")->type, MSGPACK_OBJECT_NIL);
        assert_int_equal(get(c.res, "solutions")->via.u64, 0);
    } else {
        expect_error(&c, SDK_E_CONFLICT, NULL); /* the parser may see it at once */
    }
    call_free(&c);

    do_call(&c, "solve", "puzzle", 's', EASY, "logic", 'b', 1, NULL);
    assert_true(c.ok);
    assert_true(get(c.res, "solved")->via.boolean);
    assert_true(get(c.res, "steps")->via.array.size > 0);
    call_free(&c);
}

static void test_rate(void **state)
{
    (void)state;
    call c;
    char buf[800];
    do_call(&c, "rate", "puzzle", 's', EASY, NULL);
    assert_true(c.ok);
    assert_true(get(c.res, "solved")->via.boolean);
    const msgpack_object *er = get(c.res, "er"), *ep = get(c.res, "ep"), *ed = get(c.res, "ed");
    assert_int_equal(er->type, MSGPACK_OBJECT_FLOAT64);
    assert_true(er->via.f64 >= 1.0 && er->via.f64 <= 2.6); /* singles only */
    assert_true(ep->via.f64 <= er->via.f64 && ed->via.f64 <= er->via.f64);
    str_of(get(c.res, "hardest"), buf, sizeof buf);
    assert_true(strstr(buf, "single") || strstr(buf, "full-house"));
    str_of(get(c.res, "level"), buf, sizeof buf);
    assert_string_equal(buf, "easy");
    assert_true(get(c.res, "steps")->via.u64 > 0);
    assert_true(get(c.res, "score")->via.u64 > 0);
    assert_null(sdk_wire_get(c.res, "stuck_grid"));
    call_free(&c);

    /* The hard one without guessing gets stuck; the stuck grid is 729 chars. */
    do_call(&c, "rate", "puzzle", 's', HARD, "no_guess", 'b', 1, "profile", 's', "singles", NULL);
    assert_true(c.ok);
    assert_false(get(c.res, "solved")->via.boolean);
    assert_int_equal(get(c.res, "stuck_grid")->via.str.size, 729);
    call_free(&c);

    /* With guessing it is solved, and rated harder than without. */
    do_call(&c, "rate", "puzzle", 's', HARD, "profile", 's', "singles", NULL);
    assert_true(c.ok);
    assert_true(get(c.res, "solved")->via.boolean);
    assert_true(get(c.res, "er")->via.f64 > 2.3);
    call_free(&c);
}

static void test_puzzle_errors(void **state)
{
    (void)state;
    call c;
    do_call(&c, "rate", "puzzle", 's', "12345", NULL);
    expect_error(&c, SDK_E_FORMAT, NULL);
    call_free(&c);

    char twice[82];
    strcpy(twice, EASY);
    twice[0] = '4'; /* row 1 already holds a 4 at r1c2 */
    do_call(&c, "explain", "puzzle", 's', twice, NULL);
    expect_error(&c, SDK_E_CONFLICT, NULL);
    call_free(&c);

    do_call(&c, "rate", "puzzle", 's', MANY, NULL);
    expect_error(&c, SDK_E_MULTIPLE, "differ in r");
    call_free(&c);

    char wrong[82], want[82];
    strcpy(wrong, EASY);
    solution_of(EASY, want);
    int cell = 0;
    while (wrong[cell] != '.') cell++;
    wrong[cell] = want[cell] == '9' ? '8' : (char)(want[cell] + 1);
    do_call(&c, "hint", "puzzle", 's', wrong, NULL);
    assert_false(c.ok);
    assert_true(!strcmp(c.err.code, SDK_E_NO_SOLUTION) || !strcmp(c.err.code, SDK_E_CONFLICT));
    call_free(&c);

    do_call(&c, "rate", "puzzle", 's', "", NULL);
    expect_error(&c, SDK_E_FORMAT, NULL);
    call_free(&c);
}

static void test_request_errors(void **state)
{
    (void)state;
    call c;
    do_call(&c, "frobnicate", "puzzle", 's', EASY, NULL);
    expect_error(&c, SDK_E_METHOD, "frobnicate");
    call_free(&c);
    do_call(&c, "rate", NULL);
    expect_error(&c, SDK_E_REQUEST, "missing 'puzzle'");
    call_free(&c);
    do_call(&c, "rate", "puzzle", 'x', 5, NULL);
    expect_error(&c, SDK_E_REQUEST, "'puzzle' must be a string");
    call_free(&c);
    do_call(&c, "rate", "puzzle", 's', EASY, "puzle", 's', EASY, NULL);
    expect_error(&c, SDK_E_REQUEST, "unknown parameter 'puzle'");
    call_free(&c);
    do_call(&c, "rate", "puzzle", 's', EASY, "no_guess", 's', "yes", NULL);
    expect_error(&c, SDK_E_REQUEST, "'no_guess' must be a boolean");
    call_free(&c);
    do_call(&c, "rate", "puzzle", 's', EASY, "profile", 's', "nope", NULL);
    expect_error(&c, SDK_E_PROFILE, "unknown profile 'nope'");
    call_free(&c);
    const char *one[] = {EASY};
    do_call(&c, "rate", "puzzle", 's', EASY, "puzzles", 'a', 1, one, NULL);
    expect_error(&c, SDK_E_REQUEST, "not both");
    call_free(&c);
    do_call(&c, "rate", "puzzles", 's', EASY, NULL);
    expect_error(&c, SDK_E_REQUEST, "'puzzles' must be an array");
    call_free(&c);
    const char *bad_ids[] = {"naked-single", "no-such-thing"};
    do_call(&c, "hint", "puzzle", 's', EASY, "techniques", 'a', 2, bad_ids, NULL);
    expect_error(&c, SDK_E_TECHNIQUE, "unknown technique 'no-such-thing'");
    call_free(&c);
    const char *outside[] = {"pointing"};
    do_call(&c, "hint", "puzzle", 's', EASY, "profile", 's', "singles", "techniques", 'a', 1,
            outside, NULL);
    /* a loaded technique outside the profile may be asked for by name */
    assert_true(c.ok);
    assert_non_null(memmem(c.result.data, c.result.size, "pointing", 8));
    call_free(&c);
    do_call(&c, "explain", "puzzle", 's', EASY, "max_trace", 'i', 0, NULL);
    expect_error(&c, SDK_E_REQUEST, "'max_trace'");
    call_free(&c);
}

static void test_batch(void **state)
{
    (void)state;
    const char *three[] = {EASY, "bad", HARD};
    call c;
    do_call(&c, "rate", "puzzles", 'a', 3, three, "profile", 's', "singles", NULL);
    assert_true(c.ok);
    const msgpack_object *r = get(c.res, "results");
    assert_int_equal(r->type, MSGPACK_OBJECT_ARRAY);
    assert_int_equal(r->via.array.size, 3);
    assert_true(sdk_wire_str_is(get(&r->via.array.ptr[0], "puzzle"), EASY));
    assert_true(get(&r->via.array.ptr[0], "solved")->via.boolean);
    const msgpack_object *e = get(&r->via.array.ptr[1], "error");
    assert_true(sdk_wire_str_is(get(e, "code"), SDK_E_FORMAT));
    assert_true(sdk_wire_str_is(get(&r->via.array.ptr[1], "puzzle"), "bad"));
    assert_null(sdk_wire_get(&r->via.array.ptr[1], "er"));
    assert_true(sdk_wire_str_is(get(&r->via.array.ptr[2], "puzzle"), HARD));
    assert_non_null(sdk_wire_get(&r->via.array.ptr[2], "er"));
    call_free(&c);

    do_call(&c, "solve", "puzzles", 'a', 0, three, NULL);
    assert_true(c.ok);
    assert_int_equal(get(c.res, "results")->via.array.size, 0);
    call_free(&c);
}

/* solve's fast path (an 81-character line straight to the solver) answers
 * what the full path (sdk_parse, the candidate grid) does: the same text
 * with a line break after it takes the full path. Unique, several
 * solutions, '0' for empty cells, no solution, conflicting givens. */
static void test_solve_plain_line(void **state)
{
    (void)state;
    const char *const lines[] = {
        EASY,
        HARD,
        /* empty grid: several solutions */
        "........................................."
        "........................................",
        "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
        /* r1c1 has no candidate left */
        ".23456789"
        "1........"
        "........."
        "........."
        "........."
        "........."
        "........."
        "........."
        ".........",
        /* 1 twice in row 1 */
        "11......................................."
        "........................................",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        char full[90];
        assert_int_equal(strlen(lines[i]), 81);
        snprintf(full, sizeof full, "%s\n", lines[i]);
        call a, b;
        do_call(&a, "solve", "puzzle", 's', lines[i], NULL);
        do_call(&b, "solve", "puzzle", 's', full, NULL);
        assert_int_equal(a.ok, b.ok);
        if (!a.ok) {
            assert_string_equal(a.err.code, b.err.code);
            assert_string_equal(a.err.msg, b.err.msg);
        } else {
            assert_int_equal(a.res->via.map.size, b.res->via.map.size);
            for (uint32_t k = 0; k < a.res->via.map.size; k++) {
                const msgpack_object_kv *kv = &a.res->via.map.ptr[k];
                if (sdk_wire_str_is(&kv->key, "puzzle")) continue;
                char key[32];
                str_of(&kv->key, key, sizeof key);
                assert_true(msgpack_object_equal(kv->val, *get(b.res, key)));
            }
        }
        call_free(&a);
        call_free(&b);
    }
}

/* compact: a unique answer to an 81-character line comes as [solution,
 * guesses], the values of the map it stands for; every other answer stays
 * the map. */
static void test_solve_compact(void **state)
{
    (void)state;
    const char *v[] = {
        EASY,
        HARD,
        "........................................."
        "........................................", /* several solutions */
        "11......................................."
        "........................................", /* an error entry */
        "..43..2.9\n..5..9..1\n.7..6..43\n..6..2.87\n19...74..\n.5..83...\n6.....1.5\n..35.869.\n"
        ".4291.3..\n", /* another format */
    };
    int n = (int)(sizeof v / sizeof *v);
    call a, b, c;
    do_call(&a, "solve", "puzzles", 'a', n, v, "compact", 'b', 1, NULL);
    do_call(&b, "solve", "puzzles", 'a', n, v, NULL);
    assert_true(a.ok && b.ok);
    const msgpack_object *ra = get(a.res, "results"), *rb = get(b.res, "results");
    int compact = 0;
    for (int i = 0; i < n; i++) {
        const msgpack_object *x = &ra->via.array.ptr[i], *m = &rb->via.array.ptr[i];
        assert_int_equal(m->type, MSGPACK_OBJECT_MAP);
        if (x->type != MSGPACK_OBJECT_ARRAY) {
            assert_true(msgpack_object_equal(*x, *m));
            continue;
        }
        compact++;
        /* the map: exactly {puzzle (as sent), status unique, solution, solutions 1, guesses} */
        assert_int_equal(m->via.map.size, 5);
        char st[16], text[90];
        str_of(get(m, "status"), st, sizeof st);
        assert_string_equal(st, "unique");
        str_of(get(m, "puzzle"), text, sizeof text);
        assert_string_equal(text, v[i]);
        assert_int_equal(get(m, "solutions")->via.u64, 1);
        assert_int_equal(x->via.array.size, 2);
        assert_true(msgpack_object_equal(x->via.array.ptr[0], *get(m, "solution")));
        assert_true(msgpack_object_equal(x->via.array.ptr[1], *get(m, "guesses")));
    }
    assert_int_equal(compact, 2); /* EASY and HARD */
    call_free(&a);
    call_free(&b);
    /* the bytes too: as msgpack packs [solution, guesses], with guesses in
     * one byte, 0xcc and 0xcd forms (1, 236 and 291 guesses) */
    const char *w[] = {
        HARD,
        "98.7..6..7..8..5......4....6..9..3...3...2.....8....1.3...7.....5..9.7.....5...63",
        "98.7..6..7...5..9...4......39.2....6....73........932.23.8...6...1...8.......72..",
    };
    do_call(&a, "solve", "puzzles", 'a', 3, w, "compact", 'b', 1, NULL);
    do_call(&b, "solve", "puzzles", 'a', 3, w, NULL);
    assert_true(a.ok && b.ok);
    msgpack_sbuffer want;
    msgpack_sbuffer_init(&want);
    msgpack_packer wp;
    msgpack_packer_init(&wp, &want, msgpack_sbuffer_write);
    msgpack_pack_map(&wp, 1);
    msgpack_pack_str_with_body(&wp, "results", 7);
    msgpack_pack_array(&wp, 3);
    rb = get(b.res, "results");
    uint64_t most = 0;
    for (int i = 0; i < 3; i++) {
        const msgpack_object *m = &rb->via.array.ptr[i];
        msgpack_pack_array(&wp, 2);
        msgpack_pack_object(&wp, *get(m, "solution"));
        uint64_t g = get(m, "guesses")->via.u64;
        msgpack_pack_uint64(&wp, g);
        if (g > most) most = g;
    }
    assert_true(most >= 256);
    assert_int_equal(a.result.size, want.size);
    assert_memory_equal(a.result.data, want.data, want.size);
    msgpack_sbuffer_destroy(&want);
    call_free(&a);
    call_free(&b);
    do_call(&c, "solve", "puzzles", 'a', 1, v, "compact", 'b', 1, "logic", 'b', 1, NULL);
    assert_true(c.ok);
    assert_int_equal(get(c.res, "results")->via.array.ptr[0].type, MSGPACK_OBJECT_MAP);
    call_free(&c);
    do_call(&c, "rate", "puzzles", 'a', 1, v, "compact", 'b', 1, NULL);
    expect_error(&c, SDK_E_REQUEST, "unknown parameter 'compact'");
    call_free(&c);
    do_call(&c, "solve", "puzzles", 'a', 1, v, "compact", 's', "yes", NULL);
    expect_error(&c, SDK_E_REQUEST, "compact");
    call_free(&c);
}

static void check_step(const msgpack_object *s)
{
    char buf[SDK_STEP_TEXT + 1];
    str_of(get(s, "technique"), buf, sizeof buf);
    assert_true(buf[0] != 0);
    str_of(get(s, "text"), buf, sizeof buf);
    assert_true(strlen(buf) > 5); /* "Full House: r1c1=5", "X-Wing: ... => r3c2<>7" */
    assert_int_equal(get(s, "difficulty")->type, MSGPACK_OBJECT_FLOAT64);
    size_t effects = get(s, "placements")->via.array.size + get(s, "eliminations")->via.array.size;
    assert_true(effects > 0);
    assert_int_equal(get(s, "marks")->type, MSGPACK_OBJECT_ARRAY);
    assert_int_equal(get(s, "houses")->type, MSGPACK_OBJECT_ARRAY);
    assert_int_equal(get(s, "links")->type, MSGPACK_OBJECT_ARRAY);
}

static void test_explain(void **state)
{
    (void)state;
    call c;
    do_call(&c, "explain", "puzzle", 's', EASY, "trace", 'b', 1, NULL);
    assert_true(c.ok);
    assert_true(get(c.res, "solved")->via.boolean);
    const msgpack_object *steps = get(c.res, "steps");
    int empties = 0;
    for (int i = 0; i < 81; i++) empties += EASY[i] == '.';
    /* singles place one digit per step */
    assert_int_equal(steps->via.array.size, empties);
    for (uint32_t i = 0; i < steps->via.array.size; i++) {
        check_step(&steps->via.array.ptr[i]);
        assert_int_equal(get(&steps->via.array.ptr[i], "placements")->via.array.size, 1);
    }
    const msgpack_object *t = get(c.res, "trace");
    assert_true(t->via.array.size >= (uint32_t)empties);
    const msgpack_object *ev = &t->via.array.ptr[0];
    assert_int_equal(ev->via.array.size, 4);
    assert_int_equal(ev->via.array.ptr[0].via.u64, 1);
    assert_true(sdk_wire_str_is(get(c.res, "trace_status"), "solved"));
    assert_false(get(c.res, "trace_truncated")->via.boolean);
    call_free(&c);

    do_call(&c, "explain", "puzzle", 's', HARD, "trace", 'b', 1, "max_trace", 'i', 10, NULL);
    assert_true(c.ok);
    assert_int_equal(get(c.res, "trace")->via.array.size, 10);
    assert_true(get(c.res, "trace_truncated")->via.boolean);
    call_free(&c);
}

static void test_hint(void **state)
{
    (void)state;
    call c;
    do_call(&c, "hint", "puzzle", 's', EASY, NULL);
    assert_true(c.ok);
    const msgpack_object *steps = get(c.res, "steps");
    assert_int_equal(steps->via.array.size, 1);
    check_step(&steps->via.array.ptr[0]);
    call_free(&c);

    const char *only[] = {"naked-single"};
    do_call(&c, "hint", "puzzle", 's', EASY, "techniques", 'a', 1, only, "all", 'b', 1, NULL);
    assert_true(c.ok);
    steps = get(c.res, "steps");
    assert_true(steps->via.array.size >= 1);
    for (uint32_t i = 0; i < steps->via.array.size; i++) {
        check_step(&steps->via.array.ptr[i]);
        assert_true(sdk_wire_str_is(get(&steps->via.array.ptr[i], "technique"), "naked-single"));
    }
    call_free(&c);

    char solved[82];
    solution_of(EASY, solved);
    do_call(&c, "hint", "puzzle", 's', solved, NULL);
    assert_true(c.ok);
    assert_int_equal(get(c.res, "steps")->via.array.size, 0);
    call_free(&c);
}

static void test_techniques(void **state)
{
    (void)state;
    call c;
    do_call(&c, "techniques", "profile", 's', "singles", NULL);
    assert_true(c.ok);
    assert_true(sdk_wire_str_is(get(c.res, "profile"), "singles"));
    const msgpack_object *t = get(c.res, "techniques");
    const sdk_profile *p = sdk_config_profile(&cfg, "singles");
    assert_int_equal(t->via.array.size, p->n);
    for (int i = 0; i < p->n; i++) {
        const msgpack_object *e = &t->via.array.ptr[i];
        assert_true(sdk_wire_str_is(get(e, "id"), p->entry[i].tech->id));
        assert_true(sdk_wire_str_is(get(e, "source"), p->entry[i].source));
        const msgpack_object *f = get(e, "flags");
        bool last = p->entry[i].tech->flags & SDK_TF_LAST_RESORT;
        bool listed = false;
        for (uint32_t k = 0; k < f->via.array.size; k++)
            listed |= sdk_wire_str_is(&f->via.array.ptr[k], "last-resort");
        assert_int_equal(listed, last);
    }
    call_free(&c);
}

/* The third puzzle of the GNPX "super links" seed: r1c6=8 is false, shown by
 * a contradiction (see test_links.c). */
static const char *SEED3 =
    ".9..4..6.4..15...2..6..91....4....7.36.....15.8....3....82..4..9...34..1.4..8..3.";

static void test_trace(void **state)
{
    (void)state;
    call c;
    char buf[8192];
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', "r1c6=8", "als", 'b', 1, NULL);
    assert_true(c.ok);
    str_of(get(c.res, "puzzle"), buf, sizeof buf);
    assert_string_equal(buf, SEED3);
    str_of(get(c.res, "assumption"), buf, sizeof buf);
    assert_string_equal(buf, "r1c6=8");
    assert_true(get(c.res, "contradiction")->via.boolean);
    str_of(get(c.res, "summary"), buf, sizeof buf);
    assert_non_null(strstr(buf, "r1c6/#8 is false"));
    const msgpack_object *lines = get(c.res, "lines");
    assert_int_equal(lines->type, MSGPACK_OBJECT_ARRAY);
    assert_true(lines->via.array.size > 0);
    int prev = -1;
    for (uint32_t i = 0; i < lines->via.array.size; i++) {
        /* "r1c5/-8 [W r1c6/+8 -> r1c5/-8]", sorted by cell then digit */
        str_of(&lines->via.array.ptr[i], buf, sizeof buf);
        int r, col, d;
        char sign;
        if (sscanf(buf, "r%dc%d/%c%d", &r, &col, &sign, &d) != 4)
            fail_msg("line %u: '%s' does not start with a literal", i, buf);
        assert_true(sign == '+' || sign == '-');
        int key = ((r - 1) * 9 + col - 1) * 9 + d - 1;
        assert_true(key >= prev);
        prev = key;
        assert_true(strstr(buf, "[W ") || strstr(buf, "[S "));
    }
    call_free(&c);

    /* the same without ALS links still breaks; a true candidate never does */
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', "R1C6 = 8", NULL);
    assert_true(c.ok);
    assert_true(get(c.res, "contradiction")->via.boolean);
    call_free(&c);
    char sol[82];
    solution_of(SEED3, sol);
    char a[16];
    snprintf(a, sizeof a, "r1c6=%c", sol[5]);
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', a, "als", 'b', 1, NULL);
    assert_true(c.ok);
    assert_false(get(c.res, "contradiction")->via.boolean);
    str_of(get(c.res, "summary"), buf, sizeof buf);
    char want[64];
    snprintf(want, sizeof want, "no contradiction, %u consequences",
             get(c.res, "lines")->via.array.size);
    assert_non_null(strstr(buf, want));
    call_free(&c);
    /* assuming the true digit false is refuted */
    snprintf(a, sizeof a, "r1c6<>%c", sol[5]);
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', a, NULL);
    assert_true(c.ok);
    str_of(get(c.res, "assumption"), buf, sizeof buf);
    assert_string_equal(buf, a);
    call_free(&c);

    /* precise errors */
    do_call(&c, "trace", "puzzle", 's', SEED3, NULL);
    expect_error(&c, SDK_E_REQUEST, "missing 'assumption'");
    call_free(&c);
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 'x', 5, NULL);
    expect_error(&c, SDK_E_REQUEST, "'assumption' must be a string");
    call_free(&c);
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', "x2c2=1", NULL);
    expect_error(&c, SDK_E_REQUEST, "bad assumption 'x2c2=1' at character 1");
    call_free(&c);
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', "r2c0=1", NULL);
    expect_error(&c, SDK_E_REQUEST, "at character 4: expected a column 1..9");
    call_free(&c);
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', "r2c2>1", NULL);
    expect_error(&c, SDK_E_REQUEST, "at character 5: expected '=' (the candidate is true)");
    call_free(&c);
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', "r2c2=0", NULL);
    expect_error(&c, SDK_E_REQUEST, "at character 6: expected a digit 1..9");
    call_free(&c);
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', "r2c2=12", NULL);
    expect_error(&c, SDK_E_REQUEST, "unexpected '2' after the digit");
    call_free(&c);
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', "r1c2=1", NULL);
    expect_error(&c, SDK_E_REQUEST, "r1c2 is already solved (it holds the given 9)");
    call_free(&c);
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', "r1c1=9", NULL);
    expect_error(&c, SDK_E_REQUEST, "assumption 'r1c1=9': 9 is not a candidate of r1c1");
    call_free(&c);
    do_call(&c, "trace", "puzzle", 's', SEED3, "assumption", 's', "r1c1=1", "als", 's', "yes",
            NULL);
    expect_error(&c, SDK_E_REQUEST, "'als' must be a boolean");
    call_free(&c);
    do_call(&c, "rate", "puzzle", 's', SEED3, "assumption", 's', "r1c1=1", NULL);
    expect_error(&c, SDK_E_REQUEST, "unknown parameter 'assumption'");
    call_free(&c);
    do_call(&c, "trace", "puzzle", 's', MANY, "assumption", 's', "r1c2=2", NULL);
    expect_error(&c, SDK_E_MULTIPLE, NULL);
    call_free(&c);
    /* a batch: one result per puzzle, a puzzle where the cell is solved gets its error */
    const char *two[] = {SEED3, EASY};
    snprintf(a, sizeof a, "r1c4=%c", sol[3]);
    do_call(&c, "trace", "puzzles", 'a', 2, two, "assumption", 's', a, NULL);
    assert_true(c.ok);
    const msgpack_object *res = get(c.res, "results");
    assert_int_equal(res->via.array.size, 2);
    assert_false(get(&res->via.array.ptr[0], "contradiction")->via.boolean);
    const msgpack_object *e = get(&res->via.array.ptr[1], "error");
    str_of(get(e, "message"), buf, sizeof buf);
    assert_non_null(strstr(buf, "r1c4 is already solved (it holds the given 1)"));
    call_free(&c);
}

static void test_probe(void **state)
{
    (void)state;
    static sdk_service_probe probe;
    sdk_service w;
    sdk_error err;
    memset(&probe, 0x55, sizeof probe);
    assert_true(sdk_service_init(&w, &cfg, &probe, &err));
    assert_true(probe.nid > 0);
    assert_int_equal(probe.current, -1);
    assert_null(sdk_service_probe_current(&probe));
    bool found = false;
    for (int i = 0; i < probe.nid; i++) found |= strcmp(probe.id[i], "naked-single") == 0;
    assert_true(found);
    /* A second service with its own probe in the same process (the probe is
     * an engine observer, no process-wide state). */
    sdk_service w2;
    static sdk_service_probe probe2;
    assert_true(sdk_service_init(&w2, &cfg, &probe2, &err));
    assert_int_equal(probe2.nid, probe.nid);

    /* Each watched service answers exactly like the plain one. */
    sdk_service keep = sv;
    call a, b, b2;
    do_call(&a, "rate", "puzzle", 's', HARD, NULL);
    sv = w;
    do_call(&b, "rate", "puzzle", 's', HARD, NULL);
    sv = w2;
    do_call(&b2, "rate", "puzzle", 's', HARD, NULL);
    sv = keep;
    assert_true(a.ok && b.ok && b2.ok);
    assert_int_equal(a.result.size, b.result.size);
    assert_memory_equal(a.result.data, b.result.data, a.result.size);
    assert_int_equal(a.result.size, b2.result.size);
    assert_memory_equal(a.result.data, b2.result.data, a.result.size);
    assert_int_equal(probe.current, -1); /* nothing runs now */
    assert_int_equal(probe2.current, -1);
    call_free(&a);
    call_free(&b);
    call_free(&b2);
    sdk_service_free(&w2);

    probe.current = 0;
    assert_string_equal(sdk_service_probe_current(&probe), probe.id[0]);
    probe.current = -1;
    sdk_service_free(&w);
}

/* The technique the probe names for entry i of p, told by the observer. */
static const char *probe_names(const sdk_service *w, const sdk_profile *p, int i)
{
    w->observer.enter(w->observer.arg, p, i, 0);
    return sdk_service_probe_current(w->probe);
}

/* The watch keeps the row of the last profile it was told of: whatever the
 * order of profiles, every entry is named by its own technique, a profile
 * made for a request included, also when a later one takes its address. */
static void test_probe_profiles(void **state)
{
    (void)state;
    static sdk_service_probe probe;
    sdk_service w;
    sdk_error err;
    assert_true(sdk_service_init(&w, &cfg, &probe, &err));
    assert_true(cfg.nprofile >= 2);
    for (int round = 0; round < 3; round++)
        for (int k = cfg.nprofile - 1; k >= 0; k--) {
            const sdk_profile *p = &cfg.profile[k];
            for (int i = p->n - 1; i >= 0; i -= 1 + (i & 1)) {
                const char *id = probe_names(&w, p, i);
                assert_non_null(id);
                assert_string_equal(id, p->entry[i].tech->id);
            }
            /* leave: back to the caller's entry, or nothing */
            if (p->n > 1) {
                w.observer.leave(w.observer.arg, p, 1, 1, 0);
                assert_string_equal(sdk_service_probe_current(&probe), p->entry[0].tech->id);
            }
            w.observer.leave(w.observer.arg, p, 0, 0, -1);
            assert_null(sdk_service_probe_current(&probe));
        }
    /* two request profiles, one after the other at the same address */
    const sdk_profile *a = &cfg.profile[0], *b = &cfg.profile[cfg.nprofile - 1];
    sdk_profile own;
    for (int pass = 0; pass < 2; pass++) {
        const sdk_profile *from = pass ? b : a;
        memset(&own, 0, sizeof own);
        for (int i = from->n - 1; i >= 0; i--)
            sdk_profile_add(&own, from->entry[i].tech, NULL, -1, "test");
        for (int i = 0; i < own.n; i++)
            assert_string_equal(probe_names(&w, &own, i), own.entry[i].tech->id);
        assert_string_equal(probe_names(&w, a, 0), a->entry[0].tech->id);
        sdk_profile_free(&own);
    }
    sdk_service_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve),          cmocka_unit_test(test_solve_plain_line),
        cmocka_unit_test(test_rate),           cmocka_unit_test(test_puzzle_errors),
        cmocka_unit_test(test_request_errors), cmocka_unit_test(test_batch),
        cmocka_unit_test(test_explain),        cmocka_unit_test(test_hint),
        cmocka_unit_test(test_techniques),     cmocka_unit_test(test_probe),
        cmocka_unit_test(test_trace),          cmocka_unit_test(test_solve_compact),
        cmocka_unit_test(test_probe_profiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
