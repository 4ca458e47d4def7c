/*****************************************************************************\
 *  select_mesh.c - node selection plugin for mesh and torus machines.
 *
 *  Node choice is delegated to the slurm-mesh allocator library; the plugin
 *  is the Slurm glue: usage tracking, the RUN_NOW / TEST_ONLY / WILL_RUN
 *  modes, job_resrcs, and the placement summary in SystemComment.  It
 *  allocates whole nodes, or, on Slurm 22.05 with SelectTypeParameters=
 *  OTHER_CONS_TRES, layers over select/cons_tres, which allocates cores,
 *  memory and GRES within the nodes the allocator chose
 *  (select_mesh_layer.c).
 *  mesh.conf (next to slurm.conf) maps node names to coordinates and names
 *  the allocator; see mesh.conf(5) and doc/select-mesh.md.  This file holds
 *  the plugin's entry points; select_mesh.h lists the files behind them.
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

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/slurm_xlator.h"	/* Must be first */
#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/job_resources.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/run_in_daemon.h"
#include "compat/compat.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "mesh/mesh.h"
#include "job_hints.h"
#include "select_mesh.h"

/*
 * Data symbols that only slurmctld defines.  Tentative definitions keep
 * the dlopen in clients and slurmd working; in slurmctld the executable's
 * exported definitions interpose them (see doc/select-mesh.md).
 */
slurm_conf_t slurm_conf;
node_record_t **node_record_table_ptr;
list_t *job_list;
list_t *part_list;
int node_record_count;
time_t last_node_update;

const char plugin_name[] = "Mesh/torus node selection plugin";
const char plugin_type[] = "select/mesh";
/* Unique and >= 100, outside Slurm's 101-110; packed into saved state:
 * never change it. */
const uint32_t plugin_id = 190;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* Everything in sm is protected by mesh_mutex. */
static pthread_mutex_t mesh_mutex = PTHREAD_MUTEX_INITIALIZER;
struct sm_state sm;

/*
 * init() is called in every client and daemon that loads the plugin:
 * only slurmctld may touch controller state, and it does so lazily.  The
 * layer below (OTHER_CONS_TRES) is loaded on first use.
 */
extern int init(void)
{
	if (running_in_slurmctld())
		verbose("%s: %s loaded (plugin_id %u)%s%s", plugin_type,
			plugin_name, plugin_id, sm_other_type() ? " over " : "",
			sm_other_type() ? sm_other_type() : "");
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	slurm_mutex_lock(&mesh_mutex);
	sm_tracked_clear(true);
	mesh_alloc_destroy(sm.alloc);
	sm.alloc = NULL;
	mesh_alloc_destroy(sm.contig);
	sm.contig = NULL;
	mesh_conf_destroy(sm.conf);
	sm.conf = NULL;
	sm_conf_free_maps();
	sm.state_valid = false;
	slurm_mutex_unlock(&mesh_mutex);
	mesh_job_hints_fini();
	if (running_in_slurmctld() && !sm_other_type())
		cr_fini_global_core_data();
	sm_other_fini();
	return SLURM_SUCCESS;
}

/* No state file: usage is rebuilt from job_list (see _rebuild_locked). */
extern int select_p_state_save(char *dir_name)
{
	sm_layer_ops_t *o = sm_other();

	return o ? o->state_save(dir_name) : SLURM_SUCCESS;
}

extern int select_p_state_restore(char *dir_name)
{
	sm_layer_ops_t *o = sm_other();

	return o ? o->state_restore(dir_name) : SLURM_SUCCESS;
}

extern int select_p_job_init(list_t *job_list_arg)
{
	sm_layer_ops_t *o = sm_other();

	slurm_mutex_lock(&mesh_mutex);
	sm.state_valid = false;
	slurm_mutex_unlock(&mesh_mutex);
	return o ? o->job_init(job_list_arg) : SLURM_SUCCESS;
}

/*
 * Called at startup and at every reconfigure, once the node table is
 * final.  (Re)reads mesh.conf.  A bad file stops slurmctld at startup; on
 * reconfigure it is logged and the running mesh is kept.  Always returns
 * SLURM_SUCCESS: slurmctld calls fatal() on any other value, even on
 * reconfigure (read_config.c), and ignores select_p_reconfigure()'s.
 * Over cons_tres, cons_tres's own node_init follows.
 */
