/*****************************************************************************\
 *  select_mesh.c - whole-node selection plugin for mesh and torus machines.
 *
 *  Node choice is delegated to the slurm-mesh allocator library; this file
 *  is the Slurm glue: usage tracking, the RUN_NOW / TEST_ONLY / WILL_RUN
 *  modes, job_resrcs, and the placement summary in SystemComment.
 *  mesh.conf (next to slurm.conf) maps node names to coordinates and names
 *  the allocator; see mesh.conf(5) and doc/select-mesh.md.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.
 *
 *  This program is free software; you can redistribute it and/or modify it
 *  under the terms of the GNU General Public License as published by the Free
 *  Software Foundation; either version 2 of the License, or (at your option)
 *  any later version.
 *
 *  This program is distributed in the hope that it will be useful, but WITHOUT
 *  ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 *  FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License for
 *  more details.
 *
 *  You should have received a copy of the GNU General Public License along
 *  with this program; if not, write to the Free Software Foundation, Inc.,
 *  51 Franklin Street, Fifth Floor, Boston, MA 02110-1301  USA.
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
#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/job_resources.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/run_in_daemon.h"
#include "src/common/select.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "mesh/mesh.h"
#include "select_mesh.h"

/*
 * Data symbols that only slurmctld defines.  Tentative definitions keep
 * the dlopen in clients and slurmd working; in slurmctld the executable's
 * exported definitions interpose them (see doc/select-mesh.md).
 */
slurm_conf_t slurm_conf;
node_record_t **node_record_table_ptr;
List job_list;
List part_list;
int node_record_count;
time_t last_node_update;

const char plugin_name[] = "Mesh/torus node selection plugin";
const char plugin_type[] = "select/mesh";
/* Unique and >= 100, outside Slurm's 101-110; packed into saved state:
 * never change it. */
const uint32_t plugin_id = 190;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

#define MESH_COMMENT_PREFIX "mesh:v1 "

/* A job that holds nodes (running, or suspended by the scheduler). */
struct mesh_job {
	uint32_t job_id;
	bitstr_t *nodes;	/* Slurm node indices */
	/* The same indices in order, for the loops of every WILL_RUN
	 * (bit_ffs/bit_fls/bit_test per job were about a tenth of
	 * slurmctld's CPU with 512 running jobs); _job_index() after any
	 * change of nodes. */
	int *idx;
	int n_idx;
	time_t end_time;	/* last known; refreshed from the job record */
	uint16_t max_share;	/* > 1: shares its nodes (OverSubscribe) */
};

/* Everything below is protected by mesh_mutex. */
static pthread_mutex_t mesh_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct mesh_conf *mconf;
static struct mesh_allocator *mallocator;
/* For --contiguous when mallocator may return scattered nodes: the first
 * registered contiguous-only allocator, or NULL. */
static struct mesh_allocator *mcontig;
static uint32_t *node2mesh;	/* Slurm node index -> mesh index */
static int *mesh2node;		/* mesh index -> Slurm node index or -1 */
static int map_node_cnt;	/* node_record_count the maps were built for */
/* The jobs holding nodes, in the order they were tracked (the "job mate"
 * search takes the first match).  An array of the records themselves,
 * not a List: every WILL_RUN walks it, and list_next() with its lock per
 * step, then a cache miss per record, were a tenth of slurmctld's CPU at
 * 512 running jobs.  A pointer into it lasts until the next add or
 * remove. */
static struct mesh_job *tracked;
static int n_tracked, cap_tracked;
static uint16_t *busy;		/* per Slurm node: tracked jobs holding it */
static bool state_valid;	/* tracked/busy match job_list */
static uint32_t contig_job_id;	/* last RUN_NOW placed by mcontig */
/* A reconfigure left no mesh.conf that matches the node table. */
static bool conf_broken;
/* Fewest and most CPUs of a node, while cpus_range_valid. */
static uint32_t cpus_range[2];
static bool cpus_range_valid;
/*
 * Per-decision buffers, kept across calls and sized by the mesh when the
 * maps are built.  Only positions of named nodes are ever written, so
 * resetting them costs O(named nodes), not O(mesh positions).
 */
static struct mesh_bitmap *buf_free;	/* free map handed to the allocator */
static double *buf_end;		/* end time per mesh position */
static uint32_t *buf_out;	/* allocator output, map_node_cnt + 1 */
static struct mesh_planner *mplanner;	/* WILL_RUN's earliest-start search */

/* One placement attempt. */
struct mesh_try {
	job_record_t *job_ptr;
	bitstr_t *avail;	/* IN usable nodes; OUT chosen nodes */
	const uint16_t *busy;	/* NULL: ignore current load */
	uint32_t min_nodes, max_nodes, req_nodes;
	uint32_t total_cpus;	/* OUT */
	bool used_contig;	/* OUT: placed by mcontig */
	/* Set once per select_p_job_test call: the job's hints (shape, I/O
	 * intensity, comm; the rest zero).  A decision may make many
	 * attempts (preemption, sharing): the hints are read once. */
	struct mesh_request hints;
	/* Set by _try_begin() for one attempt, whatever the free set: */
	struct mesh_request r;	/* hints, seed, required nodes, flags */
	uint32_t *req;		/* required nodes (mesh indices) or NULL */
	uint32_t avail_cnt;	/* usable nodes, named in the mesh */
	uint32_t cand[2];	/* node counts to try: requested, minimum */
	uint32_t k;		/* OUT: nodes in the last placement */
};

/*
 * A mesh.conf problem: fatal at startup (no mesh yet), an error while a
 * mesh is running (scontrol reconfigure), which then stays in use.
 */
static void _conf_problem(bool is_fatal, const char *what,
			  const struct mesh_diag *d)
{
	char buf[800];

	mesh_diag_format(d, buf, sizeof(buf));
	if (is_fatal)
		fatal("%s: %s: %s", plugin_type, what, buf);
	error("%s: %s: %s; reconfigure ignored mesh.conf, the running mesh and allocator stay in use",
	      plugin_type, what, buf);
}

/* Path of mesh.conf: next to the slurm.conf slurmctld read. */
static void _conf_path(char *buf, size_t len)
{
	const char *sc = slurm_conf.slurm_conf;

	if (!sc)
		sc = getenv("SLURM_CONF");
	if (!sc)	/* Debian's default; slurmctld always sets the above */
		sc = "/etc/slurm/slurm.conf";
	if (mesh_conf_path_near(sc, buf, len))
		fatal("%s: path of mesh.conf next to %s is too long",
		      plugin_type, sc);
}

static void _free_maps(void)
{
	xfree(node2mesh);
	xfree(mesh2node);
	xfree(busy);
	mesh_bitmap_destroy(buf_free);
	buf_free = NULL;
	xfree(buf_end);
	xfree(buf_out);
	mesh_planner_destroy(mplanner);
	mplanner = NULL;
	map_node_cnt = 0;
}

/*
 * --contiguous must get a full sub-mesh.  Unless the configured allocator
 * only ever returns those, keep the first contiguous-only allocator of the
 * registry at hand to ask when the configured one scatters.
 */
static void _create_contig_helper_locked(void)
{
	const struct mesh_alloc_info *info;
	size_t i;

	if (mesh_alloc_flags(mallocator) & MESH_ALLOC_CONTIGUOUS_ONLY)
		return;
	for (i = 0; i < mesh_alloc_count() && !mcontig; i++) {
		info = mesh_alloc_describe(i);
		if ((info->flags & MESH_ALLOC_CONTIGUOUS_ONLY) &&
		    mesh_alloc_create(mconf->topo, info->name, NULL, &mcontig,
				      NULL))
			mcontig = NULL;
	}
	if (mcontig)
		verbose("%s: --contiguous jobs fall back to %s when %s returns a scattered set",
			plugin_type, mesh_alloc_name(mcontig),
			mesh_alloc_name(mallocator));
}

