/*****************************************************************************\
 *  topology_mesh_eval.c - topology/mesh chooses a job's nodes inside
 *  select/cons_tres (Slurm 24.05+, topology_p_eval_nodes).
 *
 *  cons_tres hands over the nodes that can run the job, with their usable
 *  cores, memory and GRES.  mesh.conf's allocator picks k of them as a
 *  mesh placement; the node map is cut to those k, and topology/common's
 *  stock evaluation (cons_tres's own core, CPU and GRES accounting) then
 *  selects from them.  If the stock evaluation needs more nodes (a job
 *  given as -n, -c, --gpus or --mem, whose node count follows from what
 *  each node offers), k doubles up to what the job may use.  Node Weight
 *  is honoured as cons_tres does: the lowest tier that can hold the job.
 *  So nothing of cons_tres's resource accounting is rewritten here.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  topology_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include <stdlib.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/bitstring.h"
#include "src/common/core_array.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/interfaces/topology.h"
#include "src/plugins/topology/common/eval_nodes.h"
#include "src/slurmctld/slurmctld.h"

#include "job_hints.h"
#include "topology_mesh.h"
#include "topology_mesh_eval.h"
#include "tiers.h"

extern const char plugin_type[];

/* Node index <-> mesh index of slurmctld's current node table, and the
 * buffers of one decision; rebuilt when the table may have changed. */
static struct {
	bool built;
	uint32_t generation;	/* tm_generation() the map was built for */
	int node_cnt;		/* node_record_count then */
	int64_t *node2mesh;	/* -1: no mesh position */
	int *mesh2node;
	struct mesh_bitmap *free;
	uint32_t *out, *req;
	uint64_t *tiers;
	uint32_t last_refused;	/* job last logged as unplaceable */
} ev;

static void _map_free(void)
{
	xfree(ev.node2mesh);
	xfree(ev.mesh2node);
	xfree(ev.out);
	xfree(ev.req);
	xfree(ev.tiers);
	mesh_bitmap_destroy(ev.free);
	ev.free = NULL;
	ev.built = false;
}

extern void tm_eval_fini(void)
{
	_map_free();
}

/* Build the maps for the running mesh.conf and node table: O(nodes log
 * nodes), once per ranking (startup, reconfigure) or node count change. */
static bool _map_ready(void)
{
	const struct mesh_conf *c = tm_conf();
	struct mesh_bitmap *usable = NULL;
	uint32_t idx, pos;
	int i;

	if (!c || !tm_alloc(false))
		return false;
	if (ev.built && ev.generation == tm_generation() &&
	    ev.node_cnt == node_record_count)
		return true;
	_map_free();
	if (mesh_bitmap_create(c->topo->nodes, &ev.free) ||
	    mesh_bitmap_create(c->topo->nodes, &usable)) {
		error("%s: out of memory for a %u-position mesh", plugin_type,
		      c->topo->nodes);
		mesh_bitmap_destroy(usable);
		_map_free();
		return false;
	}
	ev.node2mesh = xcalloc(node_record_count + 1, sizeof(*ev.node2mesh));
	ev.mesh2node = xcalloc(c->topo->nodes, sizeof(*ev.mesh2node));
	for (pos = 0; pos < c->topo->nodes; pos++)
		ev.mesh2node[pos] = -1;
	for (i = 0; i < node_record_count; i++) {
		ev.node2mesh[i] = -1;
		if (!node_record_table_ptr[i] ||
		    mesh_conf_lookup(c, node_record_table_ptr[i]->name, &idx))
			continue;
		ev.node2mesh[i] = idx;
		ev.mesh2node[idx] = i;
		mesh_bitmap_set(usable, idx);
	}
	/* per-decision passes cover only the nodes' bounding box */
	(void) mesh_alloc_set_usable(tm_alloc(false), usable);
	if (tm_alloc(true) != tm_alloc(false))
		(void) mesh_alloc_set_usable(tm_alloc(true), usable);
	mesh_bitmap_destroy(usable);
	ev.out = xcalloc(node_record_count + 1, sizeof(*ev.out));
	ev.req = xcalloc(node_record_count + 1, sizeof(*ev.req));
	ev.tiers = xcalloc(node_record_count + 1, sizeof(*ev.tiers));
	ev.generation = tm_generation();
	ev.node_cnt = node_record_count;
	ev.built = true;
	return true;
}

