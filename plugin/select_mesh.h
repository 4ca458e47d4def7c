/*****************************************************************************\
 *  select_mesh.h - declarations shared by the files of select/mesh.
 *
 *  The plugin is split by concern, as Slurm's cons_common is, in layers
 *  that call down only (test/layers.sh checks the objects):
 *    select_mesh_2205.c     entry points only 22.05 has or spells so
 *    select_mesh_2411.c     entry points only 24.11 has or spells so
 *    select_mesh.c          entry points (select_p_*), init and fini
 *    select_mesh_run.c      RUN_NOW for whole nodes: free, shared, preempt
 *    select_mesh_layer.c    over cons_tres (22.05): job_test
 *    select_mesh_plan.c     WILL_RUN: earliest start through the planner
 *    select_mesh_share.c    OverSubscribe: sharing whole nodes
 *    select_mesh_preempt.c  preemption: the fewest victims
 *    select_mesh_fit.c      over cons_tres: nodes that fit a job
 *    select_mesh_place.c    free maps, hints, the allocator call, tiers
 *    select_mesh_info.c     nodeinfo, jobinfo and the placement summary
 *    select_mesh_log.c      DebugFlags=SelectType decision lines
 *    select_mesh_track.c    the jobs holding nodes and per-node use counts
 *    select_mesh_conf.c     mesh.conf, index maps, reconfigure
 *    select_mesh_other.c    the plugin below (OTHER_CONS_TRES, 22.05): loading
 *    select_mesh_other_none.c  none below (24.11)
 *    job_hints.c            a job's hints (shared with topology/mesh)
 *  Functions shared between the files are prefixed sm_ and hidden (never
 *  exported, so slurmctld's symbols cannot interpose them); the state they
 *  share is the one struct sm, protected by the mutex in select_mesh.c.
 *****************************************************************************
 *  Copyright (C) 2026 The slurm-mesh authors.
 *
 *  This file is part of slurm-mesh, a plugin for Slurm.  It is free
 *  software under the GNU General Public License, version 2 or later; see
 *  select_mesh.c for the full notice.
\*****************************************************************************/

#ifndef _SELECT_MESH_H
#define _SELECT_MESH_H

#include <inttypes.h>
#include <stdbool.h>
#include <time.h>

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "compat/compat.h"
#include "src/slurmctld/slurmctld.h"

#include "mesh/mesh.h"

/* Shared between the plugin's files, never exported. */
#define SM_HIDDEN __attribute__((visibility("hidden")))

/* node2mesh[] of a hole in the node table. */
#define SM_NO_POS UINT32_MAX

extern const char plugin_type[];

#define NODEINFO_MAGIC 0x8e5a

struct select_nodeinfo {
	uint16_t magic;
	uint16_t alloc_cpus;
	uint64_t alloc_memory;
	char *tres_alloc_fmt_str;
	double tres_alloc_weighted;
};

#define JOBINFO_MAGIC 0x6d6a

/*
 * Per-job data: the placement summary shown by squeue %s / -O SelectJobInfo
 * ("alloc=mc1x1 bbox=2x2x1 sumdist=8 avgdist=1.33 diam=2").  Packed as a
 * 32-bit mark, a format version and a length-prefixed blob, so that a
 * later format is skipped rather than misread, and a state file written
 * before jobinfo carried data (nothing packed) still loads.
 */
struct select_jobinfo {
	uint16_t magic;
	char *placement;	/* NULL until select_p_job_begin */
	/* The layer's own jobinfo (OTHER_CONS_TRES), packed after ours;
	 * cons_tres keeps none, so it is NULL and packs nothing. */
	struct select_jobinfo *other;
};

/* A job that holds nodes (running, or suspended by the scheduler). */
struct mesh_job {
	uint32_t job_id;
	bitstr_t *nodes;	/* Slurm node indices */
	/* The same indices in order, for the loops of every WILL_RUN
	 * (bit_ffs/bit_fls/bit_test per job were about a tenth of
	 * slurmctld's CPU with 512 running jobs); sm_job_index() after any
	 * change of nodes. */
	int *idx;
	int n_idx;
	time_t end_time;	/* last known; refreshed from the job record */
	uint16_t max_share;	/* > 1: shares its nodes (OverSubscribe) */
	long seq;		/* when it was tracked: tracked is in seq order */
};

