/*****************************************************************************\
 *  select_mesh_run.c - select/mesh's RUN_NOW decision for whole nodes:
 *  free nodes, else shared ones, else the fewest preemptions; and the
 *  job_resrcs slurmctld requires.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/slurm_xlator.h"	/* Must be first */
#include "src/common/bitstring.h"
#include "src/common/job_resources.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "select_mesh.h"

/* Fill job_ptr->job_resrcs for whole nodes, as slurmctld requires. */
static void _build_resources(job_record_t *job_ptr, bitstr_t *bitmap)
{
	job_resources_t *jr;
	node_record_t *node_ptr;
	int i, j = 0, k = -1, n = bit_set_count(bitmap);
	uint16_t cpus;

	if (job_ptr->job_resrcs)	/* requeued job */
		free_job_resources(&job_ptr->job_resrcs);
	jr = job_ptr->job_resrcs = create_job_resources();
	jr->cpu_array_reps = xcalloc(n, sizeof(uint32_t));
	jr->cpu_array_value = xcalloc(n, sizeof(uint16_t));
	jr->cpus = xcalloc(n, sizeof(uint16_t));
	jr->cpus_used = xcalloc(n, sizeof(uint16_t));
	jr->memory_allocated = xcalloc(n, sizeof(uint64_t));
	jr->memory_used = xcalloc(n, sizeof(uint64_t));
	jr->nhosts = n;
	jr->node_bitmap = bit_copy(bitmap);
	jr->nodes = bitmap2node_name(bitmap);
	jr->ncpus = job_ptr->total_cpus;
	jr->threads_per_core = job_ptr->details->mc_ptr ?
		job_ptr->details->mc_ptr->threads_per_core : NO_VAL16;
	jr->cr_type = slurm_conf.select_type_param;
	if (build_job_resources(jr))
		error("%s: %s: build_job_resources: %m", plugin_type, __func__);
	for (i = 0; i < bit_size(bitmap); i++) {
		if (!bit_test(bitmap, i) || !(node_ptr = node_record_table_ptr[i]))
			continue;
		cpus = node_ptr->config_ptr->cpus;
		jr->cpus[j] = cpus;
		if (k < 0 || jr->cpu_array_value[k] != cpus) {
			jr->cpu_array_cnt++;
			jr->cpu_array_value[++k] = cpus;
		}
		jr->cpu_array_reps[k]++;
		if (set_job_resources_node(jr, j))
			error("%s: %s: set_job_resources_node: %m",
			      plugin_type, __func__);
		j++;
	}
}


/* The victims sm_preempt_fewest() chose become the preemptees. */
static int _preempt(struct mesh_try *t, bitstr_t *orig, list_t *candidates,
		    list_t **preemptees)
{
	list_t *chosen = NULL;
	int rc = sm_preempt_fewest(t, orig, candidates, &chosen);

	if (rc == SLURM_SUCCESS) {
		if (!*preemptees)
			*preemptees = list_create(NULL);
		list_transfer(*preemptees, chosen);
	}
	FREE_NULL_LIST(chosen);
	return rc;
}

/*
 * RUN_NOW: place on free nodes.  Only if that fails, preempt the fewest
 * candidates, unless nodes of earlier preemptions are still completing
 * and the job fits once they are free.
 */
extern int sm_run_now(struct mesh_try *t, list_t *candidates,
		      list_t **preemptees)
{
	bitstr_t *orig = bit_copy(t->avail);
	int rc;
	uint16_t m = sm_max_share(t->job_ptr);

	t->busy = sm.busy;
	rc = sm_try_place(t);
	if (rc != SLURM_SUCCESS && m > 1)
		rc = sm_run_shared(t, orig, m);
	if (rc != SLURM_SUCCESS && candidates && list_count(candidates) &&
	    preemptees && !sm_fits_after_completion(t, orig))
		rc = _preempt(t, orig, candidates, preemptees);
	if (rc == SLURM_SUCCESS) {
		_build_resources(t->job_ptr, t->avail);
		/* job_begin follows at once, under the same slurmctld locks */
		sm.contig_job_id = t->used_contig ? t->job_ptr->job_id : 0;
	} else
		bit_copybits(t->avail, orig);
	t->busy = sm.busy;
	FREE_NULL_BITMAP(orig);
	return rc;
}
