/* check_plugin_core.c - the plugins' Slurm-free decision core
 * (plugin/core/): weight tiers, the job id index and the choice of
 * preemption victims, against hand-worked cases and brute force.
 *
 * The victim search runs on a line of nodes with two placements of its
 * own, written here and sharing nothing with the plugin: a first-fit run
 * of consecutive free nodes (as --contiguous), and the most compact k
 * of the free nodes (the window of k consecutive free ones of least
 * span).  Both are monotone: freeing more nodes never stops a fit.
 */
#include <time.h>

#include "testutil.h"
#include "fit.h"
#include "id_index.h"
#include "jobinfo.h"
#include "share.h"
#include "tiers.h"
#include "victims.h"

/* PROPERTY_CASES (default 100,000; make valgrind: 5,000) scales the
 * random rounds, as in check_property. */
static int cases(void)
{
	const char *e = getenv("PROPERTY_CASES");
	int n = e ? atoi(e) : 100000;

	return n < 2500 ? 2500 : n;
}

#define MAX_LINE 48
#define MAX_CAND 16

struct line {
	int n;                 /* nodes 0 .. n - 1 */
	int owner[MAX_LINE];   /* candidate holding the node, -1 free, -2 other */
	/* want > 0: each node has a second slot, owner2 (as owner), and
	 * the job needs want free slots of a node (shared nodes); 0: the
	 * node is free when owner is (whole nodes, owner2 unused) */
	int owner2[MAX_LINE];
	int want;
	int still;             /* give the search still_fits */
	int chosen[MAX_LINE];  /* the last placement that fit */
	int m;                 /* candidates */
	uint64_t rank[MAX_CAND];
	uint32_t nodes[MAX_CAND];
	uint32_t need;
	int contiguous;
	double sleep_per_place; /* seconds each placement takes */
	int places;
};

/* A slot free for the job: empty, or held by a victim. */
static int slot_free(int owner, const bool *victim)
{
	return owner == -1 || (owner >= 0 && victim[owner]);
}

static int usable(const struct line *l, const bool *victim, int i)
{
	if (!l->want)
		return slot_free(l->owner[i], victim);
	return slot_free(l->owner[i], victim) +
		       slot_free(l->owner2[i], victim) >=
	       l->want;
}

static int free_with(const struct line *l, const bool *victim, int *out)
{
	int i, k = 0;

	for (i = 0; i < l->n; i++)
		if (usable(l, victim, i))
			out[k++] = i;
	return k;
}

static uint32_t line_free_nodes(void *ctx, const bool *victim)
{
	int f[MAX_LINE];

	return (uint32_t) free_with(ctx, victim, f);
}

static uint64_t pair_sum(const int *x, int k)
{
	uint64_t s = 0;
	int i, j;

	for (i = 0; i < k; i++)
		for (j = i + 1; j < k; j++)
			s += (uint64_t) (x[j] - x[i]);
	return s;
}

static void spin(double seconds)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((double) (b.tv_sec - a.tv_sec) +
		       (double) (b.tv_nsec - a.tv_nsec) * 1e-9 <
	       seconds);
}

static int line_place(void *ctx, const bool *victim, uint64_t *spread)
{
	struct line *l = ctx;
	int f[MAX_LINE], k = free_with(l, victim, f), i, best = -1;
	int need = (int) l->need;

	l->places++;
	if (l->sleep_per_place > 0)
		spin(l->sleep_per_place);
	for (i = 0; i + need <= k; i++) {
		if (l->contiguous) {
			if (f[i + need - 1] - f[i] == need - 1) {
				best = i;
				break;
			}
		} else if (best < 0 ||
			   f[i + need - 1] - f[i] < f[best + need - 1] - f[best])
			best = i;
	}
	if (best < 0 || need == 0)
		return -1;
	for (i = 0; i < need; i++)
		l->chosen[i] = f[best + i];
	if (spread)
		*spread = pair_sum(f + best, need);
	return 0;
}

static bool line_still_fits(void *ctx, const bool *victim)
{
	const struct line *l = ctx;
	uint32_t i;

	for (i = 0; i < l->need; i++)
		if (!usable(l, victim, l->chosen[i]))
			return false;
	return true;
}

