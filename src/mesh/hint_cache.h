/* hint_cache.h - each job's hints parsed once, and a bad one reported once.
 *
 * slurmctld asks for a pending job's hints on every scheduling and
 * backfill pass.  The cache keeps what mesh_hints_from_env() made of a
 * job's environment under a key the caller derives from the job (its id
 * and submit time), so a pass costs a lookup, and a hint that does not
 * parse is reported the first time only.  It holds at most `capacity`
 * jobs; when full it forgets them all and starts again, so memory is
 * bounded and a bad hint is reported at most once per refill.  Not
 * thread-safe: the caller serialises (slurmctld's job lock).
 */
#ifndef MESH_HINT_CACHE_H
#define MESH_HINT_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "hints.h"

struct mesh_hint_cache;

/** \brief A cache for up to capacity jobs (at least 1).  \return NULL when
 *  out of memory. */
struct mesh_hint_cache *mesh_hint_cache_create(size_t capacity);
void mesh_hint_cache_destroy(struct mesh_hint_cache *c);

/** \brief The hints of the job under key: parsed from env (n entries) the
 *  first time, else as parsed then.  A bad hint reads as not given.
 *  \return 0; or MESH_EINVAL, described in d, the first time key's
 *  environment is found to hold a bad hint (later lookups return 0).
 *  With c NULL it parses, and reports, every time. */
int mesh_hint_cache_get(struct mesh_hint_cache *c, uint64_t key,
			const char *const *env, size_t n,
			struct mesh_job_hints *h, struct mesh_diag *d);

/** \brief How many jobs it holds now. */
size_t mesh_hint_cache_count(const struct mesh_hint_cache *c);

#endif
