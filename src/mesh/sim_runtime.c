/* sim_runtime.c - the dynamic runtime models of the simulator: a running
 * job's wall time follows the load that the other running jobs put on
 * the network (contention.h) or on the parallel file system.
 *
 * HOW IT WORKS: a running job has trace seconds of work left and a
 * stretch (wall seconds per trace second) that depends on the traffic
 * of all running jobs: at every event the work done since the last one
 * is taken off at the old stretches, the jobs that end leave, new jobs
 * start, and every stretch and end time is recomputed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "sim_internal.h"

static int by_node(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}

/* Contention model: the job's traffic joins the network.  Ranks go to
 * its nodes in node-index order, as Slurm's block distribution over a
 * sorted node list gives them, whatever order the allocator chose. */
int mesh__sim_traffic_start(struct sim *s, size_t idx, const uint32_t *nodes)
{
	struct sim_run *r = &s->run[idx];
	enum mesh_comm comm = s->attr[idx].comm;
	double cs = s->attr[idx].comm_share, is = s->attr[idx].io_share;
	int rc;

	r->left = s->jobs[idx].run;
	r->stretch = 1;
	if (!s->net)
		return 0;
	memcpy(s->ranks, nodes, s->jobs[idx].size * sizeof(*nodes));
	qsort(s->ranks, s->jobs[idx].size, sizeof(*s->ranks), by_node);
	rc = mesh_net_traffic(s->net, s->ranks, s->jobs[idx].size, comm, cs, is,
			      &r->traffic);
	if (rc)
		return mesh_diag_set(s->diag, rc, NULL, s->jobs[idx].line,
				     "traffic",
				     "job %ld: communication share %g and I/O "
				     "share %g must be in [0, 1] with a sum "
				     "<= 1",
				     s->jobs[idx].id, cs, is);
	mesh_net_add(s->net, &r->traffic, 1);
	if (s->topo->n_io) {
		s->mc_sum += mesh_net_io_max_contention(s->net);
		s->bf_sum += labs(s->sys_bf);
	}
	return 0;
}

/* Dynamic models: take off the work done since the last event. */
void mesh__sim_traffic_advance(struct sim *s, double now)
{
	double dt = now - s->last_event;
	size_t i;

	for (i = 0; dt > 0 && i < s->hlen; i++) {
		size_t idx = s->heap[i].job;
		struct sim_run *r = &s->run[idx];

		r->left -= dt / r->stretch;
		if (r->left < 1e-9 * (1 + s->jobs[idx].run))
			r->left = 0;
		s->jobs[idx].io_time += dt * r->io_rate;
	}
	s->last_event = now;
}

/* PFS model: a job alone writes at b = min(nodes * node bandwidth, B).
 * In its I/O phase it meets its own b plus the others' mean demands
 * i_r * b_r; the phase slows by max(1, demand / B). */
static double pfs_alone(const struct sim *s, size_t idx)
{
	return fmin(s->jobs[idx].size * s->opts->node_bandwidth,
		    s->opts->pfs_bandwidth);
}

static double pfs_stretch(const struct sim *s, size_t idx, double demand,
			  double *s_io)
{
	double i = s->attr[idx].io_share, b = pfs_alone(s, idx);

	*s_io = fmax(1.0, (demand - i * b + b) / s->opts->pfs_bandwidth);
	return (1 - i) + i * *s_io;
}

/* Dynamic models: new stretches and end times for all running jobs;
 * the heap becomes a sorted array, which is a valid heap. */
void mesh__sim_traffic_restretch(struct sim *s, double now)
{
	double demand = 0;
	size_t i;

	for (i = 0; i < s->hlen; i++)
		demand += s->attr[s->heap[i].job].io_share *
			  pfs_alone(s, s->heap[i].job);
	for (i = 0; i < s->hlen; i++) {
		size_t idx = s->heap[i].job;
		struct sim_run *r = &s->run[idx];
		double si;

		if (s->opts->runtime_model == MESH_RUNTIME_PFS)
			r->stretch = pfs_stretch(s, idx, demand, &si);
		else
			r->stretch =
			    mesh_net_stretch(s->net, &r->traffic, NULL, &si);
		r->io_rate = s->attr[idx].io_share * si / r->stretch;
		s->jobs[idx].end = now + r->left * r->stretch;
		s->heap[i].end = s->jobs[idx].end;
	}
	qsort(s->heap, s->hlen, sizeof(*s->heap), mesh__sim_by_end);
}

/* Contention model: the job leaves the network; its result is final. */
void mesh__sim_traffic_finish(struct sim *s, size_t idx, double now)
{
	struct sim_run *r = &s->run[idx];
	struct mesh_sim_job *res = &s->res->jobs[s->rec[idx]];

	if (s->net) {
		mesh_net_add(s->net, &r->traffic, -1);
		mesh_job_traffic_free(&r->traffic);
	}
	if (s->opts->runtime_model == MESH_RUNTIME_TRACE)
		return; /* the net only serves the I/O metrics */
	res->end = now;
	res->run = now - res->start;
	res->io_time = s->jobs[idx].io_time;
}