static int line_fits(struct line *l, const bool *victim)
{
	int r = line_place(l, victim, NULL);

	l->places--;
	return r == 0;
}

static int choose(struct line *l, size_t max_places, double max_seconds,
		  bool *victim, struct smc_victims *out)
{
	struct smc_victims vs = { 0 };

	vs.m = (size_t) l->m;
	vs.rank = l->rank;
	vs.nodes = l->nodes;
	vs.need = l->need;
	vs.max_places = max_places;
	vs.max_seconds = max_seconds;
	vs.free_nodes = line_free_nodes;
	vs.place = line_place;
	vs.still_fits = l->still ? line_still_fits : NULL;
	vs.ctx = l;
	vs.victim = victim;
	l->places = 0;
	int rc = smc_choose_victims(&vs);
	*out = vs;
	ck_assert_int_eq((int) vs.places, l->places);
	return rc;
}

/* A line from a string: '.' free, 'x' held by another job, 'A'.. the
 * candidates (in Slurm's order A, B, ...), ranks given apart. */
static void line_parse(struct line *l, const char *s, const uint64_t *rank)
{
	int i;

	memset(l, 0, sizeof(*l));
	l->n = (int) strlen(s);
	for (i = 0; i < l->n; i++) {
		l->owner[i] = s[i] == '.' ? -1 : s[i] == 'x' ? -2 : s[i] - 'A';
		if (l->owner[i] >= 0) {
			l->nodes[l->owner[i]]++;
			if (l->owner[i] + 1 > l->m)
				l->m = l->owner[i] + 1;
		}
	}
	for (i = 0; i < l->m; i++)
		l->rank[i] = rank[i];
}

static int victims_str(const struct line *l, const bool *v, char *buf)
{
	int i, k = 0;

	for (i = 0; i < l->m; i++)
		if (v[i])
			buf[k++] = (char) ('A' + i);
	buf[k] = 0;
	return k;
}

START_TEST(test_tiers)
{
	uint64_t w[] = { 5, 1, 5, 3, 1, 9 }, t[6];
	uint64_t same[] = { 7, 7, 7 };

	ck_assert_uint_eq(smc_weight_tiers(w, 6, t), 4);
	ck_assert_uint_eq(t[0], 1);
	ck_assert_uint_eq(t[1], 3);
	ck_assert_uint_eq(t[2], 5);
	ck_assert_uint_eq(t[3], 9);
	ck_assert_uint_eq(w[0], 5); /* the input is left as it was */
	ck_assert_uint_eq(smc_weight_tiers(same, 3, same), 1);
	ck_assert_uint_eq(same[0], 7);
	ck_assert_uint_eq(smc_weight_tiers(w, 0, t), 0);
}
END_TEST

/* Random inserts, updates and deletions against a plain array. */
START_TEST(test_id_index)
{
	struct smc_id_index *x = smc_id_index_create();
	enum { IDS = 3000 };
	static long want[IDS];
	uint64_t seed = 7;
	size_t count = 0;
	int step, i;

	ck_assert_ptr_nonnull(x);
	for (i = 0; i < IDS; i++)
		want[i] = -1;
	for (step = 0; step < 2 * cases(); step++) {
		/* ids in a window that slides, as job ids do */
		uint32_t id = (uint32_t) (step / 100 + tu_rand(&seed) % 400) % IDS;
		int op = (int) (tu_rand(&seed) % 3);

		if (op < 2) {
			long pos = (long) (tu_rand(&seed) % 100000);

			ck_assert_int_eq(smc_id_index_set(x, id, pos), 0);
			count += want[id] < 0;
			want[id] = pos;
		} else {
			smc_id_index_del(x, id);
			count -= want[id] >= 0;
			want[id] = -1;
		}
		if (step % 997 == 0)
			for (i = 0; i < IDS; i++)
				ck_assert_int_eq(smc_id_index_get(x, (uint32_t) i),
						 want[i]);
		ck_assert_uint_eq(smc_id_index_count(x), count);
	}
	for (i = 0; i < IDS; i++)
		ck_assert_int_eq(smc_id_index_get(x, (uint32_t) i), want[i]);
	smc_id_index_clear(x);
	ck_assert_uint_eq(smc_id_index_count(x), 0);
	ck_assert_int_eq(smc_id_index_get(x, 5), -1);
	smc_id_index_destroy(x);
}
END_TEST

