/* fuzz_rpc.c - libFuzzer target: requests as a worker decodes them.
 *
 * The bytes are a stream of msgpack-rpc messages; every request (or
 * notification) among them goes to sdk_service_prepare(), which checks the
 * method and every parameter (profile, techniques, assumption, puzzles) over
 * the build's real config and plugins, exactly as a worker of sudokud does
 * before it runs anything. Nothing is run: the target is the decoding.
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
            if (rq) {
                (void)sdk_request_batch_size(rq);
                sdk_request_free(rq);
            }
        }
    sdk_wire_reader_free(&r);
    return 0;
}
