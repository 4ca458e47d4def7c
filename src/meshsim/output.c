/* output.c - meshsim's results: the table on stdout, the per-job CSV
 * and the JSON summary (which records every option that changes
 * results, so a run can be repeated from it). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

#include "cli.h"
#include "meshsim.h"

const char *const meshsim_spatial_names[] = { "user", "adjusted", "actual" };
const char *const meshsim_sched_names[] = { "fcfs", "easy", "conservative",
					    "conservative-count" };

static void write_coords(FILE *f, const struct mesh_topo *t,
			 const uint32_t *nodes, uint32_t n)
{
	int c[MESH_MAX_DIMS], d;
	uint32_t i;

	for (i = 0; i < n; i++) {
		mesh_topo_coords(t, nodes[i], c);
		fputs(i ? " " : "", f);
		for (d = 0; d < t->ndims; d++)
			fprintf(f, d ? ":%d" : "%d", c[d]);
	}
}

int meshsim_windowed(const struct options *o)
{
	return o->sim.window_parts || o->sim.warmup > 0 || o->sim.cooldown > 0;
}

int meshsim_write_jobs_csv(FILE *f, const char *path, const struct mesh_topo *t,
			   const struct mesh_sim_result *r, int measured)
{
	size_t i;

	fprintf(f,
		"job_id,submit,start,end,wait,run,nodes,sum_pairwise,"
		"avg_pairwise,diameter,coords,trace_run,io_time,stretch,"
		"sys_balance_factor%s\n",
		measured ? ",measured" : "");
	for (i = 0; i < r->n; i++) {
		const struct mesh_sim_job *j = &r->jobs[i];

		fprintf(f, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%u,%llu,%.6f,%d,",
			j->id, j->submit, j->start, j->end,
			j->start - j->submit, j->run, j->size,
			(unsigned long long) j->sum_pairwise, j->avg_pairwise,
			j->diameter);
		write_coords(f, t, r->nodes + j->node_off, j->size);
		fprintf(f, ",%.17g,%.17g,%.17g,", j->trace_run, j->io_time,
			mesh_sim_job_stretch(j));
		if (t->n_io) /* empty: no I/O nodes, no balance factor */
			fprintf(f, "%ld", j->sys_balance_factor);
		if (measured)
			fprintf(f, ",%d", j->measured);
		fputc('\n', f);
	}
	if (fflush(f) || ferror(f)) {
		fprintf(stderr, "meshsim: --jobs-csv: write error on %s\n",
			path);
		return -1;
	}
	return 0;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char) *s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

const char *const meshsim_runtime_names[] = { "trace", "contention", "pfs",
					      "contention+pfs" };

static const char *priority_name(enum mesh_priority p)
{
	return p == MESH_PRIO_WFP     ? "wfp"
	       : p == MESH_PRIO_OZDEN ? "ozden"
				      : "fcfs";
}

/* Queue policy, fragmentation, I/O balance and size classes. */
static void write_summary_policy(FILE *f, const struct options *o,
				 const struct mesh_topo *t,
				 const struct mesh_sim_summary *s)
{
	size_t i;

	fprintf(f, "  \"priority\": \"%s\",\n  \"alpha\": %.17g,\n",
		priority_name(o->sim.priority), o->sim.alpha);
	fprintf(f,
		"  \"paired_filling\": %s,\n  \"pf_max_size\": %u,\n"
		"  \"spatial_estimate\": \"%s\",\n",
		o->sim.paired_filling ? "true" : "false", o->sim.pf_max_size,
		meshsim_spatial_names[o->sim.spatial_estimate]);
	fprintf(f, "  \"loss_of_capacity\": %.17g,\n", s->loss_of_capacity);
	if (t->n_io)
		fprintf(f,
			"  \"avg_balance_factor\": %.17g,\n"
			"  \"avg_max_contention\": %.17g,\n",
			s->avg_balance_factor, s->avg_max_contention);
	else
		fprintf(f, "  \"avg_balance_factor\": null,\n"
			   "  \"avg_max_contention\": null,\n");
	fprintf(f, "  \"by_size\": [");
	for (i = 0; i < s->n_size_classes; i++) {
		const struct mesh_size_class *c = &s->by_size[i];

		fprintf(f,
			"%s\n    {\"min\": %u, \"max\": %u, \"jobs\": %zu, "
			"\"mean_wait\": %.17g, \"mean_bounded_slowdown\": "
			"%.17g}",
			i ? "," : "", c->min, c->max, c->jobs, c->mean_wait,
			c->mean_bounded_slowdown);
	}
	fprintf(f, "%s],\n", s->n_size_classes ? "\n  " : "");
}

static void json_string_or_null(FILE *f, const char *s)
{
	if (s)
		json_string(f, s);
	else
		fputs("null", f);
}

