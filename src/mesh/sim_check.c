/* sim_check.c - the schedule's invariants, checked while the simulator
 * runs, always (not a debug option): a schedule that breaks one cannot
 * exist, so the run stops with MESH_EINTERNAL and a diagnostic naming the
 * jobs, the node and the time, instead of printing impossible numbers.
 *
 * HOW IT WORKS: the checker keeps its own record of who holds each node
 * (owner[], job index + 1, 0 when idle), apart from the free map and
 * counts that the schedulers and planners work with, and updates it at
 * every start and end in O(nodes of the job).  Checked:
 *   - a job starts once, after it arrived and not before its submit
 *     time, on usable nodes that no job holds (duplicates included);
 *   - busy nodes never exceed the usable ones;
 *   - a job ends once, after it started, releasing the nodes it holds,
 *     at end = start + run (exactly under the trace model, where the end
 *     is computed as that sum; to rounding under the dynamic ones).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"
#include "sim_internal.h"

enum { PHASE_WAITING, PHASE_RUNNING, PHASE_DONE };

int mesh__sim_check_create(struct sim *s)
{
	s->owner = calloc(s->topo->nodes, sizeof(*s->owner));
	s->phase = calloc(s->n ? s->n : 1, sizeof(*s->phase));
	return s->owner && s->phase ? 0 : MESH_ENOMEM;
}

void mesh__sim_check_destroy(struct sim *s)
{
	free(s->owner);
	free(s->phase);
}

static const char *node_name(const struct sim *s, uint32_t node, char *buf,
			     size_t len)
{
	int c[MESH_MAX_DIMS], d;
	size_t used = 0;

	mesh_topo_coords(s->topo, node, c);
	for (d = 0; d < s->topo->ndims && used < len; d++)
		used += (size_t) snprintf(buf + used, len - used,
					  d ? ":%d" : "%d", c[d]);
	return buf;
}

static int violated(const struct sim *s, size_t idx, double now,
		    const char *what)
{
	const struct mesh_sim_job *j = &s->jobs[idx];

	return mesh_diag_set(s->diag, MESH_EINTERNAL, NULL, j->line, "schedule",
			     "invariant violated at t = %.17g: job %ld %s", now,
			     j->id, what);
}

/* The node check of a start: usable, and held by no job. */
static int check_node(struct sim *s, size_t idx, uint32_t node, double now)
{
	char name[48], what[200];
	size_t holder;

	if (node >= s->topo->nodes ||
	    (s->opts->usable && !mesh_bitmap_test(s->opts->usable, node))) {
		snprintf(what, sizeof(what),
			 "is given node index %u, which is not a usable node",
			 node);
		return violated(s, idx, now, what);
	}
	holder = s->owner[node];
	if (!holder)
		return 0;
	if (holder - 1 == idx)
		snprintf(what, sizeof(what),
			 "is given node %s (index %u) twice",
			 node_name(s, node, name, sizeof(name)), node);
	else
		snprintf(what, sizeof(what),
			 "is given node %s (index %u), which job %ld holds "
			 "since t = %.17g",
			 node_name(s, node, name, sizeof(name)), node,
			 s->jobs[holder - 1].id, s->jobs[holder - 1].start);
	return violated(s, idx, now, what);
}

int mesh__sim_check_start(struct sim *s, size_t idx, const uint32_t *nodes,
			  double now)
{
	const struct mesh_sim_job *j = &s->jobs[idx];
	char what[160];
	uint32_t i;
	int rc;

	if (idx >= s->next_arrival || s->phase[idx] != PHASE_WAITING ||
	    !(now >= j->submit))
		return violated(s, idx, now,
				"starts before it was submitted or a second "
				"time");
	for (i = 0; i < j->size; i++) {
		rc = check_node(s, idx, nodes[i], now);
		if (rc)
			return rc;
		s->owner[nodes[i]] = idx + 1;
	}
	s->phase[idx] = PHASE_RUNNING;
	s->busy += j->size;
	if (s->busy > s->usable) {
		snprintf(what, sizeof(what),
			 "starts, and %u nodes are busy of %u usable", s->busy,
			 s->usable);
		return violated(s, idx, now, what);
	}
	return 0;
}

int mesh__sim_check_end(struct sim *s, size_t idx, const struct mesh_sim_job *r,
			double now)
{
	const uint32_t *nodes = s->res->nodes + r->node_off;
	char name[48], what[200];
	uint32_t i;

	if (s->phase[idx] != PHASE_RUNNING)
		return violated(s, idx, now, "ends but is not running");
	if (r->end != now || !(r->end >= r->start) ||
	    !(fabs(r->end - (r->start + r->run)) <= 1e-9 * fmax(1, r->end))) {
		snprintf(what, sizeof(what),
			 "ends with start %.17g, run %.17g and end %.17g",
			 r->start, r->run, r->end);
		return violated(s, idx, now, what);
	}
	for (i = 0; i < r->size; i++)
		if (s->owner[nodes[i]] != idx + 1) {
			snprintf(what, sizeof(what),
				 "ends, but node %s (index %u) is not its",
				 node_name(s, nodes[i], name, sizeof(name)),
				 nodes[i]);
			return violated(s, idx, now, what);
		}
	for (i = 0; i < r->size; i++)
		s->owner[nodes[i]] = 0;
	s->phase[idx] = PHASE_DONE;
	s->busy -= r->size;
	return 0;
}

int mesh__sim_check_done(struct sim *s)
{
	size_t i, done = 0;

	for (i = 0; i < s->n; i++)
		done += s->phase[i] == PHASE_DONE;
	if (s->busy || done != s->res->n ||
	    done + s->res->summary.refused != s->n)
		return mesh_diag_set(
		    s->diag, MESH_EINTERNAL, NULL, 0, "schedule",
		    "invariant violated at the end: %zu of %zu jobs ended, "
		    "%zu refused, %zu recorded, %u nodes still busy",
		    done, s->n, s->res->summary.refused, s->res->n, s->busy);
	return 0;
}