/* Names of the Slurm nodes in index order; xfree() the array. */
static const char **_node_names(int *n)
{
	const char **names = xcalloc(node_record_count + 1, sizeof(*names));
	node_record_t *node_ptr;
	int i;

	*n = 0;
	for (i = 0; (node_ptr = next_node(&i)); i++)
		names[(*n)++] = node_ptr->name;
	return names;
}

/* Index maps and usage array for the configuration c and the current
 * node table (which c has been validated against). */
static void _build_maps_locked(struct mesh_conf *c)
{
	node_record_t *node_ptr;
	uint32_t idx;
	int i;

	_free_maps();
	node2mesh = xcalloc(node_record_count + 1, sizeof(*node2mesh));
	mesh2node = xcalloc(c->topo->nodes, sizeof(*mesh2node));
	for (idx = 0; idx < c->topo->nodes; idx++)
		mesh2node[idx] = -1;
	for (i = 0; (node_ptr = next_node(&i)); i++) {
		(void) mesh_conf_lookup(c, node_ptr->name, &idx);
		node2mesh[i] = idx;
		mesh2node[idx] = i;
	}
	busy = xcalloc(node_record_count + 1, sizeof(*busy));
	map_node_cnt = node_record_count;
	if (mesh_bitmap_create(c->topo->nodes, &buf_free))
		fatal("%s: no memory for a %u-position free map", plugin_type,
		      c->topo->nodes);
	buf_out = xcalloc(map_node_cnt + 1, sizeof(*buf_out));
	if (mesh_planner_create(c->topo, &mplanner))
		fatal("%s: no memory for the earliest-start planner",
		      plugin_type);
	/*
	 * Only positions of Slurm nodes are ever free: the allocators'
	 * per-decision passes then cover the box of those positions, not
	 * the whole mesh (issue 12.4: 32 nodes in Dimensions=2048x2048).
	 */
	for (i = 0; i < map_node_cnt; i++)
		mesh_bitmap_set(buf_free, node2mesh[i]);
	if (mallocator && mesh_alloc_set_usable(mallocator, buf_free))
		error("%s: allocator bound not set", plugin_type);
	if (mcontig && mesh_alloc_set_usable(mcontig, buf_free))
		error("%s: contiguous helper bound not set", plugin_type);
	mesh_bitmap_fill(buf_free, false);
}

/*
 * A reconfigure brought a bad mesh.conf.  Keep the running configuration
 * if it still matches the node table (rebuilding the index maps, which
 * may have moved); otherwise refuse to place jobs until a good file is
 * read, rather than schedule on a wrong mesh.
 * RET 0 if the running configuration stays usable.
 */
static int _keep_running_conf_locked(void)
{
	struct mesh_diag d;
	const char **names;
	int n, rc;

	mesh_diag_clear(&d);
	names = _node_names(&n);
	rc = mesh_conf_validate_nodes(mconf, names, n, &d);
	xfree(names);
	if (rc) {
		char buf[800];

		error("%s: the running mesh.conf no longer matches slurm.conf either (%s): no job is placed until mesh.conf is fixed and scontrol reconfigure succeeds",
		      plugin_type, mesh_diag_format(&d, buf, sizeof(buf)));
		conf_broken = true;
		return -1;
	}
	_build_maps_locked(mconf);
	return 0;
}

/*
 * Load mesh.conf, check it against the node table and build the index
 * maps.  At startup (no mesh yet) any problem is fatal: a wrong mesh must
 * never be scheduled on.  Later (scontrol reconfigure) a problem is
 * logged with file:line:key and the running mesh and allocator are kept.
 * NOTE: caller holds mesh_mutex.
 */
static void _load_conf_locked(void)
{
	struct mesh_conf *c = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_diag d;
	const char **names;
	char path[1024];
	int n, rc;
	bool startup = !mconf;

	_conf_path(path, sizeof(path));
	mesh_diag_clear(&d);
	if (mesh_conf_load(path, &c, &d)) {
		_conf_problem(startup, "bad mesh.conf", &d);
		(void) _keep_running_conf_locked();
		return;
	}
	names = _node_names(&n);
	rc = mesh_conf_validate_nodes(c, names, n, &d);
	xfree(names);
	if (rc) {
		_conf_problem(startup, "mesh.conf does not match slurm.conf", &d);
		mesh_conf_destroy(c);
		(void) _keep_running_conf_locked();
		return;
	}
	if (mesh_alloc_create(c->topo, c->allocator, c->alloc_params, &a, &d)) {
		_conf_problem(startup, "allocator", &d);
		mesh_conf_destroy(c);
		(void) _keep_running_conf_locked();
		return;
	}

	mesh_alloc_destroy(mallocator);
	mesh_alloc_destroy(mcontig);
	mcontig = NULL;
	mesh_conf_destroy(mconf);
	mconf = c;
	mallocator = a;
	conf_broken = false;
	_create_contig_helper_locked();
	_build_maps_locked(c);
	if (c->topo->nodes / 64 > c->n_named)
		info("%s: WARNING: %s: the mesh has %u positions but only %u named nodes; most allocators work on the box of the free nodes, but mbs, mbs-layered, mbs-octet, mbs-granular, paging and mc-elongated scan every position per decision: shrink Dimensions for them",
		     plugin_type, path, c->topo->nodes, c->n_named);
	info("%s: %s: %u nodes in a %dx%dx%d mesh, allocator %s%s%s",
	     plugin_type, path, c->n_named, c->topo->dim[0], c->topo->dim[1],
	     c->topo->dim[2], c->allocator, c->alloc_params ? " " : "",
	     c->alloc_params ? c->alloc_params : "");
}

/* Release what the record holds (not the record: it lives in tracked). */
static void _job_free(struct mesh_job *mj)
{
	FREE_NULL_BITMAP(mj->nodes);
	xfree(mj->idx);
}

/* mj->idx from mj->nodes. */
static void _job_index(struct mesh_job *mj)
{
	int i, n = 0, last = bit_fls(mj->nodes);

	xfree(mj->idx);
	mj->idx = xcalloc(bit_set_count(mj->nodes) + 1, sizeof(*mj->idx));
	for (i = bit_ffs(mj->nodes); i >= 0 && i <= last; i++)
		if (bit_test(mj->nodes, i))
			mj->idx[n++] = i;
	mj->n_idx = n;
}

/* Position of the job in tracked, or -1. */
static int _tracked_find(uint32_t job_id)
{
	int i;

	for (i = 0; i < n_tracked; i++)
		if (tracked[i].job_id == job_id)
			return i;
	return -1;
}

static struct mesh_job *_tracked_get(uint32_t job_id)
{
	int i = _tracked_find(job_id);

	return i < 0 ? NULL : &tracked[i];
}

/* Add a zeroed record; RET it, to be filled in. */
static struct mesh_job *_tracked_append(void)
{
	if (n_tracked == cap_tracked) {
		cap_tracked = cap_tracked ? 2 * cap_tracked : 64;
		xrecalloc(tracked, cap_tracked, sizeof(*tracked));
	}
	memset(&tracked[n_tracked], 0, sizeof(*tracked));
	return &tracked[n_tracked++];
}

/* Free and remove tracked[i], keeping the others' order. */
static void _tracked_remove(int i)
{
	_job_free(&tracked[i]);
	n_tracked--;
	memmove(tracked + i, tracked + i + 1,
		(n_tracked - i) * sizeof(*tracked));
}

/* Forget every tracked job; free_array: release the array too. */
static void _tracked_clear(bool free_array)
{
	while (n_tracked)
		_tracked_remove(n_tracked - 1);
	if (free_array) {
		xfree(tracked);
		cap_tracked = 0;
	}
}

