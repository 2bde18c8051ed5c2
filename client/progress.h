/* progress.h - a progress bar with rate and ETA on stderr (terminals only). */
#ifndef SUDOCTL_PROGRESS_H
#define SUDOCTL_PROGRESS_H

#include <stdbool.h>

typedef struct progress {
    bool on;
    bool forced; /* asked for: always show the final line */
    double start, last;
    long done;
    long total;         /* puzzles when known, else 0 */
    double total_bytes; /* input size when the input is a regular file, else 0 */
    int width;
} progress;

/* on: draw at all (stderr is a terminal and the user did not turn it off). */
void progress_init(progress *p, bool on, bool forced, long total, double total_bytes);
/* done puzzles so far; bytes: input consumed by those puzzles (for the ETA). */
void progress_update(progress *p, long done, double bytes);
void progress_end(progress *p);
/* Interrupted: end the bar's line where it is (no final 100%). */
void progress_stop(progress *p);

#endif
