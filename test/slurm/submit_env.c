/*
 * submit_env.c - submit a batch job whose SPANK environment holds the
 * given NAME=value strings, as any program on Slurm's submit API may:
 * spank_mesh's checks at submission are bypassed, so slurmctld's plugins
 * see the values as they are.  Prints the job id.
 *
 * Usage: submit-env NODES NAME=value...
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <slurm/slurm.h>

int main(int argc, char **argv)
{
	char *env[] = { "PATH=/usr/bin:/bin", NULL };
	submit_response_msg_t *resp = NULL;
	job_desc_msg_t desc;
	char cwd[4096];

	if (argc < 2 || atoi(argv[1]) < 1) {
		fprintf(stderr, "usage: submit-env NODES NAME=value...\n");
		return 2;
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		perror("submit-env: getcwd");
		return 1;
	}
	slurm_init(NULL);
	slurm_init_job_desc_msg(&desc);
	desc.name = "submit-env";
	desc.min_nodes = (uint32_t) atoi(argv[1]);
	desc.time_limit = 5;
	desc.script = "#!/bin/sh\nsleep 30\n";
	desc.work_dir = cwd;
	desc.std_out = "/dev/null";
	desc.user_id = getuid();
	desc.group_id = getgid();
	desc.environment = env;
	desc.env_size = 1;
	desc.spank_job_env = argv + 2;
	desc.spank_job_env_size = (uint32_t) (argc - 2);
	if (slurm_submit_batch_job(&desc, &resp) || !resp) {
		slurm_perror("submit-env: slurm_submit_batch_job");
		return 1;
	}
	printf("%u\n", resp->job_id);
	slurm_free_submit_response_response_msg(resp);
	slurm_fini();
	return 0;
}
