/* tidy.h - the tidy CSV's metric columns and its CSV fields. */
#ifndef MESHSWEEP_TIDY_H
#define MESHSWEEP_TIDY_H

#include <stdio.h>

/* The summary metrics copied from meshsim's JSON, in column order;
 * NULL-terminated. */
extern const char *const tidy_metrics[];

/* meshsim's summary keys that record how a point ran (every option,
 * defaults included, and the inputs' SHA-256); column "run_KEY" each.
 * NULL-terminated. */
extern const char *const tidy_run_keys[];

/* The value of key in meshsim's summary (one key per line) as a CSV
 * field: a string without its quotes, an array of strings joined by ';',
 * null or a missing key as "". */
void tidy_json_field(const char *json, const char *key, char *out, size_t len);

/* Write s as one CSV field (quoted if it holds a comma, quote or
 * newline), then a comma, or a newline if last.  NULL is empty. */
void csv_field(FILE *f, const char *s, int last);

/* Split line in place into at most max fields (quotes removed); the
 * number of fields, or -1 if there are more than max. */
int csv_split(char *line, char **field, int max);

#endif
