/*
 * submit_env.c - submit batch jobs whose SPANK environment holds the
 * given NAME=value strings, as any program on Slurm's submit API may:
 * spank_mesh's checks at submission are bypassed, so slurmctld's plugins
 * see the values as they are.  Prints the job id, or with -n a summary
 * of the submissions' wall times (a burst for contrib/bench).
 *
 * Usage: submit-env [-n COUNT] [-H] NODES NAME=value...
 *   -n COUNT  submit COUNT jobs, one after another, and print
 *             "COUNT jobs, S s, mean M ms, max X ms, first ID, last ID"
 *   -H        submit them held (priority 0)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(void)
{
	fprintf(stderr, "usage: submit-env [-n COUNT] [-H] NODES NAME=value...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char *env[] = { "PATH=/usr/bin:/bin", NULL };
	submit_response_msg_t *resp = NULL;
	job_desc_msg_t desc;
	char cwd[4096], *end;
	long count = 0, i;
	int held = 0, opt;
	double t0, t, sum = 0, max = 0;
	uint32_t first = 0, last = 0;

	while ((opt = getopt(argc, argv, "+n:H")) != -1) {
		if (opt == 'n') {
			count = strtol(optarg, &end, 10);
			if (*end || count < 1 || count > 1000000)
				usage();
		} else if (opt == 'H') {
			held = 1;
		} else {
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || atoi(argv[0]) < 1)
		usage();
	if (!getcwd(cwd, sizeof(cwd))) {
		perror("submit-env: getcwd");
		return 1;
	}
	slurm_init(NULL);
	for (i = 0; i < (count ? count : 1); i++) {
		slurm_init_job_desc_msg(&desc);
		desc.name = "submit-env";
		desc.min_nodes = (uint32_t) atoi(argv[0]);
		desc.time_limit = 5;
		desc.script = "#!/bin/sh\nsleep 30\n";
		desc.work_dir = cwd;
		desc.std_out = "/dev/null";
		desc.user_id = getuid();
		desc.group_id = getgid();
		desc.environment = env;
		desc.env_size = 1;
		desc.spank_job_env = argv + 1;
		desc.spank_job_env_size = (uint32_t) (argc - 1);
		if (held)
			desc.priority = 0;
		t0 = seconds();
		if (slurm_submit_batch_job(&desc, &resp) || !resp) {
			slurm_perror("submit-env: slurm_submit_batch_job");
			return 1;
		}
		t = seconds() - t0;
		sum += t;
		max = t > max ? t : max;
		last = resp->job_id;
		first = i ? first : last;
		slurm_free_submit_response_response_msg(resp);
	}
	if (count)
		printf("%ld jobs, %.2f s, mean %.3f ms, max %.3f ms, first %u, last %u\n",
		       count, sum, 1e3 * sum / (double) count, 1e3 * max, first,
		       last);
	else
		printf("%u\n", last);
	slurm_fini();
	return 0;
}
