/*****************************************************************************\
 *  select_mesh_conf.c - select/mesh configuration: mesh.conf,
 *  the allocator, the Slurm <-> mesh index maps and the per-decision buffers
 *  sized by them, and what changes at scontrol reconfigure.
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
 * A mesh.conf problem: fatal at startup (no mesh yet), an error while a
 * mesh is running (scontrol reconfigure on 22.05), which then stays in
 * use.  Since 23.11 a reconfigure starts a new slurmctld process with
 * SLURMCTLD_RECONF set: there the problem is fatal too, and a forked
 * slurmctld then resumes with its old configuration.
 */
static void _conf_problem(bool is_fatal, const char *what,
			  const struct mesh_diag *d)
{
	char buf[1024];

	mesh_diag_format(d, buf, sizeof(buf));
	if (is_fatal && getenv("SLURMCTLD_RECONF"))
		fatal("%s: %s: %s; this reconfigure stops here (a forked slurmctld keeps running with the mesh it had, one under -D ends)",
		      plugin_type, what, buf);
	if (is_fatal)
		fatal("%s: %s: %s", plugin_type, what, buf);
	error("%s: %s: %s; reconfigure ignored mesh.conf, the running mesh and allocator stay in use",
	      plugin_type, what, buf);
}

/*
 * One decision on the idle mesh (a quarter of its nodes), timed: a
 * slow allocator (Gen-Alg, MM on a large mesh) runs this long under
 * slurmctld's locks per decision, and a WILL_RUN scan repeats it.
 */
static void _time_one_decision_locked(struct mesh_conf *c,
				      struct mesh_allocator *a)
{
	struct mesh_bitmap *all = NULL; /* every node, no hole */
	struct mesh_request r;
	struct timespec t0, t1;
	uint32_t *out, i;
	double ms;
	int rc;