/* Distinct sched_weight of the nodes in map, lowest first. */
static int _weight_tiers(bitstr_t *map)
{
	int i, n = 0;

	for (i = 0; next_node_bitmap(map, &i); i++)
		ev.tiers[n++] = node_record_table_ptr[i]->sched_weight;
	return (int) smc_weight_tiers(ev.tiers, n, ev.tiers);
}

/* The stock evaluation of topology/common on the current node map. */
static int _eval_stock(topology_eval_t *te)
{
	int (*own)(topology_eval_t *) = te->eval_nodes;
	uint16_t contiguous = te->job_ptr->details->contiguous;
	int rc;

	te->eval_nodes = NULL;
	/* the mesh placement already is a sub-mesh: not an index run */
	te->job_ptr->details->contiguous = 0;
	rc = eval_nodes(te);
	te->job_ptr->details->contiguous = contiguous;
	te->eval_nodes = own;
	return rc;
}

/* What the stock evaluation changes and a retry needs back, as
 * common_topo_choose_nodes() restores it between its passes. */
struct saved {
	bitstr_t *node_map;
	bitstr_t **cores;
	uint32_t max_nodes;
};

/*
 * Place k nodes of the tier (mesh positions set in ev.free) with the
 * allocator; cut te->node_map to them and evaluate there.
 * RET SLURM_SUCCESS; or SLURM_ERROR with te as in sv.
 */
static int _try_k(topology_eval_t *te, struct mesh_request *r, uint32_t k,
		  const struct saved *sv)
{
	struct mesh_view v = { 0 };
	job_record_t *job_ptr = te->job_ptr;
	bool contiguous = job_ptr->details->contiguous;
	struct mesh_metrics m;
	uint32_t i;
	int rc;

	v.topo = tm_conf()->topo;
	v.free = ev.free;
	v.now = (double) time(NULL);
	r->nodes = k;
	rc = mesh_alloc_place(tm_alloc(false), &v, r, ev.out);
	/* --contiguous means a full sub-mesh, whatever the allocator does */
	if (!rc && contiguous &&
	    (mesh_metrics_compute(v.topo, ev.out, k, &m) ||
	     m.nodes_affected != k))
		rc = MESH_ENOSPC;
	if (rc == MESH_ENOSPC && contiguous &&
	    tm_alloc(true) != tm_alloc(false))
		rc = mesh_alloc_place(tm_alloc(true), &v, r, ev.out);
	if (rc)
		return SLURM_ERROR;
	bit_clear_all(te->node_map);
	for (i = 0; i < k; i++)
		bit_set(te->node_map, ev.mesh2node[ev.out[i]]);
	if (_eval_stock(te) == SLURM_SUCCESS)
		return SLURM_SUCCESS;
	bit_copybits(te->node_map, sv->node_map);
	core_array_or(te->avail_core, sv->cores);
	te->max_nodes = sv->max_nodes;
	return SLURM_ERROR;
}

/*
 * The node counts to try within one tier of n usable nodes: the requested
 * count, then from the minimum doubling up to what the job may use.  At
 * most 2 + log2(n) allocator calls and stock evaluations per tier.
 */
