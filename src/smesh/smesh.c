/* smesh.c - show where Slurm jobs sit on the mesh.
 *
 *   smesh [--mesh-conf FILE] show job <jobid>[_<task>|+<component>]
 *   smesh [--mesh-conf FILE] show mesh [--svg FILE]
 *
 * Uses only the public libslurm API (job and node records) plus mesh.conf
 * for the coordinates; the metrics come from the slurm-mesh library, so
 * they agree with what select/mesh writes into SystemComment.
 * NOTE: libslurm dlopens every select plugin in PluginDir when it unpacks
 * job or node records, so select_mesh.so must be installed on every host
 * that runs smesh (or any other Slurm client) - see smesh(1).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "config.h"

#include "cli.h"
#include "mesh.h"

#define EXIT_USAGE 2

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: smesh [--mesh-conf FILE] show job JOBID[_TASK|+COMPONENT]\n"
	    "       smesh [--mesh-conf FILE] show mesh [--svg FILE]\n"
	    "Show job placements on the mesh described by mesh.conf.\n\n"
	    "  --mesh-conf FILE  mesh description (default: mesh.conf next to\n"
	    "                    $SLURM_CONF, else next to the controller's slurm.conf)\n"
	    "  --svg FILE        also draw the mesh into FILE (.svg or .png) with\n"
	    "                    meshplot snapshot, the picture meshsim results get,\n"
	    "                    captioned with the cluster's name and the time\n"
	    "  -h, --help        this help, then exit\n"
	    "  -V, --version     the source revision, then exit\n");
}

/* libslurm sets errno (24.11 dropped slurm_get_errno()). */
static void slurm_fail(const char *what)
{
	fprintf(stderr, "smesh: %s: %s\n", what, slurm_strerror(errno));
}

/* Default mesh.conf: next to $SLURM_CONF, else next to the slurm.conf
 * the controller reports. */
static int default_conf_path(char *buf, size_t len)
{
	slurm_conf_t *cf = NULL;
	const char *sc = getenv("SLURM_CONF");
	int rc;

	if (sc)
		return mesh_conf_path_near(sc, buf, len);
	if (slurm_load_ctl_conf((time_t) 0, &cf) != SLURM_SUCCESS) {
		slurm_fail("cannot read the controller's configuration");
		return -1;
	}
	rc = mesh_conf_path_near(cf->slurm_conf ? cf->slurm_conf
						: "/etc/slurm/slurm.conf",
				 buf, len);
	slurm_free_ctl_conf(cf);
	return rc;
}

static int load_conf(const char *path, struct mesh_conf **c)
{
	char def[1024], buf[800];
	struct mesh_diag d;

	if (!path) {
		if (default_conf_path(def, sizeof(def)))
			return -1;
		path = def;
	}
	mesh_diag_clear(&d);
	if (mesh_conf_load(path, c, &d)) {
		fprintf(stderr, "smesh: %s\n",
			mesh_diag_format(&d, buf, sizeof(buf)));
		return -1;
	}
	return 0;
}

/* Mesh indices of a Slurm hostlist; names outside the mesh are reported.
 * Returns the count, or -1. */
static long hosts_to_mesh(const struct mesh_conf *c, const char *nodes,
			  uint32_t **out)
{
	/* hostlist_t is a pointer in 22.05 and the struct in 24.11 */
	struct hostlist *hl = slurm_hostlist_create(nodes);
	size_t n = 0, cap = 16;
	char *h;
	uint32_t idx;

	*out = malloc(cap * sizeof(**out));
	if (!hl || !*out) {
		fprintf(stderr, "smesh: cannot parse node list \"%s\"\n",
			nodes);
		free(*out);
		if (hl)
			slurm_hostlist_destroy(hl);
		return -1;
	}
	while ((h = slurm_hostlist_shift(hl))) {
		if (mesh_conf_lookup(c, h, &idx)) {
			fprintf(stderr,
				"smesh: warning: node %s is not in %s\n", h,
				c->path);
		} else {
			if (n == cap) {
				cap *= 2;
				*out = realloc(*out, cap * sizeof(**out));
				if (!*out)
					abort();
			}
			(*out)[n++] = idx;
		}
		free(h);
	}
	slurm_hostlist_destroy(hl);
	return (long) n;
}