extern int select_p_node_init(void)
{
	sm_layer_ops_t *o;

	o = sm_other();
	if (!o)
		sm_conf_log_sharing();
	slurm_mutex_lock(&mesh_mutex);
	sm_conf_load_locked();
	sm.state_valid = false;
	sm.cpus_range_valid = false;
	if (!o)
		cr_init_global_core_data(node_record_table_ptr,
					 node_record_count);
	slurm_mutex_unlock(&mesh_mutex);
	return o ? o->node_init() : SLURM_SUCCESS;
}

/* Whole nodes: the mesh allocator, OverSubscribe, preemption, planning. */
static int _job_test_whole(struct mesh_try *t, uint16_t mode,
			   list_t *candidates, list_t **preemptees)
{
	int rc;

	if (t->job_ptr->gres_list_req &&
	    list_count(t->job_ptr->gres_list_req)) {
		log_flag(SELECT_TYPE, "%s: %pJ requests GRES, which select/mesh allocates only over cons_tres (SelectTypeParameters=OTHER_CONS_TRES)",
			 plugin_type, t->job_ptr);
		return SLURM_ERROR;
	}
	if (SELECT_IS_MODE_TEST_ONLY(mode)) {
		rc = sm_try_place(t);
	} else if (SELECT_IS_MODE_RUN_NOW(mode)) {
		rc = sm_run_now(t, candidates, preemptees);
	} else {
		bitstr_t *orig = bit_copy(t->avail);
		list_t *plan = NULL;

		rc = sm_will_run(t, candidates, preemptees ? &plan : NULL);
		rc = sm_plan_sharing_now(t, orig, rc, &plan);
		if (preemptees && plan && list_count(plan)) {
			if (!*preemptees)
				*preemptees = list_create(NULL);
			list_transfer(*preemptees, plan);
		}
		FREE_NULL_LIST(plan);
		FREE_NULL_BITMAP(orig);
	}
	if (rc == SLURM_SUCCESS)
		t->job_ptr->total_cpus = t->total_cpus;
	return rc;
}

/*
 * sm_job_test - select_p_job_test of every release: choose nodes for a job
 * with the mesh allocator
 * IN/OUT job_ptr - job to place; start_time is set in WILL_RUN mode
 * IN/OUT bitmap - usable nodes on input, the chosen nodes on success
 * IN min_nodes, max_nodes, req_nodes - node counts
 * IN mode - SELECT_MODE_RUN_NOW, SELECT_MODE_TEST_ONLY or
 *	SELECT_MODE_WILL_RUN (also used for reservations)
 * IN preemptee_candidates - jobs that may be preempted, or NULL
 * IN/OUT preemptee_job_list - jobs to preempt for this placement
 * IN exc_core_bitmap - cores of reservations: for cons_tres below, else
 *	ignored (whole nodes)
 * RET SLURM_SUCCESS or EINVAL (no placement)
 * NOTE: over cons_tres, cons_tres builds job_resrcs and total_cpus on the
 *	nodes the allocator chose (select_mesh_layer.c).
 */
extern int sm_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
		       uint32_t min_nodes, uint32_t max_nodes,
		       uint32_t req_nodes, uint16_t mode,
		       list_t *preemptee_candidates,
		       list_t **preemptee_job_list, bitstr_t *exc_core_bitmap)
{
	struct mesh_try t;
	uint32_t offered;
	int rc;

	if (!job_ptr || !job_ptr->details || !bitmap)
		return EINVAL;
	offered = sm_log_offered(bitmap);
	memset(&t, 0, sizeof(t));
	t.job_ptr = job_ptr;
	t.avail = bitmap;
	t.min_nodes = min_nodes;
	t.max_nodes = max_nodes ? max_nodes : INFINITE;
	t.req_nodes = req_nodes;
	t.exc_cores = exc_core_bitmap;

	slurm_mutex_lock(&mesh_mutex);
	sm_ensure_state_locked();
	if (sm.conf_broken) {
		slurm_mutex_unlock(&mesh_mutex);
		log_flag(SELECT_TYPE, "%s: %pJ not placed: no valid mesh.conf (see the error at the last reconfigure)",
			 plugin_type, job_ptr);
		return EINVAL;
	}
	t.hints.io_intensity = -1.0;
	sm_job_hints_locked(job_ptr, &t.hints);
	if (sm_other())
		rc = sm_layer_job_test(&t, mode, preemptee_candidates,
				       preemptee_job_list);
	else
		rc = _job_test_whole(&t, mode, preemptee_candidates,
				     preemptee_job_list);
	sm_log_decision_locked(job_ptr, mode, offered, rc, bitmap, min_nodes,
			       max_nodes, req_nodes, &t.hints);
	sm_try_free(&t);
	slurm_mutex_unlock(&mesh_mutex);
	return rc == SLURM_SUCCESS ? SLURM_SUCCESS : EINVAL;
}

