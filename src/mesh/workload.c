/* workload.c - the synthetic workload models of workload.h.
 *
 * Randomness is splitmix64, so a seed gives the same trace on every
 * platform up to libm's exp/log.  Every parameter and its source is in
 * doc/workloads.md; the choices the papers leave open are marked
 * "ours" there.
 */
#include "workload.h"

#include <math.h>
#include <string.h>

#include "error.h"
#include "rng.h"

static const char *const names[] = { "mache", "ozden", "bluegene", "pods" };
#define N_WORKLOADS (sizeof(names) / sizeof(names[0]))

/* Tang et al., Fig. 5(a), read as a share of jobs by size class (in
 * midplanes of 512 nodes: 512, 1K, 2K, 4K, 8K, 16K, 32K nodes). */
static const double bg_share[] = { 0.45, 0.20, 0.15, 0.10, 0.06, 0.03, 0.01 };

#define BG_USERS 40
#define MACHE_SECONDS_PER_NODE 60.0
#define BG_QUANTUM 900.0 /* requests rounded up to 15 minutes */

/* Uniform in (0, 1). */
static double unif(uint64_t *s)
{
	return ((double) (mesh__splitmix64(s) >> 11) + 0.5) /
	       9007199254740992.0;
}

static double expo(uint64_t *s, double mean)
{
	return -mean * log(unif(s));
}

static long uniform_int(uint64_t *s, long lo, long hi)
{
	return lo + (long) (mesh__splitmix64(s) % (uint64_t) (hi - lo + 1));
}

static double normal(uint64_t *s)
{
	return sqrt(-2 * log(unif(s))) * cos(6.283185307179586 * unif(s));
}

void mesh_workload_defaults(enum mesh_workload kind,
			    struct mesh_workload_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->jobs = 1000;
	o->runtime_scale = 1;
	o->io_fraction = 1;
	o->io_ratio = -1;
	o->io_scale = 1;
	switch (kind) {
	case MESH_WL_MACHE: /* SDSC Paragon batch partition, 16 x 22 */
		o->max_nodes = 352;
		o->interarrival = 500; /* Table 8's point */
		break;
	case MESH_WL_OZDEN: /* their 500 nodes */
		o->max_nodes = 500;
		o->interarrival = 60;
		break;
	case MESH_WL_BLUEGENE: /* Intrepid: 80 midplanes */
		o->max_nodes = 80;
		o->interarrival = 300;
		break;
	case MESH_WL_PODS: /* a 4x4x4 torus; offered load about 0.85 */
		o->max_nodes = 64;
		o->interarrival = 170;
		for (o->n_sizes = 0; o->n_sizes < 6; o->n_sizes++)
			o->sizes[o->n_sizes] = 1u << o->n_sizes;
		break;
	}
}