/*
 * Hand-worked: need 3 of the free nodes, most compact.  Free: 2, 5.
 * Releasing A (node 0) gives {0,2,5}, sum 10; B (3) gives {2,3,5}, 6;
 * C (4) gives {2,4,5}, 6.  All rank 1: B, the first most compact.
 * Slurm's order would take A.  With the bound at one placement, the
 * search stops and takes Slurm's shortest prefix, A.
 */
START_TEST(test_victims_compact)
{
	static const uint64_t rank[] = { 1, 1, 1 };
	struct line l;
	struct smc_victims vs;
	bool v[MAX_CAND];
	char got[MAX_CAND + 1];

	line_parse(&l, "Ax.BC.", rank);
	l.need = 3;
	ck_assert_int_eq(choose(&l, 0, 0, v, &vs), 0);
	victims_str(&l, v, got);
	ck_assert_str_eq(got, "B");
	ck_assert(!vs.cut);
	ck_assert_uint_eq(vs.places, 3);

	ck_assert_int_eq(choose(&l, 1, 0, v, &vs), 0);
	victims_str(&l, v, got);
	ck_assert_str_eq(got, "A");
	ck_assert(vs.cut);
	ck_assert(line_fits(&l, v));
}
END_TEST

/*
 * Hand-worked give-back: A (rank 1, node 4) cannot help alone, so it is
 * released; then B (rank 2, nodes 0-2) makes the 3-node run fit, and A
 * is given back: {0..3} holds the run without node 4.
 */
START_TEST(test_victims_give_back)
{
	static const uint64_t rank[] = { 1, 2 };
	struct line l;
	struct smc_victims vs;
	bool v[MAX_CAND];
	char got[MAX_CAND + 1];

	line_parse(&l, "BBB.A", rank);
	l.need = 3;
	l.contiguous = 1;
	ck_assert_int_eq(choose(&l, 0, 0, v, &vs), 0);
	victims_str(&l, v, got);
	ck_assert_str_eq(got, "B");
	ck_assert(!vs.cut);

	/*
	 * Past the bound, Slurm's order: on "AB.CD" (ranks 1-4) a 2-node
	 * run.  Unbounded: A alone does not help, B does, and A is given
	 * back: B.  Bounded at one placement (A's trial): the shortest
	 * prefix that fits, A and B.
	 */
	static const uint64_t rank4[] = { 1, 2, 3, 4 };

	line_parse(&l, "AB.CD", rank4);
	l.need = 2;
	l.contiguous = 1;
	ck_assert_int_eq(choose(&l, 0, 0, v, &vs), 0);
	victims_str(&l, v, got);
	ck_assert_str_eq(got, "B");
	ck_assert(!vs.cut);
	ck_assert_int_eq(choose(&l, 1, 0, v, &vs), 0);
	victims_str(&l, v, got);
	ck_assert_str_eq(got, "AB");
	ck_assert(vs.cut);

	/* Nothing helps a job larger than the line. */
	l.need = 6;
	ck_assert_int_eq(choose(&l, 0, 0, v, &vs), -1);
	ck_assert_int_eq(victims_str(&l, v, got), 0);
	ck_assert_int_eq(choose(&l, 1, 0, v, &vs), -1);
	ck_assert_int_eq(victims_str(&l, v, got), 0);
}
END_TEST

/* A time bound: each placement takes 3 ms, the bound is 1 ms, so the
 * search is cut after its first placement and takes Slurm's order. */
