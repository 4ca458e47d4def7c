/*****************************************************************************\
 *  select_mesh_layer.c - select_p_job_test over cons_tres: the mesh
 *  allocator chooses the nodes, cons_tres the cores, memory and GRES.
 *
 *  HOW IT WORKS: the free map handed to the allocator holds the nodes that
 *  can still give the job its per-node share (select_mesh_fit.c).  The
 *  allocator's choice, exactly k nodes, goes to cons_tres with k as the
 *  minimum, maximum and requested count; cons_tres builds job_resources
 *  on it or refuses.  When it refuses (a node lacks a free socket layout
 *  cons_tres needs, say), the node of the choice with the fewest free CPUs
 *  leaves the free map and the allocator chooses again, up to
 *  LAYER_TRIES times; then cons_tres chooses on all usable nodes, as it
 *  would alone.  So a job select/mesh refuses is one cons_tres refuses.
 *  WILL_RUN asks cons_tres when the job can start; if that is now, the
 *  answer is the allocator's choice among the nodes that fit now.  Preemption chooses victims as in whole-node mode, counting
 *  a node free for the job when it fits without them, and lets cons_tres
 *  preempt among exactly those.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/slurm_xlator.h"	/* Must be first */
#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "compat/compat.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"

#include "select_mesh.h"

/* Allocator choices offered to cons_tres before it chooses itself. */
#define LAYER_TRIES 4

/* The node of t->avail with the fewest CPUs free for the job. */
static int _tightest(struct mesh_try *t, const uint32_t *cpus)
{
	int i, best = -1, last = MIN(bit_size(t->avail), sm.node_cnt);

	for (i = 0; i < last; i++)
		if (bit_test(t->avail, i) && (best < 0 || cpus[i] < cpus[best]))
			best = i;
	return best;
}

/* cons_tres on exactly the k nodes of t->avail.  The allocator has made
 * a --contiguous job's choice a sub-mesh, which cons_tres (consecutive
 * node indices) must not judge again. */
static int _other_test(struct mesh_try *t, uint16_t mode, list_t *candidates,
		       list_t **preemptees)
{
	sm_layer_ops_t *o = sm_other();
	uint16_t contiguous = t->job_ptr->details->contiguous;
	int rc;

	t->job_ptr->details->contiguous = 0;
	rc = o->job_test(t->job_ptr, t->avail, t->k, t->k, t->k, mode,
			 candidates, preemptees, t->exc_cores);
	t->job_ptr->details->contiguous = contiguous;
	return rc;
}

/*
 * RUN_NOW on the nodes of orig that fit per f (f->use, f->free_cpus set):
 * the allocator's choice, verified by cons_tres, retried without the
 * tightest node while cons_tres refuses.
 * RET SLURM_SUCCESS with t->avail the choice and job_resources built, or
 * SLURM_ERROR with t->avail undefined.
 */
static int _place_verified(struct mesh_try *t, bitstr_t *orig,
			   struct sm_fit *f, list_t *candidates,
			   list_t **preemptees)
{
	int try, i;

	for (try = 0; try < LAYER_TRIES; try++) {
		bit_copybits(t->avail, orig);
		t->busy = f->use;
		t->cpus = f->free_cpus;
		if (sm_try_place(t) != SLURM_SUCCESS)
			return SLURM_ERROR;
		if (_other_test(t, SELECT_MODE_RUN_NOW, candidates,
				preemptees) == SLURM_SUCCESS)
			return SLURM_SUCCESS;
		log_flag(SELECT_TYPE, "%s: %pJ: %s refused the allocator's %u node(s), try %d",
			 plugin_type, t->job_ptr, sm_other_type(), t->k,
			 try + 1);
		if ((i = _tightest(t, f->free_cpus)) < 0)
			return SLURM_ERROR;
		f->use[i] = 1;
	}
	return SLURM_ERROR;
}

/* cons_tres alone on all usable nodes, as without select/mesh. */
static int _other_alone(struct mesh_try *t, bitstr_t *orig, uint16_t mode,
			list_t *candidates, list_t **preemptees)
{
	sm_layer_ops_t *o = sm_other();
	int rc;

	bit_copybits(t->avail, orig);
	rc = o->job_test(t->job_ptr, t->avail, t->min_nodes, t->max_nodes,
			 t->req_nodes, mode, candidates, preemptees,
			 t->exc_cores);
	t->placed_alone = rc == SLURM_SUCCESS;
	if (rc == SLURM_SUCCESS)
		log_flag(SELECT_TYPE, "%s: %pJ %s by %s's own choice",
			 plugin_type, t->job_ptr,
			 SELECT_IS_MODE_RUN_NOW(mode) ? "placed" : "planned",
			 sm_other_type());
	return rc;
}

/*
 * Preemption over cons_tres: the victims sm_preempt_fewest() chose, with
 * the allocator's placement on the nodes that fit without them; cons_tres
 * preempts among exactly those on that placement, or, refusing, chooses
 * with all candidates as it would alone.
 */
static int _layer_preempt(struct mesh_try *t, bitstr_t *orig,
			  list_t *victims, list_t *candidates,
			  list_t **preemptees)
{
	struct sm_fit *f = t->fit;
	uint32_t *ids;
	int n_ids, rc;

	ids = sm_sorted_ids(victims, &n_ids);
	sm_fit_build(f, ids, n_ids, 0);
	xfree(ids);
	sm_fit_use(f, orig);
	rc = _place_verified(t, orig, f, victims, preemptees);
	if (rc != SLURM_SUCCESS)
		rc = _other_alone(t, orig, SELECT_MODE_RUN_NOW, candidates,
				  preemptees);
	return rc;
}