int mesh_workload_parse(const char *name)
{
	int i;

	for (i = 0; name && i < (int) N_WORKLOADS; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

const char *mesh_workload_name(enum mesh_workload kind)
{
	return (unsigned) kind < N_WORKLOADS ? names[kind] : "?";
}

static uint32_t cap(const struct mesh_workload_opts *o, long n)
{
	if (n < 1)
		n = 1;
	return (uint32_t) (n > (long) o->max_nodes ? o->max_nodes : n);
}

/* Mache Workload I: size ~ ceil(Exp(16)); the same number of I/O
 * iterations per job, so the runtime grows with the size (ours: 60 s per
 * node); a share io_fraction of the jobs is I/O-bound: all I/O, or with
 * io_ratio >= 0 that share of I/O and the rest all-to-all communication
 * (Ch. VII, Table 9: each job runs the same traffic mix). */
static void gen_mache(const struct mesh_workload_opts *o, uint64_t *s,
		      struct mesh_gen_job *j)
{
	j->size = cap(o, (long) ceil(expo(s, 16)));
	j->run = MACHE_SECONDS_PER_NODE * j->size * o->runtime_scale;
	j->req_time = j->run;
	j->io_intensity = unif(s) < o->io_fraction ? 1 : 0;
	j->comm = MESH_COMM_NONE;
	if (j->io_intensity > 0 && o->io_ratio >= 0) {
		j->io_intensity = o->io_ratio;
		j->comm_share = 1 - o->io_ratio;
		j->comm = MESH_COMM_ALL_TO_ALL;
	}
}

/* Özden: 2-20 nodes, 10-25 repetitions of a compute phase (ours:
 * 100-600 s) and a checkpoint writing 1-10 GB per node (ours) at the
 * job's bandwidth min(12.5 n, 48) GB/s; jobs in an I/O peak write 20-60
 * GB per node (ours). */
static void gen_ozden(const struct mesh_workload_opts *o, uint64_t *s, int peak,
		      struct mesh_gen_job *j)
{
	long reps = uniform_int(s, 10, 25);
	double per_node =
	    (peak ? 20 + 40 * unif(s) : 1 + 9 * unif(s)) * o->io_scale;
	double bw;

	j->size = cap(o, uniform_int(s, 2, 20));
	bw = fmin(12.5 * j->size, 48);
	j->compute_phase = (100 + 500 * unif(s)) * o->runtime_scale;
	j->io_volume = per_node * j->size * (double) reps;
	j->checkpoint_phase = per_node * j->size / bw * o->runtime_scale;
	j->run = ceil((double) reps * (j->compute_phase + j->checkpoint_phase));
	j->req_time = j->run;
	j->io_intensity =
	    j->checkpoint_phase / (j->compute_phase + j->checkpoint_phase);
	j->comm = MESH_COMM_NEAREST;
}

/* Blue-Gene-like: size class by Tang's Fig. 5(a); runtime log-normal
 * (ours: median 30 min, sigma 1.2, at most 12 h); each user overestimates
 * by a factor of their own (ours: 1.2-4) with 10% noise, requests rounded
 * up to 15 minutes, so AdjEst has something to learn. */
static void gen_bluegene(const struct mesh_workload_opts *o, uint64_t *s,
			 const double *user_factor, struct mesh_gen_job *j)
{
	double u = unif(s), acc = 0, req;
	int c = 0;

	while (c < 6 && u > (acc += bg_share[c]))
		c++;
	j->size = cap(o, 1L << c);
	j->run = fmin(1800 * exp(1.2 * normal(s)), 43200) * o->runtime_scale;
	j->run = floor(j->run) + 1;
	j->user = (long) (mesh__splitmix64(s) % BG_USERS);
	req = j->run * user_factor[j->user] * (0.9 + 0.2 * unif(s));
	j->req_time = fmax(BG_QUANTUM, ceil(req / BG_QUANTUM) * BG_QUANTUM);
	if (j->req_time < j->run)
		j->req_time = ceil(j->run / BG_QUANTUM) * BG_QUANTUM;
	j->comm = MESH_COMM_NEAREST;
	j->io_intensity = 0;
}

/* Pods: a listed size, uniformly; runtime log-uniform in 60-3600 s; the
 * request 1-2 times the runtime, rounded up to a minute (ours). */
static void gen_pods(const struct mesh_workload_opts *o, uint64_t *s,
		     struct mesh_gen_job *j)
{
	j->size = cap(o, (long) o->sizes[mesh__splitmix64(s) % o->n_sizes]);
	j->run = floor(60 * exp(log(60.0) * unif(s)) * o->runtime_scale) + 1;
	j->req_time = ceil(j->run * (1 + unif(s)) / 60) * 60;
	j->comm = MESH_COMM_ALL_TO_ALL;
	j->comm_share = 0.5;
}

int mesh_workload_generate(const struct mesh_workload_opts *o,
			   struct mesh_gen_job *out)
{
	double t = 0, user_factor[BG_USERS];
	uint64_t s = o->seed;
	size_t i, peak_len = o->jobs / 20;
	int u;

	if (!o->jobs || !(o->interarrival > 0) || !(o->runtime_scale > 0) ||
	    !o->max_nodes || !(o->io_fraction >= 0 && o->io_fraction <= 1) ||
	    !(o->io_ratio <= 1) || !(o->io_scale > 0) ||
	    (o->kind != MESH_WL_OZDEN && o->io_scale != 1) ||
	    (o->kind != MESH_WL_MACHE && o->io_ratio >= 0) ||
	    (unsigned) o->kind >= N_WORKLOADS ||
	    (o->kind == MESH_WL_PODS) != (o->n_sizes > 0) ||
	    o->n_sizes > MESH_WL_MAX_SIZES)
		return MESH_EINVAL;
	for (i = 0; i < o->n_sizes; i++)
		if (!o->sizes[i])
			return MESH_EINVAL;
	for (u = 0; u < BG_USERS; u++)
		user_factor[u] = 1.2 + 2.8 * unif(&s);
	for (i = 0; i < o->jobs; i++) {
		struct mesh_gen_job *j = &out[i];
		/* Özden: 4 peaks of 5% of the jobs each (their 200 of 4000),
		 * evenly spread, arriving 4 times as fast. */
		int peak = o->kind == MESH_WL_OZDEN && peak_len &&
			   (i % (o->jobs / 4)) < peak_len;

		memset(j, 0, sizeof(*j));
		j->id = (long) i + 1;
		j->user = 1;
		t += expo(&s, peak ? o->interarrival / 4 : o->interarrival);
		j->submit = floor(t);
		if (o->kind == MESH_WL_MACHE)
			gen_mache(o, &s, j);
		else if (o->kind == MESH_WL_OZDEN)
			gen_ozden(o, &s, peak, j);
		else if (o->kind == MESH_WL_PODS)
			gen_pods(o, &s, j);
		else
			gen_bluegene(o, &s, user_factor, j);
	}
	return 0;
}

int mesh_workload_write(const struct mesh_workload_opts *o,
			const struct mesh_gen_job *jobs, FILE *swf, FILE *attrs)
{
	size_t i;
	char extra[48 + 12 * MESH_WL_MAX_SIZES] = "";
	int n;

	if (o->io_ratio >= 0)
		snprintf(extra, sizeof(extra), " --io-ratio %g", o->io_ratio);
	else if (o->io_scale != 1)
		snprintf(extra, sizeof(extra), " --io-scale %g", o->io_scale);
	for (i = 0, n = 0; i < o->n_sizes; i++)
		n += snprintf(extra + n, sizeof(extra) - (size_t) n, "%s%u",
			      i ? "," : " --sizes ", o->sizes[i]);
	fprintf(swf,
		"; Version: 2.2\n; Computer: synthetic (meshsim-gen)\n"
		"; Note: meshsim-gen --workload %s --jobs %zu --seed %llu "
		"--nodes %u --interarrival %.17g --io-fraction %.17g "
		"--runtime-scale %.17g%s\n"
		"; MaxJobs: %zu\n; MaxRecords: %zu\n; MaxNodes: %u\n"
		"; MaxProcs: %u\n",
		mesh_workload_name(o->kind), o->jobs,
		(unsigned long long) o->seed, o->max_nodes, o->interarrival,
		o->io_fraction, o->runtime_scale, extra, o->jobs, o->jobs,
		o->max_nodes, o->max_nodes);
	for (i = 0; i < o->jobs; i++) {
		const struct mesh_gen_job *j = &jobs[i];

		fprintf(swf,
			"%ld %.0f -1 %.0f %u -1 -1 %u %.0f -1 1 %ld 1 -1 1 "
			"-1 -1 -1\n",
			j->id, j->submit, j->run, j->size, j->size, j->req_time,
			j->user);
	}
	if (attrs) {
		char note[96];

		snprintf(
		    note, sizeof(note), "meshsim-gen --workload %s --seed %llu",
		    mesh_workload_name(o->kind), (unsigned long long) o->seed);
		if (mesh_attrs_write(attrs, note, jobs, o->jobs))
			return MESH_EIO;
	}
	if (ferror(swf) || (attrs && ferror(attrs)))
		return MESH_EIO;
	return 0;
}

int mesh_attrs_write(FILE *f, const char *note, const struct mesh_gen_job *jobs,
		     size_t n)
{
	size_t i;

	fprintf(f,
		"# %s\njob_id,io_intensity,io_volume,comm,"
		"compute_phase,checkpoint_phase,comm_share\n",
		note);
	for (i = 0; i < n; i++) {
		const struct mesh_gen_job *j = &jobs[i];

		fprintf(f, "%ld,%.6f,", j->id, j->io_intensity);
		if (j->io_volume > 0)
			fprintf(f, "%.3f", j->io_volume);
		fprintf(f, ",%s,", mesh_comm_name(j->comm));
		if (j->compute_phase > 0)
			fprintf(f, "%.3f,%.3f", j->compute_phase,
				j->checkpoint_phase);
		else
			fputc(',', f);
		fputc(',', f);
		if (j->comm_share > 0)
			fprintf(f, "%.6f", j->comm_share);
		fputc('\n', f);
	}
	return ferror(f) ? MESH_EIO : 0;
}

void mesh_attrgen_defaults(struct mesh_attrgen_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->io_fraction = 0.5;
	o->io_lo = 0.05;
	o->io_hi = 0.5;
	o->comm = MESH_COMM_ALL_TO_ALL;
	o->comm_lo = 0.1;
	o->comm_hi = 0.5;
}

int mesh_attrgen(const struct mesh_attrgen_opts *o, const long *ids, size_t n,
		 struct mesh_gen_job *out)
{
	static const enum mesh_comm mix[] = {
		MESH_COMM_ALL_TO_ALL, MESH_COMM_NEAREST, MESH_COMM_CHAIN,
		MESH_COMM_ONE_TO_ALL, MESH_COMM_NONE
	};
	size_t i;

	if (!(o->io_fraction >= 0 && o->io_fraction <= 1) ||
	    !(o->io_lo >= 0 && o->io_lo <= o->io_hi && o->io_hi <= 1) ||
	    !(o->comm_lo >= 0 && o->comm_lo <= o->comm_hi && o->comm_hi <= 1) ||
	    (int) o->comm < 0 || o->comm > MESH_COMM_CHAIN)
		return MESH_EINVAL;
	for (i = 0; i < n; i++) {
		struct mesh_gen_job *j = &out[i];
		/* one stream per job: the same job gets the same attributes
		 * whatever else the trace holds */
		uint64_t s =
		    o->seed ^ ((uint64_t) ids[i] * 0xD1B54A32D192ED03ull);
		double io = unif(&s) < o->io_fraction
				? o->io_lo + (o->io_hi - o->io_lo) * unif(&s)
				: 0;

		memset(j, 0, sizeof(*j));
		j->id = ids[i];
		j->io_intensity = io;
		j->comm = o->comm == MESH_COMM_UNKNOWN
			      ? mix[mesh__splitmix64(&s) % 5]
			      : o->comm;
		j->comm_share =
		    j->comm == MESH_COMM_NONE
			? 0
			: fmin(o->comm_lo +
				   (o->comm_hi - o->comm_lo) * unif(&s),
			       1 - io);
		if (o->phases && io > 0 && io < 1) {
			j->compute_phase = 100 + 500 * unif(&s);
			j->checkpoint_phase = j->compute_phase * io / (1 - io);
		}
	}
	return 0;
}