START_TEST(test_victims_time_bound)
{
	static const uint64_t rank[] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	struct line l;
	struct smc_victims vs;
	bool v[MAX_CAND];
	char got[MAX_CAND + 1];

	line_parse(&l, "ABCDEFGH", rank);
	l.need = 2;
	l.contiguous = 1;
	l.sleep_per_place = 0.003;
	ck_assert_int_eq(choose(&l, 0, 0.001, v, &vs), 0);
	ck_assert(vs.cut);
	victims_str(&l, v, got);
	ck_assert_str_eq(got, "AB");
	/* 1 (cut) + 1 (all) + ceil(log2(9)) = 4 at most */
	ck_assert_uint_le(vs.places, 6);

	l.sleep_per_place = 0;
	ck_assert_int_eq(choose(&l, 0, 0, v, &vs), 0);
	ck_assert(!vs.cut);
	ck_assert_int_eq(victims_str(&l, v, got), 2);
}
END_TEST

/*
 * Shared nodes: four nodes of two slots, A/B on node 0, C/D on 1, E/F
 * on 2, G/H on 3, all of one rank; the job wants one slot on each of
 * two nodes.  Unbounded: A cannot help alone and is released, C is the
 * first single that fits: AC.  Bounded at one placement, Slurm's
 * shortest prefix is ABC; with still_fits, B, which the placement
 * {0, 1} does not need, is given back: AC again.
 */
START_TEST(test_victims_shared)
{
	static const uint64_t rank[] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	struct line l;
	struct smc_victims vs;
	bool v[MAX_CAND];
	char got[MAX_CAND + 1];
	int i;

	line_parse(&l, "ACEG", rank);
	for (i = 0; i < 4; i++) {
		l.owner2[i] = 2 * i + 1;
		l.nodes[2 * i + 1] = 1;
	}
	l.m = 8;
	l.rank[7] = 1;
	l.want = 1;
	l.need = 2;
	ck_assert_int_eq(choose(&l, 0, 0, v, &vs), 0);
	victims_str(&l, v, got);
	ck_assert_str_eq(got, "AC");
	ck_assert(!vs.cut);

	ck_assert_int_eq(choose(&l, 1, 0, v, &vs), 0);
	victims_str(&l, v, got);
	ck_assert_str_eq(got, "ABC");
	ck_assert(vs.cut);

	l.still = 1;
	ck_assert_int_eq(choose(&l, 1, 0, v, &vs), 0);
	victims_str(&l, v, got);
	ck_assert_str_eq(got, "AC");
	ck_assert(vs.cut);
	ck_assert_int_eq(choose(&l, 0, 0, v, &vs), 0);
	victims_str(&l, v, got);
	ck_assert_str_eq(got, "AC");
}
END_TEST

static int ceil_log2(int n)
{
	int b = 0;

	while ((1 << b) < n)
		b++;
	return b;
}

/* The length of the shortest prefix of Slurm's order that fits, or -1. */
static int shortest_prefix(struct line *l)
{
	bool v[MAX_CAND] = { 0 };
	int p;

	for (p = 0; p <= l->m; p++) {
		if (line_fits(l, v))
			return p;
		if (p < l->m)
			v[p] = true;
	}
	return -1;
}

/*
 * Random lines against brute force: the search answers when and only
 * when releasing every candidate makes the job fit; its victims fit; it
 * keeps to its bound; unbounded, no victim can be given back and there
 * are no more victims than Slurm's shortest prefix; cut by the bound,
 * the victims after the compact search's are a shortest prefix.
 */
