/* sim_sched.c - the simulator's scheduling pass: queue order (FCFS,
 * WFP, Özden), FCFS, EASY and conservative backfilling, and Tang's
 * paired filling.
 *
 * HOW IT WORKS: EASY (Lifka 1995; Mu'alem and Feitelson 2001) starts
 * queue-head jobs while they fit; when the head does not, it reserves
 * for it the earliest time (the shadow) at which enough nodes will be
 * free given running jobs' estimated ends, and starts any later job that
 * fits now and either ends by the shadow or uses only nodes the head
 * will not need then ("extra" nodes).  Conservative backfilling gives
 * every queued job a placement-aware reservation from the planner
 * (plan.h) and starts those whose reservation is now; conservative-count
 * keeps count reservations in a free-node profile over time and
 * compresses them at every event.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "plan.h"
#include "priority.h"
#include "sim_internal.h"

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

static void make_request(const struct sim *s, size_t idx, double now,
			 struct mesh_request *req);
static int alloc_failed(struct sim *s, size_t idx, int rc);

/* An allocator that may refuse with enough nodes free (a box of the
 * job's size, its shape) is asked at submission whether it places the
 * job on the empty machine: a job no placement can ever hold is refused
 * then, not held at the head of FCFS and EASY until the machine drains.
 * 1 if it can ever be placed, 0 if not, < 0 on error. */
static int ever_placeable(struct sim *s, size_t idx, double now)
{
	struct mesh_request req;
	struct mesh_view view;
	unsigned char *known = NULL;
	int rc;

	if (!s->empty_map)
		return 1;
	make_request(s, idx, now, &req);
	/* Without a shape (and I/O) the answer depends on the size alone. */
	if (!req.shape[0] && !req.shape[1] && !req.shape[2] &&
	    !(mesh_alloc_flags(s->alloc) & MESH_ALLOC_USES_IO)) {
		known = &s->ever_by_size[req.nodes];
		if (*known)
			return *known == 1;
	}
	view.topo = s->topo;
	view.free = s->empty_map;
	view.end_time = s->node_end;
	view.now = now;
	rc = mesh_alloc_place(s->alloc, &view, &req, s->empty_nodes);
	if (rc && rc != MESH_ENOSPC)
		return alloc_failed(s, idx, rc);
	if (known)
		*known = rc ? 2 : 1;
	return !rc;
}

/* A job joins the queue, or is refused if it can never be placed (1);
 * AdjEst fixes its spatial estimate now, from the jobs finished so far,
 * as Cobalt does at submission.  0, 1, or < 0 on error. */
int mesh__sim_enqueue(struct sim *s, size_t idx, double now)
{
	struct mesh_sim_job *j = &s->jobs[idx];
	const struct est_hist *h;
	int rc = ever_placeable(s, idx, now);

	if (rc <= 0) {
		if (!rc)
			s->res->summary.refused++;
		return rc < 0 ? rc : 1;
	}

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
	return 0;
}

void mesh__sim_hist_record(struct sim *s, const struct mesh_sim_job *j,
			   double run)
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