/* The --status and --partition filters, as lists; null when not set. */
static void write_filters(FILE *f, const struct options *o)
{
	const char *sep = "";
	size_t i;
	int st;

	fprintf(f, "  \"status_filter\": ");
	if (!o->sim.keep_status)
		fprintf(f, "null");
	for (st = -1; st <= 5 && o->sim.keep_status; st++)
		if (o->sim.keep_status & (1u << (st + 1))) {
			fprintf(f, "%s%d", *sep ? sep : "[", st);
			sep = ", ";
		}
	fprintf(f, "%s,\n  \"partition_filter\": ", *sep ? "]" : "");
	for (i = 0; i < o->n_partitions; i++)
		fprintf(f, "%s%ld", i ? ", " : "[", o->partitions[i]);
	fprintf(f, "%s,\n", o->n_partitions ? "]" : "null");
}

/* What the run was: enough to repeat it. */
static void write_summary_run(FILE *f, const struct options *o,
			      const struct mesh_topo *t)
{
	char mesh[64];
	size_t i;
	int c[MESH_MAX_DIMS], d;

	fprintf(f, "{\n  \"version\": \"%s\",\n  \"trace\": ", cli_revision);
	json_string(f, o->trace);
	fprintf(f, ",\n  \"trace_sha256\": ");
	json_string_or_null(f, o->trace_sha256[0] ? o->trace_sha256 : NULL);
	fprintf(f, ",\n  \"mesh\": \"%s\",\n  \"mesh_conf\": ",
		mesh_topo_format(t, mesh, sizeof(mesh)));
	json_string_or_null(f, o->mesh_conf);
	fprintf(f, ",\n  \"mesh_conf_sha256\": ");
	json_string_or_null(f, o->mesh_conf_sha256[0] ? o->mesh_conf_sha256
						      : NULL);
	fprintf(f, ",\n  \"io_nodes\": [");
	for (i = 0; i < t->n_io; i++) {
		mesh_topo_coords(t, t->io_nodes[i], c);
		fprintf(f, "%s\"", i ? ", " : "");
		for (d = 0; d < t->ndims; d++)
			fprintf(f, d ? ",%d" : "%d", c[d]);
		fputc('"', f);
	}
	fprintf(f, "],\n  \"io_nodes_compute\": %s,\n",
		o->io_nodes_compute ? "true" : "false");
	fprintf(f,
		"  \"usable_nodes\": %u,\n  \"allocator\": ", o->usable_nodes);
	json_string(f, o->allocator);
	fprintf(f, ",\n  \"allocator_params\": ");
	json_string_or_null(f, o->alloc_params);
	fprintf(f, ",\n  \"job_attrs\": ");
	json_string_or_null(f, o->job_attrs);
	fprintf(f, ",\n  \"job_attrs_sha256\": ");
	json_string_or_null(f, o->job_attrs_sha256[0] ? o->job_attrs_sha256
						      : NULL);
	fprintf(f, ",\n  \"seed\": %llu,\n", (unsigned long long) o->sim.seed);
	/* load: the older name of arrival_scale, kept for readers of it */
	fprintf(f,
		"  \"scheduler\": \"%s\",\n  \"arrival_scale\": %.17g,\n"
		"  \"load\": %.17g,\n",
		meshsim_sched_names[o->sim.sched], o->sim.load, o->sim.load);
	fprintf(f, "  \"limit_quantum\": %.17g,\n", o->sim.limit_quantum);
	fprintf(f,
		"  \"estimate\": \"%s\",\n  \"size_field\": \"%s\",\n"
		"  \"cores_per_node\": %u,\n"
		"  \"zero_runtime\": \"%s\",\n",
		o->sim.estimate == MESH_ESTIMATE_EXACT ? "exact" : "clamp",
		o->sim.size_field == MESH_SIZE_REQ ? "req" : "alloc",
		o->sim.cores_per_node,
		o->sim.keep_zero_runtime ? "keep" : "skip");
	write_filters(f, o);
	if (o->sim.window_parts)
		fprintf(f, "  \"window\": \"%u/%u\",\n", o->sim.window_index,
			o->sim.window_parts);
	else
		fprintf(f, "  \"window\": null,\n");
	fprintf(f, "  \"warmup\": %.17g,\n  \"cooldown\": %.17g,\n",
		o->sim.warmup, o->sim.cooldown);
	if (o->sim.bootstrap)
		fprintf(f, "  \"bootstrap\": \"%s\",\n",
			o->sim.bootstrap == MESH_BOOTSTRAP_JOB ? "job"
							       : "week");
	else
		fprintf(f, "  \"bootstrap\": null,\n");
	fprintf(f, "  \"bootstrap_seed\": %llu,\n",
		(unsigned long long) o->sim.bootstrap_seed);
}

/* A capacity in GB/s; "inf" (a string: JSON has no infinity) when
 * unlimited. */
