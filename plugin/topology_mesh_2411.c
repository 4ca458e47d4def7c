/*****************************************************************************\
 *  topology_mesh_2411.c - topology/mesh's entry points on Slurm 24.11.
 *
 *  24.11 asks a topology plugin for fourteen operations.  topology/mesh
 *  ranks the nodes along mesh.conf's curve (as on 22.05) and chooses each
 *  job's nodes inside cons_tres with mesh.conf's allocator
 *  (topology_mesh_eval.c); everything else is what topology/default does.
 *  No switch records or blocks are built.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  topology_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/hostlist.h"
#include "src/common/pack.h"
#include "src/interfaces/topology.h"
#include "src/plugins/topology/common/common_topo.h"

#include "topology_mesh.h"
#include "topology_mesh_eval.h"

/* Unique among topology plugins (Slurm's are 100-103); packed with the
 * topology info: never change it. */
const uint32_t plugin_id = 190;

extern int fini(void)
{
	tm_eval_fini();
	return tm_fini();
}

extern int topology_p_build_config(void)
{
	return SLURM_SUCCESS;
}

extern int topology_p_eval_nodes(topology_eval_t *topo_eval)
{
	return tm_eval_nodes(topo_eval);
}

extern int topology_p_whole_topo(bitstr_t *node_mask)
{
	return SLURM_SUCCESS;
}

extern bitstr_t *topology_p_get_bitmap(char *name)
{
	return NULL;
}

extern bool topology_p_generate_node_ranking(void)
{
	return tm_generate_node_ranking();
}

extern int topology_p_get_node_addr(char *node_name, char **paddr,
				    char **ppattern)
{
	return common_topo_get_node_addr(node_name, paddr, ppattern);
}

extern int topology_p_split_hostlist(hostlist_t *hl, hostlist_t ***sp_hl,
				     int *count, uint16_t tree_width)
{
	return common_topo_split_hostlist_treewidth(hl, sp_hl, count,
						    tree_width);
}

extern int topology_p_topology_free(void *topoinfo_ptr)
{
	return SLURM_SUCCESS;
}

extern int topology_p_get(topology_data_t type, void *data)
{
	return SLURM_SUCCESS;
}

extern int topology_p_topology_pack(void *topoinfo_ptr, buf_t *buffer,
				    uint16_t protocol_version)
{
	return SLURM_SUCCESS;
}

extern int topology_p_topology_print(void *topoinfo_ptr, char *nodes_list,
				     char **out)
{
	*out = NULL;
	return SLURM_SUCCESS;
}

extern int topology_p_topology_unpack(void **topoinfo_pptr, buf_t *buffer,
				      uint16_t protocol_version)
{
	return SLURM_SUCCESS;
}

extern uint32_t topology_p_get_fragmentation(bitstr_t *node_mask)
{
	return 0;
}