START_TEST(test_victims_random)
{
	uint64_t seed = 1000 + (uint64_t) _i;
	int round, rounds = cases() / 25;

	for (round = 0; round < rounds; round++) {
		struct line l;
		struct smc_victims vs;
		bool v[MAX_CAND], all[MAX_CAND];
		int i, c, held, p, n_v;
		size_t max_places = tu_rand(&seed) % 3 ? 0 :
							  tu_rand(&seed) % 12 + 1;

		memset(&l, 0, sizeof(l));
		l.n = 4 + (int) (tu_rand(&seed) % (MAX_LINE - 4));
		l.m = 1 + (int) (tu_rand(&seed) % (MAX_CAND - 1));
		l.contiguous = (int) (tu_rand(&seed) % 2);
		if (tu_rand(&seed) % 2) /* shared nodes */
			l.want = 1 + (int) (tu_rand(&seed) % 2);
		l.still = (int) (tu_rand(&seed) % 2);
		for (i = 0; i < l.n; i++) {
			c = (int) (tu_rand(&seed) % (unsigned) (l.m + 3));
			l.owner[i] = c < l.m ? c : c == l.m ? -2 : -1;
			if (c < l.m)
				l.nodes[c]++;
			c = (int) (tu_rand(&seed) % (unsigned) (l.m + 3));
			l.owner2[i] = !l.want ? -1 : c < l.m ? c : c == l.m ? -2 : -1;
			if (l.want && c < l.m && c != l.owner[i])
				l.nodes[c]++;
		}
		for (c = 0, held = 0; c < l.m; c++)
			held += l.nodes[c] > 0;
		if (!held)
			continue;
		/* ranks ascending in Slurm's order, with ties */
		for (c = 0; c < l.m; c++)
			l.rank[c] = (c ? l.rank[c - 1] : 0) +
				    (tu_rand(&seed) % 3 == 0);
		l.need = 1 + (uint32_t) (tu_rand(&seed) % (uint64_t) l.n);
		memset(v, 0, sizeof(v));
		if (line_fits(&l, v))
			continue; /* preemption is asked only of jobs that wait */
		for (c = 0; c < l.m; c++)
			all[c] = true;
		p = shortest_prefix(&l);

		int rc = choose(&l, max_places, 0, v, &vs);

		n_v = 0;
		for (c = 0; c < l.m; c++)
			n_v += v[c];
		if (!line_fits(&l, all)) {
			ck_assert_int_eq(rc, -1);
			ck_assert_int_eq(n_v, 0);
			continue;
		}
		ck_assert_int_eq(rc, 0);
		ck_assert(line_fits(&l, v));
		if (max_places)
			ck_assert_uint_le(vs.places,
					  max_places +
						  (size_t) ceil_log2(l.m + 1) +
						  (l.still ? 2 : 1));
		if (l.still) { /* the placement needs every victim */
			ck_assert(line_fits(&l, v)); /* sets l.chosen */
			for (c = 0; c < l.m; c++) {
				if (!v[c])
					continue;
				v[c] = false;
				ck_assert_msg(!line_still_fits(&l, v),
					      "round %d: victim %c not needed "
					      "by the placement",
					      round, 'A' + c);
				v[c] = true;
			}
		}
		if (!vs.cut) {
			ck_assert_int_le(n_v, p);
			for (c = 0; c < l.m; c++) {
				if (!v[c])
					continue;
				v[c] = false;
				ck_assert_msg(!line_fits(&l, v),
					      "round %d: victim %c not needed",
					      round, 'A' + c);
				v[c] = true;
			}
		} else if (max_places == 0) {
			ck_abort_msg("cut without a bound");
		}
	}
}
END_TEST

static bool usable_mask(void *ctx, int node)
{
	return ((const char *) ctx)[node] == '1';
}

/*
 * Hand-worked OverSubscribe=2 on 8 nodes: job 0 exclusive on 0-1, job 1
 * sharing on 2-3, job 2 sharing on 3-4, job 3 sharing on 6-7.  Node 3
 * is held twice (taken at m = 2), 5 is idle.
 */