static void json_bandwidth(FILE *f, const char *key, double v)
{
	if (isinf(v))
		fprintf(f, "  \"%s\": \"inf\",\n", key);
	else
		fprintf(f, "  \"%s\": %.17g,\n", key, v);
}

static void write_summary_models(FILE *f, const struct options *o,
				 const struct mesh_sim_summary *s)
{
	fprintf(f,
		"  \"runtime_model\": \"%s\",\n  \"comm\": \"%s\",\n"
		"  \"comm_share\": %.17g,\n  \"io_share\": %.17g,\n"
		"  \"mean_stretch\": %.17g,\n  \"mean_service_time\": %.17g,\n"
		"  \"total_io_time\": %.17g,\n",
		meshsim_runtime_names[o->sim.runtime_model],
		mesh_comm_name(o->sim.comm == MESH_COMM_UNKNOWN ? MESH_COMM_NONE
								: o->sim.comm),
		o->sim.comm_share, o->sim.io_share, s->mean_stretch,
		s->mean_service_time, s->total_io_time);
	fprintf(f, "  \"rank_order\": \"%s\",\n",
		o->sim.rank_order == MESH_RANKS_INDEX ? "index" : "allocator");
	json_bandwidth(f, "link_bandwidth", o->sim.net.link_bw);
	json_bandwidth(f, "node_bandwidth", o->sim.net.node_bw);
	json_bandwidth(f, "ion_bandwidth", o->sim.net.ion_bw);
	json_bandwidth(f, "pfs_bandwidth", o->sim.net.fs_bw);
}

/* Every job of the trace, by fate; the keys repeat them flat too. */
static void write_summary_fates(FILE *f, const struct options *o,
				const struct mesh_sim_summary *s)
{
	if (o->offered_load >= 0)
		fprintf(f, "  \"offered_load\": %.17g,\n", o->offered_load);
	else
		fprintf(f, "  \"offered_load\": null,\n");
	fprintf(f,
		"  \"fates\": {\"simulated\": %zu, \"skipped_runtime\": %zu, "
		"\"skipped_size\": %zu, \"skipped_too_large\": %zu, "
		"\"skipped_submit\": %zu, \"refused\": %zu, \"filtered\": %zu, "
		"\"outside_window\": %zu, \"total\": %zu},\n",
		s->jobs, s->skipped_runtime, s->skipped_size,
		s->skipped_too_large, s->skipped_submit, s->refused,
		s->filtered, s->outside_window,
		s->jobs + s->skipped + s->refused + s->filtered +
		    s->outside_window);
	fprintf(f, "  \"filtered\": %zu,\n", s->filtered);
	fprintf(f, "  \"outside_window\": %zu,\n  \"measured\": %zu,\n",
		s->outside_window, s->measured);
	fprintf(f,
		"  \"jobs\": %zu,\n  \"skipped\": %zu,\n"
		"  \"skipped_runtime\": %zu,\n  \"skipped_size\": %zu,\n"
		"  \"skipped_too_large\": %zu,\n  \"skipped_submit\": %zu,\n"
		"  \"refused\": %zu,\n",
		s->jobs, s->skipped, s->skipped_runtime, s->skipped_size,
		s->skipped_too_large, s->skipped_submit, s->refused);
	fprintf(f, "  \"late_heads\": %zu,\n  \"max_head_delay\": %.17g,\n",
		s->late_heads, s->max_head_delay);
	fprintf(f,
		"  \"late_reserved\": %zu,\n  \"max_reserved_delay\": "
		"%.17g,\n",
		s->late_reserved, s->max_reserved_delay);
	fprintf(f,
		"  \"estimate_no_request\": %zu,\n  \"estimate_clamped\": "
		"%zu,\n",
		o->est_no_request,
		o->sim.estimate == MESH_ESTIMATE_EXACT ? 0 : o->est_clamped);
}

/* "wait_p50": ..., "wait_p95", "wait_p99", "wait_max" (JSON lines). */
static void write_tails(FILE *f, const char *what, const double *tail)
{
	int t;

	for (t = 0; t < MESH_SIM_N_TAILS; t++) {
		if (mesh_sim_tails[t] == 100)
			fprintf(f, "  \"%s_max\": %.17g,\n", what, tail[t]);
		else
			fprintf(f, "  \"%s_p%d\": %.17g,\n", what,
				mesh_sim_tails[t], tail[t]);
	}
}

