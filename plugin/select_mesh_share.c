/*****************************************************************************\
 *  select_mesh_share.c - select/mesh OverSubscribe: whole nodes shared
 *  by up to N jobs, as select/linear shares them.
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
#include "share.h"

/* The tracked jobs as the decision core sees them (core/share.h). */
static struct smc_held *_held(void)
{
	struct smc_held *h = xcalloc(sm.n_tracked + 1, sizeof(*h));
	int i;

	for (i = 0; i < sm.n_tracked; i++) {
		h[i].idx = sm.tracked[i].idx;
		h[i].n = sm.tracked[i].n_idx;
		h[i].max_share = sm.tracked[i].max_share;
	}
	return h;
}

/*
 * Usage as a sharing job with max_share m sees it: a node is taken if a
 * non-sharing job holds it or m jobs already do; with only_shared, idle
 * nodes count as taken too.
 */
static uint16_t *_share_use(const struct smc_held *held, uint16_t m,
			    bool only_shared)
{
	uint16_t *use = xcalloc(sm.node_cnt + 1, sizeof(*use));

	smc_share_taken(held, sm.n_tracked, sm.busy, sm.node_cnt, m,
			only_shared, use);
	return use;
}

static bool _usable(void *orig, int node)
{
	return node < bit_size(orig) && bit_test(orig, node);
}

/*
 * A sharing job of the same size as a running sharing job takes exactly
 * its nodes if they are all usable (select/linear's "job mate"): jobs
 * that time-slice together keep the same node set.
 */
static int _share_mate(struct mesh_try *t, bitstr_t *orig,
		       const struct smc_held *held, uint16_t *use)
{
	struct mesh_job *mj;
	long j;
	int i;

	if (t->job_ptr->details->req_node_bitmap ||
	    t->job_ptr->details->contiguous)
		return SLURM_ERROR;
	j = smc_share_mate(held, sm.n_tracked, use, sm.node_cnt, _usable,
			   orig, t->min_nodes, t->max_nodes, t->req_nodes);
	if (j < 0)
		return SLURM_ERROR;
	mj = &sm.tracked[j];
	bit_clear_all(t->avail);
	t->total_cpus = 0;
	for (i = 0; i < mj->n_idx; i++) {
		bit_set(t->avail, mj->idx[i]);
		t->total_cpus +=
			node_record_table_ptr[mj->idx[i]]->config_ptr->cpus;
	}
	if (t->total_cpus < t->job_ptr->details->min_cpus) {
		bit_copybits(t->avail, orig);
		return SLURM_ERROR;
	}
	return SLURM_SUCCESS;
}

/*
 * OverSubscribe (after idle nodes did not suffice): a node is available
 * while fewer than m jobs hold it and none of them is exclusive.  Try, in
 * order, the nodes of a same-size sharing job, then already shared nodes
 * only, then shared and idle nodes together; the allocator chooses a
 * compact set within each.
 */
extern int sm_run_shared(struct mesh_try *t, bitstr_t *orig,
			 uint16_t m)
{
	struct smc_held *held = _held();
	uint16_t *use = _share_use(held, m, false);
	uint16_t *shared_only = _share_use(held, m, true);
	int rc;

	bit_copybits(t->avail, orig);
	if ((rc = _share_mate(t, orig, held, use)) != SLURM_SUCCESS &&
	    (rc = sm_place_with(t, orig, shared_only)) != SLURM_SUCCESS)
		rc = sm_place_with(t, orig, use);
	log_flag(SELECT_TYPE, "%s: %pJ shares nodes (OverSubscribe %u): %s",
		 plugin_type, t->job_ptr, m,
		 rc == SLURM_SUCCESS ? "placed" : "no placement");
	t->busy = sm.busy;
	xfree(shared_only);
	xfree(use);
	xfree(held);
	return rc;
}


/*
 * WILL_RUN for a sharing job.  The planner (sm_will_run()) plans it on
 * idle nodes.  If it could share nodes now (sm_run_shared() finds a
 * placement) but the plan starts it later or never, the answer is now, on
 * those nodes, as select/linear's WILL_RUN answers: backfill then starts
 * it, and its pending reason stays Slurm's own, which names what blocks
 * it.  Sharing later than now is not planned.  *plan holds the plan's
 * preemptees; an answer by sharing preempts none, so they are dropped.
 * A pending-reason text an older select/mesh wrote ("select/mesh: could
 * share nodes now ...") is removed.
 * RET the answer's return code.
 */
#define SHARE_DESC_PREFIX "select/mesh: "
extern int sm_plan_sharing_now(struct mesh_try *t, bitstr_t *orig, int rc,
			       list_t **plan)
{
	job_record_t *job_ptr = t->job_ptr;
	uint16_t m = sm_max_share(job_ptr);
	time_t now = time(NULL);
	bitstr_t *keep;
	uint32_t total_cpus = t->total_cpus;

	if (job_ptr->state_desc &&
	    !xstrncmp(job_ptr->state_desc, SHARE_DESC_PREFIX,
		      strlen(SHARE_DESC_PREFIX)))
		xfree(job_ptr->state_desc);
	if (m <= 1 || (rc == SLURM_SUCCESS && job_ptr->start_time <= now))
		return rc;
	keep = bit_copy(t->avail);
	if (sm_run_shared(t, orig, m) == SLURM_SUCCESS) {
		job_ptr->start_time = now;
		if (*plan)
			list_flush(*plan);
		rc = SLURM_SUCCESS;
	} else {
		bit_copybits(t->avail, keep);
		t->total_cpus = total_cpus;
	}
	FREE_NULL_BITMAP(keep);
	return rc;
}