	if (mesh_bitmap_create(c->topo->nodes, &all))
		return;
	for (i = 0; i < c->topo->nodes; i++)
		if (c->node_name[i])
			mesh_bitmap_set(all, i);
	memset(&r, 0, sizeof(r));
	r.nodes = MAX(c->n_named / 4, 1);
	r.end_time = -1;
	r.io_intensity = -1;
	out = xcalloc(r.nodes, sizeof(*out));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = mesh_alloc_place(a, &(struct mesh_view){ c->topo, all, NULL, 0 },
			      &r, out);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = 1e3 * (double) (t1.tv_sec - t0.tv_sec) +
	     1e-6 * (double) (t1.tv_nsec - t0.tv_nsec);
	if (rc == 0 && ms > 1.0)
		error("%s: allocator %s is slow: %.1f ms for one %u-node decision on the idle mesh; every decision runs under slurmctld's job and node locks, and a WILL_RUN scan makes up to PlanMaxPlacements=%zu of them (cut at PlanMaxTime=%g s)",
		      plugin_type, c->allocator, ms, r.nodes,
		      c->plan_max_places, c->plan_max_seconds);
	else
		debug("%s: allocator %s: one %u-node decision on the idle mesh took %.3f ms",
		      plugin_type, c->allocator, r.nodes, ms);
	xfree(out);
	mesh_bitmap_destroy(all);
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

extern void sm_conf_free_maps(void)
{
	xfree(sm.node2mesh);
	xfree(sm.mesh2node);
	xfree(sm.busy);
	mesh_bitmap_destroy(sm.buf_free);
	sm.buf_free = NULL;
	mesh_bitmap_destroy(sm.buf_tier);
	sm.buf_tier = NULL;
	xfree(sm.buf_end);
	xfree(sm.buf_out);
	mesh_planner_destroy(sm.planner);
	sm.planner = NULL;
	sm.node_cnt = 0;
}

/*
 * --contiguous must get a full sub-mesh.  Unless the configured allocator
 * only ever returns those, keep the first contiguous-only allocator of the
 * registry at hand to ask when the configured one scatters.
 */
static void _create_contig_helper_locked(void)
{
	if ((mesh_alloc_flags(sm.alloc) & MESH_ALLOC_CONTIGUOUS_ONLY) ||
	    mesh_alloc_create_contiguous(sm.conf->topo, &sm.contig))
		return;
	verbose("%s: --contiguous jobs fall back to %s when %s returns a scattered set",
		plugin_type, mesh_alloc_name(sm.contig),
		mesh_alloc_name(sm.alloc));
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

	sm_conf_free_maps();
	sm.node2mesh = xcalloc(node_record_count + 1, sizeof(*sm.node2mesh));
	sm.mesh2node = xcalloc(c->topo->nodes, sizeof(*sm.mesh2node));
	for (idx = 0; idx < c->topo->nodes; idx++)
		sm.mesh2node[idx] = -1;
	/* Holes in the node table (deleted dynamic nodes) map nowhere. */
	for (i = 0; i <= node_record_count; i++)
		sm.node2mesh[i] = SM_NO_POS;
	for (i = 0; (node_ptr = next_node(&i)); i++) {
		(void) mesh_conf_lookup(c, node_ptr->name, &idx);
		sm.node2mesh[i] = idx;
		sm.mesh2node[idx] = i;
	}
	sm.busy = xcalloc(node_record_count + 1, sizeof(*sm.busy));
	sm.node_cnt = node_record_count;
	if (mesh_bitmap_create(c->topo->nodes, &sm.buf_free) ||
	    mesh_bitmap_create(c->topo->nodes, &sm.buf_tier))
		fatal("%s: no memory for a %u-position free map", plugin_type,
		      c->topo->nodes);
	sm.buf_out = xcalloc(sm.node_cnt + 1, sizeof(*sm.buf_out));
	if (mesh_planner_create(c->topo, &sm.planner))
		fatal("%s: no memory for the earliest-start planner",
		      plugin_type);
	/*
	 * Only positions of Slurm nodes are ever free: the allocators'
	 * per-decision passes then cover the box of those positions, not
	 * the whole mesh (issue 12.4: 32 nodes in Dimensions=2048x2048).
	 */
	for (i = 0; i < sm.node_cnt; i++)
		if (sm.node2mesh[i] != SM_NO_POS)
			mesh_bitmap_set(sm.buf_free, sm.node2mesh[i]);
	if (sm.alloc && mesh_alloc_set_usable(sm.alloc, sm.buf_free))
		error("%s: allocator bound not set", plugin_type);
	if (sm.contig && mesh_alloc_set_usable(sm.contig, sm.buf_free))
		error("%s: contiguous helper bound not set", plugin_type);
	mesh_bitmap_fill(sm.buf_free, false);
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
	rc = mesh_conf_validate_nodes(sm.conf, names, n, &d);
	xfree(names);
	if (rc) {
		char buf[1024];

		error("%s: the running mesh.conf no longer matches slurm.conf either (%s): no job is placed until mesh.conf is fixed and scontrol reconfigure succeeds",
		      plugin_type, mesh_diag_format(&d, buf, sizeof(buf)));
		sm.conf_broken = true;
		return -1;
	}
	_build_maps_locked(sm.conf);
	return 0;
}

/*
 * True if a takes a sparse path on the mesh of t whose only free
 * positions are those of usable: it crops to the box of the free nodes,
 * or reads the free nodes instead of scanning an order.  Found by trying
 * one decision and reading mesh_alloc_sparse_count(), so the registry's
 * own knowledge decides, not a list kept here.
 */
static bool _takes_sparse_path(struct mesh_allocator *a,
			       const struct mesh_topo *t,
			       const struct mesh_bitmap *usable)
{
	unsigned long before = mesh_alloc_sparse_count(a);
	struct mesh_request r;
	struct mesh_view v;
	uint32_t out[1];

	if (mesh_alloc_set_usable(a, usable))
		return false;
	memset(&r, 0, sizeof(r));
	r.nodes = 1;
	r.io_intensity = -1.0;
	v.topo = t;
	v.free = usable;
	v.end_time = NULL;
	v.now = 0.0;
	(void) mesh_alloc_place(a, &v, &r, out);
	return mesh_alloc_sparse_count(a) > before;
}

/*
 * The allocators of the registry that take a sparse path: tried on a
 * small sparse probe mesh of the same dimensionality (4,096 positions,
 * 4 free nodes and an I/O node), since the path is the allocator's trait,
 * not the mesh's.  xfree() the result.
 */
static char *_sparse_allocators(int ndims)
{
	int dim[MESH_MAX_DIMS] = { 64, 64, 1 };
	struct mesh_topo *t = NULL;
	struct mesh_bitmap *usable = NULL;
	struct mesh_allocator *a;
	uint32_t io = 0, i;
	char *list = NULL;
	size_t k;

	if (ndims == 3)
		dim[0] = dim[1] = dim[2] = 16;
	if (mesh_topo_create(ndims, dim, NULL, &t) ||
	    mesh_topo_set_io_nodes(t, &io, 1) ||
	    mesh_bitmap_create(t->nodes, &usable)) {
		mesh_topo_destroy(t);
		return xstrdup("(none found)");
	}
	for (i = 0; i < 4; i++)
		mesh_bitmap_set(usable, i);
	for (k = 0; k < mesh_alloc_count(); k++) {
		a = NULL;
		if (mesh_alloc_create(t, mesh_alloc_describe(k)->name, NULL,
				      &a, NULL))
			continue;
		if (_takes_sparse_path(a, t, usable))
			xstrfmtcat(list, "%s%s", list ? ", " : "",
				   mesh_alloc_name(a));
		mesh_alloc_destroy(a);
	}
	mesh_bitmap_destroy(usable);
	mesh_topo_destroy(t);
	return list ? list : xstrdup("(none found)");
}

/*
 * A sparse mesh (more than 64 positions per named node, e.g. 16 nodes in
 * Dimensions=2048x2048) with an allocator that scans every position per
 * decision (mbs on 2048x2048: 60 times select/linear's CPU) is refused,
 * with the reason and the allocators that suit it.
 * RET true with d filled if refused.
 */
static bool _sparse_refused(struct mesh_conf *c, struct mesh_allocator *a,
			    const char *path, struct mesh_diag *d)
{
	struct mesh_bitmap *usable = NULL;
	const char **names;
	uint32_t idx;
	char *suited;
	bool scans;
	int n, i;

	if (c->topo->nodes / 64 <= c->n_named ||
	    mesh_bitmap_create(c->topo->nodes, &usable))
		return false;
	names = _node_names(&n);
	for (i = 0; i < n; i++)
		if (!mesh_conf_lookup(c, names[i], &idx))
			mesh_bitmap_set(usable, idx);
	xfree(names);
	scans = !_takes_sparse_path(a, c->topo, usable);
	(void) mesh_alloc_set_usable(a, NULL);
	mesh_bitmap_destroy(usable);
	if (!scans)
		return false;
	suited = _sparse_allocators(c->topo->ndims);
	error("%s: %s: allocators that work on the free nodes of a sparse mesh: %s",
	      plugin_type, path, suited);
	xfree(suited);
	mesh_diag_set(d, MESH_EINVAL, path, 0, "Allocator",
		      "%s scans all %u positions per decision, but the mesh names only %u nodes; use Dimensions that fit the nodes or an allocator of the line before",
		      c->allocator, c->topo->nodes, c->n_named);
	return true;
}

/*
 * Load mesh.conf, check it against the node table and build the index
 * maps.  At startup (no mesh yet) any problem is fatal: a wrong mesh must
 * never be scheduled on.  Later (scontrol reconfigure) a problem is
 * logged with file:line:key and the running mesh and allocator are kept.
 * NOTE: caller holds mesh_mutex.
 */
extern void sm_conf_load_locked(void)
{
	struct mesh_conf *c = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_diag d;
	const char **names;
	char path[1024];
	int n, rc;
	bool startup = !sm.conf;

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
	if (_sparse_refused(c, a, path, &d)) {
		_conf_problem(startup, "allocator", &d);
		mesh_alloc_destroy(a);
		mesh_conf_destroy(c);
		(void) _keep_running_conf_locked();
		return;
	}

	mesh_alloc_destroy(sm.alloc);
	mesh_alloc_destroy(sm.contig);
	sm.contig = NULL;
	mesh_conf_destroy(sm.conf);
	sm.conf = c;
	sm.alloc = a;
	sm.conf_broken = false;
	_create_contig_helper_locked();
	_build_maps_locked(c);
	_time_one_decision_locked(c, a);
	info("%s: %s: %u nodes in a %dx%dx%d mesh, allocator %s%s%s",
	     plugin_type, path, c->n_named, c->topo->dim[0], c->topo->dim[1],
	     c->topo->dim[2], c->allocator, c->alloc_params ? " " : "",
	     c->alloc_params ? c->alloc_params : "");
}


/*
 * Say per partition what OverSubscribe means here, and warn about what is
 * not supported: memory is not accounted, and backfill's WILL_RUN plans a
 * sharing job on idle nodes unless it can share now.
 */
extern void sm_conf_log_sharing(void)
{
	list_itr_t *it;
	part_record_t *p;
	uint16_t m;

	if (!part_list)
		return;
	it = list_iterator_create(part_list);
	while ((p = list_next(it))) {
		m = p->max_share & ~SHARED_FORCE;
		if (m <= 1)
			continue;
		error("%s: partition %s OverSubscribe=%s:%u: whole nodes are shared by up to %u jobs%s; not supported: memory limits (CR_Memory) between sharing jobs, and backfill plans a sharing job on idle nodes unless it can share now",
			plugin_type, p->name,
			(p->max_share & SHARED_FORCE) ? "FORCE" : "YES", m, m,
			(p->max_share & SHARED_FORCE) ? "" :
			" (jobs submitted with --oversubscribe)");
	}
	list_iterator_destroy(it);
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
extern void sm_node_cpus_range(uint32_t *min, uint32_t *max)
{
	node_record_t *node_ptr;
	int i;

	if (!sm.cpus_range_valid) {
		sm.cpus_range[0] = UINT32_MAX;
		sm.cpus_range[1] = 1;
		for (i = 0; (node_ptr = next_node(&i)); i++) {
			sm.cpus_range[0] = MIN(sm.cpus_range[0],
					    node_ptr->config_ptr->cpus);
			sm.cpus_range[1] = MAX(sm.cpus_range[1],
					    node_ptr->config_ptr->cpus);
		}
		if (sm.cpus_range[0] > sm.cpus_range[1])
			sm.cpus_range[0] = sm.cpus_range[1];
		sm.cpus_range_valid = true;
	}
	*min = sm.cpus_range[0];
	*max = sm.cpus_range[1];
}

extern uint32_t sm_max_node_cpus(void)
{
	uint32_t min, max;

	sm_node_cpus_range(&min, &max);
	return max;
}