static uint64_t job_seed(const struct sim *s, const struct mesh_sim_job *j)
{
	uint64_t x = s->opts->seed ^ ((uint64_t) j->id * 0x9E3779B97F4A7C15ull);

	x ^= x >> 31;
	return x * 0xBF58476D1CE4E5B9ull;
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

/* A job that needs every free node can only get those nodes from an
 * allocator that places whenever k nodes are free (alloc.h: no
 * CONTIGUOUS_ONLY or MAY_REFUSE, and an answer that depends only on the
 * view).  Only their order would be the allocator's, and when nothing
 * reads it (no kept node lists, ranks in index order) the nodes are
 * taken in index order without the call: in issue 37's replays a fifth
 * of the decisions and a third of mc1x1's time. */
static int forced(const struct sim *s, uint32_t size)
{
	return size == s->free_count && !s->opts->keep_nodes &&
	       s->opts->rank_order == MESH_RANKS_INDEX &&
	       !(mesh_alloc_flags(s->alloc) &
		 (MESH_ALLOC_CONTIGUOUS_ONLY | MESH_ALLOC_MAY_REFUSE));
}

/* (sim_check.c checks the list like any allocator's answer.) */
static int take_all_free(struct sim *s, size_t idx, double now)
{
	uint32_t size = s->jobs[idx].size, *out = mesh__sim_node_slot(s, size);
	uint32_t n = 0, w;
	uint64_t x;

	for (w = 0; w < (s->topo->nodes + 63) / 64; w++)
		for (x = s->free_map->words[w]; x && n < size; x &= x - 1)
			out[n++] = w * 64 + (uint32_t) __builtin_ctzll(x);
	s->res->forced_starts++;
	return mesh__sim_start_on(s, idx, now);
}

/* Start job idx now on nodes of free (the free map, or the free nodes
 * outside the head's reservation) if the allocator places it there: 1,
 * 0 if not, < 0 on error. */
static int try_start_in(struct sim *s, size_t idx, double now,
			const struct mesh_bitmap *free)
{
	struct mesh_request req;
	struct mesh_view view;
	int rc;

	if (s->jobs[idx].size > s->free_count)
		return 0;
	if (free == s->free_map && forced(s, s->jobs[idx].size))
		return take_all_free(s, idx, now);
	make_request(s, idx, now, &req);
	view.topo = s->topo;
	view.free = free;
	view.end_time = s->node_end;
	view.now = now;
	rc = mesh_alloc_place(s->alloc, &view, &req,
			      mesh__sim_node_slot(s, req.nodes));
	if (rc == MESH_ENOSPC)
		return 0;
	if (rc)
		return alloc_failed(s, idx, rc);
	return mesh__sim_start_on(s, idx, now);
}

static int try_start(struct sim *s, size_t idx, double now)
{
	return try_start_in(s, idx, now, s->free_map);
}

static void queue_remove(struct sim *s, size_t pos)
{
	memmove(s->queue + pos, s->queue + pos + 1,
		(s->qlen - pos - 1) * sizeof(*s->queue));
	s->qlen--;
}

/* The running jobs into s->byest by estimated end. */
static void by_estimated_end(struct sim *s, double now)
{
	size_t i;

	for (i = 0; i < s->hlen; i++) {
		const struct mesh_sim_job *j = &s->jobs[s->heap[i].job];

		/* A stretched job may outlive its estimate (contention). */
		s->byest[i].end =
		    mesh_plan_running_end(j->start + j->estimate, now);
		s->byest[i].job = s->heap[i].job;
	}
	qsort(s->byest, s->hlen, sizeof(*s->byest), mesh__sim_by_end);
}

/* Shadow time and extra nodes for a head job of `need` nodes. */
static void shadow_of(struct sim *s, double now, uint32_t need, double *shadow,
		      uint32_t *extra)
{
	uint32_t avail = s->free_count;
	size_t i;

	by_estimated_end(s, now);
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
		sum_r += mesh__sim_io_intensity(s, s->heap[i].job);
	for (i = 0; i < s->qlen; i++) {
		s->ozden_pos[i] = (double) s->queue[i];
		s->ozden_io[i] = mesh__sim_io_intensity(s, s->queue[i]);
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
/* EASY's promise to the queue head: it starts by the shadow time.  A
 * job that would still run then uses only extra nodes (a count, for
 * allocators that place whenever enough nodes are free) or only nodes
 * outside the head's reserved placement (outside: s->outside_resv). */
struct reservation {
	double shadow;
	uint32_t extra;
	int outside;
};

static size_t running_holds(struct sim *s);

/* A planner query around the running jobs at now, no reservations yet. */
static void plan_query(struct sim *s, double now, struct mesh_plan_query *q)
{
	memset(q, 0, sizeof(*q));
	q->free_now = s->free_map;
	q->now = now;
	q->running = s->holds;
	q->n_running = running_holds(s);
	q->end_time = s->node_end;
}

/* The free nodes outside the head's reserved placement. */
static void update_outside(struct sim *s)
{
	uint32_t w, words = (s->topo->nodes + 63) / 64;

	for (w = 0; w < words; w++)
		s->outside_resv->words[w] =
		    s->free_map->words[w] & ~s->head_resv->words[w];
}

/* Start job idx as a backfill under resv: a job that ends by the shadow
 * may use any free node; one that does not, the extra nodes or the nodes
 * outside the head's placement.  1 started, 0 not, < 0 on error. */
static int backfill_start(struct sim *s, size_t idx, double now,
			  struct reservation *resv)
{
	const struct mesh_sim_job *j = &s->jobs[idx];
	int in_time = now + j->estimate <= resv->shadow, rc;

	if (in_time)
		rc = try_start(s, idx, now);
	else if (resv->outside)
		rc = try_start_in(s, idx, now, s->outside_resv);
	else
		rc = j->size > resv->extra ? 0 : try_start(s, idx, now);
	if (rc <= 0)
		return rc;
	if (resv->outside)
		update_outside(s);
	else if (!in_time)
		resv->extra -= j->size;
	return 1;
}

/* The head's earliest placement around the running jobs, by the planner
 * (as conservative backfilling reserves): its start is the shadow, its
 * nodes are kept free for it. */
static int reserve_placement(struct sim *s, double now, size_t idx,
			     struct reservation *resv)
{
	struct mesh_plan_query q;
	struct mesh_request req;
	uint32_t i;
	int rc;

	plan_query(s, now, &q);
	q.duration = s->jobs[idx].estimate;
	make_request(s, idx, now, &req);
	rc = mesh_plan_earliest(s->planner, s->alloc, &q, &req, &resv->shadow,
				s->resv_nodes);
	if (rc)
		return alloc_failed(s, idx, rc);
	mesh_bitmap_fill(s->head_resv, false);
	for (i = 0; i < s->jobs[idx].size; i++)
		mesh_bitmap_set(s->head_resv, s->resv_nodes[i]);
	resv->extra = 0;
	resv->outside = 1;
	update_outside(s);
	return 0;
}

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
	int rc;

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
	rc = resv ? backfill_start(s, s->queue[best], now, resv)
		  : try_start(s, s->queue[best], now);
	if (rc <= 0)
		return rc;
	queue_remove(s, best);
	return (long) best + 1;
}

/* Running jobs as holds released at their estimated ends. */
static size_t running_holds(struct sim *s)
{
	size_t i;

	for (i = 0; i < s->hlen; i++) {
		const struct mesh_sim_job *j = &s->jobs[s->heap[i].job];
		struct mesh_plan_hold *h = &s->holds[i];

		h->start = j->start;
		h->end =
		    j->start + j->estimate; /* the planner moves a past end */
		h->nodes = s->res->nodes + j->node_off;
		h->n = j->size;
	}
	return s->hlen;
}

/* Conservative's cut-off.  A pass rebuilds the reservations only to
 * learn which jobs start now; the next event rebuilds them again.  A
 * job starts now only on free nodes outside the reservations ahead of
 * it that begin before now + its estimate.  So once fewer such nodes
 * remain, for the smallest estimate from this queue position on, than
 * the smallest size from here on, no later job can start and the pass
 * ends with the same starts.  It pays where every free node is
 * promised; a short job that fits deep in the queue still needs the
 * whole pass (NASA 16x8, plas, contention: 2.2x fewer seconds). */
static void tails_compute(struct sim *s, size_t pos)
{
	uint32_t k = UINT32_MAX;
	double d = INFINITY;
	size_t i = s->qlen;

	while (i-- > pos) {
		const struct mesh_sim_job *j = &s->jobs[s->queue[i]];

		k = j->size < k ? j->size : k;
		d = j->estimate < d ? j->estimate : d;
		s->tail_size[i] = k;
		s->tail_est[i] = d;
	}
}

static double pending_start(const struct sim *s, size_t i)
{
	return s->resv[s->pending[i]].start;
}

static void pending_push(struct sim *s, size_t r)
{
	size_t i = s->n_pending++, up;

	for (; i && pending_start(s, up = (i - 1) / 2) > s->resv[r].start;
	     i = up)
		s->pending[i] = s->pending[up];
	s->pending[i] = r;
}

static size_t pending_pop(struct sim *s)
{
	size_t top = s->pending[0], last = s->pending[--s->n_pending], i = 0;
	size_t c;

	while ((c = 2 * i + 1) < s->n_pending) {
		if (c + 1 < s->n_pending &&
		    pending_start(s, c + 1) < pending_start(s, c))
			c++;
		if (pending_start(s, c) >= s->resv[last].start)
			break;
		s->pending[i] = s->pending[c];
		i = c;
	}
	s->pending[i] = last;
	return top;
}

/* From the free map, with reservations 0..nres-1 pending. */
static void cutoff_reset(struct sim *s, size_t pos, size_t nres)
{
	size_t r;

	mesh_bitmap_copy(s->unpromised, s->free_map);
	s->n_pending = 0;
	for (r = 0; r < nres; r++)
		pending_push(s, r);
	tails_compute(s, pos);
}

/* 1 if no job from queue position pos on can start now.  The estimate
 * bound only grows along the queue, so a reservation taken out stays
 * out (a reordered queue resets). */
static int none_can_start(struct sim *s, double now, size_t pos)
{
	double before = now + s->tail_est[pos];
	uint32_t w, words = (s->topo->nodes + 63) / 64;

	while (s->n_pending && pending_start(s, 0) < before) {
		const struct mesh_bitmap *m = s->resv[pending_pop(s)].nodes;

		for (w = 0; w < words; w++)
			s->unpromised->words[w] &= ~m->words[w];
	}
	return mesh_bitmap_count(s->unpromised) < s->tail_size[pos];
}

/* The latest first_enough of the jobs planned so far in this pass that
 * need no more nodes, for no longer: the job cannot start before it.
 * Every job in the pass plans around the running jobs and the
 * reservations of the jobs before it, which include those each of these
 * saw, over a window as long or longer, so it has no more free nodes at
 * any time than they had and needs as many; the scan skips what they
 * proved.  On a saturated queue nearly all of a scan's candidates lie
 * before it (NASA 16x8, plas, contention: 97%). */
static double floor_of(const struct plan_floor *f, size_t n, uint32_t nodes,
		       double duration)
{
	double t = -INFINITY;
	size_t i;

	for (i = 0; i < n; i++)
		if (f[i].nodes <= nodes && f[i].duration <= duration &&
		    f[i].first_enough > t)
			t = f[i].first_enough;
	return t;
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
	struct mesh_plan_stats stats;
	struct mesh_request req;
	struct mesh_bitmap *map;
	size_t pos = 0, nres = 0, nfloors = 0, idx;
	uint32_t i;
	double start, lower;
	int rc;

	order_queue(s, now);
	plan_query(s, now, &q);
	q.reserved = s->resv;
	q.stats = &stats;
	q.not_before = &lower;
	cutoff_reset(s, 0, 0);
	while (pos < s->qlen && !none_can_start(s, now, pos)) {
		idx = s->queue[pos];
		make_request(s, idx, now, &req);
		q.n_reserved = nres;
		q.duration = s->jobs[idx].estimate;
		lower = floor_of(s->floors, nfloors, req.nodes, q.duration);
		rc = mesh_plan_earliest(s->planner, s->alloc, &q, &req, &start,
					s->resv_nodes);
		if (!rc && stats.first_enough > now) {
			s->floors[nfloors].nodes = req.nodes;
			s->floors[nfloors].duration = q.duration;
			s->floors[nfloors++].first_enough = stats.first_enough;
		}
		if (rc == MESH_ENOSPC) { /* not even on the idle machine */
			s->res->summary.refused++;
			queue_remove(s, pos);
			tails_compute(s, pos);
			continue;
		}
		if (rc)
			return alloc_failed(s, idx, rc);
		if (start > now) {
			if (!s->resv_maps[nres] &&
			    mesh_bitmap_create(s->topo->nodes,
					       &s->resv_maps[nres]))
				return MESH_ENOMEM;
			map = s->resv_maps[nres];
			mesh_bitmap_fill(map, false);
			for (i = 0; i < s->jobs[idx].size; i++)
				mesh_bitmap_set(map, s->resv_nodes[i]);
			if (isnan(s->promised[idx]))
				s->promised[idx] = start;
			s->resv[nres].start = start;
			s->resv[nres].end = start + s->jobs[idx].estimate;
			s->resv[nres].nodes = map;
			pending_push(s, nres++);
			pos++;
			continue;
		}
		memcpy(mesh__sim_node_slot(s, s->jobs[idx].size), s->resv_nodes,
		       s->jobs[idx].size * sizeof(uint32_t));
		rc = mesh__sim_start_on(s, idx, now);
		if (rc < 0)
			return rc;
		queue_remove(s, pos);
		q.n_running = running_holds(s);
		if (s->opts->priority == MESH_PRIO_OZDEN) {
			order_queue(s, now); /* wp depends on running jobs */
			cutoff_reset(s, pos, nres);
			continue;
		}
		for (i = 0; i < (s->topo->nodes + 63) / 64; i++)
			s->unpromised->words[i] &= s->free_map->words[i];
		tails_compute(s, pos);
	}
	return 0;
}

/* conservative-count's profile at now: the free nodes, and each running
 * job's nodes back at its estimated end. */
static void profile_reset(struct sim *s, double now)
{
	size_t i, p = 0;

	by_estimated_end(s, now);
	s->prof_t[0] = now;
	s->prof_free[0] = s->free_count;
	for (i = 0; i < s->hlen; i++) {
		uint32_t size = s->jobs[s->byest[i].job].size;

		if (s->byest[i].end > s->prof_t[p]) {
			s->prof_t[p + 1] = s->byest[i].end;
			s->prof_free[p + 1] = s->prof_free[p];
			p++;
		}
		s->prof_free[p] += size;
	}
	s->n_prof = p + 1;
}

/* Where a count reservation of a job with estimate d from t ends: a
 * zero estimate still holds its nodes for an instant, as the job does
 * once it starts, until its end is processed. */
static double held_until(double t, double d)
{
	return d > 0 ? t + d : nextafter(t, INFINITY);
}

/* The first step at whose start k nodes stay free for d seconds.  The
 * last step has every usable node free, and k <= usable. */
static size_t profile_find(const struct sim *s, uint32_t k, double d)
{
	size_t i = 0, j;

	for (;;) {
		while (s->prof_free[i] < (int64_t) k)
			i++;
		for (j = i + 1; j < s->n_prof &&
				s->prof_t[j] < held_until(s->prof_t[i], d);
		     j++)
			if (s->prof_free[j] < (int64_t) k)
				break;
		if (j == s->n_prof ||
		    !(s->prof_t[j] < held_until(s->prof_t[i], d)))
			return i;
		i = j;
	}
}

/* The index of the step that starts at t (>= prof_t[0]), split off the
 * step that holds t if there is none. */
static size_t profile_split(struct sim *s, double t)
{
	size_t j = s->n_prof;

	while (s->prof_t[j - 1] > t)
		j--;
	if (s->prof_t[j - 1] == t)
		return j - 1;
	memmove(s->prof_t + j + 1, s->prof_t + j,
		(s->n_prof - j) * sizeof(*s->prof_t));
	memmove(s->prof_free + j + 1, s->prof_free + j,
		(s->n_prof - j) * sizeof(*s->prof_free));
	s->prof_t[j] = t;
	s->prof_free[j] = s->prof_free[j - 1];
	s->n_prof++;
	return j;
}

/* 1 if k nodes are free from start to end. */
static int profile_holds(struct sim *s, double start, double end, uint32_t k)
{
	size_t j;

	for (j = profile_split(s, start); j < s->n_prof && s->prof_t[j] < end;
	     j++)
		if (s->prof_free[j] < (int64_t) k)
			return 0;
	return 1;
}

/* k nodes taken (take) or given back (!take) from start to end. */
static void profile_change(struct sim *s, double start, double end, uint32_t k,
			   int take)
{
	size_t j;

	if (!(end > start))
		return;
	profile_split(s, end);
	for (j = profile_split(s, start); s->prof_t[j] < end; j++)
		s->prof_free[j] += take ? -(int64_t) k : (int64_t) k;
}

/* Classic conservative backfilling with compression (Mu'alem and
 * Feitelson 2001): every queued job holds a count reservation, kept
 * from event to event.  In queue order each job gives its reservation
 * back and takes the earliest time at which the count profile holds it
 * for its estimate; its old time is still free, so under FCFS order and
 * estimates that hold no job starts later than its first reservation.
 * A job whose time is now starts on the nodes the allocator picks among
 * all free ones, which it places whenever k are free.  Once no later
 * reservation is due now and fewer nodes are free now than any later
 * job needs, none of them can start and the pass ends; their
 * reservations stay as they are, still valid (a saturated NASA replay:
 * 700 s without this, 11 s with it). */
static int schedule_conservative_count(struct sim *s, double now)
{
	/* Another order rebuilds the reservations in it at every pass. */
	int reorders = s->opts->priority != MESH_PRIO_FCFS, rc;
	size_t pos, i, idx, due = 0;
	double t;

	order_queue(s, now);
	profile_reset(s, now);
	/* The reservations kept; one that no longer fits, as jobs outlived
	 * their estimates, is dropped and found again below. */
	for (pos = 0; pos < s->qlen; pos++) {
		idx = s->queue[pos];
		t = fmax(s->held[idx], now);
		if (isnan(s->held[idx]))
			continue;
		if (!reorders &&
		    profile_holds(s, t, held_until(t, s->jobs[idx].estimate),
				  s->jobs[idx].size)) {
			profile_change(s, t,
				       held_until(t, s->jobs[idx].estimate),
				       s->jobs[idx].size, 1);
			due += t == now;
		} else {
			s->held[idx] = NAN;
		}
	}
	tails_compute(s, 0);
	for (pos = 0; pos < s->qlen;) {
		if (!due && s->prof_free[0] < (int64_t) s->tail_size[pos])
			break;
		idx = s->queue[pos];
		t = fmax(s->held[idx], now);
		if (!isnan(s->held[idx])) {
			due -= t == now;
			profile_change(s, t,
				       held_until(t, s->jobs[idx].estimate),
				       s->jobs[idx].size, 0);
		}
		i = profile_find(s, s->jobs[idx].size, s->jobs[idx].estimate);
		if (i) {
			t = s->prof_t[i];
			if (isnan(s->promised[idx]))
				s->promised[idx] = t;
			s->held[idx] = t;
			profile_change(s, t,
				       held_until(t, s->jobs[idx].estimate),
				       s->jobs[idx].size, 1);
			pos++;
			continue;
		}
		/* Running now, it holds its nodes as profile_reset() says. */
		profile_change(s, now, held_until(now, s->jobs[idx].estimate),
			       s->jobs[idx].size, 1);
		rc = try_start(s, idx, now);
		if (rc < 0)
			return rc;
		if (!rc)
			return mesh_diag_set(
			    s->diag, MESH_EINTERNAL, NULL, s->jobs[idx].line,
			    "scheduler",
			    "job %ld: allocator %s refused %u nodes with %u "
			    "free under conservative-count",
			    s->jobs[idx].id, mesh_alloc_name(s->alloc),
			    s->jobs[idx].size, s->free_count);
		s->held[idx] = NAN;
		queue_remove(s, pos);
		if (s->opts->priority == MESH_PRIO_OZDEN)
			order_queue(s, now); /* wp depends on running jobs */
		tails_compute(s, pos);
	}
	/* A reservation's start is an event: the job must start then. */
	for (s->wake = INFINITY, pos = 0; pos < s->qlen; pos++)
		s->wake = fmin(s->wake, s->held[s->queue[pos]]);
	return 0;
}

int mesh__sim_schedule(struct sim *s, double now)
{
	struct reservation resv;
	size_t pos, idx;
	long paired;
	int rc;

	if (s->opts->sched == MESH_SCHED_CONSERVATIVE)
		return schedule_conservative(s, now);
	if (s->opts->sched == MESH_SCHED_CONSERVATIVE_COUNT)
		return schedule_conservative_count(s, now);
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
	if (s->head_resv) {
		rc = reserve_placement(s, now, s->queue[0], &resv);
		if (rc < 0)
			return rc;
	} else {
		shadow_of(s, now, s->jobs[s->queue[0]].size, &resv.shadow,
			  &resv.extra);
		resv.outside = 0;
	}
	if (isnan(s->promised[s->queue[0]]))
		s->promised[s->queue[0]] = resv.shadow;
	for (pos = 1; pos < s->qlen; pos++) {
		idx = s->queue[pos];
		rc = backfill_start(s, idx, now, &resv);
		if (rc < 0)
			return rc;
		if (!rc)
			continue;
		queue_remove(s, pos--);
		paired = paired_fill(s, idx, now, &resv);
		if (paired < 0)
			return (int) paired;
		if (paired && (size_t) paired - 1 <= pos)
			pos--; /* the paired job stood before the cursor */
	}
	return 0;
}