/* The plugin's state; every field is protected by the plugin's mutex. */
struct sm_state {
	struct mesh_conf *conf;
	struct mesh_allocator *alloc;
	/* For --contiguous when alloc may return scattered nodes: the first
	 * registered contiguous-only allocator, or NULL. */
	struct mesh_allocator *contig;
	uint32_t *node2mesh;	/* Slurm node index -> mesh index, or SM_NO_POS */
	int *mesh2node;		/* mesh index -> Slurm node index or -1 */
	int node_cnt;		/* node_record_count the maps were built for */
	/*
	 * The jobs holding nodes, in the order they were tracked (the "job
	 * mate" search takes the first match).  An array of the records
	 * themselves, not a List: every WILL_RUN walks it, and list_next()
	 * with its lock per step, then a cache miss per record, were a
	 * tenth of slurmctld's CPU at 512 running jobs.  A pointer into it
	 * lasts until the next add or remove.
	 */
	struct mesh_job *tracked;
	int n_tracked, cap_tracked;
	/* job id -> its seq (core/id_index.h), then a binary search of
	 * tracked: a removal shifts positions but not seqs.  NULL: scan. */
	struct smc_id_index *tracked_ids;
	long next_seq;
	uint16_t *busy;		/* per Slurm node: tracked jobs holding it */
	bool state_valid;	/* tracked/busy match job_list */
	uint32_t contig_job_id;	/* last RUN_NOW placed by contig */
	uint32_t other_job_id;	/* last RUN_NOW the layer placed alone */
	/* A reconfigure left no mesh.conf that matches the node table. */
	bool conf_broken;
	/* Fewest and most CPUs of a node, while cpus_range_valid. */
	uint32_t cpus_range[2];
	bool cpus_range_valid;
	/*
	 * Per-decision buffers, kept across calls and sized by the mesh when
	 * the maps are built.  Only positions of named nodes are ever
	 * written, so resetting them costs O(named nodes), not O(mesh
	 * positions).
	 */
	struct mesh_bitmap *buf_free;	/* free map handed to the allocator */
	struct mesh_bitmap *buf_tier;	/* buf_free within a weight tier */
	double *buf_end;		/* end time per mesh position */
	uint32_t *buf_out;		/* allocator output, node_cnt + 1 */
	struct mesh_planner *planner;	/* WILL_RUN's earliest-start search */
};

extern struct sm_state sm SM_HIDDEN;

/* Most GRES a job names that the fit model follows (more: cons_tres). */
#define SM_MAX_GRES 8

/* What a job needs on each node it gets (over cons_tres). */
struct sm_need {
	uint32_t cpus;		/* CPUs per node */
	uint64_t mem;		/* MB per node under CR_Memory, else 0 */
	bool whole;		/* the whole node (--exclusive, EXCLUSIVE) */
	bool share_cpus;	/* may oversubscribe CPUs (OverSubscribe) */
	int n_gres;
	struct {
		uint32_t plugin_id, type_id;	/* type_id 0: any type */
		uint64_t cnt;
	} gres[SM_MAX_GRES];
};

/* Per node, what the counted jobs hold, for one job's need. */
struct sm_fit {
	struct sm_need need;
	uint16_t *jobs;		/* jobs on the node */
	uint16_t *whole;	/* whole-node jobs holding the node */
	uint32_t *cpus;		/* CPUs allocated */
	uint64_t *mem;		/* memory allocated */
	uint64_t *gres;		/* [node * SM_MAX_GRES + g]: of need.gres[g] */
	uint16_t *use;		/* sm_fit_use(): 0 = fits, as mesh_try.busy */
	uint32_t *free_cpus;	/* sm_fit_use(): CPUs the job gets there */
};

