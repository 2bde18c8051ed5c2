/* sudoku/service.h - executing one request in-process.
 *
 * The params map of a request in, the result (as msgpack) out, exactly as
 * docs/PROTOCOL.md describes: solve, rate, explain, hint, techniques. sudokud's
 * workers run this; tests call it directly. Everything a request can get
 * wrong gives an sdk_error (code + message).
 *
 * A request whose params are unusable fails as a whole (sdk_service_prepare).
 * A single-puzzle request whose puzzle fails (bad format, conflict, no or
 * several solutions) fails as a whole too; in a batch (`puzzles`) the failing
 * puzzle's entry is {puzzle, error} and the others are served.
 *
 * The probe: a worker can ask the service to write, before each technique's
 * find() runs, which technique that is into a small struct (shared memory
 * with the daemon), so that a crash or a hang can be blamed on a technique.
 * It is an engine observer (sdk_run_opts.observer): two stores per find()
 * call. Any number of services, with or without probes, may live in one
 * process.
 */
#ifndef SUDOKU_SERVICE_H
#define SUDOKU_SERVICE_H

#include "sudoku/host.h"
#include "sudoku/wire.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SDK_PROBE_MAX 256
#define SDK_PROBE_ID 48

typedef struct sdk_service_probe {
    volatile int32_t current;   /* index into id[] of the technique running, -1: none */
    volatile uint32_t requests; /* requests the worker has finished */
    int32_t nid;
    char id[SDK_PROBE_MAX][SDK_PROBE_ID]; /* technique ids, written once at init */
} sdk_service_probe;

typedef struct sdk_probe_watch sdk_probe_watch;

typedef struct sdk_service {
    const sdk_config *cfg;
    sdk_service_probe *probe; /* NULL: none */
    sdk_probe_watch *watch;   /* the probe's observer state (private) */
    sdk_observer observer;    /* tells the probe which technique runs */
} sdk_service;

/* Set up a service over a loaded config. probe may be NULL. False (err set)
 * when the config's profiles name more than SDK_PROBE_MAX techniques. */
bool sdk_service_init(sdk_service *sv, const sdk_config *cfg, sdk_service_probe *probe,
                      sdk_error *err);
void sdk_service_free(sdk_service *sv);

/* The technique id a probe names, or NULL when none is running. */
const char *sdk_service_probe_current(const sdk_service_probe *probe);

typedef struct sdk_request sdk_request;

/* Decode and check a request's params (NULL: none). The params object must
 * outlive the request. Returns NULL with err set when unusable. */
sdk_request *sdk_service_prepare(sdk_service *sv, const char *method, size_t method_len,
                                 const msgpack_object *params, sdk_error *err);
void sdk_request_free(sdk_request *rq);
/* Puzzles in a batch request, or -1 when the request is not a batch. */
int sdk_request_batch_size(const sdk_request *rq);
/* Pack the result of batch puzzle i: its result map, or {puzzle, error}. */
void sdk_service_item(sdk_service *sv, sdk_request *rq, int i, msgpack_packer *out);
/* Pack batch puzzle i's entry as {puzzle, error} (an answer too large). */
void sdk_service_item_error(const sdk_request *rq, int i, const sdk_error *e, msgpack_packer *out);
/* Pack the whole result. False with err set (and nothing packed) on failure. */
bool sdk_service_run(sdk_service *sv, sdk_request *rq, msgpack_packer *out, sdk_error *err);

/* prepare + run + free. */
bool sdk_service_handle(sdk_service *sv, const char *method, const msgpack_object *params,
                        msgpack_packer *out, sdk_error *err);

#ifdef __cplusplus
}
#endif
#endif
