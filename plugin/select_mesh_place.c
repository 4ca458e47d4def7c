/*****************************************************************************\
 *  select_mesh_place.c - select/mesh placement: the free map, the
 *  job's hints, the allocator call with its node counts, CPU minimum and
 *  weight tiers.  The decisions that use it (RUN_NOW, WILL_RUN,
 *  preemption, sharing) call down to it.
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

#include "job_hints.h"
#include "select_mesh.h"
#include "tiers.h"

/*
 * End time of every busy mesh position (for walltime-aware allocators),
 * in the shared buffer: O(named nodes + nodes of tracked jobs).
 */
extern double *sm_end_times(const uint16_t *use)
{
	struct mesh_job *mj;
	double *end;
	int i, j, t;

	if (!sm.buf_end)
		sm.buf_end = xcalloc(sm.conf->topo->nodes, sizeof(*sm.buf_end));
	end = sm.buf_end;
	for (i = 0; i < sm.node_cnt; i++)
		if (sm.node2mesh[i] != SM_NO_POS)
			end[sm.node2mesh[i]] = 0.0;
	for (t = 0; t < sm.n_tracked; t++) {
		mj = &sm.tracked[t];
		for (j = 0; j < mj->n_idx; j++) {
			i = mj->idx[j];
			if (i < sm.node_cnt && use[i] &&
			    (double) mj->end_time > end[sm.node2mesh[i]])
				end[sm.node2mesh[i]] = (double) mj->end_time;
		}
	}
	return end;
}

/* Mesh indices of the job's required nodes (--nodelist); -1 if one of
 * them is not usable. */
static int _required(job_record_t *job_ptr, bitstr_t *avail,
		     uint32_t **req)
{
	bitstr_t *rb = job_ptr->details->req_node_bitmap;
	int i, n = 0;

	*req = NULL;
	if (!rb)
		return 0;
	*req = xcalloc(bit_set_count(rb) + 1, sizeof(**req));
	for (i = 0; i < MIN(bit_size(rb), sm.node_cnt); i++) {
		if (!bit_test(rb, i))
			continue;
		if (!bit_test(avail, i)) {
			xfree(*req);
			return -1;
		}
		(*req)[n++] = sm.node2mesh[i];
	}
	return n;
}

/*
 * Set in free_map the positions of the Slurm nodes set in avail and not
 * held per use[] (use may be NULL: every node in avail is free); clear
 * the other named positions.  Positions without a node are never set.
 * O(named nodes), whatever the size of the mesh.
 */
extern void sm_fill_free_map(bitstr_t *avail, const uint16_t *use,
			     struct mesh_bitmap *free_map)
{
	int s, n = MIN(sm.node_cnt, bit_size(avail));

	for (s = 0; s < sm.node_cnt; s++) {
		if (sm.node2mesh[s] == SM_NO_POS)
			continue;
		if (s < n && bit_test(avail, s) && (!use || !use[s]))
			mesh_bitmap_set(free_map, sm.node2mesh[s]);
		else
			mesh_bitmap_clear(free_map, sm.node2mesh[s]);
	}
}

/*
 * New mesh free map of the Slurm nodes set in avail and not held per
 * use[] (use may be NULL).
 * RET 0, or MESH_ENOMEM with *out untouched.
 */
extern int sm_free_map(bitstr_t *avail, const uint16_t *use,
		       struct mesh_bitmap **out)
{
	struct mesh_bitmap *free_map = NULL;
	int rc;

	if ((rc = mesh_bitmap_create(sm.conf->topo->nodes, &free_map)))
		return rc;
	sm_fill_free_map(avail, use, free_map);
	*out = free_map;
	return 0;
}

/* NOTE: caller holds mesh_mutex (sm.conf). */
extern void sm_job_hints_locked(job_record_t *job_ptr,
				struct mesh_request *r)
{
	mesh_job_hints(sm.conf, job_ptr, plugin_type, r);
}

/*
 * Ask the allocator for k nodes free in v (at time v->now).
 * RET 0 with out[] filled, or a MESH_E* code.
 */
