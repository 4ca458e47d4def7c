/*****************************************************************************\
 *  job_hints.h - a job's mesh request from its SPANK hints and mesh.conf's
 *  defaults: one function for select/mesh and topology/mesh.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#ifndef _MESH_JOB_HINTS_H
#define _MESH_JOB_HINTS_H

#include "src/slurmctld/slurmctld.h"

#include "mesh/mesh.h"

/*
 * The hints the job itself gives in its SPANK environment (spank_mesh.so
 * validates them at submission; the submit API does not), parsed once per
 * job: a hint that does not parse reads as not given and is logged under
 * who's name the first time only (mesh/hint_cache.h).
 */
extern void mesh_job_own_hints(job_record_t *job_ptr, const char *who,
			       struct mesh_job_hints *h)
	__attribute__((visibility("hidden")));

/*
 * Set r's shape, I/O intensity and communication pattern from the job's
 * own hints, and for what the job does not say, from conf's defaults.
 */
extern void mesh_job_hints(const struct mesh_conf *conf, job_record_t *job_ptr,
			   const char *who, struct mesh_request *r)
	__attribute__((visibility("hidden")));

/* Forget every job's hints (at the plugin's fini). */
extern void mesh_job_hints_fini(void) __attribute__((visibility("hidden")));

#endif