START_TEST(test_share)
{
	static const int j0[] = { 0, 1 }, j1[] = { 2, 3 }, j2[] = { 3, 4 },
			 j3[] = { 6, 7 };
	struct smc_held held[] = { { j0, 2, 1 },
				   { j1, 2, 2 },
				   { j2, 2, 2 },
				   { j3, 2, 2 } };
	uint16_t busy[8] = { 1, 1, 1, 2, 1, 0, 1, 1 }, taken[8];
	char got[9];
	int i;

	smc_share_taken(held, 4, busy, 8, 2, false, taken);
	for (i = 0; i < 8; i++)
		got[i] = (char) ('0' + taken[i]);
	got[8] = 0;
	ck_assert_str_eq(got, "11010000");
	smc_share_taken(held, 4, busy, 8, 2, true, taken);
	for (i = 0; i < 8; i++)
		got[i] = (char) ('0' + taken[i]);
	ck_assert_str_eq(got, "11010100");
	/* OverSubscribe 3: node 3 is free for a third job */
	smc_share_taken(held, 4, busy, 8, 3, false, taken);
	ck_assert_uint_eq(taken[3], 0);

	/* The mate: job 1 has node 3 taken, job 2 too; job 3 fits. */
	smc_share_taken(held, 4, busy, 8, 2, false, taken);
	ck_assert_int_eq(smc_share_mate(held, 4, taken, 8, usable_mask,
					"11111111", 2, 2, 2),
			 3);
	/* ... unless a node of it is not usable, or the size differs */
	ck_assert_int_eq(smc_share_mate(held, 4, taken, 8, usable_mask,
					"11111110", 2, 2, 2),
			 -1);
	ck_assert_int_eq(smc_share_mate(held, 4, taken, 8, usable_mask,
					"11111111", 3, 4, 0),
			 -1);
	/* -N1-2: min 1, max 2, no req: size 2 is allowed */
	ck_assert_int_eq(smc_share_mate(held, 4, taken, 8, usable_mask,
					"11111111", 1, 2, 0),
			 3);
	/* -N1-2 with 2 requested (above the minimum): the size must be 2 */
	ck_assert_int_eq(smc_share_mate(held, 4, taken, 8, usable_mask,
					"11111111", 1, 2, 2),
			 3);
	/* at m = 3, job 1 (the first) is the mate */
	smc_share_taken(held, 4, busy, 8, 3, false, taken);
	ck_assert_int_eq(smc_share_mate(held, 4, taken, 8, usable_mask,
					"11111111", 2, 2, 2),
			 1);
	/* the exclusive job is never a mate */
	busy[0] = busy[1] = 1;
	ck_assert_int_eq(smc_share_mate(held, 1, taken, 8, usable_mask,
					"11111111", 2, 2, 2),
			 -1);
}
END_TEST

/*
 * Hand-worked fits on a node of 8 CPUs, 1000 MB with 100 kept for the
 * system, 4 GPUs; 6 CPUs, 500 MB and 3 GPUs held by one job.
 */
START_TEST(test_fit)
{
	static const uint64_t cap[] = { 4 }, held[] = { 3 }, one[] = { 1 },
			      two[] = { 2 };
	struct smc_node node = { .cpus = 8,
				 .real_memory = 1000,
				 .mem_spec_limit = 100,
				 .cap_gres = cap,
				 .jobs = 1,
				 .held_cpus = 6,
				 .held_mem = 500,
				 .held_gres = held };
	struct smc_need need = { .cpus = 2, .n_gres = 1, .gres = one };
	uint32_t cpus = 99;

	ck_assert(smc_fit_node(&need, &node, &cpus));
	ck_assert_uint_eq(cpus, 2); /* the CPUs left */
	need.cpus = 3;
	ck_assert(!smc_fit_node(&need, &node, &cpus));
	ck_assert_uint_eq(cpus, 0);
	need.share_cpus = true; /* OverSubscribe: all 8 */
	ck_assert(smc_fit_node(&need, &node, &cpus));
	ck_assert_uint_eq(cpus, 8);
	need.share_cpus = false;
	need.cpus = 1;
	need.gres = two; /* 3 of 4 GPUs held */
	ck_assert(!smc_fit_node(&need, &node, &cpus));
	need.gres = one;
	need.mem = 400; /* 900 usable, 500 held */
	ck_assert(smc_fit_node(&need, &node, &cpus));
	need.mem = 401;
	ck_assert(!smc_fit_node(&need, &node, &cpus));
	need.mem = 0;
	need.whole = true; /* --exclusive on a node with a job */
	ck_assert(!smc_fit_node(&need, &node, &cpus));
	node.jobs = 0;
	node.held_cpus = node.held_mem = 0;
	node.held_gres = (const uint64_t[]){ 0 };
	ck_assert(smc_fit_node(&need, &node, &cpus));
	ck_assert_uint_eq(cpus, 8);
	need.whole = false;
	node.held_whole = true; /* held whole by another: never */
	ck_assert(!smc_fit_node(&need, &node, &cpus));
	node.held_whole = false;
	/* more held than there is (a reconfigured node) does not wrap */
	node.held_cpus = 12;
	node.held_mem = 2000;
	node.held_gres = (const uint64_t[]){ 6 };
	ck_assert(!smc_fit_node(&need, &node, &cpus));
	need.share_cpus = true;
	ck_assert(!smc_fit_node(&need, &node, &cpus)); /* GRES still */
	need.n_gres = 0;
	ck_assert(smc_fit_node(&need, &node, &cpus));
	need.mem = 1;
	ck_assert(!smc_fit_node(&need, &node, &cpus));
	/* mem_spec_limit above the node's memory leaves none */
	node.held_mem = 0;
	node.mem_spec_limit = 5000;
	ck_assert(!smc_fit_node(&need, &node, &cpus));
}
END_TEST

