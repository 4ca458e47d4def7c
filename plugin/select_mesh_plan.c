/*****************************************************************************\
 *  select_mesh_plan.c - select/mesh WILL_RUN: when and where a job
 *  could start, through the library's earliest-start planner.
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

static int _cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *) x, b = *(const uint32_t *) y;

	return (a > b) - (a < b);
}

/* Sorted job ids of the list (NULL and 0 when empty); xfree the result. */
extern uint32_t *sm_sorted_ids(list_t *l, int *n)
{
	list_itr_t *it;
	job_record_t *j;
	uint32_t *ids;

	*n = 0;
	if (!l || !list_count(l))
		return NULL;
	ids = xcalloc(list_count(l), sizeof(*ids));
	it = list_iterator_create(l);
	while ((j = list_next(it)))
		ids[(*n)++] = j->job_id;
	list_iterator_destroy(it);
	qsort(ids, *n, sizeof(*ids), _cmp_u32);
	return ids;
}

extern bool sm_in_ids(const uint32_t *ids, int n, uint32_t job_id)
{
	return n && bsearch(&job_id, ids, n, sizeof(*ids), _cmp_u32);
}

/* Jobs among the candidates whose nodes the chosen set overlaps. */
static void _preemptees(list_t *candidates, bitstr_t *chosen, list_t **out)
{
	list_itr_t *it;
	job_record_t *j;

	if (!candidates || !out)
		return;
	if (!*out)
		*out = list_create(NULL);
	it = list_iterator_create(candidates);
	while ((j = list_next(it))) {
		if (j->node_bitmap && bit_overlap_any(chosen, j->node_bitmap))
			list_append(*out, j);
	}
	list_iterator_destroy(it);
}

/*
 * Copy of the usage without the jobs in candidates: the global usage
 * minus the candidates' nodes, O(nodes + candidates' nodes).
 */
static uint16_t *_busy_without(list_t *candidates)
{
	uint16_t *use = xcalloc(sm.node_cnt + 1, sizeof(*use));
	struct mesh_job *mj;
	uint32_t *ids;
	int i, j, t, n_ids;

	memcpy(use, sm.busy, sm.node_cnt * sizeof(*use));
	if (!(ids = sm_sorted_ids(candidates, &n_ids)))
		return use;
	for (t = 0; t < sm.n_tracked; t++) {
		mj = &sm.tracked[t];
		if (!sm_in_ids(ids, n_ids, mj->job_id))
			continue;
		for (j = 0; j < mj->n_idx; j++) {
			i = mj->idx[j];
			if (i < sm.node_cnt && use[i])
				use[i]--;
		}
	}
	xfree(ids);
	return use;
}

/*
 * The running jobs (tracked, not preemption candidates) as planner holds:
 * the nodes of avail that use[] holds, each released by the last-ending
 * job holding it (OverSubscribe: a shared node is free once all its jobs
 * ended), so the holds are disjoint.  An end time already past is
 * mesh_plan_running_end()'s: overdue, it may end any moment, but not now.
 * O(named nodes + nodes of tracked jobs).
 * RET the number of holds; xfree *holds and *nodes.
 */
static int _running_holds(list_t *candidates, bitstr_t *avail,
			  const uint16_t *use, time_t now,
			  struct mesh_plan_hold **holds, uint32_t **nodes)
{
	struct mesh_job **jobs = xcalloc(sm.n_tracked + 1, sizeof(*jobs));
	int *owner = xcalloc(sm.node_cnt + 1, sizeof(*owner));
	uint32_t *cnt, *fill, *ids, total = 0;
	struct mesh_job *mj;
	job_record_t *j;
	int i, k, t, n = 0, n_ids;

