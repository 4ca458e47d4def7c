/*****************************************************************************\
 *  select_mesh_2411.c - select/mesh's entry points whose prototype or
 *  meaning is Slurm 24.11's.
 *
 *  The rest of the plugin is the same on every release (compat/compat.h).
 *  24.11 passes job_test a resv_exc_t and a will_run_data_t, has no
 *  job_signal, update_node_config, resv_test or jobinfo printing (squeue's
 *  SelectJobInfo is gone: the placement is in SystemComment), and no
 *  OTHER_CONS_TRES, so select/mesh has no layer below it here.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/slurm_xlator.h"	/* Must be first */
#include "src/common/bitstring.h"
#include "src/slurmctld/slurmctld.h"

#include "compat/compat.h"
#include "select_mesh.h"

/*
 * See sm_job_test().  Reservations come here too, in WILL_RUN mode with a
 * job of their own (23.02 dropped resv_test).  will_run_ptr's window is
 * backfill's: select/mesh's planner finds the earliest start itself, and
 * the nodes offered are those backfill found free in the window.
 */
extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     list_t *preemptee_candidates,
			     list_t **preemptee_job_list,
			     resv_exc_t *resv_exc_ptr,
			     will_run_data_t *will_run_ptr)
{
	return sm_job_test(job_ptr, bitmap, min_nodes, max_nodes, req_nodes,
			   mode, preemptee_candidates, preemptee_job_list,
			   resv_exc_ptr ? resv_exc_ptr->core_bitmap : NULL);
}

/* Whole-node semantics (SELECT_CR_PLUGIN = 0). */
extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	if (dinfo == SELECT_CR_PLUGIN)
		*(uint32_t *) data = 0;
	return SLURM_SUCCESS;
}
