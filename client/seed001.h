/* seed001.h - the backtracking trace in the Dutch seed program's own output
 * format (seed001.c): `sudoctl explain --trace --grid`. */
#ifndef SUDOCTL_SEED001_H
#define SUDOCTL_SEED001_H

#include <stdbool.h>
#include <stdio.h>
#include "rpc.h"

/* Print explain's result r (with `trace`) as the seed prints it. False when r
 * has no trace or its puzzle does not parse. */
bool render_seed001(FILE *f, const msgpack_object *r);

#endif