	for (i = 0; i < sm.node_cnt; i++)
		owner[i] = -1;
	ids = sm_sorted_ids(candidates, &n_ids);
	for (t = 0; t < sm.n_tracked; t++) {
		mj = &sm.tracked[t];
		if (sm_in_ids(ids, n_ids, mj->job_id))
			continue;
		if ((j = find_job_record(mj->job_id)))
			mj->end_time = j->end_time;
		jobs[n] = mj;
		for (k = 0; k < mj->n_idx; k++) {
			i = mj->idx[k];
			if (i >= sm.node_cnt || !use[i] ||
			    i >= bit_size(avail) || !bit_test(avail, i))
				continue;
			if (owner[i] < 0 ||
			    jobs[owner[i]]->end_time < mj->end_time)
				owner[i] = n;
		}
		n++;
	}
	xfree(ids);
	cnt = xcalloc(n + 1, sizeof(*cnt));
	for (i = 0; i < sm.node_cnt; i++)
		if (owner[i] >= 0) {
			cnt[owner[i]]++;
			total++;
		}
	*holds = xcalloc(n + 1, sizeof(**holds));
	*nodes = xcalloc(total + 1, sizeof(**nodes));
	fill = xcalloc(n + 1, sizeof(*fill));
	for (i = 0, total = 0; i < n; i++) {
		(*holds)[i].start = (double) now;
		(*holds)[i].end = mesh_plan_running_end(
			(double) jobs[i]->end_time, (double) now);
		(*holds)[i].nodes = *nodes + total;
		fill[i] = total;
		total += cnt[i];
	}
	for (i = 0; i < sm.node_cnt; i++)
		if (owner[i] >= 0) {
			(*nodes)[fill[owner[i]]++] = sm.node2mesh[i];
			(*holds)[owner[i]].n++;
		}
	xfree(fill);
	xfree(cnt);
	xfree(owner);
	xfree(jobs);
	return n;
}

/* mesh_plan_query.place: the decision RUN_NOW would make on v. */
static int _plan_place(void *arg, const struct mesh_view *v,
		       const struct mesh_request *req, uint32_t *out)
{
	(void) req;
	return sm_choose(arg, v, out);
}

/*
 * WILL_RUN: when and where could the job start?  mesh_plan_earliest(),
 * the search of meshsim's conservative backfilling, over now and the
 * running jobs' ends; at each candidate time sm_choose() decides as
 * RUN_NOW would then (node counts, CPU minimum, contiguous fallback).
 * Preemption candidates count as gone now.  PlanMaxPlacements= and
 * PlanMaxTime= bound the search under the locks (a scan calls
 * sm_choose() once per candidate).  Nothing persistent changes
 * and no job_resrcs are built.
 */
extern int sm_will_run(struct mesh_try *t, list_t *candidates,
		       list_t **preemptees)
{
	uint16_t *use = _busy_without(candidates);
	time_t now = time(NULL);
	struct mesh_plan_hold *holds = NULL;
	uint32_t *hold_nodes = NULL, cpus_min, cpus_max;
	struct mesh_plan_query q;
	struct mesh_plan_stats st = { 0, 0 };
	struct mesh_request fewest;
	double start = 0.0;
	int rc = MESH_ENOSPC, n = 0;

	t->busy = use;
	if (!sm_try_begin(t)) {
		sm_fill_free_map(t->avail, use, sm.buf_free);
		if (!(t->job_ptr->bit_flags & TEST_NOW_ONLY))
			n = _running_holds(candidates, t->avail, use, now,
					   &holds, &hold_nodes);
		sm_node_cpus_range(&cpus_min, &cpus_max);
		memset(&q, 0, sizeof(q));
		q.free_now = sm.buf_free;
		q.now = (double) now;
		q.running = holds;
		q.n_running = n;
		if (mesh_alloc_flags(sm.alloc) & MESH_ALLOC_USES_WALLTIME)
			q.end_time = sm_end_times(use);
		q.place = _plan_place;
		q.place_arg = t;
		/* nodes added for a CPU minimum on mixed nodes: a larger
		 * free set may need more of them, so no shortcut */
		q.in_order = cpus_min != cpus_max;
		/* otherwise sm_choose() refuses only where no box (for
		 * --contiguous), required node or count fits, all of which
		 * a later, larger free set still holds: a refusal is
		 * followed by a binary search, not a scan */
		q.monotone = !q.in_order;
		q.max_places = sm.conf->plan_max_places;
		q.max_seconds = sm.conf->plan_max_seconds;
		q.stats = &st;
		fewest = t->r;
		fewest.nodes = t->cand[1];
		rc = mesh_plan_earliest(sm.planner, sm.alloc, &q, &fewest,
					&start, sm.buf_out);
		if (rc && rc != MESH_ENOSPC)
			error("%s: %pJ: WILL_RUN: %s", plugin_type, t->job_ptr,
			      mesh_strerror(rc));
		if (st.truncated)
			sm_log_plan_cut_locked(t->job_ptr, &st);
	}
	if (!rc) {
		/* t->k: the last sm_choose()'s, which is the answer's (plan.h) */
		sm_set_chosen(t, sm.buf_out, t->k);
		t->job_ptr->start_time = (time_t) start;
		_preemptees(candidates, t->avail, preemptees);
	}
	sm_try_end(t);
	xfree(holds);
	xfree(hold_nodes);
	xfree(use);
	return rc ? SLURM_ERROR : SLURM_SUCCESS;
}
