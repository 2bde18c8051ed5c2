/* share_text.h - explain --format forum / hodoku (share_text.c). */
#ifndef SUDOCTL_SHARE_TEXT_H
#define SUDOCTL_SHARE_TEXT_H

#include <stdio.h>
#include <msgpack.h>

enum { SHARE_NONE = 0, SHARE_FORUM, SHARE_HODOKU };

/* One explained puzzle (an explain result without error) in that format. */
void share_puzzle(FILE *f, int format, const msgpack_object *r, const char *input);

#endif
