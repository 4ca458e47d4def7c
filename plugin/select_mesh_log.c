/*****************************************************************************\
 *  select_mesh_log.c - select/mesh decision lines under
 *  DebugFlags=SelectType: one per select_p_job_test call whose answer
 *  differs from the job's last one for the same mode and nodes.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#include "config.h"		/* Slurm's config.h, see Makefile.am */

#include <inttypes.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/slurm_xlator.h"	/* Must be first */
#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "compat/compat.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"

#include "select_mesh.h"

static const char *_mode_str(uint16_t mode)
{
	if (SELECT_IS_MODE_RUN_NOW(mode))
		return "RUN_NOW";
	if (SELECT_IS_MODE_TEST_ONLY(mode))
		return "TEST_ONLY";
	if (SELECT_IS_MODE_RESV(mode))
		return "RESV";
	return "WILL_RUN";
}

/*
 * Backfill asks WILL_RUN for every pending job in every cycle, and most
 * answers repeat the last one (issue 12.5: about 100,000 decision lines
 * for a 1,000-job stream, written with the scheduler's locks held); the
 * main scheduler likewise asks RUN_NOW and TEST_ONLY for a job that
 * cannot start, every pass.  Under DebugFlags=SelectType a decision is
 * therefore logged only when its answer differs from the last one logged
 * for the same job, mode and offered nodes; the next logged line counts
 * the repeats it left out.  The answer is the return code, the chosen
 * nodes and, for a WILL_RUN that placed, the start time (a refusal has
 * none: backfill moves the job's start_time between its tries).  Slots
 * are per key modulo the table size; a collision only costs a line.
 */
#define LOG_SLOTS 4096
static struct {
	uint32_t job_id;
	uint32_t key;		/* hash of mode and offered nodes */
	uint32_t answer;	/* hash of rc, start time and nodes */
	uint32_t repeats;	/* identical answers not logged since */
} decision_log[LOG_SLOTS];

static uint32_t _fnv(uint32_t h, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (uint32_t) (v & 0xff)) * 16777619u;
	return h;
}

static uint32_t _hash_bits(uint32_t h, bitstr_t *bitmap)
{
	bitoff_t i, last = bit_fls(bitmap);

	for (i = bit_ffs(bitmap); i >= 0 && i <= last; i++)
		if (bit_test(bitmap, i))
			h = _fnv(h, (uint64_t) i);
	return h;
}

/* The nodes offered to a decision, before it trims the bitmap (0 without
 * DebugFlags=SelectType, where nothing is logged). */
extern uint32_t sm_log_offered(bitstr_t *bitmap)
{
	if (!(slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE))
		return 0;
	return _hash_bits(2166136261u, bitmap);
}

static uint32_t _answer(uint16_t mode, int rc, time_t start, bitstr_t *bitmap)
{
	uint32_t h = _fnv(2166136261u, (uint64_t) rc);

	if (rc)
		return h;
	if (SELECT_IS_MODE_WILL_RUN(mode))
		h = _fnv(h, (uint64_t) start);
	return _hash_bits(h, bitmap);
}

/*
 * Whether to log this decision; *skipped is set to the repeats left out
 * before it.
 */
static bool _log_decision_locked(job_record_t *job_ptr, uint16_t mode,
				 uint32_t offered, int rc, bitstr_t *bitmap,
				 uint32_t *skipped)
{
	uint32_t key = _fnv(offered, (uint64_t) mode), slot, answer;

	slot = _fnv(key, (uint64_t) job_ptr->job_id) % LOG_SLOTS;
	answer = _answer(mode, rc, job_ptr->start_time, bitmap);
	*skipped = 0;
	if (decision_log[slot].job_id == job_ptr->job_id &&
	    decision_log[slot].key == key) {
		if (decision_log[slot].answer == answer) {
			decision_log[slot].repeats++;
			return false;
		}
		*skipped = decision_log[slot].repeats;
	}
	decision_log[slot].job_id = job_ptr->job_id;
	decision_log[slot].key = key;
	decision_log[slot].answer = answer;
	decision_log[slot].repeats = 0;
	return true;
}

/*
 * Log one decision of select_p_job_test (a no-op without
 * DebugFlags=SelectType): the job, mode, node counts, allocator, hints
 * and answer (nodes or no placement, and the start time for WILL_RUN).
 */
extern void sm_log_decision_locked(job_record_t *job_ptr, uint16_t mode,
				   uint32_t offered, int rc, bitstr_t *bitmap,
				   uint32_t min_nodes, uint32_t max_nodes,
				   uint32_t req_nodes,
				   const struct mesh_request *hints)
{
	uint32_t skipped = 0;
	char *nodes;

	if (!(slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE) ||
	    !_log_decision_locked(job_ptr, mode, offered, rc, bitmap,
				  &skipped))
		return;
	nodes = rc ? NULL : bitmap2node_name(bitmap);
	log_flag(SELECT_TYPE, "%s: %pJ mode=%s nodes=%u-%u/%u alloc=%s hints shape=%dx%dx%d io-intensity=%.2f comm=%s -> %s start=%ld repeats_not_logged=%u",
		 plugin_type, job_ptr, _mode_str(mode), min_nodes,
		 max_nodes, req_nodes, sm.conf->allocator,
		 hints->shape[0], hints->shape[1], hints->shape[2],
		 hints->io_intensity, mesh_comm_name(hints->comm),
		 rc ? "no placement" : nodes,
		 (long) (SELECT_IS_MODE_WILL_RUN(mode) ?
			 job_ptr->start_time : 0), skipped);
	xfree(nodes);
}

/*
 * A WILL_RUN search cut by PlanMaxPlacements=/PlanMaxTime= (plan.h): its
 * start is the latest candidate, later than the earliest.  Backfill asks
 * again each pass, so one line per minute at most, with the cuts since.
 */
extern void sm_log_plan_cut_locked(job_record_t *job_ptr,
				   const struct mesh_plan_stats *st)
{
	static time_t last;
	static uint32_t since;
	time_t now = time(NULL);

	log_flag(SELECT_TYPE, "%s: %pJ WILL_RUN cut after %zu placements",
		 plugin_type, job_ptr, st->places);
	since++;
	if (last && now - last < 60)
		return;
	info("%s: %pJ: WILL_RUN stopped at the bound after %zu placements (PlanMaxPlacements=%zu PlanMaxTime=%g in mesh.conf) and planned the job at the latest candidate time (%u cut searches since the previous such line)",
	     plugin_type, job_ptr, st->places, sm.conf->plan_max_places,
	     sm.conf->plan_max_seconds, since);
	last = now;
	since = 0;
}
