/* sim.h - event-driven replay of a workload on a mesh.
 *
 * Jobs arrive at their (load-scaled) submit times, wait in one queue
 * (FCFS, WFP or Ozden order), and are started by FCFS, EASY backfilling
 * (Lifka 1995) or conservative backfilling (enum mesh_sched); the
 * allocator chooses the nodes.  At equal
 * times all completions are processed, then all arrivals, then one
 * scheduling pass.
 */
#ifndef MESH_SIM_H
#define MESH_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "bitmap.h"
#include "contention.h"
#include "diag.h"
#include "swf.h"
#include "topo.h"

enum mesh_sched {
	MESH_SCHED_FCFS,
	MESH_SCHED_EASY,
	/* Conservative backfilling, placement-aware: every queued job holds
	 * a reservation at the earliest time the allocator can place it
	 * (plan.h), given the running jobs and the reservations ahead.  The
	 * reserved node sets are kept, so the schedule depends on the nodes
	 * the allocator picked. */
	MESH_SCHED_CONSERVATIVE,
	/* Classic conservative backfilling with compression (Mu'alem and
	 * Feitelson 2001): reservations are node counts over time, kept
	 * from event to event and only moved earlier, and the allocator
	 * picks the nodes when a job starts.  Only for allocators that place
	 * whenever enough nodes are free (no CONTIGUOUS_ONLY or MAY_REFUSE
	 * flag), for which any node set works; the schedule then does not
	 * depend on the allocator. */
	MESH_SCHED_CONSERVATIVE_COUNT,
};

/* The order in which queued jobs are considered. */
enum mesh_priority {
	MESH_PRIO_FCFS, /* submit order */
	/* Tang et al. (002_*, Sec. V.B), Cobalt on Intrepid: highest
	 * (wait / requested time)^3 * nodes first. */
	MESH_PRIO_WFP,
	/* Özden et al. (003_*): lowest wp = (1 - alpha) * lambda + alpha *
	 * normalized delta first, re-evaluated after every start; lambda is
	 * the normalised queue position, delta how far starting the job moves
	 * the running jobs' mean I/O intensity from the workload's.  alpha = 0
	 * is exactly FCFS. */
	MESH_PRIO_OZDEN,
};

enum mesh_estimate {
	/* Requested time, or the actual runtime where the request is
	 * missing or shorter (the allocation literature's convention). */
	MESH_ESTIMATE_CLAMP,
	/* Always the actual runtime (perfect estimates). */
	MESH_ESTIMATE_EXACT,
};

/* How long a placed job runs (doc/runtime-models.md, contention.h). */
enum mesh_runtime_model {
	MESH_RUNTIME_TRACE, /* every job runs for its trace runtime */
	/* The network: communication phases through the links and nodes'
	 * injection, I/O phases through the links to the I/O nodes and
	 * their service rate (Mache, Ch. VI). */
	MESH_RUNTIME_CONTENTION,
	/* The parallel file system alone: I/O phases share its bandwidth,
	 * each job writing at most at its nodes' bandwidth (Özden et al.). */
	MESH_RUNTIME_PFS,
	/* Both: network phases through the links, I/O phases through the
	 * links, the I/O nodes and the file system. */
	MESH_RUNTIME_CONTENTION_PFS,
};

/* The runtime estimate that placement (sl:*) sees; queue order and
 * backfilling always use the user's estimate (Tang et al., Sec. V.B). */
enum mesh_spatial_estimate {
	MESH_SPATIAL_USER, /* the estimate (--estimate) */
	/* AdjEst: the requested time times the mean actual/requested ratio
	 * of the user's earlier finished jobs of the same size. */
	MESH_SPATIAL_ADJUSTED,
	MESH_SPATIAL_ACTUAL, /* ActRun: the actual runtime (ideal) */
};

/* Which rank runs on which of a job's nodes (the runtime models). */
enum mesh_rank_order {
	/* node-index order: Slurm's block distribution over the job's node
	 * list, which Slurm keeps sorted by node index */
	MESH_RANKS_INDEX,
	MESH_RANKS_ALLOCATOR, /* the order the allocator returned the nodes */
};

