/* sim_internal.h - the simulator's state, shared by its files (never
 * installed): sim.c (event loop, starts and ends), sim_sched.c (queue
 * order and backfilling), sim_runtime.c (dynamic runtime models),
 * sim_check.c (the schedule's invariants) and sim_summary.c (metrics).
 */
#ifndef MESH_SIM_INTERNAL_H
#define MESH_SIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "contention.h"
#include "plan.h"
#include "sim.h"

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

/* A running job under a dynamic runtime model (sim_runtime.c). */
struct sim_run {
	struct mesh_job_load load;
	double left;    /* trace seconds of work left */
	double stretch; /* wall seconds per trace second now */
	double io_rate; /* wall seconds of I/O per wall second now */
	/* phased jobs: compute and checkpoint phases, in trace seconds */
	int phased, in_io;
	double compute, checkpoint, phase_left;
	/* the pending event ends the job (else it is a phase boundary):
	 * decided when the event is scheduled, so an end that rounds to
	 * the current time still ends the job */
	int ending;
};

/* A job planned in a conservative pass: no job needing as many nodes or
 * more for as long or longer, planned after it in the pass, can start
 * before first_enough (mesh_plan_stats). */
struct plan_floor {
	uint32_t nodes;
	double duration, first_enough;
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
	/* the usable nodes all free, and a placement on them: the test at
	 * submission of allocators that may refuse with enough nodes free */
	struct mesh_bitmap *empty_map;
	uint32_t *empty_nodes;
	/* its answer by size for jobs without a shape: 0 not asked yet,
	 * 1 placeable, 2 never */
	unsigned char *ever_by_size;
	/* EASY under such an allocator reserves the head's placement, not
	 * a count: its nodes, and the free nodes outside them */
	struct mesh_bitmap *head_resv, *outside_resv;
	/* per job, EASY: its shadow when it became head; conservative: its
	 * first reservation's start */
	double *promised;
	double *node_end;
	uint32_t free_count;
	size_t node_fill, node_cap; /* entries of res->nodes used, held */
	uint32_t *node_spare;       /* without keep_nodes: node_cap entries */
	struct mesh_diag *diag;
	struct mesh_net *net; /* dynamic models or I/O nodes, else NULL */
	struct sim_run *run;  /* per accepted job, with net */
	uint32_t *ranks;      /* scratch: one job's nodes in rank order */
	struct mesh_sim_job_info *attr;          /* per accepted job */
	struct prio_key *keys;                   /* scratch: queue ordering */
	double *ozden_pos, *ozden_io, *ozden_wp; /* scratch, per job */
	/* Conservative backfilling: planner and scratch for one pass. */
	struct mesh_planner *planner;
	struct mesh_plan_hold *holds; /* running */
	struct mesh_plan_resv *resv;  /* reserved */
	/* the reservations' nodes, created as the queue first needs them */
	struct mesh_bitmap **resv_maps;
	uint32_t *resv_nodes; /* one placement */
	/* its cut-off (sim_sched.c): from each queue position on, the
	 * smallest size and estimate; the free nodes that no reservation
	 * so far promises before now + that estimate; the reservations not
	 * yet taken out of them, a min-heap by start */
	uint32_t *tail_size;
	double *tail_est;
	/* per reservation of the pass: its job's size and estimate and
	 * the planner's first_enough, a not_before for later jobs */
	struct plan_floor *floors;
	struct mesh_bitmap *unpromised;
	size_t *pending, n_pending;
	/* conservative-count: free nodes over time, prof_free[i] from
	 * prof_t[i] to prof_t[i + 1] (the last to infinity) */
	double *prof_t;
	int64_t *prof_free; /* below 0 where jobs outlived their estimates
			     * and the reservations overlap */
	size_t n_prof;
	double *held; /* per job: its reservation's start, NaN if none */
	double wake;  /* the earliest reservation after now, or infinity */
	int8_t *side; /* balance factor per node (I/O nodes) */
	long sys_bf;  /* system balance factor now */
	double bf_sum, mc_sum; /* over job starts */
	size_t start_events;
	struct sim_loc loc;
	uint32_t usable;       /* free nodes of the empty machine */
	struct est_hist *hist; /* AdjEst: per (user, size) */
	size_t hist_cap;
	double last_event;
	size_t *rec; /* per accepted job: its entry in res->jobs once started */
	/* sim_check.c: its own record of the schedule */
	size_t *owner;  /* per node: holding job + 1, 0 = idle */
	uint8_t *phase; /* per accepted job: waiting, running, done */
	uint32_t busy;  /* nodes held */
};

/* sim.c */
uint32_t *mesh__sim_node_slot(struct sim *s, uint32_t size);
int mesh__sim_start_on(struct sim *s, size_t idx, double now);
int mesh__sim_by_end(const void *a, const void *b);

/* sim_sched.c */
int mesh__sim_enqueue(struct sim *s, size_t idx, double now);
void mesh__sim_hist_record(struct sim *s, const struct mesh_sim_job *j,
			   double run);
int mesh__sim_schedule(struct sim *s, double now);

/* sim_check.c: each returns 0, or MESH_EINTERNAL with s->diag set */
int mesh__sim_check_create(struct sim *s);
void mesh__sim_check_destroy(struct sim *s);
int mesh__sim_check_start(struct sim *s, size_t idx, const uint32_t *nodes,
			  double now);
int mesh__sim_check_end(struct sim *s, size_t idx, const struct mesh_sim_job *r,
			double now);
int mesh__sim_check_done(struct sim *s);

/* sim_runtime.c: the dynamic runtime models and the I/O metrics */
int mesh__sim_rt_create(struct sim *s);
void mesh__sim_rt_destroy(struct sim *s);
int mesh__sim_rt_start(struct sim *s, size_t idx, const uint32_t *nodes);
void mesh__sim_rt_advance(struct sim *s, double now);
/* At the job's event: 1 if it has ended, else it enters its next phase
 * and 0 is returned. */
int mesh__sim_rt_event(struct sim *s, size_t idx);
void mesh__sim_rt_restretch(struct sim *s, double now);
void mesh__sim_rt_finish(struct sim *s, size_t idx, double now);
double mesh__sim_io_intensity(const struct sim *s, size_t idx);

/* sim_summary.c */
void mesh__sim_loc_event(struct sim *s, double now);
int mesh__sim_summarise(struct sim *s); /* 0 or MESH_ENOMEM */

#endif
