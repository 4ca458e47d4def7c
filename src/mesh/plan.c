/* plan.c - earliest-start planning (plan.h).
 *
 * HOW IT WORKS: the candidate start times are now and every end of a
 * running job or reservation, in order.  The free set at time t is the
 * nodes free now, plus those of running jobs ended by t, minus those of
 * reservations that overlap [t, t + duration).  A running job past its
 * estimated end is planned as ending just after now
 * (mesh_plan_running_end()), so at t = now the set is free_now alone.
 *
 * Without reservations the free set only grows with t, so feasibility is
 * monotone for every allocator whose answer depends on a superset
 * monotonically:
 *   - allocators that place whenever k nodes are free (no CONTIGUOUS_ONLY
 *     or MAY_REFUSE flag): the first t with k free nodes, found by
 *     counting, then one placement;
 *   - contiguous-only allocators: a free box stays free in a superset,
 *     so after one placement at the first t with k free nodes (often
 *     the answer), a binary search over the later candidates needs
 *     O(log R) placements;
 *   - buddy systems that may refuse with k nodes free: no monotonicity is
 *     claimed, so every candidate with k free nodes is tried in order.
 * With reservations the set can shrink as t grows (a reservation
 * starts), so the candidates are scanned in order, skipping those with
 * fewer than k free nodes without calling the allocator.  So is a query
 * with in_order set.  Reservations are bitmaps, counted per node a word
 * at a time (scan()).
 *
 * A query may bring its own placement (q->place), e.g. select/mesh's
 * "requested count, else the minimum, more nodes for a CPU minimum,
 * contiguous-only fallback".  It replaces the allocator call at each
 * candidate; the search above is unchanged, and the count path's
 * fallback to the scan on a refusal keeps it exact for a hook that
 * needs more than req->nodes free.
 * mesh_plan_earliest_naive() is the definition (every candidate, set
 * rebuilt, one placement each); tests check both agree.
 */
#include "plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc_internal.h"
#include "error.h"

struct by_end {
	uint64_t key; /* the end as time_key(); key_time() gives it back */
	size_t job;
};

struct mesh_planner {
	const struct mesh_topo *topo;
	struct mesh_bitmap *base;  /* free now + running ended so far */
	struct mesh_bitmap *cur;   /* base minus overlapping reservations */
	struct mesh_bitmap *floor; /* bisect: base at the latest refusal */
	struct mesh_bitmap *held;  /* scan: the reservations in the window */
	double *times;             /* candidate start times, sorted */
	struct by_end *order;      /* running jobs by end */
	struct by_end *ends;       /* reservations' ends after now, sorted */
	struct by_end *starts;     /* the same reservations by start */
	struct by_end *tmp;        /* radix sort scratch */
	uint8_t *state; /* per reservation in scan(): waiting, in, gone */
	/* scan(): per node, how many reservations in the window hold it,
	 * as n_planes bit planes: word i's plane b at planes[i * n_planes +
	 * b] (bit-sliced counters, added and subtracted a word at a time) */
	uint64_t *planes;
	unsigned n_planes;    /* planes per word, enough for every count */
	unsigned planes_used; /* planes a count in the window can reach */
	size_t in_window;     /* reservations in the window */
	/* the running jobs' keys in job order when order was sorted:
	 * backfill asks about many jobs while the same jobs run */
	uint64_t *keys;
	size_t n_keys;
	size_t cap_times, cap_order, cap_ends, cap_starts, cap_state, cap_tmp;
	size_t cap_keys, cap_planes;
	/* The reservations of the last call (by value), sorted into ends
	 * and starts: a caller that appends to the same list, as
	 * conservative's pass does, pays one insertion per new one. */
	const struct mesh_plan_resv *seen_list;
	struct mesh_plan_resv *seen;
	size_t n_seen, m_seen, cap_seen;
	double seen_now;
	size_t places;         /* this search's placement calls */
	double first_enough;   /* mesh_plan_stats.first_enough */
	int truncated;         /* the bound skipped candidates */
	struct timespec begun; /* when this search began (max_seconds) */
};

