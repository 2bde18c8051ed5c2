/* fuzz_rpc.c - libFuzzer target: requests as a worker decodes them.
 *
 * The bytes are a stream of msgpack-rpc messages; every request (or
 * notification) among them goes to sdk_service_prepare(), which checks the
 * method and every parameter (profile, techniques, assumption, puzzles) over
 * the build's real config and plugins, exactly as a worker of sudokud does
 * before it runs anything; plain solves are answered too (see answer()).
 * FUZZ_CONFIG (the build's sudokud.conf) is compiled in; SUDOKU_CONF
 * overrides it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sudoku/service.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sdk_config cfg;
static sdk_service sv;
static bool ready;

static void setup(void)
{
    const char *path = getenv("SUDOKU_CONF");
    if (!path || !*path) path = FUZZ_CONFIG;
    sdk_error err;
    if (!sdk_config_load(path, &cfg, &err) || !sdk_service_init(&sv, &cfg, NULL, &err)) {
        fprintf(stderr, "fuzz_rpc: %s\n", err.msg);
        exit(1);
    }
    ready = true;
}

/* A plain solve is quick whatever the puzzle (the bitboard solver stops at
 * two solutions): answer it too, whole or puzzle by puzzle as a batch is,
 * so that the puzzles' text goes through sdk_parse and the solver. The
 * other methods run techniques, seconds on a hard puzzle: only decoded. */
static void answer(sdk_request *rq)
{
    msgpack_sbuffer buf;
    msgpack_sbuffer_init(&buf);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &buf, msgpack_sbuffer_write);
    sdk_error err;
    int n = sdk_request_batch_size(rq);
    if (n < 0)
        sdk_service_run(&sv, rq, &pk, &err);
    else
        for (int i = 0; i < n; i++) sdk_service_item(&sv, rq, i, &pk);
    msgpack_sbuffer_destroy(&buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready) setup();
    sdk_wire_reader r;
    if (!sdk_wire_reader_init(&r, 1 << 16)) return 0;
    sdk_error err;
    const msgpack_object *o;
    if (sdk_wire_reader_feed(&r, data, size))
        while (sdk_wire_reader_next(&r, &o, &err) == 1) {
            sdk_rpc_msg m;
            bool known;
            if (!sdk_rpc_parse(o, &m, &known, &err) || m.type == SDK_RPC_RESPONSE) continue;
            sdk_request *rq = sdk_service_prepare(&sv, m.method, m.method_len, m.params, &err);
            if (!rq) continue;
            bool logic = false;
            sdk_wire_get_bool(m.params, "logic", &logic, &err);
            if (sdk_rpc_method_is(&m, "solve") && !logic) answer(rq);
            sdk_request_free(rq);
        }
    sdk_wire_reader_free(&r);
    return 0;
}
