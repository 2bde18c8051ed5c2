/* autostart.h - finding and reaching sudokud: the default socket, a clear
 * word when access is refused, and starting a per-user daemon on demand. */
#ifndef SUDOCTL_AUTOSTART_H
#define SUDOCTL_AUTOSTART_H

#include <stdbool.h>

#include "rpc.h"

/* $XDG_RUNTIME_DIR/sudokud.sock, else /tmp/sudokud-UID/sudokud.sock (a
 * private folder, mode 0700, like tmux's); never the system daemon's. */
const char *daemon_default_socket(void);
#define SYSTEM_SOCKET "/run/sudokud/sudokud.sock"

typedef struct connect_opts {
    const char *socket;
    bool may_start;       /* start a per-user sudokud when none answers */
    const char *hint_how; /* appended to the "start it with" line */
} connect_opts;

/* Connect, starting a daemon when allowed; on failure print why on stderr
 * (naming the socket, and its owner and mode when access is refused) and
 * return NULL. */
rpc_conn *daemon_connect(const connect_opts *o);

/* `sudoctl stop`: ask the daemon on sock to drain and exit, and wait until
 * it has (timeout_s, 0: 120 s). Returns the exit status: 0 stopped, 3 no
 * daemon, 4 not stopped in time. */
int daemon_stop(const char *sock, double timeout_s, bool quiet);

#endif