/* Base job state name (the libslurm helper is not public in 22.05). */
static const char *state_name(uint32_t state)
{
	static const char *const names[] = {
		"PENDING",   "RUNNING",   "SUSPENDED", "COMPLETED",
		"CANCELLED", "FAILED",    "TIMEOUT",   "NODE_FAIL",
		"PREEMPTED", "BOOT_FAIL", "DEADLINE",  "OUT_OF_MEMORY"
	};
	uint32_t base = state & JOB_STATE_BASE;

	if (state & JOB_COMPLETING)
		return "COMPLETING";
	return base < sizeof(names) / sizeof(names[0]) ? names[base] : "?";
}

static void print_coord(const struct mesh_topo *t, uint32_t idx)
{
	int c[MESH_MAX_DIMS], d;

	mesh_topo_coords(t, idx, c);
	putchar('(');
	for (d = 0; d < t->ndims; d++)
		printf(d ? ",%d" : "%d", c[d]);
	putchar(')');
}

/* A job as Slurm spells it: "52", "52_3" (array task) or "53+1"
 * (hetjob component). */
struct job_ref {
	uint32_t id;
	uint32_t task; /* NO_VAL: every task */
	uint32_t comp; /* NO_VAL: every component */
};

/* A positive decimal integer that fits 32 bits at s, up to *end; 0 if
 * not (zero itself is allowed when zero_ok). */
static int parse_u32(const char *s, char **end, int zero_ok, uint32_t *v)
{
	unsigned long x;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoul(s, end, 10);
	if (errno || x > UINT32_MAX - 2 || (!zero_ok && x == 0))
		return -1;
	*v = (uint32_t) x;
	return 0;
}

static int parse_job_ref(const char *arg, struct job_ref *r)
{
	char *end;

	r->task = r->comp = NO_VAL;
	if (parse_u32(arg, &end, 0, &r->id))
		return -1;
	if (*end == '_' && !parse_u32(end + 1, &end, 1, &r->task) && !*end)
		return 0;
	if (*end == '+' && !parse_u32(end + 1, &end, 1, &r->comp) && !*end)
		return 0;
	return *end ? -1 : 0;
}

/* "52_3", "52_[4-9]" (pending tasks), "53+1" or "52". */
static const char *job_label(const slurm_job_info_t *j, char *buf, size_t len)
{
	if (j->array_task_str && *j->array_task_str)
		snprintf(buf, len, "%u_[%s]", j->array_job_id,
			 j->array_task_str);
	else if (j->array_task_id != NO_VAL && j->array_job_id)
		snprintf(buf, len, "%u_%u", j->array_job_id, j->array_task_id);
	else if (j->het_job_id && j->het_job_id != NO_VAL)
		snprintf(buf, len, "%u+%u", j->het_job_id, j->het_job_offset);
	else
		snprintf(buf, len, "%u", j->job_id);
	return buf;
}

/* Is record j the job r names (or one of its tasks or components)? */
static int job_matches(const slurm_job_info_t *j, const struct job_ref *r)
{
	if (r->task != NO_VAL)
		return j->array_job_id == r->id && j->array_task_id == r->task;
	if (r->comp != NO_VAL)
		return j->het_job_id == r->id && j->het_job_offset == r->comp;
	return j->job_id == r->id || j->array_job_id == r->id ||
	       (j->het_job_id && j->het_job_id == r->id);
}

static int show_one(const struct mesh_conf *c, const slurm_job_info_t *j)
{
	struct mesh_metrics m;
	uint32_t *idx = NULL;
	char mesh[64], label[128];
	long n, i;
	int rc = EXIT_FAILURE;

	printf("JobId=%s JobState=%s NumNodes=%u NodeList=%s\n",
	       job_label(j, label, sizeof(label)), state_name(j->job_state),
	       j->num_nodes, j->nodes ? j->nodes : "(none)");
	printf("Mesh=%s Allocator=%s\n",
	       mesh_topo_format(c->topo, mesh, sizeof(mesh)), c->allocator);
	if (!j->nodes || !*j->nodes) {
		printf("(no nodes allocated)\n");
		return EXIT_SUCCESS;
	}
	n = hosts_to_mesh(c, j->nodes, &idx);
	if (n <= 0) {
		free(idx);
		return EXIT_FAILURE;
	}
	printf("Coords=");
	for (i = 0; i < n; i++)
		print_coord(c->topo, idx[i]);
	putchar('\n');
	if (mesh_metrics_compute(c->topo, idx, (size_t) n, &m) == 0) {
		printf("BBox=%dx%dx%d SumDist=%llu AvgDist=%.2f Diameter=%d\n",
		       m.bbox[0], m.bbox[1], m.bbox[2],
		       (unsigned long long) m.sum_pairwise, m.avg_pairwise,
		       m.diameter);
		rc = EXIT_SUCCESS;
	}
	if (j->system_comment)
		printf("SystemComment=%s\n", j->system_comment);
	free(idx);
	return rc;
}

