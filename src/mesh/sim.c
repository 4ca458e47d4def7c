/* sim.c - the discrete-event simulator behind meshsim.
 *
 * HOW IT WORKS: accepted jobs are sorted by submit time.  The loop takes
 * the next event time t = min(next arrival, next completion), frees the
 * nodes of every job ending at t, queues every job arriving at t, and
 * runs one scheduling pass.  EASY (Lifka 1995; Mu'alem and Feitelson
 * 2001): start queue-head jobs while they fit; when the head does not,
 * reserve for it the earliest time (the shadow) at which enough nodes
 * will be free given running jobs' estimated ends, and start any later
 * job that fits now and either ends by the shadow or uses only nodes
 * the head will not need then ("extra" nodes).
 *
 * Under the contention model a running job has trace seconds of work
 * left and a stretch (wall seconds per trace second) that depends on
 * the traffic of all running jobs: at every event the work done since
 * the last one is taken off at the old stretches, the jobs that end
 * leave, new jobs start, and every stretch and end time is recomputed.
 */
#include "sim.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contention.h"
#include "error.h"
#include "ioload.h"
#include "metrics.h"
#include "plan.h"
#include "priority.h"

struct heap_item {
	double end;
	size_t job;
};

/* Loss of capacity (Tang eq. 1), accumulated event by event. */
struct sim_loc {
	int started;
	double first, prev; /* first and previous event times */
	uint32_t prev_idle; /* idle nodes after the previous event */
	int prev_delta;     /* a queued job fitted in that count */
	double lost;        /* idle node-seconds counted */
};

/* AdjEst history of one (user, size): actual/requested ratios. */
struct est_hist {
	long user;
	uint32_t size;
	size_t count; /* 0: empty slot */
	double ratio_sum;
};

struct prio_key {
	double key;
	size_t job;
};

/* A running job under the contention model. */
struct sim_run {
	struct mesh_job_traffic traffic;
	double left;    /* trace seconds of work left */
	double stretch; /* wall seconds per trace second */
	double io_rate; /* I/O phase wall seconds per wall second */
	size_t res_idx; /* its entry in result->jobs */
};

struct sim {
	const struct mesh_topo *topo;
	struct mesh_allocator *alloc;
	const struct mesh_sim_opts *opts;
	struct mesh_sim_result *res;
	struct mesh_sim_job *jobs; /* accepted jobs, by submit */
	size_t n, next_arrival, started;
	size_t *queue, qlen;
	struct heap_item *heap; /* running jobs by actual end */
	size_t hlen;
	struct heap_item *byest; /* scratch for the shadow computation */
	struct mesh_bitmap *free_map;
	double *node_end;
	uint32_t free_count;
	size_t node_fill;
	struct mesh_diag *diag;
	struct mesh_net *net; /* contention model, else NULL */
	struct sim_run *run;  /* per accepted job, with net */
	uint32_t *ranks;      /* scratch: one job's nodes in rank order */
	struct mesh_sim_job_info *attr;          /* per accepted job */
	struct prio_key *keys;                   /* scratch: queue ordering */
	double *ozden_pos, *ozden_io, *ozden_wp; /* scratch, per job */
	/* Conservative backfilling: planner and scratch for one pass. */
	struct mesh_planner *planner;
	struct mesh_plan_hold *holds, *resv; /* running, reserved */
	uint32_t *resv_nodes;
	int8_t *side;          /* balance factor per node (I/O nodes) */
	long sys_bf;           /* system balance factor now */
	double bf_sum, mc_sum; /* over job starts */
	size_t start_events;
	struct sim_loc loc;
	uint32_t usable;       /* free nodes of the empty machine */
	struct est_hist *hist; /* AdjEst: per (user, size) */
	size_t hist_cap;
	double last_event;
};

void mesh_sim_opts_init(struct mesh_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sched = MESH_SCHED_EASY;
	o->estimate = MESH_ESTIMATE_CLAMP;
	o->size_field = MESH_SIZE_ALLOC;
	o->load = 1.0;
	o->keep_zero_runtime = 1;
	o->pfs_bandwidth = 48;    /* Özden et al.'s shared PFS */
	o->node_bandwidth = 12.5; /* their 100 Gbit/s node links */
}

static void heap_push(struct sim *s, double end, size_t job)
{
	size_t i = s->hlen++;

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (s->heap[parent].end <= end)
			break;
		s->heap[i] = s->heap[parent];
		i = parent;
	}
	s->heap[i].end = end;
	s->heap[i].job = job;
}

static struct heap_item heap_pop(struct sim *s)
{
	struct heap_item top = s->heap[0], last = s->heap[--s->hlen];
	size_t i = 0, child;