static int _place_k(struct mesh_try *t, const struct mesh_view *v,
		    uint32_t k, uint32_t *out)
{
	struct mesh_request r = t->r;
	struct mesh_metrics m;
	job_record_t *job_ptr = t->job_ptr;
	int rc;

	r.nodes = k;
	if (job_ptr->time_limit != NO_VAL && job_ptr->time_limit != INFINITE)
		r.end_time = v->now + job_ptr->time_limit * 60.0;
	rc = mesh_alloc_place(sm.alloc, v, &r, out);
	/* --contiguous means a full sub-mesh, whatever the allocator does */
	if (!rc && job_ptr->details->contiguous &&
	    !(mesh_alloc_flags(sm.alloc) & MESH_ALLOC_CONTIGUOUS_ONLY) &&
	    (mesh_metrics_compute(sm.conf->topo, out, k, &m) ||
	     m.nodes_affected != k))
		rc = MESH_ENOSPC;
	t->used_contig = false;
	if (rc == MESH_ENOSPC && job_ptr->details->contiguous && sm.contig) {
		rc = mesh_alloc_place(sm.contig, v, &r, out);
		t->used_contig = !rc;
	}
	return rc;
}

/* CPUs the job gets on the chosen nodes: t->cpus, else whole nodes. */
static uint32_t _sum_cpus(struct mesh_try *t, const uint32_t *out,
			  uint32_t k)
{
	uint32_t i, cpus = 0;
	node_record_t *node_ptr;
	int n;

	for (i = 0; i < k; i++) {
		n = sm.mesh2node[out[i]];
		node_ptr = node_record_table_ptr[n];
		cpus += t->cpus ? t->cpus[n] : node_ptr->config_ptr->cpus;
	}
	return cpus;
}

/* A node's scheduling Weight: its config record's, which scontrol update
 * changes (node_ptr->weight only keeps the one of saved state). */
static uint32_t _weight(int i)
{
	return node_record_table_ptr[i]->config_ptr->weight;
}

/*
 * Node Weight, as cons_tres honours it: the distinct weights of the
 * usable nodes, lowest first, into t->tiers (none if all are equal).
 * sm_choose() places within the lowest tier that can hold the job, then
 * widens to the next.
 */
static void _weight_tiers(struct mesh_try *t)
{
	int i, n = 0, last = MIN(bit_size(t->avail), sm.node_cnt);

	/* once per usable set: a preemption or sharing decision makes many
	 * tries on the same nodes */
	if (t->tiers_for && bit_equal(t->tiers_for, t->avail))
		return;
	sm_try_free(t);
	t->tiers_for = bit_copy(t->avail);
	t->tiers = xcalloc(sm.node_cnt + 1, sizeof(*t->tiers));
	for (i = 0; i < last; i++)
		if (bit_test(t->avail, i))
			t->tiers[n++] = _weight(i);
	t->n_tiers = smc_weight_tiers(t->tiers, n, t->tiers);
	if (t->n_tiers <= 1) {
		t->n_tiers = 0;
		xfree(t->tiers);
	}
}


/*
 * What a decision for t needs whatever the free set: the request (hints
 * from select_p_job_test), the required nodes, the node counts to try.
 * RET 0, or -1 if the job cannot be placed on t->avail at any time (a
 * required node is not usable, or too few usable nodes).  Call sm_try_end()
 * after either.
 */
extern int sm_try_begin(struct mesh_try *t)
{
	job_record_t *job_ptr = t->job_ptr;
	int n_req;

	t->req = NULL;
	t->k = 0;
	/* out[] holds map_node_cnt entries: every node is named in the mesh */
	t->avail_cnt = MIN(bit_set_count(t->avail), sm.node_cnt);
	n_req = _required(job_ptr, t->avail, &t->req);
	if (n_req < 0 || t->avail_cnt == 0)
		return -1;
	t->r = t->hints;
	t->r.seed = job_ptr->job_id;
	t->r.required = t->req;
	t->r.n_required = (size_t) n_req;
	if (job_ptr->details->contiguous)
		t->r.flags |= MESH_REQ_CONTIGUOUS;
	t->cand[0] = MAX(MAX(t->req_nodes, t->min_nodes), (uint32_t) n_req);
	t->cand[1] = MAX(MAX(t->min_nodes, 1), (uint32_t) n_req);
	/* every count tried is at least cand[1], at most this */
	if (t->cand[1] > MIN(t->max_nodes, t->avail_cnt))
		return -1;
	_weight_tiers(t);
	return 0;
}

extern void sm_try_end(struct mesh_try *t)
{
	xfree(t->req);
}

