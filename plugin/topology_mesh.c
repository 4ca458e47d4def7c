/*****************************************************************************\
 *  topology_mesh.c - node ranking along a space-filling curve of the mesh
 *  described in mesh.conf, for the stock select/linear and
 *  select/cons_tres.
 *
 *  slurmctld sorts its node table by node_rank when a topology plugin
 *  ranks nodes, and both stock selectors walk nodes in that order, so they
 *  allocate consecutive stretches of the curve.  No switch records are
 *  built: they would switch the stock selectors to their tree algorithms.
 *  See doc/topology-mesh.md.
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

#include <stdio.h>
#include <stdlib.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "mesh/mesh.h"
#include "job_hints.h"
#include "topology_mesh.h"

const char plugin_name[] = "Mesh/torus curve node ranking plugin";
const char plugin_type[] = "topology/mesh";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* Rank of each mesh index along the curve of the last good mesh.conf,
 * kept so that a bad mesh.conf at reconfigure keeps the running order. */
static uint32_t *mesh_rank;
static uint32_t mesh_rank_cnt;
static struct mesh_conf *mconf;
/* mesh.conf's allocator, and a contiguous-only one for --contiguous jobs
 * when it is not (NULL then): eval_nodes places with them (24.05+). */
static struct mesh_allocator *alloc, *contig;
/* Bumped at every ranking: slurmctld re-sorts its node table after it. */
static uint32_t generation;

extern int init(void)
{
	verbose("%s loaded", plugin_name);
	return SLURM_SUCCESS;
}

extern int tm_fini(void)
{
	xfree(mesh_rank);
	mesh_rank_cnt = 0;
	mesh_alloc_destroy(alloc);
	mesh_alloc_destroy(contig);
	alloc = contig = NULL;
	mesh_conf_destroy(mconf);
	mconf = NULL;
	mesh_job_hints_fini();
	return SLURM_SUCCESS;
}

extern const struct mesh_conf *tm_conf(void)
{
	return mconf;
}

extern struct mesh_allocator *tm_alloc(bool contiguous)
{
	return contiguous && contig ? contig : alloc;
}

extern uint32_t tm_generation(void)
{
	return generation;
}

/* At startup a problem is fatal (no order yet); at reconfigure it is
 * logged and the running mesh.conf stays in use. */
static void _conf_problem(bool is_fatal, const char *what,
			  const struct mesh_diag *d)
{
	char buf[1024];

	mesh_diag_format(d, buf, sizeof(buf));
	if (is_fatal)
		fatal("%s: %s: %s", plugin_type, what, buf);
	error("%s: %s: %s; reconfigure ignored mesh.conf, the running node order stays in use",
	      plugin_type, what, buf);
}

/* Load mesh.conf and the curve ranks; false if the old ones stay. */
static bool _load_conf(void)
{
	struct mesh_conf *c = NULL;
	struct mesh_allocator *a = NULL, *ca = NULL;
	struct mesh_diag d;
	const char **names;
	const char *sc = slurm_conf.slurm_conf;
	uint32_t *order, *rank, r;
	char path[1024];
	int i, n = 0, rc;
	bool startup = !mconf;

	if (!sc)
		sc = getenv("SLURM_CONF");
	if (!sc)
		sc = "/etc/slurm/slurm.conf";
	if (mesh_conf_path_near(sc, path, sizeof(path)))
		fatal("%s: path of mesh.conf next to %s is too long",
		      plugin_type, sc);
	mesh_diag_clear(&d);
	if (mesh_conf_load(path, &c, &d)) {
		_conf_problem(startup, "bad mesh.conf", &d);
		return false;
	}
	names = xcalloc(node_record_count + 1, sizeof(*names));
	for (i = 0; i < node_record_count; i++)
		if (node_record_table_ptr[i])
			names[n++] = node_record_table_ptr[i]->name;
	rc = mesh_conf_validate_nodes(c, names, n, &d);
	xfree(names);
	if (rc) {
		_conf_problem(startup, "mesh.conf does not match slurm.conf",
			      &d);
		mesh_conf_destroy(c);
		return false;
	}
	order = xcalloc(c->topo->nodes, sizeof(*order));
	rank = xcalloc(c->topo->nodes, sizeof(*rank));
	if (mesh_curve_order(c->topo, c->curve, order)) {
		/* conf.c has ordered this mesh with this curve already */
		mesh_diag_set(&d, MESH_EINVAL, path, 0, "Curve",
			      "cannot order the mesh");
		_conf_problem(startup, "curve", &d);
		xfree(order);
		xfree(rank);
		mesh_conf_destroy(c);
		return false;
	}
	if (mesh_alloc_create(c->topo, c->allocator, c->alloc_params, &a,
			      &d)) {
		_conf_problem(startup, "allocator", &d);
		xfree(order);
		xfree(rank);
		mesh_conf_destroy(c);
		return false;
	}
	if (!(mesh_alloc_flags(a) & MESH_ALLOC_CONTIGUOUS_ONLY))
		(void) mesh_alloc_create_contiguous(c->topo, &ca);
	for (r = 0; r < c->topo->nodes; r++)
		rank[order[r]] = r;
	xfree(order);
	xfree(mesh_rank);
	mesh_alloc_destroy(alloc);
	mesh_alloc_destroy(contig);
	mesh_conf_destroy(mconf);
	mesh_rank = rank;
	mesh_rank_cnt = c->topo->nodes;
	mconf = c;
	alloc = a;
	contig = ca;
	info("%s: %s: %u nodes ranked along the %s curve of a %dx%dx%d mesh%s%s",
	     plugin_type, path, c->n_named, mesh_curve_name(c->curve),
	     c->topo->dim[0], c->topo->dim[1], c->topo->dim[2],
	     TM_PLACES ? ", placed by " : "", TM_PLACES ? c->allocator : "");
	return true;
}

/*
 * The node ranking of every release: called by slurmctld's
 * read_slurm_conf() at startup and every reconfigure, before it sorts the
 * node table by node_rank.
 */
extern bool tm_generate_node_ranking(void)
{
	node_record_t *node_ptr;
	uint32_t idx;
	int i;

	(void) _load_conf();
	generation++;
	if (!mconf)
		return false;
	for (i = 0; i < node_record_count; i++) {
		node_ptr = node_record_table_ptr[i];
		if (!node_ptr)
			continue;
		if (mesh_conf_lookup(mconf, node_ptr->name, &idx) ||
		    idx >= mesh_rank_cnt) {
			/* only after a rejected reconfigure that added
			 * nodes: put them after the mesh, by name order */
			error("%s: node %s is not in the running mesh.conf; ranked last",
			      plugin_type, node_ptr->name);
			node_ptr->node_rank = mesh_rank_cnt + i;
			continue;
		}
		node_ptr->node_rank = mesh_rank[idx];
		debug2("%s: %s rank %u", plugin_type, node_ptr->name,
		       node_ptr->node_rank);
	}
	return true;
}
