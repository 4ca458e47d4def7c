/* tidy.c - the tidy CSV's columns, how they are read from meshsim's
 * summary, and writing and splitting CSV fields (RFC 4180 quoting),
 * shared by the sweep (sweep.c) and the aggregation (agg.c). */
#include "tidy.h"

#include <stdlib.h>
#include <string.h>

const char *const tidy_metrics[] = { "jobs",
				     "skipped",
				     "skipped_runtime",
				     "skipped_size",
				     "skipped_too_large",
				     "skipped_submit",
				     "refused",
				     "offered_load",
				     "makespan",
				     "utilization",
				     "occupied_utilization",
				     "mean_wait",
				     "mean_bounded_slowdown",
				     "wait_p50",
				     "wait_p95",
				     "wait_p99",
				     "wait_max",
				     "bsld_p50",
				     "bsld_p95",
				     "bsld_p99",
				     "bsld_max",
				     "mean_sum_pairwise",
				     "mean_avg_pairwise_multi",
				     "box_share_multi",
				     "loss_of_capacity",
				     "mean_stretch",
				     "mean_service_time",
				     "total_io_time",
				     "avg_balance_factor",
				     "avg_max_contention",
				     "measured",
				     NULL };

void csv_field(FILE *f, const char *s, int last)
{
	const char *p;

	if (s && strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (p = s; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	} else if (s) {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

int csv_split(char *line, char **field, int max)
{
	char *p = line, *w;
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		field[n++] = w = p;
		if (*p == '"') { /* quoted: "" is a quote */
			for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
				*w++ = *p;
				if (*p == '"')
					p++;
			}
			if (*p == '"')
				p++;
			*w = '\0';
		} else {
			p += strcspn(p, ",");
		}
		if (*p != ',') {
			*p = '\0';
			return n;
		}
		*p++ = '\0';
	}
	return -1;
}

const char *const tidy_run_keys[] = { "trace",
				      "trace_sha256",
				      "job_attrs",
				      "job_attrs_sha256",
				      "mesh_conf",
				      "mesh_conf_sha256",
				      "mesh",
				      "io_nodes",
				      "io_nodes_compute",
				      "usable_nodes",
				      "allocator",
				      "allocator_params",
				      "seed",
				      "scheduler",
				      "priority",
				      "alpha",
				      "paired_filling",
				      "pf_max_size",
				      "spatial_estimate",
				      "load",
				      "limit_quantum",
				      "estimate",
				      "size_field",
				      "zero_runtime",
				      "runtime_model",
				      "comm",
				      "comm_share",
				      "io_share",
				      "pfs_bandwidth",
				      "node_bandwidth",
				      "link_bandwidth",
				      "ion_bandwidth",
				      "rank_order",
				      NULL };

/* A JSON string's contents from p (just past its opening quote) into
 * out; returns the position after the closing quote.  Only meshsim's
 * escapes occur: \" \\ and \u00XX. */
static const char *unquote(const char *p, char *out, size_t len, size_t *n)
{
	while (*p && *p != '"') {
		char c = *p++;

		if (c == '\\' && *p == 'u' && p[1] && p[2] && p[3] && p[4]) {
			c = (char) strtol((char[]){ p[3], p[4], 0 }, NULL, 16);
			p += 5;
		} else if (c == '\\' && *p) {
			c = *p++;
		}
		if (*n + 1 < len)
			out[(*n)++] = c;
	}
	return *p ? p + 1 : p;
}

void tidy_json_field(const char *json, const char *key, char *out, size_t len)
{
	char pat[64];
	const char *p;
	size_t n = 0;

	snprintf(pat, sizeof(pat), "\n  \"%s\": ", key);
	p = strstr(json, pat);
	out[0] = '\0';
	if (!p || !len)
		return;
	p += strlen(pat);
	if (*p == '"') {
		unquote(p + 1, out, len, &n);
	} else if (*p == '[') { /* ["a", "b"] -> a;b */
		for (p++; *p && *p != ']'; p++)
			if (*p == '"') {
				if (n && n + 1 < len)
					out[n++] = ';';
				p = unquote(p + 1, out, len, &n) - 1;
			}
	} else if (strncmp(p, "null", 4)) {
		n = strcspn(p, ",\n}");
		if (n >= len)
			n = 0;
		memcpy(out, p, n);
	}
	out[n] = '\0';
}