extern void sm_try_free(struct mesh_try *t)
{
	xfree(t->tiers);
	t->n_tiers = 0;
	FREE_NULL_BITMAP(t->tiers_for);
}

/*
 * Choose nodes free in v: first the requested count, then the minimum;
 * grow while the job's CPU minimum is not met.
 * RET 0 with out[0 .. t->k - 1] and t->total_cpus set, or a MESH_E* code.
 */
static int _choose_counts(struct mesh_try *t, const struct mesh_view *v,
			  uint32_t *out)
{
	uint32_t k = 0, min_cpus = t->job_ptr->details->min_cpus;
	int c, rc = MESH_ENOSPC;

	for (c = 0; c < 2 && rc; c++) {
		k = MIN(MIN(t->cand[c], t->max_nodes), t->avail_cnt);
		if (k < t->cand[1] || k == 0 ||
		    (c == 1 && t->cand[1] == t->cand[0]))
			continue;
		while (!(rc = _place_k(t, v, k, out)) &&
		       (t->total_cpus = _sum_cpus(t, out, k)) < min_cpus) {
			/* 64-bit and at least one node more: it ends. */
			uint64_t per = MAX(sm_max_node_cpus(), 1);
			uint64_t more = ((uint64_t) min_cpus - t->total_cpus +
					 per - 1) / per;

			rc = MESH_ENOSPC;
			if ((uint64_t) k + more >
			    MIN(t->max_nodes, t->avail_cnt))
				break;
			k += (uint32_t) more;
		}
	}
	t->k = rc ? 0 : k;
	return rc;
}

/*
 * Choose nodes free in v (_choose_counts()), within the lowest weight
 * tier that can hold the job: the free positions of nodes of weight up
 * to each of t->tiers in turn.  Needs sm_try_begin().
 * RET 0 with out[0 .. t->k - 1] and t->total_cpus set, or a MESH_E* code.
 */
extern int sm_choose(struct mesh_try *t, const struct mesh_view *v,
		     uint32_t *out)
{
	struct mesh_view tier = *v;
	int w, s, rc = MESH_ENOSPC;
	uint32_t pos;

	if (!t->n_tiers)
		return _choose_counts(t, v, out);
	tier.free = sm.buf_tier;
	for (w = 0; w < t->n_tiers && rc; w++) {
		for (s = 0; s < sm.node_cnt; s++) {
			if ((pos = sm.node2mesh[s]) == SM_NO_POS)
				continue;
			if (mesh_bitmap_test(v->free, pos) &&
			    _weight(s) <= t->tiers[w])
				mesh_bitmap_set(sm.buf_tier, pos);
			else
				mesh_bitmap_clear(sm.buf_tier, pos);
		}
		rc = _choose_counts(t, &tier, out);
	}
	return rc;
}

/* Trim t->avail to the k Slurm nodes of the mesh indices out[]. */
extern void sm_set_chosen(struct mesh_try *t, const uint32_t *out,
			  uint32_t k)
{
	uint32_t i;

	bit_clear_all(t->avail);
	for (i = 0; i < k; i++)
		bit_set(t->avail, sm.mesh2node[out[i]]);
}

/*
 * Choose nodes for the job among t->avail, free under t->busy, now.
 * RET SLURM_SUCCESS with t->avail trimmed to the choice, or SLURM_ERROR
 * with t->avail untouched.
 */
extern int sm_try_place(struct mesh_try *t)
{
	struct mesh_view v;
	int rc = MESH_ENOSPC;

	if (!sm_try_begin(t)) {
		sm_fill_free_map(t->avail, t->busy, sm.buf_free);
		v.topo = sm.conf->topo;
		v.free = sm.buf_free;
		v.end_time = t->busy && (mesh_alloc_flags(sm.alloc) &
					 MESH_ALLOC_USES_WALLTIME) ?
			sm_end_times(t->busy) : NULL;
		v.now = (double) time(NULL);
		if (!(rc = sm_choose(t, &v, sm.buf_out)))
			sm_set_chosen(t, sm.buf_out, t->k);
	}
	sm_try_end(t);
	return rc ? SLURM_ERROR : SLURM_SUCCESS;
}

/* Try to place with the usage use[], on the nodes of orig. */
extern int sm_place_with(struct mesh_try *t, bitstr_t *orig,
			 uint16_t *use)
{
	bit_copybits(t->avail, orig);
	t->busy = use;
	return sm_try_place(t);
}
