/*****************************************************************************\
 *  topology_mesh_eval.h - mesh placement inside cons_tres (24.05+).
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  topology_mesh.c for the full notice.
\*****************************************************************************/

#ifndef _TOPOLOGY_MESH_EVAL_H
#define _TOPOLOGY_MESH_EVAL_H

#include "src/interfaces/topology.h"

#include "topology_mesh.h"

/* topology_p_eval_nodes: choose the job's nodes with mesh.conf's
 * allocator among those cons_tres accepts (topology_mesh_eval.c). */
extern int tm_eval_nodes(topology_eval_t *topo_eval) TM_HIDDEN;

/* Free the maps and buffers (plugin fini). */
extern void tm_eval_fini(void) TM_HIDDEN;

#endif
