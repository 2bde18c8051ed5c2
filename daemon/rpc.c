/* rpc.c - what sudokud does with one message from a client: check its
 * msgpack-rpc shape, answer `status` and `reload` in the daemon, refuse
 * unknown methods and work over the queue limit, and hand the rest to the
 * worker pool as a job. */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "daemon.h"
#include "workers.h"

static const char *const worker_methods[] = {"solve",      "rate",  "explain", "hint",
                                             "techniques", "trace", "generate"};

static void send_packed(conn *c, msgpack_sbuffer *sb)
{
    conn_send(c, sb->data, sb->size);
    msgpack_sbuffer_destroy(sb);
}

static void do_status(conn *c, uint32_t msgid)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    sdk_wire_response_head(&pk, msgid);
    workers_stats ws;
    workers_get_stats(&ws);
    msgpack_pack_map(&pk, 15);
    sdk_wire_kv_str(&pk, "version", SUDOKUD_VERSION);
    sdk_wire_str(&pk, "uptime");
    msgpack_pack_double(&pk, (double)(now_ms() - D.started_ms) / 1000.0);
    sdk_wire_kv_int(&pk, "pid", (long)getpid());
    sdk_wire_kv_int(&pk, "workers", ws.workers);
    sdk_wire_kv_int(&pk, "busy", ws.busy);
    sdk_wire_kv_int(&pk, "queued", ws.queued);
    sdk_wire_kv_int(&pk, "jobs", ws.jobs);
    sdk_wire_kv_int(&pk, "connections", server_connections());
    sdk_wire_kv_int(&pk, "requests", (long)D.requests);
    sdk_wire_kv_int(&pk, "crashes", (long)ws.crashes);
    sdk_wire_kv_int(&pk, "killed", (long)ws.killed);
    sdk_wire_kv_str(&pk, "config", D.config_path);
    sdk_wire_kv_str(&pk, "exe", D.exe); /* which build or installation answers */
    sdk_wire_str(&pk, "profiles");
    msgpack_pack_array(&pk, (size_t)D.nprofile);
    for (int i = 0; i < D.nprofile; i++) sdk_wire_str(&pk, D.profiles[i]);
    sdk_wire_kv_int(&pk, "generation", (long)D.generation);
    send_packed(c, &sb);
}

/* status, reload and shutdown take no parameter: any is an error, as for the others. */
static bool no_params(conn *c, const sdk_rpc_msg *m, const char *method)
{
    if (!m->params || m->params->via.map.size == 0) return true;
    const msgpack_object *k = &m->params->via.map.ptr[0].key;
    if (k->type == MSGPACK_OBJECT_STR)
        conn_send_error(c, m->msgid, SDK_E_REQUEST, "unknown parameter '%.*s' (%s takes none)",
                        (int)(k->via.str.size > 64 ? 64 : k->via.str.size), k->via.str.ptr, method);
    else
        conn_send_error(c, m->msgid, SDK_E_REQUEST,
                        "parameter names must be strings (%s takes none)", method);
    return false;
}

/* shutdown (or stop): answer, then drain (answer what is in flight) and exit.
 * Only the daemon's own user and root may: the members of a system daemon's
 * group are its clients, not its operators. */
static void do_shutdown(conn *c, uint32_t msgid)
{
    uv_os_fd_t fd;
    struct ucred cr;
    socklen_t len = sizeof cr;
    if (uv_fileno((uv_handle_t *)&c->h, &fd) != 0 ||
        getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0 ||
        (cr.uid != getuid() && cr.uid != 0)) {
        conn_send_error(c, msgid, "forbidden",
                        "only uid %u (sudokud's own user) or root may stop sudokud%s",
                        (unsigned)getuid(), D.system_mode ? " (systemctl stop sudokud)" : "");
        return;
    }
    log_info("shutdown asked by connection %u: draining %d requests, then exiting", c->id,
             workers_jobs());
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    sdk_wire_response_head(&pk, msgid);
    msgpack_pack_map(&pk, 3);
    sdk_wire_kv_bool(&pk, "ok", true);
    sdk_wire_kv_int(&pk, "pid", (long)getpid());
    sdk_wire_kv_int(&pk, "jobs", workers_jobs());
    send_packed(c, &sb);
    daemon_begin_drain();
}