/* Nodes a job holds: its resources minus nodes released by resizing. */
static bitstr_t *_job_nodes(job_record_t *job_ptr)
{
	bitstr_t *b;

	if (!job_ptr->node_bitmap)
		return NULL;
	b = bit_copy(job_ptr->node_bitmap);
	if (job_ptr->job_resrcs && job_ptr->job_resrcs->node_bitmap &&
	    bit_size(job_ptr->job_resrcs->node_bitmap) == bit_size(b))
		bit_and(b, job_ptr->job_resrcs->node_bitmap);
	return b;
}

static void _busy_add(bitstr_t *nodes, int delta)
{
	int i, last = MIN(bit_size(nodes), map_node_cnt);

	for (i = 0; i < last; i++) {
		if (!bit_test(nodes, i))
			continue;
		if (delta > 0)
			busy[i]++;
		else if (busy[i])
			busy[i]--;
	}
}

/*
 * How many jobs (this one included) may hold each of the job's nodes, as
 * select/linear counts it: the partition's OverSubscribe count if the job
 * shares (slurmctld sets share_res for FORCE:N, and for YES:N with
 * --oversubscribe), else 1.
 */
static uint16_t _max_share(job_record_t *job_ptr)
{
	uint16_t m;

	if (!job_ptr->details || job_ptr->details->share_res != 1 ||
	    !job_ptr->part_ptr)
		return 1;
	m = job_ptr->part_ptr->max_share & ~SHARED_FORCE;
	return m > 1 ? m : 1;
}

/* Track a job's nodes; a no-op if already tracked.  Holds mesh_mutex. */
static void _track_add(job_record_t *job_ptr)
{
	struct mesh_job *mj;
	bitstr_t *nodes;

	if (_tracked_find(job_ptr->job_id) >= 0)
		return;
	nodes = _job_nodes(job_ptr);
	if (!nodes)
		return;
	mj = _tracked_append();
	mj->job_id = job_ptr->job_id;
	mj->nodes = nodes;
	_job_index(mj);
	mj->end_time = job_ptr->end_time;
	mj->max_share = _max_share(job_ptr);
	_busy_add(nodes, 1);
}

/* Stop tracking a job; a no-op if unknown.  Holds mesh_mutex. */
static void _track_remove(uint32_t job_id)
{
	int i = _tracked_find(job_id);

	if (i < 0)
		return;
	_busy_add(tracked[i].nodes, -1);
	_tracked_remove(i);
}

/*
 * Rebuild usage from job_list: the running and suspended jobs' nodes.
 * Needs no state file, so restarts and reconfigures are always exact.
 * NOTE: caller holds mesh_mutex; slurmctld holds the job read lock.
 */
static void _rebuild_locked(void)
{
	ListIterator it;
	job_record_t *job_ptr;

	if (!mconf || map_node_cnt != node_record_count)
		_load_conf_locked();
	_tracked_clear(false);
	memset(busy, 0, sizeof(*busy) * (map_node_cnt + 1));
	if (job_list) {
		it = list_iterator_create(job_list);
		while ((job_ptr = list_next(it))) {
			if (IS_JOB_RUNNING(job_ptr) ||
			    IS_JOB_SUSPENDED(job_ptr))
				_track_add(job_ptr);
		}
		list_iterator_destroy(it);
	}
	state_valid = true;
	log_flag(SELECT_TYPE, "%s: usage rebuilt from %d running/suspended jobs",
		 plugin_type, n_tracked);
}

static void _ensure_state_locked(void)
{
	if (!state_valid)
		_rebuild_locked();
}

static const char *_mode_str(uint16_t mode)
{
	if (SELECT_IS_MODE_RUN_NOW(mode))
		return "RUN_NOW";
	if (SELECT_IS_MODE_TEST_ONLY(mode))
		return "TEST_ONLY";
	if (SELECT_IS_MODE_RESV(mode))
		return "RESV";
	return "WILL_RUN";
}

/*
 * End time of every busy mesh position (for walltime-aware allocators),
 * in the shared buffer: O(named nodes + nodes of tracked jobs).
 */
