/*****************************************************************************\
 *  job_hints.c - a job's mesh request from its SPANK hints and mesh.conf's
 *  defaults.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include <pthread.h>
#include <string.h>

#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/read_config.h"

#include "job_hints.h"

/*
 * One cache per plugin (each links its own copy of this file).  Its own
 * mutex: select/mesh calls under its mesh mutex, topology/mesh and
 * site_factor under slurmctld's job lock, and the cache must not depend
 * on either.  Sized to MaxJobCount, so a full queue is held whole.
 */
static pthread_mutex_t hints_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct mesh_hint_cache *hints_cache;

/* A job id with its submit time: the key still differs when ids wrap. */
static uint64_t _job_key(job_record_t *job_ptr)
{
	uint64_t t = job_ptr->details ? job_ptr->details->submit_time : 0;

	return (t << 32) ^ job_ptr->job_id;
}

extern void mesh_job_own_hints(job_record_t *job_ptr, const char *who,
			       struct mesh_job_hints *h)
{
	struct mesh_diag d;
	char buf[1024];
	int rc;

	mesh_diag_clear(&d);
	slurm_mutex_lock(&hints_mutex);
	if (!hints_cache) {
		size_t cap = slurm_conf.max_job_cnt;

		hints_cache = mesh_hint_cache_create(
			MIN(MAX(cap, 1024), 1 << 20));
		if (!hints_cache)
			error("%s: no memory for the hint cache: hints are parsed on every pass",
			      who);
	}
	rc = mesh_hint_cache_get(
		hints_cache, _job_key(job_ptr),
		(const char *const *) job_ptr->spank_job_env,
		job_ptr->spank_job_env_size, h, &d);
	slurm_mutex_unlock(&hints_mutex);
	if (rc) {
		mesh_diag_format(&d, buf, sizeof(buf));
		error("%s: %pJ: ignoring a bad hint: %s", who, job_ptr, buf);
	}
}

extern void mesh_job_hints_fini(void)
{
	slurm_mutex_lock(&hints_mutex);
	mesh_hint_cache_destroy(hints_cache);
	hints_cache = NULL;
	slurm_mutex_unlock(&hints_mutex);
}

extern void mesh_job_hints(const struct mesh_conf *conf, job_record_t *job_ptr,
			   const char *who, struct mesh_request *r)
{
	const struct mesh_job_hints *def = &conf->hint_defaults;
	struct mesh_job_hints h;
	int i;

	mesh_job_own_hints(job_ptr, who, &h);
	if (!h.shape[0])
		memcpy(h.shape, def->shape, sizeof(h.shape));
	if (h.io_intensity < 0)
		h.io_intensity = def->io_intensity;
	if (h.comm == MESH_COMM_UNKNOWN)
		h.comm = def->comm;
	for (i = 0; i < MESH_MAX_DIMS; i++)
		r->shape[i] = h.shape[i];
	r->io_intensity = h.io_intensity;
	r->comm = h.comm;
}