void rpc_handle(conn *c, const msgpack_object *o)
{
    sdk_rpc_msg m;
    bool known;
    sdk_error err;
    if (!sdk_rpc_parse(o, &m, &known, &err)) {
        /* well-formed msgpack: the stream is still in step, keep the connection */
        conn_send_error(c, known ? m.msgid : 0, err.code, "%s", err.msg);
        return;
    }
    if (m.type == SDK_RPC_NOTIFY) return;   /* nothing to answer */
    if (m.type == SDK_RPC_RESPONSE) return; /* we never ask clients anything */
    if (sdk_rpc_method_is(&m, "status")) {
        if (no_params(c, &m, "status")) do_status(c, m.msgid);
        D.requests++;
        return;
    }
    if (sdk_rpc_method_is(&m, "shutdown") || sdk_rpc_method_is(&m, "stop")) {
        D.requests++;
        if (no_params(c, &m, sdk_rpc_method_is(&m, "stop") ? "stop" : "shutdown"))
            do_shutdown(c, m.msgid);
        return;
    }
    if (sdk_rpc_method_is(&m, "reload")) {
        if (!no_params(c, &m, "reload")) {
            D.requests++;
            return;
        }
        log_info("reload asked by connection %u", c->id);
        daemon_reload_why("asked by connection %u", c->id);
        daemon_reload_request(c, m.msgid); /* answered when the new workers are ready */
        return;
    }
    const char *method = NULL;
    for (size_t i = 0; i < sizeof worker_methods / sizeof *worker_methods; i++)
        if (sdk_rpc_method_is(&m, worker_methods[i])) method = worker_methods[i];
    if (!method) {
        conn_send_error(
            c, m.msgid, SDK_E_METHOD,
            "unknown method '%.*s' (solve, rate, explain, hint, techniques, trace, status, "
            "reload, shutdown)",
            (int)(m.method_len > 64 ? 64 : m.method_len), m.method);
        return;
    }
    if (D.draining) {
        conn_send_error(c, m.msgid, SDK_E_BUSY, "sudokud is shutting down");
        return;
    }
    if (workers_jobs() >= D.lim.max_queue) {
        conn_send_error(c, m.msgid, SDK_E_BUSY,
                        "%d requests are waiting or running (max_queue): try again later",
                        workers_jobs());
        return;
    }
    const msgpack_object *tm = sdk_wire_get(m.params, "timeout_ms");
    if (tm && (tm->type != MSGPACK_OBJECT_POSITIVE_INTEGER || tm->via.u64 == 0 ||
               tm->via.u64 >= (1ull << 40))) {
        conn_send_error(c, m.msgid, SDK_E_REQUEST,
                        "'timeout_ms' must be a positive number of milliseconds");
        return;
    }
    life_check_plugins(); /* a plugin replaced on disk: new workers first */
    log_debug("connection %u: request %u: %s", c->id, (unsigned)m.msgid, method);
    switch (workers_submit(c, m.msgid, method, m.params)) {
    case WORKERS_SUBMITTED:
        break;
    case WORKERS_OUT_OF_MEMORY:
        conn_send_error(c, m.msgid, SDK_E_INTERNAL, "out of memory");
        break;
    case WORKERS_OVER_BUDGET:
        conn_send_error(c, m.msgid, SDK_E_BUSY,
                        "sudokud holds %zu bytes of requests (max_input_memory is %zu): try "
                        "again later",
                        D.input_memory, D.lim.max_input_memory);
        break;
    }
}
