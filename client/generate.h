/* generate.h - `sudoctl generate` (generate.c), called from main.c with what
 * it needs of the rest of sudoctl: the default socket and how to connect
 * (starting a per-user daemon when none answers). */
#ifndef SUDOCTL_GENERATE_H
#define SUDOCTL_GENERATE_H

#include <stdbool.h>
#include "rpc.h"

typedef struct gen_env {
    const char *socket; /* the default socket */
    rpc_conn *(*connect)(const char *socket, bool socket_given, bool no_autostart);
} gen_env;

/* argv as main got it; options are parsed again here. Returns the exit status. */
int generate_main(int argc, char **argv, const gen_env *env);

#endif
