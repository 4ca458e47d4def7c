/*****************************************************************************\
 *  select_mesh_other_none.c - the layer below select/mesh on releases
 *  without OTHER_CONS_TRES (24.05+): none.  On 22.05 select_mesh_other.c
 *  loads cons_tres there.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include "slurm/slurm.h"

#include "src/common/slurm_xlator.h"	/* Must be first */
#include "src/slurmctld/slurmctld.h"

#include "compat/compat.h"
#include "select_mesh.h"

/* No layer below select/mesh on 24.11 (OTHER_CONS_TRES is gone). */
extern const char *sm_other_type(void)
{
	return NULL;
}

extern sm_layer_ops_t *sm_other(void)
{
	return NULL;
}

extern void sm_other_fini(void)
{
}
