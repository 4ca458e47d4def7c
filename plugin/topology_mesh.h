/*****************************************************************************\
 *  topology_mesh.h - what topology_mesh.c gives the entry points of each
 *  Slurm release (topology_mesh_<series>.c).
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  topology_mesh.c for the full notice.
\*****************************************************************************/

#ifndef _TOPOLOGY_MESH_H
#define _TOPOLOGY_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "mesh/mesh.h"

#define TM_HIDDEN __attribute__((visibility("hidden")))

/* Whether topology/mesh chooses nodes itself (eval_nodes, Slurm 24.05+)
 * or only ranks them for the stock selectors. */
#define TM_PLACES (SM_SLURM_SERIES >= 2411)

/* Set node_rank of every node along mesh.conf's curve; false if there is
 * no usable mesh.conf (the node table keeps its order). */
extern bool tm_generate_node_ranking(void) TM_HIDDEN;

/* Free the running mesh.conf, ranks and allocators (the plugin's fini,
 * in topology_mesh_<series>.c, calls it last). */
extern int tm_fini(void) TM_HIDDEN;

/* The running mesh.conf, NULL before a good one. */
extern const struct mesh_conf *tm_conf(void) TM_HIDDEN;

/* Its allocator; for a --contiguous job, a contiguous-only one when
 * mesh.conf's is not. */
extern struct mesh_allocator *tm_alloc(bool contiguous) TM_HIDDEN;

/* Changes at every ranking (slurmctld re-sorts its node table after it):
 * maps from node index to mesh index built before are stale. */
extern uint32_t tm_generation(void) TM_HIDDEN;

#endif
