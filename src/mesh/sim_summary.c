/* sim_summary.c - the simulator's metrics: per-event loss of capacity
 * (Tang et al. eq. 1) and, after the run, the means over jobs and size
 * classes that the summary reports.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "sim_internal.h"

/* After the scheduling pass at an event: count the interval since the
 * previous event, then note this event's idle nodes and whether some
 * queued job would fit in their number. */
void mesh__sim_loc_event(struct sim *s, double now)
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

/* Size class of a job: 0 for 1 node, c for 2^(c-1) < size <= 2^c. */
static size_t size_class(uint32_t size)
{
	size_t c = 0;

	while (c + 1 < MESH_SIM_SIZE_CLASSES && ((uint64_t) 1 << c) < size)
		c++;
	return c;
}

/* Bounded slowdown (tau = 10 s) against the trace runtime. */
static double bounded_slowdown(const struct mesh_sim_job *j)
{
	return fmax(1.0,
		    (j->start - j->submit + j->run) / fmax(j->trace_run, 10.0));
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

		if (!j->measured)
			continue;
		c = size_class(j->size);
		cl[c].jobs++;
		cl[c].mean_wait += w;
		cl[c].mean_bounded_slowdown += bounded_slowdown(j);
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

const int mesh_sim_tails[MESH_SIM_N_TAILS] = { 50, 95, 99, 100 };

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* v[0..n) sorted, then its nearest-rank percentiles into tail. */
static void tails(double *v, size_t n, double *tail)
{
	size_t t, rank;

	qsort(v, n, sizeof(*v), cmp_double);
	for (t = 0; t < MESH_SIM_N_TAILS; t++) {
		/* ceil(p n / 100), in integers: exact for any n */
		rank = ((size_t) mesh_sim_tails[t] * n + 99) / 100;
		tail[t] = v[rank ? rank - 1 : 0];
	}
}

/* The wait and bounded-slowdown tails; 0 or MESH_ENOMEM. */
static int summarise_tails(struct mesh_sim_result *r)
{
	double *v = malloc((r->n ? r->n : 1) * sizeof(*v));
	size_t i, m = 0;

	if (!v)
		return MESH_ENOMEM;
	for (i = 0; i < r->n; i++)
		if (r->jobs[i].measured)
			v[m++] = r->jobs[i].start - r->jobs[i].submit;
	if (m)
		tails(v, m, r->summary.wait_tail);
	for (i = 0, m = 0; i < r->n; i++)
		if (r->jobs[i].measured)
			v[m++] = bounded_slowdown(&r->jobs[i]);
	if (m)
		tails(v, m, r->summary.bsld_tail);
	free(v);
	return 0;
}

static void summarise(struct mesh_sim_result *r, uint32_t nodes)
{
	struct mesh_sim_summary *sum = &r->summary;
	double first = INFINITY, last = 0, work = 0, busy = 0, wait = 0;
	double bsld = 0;
	double pair = 0, avg_multi = 0, stretch = 0, io = 0, service = 0;
	size_t i, multi = 0, boxes = 0, m = 0;

	sum->jobs = r->n;
	for (i = 0; i < r->n; i++) {
		const struct mesh_sim_job *j = &r->jobs[i];
		double w = j->start - j->submit;

		first = j->submit < first ? j->submit : first;
		last = j->end > last ? j->end : last;
		work += j->trace_run * j->size;
		busy += j->run * j->size;
		io += j->io_time;
		if (!j->measured)
			continue;
		m++;
		wait += w;
		bsld += bounded_slowdown(j);
		pair += (double) j->sum_pairwise;
		stretch += mesh_sim_job_stretch(j);
		service += j->run;
		if (j->size >= 2) {
			avg_multi += j->avg_pairwise;
			boxes += (size_t) j->on_box;
			multi++;
		}
	}
	sum->measured = m;
	if (!r->n)
		return;
	sum->makespan = last - first;
	sum->utilization =
	    sum->makespan > 0 ? work / (nodes * sum->makespan) : 0;
	sum->occupied_utilization =
	    sum->makespan > 0 ? busy / (nodes * sum->makespan) : 0;
	sum->total_io_time = io;
	if (!m)
		return;
	sum->mean_wait = wait / (double) m;
	sum->mean_bounded_slowdown = bsld / (double) m;
	sum->mean_sum_pairwise = pair / (double) m;
	sum->mean_avg_pairwise_multi = multi ? avg_multi / (double) multi : 0;
	sum->box_share_multi = multi ? (double) boxes / (double) multi : 0;
	sum->mean_stretch = stretch / (double) m;
	sum->mean_service_time = service / (double) m;
	summarise_classes(r);
}

int mesh__sim_summarise(struct sim *s)
{
	summarise(s->res, s->usable);
	summarise_events(s);
	return s->res->n ? summarise_tails(s->res) : 0;
}