int meshsim_write_summary(FILE *f, const char *path, const struct options *o,
			  const struct mesh_topo *t,
			  const struct mesh_sim_summary *s)
{
	write_summary_run(f, o, t);
	write_summary_models(f, o, s);
	write_summary_policy(f, o, t, s);
	write_summary_fates(f, o, s);
	fprintf(
	    f,
	    "  \"makespan\": %.17g,\n  \"utilization\": %.17g,\n"
	    "  \"occupied_utilization\": %.17g,\n"
	    "  \"mean_wait\": %.17g,\n  \"mean_bounded_slowdown\": %.17g,\n",
	    s->makespan, s->utilization, s->occupied_utilization, s->mean_wait,
	    s->mean_bounded_slowdown);
	write_tails(f, "wait", s->wait_tail);
	write_tails(f, "bsld", s->bsld_tail);
	fprintf(f,
		"  \"mean_sum_pairwise\": %.17g,\n"
		"  \"mean_avg_pairwise_multi\": %.17g,\n"
		"  \"box_share_multi\": %.17g\n}\n",
		s->mean_sum_pairwise, s->mean_avg_pairwise_multi,
		s->box_share_multi);
	if (fflush(f) || ferror(f)) {
		fprintf(stderr, "meshsim: --summary: write error on %s\n",
			path);
		return -1;
	}
	return 0;
}

void meshsim_print_table(FILE *f, const struct options *o,
			 const struct mesh_topo *t,
			 const struct mesh_sim_summary *s)
{
	char mesh[64];

	fprintf(f, "trace                    %s\n", o->trace);
	if (o->usable_nodes == t->nodes)
		fprintf(f, "mesh                     %s (%u nodes)\n",
			mesh_topo_format(t, mesh, sizeof(mesh)), t->nodes);
	else
		fprintf(f,
			"mesh                     %s (%u nodes, %u usable)\n",
			mesh_topo_format(t, mesh, sizeof(mesh)), t->nodes,
			o->usable_nodes);
	fprintf(f, "allocator                %s\n", o->allocator);
	fprintf(f, "scheduler                %s\n",
		meshsim_sched_names[o->sim.sched]);
	fprintf(f, "jobs simulated           %zu\n", s->jobs);
	if (o->offered_load >= 0)
		fprintf(f, "offered load             %.4f%s\n", o->offered_load,
			o->offered_load > 1 ? " (saturated)" : "");
	fprintf(
	    f,
	    "jobs skipped             %zu (runtime %zu, size %zu, larger than mesh %zu, submit time %zu)\n",
	    s->skipped, s->skipped_runtime, s->skipped_size,
	    s->skipped_too_large, s->skipped_submit);
	if (s->refused)
		fprintf(f, "jobs never placeable     %zu\n", s->refused);
	if (s->filtered)
		fprintf(
		    f, "jobs filtered out        %zu (--status, --partition)\n",
		    s->filtered);
	if (o->sim.bootstrap)
		fprintf(f, "bootstrap                by %s, seed %llu\n",
			o->sim.bootstrap == MESH_BOOTSTRAP_JOB ? "job" : "week",
			(unsigned long long) o->sim.bootstrap_seed);
	if (meshsim_windowed(o)) {
		fprintf(f, "jobs outside window      %zu\n", s->outside_window);
		fprintf(
		    f,
		    "jobs measured            %zu (the means and tails; not "
		    "the warm-up or cool-down)\n",
		    s->measured);
	}
	fprintf(f, "makespan (s)             %.0f\n", s->makespan);
	fprintf(f, "utilization              %.4f\n", s->utilization);
	if (o->sim.runtime_model != MESH_RUNTIME_TRACE)
		fprintf(f, "occupied utilization     %.4f\n",
			s->occupied_utilization);
	fprintf(f, "mean wait (s)            %.2f\n", s->mean_wait);
	fprintf(f, "mean bounded slowdown    %.4f\n", s->mean_bounded_slowdown);
	fprintf(f, "wait p50/p95/p99/max (s) %.0f / %.0f / %.0f / %.0f\n",
		s->wait_tail[0], s->wait_tail[1], s->wait_tail[2],
		s->wait_tail[3]);
	fprintf(f, "bsld p50/p95/p99/max     %.2f / %.2f / %.2f / %.2f\n",
		s->bsld_tail[0], s->bsld_tail[1], s->bsld_tail[2],
		s->bsld_tail[3]);
	fprintf(f, "mean sum pairwise dist   %.2f\n", s->mean_sum_pairwise);
	fprintf(f, "mean avg pairwise (>=2)  %.4f\n",
		s->mean_avg_pairwise_multi);
	fprintf(f, "on a box (>=2)           %.4f\n", s->box_share_multi);
	fprintf(f, "loss of capacity         %.4f\n", s->loss_of_capacity);
	fprintf(f, "mean service time (s)    %.2f\n", s->mean_service_time);
	if (o->sim.runtime_model != MESH_RUNTIME_TRACE) {
		char label[64];

		snprintf(label, sizeof(label), "mean stretch (%s)",
			 meshsim_runtime_names[o->sim.runtime_model]);
		fprintf(f, "%-24s %.4f\n", label, s->mean_stretch);
	}
}
