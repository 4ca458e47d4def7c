/* sim_runtime.c - the dynamic runtime models of the simulator: a running
 * job's wall time follows the load that the other running jobs put on
 * the network and the file system (contention.h, doc/runtime-models.md).
 *
 * HOW IT WORKS: a running job has trace seconds of work left and a
 * stretch (wall seconds per trace second) that depends on what every
 * running job is doing.  A job is either fluid (its communication, I/O
 * and compute are finely interleaved in the shares c, i, 1 - c - i of
 * its runtime, and its traffic is present at those weights) or phased
 * (compute phases, with communication at share c inside them, alternate
 * with checkpoints that are all I/O; its traffic is present at weight 1
 * in the phase it is in, so concurrent checkpoints contend).  At every
 * event the work done since the last one is taken off at the old
 * stretches; jobs end or change phase; new jobs start; then every
 * stretch and next event (a phase boundary or the end) is recomputed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "sim_internal.h"

/* Work below this share of a span counts as done (rounding). */
#define WORK_EPS 1e-9

static unsigned net_parts(enum mesh_runtime_model m)
{
	switch (m) {
	case MESH_RUNTIME_CONTENTION:
		return MESH_NET_NETWORK;
	case MESH_RUNTIME_PFS:
		return MESH_NET_FS;
	case MESH_RUNTIME_CONTENTION_PFS:
		return MESH_NET_NETWORK | MESH_NET_FS;
	case MESH_RUNTIME_TRACE:
		break;
	}
	return 0; /* the I/O metrics alone */
}

static int by_node(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}

int mesh__sim_rt_create(struct sim *s)
{
	int dynamic = s->opts->runtime_model != MESH_RUNTIME_TRACE;

	if (!dynamic && !s->topo->n_io)
		return 0;
	s->run = calloc(s->n ? s->n : 1, sizeof(*s->run));
	s->ranks = malloc(s->topo->nodes * sizeof(*s->ranks));
	if (!s->run || !s->ranks)
		return MESH_ENOMEM;
	return mesh_net_create(s->topo, &s->opts->net,
			       net_parts(s->opts->runtime_model),
			       s->opts->usable, &s->net);
}

void mesh__sim_rt_destroy(struct sim *s)
{
	size_t i;

	for (i = 0; s->run && i < s->n; i++)
		mesh_job_load_free(&s->run[i].load);
	free(s->run);
	free(s->ranks);
	mesh_net_destroy(s->net);
}

/* Özden et al.'s I/O intensity of a job: the share of its runtime in
 * I/O times Phi_bw, read as the share of the file system's bandwidth it
 * uses alone, min(1, nodes * node bandwidth / file system bandwidth). */
double mesh__sim_io_intensity(const struct sim *s, size_t idx)
{
	const struct mesh_sim_job_info *a = &s->attr[idx];
	double share = a->io_share, phi;

	if (a->compute_phase > 0 && a->checkpoint_phase > 0)
		share = a->checkpoint_phase /
			(a->compute_phase + a->checkpoint_phase);
	phi = s->jobs[idx].size * s->opts->net.node_bw / s->opts->net.fs_bw;
	return share * (phi < 1 ? phi : 1);
}

/* Set the phase a phased job starts: compute, with the checkpoint
 * length fixed from the volume if only the volume is given. */
static void init_phases(struct sim *s, size_t idx, struct sim_run *r)
{
	const struct mesh_sim_job_info *a = &s->attr[idx];
	/* the job's write rate alone in its best placement, GB/s */
	double rate = r->load.io_flows * r->load.io_ref;

	r->compute = a->compute_phase;
	r->checkpoint = a->checkpoint_phase;
	if (!(r->checkpoint > 0) && a->io_volume > 0)
		r->checkpoint =
		    rate > 0 && rate < INFINITY ? a->io_volume / rate : 0;
	r->phased = s->opts->runtime_model != MESH_RUNTIME_TRACE &&
		    r->compute > 0 && r->checkpoint > 0;
	r->in_io = 0;
	r->phase_left = r->compute;
}

/* The weights of the job's traffic in its current phase. */
static void weights(const struct sim *s, size_t idx, const struct sim_run *r,
		    double *wc, double *wi)
{
	const struct mesh_sim_job_info *a = &s->attr[idx];

	if (!r->phased) {
		*wc = a->comm_share;
		*wi = a->io_share;
	} else {
		*wc = r->in_io ? 0 : a->comm_share;
		*wi = r->in_io ? 1 : 0;
	}
}

