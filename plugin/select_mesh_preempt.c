/*****************************************************************************\
 *  select_mesh_preempt.c - select/mesh preemption: wait for completing
 *  victims, else preempt the fewest candidates.
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
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "select_mesh.h"

/*
 * Nodes of the job's partition that are COMPLETING (e.g. jobs preempted a
 * moment ago, still being requeued or cancelled) and not held by any
 * tracked job.  slurmctld leaves them out of the usable bitmap, so without
 * this check every pass during the completion would pick new victims.
 * RET a new bitmap, or NULL if there are none.
 */
static bitstr_t *_completing_nodes(job_record_t *job_ptr, bitstr_t *avail)
{
	bitstr_t *cg = NULL;
	bitstr_t *part = job_ptr->part_ptr ? job_ptr->part_ptr->node_bitmap :
		NULL;
	bitstr_t *exc = job_ptr->details->exc_node_bitmap;
	node_record_t *node_ptr;
	int i;

	for (i = 0; (node_ptr = next_node(&i)); i++) {
		if (i >= sm.node_cnt || sm.busy[i] ||
		    !IS_NODE_COMPLETING(node_ptr) || IS_NODE_DOWN(node_ptr) || IS_NODE_DRAIN(node_ptr) ||
		    IS_NODE_FAIL(node_ptr) || (part && !bit_test(part, i)) ||
		    (exc && bit_test(exc, i)))
			continue;
		if (!cg)
			cg = bit_alloc(bit_size(avail));
		bit_set(cg, i);
	}
	return cg;
}

/*
 * True if the job would fit once the completing nodes are free: then it
 * must wait for them instead of preempting more jobs.
 */
extern bool sm_fits_after_completion(struct mesh_try *t, bitstr_t *orig)
{
	bitstr_t *cg = _completing_nodes(t->job_ptr, orig);
	bool fits;

	if (!cg)
		return false;
	bit_or(cg, orig);
	bit_copybits(t->avail, cg);
	t->busy = sm.busy;
	fits = sm_try_place(t) == SLURM_SUCCESS;
	log_flag(SELECT_TYPE, "%s: %pJ %s: %d node(s) still completing",
		 plugin_type, t->job_ptr, fits ?
		 "waits instead of preempting more jobs" :
		 "does not fit even after completion",
		 bit_set_count(cg) - bit_set_count(orig));
	bit_copybits(t->avail, orig);
	FREE_NULL_BITMAP(cg);
	return fits;
}


/*
 * Preempt as few jobs as possible.  Candidates are taken in Slurm's order
 * (lowest priority first) and released one at a time until the allocator
 * can place the job; then every victim whose release turns out not to be
 * needed is given back, highest priority first.  The final placement is
 * the allocator's (most compact) choice on the free nodes plus exactly the
 * victims' nodes.
 * RET SLURM_SUCCESS with t->avail the choice and *preemptees the victims,
 * or SLURM_ERROR.
 */
extern int sm_preempt_fewest(struct mesh_try *t, bitstr_t *orig,
			     List candidates, List *preemptees)
{
	int n = list_count(candidates), m = 0, i, last = -1;
	job_record_t **job = xcalloc(n + 1, sizeof(*job));
	struct mesh_job **mj = xcalloc(n + 1, sizeof(*mj));
	uint16_t *use = xcalloc(sm.node_cnt + 1, sizeof(*use));
	bool *victim = xcalloc(n + 1, sizeof(*victim));
	ListIterator it = list_iterator_create(candidates);
	job_record_t *j;
	char *names = NULL;
	int rc = SLURM_ERROR;

	while ((j = list_next(it))) {
		if (!IS_JOB_RUNNING(j) && !IS_JOB_SUSPENDED(j))
			continue;
		if (!(mj[m] = sm_tracked_get(j->job_id)) ||
		    !bit_overlap_any(mj[m]->nodes, orig))
			continue;	/* releasing it cannot help */
		job[m++] = j;
	}
	list_iterator_destroy(it);
	memcpy(use, sm.busy, sizeof(*use) * (sm.node_cnt + 1));
	for (i = 0; i < m && rc != SLURM_SUCCESS; i++) {
		sm_use_sub(use, mj[i]->nodes);
		victim[i] = true;
		if ((rc = sm_place_with(t, orig, use)) == SLURM_SUCCESS)
			last = i;
	}
	for (i = last - 1; i >= 0; i--) {
		sm_use_add(use, mj[i]->nodes);
		if (sm_place_with(t, orig, use) == SLURM_SUCCESS)
			victim[i] = false;
		else
			sm_use_sub(use, mj[i]->nodes);
	}
	if (last >= 0 && (rc = sm_place_with(t, orig, use)) == SLURM_SUCCESS) {
		if (!*preemptees)
			*preemptees = list_create(NULL);
		for (i = 0; i <= last; i++) {
			if (!victim[i] || !bit_overlap_any(t->avail, mj[i]->nodes))
				continue;
			list_append(*preemptees, job[i]);
			xstrfmtcat(names, "%s%u", names ? "," : "",
				   job[i]->job_id);
		}
		log_flag(SELECT_TYPE, "%s: %pJ preempts %d of %d candidate(s): %s",
			 plugin_type, t->job_ptr, list_count(*preemptees), n,
			 names);
	}
	xfree(names);
	xfree(victim);
	xfree(use);
	xfree(mj);
	xfree(job);
	return rc;
}
