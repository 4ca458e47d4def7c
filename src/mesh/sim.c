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

#include "error.h"
#include "ioload.h"
#include "metrics.h"
#include "rng.h"
#include "sim_internal.h"

void mesh_sim_opts_init(struct mesh_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sched = MESH_SCHED_EASY;
	o->estimate = MESH_ESTIMATE_CLAMP;
	o->size_field = MESH_SIZE_ALLOC;
	o->cores_per_node = 1;
	o->load = 1.0;
	o->keep_zero_runtime = 1;
	o->keep_nodes = 1;
	o->bootstrap_seed = 1;
	mesh_net_params_init(&o->net);
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

/* Whole nodes for the job's processors; <= 0 if the trace gives none. */
static long job_size(const struct mesh_swf_job *j,
		     const struct mesh_sim_opts *o)
{
	enum mesh_size_field f = o->size_field;
	long first = f == MESH_SIZE_ALLOC ? j->procs : j->req_procs;
	long second = f == MESH_SIZE_ALLOC ? j->req_procs : j->procs;
	long procs = first > 0 ? first : second;
	long c = o->cores_per_node > 1 ? (long) o->cores_per_node : 1;

	return procs > 0 ? (procs + c - 1) / c : procs;
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

static int kept_by_filters(const struct mesh_swf_job *j,
			   const struct mesh_sim_opts *o)
{
	size_t i;

	if (o->keep_status && (j->status < -1 || j->status > 5 ||
			       !(o->keep_status & (1u << (j->status + 1)))))
		return 0;
	for (i = 0; i < o->n_partitions; i++)
		if (o->partitions[i] == j->partition)
			return 1;
	return !o->n_partitions;
}

/* The window of s->opts over the jobs kept (sorted by submit): those of
 * the part run, its warm-up and cool-down unmeasured.  Part p of n
 * (0-based) holds the submits x with floor((x - lo) n / span) = p, the
 * latest job in the last part; measured are those at least warmup after
 * the part's start and more than cooldown before its end. */
static void take_window(struct sim *s)
{
	const struct mesh_sim_opts *o = s->opts;
	unsigned n = o->window_parts ? o->window_parts : 1;
	unsigned p = o->window_parts ? o->window_index - 1 : 0;
	double lo, span, a, b, x;
	size_t i, k = 0;

	if (!s->n)
		return;
	lo = s->jobs[0].submit;
	span = s->jobs[s->n - 1].submit - lo;
	a = lo + span * p / n;
	b = lo + span * (p + 1) / n;
	for (i = 0; i < s->n; i++) {
		x = s->jobs[i].submit;
		if ((span > 0 ? fmin(n - 1, floor((x - lo) * n / span)) : 0) !=
		    p) {
			s->res->summary.outside_window++;
			continue;
		}
		s->jobs[k] = s->jobs[i];
		s->jobs[k++].measured =
		    (o->warmup <= 0 || x - a >= o->warmup) &&
		    (o->cooldown <= 0 || b - x > o->cooldown);
	}
	s->n = k;
}

#define WEEK_SECONDS 604800.0

/* Bootstrap (s->opts->bootstrap) of the jobs kept, sorted by submit;
 * they stay sorted.  0 or MESH_ENOMEM. */
static int resample(struct sim *s)
{
	const struct mesh_sim_opts *o = s->opts;
	uint64_t seed = o->bootstrap_seed, w, k, n_weeks, b;
	struct mesh_sim_job *out;
	size_t *first, i, n = 0, cap;
	double lo;

	if (o->bootstrap == MESH_BOOTSTRAP_NONE || !s->n)
		return 0;
	if (o->bootstrap == MESH_BOOTSTRAP_JOB) {
		out = malloc(s->n * sizeof(*out));
		if (!out)
			return MESH_ENOMEM;
		for (i = 0; i < s->n; i++) {
			out[i] = s->jobs[mesh__below(&seed, s->n)];
			out[i].submit = s->jobs[i].submit;
		}
		free(s->jobs);
		s->jobs = out;
		return 0;
	}
	lo = s->jobs[0].submit;
	n_weeks =
	    (uint64_t) floor((s->jobs[s->n - 1].submit - lo) / WEEK_SECONDS) +
	    1;
	first = calloc(n_weeks + 1, sizeof(*first));
	if (!first)
		return MESH_ENOMEM;
	for (i = 0, w = 0; w <= n_weeks; w++) { /* first job of week w */
		while (i < s->n && s->jobs[i].submit - lo < w * WEEK_SECONDS)
			i++;
		first[w] = i;
	}
	first[n_weeks] = s->n;
	cap = s->n;
	out = malloc(cap * sizeof(*out));
	for (k = 0; out && k < n_weeks; k++) {
		b = mesh__below(&seed, n_weeks);
		if (n + (first[b + 1] - first[b]) > cap) {
			struct mesh_sim_job *more;

			cap = 2 * cap + (first[b + 1] - first[b]);
			more = realloc(out, cap * sizeof(*out));
			if (!more) {
				free(out);
				out = NULL;
				break;
			}
			out = more;
		}
		for (i = first[b]; i < first[b + 1]; i++) {
			out[n] = s->jobs[i];
			out[n++].submit +=
			    ((double) k - (double) b) * WEEK_SECONDS;
		}
	}
	free(first);
	if (!out)
		return MESH_ENOMEM;
	free(s->jobs);
	s->jobs = out;
	s->n = n;
	return 0;
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
		long size = job_size(j, s->opts);
		struct mesh_sim_job *sj;

		if (!kept_by_filters(j, s->opts)) {
			sum->filtered++;
			continue;
		}
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
	if (resample(s))
		return MESH_ENOMEM;
	take_window(s);
	if (s->n)
		t0 = s->jobs[0].submit;
	for (i = 0; i < s->n; i++)
		s->jobs[i].submit =
		    t0 + (s->jobs[i].submit - t0) * s->opts->load;
	return 0;
}

int mesh__sim_by_end(const void *a, const void *b)
{
	const struct heap_item *x = a, *y = b;

	return (x->end > y->end) - (x->end < y->end);
}

/* Without keep_nodes the node list holds 2 x usable entries: when a
 * job's nodes would not fit, the running jobs' nodes (at most usable)
 * move to the spare buffer, which becomes the list, so a move follows
 * at least usable new nodes. */
uint32_t *mesh__sim_node_slot(struct sim *s, uint32_t size)
{
	uint32_t *dst = s->node_spare;
	size_t i, fill = 0;

	if (s->node_fill + size <= s->node_cap)
		return s->res->nodes + s->node_fill;
	for (i = 0; i < s->hlen; i++) {
		size_t idx = s->heap[i].job;
		struct mesh_sim_job *j = &s->jobs[idx];

		memcpy(dst + fill, s->res->nodes + j->node_off,
		       j->size * sizeof(*dst));
		j->node_off = fill;
		s->res->jobs[s->rec[idx]].node_off = fill;
		fill += j->size;
	}
	s->node_spare = s->res->nodes;
	s->res->nodes = dst;
	s->node_fill = fill;
	return dst + fill;
}

/* Start job idx now on the nodes already written at
 * mesh__sim_node_slot(); returns 1, or < 0 on error. */
int mesh__sim_start_on(struct sim *s, size_t idx, double now)
{
	struct mesh_sim_job *j = &s->jobs[idx];
	uint32_t *out = s->res->nodes + s->node_fill;
	struct mesh_metrics m;
	uint32_t i;
	int rc;

	rc = mesh__sim_check_start(s, idx, out, now);
	if (rc)
		return rc;
	if (s->promised && now > s->promised[idx]) {
		struct mesh_sim_summary *sum = &s->res->summary;
		double late = now - s->promised[idx];

		if (s->opts->sched == MESH_SCHED_EASY) {
			sum->late_heads++;
			sum->max_head_delay = fmax(sum->max_head_delay, late);
		} else {
			sum->late_reserved++;
			sum->max_reserved_delay =
			    fmax(sum->max_reserved_delay, late);
		}
	}
	for (i = 0; i < j->size; i++) {
		mesh_bitmap_clear(s->free_map, out[i]);
		s->node_end[out[i]] = now + j->spatial_estimate;
	}
	s->free_count -= j->size;
	rc = mesh_metrics_select(s->topo, out, j->size,
				 MESH_METRICS_PAIRWISE | MESH_METRICS_DIAMETER |
				     MESH_METRICS_BOX,
				 &m);
	if (rc)
		return rc;
	j->start = now;
	j->end = now + j->run;
	j->node_off = s->node_fill;
	j->sum_pairwise = m.sum_pairwise;
	j->avg_pairwise = m.avg_pairwise;
	j->diameter = m.diameter;
	j->on_box = m.nodes_affected == j->size;
	s->node_fill += j->size;
	if (s->side) {
		for (i = 0; i < j->size; i++)
			s->sys_bf += s->side[out[i]];
		j->sys_balance_factor = s->sys_bf;
	}
	s->start_events++;
	if (s->run) {
		rc = mesh__sim_rt_start(s, idx, out);
		if (rc)
			return rc;
	}
	s->rec[idx] = s->res->n;
	s->res->jobs[s->res->n++] = *j;
	heap_push(s, j->end, idx);
	s->started++;
	return 1;
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

/* The events at now in the heap: jobs that end leave (1 is returned if
 * any did); jobs at a phase boundary enter their next phase and go back
 * into the heap (restretched by the caller).  Returns < 0 on error. */
static int heap_events(struct sim *s, double now)
{
	size_t n_phase = 0, i;
	int ended = 0, rc;

	while (s->hlen && s->heap[0].end <= now) {
		size_t idx = heap_pop(s).job;

		if (s->run && !mesh__sim_rt_event(s, idx)) {
			s->byest[n_phase++].job = idx;
			continue;
		}
		finish(s, idx);
		if (s->run)
			mesh__sim_rt_finish(s, idx, now);
		rc = mesh__sim_check_end(s, idx, &s->res->jobs[s->rec[idx]],
					 now);
		if (rc)
			return rc;
		mesh__sim_hist_record(s, &s->jobs[idx],
				      now - s->jobs[idx].start);
		ended = 1;
	}
	for (i = 0; i < n_phase; i++)
		heap_push(s, INFINITY, s->byest[i].job);
	return ended;
}

/* Passes at one simulated time with no job ending or arriving after
 * which the run stops (a phase change needs one; more is a clock that
 * cannot advance). */
#define MAX_STILL_EVENTS 64

static int run_loop(struct sim *s)
{
	size_t total = s->n, next_report = 0;
	int dynamic = s->opts->runtime_model != MESH_RUNTIME_TRACE;
	int rc, ended, arrived;
	double now, last = -INFINITY;

	s->wake = INFINITY;
	unsigned still = 0;

	while (s->next_arrival < s->n || s->hlen || s->qlen) {
		now = INFINITY;
		if (s->hlen)
			now = s->heap[0].end;
		if (s->next_arrival < s->n &&
		    s->jobs[s->next_arrival].submit < now)
			now = s->jobs[s->next_arrival].submit;
		if (s->wake < now) /* conservative-count's next reservation */
			now = s->wake;
		/* The scheduling pass empties the queue of an idle machine,
		 * so some event is always pending while jobs wait. */
		if (now == INFINITY)
			return MESH_EINTERNAL;
		if (dynamic)
			mesh__sim_rt_advance(s, now);
		ended = heap_events(s, now);
		if (ended < 0)
			return ended;
		for (arrived = 0; s->next_arrival < s->n &&
				  s->jobs[s->next_arrival].submit <= now;
		     arrived = 1)
			if ((rc = mesh__sim_enqueue(s, s->next_arrival++,
						    now)) < 0)
				return rc;
		/* a phase boundary alone changes no queue or node: the
		 * scheduler is not called and loss of capacity not cut */
		if ((ended || arrived || now == s->wake) &&
		    (rc = mesh__sim_schedule(s, now)) < 0)
			return rc;
		if (dynamic)
			mesh__sim_rt_restretch(s, now);
		/* Phase boundaries alone at one instant, again and again:
		 * a phase shorter than the clock's resolution at this time.
		 * Ends and arrivals are finite, so this bound ends every
		 * run. */
		still = now == last && !ended && !arrived ? still + 1 : 0;
		last = now;
		if (still > MAX_STILL_EVENTS)
			return mesh_diag_set(
			    s->diag, MESH_EINTERNAL, NULL,
			    s->jobs[s->heap[0].job].line, "runtime_model",
			    "job %ld: the simulated clock stopped at %.17g s "
			    "(%u passes of phase boundaries alone at that "
			    "time: a phase shorter than the clock's "
			    "resolution there)",
			    s->jobs[s->heap[0].job].id, now, still);
		if (ended || arrived)
			mesh__sim_loc_event(s, now);
		/* the last report, total of total, is mesh_sim_run's */
		if (s->opts->progress && s->started >= next_report &&
		    s->started < total) {
			s->opts->progress(s->opts->progress_arg, s->started,
					  total);
			next_report = s->started + 1024;
		}
	}
	return mesh__sim_check_done(s);
}

/* Every accepted job's attributes: the defaults, then job_info's. */
static int load_attrs(struct sim *s)
{
	size_t i;

	s->attr = calloc(s->n ? s->n : 1, sizeof(*s->attr));
	if (!s->attr)
		return MESH_ENOMEM;
	for (i = 0; i < s->n; i++) {
		struct mesh_sim_job_info *a = &s->attr[i];

		a->comm = s->opts->comm;
		a->comm_share = s->opts->comm_share;
		a->io_share = s->opts->io_share;
		a->io_intensity = -1;
		a->compute_phase = a->checkpoint_phase = a->io_volume = -1;
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
	return 0;
}

/* Per-job and per-node arrays, the free map and the planner. */
static int alloc_state(struct sim *s, uint64_t total_nodes)
{
	size_t n = s->n ? s->n : 1, i;

	s->node_cap = total_nodes ? total_nodes : 1;
	if (!s->opts->keep_nodes && s->n &&
	    s->node_cap > 2 * (uint64_t) s->usable) {
		s->node_cap = 2 * (size_t) s->usable;
		s->node_spare = malloc(s->node_cap * sizeof(uint32_t));
		if (!s->node_spare)
			return MESH_ENOMEM;
	}
	s->res->jobs = calloc(n, sizeof(*s->res->jobs));
	s->res->nodes = malloc(s->node_cap * sizeof(uint32_t));
	s->queue = malloc(n * sizeof(*s->queue));
	s->heap = malloc(n * sizeof(*s->heap));
	s->byest = malloc(n * sizeof(*s->byest));
	s->rec = malloc(n * sizeof(*s->rec));
	s->node_end = calloc(s->topo->nodes, sizeof(*s->node_end));
	s->keys = malloc(n * sizeof(*s->keys));
	s->ozden_pos = malloc(n * 3 * sizeof(double));
	if (!s->res->jobs || !s->res->nodes || !s->queue || !s->heap ||
	    !s->byest || !s->rec || !s->node_end || !s->keys || !s->ozden_pos ||
	    mesh__sim_check_create(s) ||
	    mesh_bitmap_create(s->topo->nodes, &s->free_map))
		return MESH_ENOMEM;
	s->ozden_io = s->ozden_pos + n;
	s->ozden_wp = s->ozden_io + n;
	if (s->opts->usable)
		mesh_bitmap_copy(s->free_map, s->opts->usable);
	else
		mesh_bitmap_fill(s->free_map, true);
	s->free_count = mesh_bitmap_count(s->free_map);
	if (mesh_alloc_flags(s->alloc) &
	    (MESH_ALLOC_CONTIGUOUS_ONLY | MESH_ALLOC_MAY_REFUSE)) {
		s->empty_nodes =
		    malloc(s->topo->nodes * sizeof(*s->empty_nodes));
		s->ever_by_size = calloc(s->topo->nodes + 1, 1);
		if (!s->empty_nodes || !s->ever_by_size ||
		    mesh_bitmap_create(s->topo->nodes, &s->empty_map))
			return MESH_ENOMEM;
		mesh_bitmap_copy(s->empty_map, s->free_map);
		if (s->opts->sched == MESH_SCHED_EASY &&
		    (mesh_bitmap_create(s->topo->nodes, &s->head_resv) ||
		     mesh_bitmap_create(s->topo->nodes, &s->outside_resv)))
			return MESH_ENOMEM;
	}
	if (s->opts->sched != MESH_SCHED_FCFS) {
		s->promised = malloc(n * sizeof(*s->promised));
		if (!s->promised)
			return MESH_ENOMEM;
		for (i = 0; i < n; i++)
			s->promised[i] = NAN;
	}
	if (s->opts->sched == MESH_SCHED_CONSERVATIVE_COUNT) {
		/* per pass each job's reservation splits at most two
		 * steps, its test one, and taking a new one two more */
		size_t steps = 6 * n + s->topo->nodes + 2;

		s->prof_t = malloc(steps * sizeof(*s->prof_t));
		s->prof_free = malloc(steps * sizeof(*s->prof_free));
		s->held = malloc(n * sizeof(*s->held));
		s->tail_size = malloc(n * sizeof(*s->tail_size));
		s->tail_est = malloc(n * sizeof(*s->tail_est));
		if (!s->prof_t || !s->prof_free || !s->held || !s->tail_size ||
		    !s->tail_est)
			return MESH_ENOMEM;
		for (i = 0; i < n; i++)
			s->held[i] = NAN;
	}
	if (s->opts->sched == MESH_SCHED_CONSERVATIVE || s->head_resv) {
		s->holds = malloc(n * sizeof(*s->holds));
		s->resv = malloc(n * sizeof(*s->resv));
		s->resv_maps = calloc(n, sizeof(*s->resv_maps));
		s->resv_nodes = malloc(s->topo->nodes * sizeof(uint32_t));
		s->tail_size = malloc(n * sizeof(*s->tail_size));
		s->tail_est = malloc(n * sizeof(*s->tail_est));
		s->pending = malloc(n * sizeof(*s->pending));
		s->floors = malloc(n * sizeof(*s->floors));
		if (!s->holds || !s->resv || !s->resv_maps || !s->resv_nodes ||
		    !s->tail_size || !s->tail_est || !s->pending ||
		    !s->floors ||
		    mesh_bitmap_create(s->topo->nodes, &s->unpromised) ||
		    mesh_planner_create(s->topo, &s->planner))
			return MESH_ENOMEM;
	}
	return 0;
}

static int sim_alloc(struct sim *s)
{
	uint64_t total_nodes = 0;
	size_t i;
	int rc;

	for (i = 0; i < s->n; i++)
		total_nodes += s->jobs[i].size;
	rc = alloc_state(s, total_nodes);
	if (!rc)
		rc = load_attrs(s);
	if (rc)
		return rc;
	if (s->opts->spatial_estimate == MESH_SPATIAL_ADJUSTED) {
		s->hist_cap = 2 * s->n + 1;
		s->hist = calloc(s->hist_cap, sizeof(*s->hist));
		if (!s->hist)
			return MESH_ENOMEM;
	}
	if (s->topo->n_io) {
		s->side = malloc(s->topo->nodes);
		if (!s->side || mesh_io_balance_sides(s->topo, s->side))
			return MESH_ENOMEM;
	}
	return mesh__sim_rt_create(s);
}

static void sim_free(struct sim *s)
{
	size_t i;

	mesh__sim_rt_destroy(s);
	free(s->attr);
	free(s->keys);
	free(s->ozden_pos);
	free(s->hist);
	free(s->holds);
	free(s->resv);
	for (i = 0; s->resv_maps && i < s->n; i++)
		mesh_bitmap_destroy(s->resv_maps[i]);
	free(s->resv_maps);
	free(s->resv_nodes);
	free(s->tail_size);
	free(s->tail_est);
	free(s->pending);
	free(s->floors);
	mesh_bitmap_destroy(s->unpromised);
	mesh_planner_destroy(s->planner);
	free(s->side);
	free(s->jobs);
	free(s->queue);
	free(s->heap);
	free(s->byest);
	free(s->rec);
	free(s->node_spare);
	mesh__sim_check_destroy(s);
	free(s->node_end);
	mesh_bitmap_destroy(s->free_map);
	mesh_bitmap_destroy(s->empty_map);
	mesh_bitmap_destroy(s->head_resv);
	free(s->promised);
	free(s->prof_t);
	free(s->prof_free);
	free(s->held);
	mesh_bitmap_destroy(s->outside_resv);
	free(s->empty_nodes);
	free(s->ever_by_size);
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
	    !(o->alpha >= 0 && o->alpha <= 1) || !(o->net.link_bw > 0) ||
	    !(o->net.node_bw > 0) || !(o->net.ion_bw > 0) ||
	    !(o->net.fs_bw > 0) ||
	    (o->usable && o->usable->nbits != t->nodes) ||
	    !(o->limit_quantum >= 0) ||
	    (o->window_parts &&
	     (o->window_index < 1 || o->window_index > o->window_parts)) ||
	    !(o->warmup >= 0) || !isfinite(o->warmup) || !(o->cooldown >= 0) ||
	    !isfinite(o->cooldown) || o->bootstrap > MESH_BOOTSTRAP_WEEK)
		return MESH_EINVAL;
	if (o->sched == MESH_SCHED_CONSERVATIVE_COUNT &&
	    (mesh_alloc_flags(a) &
	     (MESH_ALLOC_CONTIGUOUS_ONLY | MESH_ALLOC_MAY_REFUSE)))
		return mesh_diag_set(
		    d, MESH_EINVAL, NULL, 0, "scheduler",
		    "conservative-count reserves node counts, but allocator "
		    "%s may refuse a job while enough nodes are free (it "
		    "places contiguous blocks or buddies only), so a count "
		    "would promise a start it cannot keep; use conservative",
		    mesh_alloc_name(a));
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
	if (!rc)
		rc = mesh__sim_summarise(&s);
	if (!o->keep_nodes) { /* only the last running jobs' nodes */
		free(s.res->nodes);
		s.res->nodes = NULL;
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
