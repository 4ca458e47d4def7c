/* plan.h - earliest-start planning: when and where could a job start,
 * given the nodes free now, the running jobs' estimated ends and the
 * nodes already promised to other jobs later?
 *
 * One function serves select/mesh's WILL_RUN (running jobs only) and
 * meshsim's placement-aware conservative backfilling (running jobs plus
 * the reservations of the jobs ahead in the queue).  The answer is what
 * the allocator itself would choose at that time, never a node count
 * estimate.  doc/design.md explains the search.
 */
#ifndef MESH_PLAN_H
#define MESH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"

/* Nodes held over [start, end): a running job (start <= now; its nodes
 * are not in free_now, nor in another running job's hold) or a
 * reservation (nodes free until start).  A running job's end is its
 * estimated end; the planner moves one at or before now to
 * mesh_plan_running_end(). */
struct mesh_plan_hold {
	double start, end;
	const uint32_t *nodes;
	uint32_t n;
};

/* Nodes promised to a job over [start, end) (conservative backfilling:
 * the jobs ahead in the queue), free until start; a bitmap over the
 * topology's nodes, as a reservation usually holds many of them and
 * the planner counts the ones that overlap a window a word at a time. */
struct mesh_plan_resv {
	double start, end;
	const struct mesh_bitmap *nodes;
};

struct mesh_plan_query {
	const struct mesh_bitmap *free_now; /* free now, running jobs' nodes
					     * not included */
	double now;
	const struct mesh_plan_hold *running; /* released at their end */
	size_t n_running;
	const struct mesh_plan_resv *reserved; /* busy over [start, end) */
	size_t n_reserved;
	double duration;        /* the job's estimated runtime, >= 0 */
	const double *end_time; /* per-node ends for sl:*, or NULL */
	/* Optional: how to place at one candidate time, instead of
	 * mesh_alloc_place(a, v, req, out), for a caller whose placement is
	 * more than one allocator call (select/mesh tries two node counts,
	 * adds nodes for a CPU minimum, falls back to a contiguous-only
	 * allocator).  Same returns as mesh_alloc_place; req is passed
	 * through and req->nodes must be the fewest nodes it can place
	 * (times with fewer free are skipped); out must hold what it
	 * writes.  Its answer may depend only on v.  The search still
	 * follows a's flags: the hook must be monotone where a is (see
	 * plan.c), or set in_order.  When mesh_plan_earliest() places, its
	 * last call of the hook is the answer's (at *start, with out), so
	 * the caller may read what that call left beside out (select/mesh:
	 * its node count). */
	int (*place)(void *arg, const struct mesh_view *v,
		     const struct mesh_request *req, uint32_t *out);
	void *place_arg;
	int in_order; /* nonzero: try every candidate in order, no
		       * shortcut from a's flags */
	/* Nonzero: the hook's refusals are monotone, as a contiguous
	 * allocator's: where it places at a candidate it places at every
	 * later one, whose free set holds more nodes (a --contiguous job
	 * under a scattering allocator with a box search to fall back on,
	 * required nodes).  A refusal with enough nodes free is then
	 * followed by a binary search, not a scan.  in_order, reservations
	 * and MESH_ALLOC_MAY_REFUSE still scan.  Claimed wrongly, an
	 * answer is still a time where the hook placed, maybe not the
	 * earliest, and MESH_ENOSPC may hide a time where it would. */
	int monotone;
	/* Optional (NULL: none): a time before which the caller knows the
	 * job cannot start (conservative backfilling: first_enough in the
	 * mesh_plan_stats of a job planned before it that needs no more
	 * nodes for no longer, on a subset of its holds).  A scan starts at
	 * the first candidate at or after it; past every candidate, it has
	 * no effect.  A time later than the true earliest start gives a
	 * later start. */
	const double *not_before;
	/* A bound on a scan (0: none): at most max_places placements, the
	 * last kept for the latest candidate time (after every running job
	 * and reservation has ended), which a scan jumps to once the next
	 * placement would be the last or max_seconds have passed.  The
	 * answer is then later than the earliest, never infeasible; a hook
	 * or allocator that refuses there gives MESH_ENOSPC.  A scan
	 * (reservations, in_order, MESH_ALLOC_MAY_REFUSE, a refusal with
	 * enough nodes free unless monotone) makes one placement per
	 * candidate; the binary and counting searches make O(log
	 * candidates) and are not cut. */
	size_t max_places;
	double max_seconds;
	struct mesh_plan_stats *stats; /* optional, written by the search */
};

/* What one search did. */
struct mesh_plan_stats {
	size_t places; /* placement calls (allocator or hook) */
	int truncated; /* the bound skipped candidates */
	/* The first candidate with req->nodes free in the window, INFINITY
	 * if none: the free count stays below that at every earlier time,
	 * candidate or not, for this job and any job that needs as many
	 * nodes or more for as long or longer around these holds or more
	 * (a valid not_before for it). */
	double first_enough;
};

struct mesh_planner;

/** \brief Scratch for planning on t (reused across calls).
 *  \return 0 or MESH_ENOMEM. */
int mesh_planner_create(const struct mesh_topo *t, struct mesh_planner **out);

void mesh_planner_destroy(struct mesh_planner *p);

/* How long a running job that has reached its estimated end is still
 * planned to hold its nodes: it has not ended, so it may not be planned
 * as ending now (which would hand its nodes out while it runs).  Slurm's
 * cons_common does the same (job_test.c, _guess_job_end(): an end at or
 * before now becomes now + 1). */
#define MESH_PLAN_OVERRUN 1.0

/** \brief The end the planner assumes for a running job estimated to end
 *  at end: end itself if it is after now, else now + MESH_PLAN_OVERRUN.
 *  Every scheduler that plans around running jobs uses it. */
double mesh_plan_running_end(double end, double now);

/** \brief Earliest time >= q->now at which allocator a places req, and
 *  the nodes it chooses then.  Candidate times are now and the ends of
 *  running jobs (mesh_plan_running_end(), so always after now) and of
 *  reservations.  At now the free set is q->free_now alone: a plan that
 *  starts now names only nodes free now.
 *  \param[out] start the time; \param[out] out req->nodes entries.
 *  \return 0; MESH_ENOSPC if no candidate time works (the job does not
 *  fit even when everything ends); MESH_EINVAL (no free map of the
 *  topology's size, a reservation without one, a negative or NaN
 *  duration, a NaN now, no nodes asked); or the allocator's error. */
int mesh_plan_earliest(struct mesh_planner *p, struct mesh_allocator *a,
		       const struct mesh_plan_query *q,
		       const struct mesh_request *req, double *start,
		       uint32_t *out);

/** \brief The same answer by the definition: every candidate time in
 *  order, the free set rebuilt from scratch, one placement each.  For
 *  tests and benchmarks (the "before" of make bench). */
int mesh_plan_earliest_naive(struct mesh_planner *p, struct mesh_allocator *a,
			     const struct mesh_plan_query *q,
			     const struct mesh_request *req, double *start,
			     uint32_t *out);

#endif