/* Every record of the job: each array task, each hetjob component. */
static int show_job(const struct mesh_conf *c, const char *arg,
		    const struct job_ref *r)
{
	job_info_msg_t *msg = NULL;
	uint32_t i, shown = 0;
	int rc = EXIT_SUCCESS;

	if (slurm_load_job(&msg, r->id, SHOW_ALL) != SLURM_SUCCESS) {
		slurm_fail(arg);
		return EXIT_FAILURE;
	}
	for (i = 0; i < msg->record_count; i++) {
		if (!job_matches(&msg->job_array[i], r))
			continue;
		if (shown++)
			putchar('\n');
		if (show_one(c, &msg->job_array[i]))
			rc = EXIT_FAILURE;
	}
	if (!shown) {
		fprintf(stderr, "smesh: %s: no such %s\n", arg,
			r->task != NO_VAL ? "array task" : "hetjob component");
		rc = EXIT_FAILURE;
	}
	slurm_free_job_info_msg(msg);
	return rc;
}

static const char job_chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWYZabcdefghijklmnopqrstuvwyz0123456789";

/* One row of meshplot's snapshot CSV (meshsim's --jobs-csv columns
 * that it reads): the job runs over [0, 1). */
static void csv_job(FILE *f, const struct mesh_conf *c, uint32_t job_id,
		    const uint32_t *idx, long n)
{
	struct mesh_metrics m;
	int co[MESH_MAX_DIMS], d;
	long x;

	if (mesh_metrics_compute(c->topo, idx, (uint32_t) n, &m))
		m.avg_pairwise = 0;
	fprintf(f, "%u,0,1,%ld,%.6f,", job_id, n, m.avg_pairwise);
	for (x = 0; x < n; x++) {
		mesh_topo_coords(c->topo, idx[x], co);
		fputs(x ? " " : "", f);
		for (d = 0; d < c->topo->ndims; d++)
			fprintf(f, d ? ":%d" : "%d", co[d]);
	}
	fputc('\n', f);
}

/* Marks job nodes in map[] and prints one legend line per job; with csv,
 * also a snapshot row per job. */
static void mark_jobs(const struct mesh_conf *c, job_info_msg_t *jobs,
		      char *map, FILE *csv)
{
	size_t k = 0, ci;
	uint32_t i, *idx;
	char label[128];
	long n, x;

	for (i = 0; i < jobs->record_count; i++) {
		slurm_job_info_t *j = &jobs->job_array[i];
		uint32_t base = j->job_state & JOB_STATE_BASE;

		if ((base != JOB_RUNNING && base != JOB_SUSPENDED &&
		     !(j->job_state & JOB_COMPLETING)) ||
		    !j->nodes || !*j->nodes)
			continue;
		n = hosts_to_mesh(c, j->nodes, &idx);
		if (n < 0)
			continue;
		ci = k++ % (sizeof(job_chars) - 1);
		for (x = 0; x < n; x++)
			map[idx[x]] = job_chars[ci];
		if (csv)
			csv_job(csv, c, j->job_id, idx, n);
		printf("  %c  job %-8s %-10s %3ld nodes  %s%s%s\n",
		       job_chars[ci], job_label(j, label, sizeof(label)),
		       state_name(j->job_state), n, j->nodes,
		       j->system_comment ? "  " : "",
		       j->system_comment ? j->system_comment : "");
		free(idx);
	}
	if (k > sizeof(job_chars) - 1)
		printf("  (more than %zu jobs: letters repeat)\n",
		       sizeof(job_chars) - 1);
}

/* Down/drained nodes and positions without a node. */
static void mark_nodes(const struct mesh_conf *c, node_info_msg_t *nodes,
		       char *map)
{
	uint32_t i, idx;

	for (idx = 0; idx < c->topo->nodes; idx++)
		map[idx] = c->node_name[idx] ? '.' : ' ';
	for (i = 0; i < nodes->record_count; i++) {
		node_info_t *ni = &nodes->node_array[i];

		if (!ni->name || mesh_conf_lookup(c, ni->name, &idx))
			continue;
		if ((ni->node_state & NODE_STATE_BASE) == NODE_STATE_DOWN)
			map[idx] = 'X';
		else if (ni->node_state & NODE_STATE_DRAIN)
			map[idx] = 'x';
	}
}