/* One placement attempt. */
struct mesh_try {
	job_record_t *job_ptr;
	bitstr_t *avail;	/* IN usable nodes; OUT chosen nodes */
	const uint16_t *busy;	/* NULL: ignore current load */
	/* CPUs the job gets on each node (over cons_tres, partly used
	 * nodes); NULL: all of a node's CPUs */
	const uint32_t *cpus;
	struct sm_fit *fit;	/* over cons_tres: the fit being searched */
	bitstr_t *exc_cores;	/* select_p_job_test's exc_core_bitmap */
	uint32_t min_nodes, max_nodes, req_nodes;
	uint32_t total_cpus;	/* OUT */
	bool used_contig;	/* OUT: placed by sm.contig */
	bool placed_alone;	/* OUT: placed by the layer's own choice */
	/* Set once per select_p_job_test call: the job's hints (shape, I/O
	 * intensity, comm; the rest zero).  A decision may make many
	 * attempts (preemption, sharing): the hints are read once. */
	struct mesh_request hints;
	/* Set by sm_try_begin() for one attempt, whatever the free set: */
	struct mesh_request r;	/* hints, seed, required nodes, flags */
	uint32_t *req;		/* required nodes (mesh indices) or NULL */
	uint32_t avail_cnt;	/* usable nodes, named in the mesh */
	uint32_t cand[2];	/* node counts to try: requested, minimum */
	uint64_t *tiers;	/* distinct node weights, lowest first */
	int n_tiers;		/* 0: all usable nodes weigh the same */
	bitstr_t *tiers_for;	/* the usable nodes tiers were found for */
	uint32_t k;		/* OUT: nodes in the last placement */
};

/* select_mesh.c: the entry points' bodies, for select_mesh_<series>.c. */
extern int sm_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
		       uint32_t min_nodes, uint32_t max_nodes,
		       uint32_t req_nodes, uint16_t mode,
		       list_t *preemptee_candidates,
		       list_t **preemptee_job_list,
		       bitstr_t *exc_core_bitmap) SM_HIDDEN;
extern void sm_node_config_changed(void) SM_HIDDEN;
extern bitstr_t *sm_resv_pick(uint32_t node_cnt,
			      bitstr_t *avail_bitmap) SM_HIDDEN;

/* select_mesh_conf.c: configuration.  Callers hold the mutex. */
extern void sm_conf_load_locked(void) SM_HIDDEN;
extern void sm_conf_free_maps(void) SM_HIDDEN;
extern void sm_conf_log_sharing(void) SM_HIDDEN;
extern void sm_node_cpus_range(uint32_t *min, uint32_t *max) SM_HIDDEN;
extern uint32_t sm_max_node_cpus(void) SM_HIDDEN;

/* select_mesh_track.c: the jobs holding nodes.  Callers hold the mutex. */
extern bitstr_t *sm_job_nodes(job_record_t *job_ptr) SM_HIDDEN;
extern void sm_job_index(struct mesh_job *mj) SM_HIDDEN;
extern struct mesh_job *sm_tracked_get(uint32_t job_id) SM_HIDDEN;
extern void sm_tracked_clear(bool free_array) SM_HIDDEN;
extern uint16_t sm_max_share(job_record_t *job_ptr) SM_HIDDEN;
extern void sm_track_add(job_record_t *job_ptr) SM_HIDDEN;
extern void sm_track_remove(uint32_t job_id) SM_HIDDEN;
extern void sm_ensure_state_locked(void) SM_HIDDEN;
extern void sm_use_sub(uint16_t *use, bitstr_t *nodes) SM_HIDDEN;
extern void sm_use_add(uint16_t *use, bitstr_t *nodes) SM_HIDDEN;

/* select_mesh_place.c: placement.  Callers hold the mutex. */
extern double *sm_end_times(const uint16_t *use) SM_HIDDEN;
extern void sm_fill_free_map(bitstr_t *avail, const uint16_t *use,
			     struct mesh_bitmap *free_map) SM_HIDDEN;
extern int sm_free_map(bitstr_t *avail, const uint16_t *use,
		       struct mesh_bitmap **out) SM_HIDDEN;
extern void sm_job_hints_locked(job_record_t *job_ptr,
				struct mesh_request *r) SM_HIDDEN;
extern int sm_try_begin(struct mesh_try *t) SM_HIDDEN;
extern void sm_try_end(struct mesh_try *t) SM_HIDDEN;
extern void sm_try_free(struct mesh_try *t) SM_HIDDEN;
extern int sm_choose(struct mesh_try *t, const struct mesh_view *v,
		     uint32_t *out) SM_HIDDEN;
extern void sm_set_chosen(struct mesh_try *t, const uint32_t *out,
			  uint32_t k) SM_HIDDEN;