/*
 * RUN_NOW: the allocator's choice among the nodes that fit, verified by
 * cons_tres; else cons_tres's own choice (not for --contiguous, which
 * means a sub-mesh here); else preemption, unless nodes of earlier
 * preemptions are still completing and the job fits once they are free.
 */
static int _layer_run_now(struct mesh_try *t, list_t *candidates,
			  list_t **preemptees)
{
	bitstr_t *orig = bit_copy(t->avail);
	list_t *victims = NULL;
	struct sm_fit f;
	int rc;

	t->placed_alone = false;
	sm_fit_alloc(&f, t->job_ptr);
	sm_fit_build(&f, NULL, 0, 0);
	sm_fit_use(&f, orig);
	rc = _place_verified(t, orig, &f, NULL, NULL);
	if (rc != SLURM_SUCCESS && !t->job_ptr->details->contiguous)
		rc = _other_alone(t, orig, SELECT_MODE_RUN_NOW, NULL, NULL);
	if (rc != SLURM_SUCCESS && candidates && list_count(candidates) &&
	    preemptees) {
		t->fit = &f;
		if (!sm_fits_after_completion(t, orig) &&
		    sm_preempt_fewest(t, orig, candidates, &victims) ==
		    SLURM_SUCCESS)
			rc = _layer_preempt(t, orig, victims, candidates,
					    preemptees);
		t->fit = NULL;
	}
	FREE_NULL_LIST(victims);
	if (rc == SLURM_SUCCESS) {
		/* job_begin follows at once, under the same slurmctld locks */
		sm.contig_job_id = t->used_contig && !t->placed_alone ?
			t->job_ptr->job_id : 0;
		sm.other_job_id = t->placed_alone ? t->job_ptr->job_id : 0;
	} else
		bit_copybits(t->avail, orig);
	sm_fit_free(&f);
	FREE_NULL_BITMAP(orig);
	return rc;
}

/*
 * WILL_RUN: cons_tres's answer on all usable nodes.  If the job can start
 * now, the answer becomes the allocator's choice among the nodes that fit
 * now (without the preemption candidates) when cons_tres starts the job
 * there now too: the nodes RUN_NOW takes.  A later start keeps
 * cons_tres's nodes for backfill's reservation; at that time RUN_NOW
 * chooses again.  Choosing then as well (the allocator among the nodes
 * that fit at that time, a second cons_tres call) gave the same mean
 * pairwise distance on sdiag-compare.sh's GRES stream (medians of three
 * interleaved runs: 1.756 against 1.779) for 1.36 times the backfill
 * cycle (doc/select-mesh.md).
 */
static int _layer_will_run(struct mesh_try *t, list_t *candidates,
			   list_t **preemptees)
{
	bitstr_t *orig = bit_copy(t->avail), *full;
	list_t *pl_full = NULL, *pl_mesh = NULL, **chosen = &pl_full;
	struct sm_fit f;
	uint32_t *ids;
	int n_ids, rc;
	bool ok;

	rc = _other_alone(t, orig, SELECT_MODE_WILL_RUN, candidates,
			  preemptees ? &pl_full : NULL);
	if (rc == SLURM_SUCCESS && t->job_ptr->start_time <= time(NULL)) {
		full = bit_copy(t->avail);
		sm_fit_alloc(&f, t->job_ptr);
		ids = sm_sorted_ids(candidates, &n_ids);
		sm_fit_build(&f, ids, n_ids, 0);
		xfree(ids);
		sm_fit_use(&f, orig);
		bit_copybits(t->avail, orig);
		t->busy = f.use;
		t->cpus = f.free_cpus;
		ok = sm_try_place(t) == SLURM_SUCCESS;
		if (ok && !bit_equal(t->avail, full)) {
			/* not cons_tres's own nodes: ask it about these */
			ok = _other_test(t, SELECT_MODE_WILL_RUN, candidates,
					 preemptees ? &pl_mesh : NULL) ==
				SLURM_SUCCESS &&
				t->job_ptr->start_time <= time(NULL);
			if (ok)
				chosen = &pl_mesh;
		}
		if (!ok)
			bit_copybits(t->avail, full);
		t->job_ptr->start_time = time(NULL);
		sm_fit_free(&f);
		FREE_NULL_BITMAP(full);
	}
	if (rc == SLURM_SUCCESS && preemptees && *chosen) {
		if (!*preemptees)
			*preemptees = list_create(NULL);
		list_transfer(*preemptees, *chosen);
	}
	FREE_NULL_LIST(pl_full);
	FREE_NULL_LIST(pl_mesh);
	FREE_NULL_BITMAP(orig);
	return rc;
}

/* TEST_ONLY: cons_tres's answer; a --contiguous job also needs a
 * sub-mesh of its size among the usable nodes. */
static int _layer_test_only(struct mesh_try *t)
{
	bitstr_t *orig = bit_copy(t->avail);
	int rc;

	rc = _other_alone(t, orig, SELECT_MODE_TEST_ONLY, NULL, NULL);
	if (rc == SLURM_SUCCESS && t->job_ptr->details->contiguous) {
		bit_copybits(t->avail, orig);
		t->busy = NULL;
		t->cpus = NULL;
		rc = sm_try_place(t);
	}
	FREE_NULL_BITMAP(orig);
	return rc;
}

extern int sm_layer_job_test(struct mesh_try *t, uint16_t mode,
			     list_t *candidates, list_t **preemptees)
{
	if (SELECT_IS_MODE_TEST_ONLY(mode))
		return _layer_test_only(t);
	if (SELECT_IS_MODE_RUN_NOW(mode))
		return _layer_run_now(t, candidates, preemptees);
	return _layer_will_run(t, candidates, preemptees);
}
