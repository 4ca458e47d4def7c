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

/* Set node_rank of every node along mesh.conf's curve; false if there is
 * no usable mesh.conf (the node table keeps its order). */
extern bool tm_generate_node_ranking(void)
	__attribute__((visibility("hidden")));

#endif