/*
 * The per-job data's bytes, by hand: "MESH", format 1, a 4-byte length
 * and the summary with its NUL; read back at every length cut short.
 */
START_TEST(test_jobinfo)
{
	static const unsigned char want[] = { 0x4d, 0x45, 0x53, 0x48, 0, 1,
					      0,    0,    0,    4,    'a', '=',
					      'b',  0 };
	static const unsigned char later[] = { 0x4d, 0x45, 0x53, 0x48, 0, 2,
					       0,    0,    0,    2,    7, 7,
					       0xaa };
	static const unsigned char old_state[] = { 0, 0, 0, 3, 0xff };
	unsigned char buf[64];
	char *p = NULL;
	size_t n, cut;

	n = smc_jobinfo_encode("a=b", buf, sizeof(buf));
	ck_assert_uint_eq(n, sizeof(want));
	ck_assert(!memcmp(buf, want, n));
	ck_assert_uint_eq(smc_jobinfo_encode("a=b", buf, 3), n); /* no room */
	ck_assert_int_eq(smc_jobinfo_decode(buf, n, &p), (long) n);
	ck_assert_str_eq(p, "a=b");
	free(p);
	/* more bytes after it (the layer's data) are left alone */
	ck_assert_int_eq(smc_jobinfo_decode(later, sizeof(later), &p), 12);
	ck_assert_ptr_null(p); /* a later format: skipped */
	for (cut = 4; cut < n; cut++) {
		ck_assert_int_eq(smc_jobinfo_decode(want, cut, &p), -1);
		ck_assert_ptr_null(p);
	}
	ck_assert_int_eq(smc_jobinfo_decode(want, 3, &p), 0);
	ck_assert_int_eq(smc_jobinfo_decode(old_state, sizeof(old_state), &p),
			 0);
	/* no summary yet: an empty blob */
	n = smc_jobinfo_encode(NULL, buf, sizeof(buf));
	ck_assert_uint_eq(n, 10);
	ck_assert_int_eq(smc_jobinfo_decode(buf, n, &p), 10);
	ck_assert_ptr_null(p);
	/* a blob that is not a text (no NUL at its end) gives no summary */
	memcpy(buf, want, sizeof(want));
	buf[sizeof(want) - 1] = 'x';
	ck_assert_int_eq(smc_jobinfo_decode(buf, sizeof(want), &p),
			 (long) sizeof(want));
	ck_assert_ptr_null(p);
	/* a length beyond the limit is corrupt, whatever follows */
	memcpy(buf, want, 10);
	buf[6] = 0x7f;
	ck_assert_int_eq(smc_jobinfo_decode(buf, sizeof(buf), &p), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plugin_core");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_tiers);
	tcase_add_test(tc, test_id_index);
	tcase_add_test(tc, test_share);
	tcase_add_test(tc, test_fit);
	tcase_add_test(tc, test_jobinfo);
	tcase_add_test(tc, test_victims_compact);
	tcase_add_test(tc, test_victims_give_back);
	tcase_add_test(tc, test_victims_time_bound);
	tcase_add_test(tc, test_victims_shared);
	tcase_add_loop_test(tc, test_victims_random, 0, 4);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
