/* meshsim.h - what the parts of the meshsim front end share. */
#ifndef MESHSIM_H
#define MESHSIM_H

#include <stdio.h>

#include "mesh.h"

#define EXIT_USAGE 2

#define MESHSIM_MAX_PARTITIONS 64

struct options {
	const char *mesh_spec;
	const char *allocator;
	const char *alloc_params;
	const char *mesh_conf;
	const char *io_nodes;
	int io_nodes_compute;  /* I/O positions may also run jobs */
	const char *job_attrs; /* sidecar path or NULL */
	int allocator_set;     /* --allocator or --allocator-params given */
	int cores_set;         /* --cores-per-node given */
	const char *jobs_csv;
	const char *summary_json;
	const char *trace;
	struct mesh_sim_opts sim;
	long partitions[MESHSIM_MAX_PARTITIONS]; /* --partition */
	size_t n_partitions;
	int progress; /* -1 auto (stderr is a tty), 0 off, 1 on */
	/* Set by run(): */
	uint32_t usable_nodes; /* positions jobs may get */
	/* capacities given on the command line (bit i: the i-th field of
	 * struct mesh_net_params), which a mesh.conf does not override */
	unsigned net_set;
	/* SHA-256 of the inputs that are regular files, else "" */
	char trace_sha256[65], job_attrs_sha256[65], mesh_conf_sha256[65];
	/* Work offered per usable node-second of the submit span; < 0 if
	 * the span is 0 (see offered_load() in meshsim.c). */
	double offered_load;
	/* Jobs of the trace whose estimate is their runtime: no requested
	 * time (field 9), or (--estimate clamp) a run past the request */
	size_t est_no_request, est_clamped;
};

/* options.c: parse argv into o; -1 to go on, else an exit status. */
int meshsim_parse_args(int argc, char **argv, struct options *o);

/* output.c */
extern const char *const meshsim_runtime_names[];
extern const char *const meshsim_spatial_names[];
extern const char *const meshsim_sched_names[];
void meshsim_print_table(FILE *f, const struct options *o,
			 const struct mesh_topo *t,
			 const struct mesh_sim_summary *s);
/* 1 if --window, --warmup or --cooldown cut the trace (the measured
 * column, the summary's window lines). */
int meshsim_windowed(const struct options *o);

int meshsim_write_jobs_csv(FILE *f, const char *path, const struct mesh_topo *t,
			   const struct mesh_sim_result *r, int measured);
int meshsim_write_summary(FILE *f, const char *path, const struct options *o,
			  const struct mesh_topo *t,
			  const struct mesh_sim_summary *s);

#endif
