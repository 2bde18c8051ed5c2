/* sudoku/error.h - errors: a code for programs, a message for people.
 *
 * Every fallible function of the library, the daemon and the client fills an
 * sdk_error: `code` is one of the SDK_E_* strings below (it travels as the
 * "code" of a wire error and is the same word in docs/PROTOCOL.md, the one
 * list of them), `msg` says what, where and why ("line 3: 'x' is not a
 * digit"). This header is the only place a code is defined: add one here and
 * to PROTOCOL.md's table, never as a string literal elsewhere.
 */
#ifndef SUDOKU_ERROR_H
#define SUDOKU_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* A puzzle's text: wrong length, a character that is not a cell. */
#define SDK_E_FORMAT "bad-format"
/* A digit twice in a house, a cell without candidates. */
#define SDK_E_CONFLICT "conflict"
/* The puzzle has no solution / more than one. */
#define SDK_E_NO_SOLUTION "no-solution"
#define SDK_E_MULTIPLE "multiple-solutions"
/* A message or its params: not msgpack-rpc, wrong type, unknown key. */
#define SDK_E_REQUEST "bad-request"
/* A method the daemon does not serve. */
#define SDK_E_METHOD "unknown-method"
/* A message over max_message (or more memory than there is). */
#define SDK_E_TOO_LARGE "too-large"
/* A technique id or a profile name no loaded config knows. */
#define SDK_E_TECHNIQUE "unknown-technique"
#define SDK_E_PROFILE "unknown-profile"
/* The config file: unreadable, a bad line, a bad value (file:line). */
#define SDK_E_CONFIG "bad-config"
/* A plugin that does not load, exports no valid technique or repeats an id. */
#define SDK_E_PLUGIN "bad-plugin"
/* A technique crashed the worker that ran it (the puzzle's error). */
#define SDK_E_CRASH "plugin-crashed"
/* A puzzle ran past deadline_ms. */
#define SDK_E_DEADLINE "deadline-exceeded"
/* generate: no puzzle met the target within the budget. */
#define SDK_E_NOT_FOUND "not-found"
/* A worker killed by a signal from outside (the OOM killer, kill). */
#define SDK_E_KILLED "worker-killed"
/* A technique passed worker_memory. */
#define SDK_E_MEMORY "memory-exceeded"
/* No whole message within read_timeout_ms. */
#define SDK_E_TIMEOUT "timeout"
/* Too many connections or queued requests: retry later. */
#define SDK_E_BUSY "busy"
/* Anything else that went wrong on our side. */
#define SDK_E_INTERNAL "internal"

typedef struct sdk_error {
    char code[32]; /* an SDK_E_* code */
    char msg[256]; /* what, where and why */
} sdk_error;

/* Fill e (NULL: ignored) with code and a printf-style message, cut to fit. */
void sdk_error_set(sdk_error *e, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
#endif