static int _place_in_tier(topology_eval_t *te, struct mesh_request *r,
			  uint32_t n, uint32_t n_req, const struct saved *sv)
{
	uint32_t lo = MAX(MAX(te->min_nodes, 1), n_req);
	uint32_t hi = MIN(sv->max_nodes, n);
	uint32_t want = MAX(te->req_nodes, lo), k;

	if (lo > hi)
		return SLURM_ERROR;
	if (want < hi && _try_k(te, r, want, sv) == SLURM_SUCCESS)
		return SLURM_SUCCESS;
	for (k = lo; k < hi; k = (k > hi / 2) ? hi : 2 * k)
		if (k != want &&
		    _try_k(te, r, k, sv) == SLURM_SUCCESS)
			return SLURM_SUCCESS;
	return _try_k(te, r, hi, sv);
}

/*
 * topo_eval->eval_nodes for mesh placement.  ESLURM_NOT_SUPPORTED hands
 * the job to topology/common's stock algorithms: no usable mesh.conf, a
 * job asking for --spread-job or a least-loaded-node partition, or a node
 * of the job outside the mesh.
 */
static int _eval_mesh(topology_eval_t *te)
{
	job_record_t *job_ptr = te->job_ptr;
	bitstr_t *req_map = job_ptr->details->req_node_bitmap;
	struct mesh_request r = { 0 };
	struct saved sv;
	uint32_t n, n_req = 0;
	int i, t, n_tiers, rc = SLURM_ERROR;

	if (!_map_ready() || (job_ptr->bit_flags & SPREAD_JOB) ||
	    (te->cr_type & CR_LLN) ||
	    (job_ptr->part_ptr && (job_ptr->part_ptr->flags & PART_FLAG_LLN)))
		return ESLURM_NOT_SUPPORTED;
	for (i = 0; next_node_bitmap(te->node_map, &i); i++)
		if (i >= ev.node_cnt || ev.node2mesh[i] < 0)
			return ESLURM_NOT_SUPPORTED;
	for (i = 0; req_map && next_node_bitmap(req_map, &i); i++) {
		if (i >= ev.node_cnt || ev.node2mesh[i] < 0)
			return ESLURM_NOT_SUPPORTED;
		ev.req[n_req++] = ev.node2mesh[i];
	}

	mesh_job_hints(tm_conf(), job_ptr, plugin_type, &r);
	r.seed = job_ptr->job_id;
	r.required = ev.req;
	r.n_required = n_req;
	if (job_ptr->details->contiguous)
		r.flags |= MESH_REQ_CONTIGUOUS;
	if (job_ptr->time_limit != NO_VAL && job_ptr->time_limit != INFINITE)
		r.end_time = (double) time(NULL) + job_ptr->time_limit * 60.0;

	sv.node_map = bit_copy(te->node_map);
	sv.cores = copy_core_array(te->avail_core);
	sv.max_nodes = te->max_nodes;
	n_tiers = _weight_tiers(sv.node_map);
	for (t = 0; t < n_tiers && rc != SLURM_SUCCESS; t++) {
		mesh_bitmap_fill(ev.free, false);
		n = 0;
		for (i = 0; next_node_bitmap(sv.node_map, &i); i++)
			if (node_record_table_ptr[i]->sched_weight <=
			    ev.tiers[t]) {
				mesh_bitmap_set(ev.free, ev.node2mesh[i]);
				n++;
			}
		rc = _place_in_tier(te, &r, n, n_req, &sv);
	}
	if (rc != SLURM_SUCCESS && ev.last_refused != job_ptr->job_id) {
		ev.last_refused = job_ptr->job_id;
		log_flag(SELECT_TYPE, "%s: %pJ: %s found no placement among %u candidate nodes that cons_tres accepts",
			 plugin_type, job_ptr, mesh_alloc_name(tm_alloc(false)),
			 (uint32_t) bit_set_count(sv.node_map));
	}
	FREE_NULL_BITMAP(sv.node_map);
	free_core_array(&sv.cores);
	return rc;
}

extern int tm_eval_nodes(topology_eval_t *te)
{
	te->eval_nodes = _eval_mesh;
	te->trump_others = true;
	return common_topo_choose_nodes(te);
}