static void print_map(const struct mesh_conf *c, const char *map)
{
	const struct mesh_topo *t = c->topo;
	int co[MESH_MAX_DIMS];

	for (co[2] = 0; co[2] < t->dim[2]; co[2]++) {
		if (t->ndims == 3)
			printf("z=%d\n", co[2]);
		printf("      x:");
		for (co[0] = 0; co[0] < t->dim[0]; co[0]++)
			printf("%d", co[0] % 10);
		putchar('\n');
		for (co[1] = 0; co[1] < t->dim[1]; co[1]++) {
			printf("  y=%-4d ", co[1]);
			for (co[0] = 0; co[0] < t->dim[0]; co[0]++)
				putchar(map[mesh_topo_index(t, co)]);
			putchar('\n');
		}
	}
}

/* --svg FILE is checked before Slurm is asked anything: a name meshplot
 * can draw, and meshplot itself. */
static int check_svg(const char *svg, char *tool)
{
	size_t n = strlen(svg);

	if (n < 5 ||
	    (strcmp(svg + n - 4, ".svg") && strcmp(svg + n - 4, ".png")))
		return cli_usage_error(
		    "smesh",
		    "--svg %s: the picture's name must end in .svg or .png",
		    svg);
	if (cli_find_tool("MESHPLOT", "meshplot",
			  "../../contrib/plots/meshplot", tool)) {
		fprintf(stderr,
			"smesh: --svg: meshplot not found (next to smesh, in "
			"$MESHPLOT or on PATH)\n");
		return EXIT_FAILURE;
	}
	return 0;
}

/* "x,y[,z];..." of the I/O nodes, for meshplot. */
static void io_list(const struct mesh_topo *t, char *buf, size_t len)
{
	int co[MESH_MAX_DIMS], d;
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < t->n_io && n + 40 < len; i++) {
		mesh_topo_coords(t, t->io_nodes[i], co);
		for (d = 0; d < t->ndims; d++)
			n += (size_t) snprintf(buf + n, len - n, "%s%d",
					       d ? "," : (i ? ";" : ""), co[d]);
	}
}

/* Draw the snapshot CSV with meshplot into svg; 0 or -1. */
static int draw(const struct mesh_conf *c, char *csv, char *svg, char *tool,
		char *caption)
{
	char mesh[64], io[8192], title[PATH_MAX + 64];
	char *av[20];
	int n = 0, st;
	pid_t pid;

	mesh_topo_format(c->topo, mesh, sizeof(mesh));
	io_list(c->topo, io, sizeof(io));
	snprintf(title, sizeof(title), "Slurm jobs on %s (%s)", mesh, c->path);
	av[n++] = tool;
	av[n++] = "snapshot";
	av[n++] = csv;
	av[n++] = "--mesh";
	av[n++] = mesh;
	av[n++] = "--time";
	av[n++] = "0.5";
	av[n++] = "--io-nodes";
	av[n++] = io;
	av[n++] = "--title";
	av[n++] = title;
	av[n++] = "--caption";
	av[n++] = caption;
	av[n++] = "--out";
	av[n++] = svg;
	av[n] = NULL;
	pid = fork();
	if (!pid) {
		execvp(av[0], av);
		fprintf(stderr, "smesh: cannot run %s: %s\n", av[0],
			strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st)) {
		fprintf(stderr, "smesh: --svg: drawing %s failed\n", svg);
		return -1;
	}
	return 0;
}

/* "Slurm cluster NAME at YYYY-MM-DD HH:MM:SS" for the time the job
 * records were read. */