int mesh__sim_rt_start(struct sim *s, size_t idx, const uint32_t *nodes)
{
	const struct mesh_sim_job_info *a = &s->attr[idx];
	struct sim_run *r = &s->run[idx];
	struct mesh_pattern p;
	double wc, wi;
	int rc;

	memset(&p, 0, sizeof(p));
	p.comm = a->comm;
	memcpy(p.shape, a->shape, sizeof(p.shape));
	p.pairs = a->pairs;
	p.n_pairs = a->n_pairs;
	r->left = s->jobs[idx].run;
	r->stretch = 1;
	if (s->opts->rank_order == MESH_RANKS_INDEX) {
		memcpy(s->ranks, nodes, s->jobs[idx].size * sizeof(*nodes));
		qsort(s->ranks, s->jobs[idx].size, sizeof(*s->ranks), by_node);
		nodes = s->ranks;
	}
	rc = mesh_net_job(s->net, nodes, s->jobs[idx].size, &p, &r->load);
	if (rc == MESH_EINVAL)
		return mesh_diag_set(
		    s->diag, rc, NULL, s->jobs[idx].line, "comm",
		    "job %ld: its communication pattern "
		    "does not fit its %u nodes (a pair names "
		    "a rank >= %u)",
		    s->jobs[idx].id, s->jobs[idx].size, s->jobs[idx].size);
	if (rc)
		return rc;
	init_phases(s, idx, r);
	weights(s, idx, r, &wc, &wi);
	mesh_net_weigh(s->net, &r->load, wc, wi);
	if (s->topo->n_io) {
		s->mc_sum += mesh_net_io_max_contention(s->net);
		s->bf_sum += labs(s->sys_bf);
	}
	return 0;
}

void mesh__sim_rt_advance(struct sim *s, double now)
{
	double dt = now - s->last_event, work;
	size_t i;

	for (i = 0; dt > 0 && i < s->hlen; i++) {
		size_t idx = s->heap[i].job;
		struct sim_run *r = &s->run[idx];

		work = dt / r->stretch;
		r->left -= work;
		if (r->left < WORK_EPS * (1 + s->jobs[idx].run))
			r->left = 0;
		if (r->phased) {
			r->phase_left -= work;
			if (r->phase_left <
			    WORK_EPS * (1 + r->compute + r->checkpoint))
				r->phase_left = 0;
		}
		s->jobs[idx].io_time += dt * r->io_rate;
	}
	s->last_event = now;
}

int mesh__sim_rt_event(struct sim *s, size_t idx)
{
	struct sim_run *r = &s->run[idx];
	double wc, wi;

	/* under the trace model the run only serves the I/O metrics */
	if (s->opts->runtime_model == MESH_RUNTIME_TRACE)
		return 1;
	/* Work left below the clock's resolution at this time (half an
	 * ulp of now) cannot be taken off: the event decides, not the
	 * remainder. */
	if (r->ending || r->left <= 0) {
		r->left = 0;
		return 1;
	}
	/* a phase boundary: the next phase */
	r->in_io = !r->in_io;
	r->phase_left = r->in_io ? r->checkpoint : r->compute;
	weights(s, idx, r, &wc, &wi);
	mesh_net_weigh(s->net, &r->load, wc, wi);
	return 0;
}

/* The job's stretch now and the wall seconds of I/O per wall second. */
static double stretch_of(const struct sim *s, size_t idx, struct sim_run *r)
{
	const struct mesh_sim_job_info *a = &s->attr[idx];
	double sc = 1, si = 1, c = a->comm_share, i = a->io_share, st;

	if (c > 0 && (!r->phased || !r->in_io))
		sc = mesh_net_slowdown(s->net, &r->load, 0);
	if (r->phased ? r->in_io : i > 0)
		si = mesh_net_slowdown(s->net, &r->load, 1);
	if (r->phased) {
		st = r->in_io ? si : (1 - c) + c * sc;
		r->io_rate = r->in_io ? 1 : 0;
	} else {
		st = (1 - c - i) + c * sc + i * si;
		r->io_rate = i * si / st;
	}
	return st;
}

void mesh__sim_rt_restretch(struct sim *s, double now)
{
	size_t i;

	for (i = 0; i < s->hlen; i++) {
		size_t idx = s->heap[i].job;
		struct sim_run *r = &s->run[idx];
		double span = r->left;

		r->stretch = stretch_of(s, idx, r);
		r->ending = !(r->phased && r->phase_left < span);
		if (!r->ending)
			span = r->phase_left;
		s->heap[i].end = now + span * r->stretch;
	}
	qsort(s->heap, s->hlen, sizeof(*s->heap), mesh__sim_by_end);
}

void mesh__sim_rt_finish(struct sim *s, size_t idx, double now)
{
	struct sim_run *r = &s->run[idx];
	struct mesh_sim_job *res = &s->res->jobs[s->rec[idx]];

	mesh_net_weigh(s->net, &r->load, 0, 0);
	mesh_job_load_free(&r->load);
	if (s->opts->runtime_model == MESH_RUNTIME_TRACE)
		return; /* the net only serves the I/O metrics */
	res->end = now;
	res->run = now - res->start;
	res->io_time = s->jobs[idx].io_time;
}