/* Resampling of the trace's jobs, one bootstrap replication per seed. */
enum mesh_bootstrap {
	MESH_BOOTSTRAP_NONE,
	/* every arrival time kept, each its job drawn from all the jobs */
	MESH_BOOTSTRAP_JOB,
	/* weeks drawn with replacement, laid end to end (each with its
	 * jobs, arrivals and runtimes): as many as the trace spans */
	MESH_BOOTSTRAP_WEEK
};

enum mesh_size_field {
	MESH_SIZE_ALLOC, /* allocated processors, else requested */
	MESH_SIZE_REQ,   /* requested processors, else allocated */
};

/* What the simulator knows of a job beyond its trace line. */
struct mesh_sim_job_info {
	enum mesh_comm comm;
	double comm_share, io_share; /* runtime shares, sum <= 1 */
	int shape[MESH_MAX_DIMS];    /* requested shape, 0 = none */
	double io_intensity;         /* for the allocator; < 0 = unknown */
	/* Bursts: compute phases of compute_phase trace seconds (with
	 * communication at comm_share inside them) alternate with
	 * checkpoints of checkpoint_phase trace seconds, or of io_volume GB
	 * at the job's best alone rate; <= 0 = not given (the job is then
	 * fluid: shares comm_share and io_share of its whole runtime). */
	double compute_phase, checkpoint_phase, io_volume;
	const uint32_t *pairs; /* MESH_COMM_PAIRS: sender, receiver ranks */
	size_t n_pairs;
};

struct mesh_sim_opts {
	enum mesh_sched sched;
	enum mesh_priority priority;
	enum mesh_spatial_estimate spatial_estimate;
	/* Tang's paired job filling: after a job starts next to idle nodes,
	 * also start the queued job of the same size whose estimate is
	 * closest (only jobs of at most pf_max_size nodes; 0 = any). */
	int paired_filling;
	uint32_t pf_max_size;
	double alpha; /* MESH_PRIO_OZDEN reordering strength, 0..1 */
	enum mesh_estimate estimate;
	enum mesh_size_field size_field;
	/* A trace's sizes count processors: a job of p of them takes
	 * ceil(p / cores_per_node) whole nodes (1: one per node). */
	uint32_t cores_per_node;
	double load; /* inter-arrival multiplier, > 0 (1 = as traced) */
	/* Only jobs whose SWF status s has bit s + 1 set (s = -1..5; 0:
	 * every status) and, if n_partitions, whose SWF partition is one of
	 * partitions[]; the others count as filtered, not as skipped. */
	unsigned keep_status;
	const long *partitions;
	size_t n_partitions;
	/* A window of the trace, one replication (with window_parts > 0):
	 * the submit span of the jobs kept so far, cut into window_parts
	 * equal parts; only the jobs of part window_index (1-based) run.
	 * Those submitted less than warmup seconds after the part's start,
	 * or no more than cooldown seconds before its end, run but are not
	 * measured (mesh_sim_job.measured); warmup and cooldown also trim
	 * the whole trace without a window.  Trace seconds, before load. */
	unsigned window_index, window_parts;
	double warmup, cooldown;
	/* Resampling of the jobs kept (before the window), from
	 * bootstrap_seed: a drawn job keeps its id, so a job drawn twice
	 * appears twice. */
	enum mesh_bootstrap bootstrap;
	uint64_t bootstrap_seed;
	/* Estimates rounded up to a multiple of this many seconds (0: not):
	 * Slurm keeps time limits in whole minutes, so a replay at speed-up
	 * S sees limits in multiples of 60 * S trace seconds. */
	double limit_quantum;
	/* Keep jobs whose runtime is exactly 0 (the default): an SWF
	 * runtime of 0 is a real job that ran for under a second, placed and
	 * freed at once; only -1 means missing.  Walker et al. count them
	 * (Fig. 8: all 18,239 NASA jobs).  0 skips them. */
	int keep_zero_runtime;
	uint64_t seed; /* passed to randomised allocators */
	enum mesh_runtime_model runtime_model;
	/* Every job's pattern and runtime shares of its communication and
	 * I/O phases, unless job_info says otherwise for a job. */
	enum mesh_comm comm;
	double comm_share, io_share;
	struct mesh_net_params net; /* capacities, GB/s (contention.h) */
	enum mesh_rank_order rank_order;
	/* Per-job attributes (meshsim's --job-attrs sidecar), or NULL.
	 * Called once per accepted job with info holding the defaults above
	 * (shape 0, io_intensity -1 = unknown, no phases); it overwrites
	 * what it knows.  Pointers it sets must outlive the run.
	 * shape and io_intensity go into the allocator's request. */
	void (*job_info)(void *arg, long job_id,
			 struct mesh_sim_job_info *info);
	void *job_info_arg;
	/* Positions that may be given to jobs (named nodes that are not I/O
	 * nodes, say), or NULL for all; utilization, loss of capacity and
	 * "too large" count only these. */
	const struct mesh_bitmap *usable;
	/* Called now and then with jobs done so far; may be NULL. */
	void (*progress)(void *arg, size_t done, size_t total);
	void *progress_arg;
	/* Keep every job's nodes in the result (the default).  0: the
	 * result's nodes is NULL and node_off means nothing; the run then
	 * holds only the running jobs' nodes, O(mesh nodes) instead of
	 * 4 bytes per node of every job.  Then also, with rank_order
	 * MESH_RANKS_INDEX, a job that needs every free node takes them
	 * without asking an allocator that places whenever k nodes are
	 * free: its only possible node set, whose order nothing reads. */
	int keep_nodes;
};

