/*****************************************************************************\
 *  select_mesh_2205.c - select/mesh's entry points that only Slurm 22.05
 *  has, or whose prototype changed after it.
 *
 *  The rest of the plugin is the same on every release (compat/compat.h);
 *  this file adapts it to 22.05's select API: job_test without
 *  resv_exc_t/will_run_data_t, and job_signal, update_node_config,
 *  resv_test, jobinfo_sprint and jobinfo_xstrdup, which 23.02 removed.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include <stdio.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/slurm_xlator.h"	/* Must be first */
#include "src/common/bitstring.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "compat/compat.h"
#include "select_mesh.h"

/* See sm_job_test(); exc_core_bitmap matters only to cons_tres below. */
extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     list_t *preemptee_candidates,
			     list_t **preemptee_job_list,
			     bitstr_t *exc_core_bitmap)
{
	return sm_job_test(job_ptr, bitmap, min_nodes, max_nodes, req_nodes,
			   mode, preemptee_candidates, preemptee_job_list,
			   exc_core_bitmap);
}

extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	sm_layer_ops_t *o = sm_other();

	return o ? o->job_signal(job_ptr, signal) : SLURM_SUCCESS;
}

/*
 * Whole nodes: SELECT_CR_PLUGIN = 0 (whole-node semantics) and
 * SELECT_SINGLE_JOB_TEST = 1: slurmctld must offer all usable nodes at
 * once, because the mesh placement is global; node Weight is honoured in
 * job_test (sm_choose()).  Over cons_tres, cons_tres answers (CONS_TRES,
 * and 1 for SINGLE_JOB_TEST as well).
 */
extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	sm_layer_ops_t *o = sm_other();

	if (o)
		return o->get_info_from_plugin(dinfo, job_ptr, data);
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
	sm_layer_ops_t *o = sm_other();

	sm_node_config_changed();
	return o ? o->update_node_config(index) : SLURM_SUCCESS;
}

/*
 * Reservations get a compact mesh placement of whole nodes; over
 * cons_tres, cons_tres places them (CoreCnt, its core bitmaps).
 */
extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt, bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	sm_layer_ops_t *o = sm_other();

	if (o)
		return o->resv_test(resv_desc_ptr, node_cnt, avail_bitmap,
				    core_bitmap);
	return sm_resv_pick(node_cnt, avail_bitmap);
}

/* squeue's %s / -O SelectJobInfo: the placement summary. */
static const char *_jobinfo_text(select_jobinfo_t *jobinfo, int mode)
{
	switch (mode) {
	case SELECT_PRINT_HEAD:
		return "PLACEMENT";
	case SELECT_PRINT_DATA:
	case SELECT_PRINT_MIXED:
	case SELECT_PRINT_MIXED_SHORT:
		if (jobinfo && jobinfo->magic == JOBINFO_MAGIC &&
		    jobinfo->placement)
			return jobinfo->placement;
		return "";
	default:
		return "";
	}
}

extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo,
					    char *buf, size_t size, int mode)
{
	if (buf && size) {
		snprintf(buf, size, "%s", _jobinfo_text(jobinfo, mode));
		return buf;
	}
	return NULL;
}

extern char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *jobinfo,
					     int mode)
{
	const char *t = _jobinfo_text(jobinfo, mode);

	return *t ? xstrdup(t) : NULL;
}