	while ((child = 2 * i + 1) < s->hlen) {
		if (child + 1 < s->hlen &&
		    s->heap[child + 1].end < s->heap[child].end)
			child++;
		if (last.end <= s->heap[child].end)
			break;
		s->heap[i] = s->heap[child];
		i = child;
	}
	if (s->hlen)
		s->heap[i] = last;
	return top;
}

static long job_size(const struct mesh_swf_job *j, enum mesh_size_field f)
{
	long first = f == MESH_SIZE_ALLOC ? j->procs : j->req_procs;
	long second = f == MESH_SIZE_ALLOC ? j->req_procs : j->procs;

	return first > 0 ? first : second;
}

static double job_estimate(const struct mesh_swf_job *j, enum mesh_estimate e,
			   double quantum)
{
	double est =
	    e == MESH_ESTIMATE_EXACT || j->req_time <= 0 || j->req_time < j->run
		? j->run
		: j->req_time;

	if (quantum > 0)
		est = fmax(1, ceil(est / quantum)) * quantum;
	return est;
}

static int by_submit(const void *a, const void *b)
{
	const struct mesh_sim_job *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* Keep runnable jobs; count the rest by reason. */
static int accept_jobs(struct sim *s, const struct mesh_swf_trace *tr)
{
	struct mesh_sim_summary *sum = &s->res->summary;
	size_t i;
	double t0 = 0;

	s->jobs = calloc(tr->n ? tr->n : 1, sizeof(*s->jobs));
	if (!s->jobs)
		return MESH_ENOMEM;
	for (i = 0; i < tr->n; i++) {
		const struct mesh_swf_job *j = &tr->jobs[i];
		long size = job_size(j, s->opts->size_field);
		struct mesh_sim_job *sj;

		if (j->submit < 0) {
			sum->skipped_submit++;
			continue;
		}
		if (j->run < 0 ||
		    (j->run == 0 && !s->opts->keep_zero_runtime)) {
			sum->skipped_runtime++;
			continue;
		}
		if (size <= 0) {
			sum->skipped_size++;
			continue;
		}
		if ((unsigned long) size > s->usable) {
			sum->skipped_too_large++;
			continue;
		}
		sj = &s->jobs[s->n++];
		sj->id = j->id;
		sj->line = j->line;
		sj->submit = j->submit;
		sj->run = j->run;
		sj->trace_run = j->run;
		sj->user = j->user;
		sj->req_time = j->req_time;
		sj->estimate =
		    job_estimate(j, s->opts->estimate, s->opts->limit_quantum);
		sj->size = (uint32_t) size;
	}
	sum->skipped = sum->skipped_runtime + sum->skipped_size +
		       sum->skipped_too_large + sum->skipped_submit;
	qsort(s->jobs, s->n, sizeof(*s->jobs), by_submit);
	if (s->n)
		t0 = s->jobs[0].submit;
	for (i = 0; i < s->n; i++)
		s->jobs[i].submit =
		    t0 + (s->jobs[i].submit - t0) * s->opts->load;
	return 0;
}

static uint64_t job_seed(const struct sim *s, const struct mesh_sim_job *j)
{
	uint64_t x = s->opts->seed ^ ((uint64_t) j->id * 0x9E3779B97F4A7C15ull);

	x ^= x >> 31;
	return x * 0xBF58476D1CE4E5B9ull;
}

static int by_end(const void *a, const void *b)
{
	const struct heap_item *x = a, *y = b;

	return (x->end > y->end) - (x->end < y->end);
}

static int by_node(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}

/* Contention model: the job's traffic joins the network.  Ranks go to
 * its nodes in node-index order, as Slurm's block distribution over a
 * sorted node list gives them, whatever order the allocator chose. */
static int traffic_start(struct sim *s, size_t idx, const uint32_t *nodes)
{
	struct sim_run *r = &s->run[idx];
	enum mesh_comm comm = s->attr[idx].comm;
	double cs = s->attr[idx].comm_share, is = s->attr[idx].io_share;
	int rc;

	r->left = s->jobs[idx].run;
	r->stretch = 1;
	r->res_idx = s->res->n;
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
static void traffic_advance(struct sim *s, double now)
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
static void traffic_restretch(struct sim *s, double now)
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
	qsort(s->heap, s->hlen, sizeof(*s->heap), by_end);
}

/* Contention model: the job leaves the network; its result is final. */
static void traffic_finish(struct sim *s, size_t idx, double now)
{
	struct sim_run *r = &s->run[idx];
	struct mesh_sim_job *res = &s->res->jobs[r->res_idx];

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

/* AdjEst history slot of (user, size): open addressing; the table has
 * room for every accepted job, so a free slot always exists. */
static struct est_hist *hist_slot(struct sim *s, long user, uint32_t size)
{
	uint64_t h = ((uint64_t) user * 0x9E3779B97F4A7C15ull) ^ size;
	size_t i = (size_t) (h % s->hist_cap);

	while (s->hist[i].count &&
	       (s->hist[i].user != user || s->hist[i].size != size))
		i = (i + 1) % s->hist_cap;
	return &s->hist[i];
}

/* A job joins the queue; AdjEst fixes its spatial estimate now, from the
 * jobs finished so far, as Cobalt does at submission. */
static void enqueue(struct sim *s, size_t idx)
{
	struct mesh_sim_job *j = &s->jobs[idx];
	const struct est_hist *h;

	j->spatial_estimate = j->estimate;
	if (s->opts->spatial_estimate == MESH_SPATIAL_ACTUAL) {
		j->spatial_estimate = j->run;
	} else if (s->opts->spatial_estimate == MESH_SPATIAL_ADJUSTED &&
		   j->req_time > 0) {
		h = hist_slot(s, j->user, j->size);
		if (h->count)
			j->spatial_estimate =
			    j->req_time * h->ratio_sum / (double) h->count;
	}
	s->queue[s->qlen++] = idx;
}

static void hist_record(struct sim *s, const struct mesh_sim_job *j, double run)
{
	struct est_hist *h;

	if (s->opts->spatial_estimate != MESH_SPATIAL_ADJUSTED ||
	    j->req_time <= 0)
		return;
	h = hist_slot(s, j->user, j->size);
	h->user = j->user;
	h->size = j->size;
	h->count++;
	h->ratio_sum += run / j->req_time;
}

/* Try to start job idx now; 1 if started, 0 if not placeable, < 0 on
 * error. */
static void make_request(const struct sim *s, size_t idx, double now,
			 struct mesh_request *req)
{
	const struct mesh_sim_job *j = &s->jobs[idx];

	memset(req, 0, sizeof(*req));
	req->nodes = j->size;
	req->end_time = now + j->spatial_estimate;
	req->io_intensity = s->attr[idx].io_intensity;
	req->comm = s->attr[idx].comm;
	memcpy(req->shape, s->attr[idx].shape, sizeof(req->shape));
	req->seed = job_seed(s, j);
}

static int alloc_failed(struct sim *s, size_t idx, int rc)
{
	const struct mesh_sim_job *j = &s->jobs[idx];

	return mesh_diag_set(s->diag, rc, NULL, j->line, "allocator",
			     "%s failed for job %ld (%u nodes): %s",
			     mesh_alloc_name(s->alloc), j->id, j->size,
			     mesh_strerror(rc));
}

/* Start job idx now on the nodes already written at res->nodes +
 * node_fill; returns 1, or < 0 on error. */
static int start_on(struct sim *s, size_t idx, double now)
{
	struct mesh_sim_job *j = &s->jobs[idx];
	uint32_t *out = s->res->nodes + s->node_fill;
	struct mesh_metrics m;
	uint32_t i;
	int rc;

	for (i = 0; i < j->size; i++) {
		mesh_bitmap_clear(s->free_map, out[i]);
		s->node_end[out[i]] = now + j->spatial_estimate;
	}
	s->free_count -= j->size;
	rc = mesh_metrics_compute(s->topo, out, j->size, &m);
	if (rc)
		return rc;
	j->start = now;
	j->end = now + j->run;
	j->node_off = s->node_fill;
	j->sum_pairwise = m.sum_pairwise;
	j->avg_pairwise = m.avg_pairwise;
	j->diameter = m.diameter;
	s->node_fill += j->size;
	if (s->side) {
		for (i = 0; i < j->size; i++)
			s->sys_bf += s->side[out[i]];
		j->sys_balance_factor = s->sys_bf;
	}
	s->start_events++;
	if (s->run) {
		rc = traffic_start(s, idx, out);
		if (rc)
			return rc;
	}
	s->res->jobs[s->res->n++] = *j;
	heap_push(s, j->end, idx);
	s->started++;
	return 1;
}

static int try_start(struct sim *s, size_t idx, double now)
{
	struct mesh_request req;
	struct mesh_view view;
	int rc;

	if (s->jobs[idx].size > s->free_count)
		return 0;
	make_request(s, idx, now, &req);
	view.topo = s->topo;
	view.free = s->free_map;
	view.end_time = s->node_end;
	view.now = now;
	rc = mesh_alloc_place(s->alloc, &view, &req,
			      s->res->nodes + s->node_fill);
	if (rc == MESH_ENOSPC)
		return 0;
	if (rc)
		return alloc_failed(s, idx, rc);
	return start_on(s, idx, now);
}

static void queue_remove(struct sim *s, size_t pos)
{
	memmove(s->queue + pos, s->queue + pos + 1,
		(s->qlen - pos - 1) * sizeof(*s->queue));
	s->qlen--;
}

/* Shadow time and extra nodes for a head job of `need` nodes. */
static void shadow_of(struct sim *s, double now, uint32_t need, double *shadow,
		      uint32_t *extra)
{
	uint32_t avail = s->free_count;
	size_t i;

	for (i = 0; i < s->hlen; i++) {
		const struct mesh_sim_job *j = &s->jobs[s->heap[i].job];

		/* A stretched job may outlive its estimate (contention). */
		s->byest[i].end = fmax(j->start + j->estimate, now);
		s->byest[i].job = s->heap[i].job;
	}
	qsort(s->byest, s->hlen, sizeof(*s->byest), by_end);
	*shadow = INFINITY;
	*extra = 0;
	for (i = 0; i < s->hlen; i++) {
		avail += s->jobs[s->byest[i].job].size;
		/* Nodes of every job ending at the shadow are free then. */
		if (avail >= need && (i + 1 == s->hlen ||
				      s->byest[i + 1].end > s->byest[i].end)) {
			*shadow = s->byest[i].end;
			*extra = avail - need;
			return;
		}
	}
}

static int by_key(const void *a, const void *b)
{
	const struct prio_key *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

/* Özden's wp for every queued job into s->keys (lower first); the
 * position is the submit order. */
static void ozden_keys(struct sim *s)
{
	double sum_r = 0;
	size_t i;

	for (i = 0; i < s->hlen; i++)
		sum_r += s->attr[s->heap[i].job].io_share;
	for (i = 0; i < s->qlen; i++) {
		s->ozden_pos[i] = (double) s->queue[i];
		s->ozden_io[i] = s->attr[s->queue[i]].io_share;
	}
	mesh_ozden_priority(s->opts->alpha, s->ozden_pos, s->ozden_io, s->qlen,
			    sum_r, s->hlen, s->ozden_wp);
	for (i = 0; i < s->qlen; i++)
		s->keys[i].key = s->ozden_wp[i];
}

/* Put the queue in the priority policy's order (ties: submit order). */
static void order_queue(struct sim *s, double now)
{
	size_t i;

	if (s->opts->priority == MESH_PRIO_FCFS || s->qlen < 2)
		return;
	if (s->opts->priority == MESH_PRIO_OZDEN) {
		ozden_keys(s);
	} else {
		for (i = 0; i < s->qlen; i++) {
			const struct mesh_sim_job *j = &s->jobs[s->queue[i]];
			double r = (now - j->submit) / fmax(j->estimate, 1);

			s->keys[i].key = -(r * r * r * j->size);
		}
	}
	for (i = 0; i < s->qlen; i++)
		s->keys[i].job = s->queue[i];
	qsort(s->keys, s->qlen, sizeof(*s->keys), by_key);
	for (i = 0; i < s->qlen; i++)
		s->queue[i] = s->keys[i].job;
}

/* True if some free node is a mesh neighbour of job idx's nodes. */
static int idle_neighbour(const struct sim *s, const struct mesh_sim_job *j)
{
	const struct mesh_topo *t = s->topo;
	const uint32_t *nodes = s->res->nodes + j->node_off;
	int c[3], d, step;
	uint32_t i;

	for (i = 0; i < j->size; i++)
		for (d = 0; d < 3; d++)
			for (step = -1; step <= 1; step += 2) {
				int x;

				mesh_topo_coords(t, nodes[i], c);
				x = c[d] + step;
				if (t->dim[d] == 1 ||
				    (!t->wrap[d] && (x < 0 || x >= t->dim[d])))
					continue;
				c[d] = (x + t->dim[d]) % t->dim[d];
				if (mesh_bitmap_test(s->free_map,
						     mesh_topo_index(t, c)))
					return 1;
			}
	return 0;
}

/* EASY's reservation while backfilling; NULL in the head loop. */
struct reservation {
	double shadow;
	uint32_t extra;
};

/* Tang's paired job filling (Alg. 2) after job idx started: if it has
 * idle neighbours, start the queued job of the same size whose spatial
 * estimate is closest (ties: queue order), provided it fits now and, in
 * EASY's backfill phase, respects the reservation.  Returns the queue
 * position it took + 1, 0 if none, or < 0 on error. */
static long paired_fill(struct sim *s, size_t idx, double now,
			struct reservation *resv)
{
	const struct mesh_sim_job *j = &s->jobs[idx];
	size_t pos, best = SIZE_MAX;
	double dd = INFINITY;
	int rc, in_time;

	if (!s->opts->paired_filling ||
	    (s->opts->pf_max_size && j->size > s->opts->pf_max_size) ||
	    j->size > s->free_count || !idle_neighbour(s, j))
		return 0;
	for (pos = 0; pos < s->qlen; pos++) {
		const struct mesh_sim_job *w = &s->jobs[s->queue[pos]];
		double d = fabs(w->spatial_estimate - j->spatial_estimate);

		if (w->size == j->size && d < dd) {
			dd = d;
			best = pos;
		}
	}
	if (best == SIZE_MAX)
		return 0;
	in_time =
	    !resv || now + s->jobs[s->queue[best]].estimate <= resv->shadow;
	if (!in_time && j->size > resv->extra)
		return 0;
	rc = try_start(s, s->queue[best], now);
	if (rc <= 0)
		return rc;
	if (!in_time)
		resv->extra -= j->size;
	queue_remove(s, best);
	return (long) best + 1;
}

/* Running jobs as holds released at their estimated ends. */
static size_t running_holds(struct sim *s, double now)
{
	size_t i;

	for (i = 0; i < s->hlen; i++) {
		const struct mesh_sim_job *j = &s->jobs[s->heap[i].job];
		struct mesh_plan_hold *h = &s->holds[i];

		h->start = j->start;
		h->end = fmax(j->start + j->estimate, now);
		h->nodes = s->res->nodes + j->node_off;
		h->n = j->size;
	}
	return s->hlen;
}

/* Conservative backfilling (Mu'alem and Feitelson 2001) with the
 * allocator in the loop: in queue order, each job gets the earliest time
 * and nodes at which the allocator can place it around the running jobs
 * and the reservations of the jobs ahead (mesh_plan_earliest); a job
 * whose time is now starts on those nodes.  Rebuilt at every event, so
 * reservations only move earlier. */
static int schedule_conservative(struct sim *s, double now)
{
	struct mesh_plan_query q;
	struct mesh_request req;
	size_t pos = 0, nres = 0, used = 0, idx;
	double start;
	int rc;

	memset(&q, 0, sizeof(q));
	q.free_now = s->free_map;
	q.now = now;
	q.running = s->holds;
	q.n_running = running_holds(s, now);
	q.reserved = s->resv;
	q.end_time = s->node_end;
	while (pos < s->qlen) {
		idx = s->queue[pos];
		make_request(s, idx, now, &req);
		q.n_reserved = nres;
		q.duration = s->jobs[idx].estimate;
		rc = mesh_plan_earliest(s->planner, s->alloc, &q, &req, &start,
					s->resv_nodes + used);
		if (rc == MESH_ENOSPC) { /* not even on the idle machine */
			s->res->summary.refused++;
			queue_remove(s, pos);
			continue;
		}
		if (rc)
			return alloc_failed(s, idx, rc);
		if (start > now) {
			s->resv[nres].start = start;
			s->resv[nres].end = start + s->jobs[idx].estimate;
			s->resv[nres].nodes = s->resv_nodes + used;
			s->resv[nres++].n = s->jobs[idx].size;
			used += s->jobs[idx].size;
			pos++;
			continue;
		}
		memcpy(s->res->nodes + s->node_fill, s->resv_nodes + used,
		       s->jobs[idx].size * sizeof(uint32_t));
		rc = start_on(s, idx, now);
		if (rc < 0)
			return rc;
		queue_remove(s, pos);
		q.n_running = running_holds(s, now);
		if (s->opts->priority == MESH_PRIO_OZDEN)
			order_queue(s, now); /* wp depends on running jobs */
	}
	return 0;
}

static int schedule(struct sim *s, double now)
{
	struct reservation resv;
	size_t pos, idx;
	long paired;
	int rc;

	if (s->opts->sched == MESH_SCHED_CONSERVATIVE)
		return schedule_conservative(s, now);
	order_queue(s, now);
	while (s->qlen) {
		idx = s->queue[0];
		rc = try_start(s, idx, now);
		if (rc < 0)
			return rc;
		if (!rc && s->hlen)
			break;
		/* Started; or refused with nothing running, i.e. on the whole
		 * free mesh: it can never start, so it is dropped (counted)
		 * instead of holding up the queue. */
		if (!rc)
			s->res->summary.refused++;
		queue_remove(s, 0);
		if (rc && (paired = paired_fill(s, idx, now, NULL)) < 0)
			return (int) paired;
		if (s->opts->priority == MESH_PRIO_OZDEN)
			order_queue(s, now); /* wp depends on running jobs */
	}
	if (!s->qlen || s->opts->sched != MESH_SCHED_EASY)
		return 0;
	shadow_of(s, now, s->jobs[s->queue[0]].size, &resv.shadow, &resv.extra);
	for (pos = 1; pos < s->qlen; pos++) {
		struct mesh_sim_job *j = &s->jobs[s->queue[pos]];
		int ends_in_time = now + j->estimate <= resv.shadow;

		if (j->size > s->free_count ||
		    (!ends_in_time && j->size > resv.extra))
			continue;
		idx = s->queue[pos];
		rc = try_start(s, idx, now);
		if (rc < 0)
			return rc;
		if (!rc)
			continue;
		if (!ends_in_time)
			resv.extra -= j->size;
		queue_remove(s, pos--);
		paired = paired_fill(s, idx, now, &resv);
		if (paired < 0)
			return (int) paired;
		if (paired && (size_t) paired - 1 <= pos)
			pos--; /* the paired job stood before the cursor */
	}
	return 0;
}

static void finish(struct sim *s, size_t idx)
{
	const struct mesh_sim_job *j = &s->jobs[idx];
	uint32_t i, node;

	for (i = 0; i < j->size; i++) {
		node = s->res->nodes[j->node_off + i];
		mesh_bitmap_set(s->free_map, node);
		s->node_end[node] = 0;
		if (s->side)
			s->sys_bf -= s->side[node];
	}
	s->free_count += j->size;
}

/* After the scheduling pass at an event: count the interval since the
 * previous event, then note this event's idle nodes and whether some
 * queued job would fit in their number. */
static void loc_event(struct sim *s, double now)
{
	struct sim_loc *l = &s->loc;
	size_t i;

	if (!l->started) {
		l->started = 1;
		l->first = now;
	} else if (l->prev_delta) {
		l->lost += (double) l->prev_idle * (now - l->prev);
	}
	l->prev = now;
	l->prev_idle = s->free_count;
	l->prev_delta = 0;
	for (i = 0; i < s->qlen && !l->prev_delta; i++)
		l->prev_delta = s->jobs[s->queue[i]].size <= s->free_count;
}

static int run_loop(struct sim *s)
{
	size_t total = s->n, next_report = 0;
	double now;
	int rc;

	while (s->next_arrival < s->n || s->hlen || s->qlen) {
		now = INFINITY;
		if (s->hlen)
			now = s->heap[0].end;
		if (s->next_arrival < s->n &&
		    s->jobs[s->next_arrival].submit < now)
			now = s->jobs[s->next_arrival].submit;
		/* schedule() empties the queue of an idle machine, so some
		 * event is always pending while jobs wait. */
		if (now == INFINITY)
			return MESH_EINTERNAL;
		if (s->opts->runtime_model != MESH_RUNTIME_TRACE)
			traffic_advance(s, now);
		while (s->hlen && s->heap[0].end <= now) {
			size_t idx = heap_pop(s).job;

			finish(s, idx);
			if (s->run)
				traffic_finish(s, idx, now);
			hist_record(s, &s->jobs[idx], now - s->jobs[idx].start);
		}
		while (s->next_arrival < s->n &&
		       s->jobs[s->next_arrival].submit <= now)
			enqueue(s, s->next_arrival++);
		rc = schedule(s, now);
		if (rc < 0)
			return rc;
		if (s->opts->runtime_model != MESH_RUNTIME_TRACE)
			traffic_restretch(s, now);
		loc_event(s, now);
		if (s->opts->progress && s->started >= next_report) {
			s->opts->progress(s->opts->progress_arg, s->started,
					  total);
			next_report = s->started + 1024;
		}
	}
	return 0;
}

/* Size class of a job: 0 for 1 node, c for 2^(c-1) < size <= 2^c. */
static size_t size_class(uint32_t size)
{
	size_t c = 0;

	while (c + 1 < MESH_SIM_SIZE_CLASSES && ((uint64_t) 1 << c) < size)
		c++;
	return c;
}

static void summarise_classes(struct mesh_sim_result *r)
{
	struct mesh_size_class cl[MESH_SIM_SIZE_CLASSES];
	struct mesh_sim_summary *sum = &r->summary;
	size_t i, c;

	memset(cl, 0, sizeof(cl));
	for (i = 0; i < r->n; i++) {
		const struct mesh_sim_job *j = &r->jobs[i];
		double w = j->start - j->submit;

		c = size_class(j->size);
		cl[c].jobs++;
		cl[c].mean_wait += w;
		cl[c].mean_bounded_slowdown +=
		    fmax(1.0, (w + j->run) / fmax(j->run, 10.0));
	}
	sum->n_size_classes = 0;
	for (c = 0; c < MESH_SIM_SIZE_CLASSES; c++) {
		if (!cl[c].jobs)
			continue;
		cl[c].min = c ? (uint32_t) ((1ull << (c - 1)) + 1) : 1;
		cl[c].max = (uint32_t) (1ull << c);
		cl[c].mean_wait /= (double) cl[c].jobs;
		cl[c].mean_bounded_slowdown /= (double) cl[c].jobs;
		sum->by_size[sum->n_size_classes++] = cl[c];
	}
}

static void summarise_events(struct sim *s)
{
	struct mesh_sim_summary *sum = &s->res->summary;
	double span = s->loc.prev - s->loc.first;

	sum->loss_of_capacity =
	    span > 0 && s->usable ? s->loc.lost / (s->usable * span) : 0;
	if (s->start_events && s->topo->n_io) {
		sum->avg_balance_factor = s->bf_sum / (double) s->start_events;
		sum->avg_max_contention = s->mc_sum / (double) s->start_events;
	}
}

double mesh_sim_job_stretch(const struct mesh_sim_job *j)
{
	return j->trace_run > 0 ? j->run / j->trace_run : 1;
}

static void summarise(struct mesh_sim_result *r, uint32_t nodes)
{
	struct mesh_sim_summary *sum = &r->summary;
	double first = INFINITY, last = 0, work = 0, wait = 0, bsld = 0;
	double pair = 0, avg_multi = 0, stretch = 0, io = 0, service = 0;
	size_t i, multi = 0;

	sum->jobs = r->n;
	for (i = 0; i < r->n; i++) {
		const struct mesh_sim_job *j = &r->jobs[i];
		double w = j->start - j->submit;

		first = j->submit < first ? j->submit : first;
		last = j->end > last ? j->end : last;
		work += j->run * j->size;
		wait += w;
		bsld += fmax(1.0, (w + j->run) / fmax(j->run, 10.0));
		pair += (double) j->sum_pairwise;
		stretch += mesh_sim_job_stretch(j);
		io += j->io_time;
		service += j->run;
		if (j->size >= 2) {
			avg_multi += j->avg_pairwise;
			multi++;
		}
	}
	if (!r->n)
		return;
	sum->makespan = last - first;
	sum->utilization =
	    sum->makespan > 0 ? work / (nodes * sum->makespan) : 0;
	sum->mean_wait = wait / (double) r->n;
	sum->mean_bounded_slowdown = bsld / (double) r->n;
	sum->mean_sum_pairwise = pair / (double) r->n;
	sum->mean_avg_pairwise_multi = multi ? avg_multi / (double) multi : 0;
	sum->mean_stretch = stretch / (double) r->n;
	sum->mean_service_time = service / (double) r->n;
	sum->total_io_time = io;
	summarise_classes(r);
}

static int sim_alloc(struct sim *s)
{
	uint64_t total_nodes = 0;
	size_t i;

	for (i = 0; i < s->n; i++)
		total_nodes += s->jobs[i].size;
	s->res->jobs = calloc(s->n ? s->n : 1, sizeof(*s->res->jobs));
	s->res->nodes =
	    malloc((total_nodes ? total_nodes : 1) * sizeof(uint32_t));
	s->queue = malloc((s->n ? s->n : 1) * sizeof(*s->queue));
	s->heap = malloc((s->n ? s->n : 1) * sizeof(*s->heap));
	s->byest = malloc((s->n ? s->n : 1) * sizeof(*s->byest));
	s->node_end = calloc(s->topo->nodes, sizeof(*s->node_end));
	if (!s->res->jobs || !s->res->nodes || !s->queue || !s->heap ||
	    !s->byest || !s->node_end ||
	    mesh_bitmap_create(s->topo->nodes, &s->free_map))
		return MESH_ENOMEM;
	if (s->opts->usable)
		mesh_bitmap_copy(s->free_map, s->opts->usable);
	else
		mesh_bitmap_fill(s->free_map, true);
	s->free_count = mesh_bitmap_count(s->free_map);
	if (s->opts->spatial_estimate == MESH_SPATIAL_ADJUSTED) {
		s->hist_cap = 2 * s->n + 1;
		s->hist = calloc(s->hist_cap, sizeof(*s->hist));
		if (!s->hist)
			return MESH_ENOMEM;
	}
	s->attr = calloc(s->n ? s->n : 1, sizeof(*s->attr));
	s->keys = malloc((s->n ? s->n : 1) * sizeof(*s->keys));
	s->ozden_pos = malloc((s->n ? s->n : 1) * 3 * sizeof(double));
	if (!s->attr || !s->keys || !s->ozden_pos)
		return MESH_ENOMEM;
	s->ozden_io = s->ozden_pos + (s->n ? s->n : 1);
	s->ozden_wp = s->ozden_io + (s->n ? s->n : 1);
	for (i = 0; i < s->n; i++) {
		struct mesh_sim_job_info *a = &s->attr[i];

		a->comm = s->opts->comm;
		a->comm_share = s->opts->comm_share;
		a->io_share = s->opts->io_share;
		a->io_intensity = -1;
		if (s->opts->job_info)
			s->opts->job_info(s->opts->job_info_arg, s->jobs[i].id,
					  a);
		if (!(a->comm_share >= 0 && a->io_share >= 0 &&
		      a->comm_share + a->io_share <= 1))
			return mesh_diag_set(
			    s->diag, MESH_EINVAL, NULL, s->jobs[i].line,
			    "attributes",
			    "job %ld: communication share %g and I/O share %g "
			    "must be in [0, 1] with a sum <= 1",
			    s->jobs[i].id, a->comm_share, a->io_share);
	}
	if (s->topo->n_io) {
		s->side = malloc(s->topo->nodes);
		if (!s->side || mesh_io_balance_sides(s->topo, s->side))
			return MESH_ENOMEM;
	}
	if (s->opts->sched == MESH_SCHED_CONSERVATIVE) {
		s->holds = malloc((s->n ? s->n : 1) * sizeof(*s->holds));
		s->resv = malloc((s->n ? s->n : 1) * sizeof(*s->resv));
		s->resv_nodes =
		    malloc((total_nodes ? total_nodes : 1) * sizeof(uint32_t));
		if (!s->holds || !s->resv || !s->resv_nodes ||
		    mesh_planner_create(s->topo, &s->planner))
			return MESH_ENOMEM;
	}
	if (s->opts->runtime_model != MESH_RUNTIME_TRACE || s->topo->n_io) {
		s->run = calloc(s->n ? s->n : 1, sizeof(*s->run));
		if (!s->run)
			return MESH_ENOMEM;
	}
	if (s->opts->runtime_model == MESH_RUNTIME_CONTENTION ||
	    s->topo->n_io) {
		s->ranks = malloc(s->topo->nodes * sizeof(*s->ranks));
		if (!s->ranks || mesh_net_create(s->topo, &s->net))
			return MESH_ENOMEM;
	}
	return 0;
}

static void sim_free(struct sim *s)
{
	size_t i;

	for (i = 0; s->run && i < s->n; i++)
		mesh_job_traffic_free(&s->run[i].traffic);
	free(s->run);
	free(s->ranks);
	free(s->attr);
	free(s->keys);
	free(s->ozden_pos);
	free(s->hist);
	free(s->holds);
	free(s->resv);
	free(s->resv_nodes);
	mesh_planner_destroy(s->planner);
	free(s->side);
	mesh_net_destroy(s->net);
	free(s->jobs);
	free(s->queue);
	free(s->heap);
	free(s->byest);
	free(s->node_end);
	mesh_bitmap_destroy(s->free_map);
}

int mesh_sim_run(const struct mesh_topo *t, struct mesh_allocator *a,
		 const struct mesh_swf_trace *tr, const struct mesh_sim_opts *o,
		 struct mesh_sim_result **out, struct mesh_diag *d)
{
	struct sim s;
	int rc;

	if (!t || !a || !tr || !o || !out || !(o->load > 0) ||
	    !isfinite(o->load) || !(o->comm_share >= 0) ||
	    !(o->io_share >= 0) || o->comm_share + o->io_share > 1 ||
	    !(o->alpha >= 0 && o->alpha <= 1) || !(o->pfs_bandwidth > 0) ||
	    !(o->node_bandwidth > 0) ||
	    (o->usable && o->usable->nbits != t->nodes) ||
	    !(o->limit_quantum >= 0))
		return MESH_EINVAL;
	memset(&s, 0, sizeof(s));
	s.topo = t;
	s.alloc = a;
	s.opts = o;
	s.diag = d;
	s.res = calloc(1, sizeof(*s.res));
	if (!s.res)
		return MESH_ENOMEM;
	s.usable = o->usable ? mesh_bitmap_count(o->usable) : t->nodes;
	rc = accept_jobs(&s, tr);
	if (!rc)
		rc = sim_alloc(&s);
	if (!rc)
		rc = run_loop(&s);
	if (!rc) {
		summarise(s.res, s.usable);
		summarise_events(&s);
	}
	if (!rc && o->progress)
		o->progress(o->progress_arg, s.n, s.n);
	sim_free(&s);
	if (rc) {
		mesh_sim_result_free(s.res);
		return rc;
	}
	*out = s.res;
	return 0;
}

void mesh_sim_result_free(struct mesh_sim_result *r)
{
	if (!r)
		return;
	free(r->jobs);
	free(r->nodes);
	free(r);
}
