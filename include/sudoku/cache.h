/* sudoku/cache.h - caches a host can ask to give their memory back.
 *
 * Techniques and pattern helpers keep work between calls, per thread: the
 * results of nested searches, search buffers, link graphs of the last
 * position. That speeds up the next find, and it is memory the thread holds
 * after its last request: a worker that rated one hard puzzle kept some
 * 25 MB of it for good. This registry lets the host (the worker, when it is
 * idle) tell every cache "free what you hold now":
 *
 *     static _Thread_local my_cache *mine;
 *
 *     static void my_cache_release(void)    // frees this thread's cache
 *     {
 *         if (!mine) return;
 *         free(mine->table);
 *         free(mine);
 *         mine = NULL;                      // the next find makes it again
 *     }
 *
 *     static my_cache *my_cache_get(void)
 *     {
 *         if (!mine) {
 *             mine = sdk_xcalloc(1, sizeof *mine);
 *             sdk_cache_register(my_cache_release);
 *         }
 *         return mine;
 *     }
 *
 * The rules:
 *
 *   - A cache calls sdk_cache_register(release) when it allocates (at least
 *     the first time on each thread; again after a release is harmless: a
 *     function is kept once). Registering is thread-safe and cheap enough
 *     for that, not for every find.
 *   - release() frees the CALLING thread's cache only (caches are per
 *     thread: other threads may be searching with theirs) and leaves it as
 *     a thread that never searched has it: the next find rebuilds what it
 *     needs and answers exactly as it would have (a cache is never allowed
 *     to change an answer). It must cope with a thread that has nothing to
 *     free, and with being called several times.
 *   - A cache whose key points into another cache (a build serial of a
 *     shared link graph, a pointer to its arrays) must stay right when that
 *     other cache is released and rebuilt: keep such counters outside what
 *     release() frees, and never keep the pointer across finds.
 *   - The host calls sdk_cache_release_all() only between requests, on the
 *     thread whose caches it wants freed, never during a find (nor from a
 *     sink, nor from ctx->propagate): a find in progress holds pointers
 *     into its caches.
 *   - Ownership: the registry keeps the function pointers, not the caches;
 *     the caches stay the plugin's. A plugin that is unloaded frees its
 *     caches in its own destructor, as before, and the host forgets its
 *     functions before it closes it (sdk_cache_forget_module): a plugin
 *     has nothing to do for that.
 *   - A host that links libsudoku statically (sudokud, the tests) has a
 *     registry of its own besides libsudoku.so's, where the plugins
 *     register: it calls both (sdk_config_release_caches in host.h does).
 *
 * Added within ABI 3 (a new function, no struct changes). */
#ifndef SUDOKU_CACHE_H
#define SUDOKU_CACHE_H

#include "sudoku/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*sdk_cache_release_fn)(void);

/* Note release as the function that frees the calling thread's cache of one
 * kind (kept once however often it is noted; up to 64 functions, beyond
 * which a cache is simply never released early). */
SDK_API void sdk_cache_register(sdk_cache_release_fn release);

/* Free every registered cache of the calling thread (between requests
 * only, see above). */
SDK_API void sdk_cache_release_all(void);

/* For hosts: forget every function registered from the loaded object
 * (shared library) that holds addr, before that object is closed. */
SDK_API void sdk_cache_forget_module(const void *addr);

#ifdef __cplusplus
}
#endif
#endif