static double *_end_times(const uint16_t *use)
{
	struct mesh_job *mj;
	double *end;
	int i, j, t;

	if (!buf_end)
		buf_end = xcalloc(mconf->topo->nodes, sizeof(*buf_end));
	end = buf_end;
	for (i = 0; i < map_node_cnt; i++)
		end[node2mesh[i]] = 0.0;
	for (t = 0; t < n_tracked; t++) {
		mj = &tracked[t];
		for (j = 0; j < mj->n_idx; j++) {
			i = mj->idx[j];
			if (i < map_node_cnt && use[i] &&
			    (double) mj->end_time > end[node2mesh[i]])
				end[node2mesh[i]] = (double) mj->end_time;
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
	for (i = 0; i < MIN(bit_size(rb), map_node_cnt); i++) {
		if (!bit_test(rb, i))
			continue;
		if (!bit_test(avail, i)) {
			xfree(*req);
			return -1;
		}
		(*req)[n++] = node2mesh[i];
	}
	return n;
}

/*
 * Set in free_map the positions of the Slurm nodes set in avail and not
 * held per busy[] (busy may be NULL: every node in avail is free); clear
 * the other named positions.  Positions without a node are never set.
 * O(named nodes), whatever the size of the mesh.
 */
static void _fill_free_map(bitstr_t *avail, const uint16_t *busy,
			   struct mesh_bitmap *free_map)
{
	int s, n = MIN(map_node_cnt, bit_size(avail));

	for (s = 0; s < map_node_cnt; s++) {
		if (s < n && bit_test(avail, s) && (!busy || !busy[s]))
			mesh_bitmap_set(free_map, node2mesh[s]);
		else
			mesh_bitmap_clear(free_map, node2mesh[s]);
	}
}

/*
 * New mesh free map of the Slurm nodes set in avail and not held per
 * busy[] (busy may be NULL).
 * RET 0, or MESH_ENOMEM with *out untouched.
 */
static int _free_map(bitstr_t *avail, const uint16_t *busy,
		     struct mesh_bitmap **out)
{
	struct mesh_bitmap *free_map = NULL;
	int rc;

	if ((rc = mesh_bitmap_create(mconf->topo->nodes, &free_map)))
		return rc;
	_fill_free_map(avail, busy, free_map);
	*out = free_map;
	return 0;
}

/*
 * Per-job hints (shape, I/O intensity, communication pattern) from the
 * job's SPANK environment (spank_mesh.so, validated at submission), and
 * for what the job does not say, the defaults of mesh.conf.
 * NOTE: caller holds mesh_mutex.
 */
static void _job_hints_locked(job_record_t *job_ptr, struct mesh_request *r)
{
	const struct mesh_job_hints *def = &mconf->hint_defaults;
	struct mesh_job_hints h;
	struct mesh_diag d;
	char buf[512];
	int i;

	mesh_hints_init(&h);
	mesh_diag_clear(&d);
	if (job_ptr->spank_job_env_size &&
	    mesh_hints_from_env((const char *const *) job_ptr->spank_job_env,
				job_ptr->spank_job_env_size, &h, &d)) {
		mesh_diag_format(&d, buf, sizeof(buf));
		error("%s: %pJ: ignoring a bad hint: %s", plugin_type,
		      job_ptr, buf);
	}
	if (!h.shape[0])
		memcpy(h.shape, def->shape, sizeof(h.shape));
	if (h.io_intensity < 0)
		h.io_intensity = def->io_intensity;
	if (h.comm == MESH_COMM_UNKNOWN)
		h.comm = def->comm;
	for (i = 0; i < MESH_MAX_DIMS; i++)
		r->shape[i] = h.shape[i];
	r->io_intensity = h.io_intensity;
	r->comm = h.comm;
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
	rc = mesh_alloc_place(mallocator, v, &r, out);
	/* --contiguous means a full sub-mesh, whatever the allocator does */
	if (!rc && job_ptr->details->contiguous &&
	    !(mesh_alloc_flags(mallocator) & MESH_ALLOC_CONTIGUOUS_ONLY) &&
	    (mesh_metrics_compute(mconf->topo, out, k, &m) ||
	     m.nodes_affected != k))
		rc = MESH_ENOSPC;
	t->used_contig = false;
	if (rc == MESH_ENOSPC && job_ptr->details->contiguous && mcontig) {
		rc = mesh_alloc_place(mcontig, v, &r, out);
		t->used_contig = !rc;
	}
	return rc;
}

/* CPUs the job gets on the chosen nodes (whole nodes). */
static uint32_t _sum_cpus(const uint32_t *out, uint32_t k)
{
	uint32_t i, cpus = 0;

	for (i = 0; i < k; i++)
		cpus += node_record_table_ptr[mesh2node[out[i]]]->config_ptr->cpus;
	return cpus;
}

/*
 * Fewest and most CPUs of a node.  Backfill asks on every WILL_RUN, and
 * a pass over all nodes was about 3% of its thread at 512 nodes, so the
 * range is kept until the node table may have changed.  config_ptr->cpus
 * changes only with the config records: 22.05's reconfigure refuses a new
 * CPU count ("require restart of the slurmctld daemon"), and creating or
 * deleting a dynamic node ends in select_p_reconfigure().  Every
 * reconfigure (select_p_node_init(), select_p_reconfigure()) and node
 * registration (select_p_update_node_config()) drops the range.
 */
static void _node_cpus_range(uint32_t *min, uint32_t *max)
{
	node_record_t *node_ptr;
	int i;

	if (!cpus_range_valid) {
		cpus_range[0] = UINT32_MAX;
		cpus_range[1] = 1;
		for (i = 0; (node_ptr = next_node(&i)); i++) {
			cpus_range[0] = MIN(cpus_range[0],
					    node_ptr->config_ptr->cpus);
			cpus_range[1] = MAX(cpus_range[1],
					    node_ptr->config_ptr->cpus);
		}
		if (cpus_range[0] > cpus_range[1])
			cpus_range[0] = cpus_range[1];
		cpus_range_valid = true;
	}
	*min = cpus_range[0];
	*max = cpus_range[1];
}

static uint32_t _max_node_cpus(void)
{
	uint32_t min, max;

	_node_cpus_range(&min, &max);
	return max;
}

/*
 * What a decision for t needs whatever the free set: the request (hints
 * from select_p_job_test), the required nodes, the node counts to try.
 * RET 0, or -1 if the job cannot be placed on t->avail at any time (a
 * required node is not usable, or too few usable nodes).  Call _try_end()
 * after either.
 */
static int _try_begin(struct mesh_try *t)
{
	job_record_t *job_ptr = t->job_ptr;
	int n_req;

	t->req = NULL;
	t->k = 0;
	/* out[] holds map_node_cnt entries: every node is named in the mesh */
	t->avail_cnt = MIN(bit_set_count(t->avail), map_node_cnt);
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
	return 0;
}

static void _try_end(struct mesh_try *t)
{
	xfree(t->req);
}

/*
 * Choose nodes free in v: first the requested count, then the minimum;
 * grow while the job's CPU minimum is not met.  Needs _try_begin().
 * RET 0 with out[0 .. t->k - 1] and t->total_cpus set, or a MESH_E* code.
 */
static int _choose(struct mesh_try *t, const struct mesh_view *v,
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
		       (t->total_cpus = _sum_cpus(out, k)) < min_cpus) {
			uint32_t more = (min_cpus - t->total_cpus +
					 _max_node_cpus() - 1) /
					_max_node_cpus();

			rc = MESH_ENOSPC;
			if (k + more > MIN(t->max_nodes, t->avail_cnt))
				break;
			k += more;
		}
	}
	t->k = rc ? 0 : k;
	return rc;
}

/* Trim t->avail to the k Slurm nodes of the mesh indices out[]. */
static void _set_chosen(struct mesh_try *t, const uint32_t *out, uint32_t k)
{
	uint32_t i;

	bit_clear_all(t->avail);
	for (i = 0; i < k; i++)
		bit_set(t->avail, mesh2node[out[i]]);
}

/*
 * Choose nodes for the job among t->avail, free under t->busy, now.
 * RET SLURM_SUCCESS with t->avail trimmed to the choice, or SLURM_ERROR
 * with t->avail untouched.
 */
static int _try_place(struct mesh_try *t)
{
	struct mesh_view v;
	int rc = MESH_ENOSPC;

	if (!_try_begin(t)) {
		_fill_free_map(t->avail, t->busy, buf_free);
		v.topo = mconf->topo;
		v.free = buf_free;
		v.end_time = t->busy && (mesh_alloc_flags(mallocator) &
					 MESH_ALLOC_USES_WALLTIME) ?
			_end_times(t->busy) : NULL;
		v.now = (double) time(NULL);
		if (!(rc = _choose(t, &v, buf_out)))
			_set_chosen(t, buf_out, t->k);
	}
	_try_end(t);
	return rc ? SLURM_ERROR : SLURM_SUCCESS;
}

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

static int _cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *) x, b = *(const uint32_t *) y;

	return (a > b) - (a < b);
}

