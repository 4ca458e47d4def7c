/*****************************************************************************\
 *  topology_mesh_2205.c - topology/mesh's entry points on Slurm 22.05
 *  (topo_*; 23.02 renamed them topology_p_*).
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

#include "src/common/xstring.h"

#include "topology_mesh.h"

extern int fini(void)
{
	return tm_fini();
}

/* Switch records would make select/linear and cons_tres use their tree
 * algorithms: build none. */
extern int topo_build_config(void)
{
	return SLURM_SUCCESS;
}

extern bool topo_generate_node_ranking(void)
{
	return tm_generate_node_ranking();
}

extern int topo_get_node_addr(char *node_name, char **paddr, char **ppattern)
{
	if (!node_name)
		return SLURM_ERROR;
	*paddr = xstrdup(node_name);
	*ppattern = xstrdup("node");
	return SLURM_SUCCESS;
}