extern int select_p_job_begin(job_record_t *job_ptr)
{
	sm_layer_ops_t *o = sm_other();
	bitstr_t *nodes;
	int rc;

	/* The layer below refused: slurmctld leaves the job queued, so it
	 * is not tracked here either. */
	if (o && (rc = o->job_begin(job_ptr)) != SLURM_SUCCESS)
		return rc;
	slurm_mutex_lock(&mesh_mutex);
	sm_ensure_state_locked();
	sm_track_add(job_ptr);
	nodes = sm_job_nodes(job_ptr);
	if (nodes)
		sm_set_comment(job_ptr, nodes, "begins");
	FREE_NULL_BITMAP(nodes);
	slurm_mutex_unlock(&mesh_mutex);
	return SLURM_SUCCESS;
}

extern int select_p_job_ready(job_record_t *job_ptr)
{
	sm_layer_ops_t *o = sm_other();
	node_record_t *node_ptr;
	int i;

	if (o)
		return o->job_ready(job_ptr);
	if (!IS_JOB_RUNNING(job_ptr) && !IS_JOB_SUSPENDED(job_ptr))
		return 0;
	if (!job_ptr->node_bitmap)
		return READY_NODE_STATE;
	for (i = 0; i < bit_size(job_ptr->node_bitmap); i++) {
		if (!bit_test(job_ptr->node_bitmap, i) ||
		    !(node_ptr = node_record_table_ptr[i]))
			continue;
		if (IS_NODE_POWERED_DOWN(node_ptr) ||
		    IS_NODE_POWERING_UP(node_ptr))
			return 0;
	}
	return READY_NODE_STATE;
}

/* Merge from_job's nodes into to_job (scontrol update ... NumNodes). */
extern int select_p_job_expand(job_record_t *from_job_ptr,
			       job_record_t *to_job_ptr)
{
	sm_layer_ops_t *o = sm_other();
	int rc = o ? o->job_expand(from_job_ptr, to_job_ptr) : SLURM_SUCCESS;

	slurm_mutex_lock(&mesh_mutex);
	/* slurmctld has already merged the records; take them as they are */
	sm.state_valid = false;
	slurm_mutex_unlock(&mesh_mutex);
	return rc;
}

/*
 * One node was removed from a running job (scontrol update NumNodes=):
 * release it, and recompute the placement summary (SystemComment and
 * jobinfo) for the nodes the job keeps.
 */
extern int select_p_job_resized(job_record_t *job_ptr,
				node_record_t *node_ptr)
{
	sm_layer_ops_t *o = sm_other();
	int rc = o ? o->job_resized(job_ptr, node_ptr) : SLURM_SUCCESS;
	struct mesh_job *mj;

	slurm_mutex_lock(&mesh_mutex);
	if (sm.state_valid &&
	    (mj = sm_tracked_get(job_ptr->job_id)) &&
	    node_ptr->index < MIN(bit_size(mj->nodes), sm.node_cnt) &&
	    bit_test(mj->nodes, node_ptr->index)) {
		bit_clear(mj->nodes, node_ptr->index);
		sm_job_index(mj);
		if (sm.busy[node_ptr->index])
			sm.busy[node_ptr->index]--;
		sm_set_comment(job_ptr, mj->nodes, "resized");
	}
	slurm_mutex_unlock(&mesh_mutex);
	return rc;
}

extern int select_p_job_fini(job_record_t *job_ptr)
{
	sm_layer_ops_t *o = sm_other();
	int rc = o ? o->job_fini(job_ptr) : SLURM_SUCCESS;

	slurm_mutex_lock(&mesh_mutex);
	if (sm.state_valid)
		sm_track_remove(job_ptr->job_id);
	slurm_mutex_unlock(&mesh_mutex);
	log_flag(SELECT_TYPE, "%s: %pJ released its nodes", plugin_type,
		 job_ptr);
	return rc;
}

/*
 * A suspended job keeps its nodes, also after an admin suspend
 * (indf_susp): whole-node jobs do not share, so giving the nodes away
 * would put two jobs on one node at resume.  select/linear does give
 * them away on an admin suspend (its _rm_job_from_nodes), and two jobs
 * then run on the same nodes after resume; doc/select-mesh.md says why
 * select/mesh does not.  This also matches _rebuild_locked(), which
 * counts suspended jobs.  Over cons_tres, cons_tres decides, as alone.
 */
