/*****************************************************************************\
 *  select_mesh.h - declarations shared by the files of select/mesh.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#ifndef _SELECT_MESH_H
#define _SELECT_MESH_H

#include <inttypes.h>

extern const char plugin_type[];

#define NODEINFO_MAGIC 0x8e5a

struct select_nodeinfo {
	uint16_t magic;
	uint16_t alloc_cpus;
	uint64_t alloc_memory;
	char *tres_alloc_fmt_str;
	double tres_alloc_weighted;
};

#define JOBINFO_MAGIC 0x6d6a

/*
 * Per-job data: the placement summary shown by squeue %s / -O SelectJobInfo
 * ("alloc=mc1x1 bbox=2x2x1 sumdist=8 avgdist=1.33 diam=2").  Packed as a
 * 32-bit mark, a format version and a length-prefixed blob, so that a
 * later format is skipped rather than misread, and a state file written
 * before jobinfo carried data (nothing packed) still loads.
 */
struct select_jobinfo {
	uint16_t magic;
	char *placement;	/* NULL until select_p_job_begin */
};

/* Store the summary in job_ptr's select_jobinfo (select_mesh_info.c). */
extern void select_mesh_jobinfo_set_placement(void *job_ptr,
					      const char *placement);

#endif