static void live_caption(time_t when, char *buf, size_t len)
{
	slurm_conf_t *cf = NULL;
	char at[32];
	struct tm tm;

	if (!localtime_r(&when, &tm) ||
	    !strftime(at, sizeof(at), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(at, sizeof(at), "%lld", (long long) when);
	if (slurm_load_ctl_conf((time_t) 0, &cf) == SLURM_SUCCESS &&
	    cf->cluster_name)
		snprintf(buf, len, "Slurm cluster %s at %s", cf->cluster_name,
			 at);
	else
		snprintf(buf, len, "Slurm at %s", at);
	if (cf)
		slurm_free_ctl_conf(cf);
}

static int show_mesh(const struct mesh_conf *c, char *svg, char *tool)
{
	char csv_path[] = "/tmp/smesh-snapshot.XXXXXX";
	FILE *csv = NULL;
	int fd, rc = EXIT_SUCCESS;
	job_info_msg_t *jobs = NULL;
	node_info_msg_t *nodes = NULL;
	char *map, mesh[64];
	time_t loaded;

	if (slurm_load_node((time_t) 0, &nodes, SHOW_ALL) != SLURM_SUCCESS) {
		slurm_fail("cannot load nodes");
		return EXIT_FAILURE;
	}
	if (slurm_load_jobs((time_t) 0, &jobs, SHOW_ALL) != SLURM_SUCCESS) {
		slurm_fail("cannot load jobs");
		slurm_free_node_info_msg(nodes);
		return EXIT_FAILURE;
	}
	loaded = time(NULL);
	map = calloc(c->topo->nodes, 1);
	if (!map)
		abort();
	printf("Mesh %s (%u nodes), allocator %s, %s\n",
	       mesh_topo_format(c->topo, mesh, sizeof(mesh)), c->n_named,
	       c->allocator, c->path);
	printf("Legend: '.' idle  'X' down  'x' drained  ' ' no node\n");
	if (svg && ((fd = mkstemp(csv_path)) < 0 || !(csv = fdopen(fd, "w")))) {
		fprintf(stderr,
			"smesh: --svg: cannot make a temporary file: %s\n",
			strerror(errno));
		rc = EXIT_FAILURE;
	}
	if (csv)
		fprintf(csv, "job_id,start,end,nodes,avg_pairwise,coords\n");
	mark_nodes(c, nodes, map);
	mark_jobs(c, jobs, map, csv);
	print_map(c, map);
	if (csv) {
		char caption[256];

		live_caption(loaded, caption, sizeof(caption));
		rc = fclose(csv) || draw(c, csv_path, svg, tool, caption)
			 ? EXIT_FAILURE
			 : rc;
		unlink(csv_path);
	}
	free(map);
	slurm_free_job_info_msg(jobs);
	slurm_free_node_info_msg(nodes);
	return rc;
}

/* "show job JOBID" or "show mesh"; 0 or the usage error's status. */
static int check_command(int argc, char **argv, struct job_ref *job)
{
	if (argc < 2 || strcmp(argv[0], "show"))
		return cli_usage_error(
		    "smesh", "%s",
		    argc ? "expected 'show job JOBID' or 'show mesh'"
			 : "missing command ('show job JOBID' or 'show mesh')");
	if (!strcmp(argv[1], "job") && argc == 3)
		return parse_job_ref(argv[2], job)
			   ? cli_usage_error("smesh", "invalid job id \"%s\"",
					     argv[2])
			   : 0;
	if (!strcmp(argv[1], "mesh") && argc == 2)
		return 0;
	return cli_usage_error("smesh",
			       "expected 'show job JOBID' or 'show mesh', got "
			       "'show %s%s'",
			       argv[1], argc > 2 ? " ..." : "");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mesh-conf", required_argument, NULL, 'c' },
		{ "svg", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct mesh_conf *c = NULL;
	const char *conf_path = NULL;
	char *svg = NULL, tool[PATH_MAX];
	struct job_ref job = { 0, NO_VAL, NO_VAL };
	int o, rc;

	opterr = 0;
	while ((o = getopt_long(argc, argv, ":hV", opts, NULL)) != -1) {
		switch (o) {
		case 'c':
			conf_path = optarg;
			break;
		case 's':
			svg = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_SUCCESS;
		case 'V':
			cli_print_version("smesh");
			return EXIT_SUCCESS;
		default:
			return cli_bad_option("smesh", argv, o);
		}
	}
	rc = check_command(argc - optind, argv + optind, &job);
	if (rc)
		return rc;
	argc -= optind;
	argv += optind;
	if (svg && strcmp(argv[1], "mesh"))
		return cli_usage_error("smesh", "--svg is for 'show mesh'");
	if (svg && (rc = check_svg(svg, tool)))
		return rc;
	/* An explicit mesh.conf is checked before Slurm is contacted, so
	 * its errors are reported as such; the default one is found from
	 * Slurm's configuration. */
	if (conf_path && load_conf(conf_path, &c))
		return EXIT_FAILURE;
	slurm_init(NULL);
	if (!c && load_conf(NULL, &c)) {
		slurm_fini();
		return EXIT_FAILURE;
	}
	rc = job.id ? show_job(c, argv[2], &job) : show_mesh(c, svg, tool);
	mesh_conf_destroy(c);
	slurm_fini();
	return rc;
}