extern int select_p_job_suspend(job_record_t *job_ptr, bool indf_susp)
{
	sm_layer_ops_t *o = sm_other();

	log_flag(SELECT_TYPE, "%s: %pJ suspended (indf=%d)%s", plugin_type,
		 job_ptr, indf_susp,
		 o ? "" : "; its nodes stay allocated");
	return o ? o->job_suspend(job_ptr, indf_susp) : SLURM_SUCCESS;
}

extern int select_p_job_resume(job_record_t *job_ptr, bool indf_susp)
{
	sm_layer_ops_t *o = sm_other();

	log_flag(SELECT_TYPE, "%s: %pJ resumed (indf=%d)", plugin_type,
		 job_ptr, indf_susp);
	return o ? o->job_resume(job_ptr, indf_susp) : SLURM_SUCCESS;
}

extern bitstr_t *select_p_step_pick_nodes(job_record_t *job_ptr,
					  select_jobinfo_t *jobinfo,
					  uint32_t node_count,
					  bitstr_t **avail_nodes)
{
	sm_layer_ops_t *o = sm_other();

	return o ? o->step_pick_nodes(job_ptr, jobinfo ? jobinfo->other : NULL,
				      node_count, avail_nodes) : NULL;
}

extern int select_p_step_start(step_record_t *step_ptr)
{
	sm_layer_ops_t *o = sm_other();

	return o ? o->step_start(step_ptr) : SLURM_SUCCESS;
}

extern int select_p_step_finish(step_record_t *step_ptr, bool killing_step)
{
	sm_layer_ops_t *o = sm_other();

	return o ? o->step_finish(step_ptr, killing_step) : SLURM_SUCCESS;
}

extern int select_p_select_nodeinfo_set(job_record_t *job_ptr)
{
	sm_layer_ops_t *o = sm_other();

	slurm_mutex_lock(&mesh_mutex);
	sm_ensure_state_locked();
	slurm_mutex_unlock(&mesh_mutex);
	return o ? o->nodeinfo_set(job_ptr) : SLURM_SUCCESS;
}

/* Partitions or nodes changed: rebuild usage on next use. */
extern int select_p_reconfigure(void)
{
	sm_layer_ops_t *o = sm_other();

	slurm_mutex_lock(&mesh_mutex);
	sm.state_valid = false;
	sm.cpus_range_valid = false;
	slurm_mutex_unlock(&mesh_mutex);
	return o ? o->reconfigure() : SLURM_SUCCESS;
}

/* A node registered, perhaps with other CPUs (22.05's update_node_config). */
extern void sm_node_config_changed(void)
{
	slurm_mutex_lock(&mesh_mutex);
	sm.cpus_range_valid = false;
	slurm_mutex_unlock(&mesh_mutex);
}

/*
 * A compact mesh placement of node_cnt whole nodes among avail_bitmap for
 * a reservation (22.05's resv_test), or NULL.
 */
extern bitstr_t *sm_resv_pick(uint32_t node_cnt, bitstr_t *avail_bitmap)
{
	uint32_t *out;
	bitstr_t *pick = NULL;
	struct mesh_bitmap *free_map = NULL;
	struct mesh_request r;
	struct mesh_view v;
	uint32_t i;

	slurm_mutex_lock(&mesh_mutex);
	if (!sm.conf || sm.conf_broken || !node_cnt ||
	    bit_set_count(avail_bitmap) < node_cnt ||
	    sm_free_map(avail_bitmap, NULL, &free_map)) {
		slurm_mutex_unlock(&mesh_mutex);
		return NULL;
	}
	memset(&r, 0, sizeof(r));
	r.nodes = node_cnt;
	r.io_intensity = -1.0;
	v.topo = sm.conf->topo;
	v.free = free_map;
	v.end_time = NULL;
	v.now = (double) time(NULL);
	out = xcalloc(node_cnt, sizeof(*out));
	if (!mesh_alloc_place(sm.alloc, &v, &r, out)) {
		pick = bit_alloc(bit_size(avail_bitmap));
		for (i = 0; i < node_cnt; i++)
			bit_set(pick, sm.mesh2node[out[i]]);
	}
	xfree(out);
	mesh_bitmap_destroy(free_map);
	slurm_mutex_unlock(&mesh_mutex);
	return pick;
}
