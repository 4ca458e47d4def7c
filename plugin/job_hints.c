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

#include <string.h>

#include "src/common/log.h"

#include "job_hints.h"

extern void mesh_job_hints(const struct mesh_conf *conf, job_record_t *job_ptr,
			   const char *who, struct mesh_request *r)
{
	const struct mesh_job_hints *def = &conf->hint_defaults;
	struct mesh_job_hints h;
	struct mesh_diag d;
	char buf[512];
	int i;

	mesh_hints_init(&h);
	mesh_diag_clear(&d);
	if (job_ptr->spank_job_env_size &&
	    mesh_hints_from_env((const char *const *) job_ptr->spank_job_env,
				job_ptr->spank_job_env_size, &h, &d)) {
		mesh_diag_format(&d, buf, sizeof(buf));
		error("%s: %pJ: ignoring a bad hint: %s", who, job_ptr, buf);
	}
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