struct mesh_sim_job {
	long id;
	long line; /* trace line */
	double submit, start, end, run, estimate;
	double trace_run; /* runtime in the trace; run differs under
			   * the contention model */
	double io_time;   /* wall seconds in the I/O phase (contention) */
	/* End-time estimate the allocator was given (sl:*), from the
	 * spatial estimate mode: the estimate, Tang's adjusted estimate or
	 * the actual runtime. */
	double spatial_estimate;
	long user;       /* SWF user id, -1 if unknown */
	double req_time; /* SWF requested time, <= 0 if unknown */
	uint32_t size;
	uint64_t sum_pairwise;
	double avg_pairwise;
	int diameter;
	int on_box; /* 1: the nodes fill their enclosing box (wrapping) */
	/* With I/O nodes: the system balance factor (doc/io-balance.md) of
	 * all running jobs just after this job started, signed; the mean of
	 * its absolute value over jobs is avg_balance_factor.  0 without. */
	long sys_balance_factor;
	size_t node_off; /* nodes in result->nodes[node_off .. + size) (with
			  * keep_nodes) */
	int measured;    /* 1: counted in the summary's per-job metrics (not
		       * in a window's warm-up or cool-down) */
};

/* The percentiles of the summary's tails (sum->wait_tail, bsld_tail). */
#define MESH_SIM_N_TAILS 4
extern const int mesh_sim_tails[MESH_SIM_N_TAILS]; /* 50, 95, 99, 100 */

/* Jobs of sizes min..max (powers of two: 1, 2, 3-4, 5-8, ...). */
struct mesh_size_class {
	uint32_t min, max;
	size_t jobs;
	double mean_wait, mean_bounded_slowdown;
};

#define MESH_SIM_SIZE_CLASSES 24

