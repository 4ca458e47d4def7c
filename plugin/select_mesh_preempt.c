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
#include "compat/compat.h"
#include "src/slurmctld/slurmctld.h"

#include "select_mesh.h"
#include "victims.h"

/*
 * Nodes of the job's partition that are COMPLETING (e.g. jobs preempted a
 * moment ago, still being requeued or cancelled) and, for whole nodes,
 * not held by any tracked job; over cons_tres (shared) the fit model
 * decides, as the completing jobs are no longer tracked.  slurmctld
 * leaves them out of the usable bitmap, so without this check every pass
 * during the completion would pick new victims.
 * RET a new bitmap, or NULL if there are none.
 */
static bitstr_t *_completing_nodes(job_record_t *job_ptr, bitstr_t *avail,
				   bool shared)
{
	bitstr_t *cg = NULL;
	bitstr_t *part = job_ptr->part_ptr ? job_ptr->part_ptr->node_bitmap :
		NULL;
	bitstr_t *exc = job_ptr->details->exc_node_bitmap;
	node_record_t *node_ptr;
	int i;

	for (i = 0; (node_ptr = next_node(&i)); i++) {
		if (i >= sm.node_cnt || (!shared && sm.busy[i]) ||
		    !IS_NODE_COMPLETING(node_ptr) || IS_NODE_DOWN(node_ptr) ||
		    IS_NODE_DRAIN(node_ptr) || IS_NODE_FAIL(node_ptr) ||
		    (part && !bit_test(part, i)) ||
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
 * must wait for them instead of preempting more jobs.  Over cons_tres
 * (t->fit, counted without preemption) a node counts when the job fits
 * there.
 */
extern bool sm_fits_after_completion(struct mesh_try *t, bitstr_t *orig)
{
	bitstr_t *cg = _completing_nodes(t->job_ptr, orig, t->fit != NULL);
	bool fits;

	if (!cg)
		return false;
	bit_or(cg, orig);
	bit_copybits(t->avail, cg);
	if (t->fit) {
		sm_fit_use(t->fit, cg);
		t->busy = t->fit->use;
		t->cpus = t->fit->free_cpus;
	} else
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

/* Preemption candidates whose release could help, in Slurm's order. */
struct victims {
	int n;			/* candidates given by slurmctld */
	int m;			/* of them, running here on usable nodes */
	job_record_t **job;
	struct mesh_job **mj;
	uint64_t *rank;		/* Slurm's order key; equal: equally ranked */
	uint32_t *nodes;	/* nodes each one holds */
	bool *victim;		/* the core's current choice */
	bool *out_of_fit;	/* taken out of t->fit's counts so far */
	uint16_t *use;		/* whole nodes: sm.busy without the victims */
	struct mesh_try *t;	/* the job being placed */
	bitstr_t *orig;		/* its usable nodes */
	bitstr_t *chosen;	/* the last placement that fit */
};

/*
 * The key Slurm sorted the candidates by: the preempt plugin's priority
 * (preempt/partition_prio: tier, then node count), or the start time
 * under SchedulerParameters=preempt_youngest_first.
 */
static uint64_t _rank(job_record_t *j)
{
	uint32_t prio = 0;

	if (xstrcasestr(slurm_conf.sched_params, "preempt_youngest_first"))
		return (uint64_t) j->start_time;
	(void) preempt_g_get_data(j, PREEMPT_DATA_PRIO, &prio);
	return prio;
}

static void _victims_init(struct victims *vs, list_t *candidates,
			  struct mesh_try *t, bitstr_t *orig)
{
	list_itr_t *it = list_iterator_create(candidates);
	job_record_t *j;

	vs->n = list_count(candidates);
	vs->m = 0;
	vs->t = t;
	vs->orig = orig;
	vs->job = xcalloc(vs->n + 1, sizeof(*vs->job));
	vs->mj = xcalloc(vs->n + 1, sizeof(*vs->mj));
	vs->rank = xcalloc(vs->n + 1, sizeof(*vs->rank));
	vs->nodes = xcalloc(vs->n + 1, sizeof(*vs->nodes));
	vs->victim = xcalloc(vs->n + 1, sizeof(*vs->victim));
	vs->out_of_fit = xcalloc(vs->n + 1, sizeof(*vs->out_of_fit));
	vs->use = xcalloc(sm.node_cnt + 1, sizeof(*vs->use));
	vs->chosen = bit_alloc(bit_size(orig));
	while ((j = list_next(it))) {
		if (!IS_JOB_RUNNING(j) && !IS_JOB_SUSPENDED(j))
			continue;
		if (!(vs->mj[vs->m] = sm_tracked_get(j->job_id)) ||
		    !bit_overlap_any(vs->mj[vs->m]->nodes, orig))
			continue;	/* releasing it cannot help */
		vs->rank[vs->m] = _rank(j);
		vs->nodes[vs->m] = vs->mj[vs->m]->n_idx;
		vs->job[vs->m++] = j;
	}
	list_iterator_destroy(it);
}

static void _victims_free(struct victims *vs)
{
	xfree(vs->job);
	xfree(vs->mj);
	xfree(vs->rank);
	xfree(vs->nodes);
	xfree(vs->victim);
	xfree(vs->out_of_fit);
	xfree(vs->use);
	FREE_NULL_BITMAP(vs->chosen);
}

/* The victims as a List (NULL if none). */
static list_t *_victim_list(struct victims *vs)
{
	list_t *l = NULL;
	int i;

	for (i = 0; i < vs->m; i++) {
		if (!vs->victim[i])
			continue;
		if (!l)
			l = list_create(NULL);
		list_append(l, vs->job[i]);
	}
	return l;
}

/*
 * Over cons_tres: t->fit's counts without the current victims, kept by
 * subtraction (t->fit counts every tracked job when the search starts),
 * so a try costs the victims that changed, not a pass over all jobs.
 * DebugFlags=SelectType checks them against a rebuild.
 */
static void _fit_without_victims(struct victims *vs)
{
	struct sm_fit *f = vs->t->fit;
	uint32_t *ids;
	list_t *l;
	int i, n_ids;

	for (i = 0; i < vs->m; i++) {
		if (vs->victim[i] == vs->out_of_fit[i])
			continue;
		sm_fit_job(f, vs->mj[i], vs->victim[i] ? -1 : 1);
		vs->out_of_fit[i] = vs->victim[i];
	}
	if (!(slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE))
		return;
	l = _victim_list(vs);
	ids = sm_sorted_ids(l, &n_ids);
	FREE_NULL_LIST(l);
	(void) sm_fit_verify(f, ids, n_ids);
	xfree(ids);
}

/*
 * Nodes of orig free for the job once the victims are gone: whole nodes
 * no job holds, or over cons_tres the nodes the job fits (t->fit).  Sets
 * t->busy (and t->cpus) for a placement attempt.
 * RET their number.
 */
static int _free_with(struct victims *vs)
{
	struct mesh_try *t = vs->t;
	bitstr_t *orig = vs->orig;
	int i, n = 0;

	if (t->fit) {
		_fit_without_victims(vs);
		n = sm_fit_use(t->fit, orig);
		t->busy = t->fit->use;
		t->cpus = t->fit->free_cpus;
		return n;
	}
	memcpy(vs->use, sm.busy, sizeof(*vs->use) * (sm.node_cnt + 1));
	for (i = 0; i < vs->m; i++)
		if (vs->victim[i])
			sm_use_sub(vs->use, vs->mj[i]->nodes);
	for (i = 0; i < MIN(bit_size(orig), sm.node_cnt); i++)
		if (bit_test(orig, i) && !vs->use[i])
			n++;
	t->busy = vs->use;
	return n;
}

/* Place the job with the current victims gone; t->avail the choice. */
static int _place_victims(struct victims *vs)
{
	(void) _free_with(vs);
	bit_copybits(vs->t->avail, vs->orig);
	return sm_try_place(vs->t);
}

/* Sum of pairwise distances of the nodes of t->avail (lower: compact). */
static uint64_t _spread(struct mesh_try *t)
{
	struct mesh_metrics m;
	uint32_t *idx = xcalloc(sm.node_cnt + 1, sizeof(*idx));
	size_t n = 0;
	int i;

	for (i = 0; i < MIN(bit_size(t->avail), sm.node_cnt); i++)
		if (bit_test(t->avail, i))
			idx[n++] = sm.node2mesh[i];
	if (!n || mesh_metrics_compute(sm.conf->topo, idx, n, &m))
		m.sum_pairwise = UINT64_MAX;
	xfree(idx);
	return m.sum_pairwise;
}

/* The decision core's callbacks (core/victims.h); victim is vs->victim. */
static uint32_t _core_free_nodes(void *ctx, const bool *victim)
{
	(void) victim;
	return (uint32_t) _free_with(ctx);
}

static int _core_place(void *ctx, const bool *victim, uint64_t *spread)
{
	struct victims *vs = ctx;

	(void) victim;

	if (_place_victims(vs) != SLURM_SUCCESS)
		return -1;
	bit_copybits(vs->chosen, vs->t->avail);
	if (spread)
		*spread = _spread(vs->t);
	return 0;
}

/*
 * The last placement that fit still fits with the current victims gone:
 * each of its nodes is still free for the job and, over cons_tres, they
 * still give it its CPU minimum (sm_try_place's two conditions).  No
 * placement is made.
 */
static bool _core_still_fits(void *ctx, const bool *victim)
{
	struct victims *vs = ctx;
	struct sm_fit *f = vs->t->fit;
	int i, last = MIN(bit_size(vs->chosen), sm.node_cnt);
	uint64_t cpus = 0;

	(void) victim;

	(void) _free_with(vs);
	for (i = 0; i < last; i++) {
		if (!bit_test(vs->chosen, i))
			continue;
		if (f ? f->use[i] != 0 : vs->use[i] != 0)
			return false;
		if (f)
			cpus += f->free_cpus[i];
	}
	return !f || cpus >= vs->t->job_ptr->details->min_cpus;
}

/*
 * The fewest victims, the most compact among equals, within mesh.conf's
 * PlanMaxPlacements=/PlanMaxTime= (core/victims.h).
 * RET 0 with vs->victim set, or -1.
 */
static int _choose_victims(struct victims *vs, struct smc_victims *cv)
{
	memset(cv, 0, sizeof(*cv));
	cv->m = vs->m;
	cv->rank = vs->rank;
	cv->nodes = vs->nodes;
	cv->need = MAX(vs->t->min_nodes, 1);
	cv->max_places = sm.conf->plan_max_places;
	cv->max_seconds = sm.conf->plan_max_seconds;
	cv->free_nodes = _core_free_nodes;
	cv->place = _core_place;
	cv->still_fits = _core_still_fits;
	cv->ctx = vs;
	cv->victim = vs->victim;
	return smc_choose_victims(cv);
}

/*
 * Preempt as few jobs as possible, and among equally ranked choices the
 * ones that leave the most compact placement (_choose_victims()).  The
 * final placement is the allocator's choice on the free nodes plus
 * exactly the victims' nodes; the victims returned are those it uses.
 * Over cons_tres, cons_tres then preempts among exactly those on that
 * placement (select_mesh_layer.c).
 * RET SLURM_SUCCESS with t->avail the choice and *victims a new list of
 * the jobs to preempt, or SLURM_ERROR with *victims untouched.
 */
extern int sm_preempt_fewest(struct mesh_try *t, bitstr_t *orig,
			     list_t *candidates, list_t **victims)
{
	struct victims vs;
	struct smc_victims cv;
	list_t *chosen;
	char *names = NULL;
	int i, rc = SLURM_ERROR;

	_victims_init(&vs, candidates, t, orig);
	if (!_choose_victims(&vs, &cv) &&
	    _place_victims(&vs) == SLURM_SUCCESS) {
		chosen = list_create(NULL);
		for (i = 0; i < vs.m; i++) {
			if (!vs.victim[i] ||
			    !bit_overlap_any(t->avail, vs.mj[i]->nodes))
				continue;
			list_append(chosen, vs.job[i]);
			xstrfmtcat(names, "%s%u", names ? "," : "",
				   vs.job[i]->job_id);
		}
		log_flag(SELECT_TYPE, "%s: %pJ preempts %d of %d candidate(s) after %zu placement(s)%s: %s",
			 plugin_type, t->job_ptr, list_count(chosen), vs.n,
			 cv.places, cv.cut ?
			 " (search cut at PlanMaxPlacements=/PlanMaxTime=, the rest in Slurm's order)" :
			 "", names);
		*victims = chosen;
		rc = SLURM_SUCCESS;
	} else if (cv.cut) {
		log_flag(SELECT_TYPE, "%s: %pJ: no victims after %zu placement(s), search cut at PlanMaxPlacements=/PlanMaxTime=",
			 plugin_type, t->job_ptr, cv.places);
	}
	xfree(names);
	_victims_free(&vs);
	return rc;
}