extern int sm_try_place(struct mesh_try *t) SM_HIDDEN;
extern int sm_place_with(struct mesh_try *t, bitstr_t *orig,
			 uint16_t *use) SM_HIDDEN;

/* select_mesh_run.c: RUN_NOW for whole nodes.  Callers hold the mutex. */
extern int sm_run_now(struct mesh_try *t, list_t *candidates,
		      list_t **preemptees) SM_HIDDEN;

/* select_mesh_plan.c: WILL_RUN.  Callers hold the mutex. */
extern int sm_will_run(struct mesh_try *t, list_t *candidates,
		       list_t **preemptees) SM_HIDDEN;
extern uint32_t *sm_sorted_ids(list_t *l, int *n) SM_HIDDEN;
extern bool sm_in_ids(const uint32_t *ids, int n, uint32_t job_id) SM_HIDDEN;

/* select_mesh_share.c: OverSubscribe.  Callers hold the mutex. */
extern int sm_run_shared(struct mesh_try *t, bitstr_t *orig,
			 uint16_t m) SM_HIDDEN;
extern int sm_plan_sharing_now(struct mesh_try *t, bitstr_t *orig, int rc,
			       list_t **plan) SM_HIDDEN;

/* select_mesh_preempt.c: preemption.  Callers hold the mutex. */
extern bool sm_fits_after_completion(struct mesh_try *t,
				     bitstr_t *orig) SM_HIDDEN;
extern int sm_preempt_fewest(struct mesh_try *t, bitstr_t *orig,
			     list_t *candidates, list_t **victims) SM_HIDDEN;

/* select_mesh_log.c: decision lines.  Callers hold the mutex. */
extern uint32_t sm_log_offered(bitstr_t *bitmap) SM_HIDDEN;
extern void sm_log_plan_cut_locked(job_record_t *job_ptr,
				   const struct mesh_plan_stats *st) SM_HIDDEN;
extern void sm_log_decision_locked(job_record_t *job_ptr, uint16_t mode,
				   uint32_t offered, int rc, bitstr_t *bitmap,
				   uint32_t min_nodes, uint32_t max_nodes,
				   uint32_t req_nodes,
				   const struct mesh_request *hints) SM_HIDDEN;

/* select_mesh_info.c: jobinfo and the placement summary. */
extern void sm_jobinfo_set_placement(job_record_t *job_ptr,
				     const char *placement) SM_HIDDEN;
extern void sm_set_comment(job_record_t *job_ptr, bitstr_t *nodes,
			   const char *why) SM_HIDDEN;

/* select_mesh_other.c (22.05; none on 24.11, select_mesh_other_none.c): the
 * plugin below select/mesh, if any. */
extern const char *sm_other_type(void) SM_HIDDEN;
extern sm_layer_ops_t *sm_other(void) SM_HIDDEN;
extern void sm_other_fini(void) SM_HIDDEN;

/* select_mesh_fit.c: nodes that fit a job over cons_tres.  Callers hold
 * the mutex; slurmctld holds the job read lock. */
extern void sm_need_init(job_record_t *job_ptr, struct sm_need *n) SM_HIDDEN;
extern void sm_fit_alloc(struct sm_fit *f, job_record_t *job_ptr) SM_HIDDEN;
extern void sm_fit_free(struct sm_fit *f) SM_HIDDEN;
extern void sm_fit_build(struct sm_fit *f, const uint32_t *skip, int n_skip,
			 time_t until) SM_HIDDEN;
extern bool sm_fit_node(const struct sm_fit *f, int i,
			uint32_t *cpus) SM_HIDDEN;
extern int sm_fit_use(struct sm_fit *f, bitstr_t *avail) SM_HIDDEN;
extern void sm_fit_job(struct sm_fit *f, const struct mesh_job *mj, int sign)
	SM_HIDDEN;
extern bool sm_fit_verify(const struct sm_fit *f, const uint32_t *skip,
			  int n_skip) SM_HIDDEN;

/* select_mesh_layer.c: select_p_job_test over cons_tres. */
extern int sm_layer_job_test(struct mesh_try *t, uint16_t mode,
			     list_t *candidates, list_t **preemptees) SM_HIDDEN;

#endif
