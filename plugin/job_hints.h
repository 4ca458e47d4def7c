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
 * Set r's shape, I/O intensity and communication pattern from the job's
 * SPANK environment (spank_mesh.so, validated at submission), and for
 * what the job does not say, from conf's defaults.  A hint that does not
 * parse is logged under who's name and ignored.
 */
extern void mesh_job_hints(const struct mesh_conf *conf, job_record_t *job_ptr,
			   const char *who, struct mesh_request *r)
	__attribute__((visibility("hidden")));

#endif
