/*****************************************************************************\
 *  select_mesh_track.c - select/mesh usage: the jobs holding nodes
 *  (running, or suspended) and per node how many of them hold it, rebuilt
 *  from job_list whenever it may be stale (no state file).
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
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
#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "id_index.h"
#include "select_mesh.h"

/* Release what the record holds (not the record: it lives in tracked). */
static void _job_free(struct mesh_job *mj)
{
	FREE_NULL_BITMAP(mj->nodes);
	xfree(mj->idx);
}

/* mj->idx from mj->nodes. */
extern void sm_job_index(struct mesh_job *mj)
{
	int i, n = 0, last = bit_fls(mj->nodes);

	xfree(mj->idx);
	mj->idx = xcalloc(bit_set_count(mj->nodes) + 1, sizeof(*mj->idx));
	for (i = bit_ffs(mj->nodes); i >= 0 && i <= last; i++)
		if (bit_test(mj->nodes, i))
			mj->idx[n++] = i;
	mj->n_idx = n;
}

/* Position in tracked (which is in seq order) of the job tracked as seq,
 * or -1. */
static int _seq_find(long seq)
{
	int lo = 0, hi = sm.n_tracked - 1, mid;

	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		if (sm.tracked[mid].seq == seq)
			return mid;
		if (sm.tracked[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/*
 * Position of the job in tracked, or -1: its seq through
 * sm.tracked_ids, then O(log n); a scan when the index could not be
 * allocated (then NULL until the next clear).
 */
static int _tracked_find(uint32_t job_id)
{
	long seq;
	int i;

	if (sm.tracked_ids) {
		seq = smc_id_index_get(sm.tracked_ids, job_id);
		return seq < 0 ? -1 : _seq_find(seq);
	}
	for (i = 0; i < sm.n_tracked; i++)
		if (sm.tracked[i].job_id == job_id)
			return i;
	return -1;
}

extern struct mesh_job *sm_tracked_get(uint32_t job_id)
{
	int i = _tracked_find(job_id);

	return i < 0 ? NULL : &sm.tracked[i];
}

/* Add a zeroed record for job_id; RET it, to be filled in. */
static struct mesh_job *_tracked_append(uint32_t job_id)
{
	struct mesh_job *mj;

	if (sm.n_tracked == sm.cap_tracked) {
		sm.cap_tracked = sm.cap_tracked ? 2 * sm.cap_tracked : 64;
		xrecalloc(sm.tracked, sm.cap_tracked, sizeof(*sm.tracked));
	}
	mj = &sm.tracked[sm.n_tracked++];
	memset(mj, 0, sizeof(*mj));
	mj->job_id = job_id;
	mj->seq = sm.next_seq++;
	if (sm.tracked_ids &&
	    smc_id_index_set(sm.tracked_ids, job_id, mj->seq)) {
		error("%s: out of memory for the tracked-job index: searching the %d jobs instead",
		      plugin_type, sm.n_tracked);
		smc_id_index_destroy(sm.tracked_ids);
		sm.tracked_ids = NULL;
	}
	return mj;
}

/* Free and remove tracked[i], keeping the others' order. */
static void _tracked_remove(int i)
{
	if (sm.tracked_ids)
		smc_id_index_del(sm.tracked_ids, sm.tracked[i].job_id);
	_job_free(&sm.tracked[i]);
	sm.n_tracked--;
	memmove(sm.tracked + i, sm.tracked + i + 1,
		(sm.n_tracked - i) * sizeof(*sm.tracked));
}

/*
 * Forget every tracked job; free_array: release the array and the index
 * too.  Otherwise the index is made anew if it had been dropped.
 */
extern void sm_tracked_clear(bool free_array)
{
	int i;

	for (i = 0; i < sm.n_tracked; i++)
		_job_free(&sm.tracked[i]);
	sm.n_tracked = 0;
	if (free_array) {
		xfree(sm.tracked);
		sm.cap_tracked = 0;
		smc_id_index_destroy(sm.tracked_ids);
		sm.tracked_ids = NULL;
	} else if (sm.tracked_ids) {
		smc_id_index_clear(sm.tracked_ids);
	} else {
		sm.tracked_ids = smc_id_index_create();
	}
}

/* Nodes a job holds: its resources minus nodes released by resizing. */
extern bitstr_t *sm_job_nodes(job_record_t *job_ptr)
{
	bitstr_t *b;

	if (!job_ptr->node_bitmap)
		return NULL;
	b = bit_copy(job_ptr->node_bitmap);
	if (job_ptr->job_resrcs && job_ptr->job_resrcs->node_bitmap &&
	    bit_size(job_ptr->job_resrcs->node_bitmap) == bit_size(b))
		bit_and(b, job_ptr->job_resrcs->node_bitmap);
	return b;
}

static void _busy_add(bitstr_t *nodes, int delta)
{
	int i, last = MIN(bit_size(nodes), sm.node_cnt);

	for (i = 0; i < last; i++) {
		if (!bit_test(nodes, i))
			continue;
		if (delta > 0)
			sm.busy[i]++;
		else if (sm.busy[i])
			sm.busy[i]--;
	}
}

/*
 * How many jobs (this one included) may hold each of the job's nodes, as
 * select/linear counts it: the partition's OverSubscribe count if the job
 * shares (slurmctld sets share_res for FORCE:N, and for YES:N with
 * --oversubscribe), else 1.
 */
extern uint16_t sm_max_share(job_record_t *job_ptr)
{
	uint16_t m;

	if (!job_ptr->details || job_ptr->details->share_res != 1 ||
	    !job_ptr->part_ptr)
		return 1;
	m = job_ptr->part_ptr->max_share & ~SHARED_FORCE;
	return m > 1 ? m : 1;
}

/* Track a job's nodes; a no-op if already tracked.  Holds mesh_mutex. */
extern void sm_track_add(job_record_t *job_ptr)
{
	struct mesh_job *mj;
	bitstr_t *nodes;

	if (_tracked_find(job_ptr->job_id) >= 0)
		return;
	nodes = sm_job_nodes(job_ptr);
	if (!nodes)
		return;
	mj = _tracked_append(job_ptr->job_id);
	mj->nodes = nodes;
	sm_job_index(mj);
	mj->end_time = job_ptr->end_time;
	mj->max_share = sm_max_share(job_ptr);
	_busy_add(nodes, 1);
}

/* Stop tracking a job; a no-op if unknown.  Holds mesh_mutex. */
extern void sm_track_remove(uint32_t job_id)
{
	int i = _tracked_find(job_id);

	if (i < 0)
		return;
	_busy_add(sm.tracked[i].nodes, -1);
	_tracked_remove(i);
}

/*
 * Rebuild usage from job_list: the running and suspended jobs' nodes.
 * Needs no state file, so restarts and reconfigures are always exact.
 * NOTE: caller holds mesh_mutex; slurmctld holds the job read lock.
 */
static void _rebuild_locked(void)
{
	list_itr_t *it;
	job_record_t *job_ptr;

	if (!sm.conf || sm.node_cnt != node_record_count)
		sm_conf_load_locked();
	sm_tracked_clear(false);
	memset(sm.busy, 0, sizeof(*sm.busy) * (sm.node_cnt + 1));
	if (job_list) {
		it = list_iterator_create(job_list);
		while ((job_ptr = list_next(it))) {
			if (IS_JOB_RUNNING(job_ptr) ||
			    IS_JOB_SUSPENDED(job_ptr))
				sm_track_add(job_ptr);
		}
		list_iterator_destroy(it);
	}
	sm.state_valid = true;
	log_flag(SELECT_TYPE, "%s: usage rebuilt from %d running/suspended jobs",
		 plugin_type, sm.n_tracked);
}

extern void sm_ensure_state_locked(void)
{
	if (!sm.state_valid)
		_rebuild_locked();
}


extern void sm_use_sub(uint16_t *use, bitstr_t *nodes)
{
	int i;

	for (i = 0; i < MIN(bit_size(nodes), sm.node_cnt); i++)
		if (bit_test(nodes, i) && use[i])
			use[i]--;
}

extern void sm_use_add(uint16_t *use, bitstr_t *nodes)
{
	int i;

	for (i = 0; i < MIN(bit_size(nodes), sm.node_cnt); i++)
		if (bit_test(nodes, i))
			use[i]++;
}