/* Sorted job ids of the list (NULL and 0 when empty); xfree the result. */
static uint32_t *_sorted_ids(List l, int *n)
{
	ListIterator it;
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

static bool _in_ids(const uint32_t *ids, int n, uint32_t job_id)
{
	return n && bsearch(&job_id, ids, n, sizeof(*ids), _cmp_u32);
}

/* Jobs among the candidates whose nodes the chosen set overlaps. */
static void _preemptees(List candidates, bitstr_t *chosen, List *out)
{
	ListIterator it;
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
static uint16_t *_busy_without(List candidates)
{
	uint16_t *use = xcalloc(map_node_cnt + 1, sizeof(*use));
	struct mesh_job *mj;
	uint32_t *ids;
	int i, j, t, n_ids;

	memcpy(use, busy, map_node_cnt * sizeof(*use));
	if (!(ids = _sorted_ids(candidates, &n_ids)))
		return use;
	for (t = 0; t < n_tracked; t++) {
		mj = &tracked[t];
		if (!_in_ids(ids, n_ids, mj->job_id))
			continue;
		for (j = 0; j < mj->n_idx; j++) {
			i = mj->idx[j];
			if (i < map_node_cnt && use[i])
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
 * ended), so the holds are disjoint.  An end time already past counts as
 * now + 1: the job is overdue and may end any moment, but not now.
 * O(named nodes + nodes of tracked jobs).
 * RET the number of holds; xfree *holds and *nodes.
 */
static int _running_holds(List candidates, bitstr_t *avail,
			  const uint16_t *use, time_t now,
			  struct mesh_plan_hold **holds, uint32_t **nodes)
{
	struct mesh_job **jobs = xcalloc(n_tracked + 1, sizeof(*jobs));
	int *owner = xcalloc(map_node_cnt + 1, sizeof(*owner));
	uint32_t *cnt, *fill, *ids, total = 0;
	struct mesh_job *mj;
	job_record_t *j;
	int i, k, t, n = 0, n_ids;

	for (i = 0; i < map_node_cnt; i++)
		owner[i] = -1;
	ids = _sorted_ids(candidates, &n_ids);
	for (t = 0; t < n_tracked; t++) {
		mj = &tracked[t];
		if (_in_ids(ids, n_ids, mj->job_id))
			continue;
		if ((j = find_job_record(mj->job_id)))
			mj->end_time = j->end_time;
		jobs[n] = mj;
		for (k = 0; k < mj->n_idx; k++) {
			i = mj->idx[k];
			if (i >= map_node_cnt || !use[i] ||
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
	for (i = 0; i < map_node_cnt; i++)
		if (owner[i] >= 0) {
			cnt[owner[i]]++;
			total++;
		}
	*holds = xcalloc(n + 1, sizeof(**holds));
	*nodes = xcalloc(total + 1, sizeof(**nodes));
	fill = xcalloc(n + 1, sizeof(*fill));
	for (i = 0, total = 0; i < n; i++) {
		(*holds)[i].start = (double) now;
		(*holds)[i].end = (double) MAX(jobs[i]->end_time, now + 1);
		(*holds)[i].nodes = *nodes + total;
		fill[i] = total;
		total += cnt[i];
	}
	for (i = 0; i < map_node_cnt; i++)
		if (owner[i] >= 0) {
			(*nodes)[fill[owner[i]]++] = node2mesh[i];
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
	return _choose(arg, v, out);
}

/*
 * WILL_RUN: when and where could the job start?  mesh_plan_earliest(),
 * the search of meshsim's conservative backfilling, over now and the
 * running jobs' ends; at each candidate time _choose() decides as
 * RUN_NOW would then (node counts, CPU minimum, contiguous fallback).
 * Preemption candidates count as gone now.  Nothing persistent changes
 * and no job_resrcs are built.
 */
static int _will_run(struct mesh_try *t, List candidates, List *preemptees)
{
	uint16_t *use = _busy_without(candidates);
	time_t now = time(NULL);
	struct mesh_plan_hold *holds = NULL;
	uint32_t *hold_nodes = NULL, cpus_min, cpus_max;
	struct mesh_plan_query q;
	struct mesh_request fewest;
	double start = 0.0;
	int rc = MESH_ENOSPC, n = 0;

	t->busy = use;
	if (!_try_begin(t)) {
		_fill_free_map(t->avail, use, buf_free);
		if (!(t->job_ptr->bit_flags & TEST_NOW_ONLY))
			n = _running_holds(candidates, t->avail, use, now,
					   &holds, &hold_nodes);
		_node_cpus_range(&cpus_min, &cpus_max);
		memset(&q, 0, sizeof(q));
		q.free_now = buf_free;
		q.now = (double) now;
		q.running = holds;
		q.n_running = n;
		if (mesh_alloc_flags(mallocator) & MESH_ALLOC_USES_WALLTIME)
			q.end_time = _end_times(use);
		q.place = _plan_place;
		q.place_arg = t;
		/* nodes added for a CPU minimum on mixed nodes: a larger
		 * free set may need more of them, so no shortcut */
		q.in_order = cpus_min != cpus_max;
		fewest = t->r;
		fewest.nodes = t->cand[1];
		rc = mesh_plan_earliest(mplanner, mallocator, &q, &fewest,
					&start, buf_out);
		if (rc && rc != MESH_ENOSPC)
			error("%s: %pJ: WILL_RUN: %s", plugin_type, t->job_ptr,
			      mesh_strerror(rc));
	}
	if (!rc) {
		_set_chosen(t, buf_out, t->k);
		t->job_ptr->start_time = (time_t) start;
		_preemptees(candidates, t->avail, preemptees);
	}
	_try_end(t);
	xfree(holds);
	xfree(hold_nodes);
	xfree(use);
	return rc ? SLURM_ERROR : SLURM_SUCCESS;
}

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
		if (i >= map_node_cnt || busy[i] || !IS_NODE_COMPLETING(node_ptr) ||
		    IS_NODE_DOWN(node_ptr) || IS_NODE_DRAIN(node_ptr) ||
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
static bool _fits_after_completion(struct mesh_try *t, bitstr_t *orig)
{
	bitstr_t *cg = _completing_nodes(t->job_ptr, orig);
	bool fits;

	if (!cg)
		return false;
	bit_or(cg, orig);
	bit_copybits(t->avail, cg);
	t->busy = busy;
	fits = _try_place(t) == SLURM_SUCCESS;
	log_flag(SELECT_TYPE, "%s: %pJ %s: %d node(s) still completing",
		 plugin_type, t->job_ptr, fits ?
		 "waits instead of preempting more jobs" :
		 "does not fit even after completion",
		 bit_set_count(cg) - bit_set_count(orig));
	bit_copybits(t->avail, orig);
	FREE_NULL_BITMAP(cg);
	return fits;
}

static void _use_sub(uint16_t *use, bitstr_t *nodes)
{
	int i;

	for (i = 0; i < MIN(bit_size(nodes), map_node_cnt); i++)
		if (bit_test(nodes, i) && use[i])
			use[i]--;
}

static void _use_add(uint16_t *use, bitstr_t *nodes)
{
	int i;

	for (i = 0; i < MIN(bit_size(nodes), map_node_cnt); i++)
		if (bit_test(nodes, i))
			use[i]++;
}

/* Try to place with the usage use[], on the nodes of orig. */
static int _place_with(struct mesh_try *t, bitstr_t *orig, uint16_t *use)
{
	bit_copybits(t->avail, orig);
	t->busy = use;
	return _try_place(t);
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
static int _preempt_fewest(struct mesh_try *t, bitstr_t *orig,
			   List candidates, List *preemptees)
{
	int n = list_count(candidates), m = 0, i, last = -1;
	job_record_t **job = xcalloc(n + 1, sizeof(*job));
	struct mesh_job **mj = xcalloc(n + 1, sizeof(*mj));
	uint16_t *use = xcalloc(map_node_cnt + 1, sizeof(*use));
	bool *victim = xcalloc(n + 1, sizeof(*victim));
	ListIterator it = list_iterator_create(candidates);
	job_record_t *j;
	char *names = NULL;
	int rc = SLURM_ERROR;

	while ((j = list_next(it))) {
		if (!IS_JOB_RUNNING(j) && !IS_JOB_SUSPENDED(j))
			continue;
		if (!(mj[m] = _tracked_get(j->job_id)) ||
		    !bit_overlap_any(mj[m]->nodes, orig))
			continue;	/* releasing it cannot help */
		job[m++] = j;
	}
	list_iterator_destroy(it);
	memcpy(use, busy, sizeof(*use) * (map_node_cnt + 1));
	for (i = 0; i < m && rc != SLURM_SUCCESS; i++) {
		_use_sub(use, mj[i]->nodes);
		victim[i] = true;
		if ((rc = _place_with(t, orig, use)) == SLURM_SUCCESS)
			last = i;
	}
	for (i = last - 1; i >= 0; i--) {
		_use_add(use, mj[i]->nodes);
		if (_place_with(t, orig, use) == SLURM_SUCCESS)
			victim[i] = false;
		else
			_use_sub(use, mj[i]->nodes);
	}
	if (last >= 0 && (rc = _place_with(t, orig, use)) == SLURM_SUCCESS) {
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

/*
 * Usage as a sharing job with max_share m sees it: a node is taken if a
 * non-sharing job holds it or m jobs already do; with only_shared, idle
 * nodes count as taken too.
 */
static uint16_t *_share_use(uint16_t m, bool only_shared)
{
	uint16_t *use = xcalloc(map_node_cnt + 1, sizeof(*use));
	int i;

	for (i = 0; i < n_tracked; i++)
		if (tracked[i].max_share <= 1)	/* exclusive holder */
			_use_add(use, tracked[i].nodes);
	for (i = 0; i < map_node_cnt; i++)
		use[i] = (use[i] || busy[i] >= m || (only_shared && !busy[i]));
	return use;
}

/*
 * A sharing job of the same size as a running sharing job takes exactly
 * its nodes if they are all usable (select/linear's "job mate"): jobs
 * that time-slice together keep the same node set.
 */
static int _share_mate(struct mesh_try *t, bitstr_t *orig, uint16_t *use)
{
	struct mesh_job *mj;
	bitstr_t *pick = NULL;
	int i, j, n;

	if (t->job_ptr->details->req_node_bitmap ||
	    t->job_ptr->details->contiguous)
		return SLURM_ERROR;
	for (j = 0; !pick && j < n_tracked; j++) {
		mj = &tracked[j];
		n = bit_set_count(mj->nodes);
		if (mj->max_share <= 1 || n < MAX(t->min_nodes, 1) ||
		    (uint32_t) n > t->max_nodes ||
		    (t->req_nodes > t->min_nodes && (uint32_t) n != t->req_nodes))
			continue;
		pick = mj->nodes;
		for (i = 0; pick && i < MIN(bit_size(pick), map_node_cnt); i++)
			if (bit_test(pick, i) && (use[i] || !bit_test(orig, i)))
				pick = NULL;
	}
	if (!pick)
		return SLURM_ERROR;
	bit_clear_all(t->avail);
	t->total_cpus = 0;
	for (i = 0; i < MIN(bit_size(pick), map_node_cnt); i++) {
		if (!bit_test(pick, i))
			continue;
		bit_set(t->avail, i);
		t->total_cpus += node_record_table_ptr[i]->config_ptr->cpus;
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
static int _run_shared(struct mesh_try *t, bitstr_t *orig, uint16_t m)
{
	uint16_t *use = _share_use(m, false);
	uint16_t *shared_only = _share_use(m, true);
	int rc;

	bit_copybits(t->avail, orig);
	if ((rc = _share_mate(t, orig, use)) != SLURM_SUCCESS &&
	    (rc = _place_with(t, orig, shared_only)) != SLURM_SUCCESS)
		rc = _place_with(t, orig, use);
	log_flag(SELECT_TYPE, "%s: %pJ shares nodes (OverSubscribe %u): %s",
		 plugin_type, t->job_ptr, m,
		 rc == SLURM_SUCCESS ? "placed" : "no placement");
	t->busy = busy;
	xfree(shared_only);
	xfree(use);
	return rc;
}

/*
 * RUN_NOW: place on free nodes.  Only if that fails, preempt the fewest
 * candidates, unless nodes of earlier preemptions are still completing
 * and the job fits once they are free.
 */
static int _run_now(struct mesh_try *t, List candidates, List *preemptees)
{
	bitstr_t *orig = bit_copy(t->avail);
	int rc;
	uint16_t m = _max_share(t->job_ptr);

	t->busy = busy;
	rc = _try_place(t);
	if (rc != SLURM_SUCCESS && m > 1)
		rc = _run_shared(t, orig, m);
	if (rc != SLURM_SUCCESS && candidates && list_count(candidates) &&
	    preemptees && !_fits_after_completion(t, orig))
		rc = _preempt_fewest(t, orig, candidates, preemptees);
	if (rc == SLURM_SUCCESS) {
		_build_resources(t->job_ptr, t->avail);
		/* job_begin follows at once, under the same slurmctld locks */
		contig_job_id = t->used_contig ? t->job_ptr->job_id : 0;
	} else
		bit_copybits(t->avail, orig);
	t->busy = busy;
	FREE_NULL_BITMAP(orig);
	return rc;
}

/*
 * WILL_RUN (backfill) plans a sharing job on idle nodes only (not
 * supported: sharing in backfill's plan).  If such a job could share nodes
 * now but the plan starts it later or never, say so in its pending reason
 * (squeue %r, scontrol Reason=): otherwise it shows Priority or Resources
 * with nothing to tell it apart from a job that truly waits.  slurmctld
 * keeps the text while the reason stays Priority; its RUN_NOW path clears
 * it (node_scheduler.c).  A text of ours that no longer holds is removed.
 * Nothing else of t or the job changes.  (last_job_update is not bumped:
 * slurmd loads this plugin too and has no such symbol; backfill bumps it.)
 */
#define SHARE_DESC_PREFIX "select/mesh: "
static void _note_unplanned_sharing(struct mesh_try *t, bitstr_t *orig,
				    int rc, time_t now)
{
	job_record_t *job_ptr = t->job_ptr;
	uint16_t m = _max_share(job_ptr);
	struct mesh_try saved = *t;
	bitstr_t *keep;
	time_t start = job_ptr->start_time;
	bool note = false;

	if (m > 1 && (rc != SLURM_SUCCESS || job_ptr->start_time > now)) {
		keep = bit_copy(t->avail);
		note = _run_shared(t, orig, m) == SLURM_SUCCESS;
		*t = saved;
		bit_copybits(t->avail, keep);
		FREE_NULL_BITMAP(keep);
		job_ptr->start_time = start;
	}
	if (note) {
		xfree(job_ptr->state_desc);
		xstrfmtcat(job_ptr->state_desc,
			   SHARE_DESC_PREFIX "could share nodes now (OverSubscribe %u), but backfill plans sharing jobs on idle nodes only; the main scheduler starts it when it reaches it",
			   m);
	} else if (job_ptr->state_desc &&
		   !xstrncmp(job_ptr->state_desc, SHARE_DESC_PREFIX,
			     strlen(SHARE_DESC_PREFIX)))
		xfree(job_ptr->state_desc);
}

/*
 * init() is called in every client and daemon that loads the plugin:
 * only slurmctld may touch controller state, and it does so lazily.
 */
extern int init(void)
{
	if (running_in_slurmctld())
		verbose("%s: %s loaded (plugin_id %u)", plugin_type,
			plugin_name, plugin_id);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	slurm_mutex_lock(&mesh_mutex);
	_tracked_clear(true);
	mesh_alloc_destroy(mallocator);
	mallocator = NULL;
	mesh_alloc_destroy(mcontig);
	mcontig = NULL;
	mesh_conf_destroy(mconf);
	mconf = NULL;
	_free_maps();
	state_valid = false;
	slurm_mutex_unlock(&mesh_mutex);
	if (running_in_slurmctld())
		cr_fini_global_core_data();
	return SLURM_SUCCESS;
}

/* No state file: usage is rebuilt from job_list (see _rebuild_locked). */
extern int select_p_state_save(char *dir_name)
{
	return SLURM_SUCCESS;
}

extern int select_p_state_restore(char *dir_name)
{
	return SLURM_SUCCESS;
}

extern int select_p_job_init(List job_list_arg)
{
	slurm_mutex_lock(&mesh_mutex);
	state_valid = false;
	slurm_mutex_unlock(&mesh_mutex);
	return SLURM_SUCCESS;
}

/*
 * Called at startup and at every reconfigure, once the node table is
 * final.  (Re)reads mesh.conf.  A bad file stops slurmctld at startup; on
 * reconfigure it is logged and the running mesh is kept.  Always returns
 * SLURM_SUCCESS: slurmctld calls fatal() on any other value, even on
 * reconfigure (read_config.c), and ignores select_p_reconfigure()'s.
 */
/*
 * Say per partition what OverSubscribe means here, and warn about what is
 * not supported: memory is not accounted, and backfill's WILL_RUN plans a
 * sharing job as if it needed idle nodes (the main scheduler shares).
 */
static void _log_sharing(void)
{
	ListIterator it;
	part_record_t *p;
	uint16_t m;

	if (!part_list)
		return;
	it = list_iterator_create(part_list);
	while ((p = list_next(it))) {
		m = p->max_share & ~SHARED_FORCE;
		if (m <= 1)
			continue;
		error("%s: partition %s OverSubscribe=%s:%u: whole nodes are shared by up to %u jobs%s; not supported: memory limits (CR_Memory) between sharing jobs, and backfill plans sharing jobs as if they needed idle nodes",
			plugin_type, p->name,
			(p->max_share & SHARED_FORCE) ? "FORCE" : "YES", m, m,
			(p->max_share & SHARED_FORCE) ? "" :
			" (jobs submitted with --oversubscribe)");
	}
	list_iterator_destroy(it);
}

extern int select_p_node_init(void)
{
	_log_sharing();
	slurm_mutex_lock(&mesh_mutex);
	_load_conf_locked();
	state_valid = false;
	cpus_range_valid = false;
	cr_init_global_core_data(node_record_table_ptr, node_record_count);
	slurm_mutex_unlock(&mesh_mutex);
	return SLURM_SUCCESS;
}

/*
 * Backfill asks WILL_RUN for every pending job in every cycle, and most
 * answers repeat the last one (issue 12.5: about 100,000 decision lines
 * for a 1,000-job stream, written with the scheduler's locks held).
 * Under DebugFlags=SelectType a job's WILL_RUN answer is therefore logged
 * only when it differs from the last one logged for that job; the next
 * logged line counts the repeats it left out.  Slots are per job id
 * modulo the table size; a collision only costs an extra line.
 */
#define WILL_RUN_LOG_SLOTS 4096
static struct {
	uint32_t job_id;
	uint32_t answer;	/* hash of rc, start time and nodes */
	uint32_t repeats;	/* identical answers not logged since */
} will_run_log[WILL_RUN_LOG_SLOTS];

static uint32_t _fnv(uint32_t h, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (uint32_t) (v & 0xff)) * 16777619u;
	return h;
}

static uint32_t _will_run_answer(int rc, time_t start, bitstr_t *bitmap)
{
	uint32_t h = _fnv(2166136261u, (uint64_t) rc);
	bitoff_t i, last;

	h = _fnv(h, (uint64_t) start);
	if (rc)
		return h;
	last = bit_fls(bitmap);
	for (i = bit_ffs(bitmap); i >= 0 && i <= last; i++)
		if (bit_test(bitmap, i))
			h = _fnv(h, (uint64_t) i);
	return h;
}

/*
 * Whether to log this decision; *skipped is set to the repeats left out
 * before it.  Callers hold mesh_mutex.
 */
static bool _log_decision_locked(job_record_t *job_ptr, uint16_t mode,
				 int rc, bitstr_t *bitmap, uint32_t *skipped)
{
	uint32_t slot = job_ptr->job_id % WILL_RUN_LOG_SLOTS, answer;

	*skipped = 0;
	if (!SELECT_IS_MODE_WILL_RUN(mode))
		return true;
	answer = _will_run_answer(rc, job_ptr->start_time, bitmap);
	if (will_run_log[slot].job_id == job_ptr->job_id &&
	    will_run_log[slot].answer == answer) {
		will_run_log[slot].repeats++;
		return false;
	}
	if (will_run_log[slot].job_id == job_ptr->job_id)
		*skipped = will_run_log[slot].repeats;
	will_run_log[slot].job_id = job_ptr->job_id;
	will_run_log[slot].answer = answer;
	will_run_log[slot].repeats = 0;
	return true;
}

/*
 * select_p_job_test - choose whole nodes for a job with the mesh allocator
 * IN/OUT job_ptr - job to place; start_time is set in WILL_RUN mode
 * IN/OUT bitmap - usable nodes on input, the chosen nodes on success
 * IN min_nodes, max_nodes, req_nodes - node counts
 * IN mode - SELECT_MODE_RUN_NOW, SELECT_MODE_TEST_ONLY or
 *	SELECT_MODE_WILL_RUN (also used for reservations)
 * IN preemptee_candidates - jobs that may be preempted, or NULL
 * IN/OUT preemptee_job_list - jobs to preempt for this placement
 * IN exc_core_bitmap - ignored: whole nodes only
 * RET SLURM_SUCCESS or EINVAL (no placement)
 */
extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     List preemptee_candidates,
			     List *preemptee_job_list,
			     bitstr_t *exc_core_bitmap)
{
	struct mesh_try t;
	char *nodes = NULL;
	uint32_t skipped = 0;
	int rc;

	if (!job_ptr || !job_ptr->details || !bitmap)
		return EINVAL;
	if (job_ptr->gres_list_req && list_count(job_ptr->gres_list_req)) {
		log_flag(SELECT_TYPE, "%s: %pJ requests GRES, which select/mesh does not allocate",
			 plugin_type, job_ptr);
		return EINVAL;
	}
	memset(&t, 0, sizeof(t));
	t.job_ptr = job_ptr;
	t.avail = bitmap;
	t.min_nodes = min_nodes;
	t.max_nodes = max_nodes ? max_nodes : INFINITE;
	t.req_nodes = req_nodes;

	slurm_mutex_lock(&mesh_mutex);
	_ensure_state_locked();
	if (conf_broken) {
		slurm_mutex_unlock(&mesh_mutex);
		log_flag(SELECT_TYPE, "%s: %pJ not placed: no valid mesh.conf (see the error at the last reconfigure)",
			 plugin_type, job_ptr);
		return EINVAL;
	}
	t.hints.io_intensity = -1.0;
	_job_hints_locked(job_ptr, &t.hints);
	if (SELECT_IS_MODE_TEST_ONLY(mode)) {
		rc = _try_place(&t);
	} else if (SELECT_IS_MODE_RUN_NOW(mode)) {
		rc = _run_now(&t, preemptee_candidates, preemptee_job_list);
	} else {
		bitstr_t *orig = bit_copy(bitmap);

		rc = _will_run(&t, preemptee_candidates, preemptee_job_list);
		_note_unplanned_sharing(&t, orig, rc, time(NULL));
		FREE_NULL_BITMAP(orig);
	}
	if (rc == SLURM_SUCCESS)
		job_ptr->total_cpus = t.total_cpus;
	if ((slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE) &&
	    _log_decision_locked(job_ptr, mode, rc, bitmap, &skipped)) {
		nodes = rc ? NULL : bitmap2node_name(bitmap);
		log_flag(SELECT_TYPE, "%s: %pJ mode=%s nodes=%u-%u/%u alloc=%s hints shape=%dx%dx%d io-intensity=%.2f comm=%s -> %s start=%ld repeats_not_logged=%u",
			 plugin_type, job_ptr, _mode_str(mode), min_nodes,
			 max_nodes, req_nodes, mconf->allocator,
			 t.hints.shape[0], t.hints.shape[1], t.hints.shape[2],
			 t.hints.io_intensity, mesh_comm_name(t.hints.comm),
			 rc ? "no placement" : nodes,
			 (long) (SELECT_IS_MODE_WILL_RUN(mode) ?
				 job_ptr->start_time : 0), skipped);
		xfree(nodes);
	}
	slurm_mutex_unlock(&mesh_mutex);
	return rc == SLURM_SUCCESS ? SLURM_SUCCESS : EINVAL;
}

/* Write "mesh:v1 alloc=... bbox=WxHxD sumdist=S avgdist=A diam=D". */
static void _set_comment(job_record_t *job_ptr, bitstr_t *nodes)
{
	struct mesh_metrics m;
	uint32_t *idx = xcalloc(bit_size(nodes) + 1, sizeof(*idx));
	char *c = NULL;
	size_t n = 0;
	int i;

	for (i = 0; i < MIN(bit_size(nodes), map_node_cnt); i++)
		if (bit_test(nodes, i))
			idx[n++] = node2mesh[i];
	if (n && !mesh_metrics_compute(mconf->topo, idx, n, &m)) {
		xstrfmtcat(c, "%salloc=%s bbox=%dx%dx%d sumdist=%" PRIu64 " avgdist=%.2f diam=%d",
			   MESH_COMMENT_PREFIX,
			   job_ptr->job_id == contig_job_id && mcontig ?
			   mesh_alloc_name(mcontig) : mconf->allocator,
			   m.bbox[0],
			   m.bbox[1], m.bbox[2], m.sum_pairwise,
			   m.avg_pairwise, m.diameter);
		select_mesh_jobinfo_set_placement(
			job_ptr, c + strlen(MESH_COMMENT_PREFIX));
		/* Keep a comment someone else wrote; replace our own. */
		if (job_ptr->system_comment &&
		    xstrncmp(job_ptr->system_comment, "mesh:", 5))
			xstrfmtcat(job_ptr->system_comment, " %s", c);
		else {
			xfree(job_ptr->system_comment);
			job_ptr->system_comment = c;
			c = NULL;
		}
		log_flag(SELECT_TYPE, "%s: %pJ begins: %s", plugin_type,
			 job_ptr, job_ptr->system_comment);
	}
	xfree(c);
	xfree(idx);
}

extern int select_p_job_begin(job_record_t *job_ptr)
{
	bitstr_t *nodes;

	slurm_mutex_lock(&mesh_mutex);
	_ensure_state_locked();
	_track_add(job_ptr);
	nodes = _job_nodes(job_ptr);
	if (nodes)
		_set_comment(job_ptr, nodes);
	FREE_NULL_BITMAP(nodes);
	slurm_mutex_unlock(&mesh_mutex);
	return SLURM_SUCCESS;
}

extern int select_p_job_ready(job_record_t *job_ptr)
{
	node_record_t *node_ptr;
	int i;

	if (!IS_JOB_RUNNING(job_ptr) && !IS_JOB_SUSPENDED(job_ptr))
		return 0;
	if (!job_ptr->node_bitmap)
		return READY_NODE_STATE;
	for (i = 0; i < bit_size(job_ptr->node_bitmap); i++) {
		if (!bit_test(job_ptr->node_bitmap, i) ||
		    !(node_ptr = node_record_table_ptr[i]))
			continue;
		if (IS_NODE_POWERED_DOWN(node_ptr) ||
		    IS_NODE_POWERING_UP(node_ptr))
			return 0;
	}
	return READY_NODE_STATE;
}

/* Merge from_job's nodes into to_job (scontrol update ... NumNodes). */
extern int select_p_job_expand(job_record_t *from_job_ptr,
			       job_record_t *to_job_ptr)
{
	slurm_mutex_lock(&mesh_mutex);
	/* slurmctld has already merged the records; take them as they are */
	state_valid = false;
	slurm_mutex_unlock(&mesh_mutex);
	return SLURM_SUCCESS;
}

/* One node was removed from a running job. */
extern int select_p_job_resized(job_record_t *job_ptr,
				node_record_t *node_ptr)
{
	struct mesh_job *mj;

	slurm_mutex_lock(&mesh_mutex);
	if (state_valid &&
	    (mj = _tracked_get(job_ptr->job_id)) &&
	    node_ptr->index < bit_size(mj->nodes) &&
	    bit_test(mj->nodes, node_ptr->index)) {
		bit_clear(mj->nodes, node_ptr->index);
		_job_index(mj);
		if (busy[node_ptr->index])
			busy[node_ptr->index]--;
	}
	slurm_mutex_unlock(&mesh_mutex);
	return SLURM_SUCCESS;
}

extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	return SLURM_SUCCESS;
}

extern int select_p_job_fini(job_record_t *job_ptr)
{
	slurm_mutex_lock(&mesh_mutex);
	if (state_valid)
		_track_remove(job_ptr->job_id);
	slurm_mutex_unlock(&mesh_mutex);
	log_flag(SELECT_TYPE, "%s: %pJ released its nodes", plugin_type,
		 job_ptr);
	return SLURM_SUCCESS;
}

/* Only an indefinite (admin) suspend releases the nodes. */
/*
 * A suspended job keeps its nodes: whole-node jobs do not share, so
 * giving them away would put two jobs on one node at resume (select/linear
 * likewise keeps tot_job_cnt and so never offers them to exclusive jobs).
 * This also matches _rebuild_locked(), which counts suspended jobs.
 */
extern int select_p_job_suspend(job_record_t *job_ptr, bool indf_susp)
{
	log_flag(SELECT_TYPE, "%s: %pJ suspended (indf=%d); its nodes stay allocated",
		 plugin_type, job_ptr, indf_susp);
	return SLURM_SUCCESS;
}

extern int select_p_job_resume(job_record_t *job_ptr, bool indf_susp)
{
	log_flag(SELECT_TYPE, "%s: %pJ resumed (indf=%d)", plugin_type,
		 job_ptr, indf_susp);
	return SLURM_SUCCESS;
}

extern bitstr_t *select_p_step_pick_nodes(job_record_t *job_ptr,
					  select_jobinfo_t *jobinfo,
					  uint32_t node_count,
					  bitstr_t **avail_nodes)
{
	return NULL;
}

extern int select_p_step_start(step_record_t *step_ptr)
{
	return SLURM_SUCCESS;
}

extern int select_p_step_finish(step_record_t *step_ptr, bool killing_step)
{
	return SLURM_SUCCESS;
}

extern int select_p_select_nodeinfo_set(job_record_t *job_ptr)
{
	slurm_mutex_lock(&mesh_mutex);
	_ensure_state_locked();
	slurm_mutex_unlock(&mesh_mutex);
	return SLURM_SUCCESS;
}

/*
 * SELECT_CR_PLUGIN = 0: whole-node semantics.  SELECT_SINGLE_JOB_TEST = 1:
 * slurmctld must offer all usable nodes at once, because the mesh
 * placement is global (node sets by weight would split it).
 */
extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	switch (dinfo) {
	case SELECT_CR_PLUGIN:
		*(uint32_t *) data = 0;
		break;
	case SELECT_SINGLE_JOB_TEST:
		*(uint32_t *) data = 1;
		break;
	default:
		break;
	}
	return SLURM_SUCCESS;
}

/* A node registered. */
extern int select_p_update_node_config(int index)
{
	slurm_mutex_lock(&mesh_mutex);
	cpus_range_valid = false;
	slurm_mutex_unlock(&mesh_mutex);
	return SLURM_SUCCESS;
}

/* Partitions or nodes changed: rebuild usage on next use. */
extern int select_p_reconfigure(void)
{
	slurm_mutex_lock(&mesh_mutex);
	state_valid = false;
	cpus_range_valid = false;
	slurm_mutex_unlock(&mesh_mutex);
	return SLURM_SUCCESS;
}

/* Reservations also get a compact mesh placement. */
extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt, bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	uint32_t *out;
	bitstr_t *pick = NULL;
	struct mesh_bitmap *free_map = NULL;
	struct mesh_request r;
	struct mesh_view v;
	uint32_t i;

	slurm_mutex_lock(&mesh_mutex);
	if (!mconf || conf_broken || !node_cnt ||
	    bit_set_count(avail_bitmap) < node_cnt ||
	    _free_map(avail_bitmap, NULL, &free_map)) {
		slurm_mutex_unlock(&mesh_mutex);
		return NULL;
	}
	memset(&r, 0, sizeof(r));
	r.nodes = node_cnt;
	r.io_intensity = -1.0;
	v.topo = mconf->topo;
	v.free = free_map;
	v.end_time = NULL;
	v.now = (double) time(NULL);
	out = xcalloc(node_cnt, sizeof(*out));
	if (!mesh_alloc_place(mallocator, &v, &r, out)) {
		pick = bit_alloc(bit_size(avail_bitmap));
		for (i = 0; i < node_cnt; i++)
			bit_set(pick, mesh2node[out[i]]);
	}
	xfree(out);
	mesh_bitmap_destroy(free_map);
	slurm_mutex_unlock(&mesh_mutex);
	return pick;
}