int mesh_planner_create(const struct mesh_topo *t, struct mesh_planner **out)
{
	struct mesh_planner *p = calloc(1, sizeof(*p));

	if (!p)
		return MESH_ENOMEM;
	p->topo = t;
	if (mesh_bitmap_create(t->nodes, &p->base) ||
	    mesh_bitmap_create(t->nodes, &p->cur) ||
	    mesh_bitmap_create(t->nodes, &p->floor) ||
	    mesh_bitmap_create(t->nodes, &p->held)) {
		mesh_planner_destroy(p);
		return MESH_ENOMEM;
	}
	*out = p;
	return 0;
}

void mesh_planner_destroy(struct mesh_planner *p)
{
	if (!p)
		return;
	mesh_bitmap_destroy(p->base);
	mesh_bitmap_destroy(p->cur);
	mesh_bitmap_destroy(p->floor);
	mesh_bitmap_destroy(p->held);
	free(p->times);
	free(p->order);
	free(p->ends);
	free(p->starts);
	free(p->state);
	free(p->planes);
	free(p->tmp);
	free(p->keys);
	free(p->seen);
	free(p);
}

static int grow(void **buf, size_t *cap, size_t n, size_t size)
{
	void *nb;

	if (n <= *cap)
		return 0;
	nb = realloc(*buf, n * size);
	if (!nb)
		return MESH_ENOMEM;
	*buf = nb;
	*cap = n;
	return 0;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* An unsigned key in the order of x (not NaN): the sign bit set for
 * x >= 0, every bit flipped for x < 0; -0 counts as +0. */
static uint64_t time_key(double x)
{
	uint64_t u;

	x += 0.0; /* -0 + 0 is +0 */
	memcpy(&u, &x, sizeof(u));
	return (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
}

/* The time of a key from time_key(). */
static double key_time(uint64_t key)
{
	uint64_t u = (key >> 63) ? key & ~(UINT64_C(1) << 63) : ~key;
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

/* Stable LSD radix sort of v[0 .. n - 1] by key, a byte at a time, over
 * the bytes in which the keys differ (nearby times share their high and
 * low bytes).  tmp holds n entries.  glibc's qsort() took most of a
 * WILL_RUN at k = 8 with 1,000 running jobs. */
static void sort_by_key(struct by_end *v, struct by_end *tmp, size_t n)
{
	size_t count[8][256], i, sum, c;
	struct by_end *from = v, *to = tmp, *x, e;
	uint64_t diff = 0;
	int shift[8], nb = 0, b;

	if (n <= 32) { /* the counts alone would cost more: insertion */
		for (i = 1; i < n; i++) {
			e = v[i];
			for (c = i; c > 0 && v[c - 1].key > e.key; c--)
				v[c] = v[c - 1];
			v[c] = e;
		}
		return;
	}
	for (i = 1; i < n; i++)
		diff |= v[i].key ^ v[0].key;
	for (b = 0; b < 8; b++)
		if ((diff >> (8 * b)) & 255)
			shift[nb++] = 8 * b;
	memset(count, 0, (size_t) nb * sizeof(count[0]));
	for (i = 0; i < n; i++)
		for (b = 0; b < nb; b++)
			count[b][(v[i].key >> shift[b]) & 255]++;
	for (b = 0; b < nb; b++) {
		for (i = 0, sum = 0; i < 256; i++) {
			c = count[b][i];
			count[b][i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[b][(from[i].key >> shift[b]) & 255]++] =
			    from[i];
		x = from;
		from = to;
		to = x;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
}

double mesh_plan_running_end(double end, double now)
{
	return end > now ? end : now + MESH_PLAN_OVERRUN;
}

/* The end of running job r as the planner takes it. */
static double run_end(const struct mesh_plan_query *q, size_t r)
{
	return mesh_plan_running_end(q->running[r].end, q->now);
}

/* p->order: the running jobs by end, ties in index order (the sort is
 * stable).  The order depends on the keys alone, so when they are those
 * of the last sort it is kept as it is. */
static void sort_running(struct mesh_planner *p,
			 const struct mesh_plan_query *q)
{
	size_t i, n = q->n_running;
	int same = n == p->n_keys;
	uint64_t k;

	for (i = 0; i < n; i++) {
		k = time_key(run_end(q, i));
		same &= k == p->keys[i];
		p->keys[i] = k;
	}
	p->n_keys = n;
	if (same)
		return;
	for (i = 0; i < n; i++) {
		p->order[i].key = p->keys[i];
		p->order[i].job = i;
	}
	sort_by_key(p->order, p->tmp, n);
}

/* Entry (key, job) into v[0 .. n - 1] sorted by key, after its equals
 * (job is the largest index yet: stable, as the sort). */
static void insert_by_key(struct by_end *v, size_t n, uint64_t key, size_t job)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid].key <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(v + lo + 1, v + lo, (n - lo) * sizeof(*v));
	v[lo].key = key;
	v[lo].job = job;
}

/* p->ends and p->starts: the reservations ending after now, by end and
 * by start (ties in index order); returns their number.  When the list
 * is the last call's, at the same now, with its entries unchanged and
 * a few more after them, only those are inserted. */
static size_t sort_reserved(struct mesh_planner *p,
			    const struct mesh_plan_query *q)
{
	const struct mesh_plan_resv *r = q->reserved;
	size_t i = 0, m = 0, n = q->n_reserved;

	if (r == p->seen_list && q->now == p->seen_now && n >= p->n_seen &&
	    n - p->n_seen <= 32) {
		for (; i < p->n_seen; i++)
			if (r[i].start != p->seen[i].start ||
			    r[i].end != p->seen[i].end)
				break;
		if (i == p->n_seen)
			m = p->m_seen;
		else
			i = 0;
	}
	if (i) {
		for (; i < n; i++) {
			p->seen[i] = r[i];
			if (r[i].end > q->now) {
				insert_by_key(p->ends, m, time_key(r[i].end),
					      i);
				insert_by_key(p->starts, m++,
					      time_key(r[i].start), i);
			}
		}
	} else {
		for (; i < n; i++) {
			p->seen[i] = r[i];
			if (r[i].end > q->now) {
				p->ends[m].key = time_key(r[i].end);
				p->starts[m].key = time_key(r[i].start);
				p->ends[m].job = p->starts[m].job = i;
				m++;
			}
		}
		sort_by_key(p->ends, p->tmp, m);
		sort_by_key(p->starts, p->tmp, m);
	}
	p->seen_list = r;
	p->seen_now = q->now;
	p->n_seen = n;
	p->m_seen = m;
	return m;
}

/* Sorted unique candidate times from the sorted running ends and the
 * reservations' ends after now (sort_reserved()), merged; the same list
 * as candidates_by_definition().  Returns their number. */
static size_t candidates_sorted(struct mesh_planner *p,
				const struct mesh_plan_query *q)
{
	size_t i, r = 0, n = 0, m = sort_reserved(p, q);
	double t;

	p->times[n++] = q->now; /* every other time is >= now */
	for (i = 0; i < q->n_running || r < m;) {
		if (r == m ||
		    (i < q->n_running && p->order[i].key <= p->ends[r].key))
			t = key_time(p->order[i++].key);
		else
			t = key_time(p->ends[r++].key);
		if (t != p->times[n - 1])
			p->times[n++] = t;
	}
	return n;
}

/* Sorted unique candidate times >= now, by the definition (a sort of
 * them all); returns their number. */
static size_t candidates_by_definition(struct mesh_planner *p,
				       const struct mesh_plan_query *q)
{
	size_t i, n = 0, u;

	p->times[n++] = q->now;
	for (i = 0; i < q->n_running; i++)
		p->times[n++] = run_end(q, i);
	for (i = 0; i < q->n_reserved; i++)
		if (q->reserved[i].end > q->now)
			p->times[n++] = q->reserved[i].end;
	qsort(p->times, n, sizeof(*p->times), by_double);
	for (i = 1, u = 1; i < n; i++)
		if (p->times[i] != p->times[u - 1])
			p->times[u++] = p->times[i];
	return u;
}

static void set_nodes(struct mesh_bitmap *b, const struct mesh_plan_hold *h)
{
	uint32_t i;

	for (i = 0; i < h->n; i++)
		mesh_bitmap_set(b, h->nodes[i]);
}

/* Words of a bitmap over the topology's nodes. */
static size_t words_of(const struct mesh_planner *p)
{
	return ((size_t) p->topo->nodes + 63) / 64;
}

/* Bit planes for counts up to n (at least one). */
static unsigned planes_for(size_t n)
{
	unsigned b = 1;

	while (b < 64 && (n >> b))
		b++;
	return b;
}

/* cur = base minus reservations overlapping [t, t + duration). */
static void apply_reservations(struct mesh_planner *p,
			       const struct mesh_plan_query *q, double t)
{
	size_t r, i, w = words_of(p);

	mesh_bitmap_copy(p->cur, p->base);
	for (r = 0; r < q->n_reserved; r++) {
		const struct mesh_plan_resv *h = &q->reserved[r];

		if (h->start < t + q->duration && h->end > t)
			for (i = 0; i < w; i++)
				p->cur->words[i] &= ~h->nodes->words[i];
	}
}

/* Places on cur at time t: 1 placed, 0 refused, < 0 error. */
static int try_at(struct mesh_planner *p, struct mesh_allocator *a,
		  const struct mesh_plan_query *q,
		  const struct mesh_request *req, double t, uint32_t *out)
{
	struct mesh_view v = { p->topo, p->cur, q->end_time, t };
	int rc;

	p->places++;
	rc = q->place ? q->place(q->place_arg, &v, req, out)
		      : mesh_alloc_place(a, &v, req, out);

	if (rc == MESH_ENOSPC)
		return 0;
	return rc ? rc : 1;
}

/* base = free now + running jobs ending by times[c] (from scratch). */
static void base_at(struct mesh_planner *p, const struct mesh_plan_query *q,
		    double t)
{
	size_t r;

	mesh_bitmap_copy(p->base, q->free_now);
	for (r = 0; r < q->n_running; r++)
		if (run_end(q, r) <= t)
			set_nodes(p->base, &q->running[r]);
}

static int prepare(struct mesh_planner *p, const struct mesh_plan_query *q,
		   const struct mesh_request *req)
{
	size_t n = 1 + q->n_running + q->n_reserved, r;

	if (!q->free_now || q->free_now->nbits != p->topo->nodes ||
	    !(q->duration >= 0) || !req->nodes || isnan(q->now))
		return MESH_EINVAL;
	for (r = 0; r < q->n_reserved; r++)
		if (!q->reserved[r].nodes ||
		    q->reserved[r].nodes->nbits != p->topo->nodes)
			return MESH_EINVAL;
	if (req->nodes > p->topo->nodes)
		return MESH_ENOSPC;
	if (grow((void **) &p->times, &p->cap_times, n, sizeof(double)) ||
	    grow((void **) &p->order, &p->cap_order, q->n_running + 1,
		 sizeof(*p->order)) ||
	    grow((void **) &p->ends, &p->cap_ends, q->n_reserved + 1,
		 sizeof(*p->ends)) ||
	    grow((void **) &p->starts, &p->cap_starts, q->n_reserved + 1,
		 sizeof(*p->starts)) ||
	    grow((void **) &p->state, &p->cap_state, q->n_reserved + 1,
		 sizeof(*p->state)) ||
	    grow((void **) &p->planes, &p->cap_planes,
		 words_of(p) * planes_for(q->n_reserved), sizeof(*p->planes)) ||
	    grow((void **) &p->tmp, &p->cap_tmp, n, sizeof(*p->tmp)) ||
	    grow((void **) &p->keys, &p->cap_keys, q->n_running + 1,
		 sizeof(*p->keys)) ||
	    grow((void **) &p->seen, &p->cap_seen, q->n_reserved + 1,
		 sizeof(*p->seen)))
		return MESH_ENOMEM;
	return 0;
}

int mesh_plan_earliest_naive(struct mesh_planner *p, struct mesh_allocator *a,
			     const struct mesh_plan_query *q,
			     const struct mesh_request *req, double *start,
			     uint32_t *out)
{
	size_t nt = 0, c;
	int rc = prepare(p, q, req);

	if (!rc)
		nt = candidates_by_definition(p, q);
	for (c = 0; !rc && c < nt; c++) {
		base_at(p, q, p->times[c]);
		apply_reservations(p, q, p->times[c]);
		rc = try_at(p, a, q, req, p->times[c], out);
		if (rc == 1) {
			*start = p->times[c];
			return 0;
		}
	}
	return rc ? rc : MESH_ENOSPC;
}

/* Running jobs' releases in end order, applied to base up to time t;
 * *next is the first not yet applied. */
static void advance(struct mesh_planner *p, const struct mesh_plan_query *q,
		    double t, size_t *next)
{
	while (*next < q->n_running && key_time(p->order[*next].key) <= t)
		set_nodes(p->base, &q->running[p->order[(*next)++].job]);
}

enum { RES_WAITING, RES_IN, RES_GONE };

/* A reservation enters the window: its nodes' counts + 1, and held
 * gains them.  A word's carry ripples up only while it has bits, so an
 * entry costs about two plane updates per word it touches.  The planes
 * in use grow with the window (a count is at most its size). */
static void window_enter(struct mesh_planner *p, const struct mesh_bitmap *m)
{
	size_t i, w = words_of(p);
	unsigned b, nb;
	uint64_t carry, old, *c;

	p->in_window++;
	if (p->in_window >> p->planes_used)
		p->planes_used++;
	nb = p->planes_used;
	for (i = 0; i < w; i++) {
		if (!(carry = m->words[i]))
			continue;
		p->held->words[i] |= carry;
		c = p->planes + i * p->n_planes;
		for (b = 0; carry && b < nb; b++) {
			old = c[b];
			c[b] = old ^ carry;
			carry &= old;
		}
	}
}

/* A reservation leaves: its nodes' counts - 1.  A node leaves held only
 * if its count was 1: odd (plane 0 set before) and no higher plane set,
 * so only those bits are looked for in the higher planes, until each is
 * found or the planes end.  No other reservation is looked at. */
static void window_leave(struct mesh_planner *p, const struct mesh_bitmap *m)
{
	size_t i, w = words_of(p);
	unsigned b, nb = p->planes_used;
	uint64_t borrow, old, ones, *c;

	p->in_window--;
	for (i = 0; i < w; i++) {
		if (!(borrow = m->words[i]))
			continue;
		c = p->planes + i * p->n_planes;
		ones = borrow & c[0]; /* odd counts: may have been 1 */
		for (b = 0; borrow && b < nb; b++) {
			old = c[b];
			c[b] = old ^ borrow;
			borrow &= ~old;
		}
		for (b = 1; ones && b < nb; b++)
			ones &= ~c[b];
		p->held->words[i] &= ~ones;
	}
}

/* True if q's bound leaves room for one placement only (the last). */
static int over_budget(const struct mesh_planner *p,
		       const struct mesh_plan_query *q)
{
	struct timespec now;

	if (q->max_places && p->places + 1 >= q->max_places)
		return 1;
	if (!(q->max_seconds > 0) || clock_gettime(CLOCK_MONOTONIC, &now))
		return 0;
	return (double) (now.tv_sec - p->begun.tv_sec) +
		   1e-9 * (double) (now.tv_nsec - p->begun.tv_nsec) >=
	       q->max_seconds;
}

/* The first candidate at or after *t; 0 if t is NULL, at or before now
 * or after every candidate. */
static size_t first_at(const struct mesh_planner *p, size_t nt, const double *t)
{
	size_t lo = 0, hi = nt, mid;

	if (!t || !(*t > p->times[0]))
		return 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (p->times[mid] < *t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nt ? lo : 0;
}

/* Every candidate in order (reservations, or refusing allocators).
 * HOW: while t sweeps the candidates, base gains the nodes of the
 * running jobs ended by t, and held is the union of the reservations
 * that overlap [t, t + duration): cur = base minus held.  A reservation
 * is in the window once its start is before t + duration, and out for
 * good once its end is at or before t (an empty one, start = end, may
 * be out before it was ever in); both only happen as t grows, so each
 * reservation enters and leaves at most once per call, in the orders of
 * p->ends and p->starts.  Held is kept by per-node counts in bit planes
 * (window_enter(), window_leave()): a leave costs the words of the one
 * reservation, where uniting the window afresh cost every reservation
 * in it, which made a saturated conservative queue cubic. */
static int scan(struct mesh_planner *p, struct mesh_allocator *a,
		const struct mesh_plan_query *q, const struct mesh_request *req,
		size_t nt, double *start, uint32_t *out)
{
	size_t c, next = 0, in = 0, gone = 0, m, r, i;
	size_t w = words_of(p);
	int rc = MESH_ENOSPC;
	double t;

	for (m = 0; m < p->m_seen; m++) /* sort_reserved() */
		p->state[p->starts[m].job] = RES_WAITING;
	p->n_planes = planes_for(m);
	p->planes_used = 0;
	p->in_window = 0;
	memset(p->planes, 0, w * p->n_planes * sizeof(*p->planes));
	mesh_bitmap_copy(p->base, q->free_now);
	memset(p->held->words, 0, w * sizeof(*p->held->words));
	/* Candidates before not_before are skipped whole: the first one
	 * after it leaves the reservations that ended, enters those in its
	 * window and applies the running jobs that ended, as every step does. */
	for (c = first_at(p, nt, q->not_before); c < nt && rc == MESH_ENOSPC;
	     c++) {
		t = p->times[c];
		advance(p, q, t, &next);
		for (; gone < m && key_time(p->ends[gone].key) <= t; gone++) {
			r = p->ends[gone].job;
			if (p->state[r] == RES_IN)
				window_leave(p, q->reserved[r].nodes);
			p->state[r] = RES_GONE;
		}
		for (; in < m && key_time(p->starts[in].key) < t + q->duration;
		     in++) {
			r = p->starts[in].job;
			if (p->state[r] != RES_WAITING)
				continue;
			p->state[r] = RES_IN;
			window_enter(p, q->reserved[r].nodes);
		}
		for (i = 0; i < w; i++)
			p->cur->words[i] =
			    p->base->words[i] & ~p->held->words[i];
		if (mesh__free_count(a, p->cur) < req->nodes)
			continue;
		if (isinf(p->first_enough))
			p->first_enough = t;
		if (c + 1 < nt && over_budget(p, q)) {
			p->truncated = 1;
			c = nt - 2; /* the loop's c++: the latest candidate */
			continue;
		}
		rc = try_at(p, a, q, req, t, out);
		if (rc == 1) {
			*start = t;
			rc = 0;
		} else if (rc == 0) {
			rc = MESH_ENOSPC;
		}
	}
	return rc;
}

/* First candidate with at least k free nodes, by counting (running
 * holds are disjoint and not in free_now); nt if none. */
static size_t first_enough(struct mesh_planner *p, struct mesh_allocator *a,
			   const struct mesh_plan_query *q, uint32_t k,
			   size_t nt)
{
	uint64_t free = mesh__free_count(a, q->free_now);
	size_t c, next = 0;

	for (c = 0; c < nt; c++) {
		while (next < q->n_running &&
		       key_time(p->order[next].key) <= p->times[c])
			free += q->running[p->order[next++].job].n;
		if (free >= k)
			return c;
	}
	return nt;
}

/* base = free now + running jobs ending by t, from base holding the
 * *applied first jobs of p->order: only the jobs ending since are set.
 * *applied = SIZE_MAX, or a t before the jobs applied, starts from
 * scratch (nodes are only ever set, as in base_at). */
static void base_move(struct mesh_planner *p, const struct mesh_plan_query *q,
		      double t, size_t *applied)
{
	if (*applied == SIZE_MAX ||
	    (*applied > 0 && key_time(p->order[*applied - 1].key) > t)) {
		mesh_bitmap_copy(p->base, q->free_now);
		*applied = 0;
	}
	advance(p, q, t, applied);
}

/* The free set at candidate c (no reservations), then one placement;
 * *applied as base_move(). */
static int probe(struct mesh_planner *p, struct mesh_allocator *a,
		 const struct mesh_plan_query *q,
		 const struct mesh_request *req, size_t c, size_t *applied,
		 uint32_t *out)
{
	base_move(p, q, p->times[c], applied);
	mesh_bitmap_copy(p->cur, p->base);
	return try_at(p, a, q, req, p->times[c], out);
}

/* Monotone, places whenever k are free: count, then place once. */
static int by_count(struct mesh_planner *p, struct mesh_allocator *a,
		    const struct mesh_plan_query *q,
		    const struct mesh_request *req, size_t nt, double *start,
		    uint32_t *out)
{
	size_t c = first_enough(p, a, q, req->nodes, nt), applied = SIZE_MAX;
	int rc;

	if (c == nt)
		return MESH_ENOSPC;
	p->first_enough = p->times[c];
	rc = probe(p, a, q, req, c, &applied, out);
	if (rc < 0)
		return rc;
	if (rc) {
		*start = p->times[c];
		return 0;
	}
	/* required nodes or a surprise refusal: be exact */
	return scan(p, a, q, req, nt, start, out);
}

/* Monotone, may refuse with k free (contiguous, q->monotone): the first
 * candidate with k free nodes first (often the answer: one placement),
 * then a binary search over the later ones.  Every later probe lies after the
 * latest refusal, so each starts from the free set there (floor) and
 * sets only the jobs ending since: about 2R holds in all, not R / 2 per
 * probe. */
static int bisect(struct mesh_planner *p, struct mesh_allocator *a,
		  const struct mesh_plan_query *q,
		  const struct mesh_request *req, size_t nt, double *start,
		  uint32_t *out)
{
	size_t lo = first_enough(p, a, q, req->nodes, nt), hi = nt, last = nt;
	size_t applied = SIZE_MAX, floor_applied;
	int rc;

	if (lo == nt)
		return MESH_ENOSPC;
	p->first_enough = p->times[lo];
	rc = probe(p, a, q, req, lo, &applied, out);
	if (rc < 0)
		return rc;
	if (rc) {
		*start = p->times[lo];
		return 0;
	}
	mesh_bitmap_copy(p->floor, p->base);
	floor_applied = applied;
	/* the answer is in [lo, hi); hi = none; last = where the latest
	 * probe placed (out holds that answer), nt if it refused */
	for (lo++; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		rc = probe(p, a, q, req, mid, &applied, out);
		if (rc < 0)
			return rc;
		last = rc ? mid : nt;
		if (rc) {
			hi = mid;
			mesh_bitmap_copy(p->base, p->floor);
			applied = floor_applied;
		} else {
			lo = mid + 1;
			mesh_bitmap_copy(p->floor, p->base);
			floor_applied = applied;
		}
	}
	if (lo == nt)
		return MESH_ENOSPC;
	if (last != lo) { /* out must be the answer at lo */
		rc = probe(p, a, q, req, lo, &applied, out);
		if (rc != 1)
			return rc < 0 ? rc : MESH_EINTERNAL;
	}
	*start = p->times[lo];
	return 0;
}

int mesh_plan_earliest(struct mesh_planner *p, struct mesh_allocator *a,
		       const struct mesh_plan_query *q,
		       const struct mesh_request *req, double *start,
		       uint32_t *out)
{
	unsigned flags = mesh_alloc_flags(a);
	size_t nt;
	int rc = prepare(p, q, req);

	p->places = 0;
	p->truncated = 0;
	p->first_enough = INFINITY;
	if (q->max_seconds > 0 && clock_gettime(CLOCK_MONOTONIC, &p->begun))
		memset(&p->begun, 0, sizeof(p->begun));
	if (!rc) {
		sort_running(p, q);
		nt = candidates_sorted(p, q);
		if (q->n_reserved || q->in_order ||
		    (flags & MESH_ALLOC_MAY_REFUSE))
			rc = scan(p, a, q, req, nt, start, out);
		else if ((flags & MESH_ALLOC_CONTIGUOUS_ONLY) || q->monotone)
			rc = bisect(p, a, q, req, nt, start, out);
		else
			rc = by_count(p, a, q, req, nt, start, out);
	}
	if (q->stats) {
		q->stats->places = p->places;
		q->stats->truncated = p->truncated;
		q->stats->first_enough = p->first_enough;
	}
	return rc;
}