struct mesh_sim_summary {
	size_t jobs;              /* simulated */
	size_t skipped;           /* all skipped */
	size_t skipped_runtime;   /* missing runtime (-1), or 0 when skipped */
	size_t skipped_size;      /* missing or non-positive size */
	size_t skipped_too_large; /* larger than the mesh */
	size_t skipped_submit;    /* missing submit time */
	size_t refused;           /* not placeable even on the empty mesh */
	size_t filtered;          /* left out by keep_status, partitions */
	size_t outside_window;    /* kept, but submitted outside the window */
	/* Jobs the per-job metrics below cover (all but the window's
	 * warm-up and cool-down); makespan, the utilizations and loss of
	 * capacity cover every job simulated. */
	size_t measured;
	/* EASY: heads that started after the shadow time computed when
	 * they became head, and the longest such delay (s) */
	size_t late_heads;
	double max_head_delay;
	/* Conservative (both): jobs that started after the first
	 * reservation they got, and the longest such delay (s) */
	size_t late_reserved;
	double max_reserved_delay;
	double makespan; /* last end - first submit */
	/* Useful work: trace node-seconds / (usable nodes * makespan). */
	double utilization;
	/* Occupied node-seconds (the stretched runtimes) over the same; what
	 * Mache's simulator reports as utilization.  Equal under the trace
	 * model. */
	double occupied_utilization;
	double mean_wait;
	/* max(1, (wait + run) / max(trace_run, 10 s)): the stretched run over
	 * the trace runtime, so contention shows in it. */
	double mean_bounded_slowdown;
	/* Tails over jobs, at MESH_SIM_TAILS percent (the last, 100, is the
	 * maximum); nearest rank: the least value that at least that share
	 * of the jobs do not exceed. */
	double wait_tail[MESH_SIM_N_TAILS];
	double bsld_tail[MESH_SIM_N_TAILS];
	double mean_sum_pairwise;       /* over all jobs, 1-node jobs = 0 */
	double mean_avg_pairwise_multi; /* over jobs of >= 2 nodes */
	double box_share_multi;         /* share of those on a box (on_box) */
	/* Contention model (0 under the trace model): */
	double mean_stretch;      /* mean of run / trace_run (1: trace model) */
	double mean_service_time; /* Mache's service time: start to end */
	/* Tang et al. eq. (1): idle node-seconds while a queued job would
	 * fit in the idle node count, over nodes * (last - first event). */
	double loss_of_capacity;
	/* With I/O nodes (Mache, Ch. VII): mean over job starts of |system
	 * balance factor| and of the running jobs' I/O max_contention. */
	double avg_balance_factor, avg_max_contention;
	size_t n_size_classes; /* non-empty classes, ascending */
	struct mesh_size_class by_size[MESH_SIM_SIZE_CLASSES];
	double total_io_time; /* sum of jobs' I/O phase wall seconds */
};

struct mesh_sim_result {
	struct mesh_sim_job *jobs; /* in start order */
	size_t n;
	uint32_t *nodes; /* node indices of all jobs; NULL without keep_nodes */
	struct mesh_sim_summary summary;
	/* Starts of a job that needed every free node, which took them
	 * without an allocator call (only without keep_nodes and with
	 * ranks in index order, where nothing reads the allocator's
	 * order; see keep_nodes). */
	size_t forced_starts;
};

/** \brief Default options: EASY, clamped estimates, load 1, zero-runtime
 *  jobs and every job's nodes kept. */
void mesh_sim_opts_init(struct mesh_sim_opts *o);

/** \brief Replay tr on t with allocator a.
 *  \param[out] out results; free with mesh_sim_result_free().
 *  \return 0, MESH_EINVAL, MESH_ENOMEM, or the allocator's error (e.g.
 *  MESH_EINTERNAL), described in d. */
int mesh_sim_run(const struct mesh_topo *t, struct mesh_allocator *a,
		 const struct mesh_swf_trace *tr, const struct mesh_sim_opts *o,
		 struct mesh_sim_result **out, struct mesh_diag *d);

void mesh_sim_result_free(struct mesh_sim_result *r);

/** \brief A job's slowdown from contention: wall runtime over trace
 *  runtime (run / trace_run), 1 for a zero-length trace runtime and
 *  always 1 under the trace model. The summary's mean_stretch is its
 *  mean over the jobs. */
double mesh_sim_job_stretch(const struct mesh_sim_job *j);

#endif
