/* tidy.c - the tidy CSV's metric columns, and writing and splitting CSV
 * fields (RFC 4180 quoting), shared by the sweep (sweep.c) and the
 * aggregation (agg.c). */
#include "tidy.h"

#include <string.h>

const char *const tidy_metrics[] = { "jobs",
				     "skipped",
				     "skipped_runtime",
				     "skipped_size",
				     "skipped_too_large",
				     "skipped_submit",
				     "refused",
				     "makespan",
				     "utilization",
				     "mean_wait",
				     "mean_bounded_slowdown",
				     "mean_sum_pairwise",
				     "mean_avg_pairwise_multi",
				     "loss_of_capacity",
				     "mean_stretch",
				     "mean_service_time",
				     "total_io_time",
				     "avg_balance_factor",
				     "avg_max_contention",
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
