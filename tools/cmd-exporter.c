// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv exporter`: serves the GPU metrics (dcgm-exporter's names) and the diagnosis to
 * Prometheus (docs/exporter.md). The collecting process (one thread) takes a GPU sample every
 * --interval and a full diagnosis every --diagnose-every and on SIGHUP, and publishes the
 * exposition to the serving process (exporter-server.c: the HTTP server, exporter-http.c, in
 * gpuenv-http, forked and exec'd before any thread starts, so that this process, which forks
 * the NVML children, has none). The samples run NVML in one sandboxed child kept alive between them
 * (src/vendor/session-keep.c; --nvml-child per-sample: a fresh one each time), each sample
 * under the --vendor-timeout deadline, so a hung GPU costs a killed child, a restart and a
 * stale flag, never the endpoint. `--once` prints one exposition (with --output FILE written
 * atomically, for node_exporter's textfile collector: a temporary file in the same directory,
 * fsync, rename).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/child.h"
#include "exporter.h"
#include "formats/web-config.h"
#include "shared/macro.h"
#include "shared/parse.h"

enum {
	OPT_LISTEN = 0x200,
	OPT_INTERVAL,
	OPT_DIAGNOSE_EVERY,
	OPT_ONCE,
	OPT_OUTPUT,
	OPT_OPENMETRICS,
	OPT_WEB_CONFIG,
	OPT_NVML_CHILD,
	OPT_DIAGNOSIS_CHILD,
};

#define EXIT_UNAVAILABLE 69 /* libmicrohttpd or libcrypt cannot be loaded (EX_UNAVAILABLE) */

static void exporter_help(void)
{
	printf("Usage: gpuenv exporter [OPTIONS]\n\n"
	       "Serves GPU metrics under dcgm-exporter's names, types and labels (the\n"
	       "DCGM_FI_* default counter set) and gpuenv's diagnosis (gpuenv_finding,\n"
	       "gpuenv_root_cause, gpuenv_layer_status, driver/toolkit/framework info,\n"
	       "framework coverage per GPU) to Prometheus: /metrics (text format 0.0.4,\n"
	       "OpenMetrics 1.0 when asked), /healthz, /readyz. AMD and Intel GPUs get\n"
	       "gpuenv_amd_* and gpuenv_intel_* series from AMD SMI and Level Zero\n"
	       "(--amdsmi-lib, --ze-lib). Scrapes never wait on NVML:\n"
	       "they get the last sample.\n\n"
	       "Options:\n"
	       "      --listen ADDR:PORT  where to listen (default 127.0.0.1:9400; :9400 = all)\n"
	       "      --interval DUR      GPU sample period (default 10s; 500ms, 10s, 5m, 1h)\n"
	       "      --diagnose-every DUR  full diagnosis period (default 5m; also on SIGHUP)\n"
	       "      --once              print one exposition and exit\n"
	       "      --output FILE       with --once: write FILE atomically (node_exporter's\n"
	       "                          textfile collector) instead of standard output\n"
	       "      --openmetrics       with --once: OpenMetrics 1.0 instead of the text format\n"
	       "      --web-config FILE   TLS, client certificates and basic authentication, in the\n"
	       "                          web configuration format of Prometheus exporters\n"
	       "                          (exporter-toolkit)\n"
	       "      --nvml-child MODE   long-lived (default: one sandboxed NVML child kept\n"
	       "                          between samples, restarted when it fails) or\n"
	       "                          per-sample (a fresh child for each sample)\n" COMMON_OPTIONS_HELP
	       "  -h, --help            this help\n");
}

/* "500ms", "10s", "5m", "1h" or a bare number of seconds, into milliseconds (> 0). */
static int parse_duration(const char *s, unsigned *ret_ms)
{
	char *end;
	unsigned long long v, mul;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -EINVAL;
	if (!strcmp(end, "ms"))
		mul = 1;
	else if (!*end || !strcmp(end, "s"))
		mul = 1000;
	else if (!strcmp(end, "m"))
		mul = 60000;
	else if (!strcmp(end, "h"))
		mul = 3600000;
	else
		return -EINVAL;
	if (v == 0 || v > UINT_MAX / mul)
		return -EINVAL;
	*ret_ms = (unsigned)(v * mul);
	return 0;
}

/* Writes text to path through a temporary file in its directory and rename(2): a reader
 * (node_exporter) sees the old file or the new one, never half of one. */
static int write_atomic(const char *path, const char *text)
{
	size_t len = strlen(path), off = 0, n = strlen(text);
	char *tmp = malloc(len + 16);
	int fd, err = 0;

	if (!tmp)
		return -ENOMEM;
	snprintf(tmp, len + 16, "%s.tmp.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		free(tmp);
		return err;
	}
	while (off < n && !err) {
		ssize_t k = write(fd, text + off, n - off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			err = k < 0 ? -errno : -EIO;
		else
			off += (size_t)k;
	}
	/* textfile collectors read the file as the exporter's user left it: 0644 */
	if (!err && (fchmod(fd, 0644) < 0 || fsync(fd) < 0))
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}

static int run_once(struct exporter *ex, const char *output, bool om)
{
	char *text;
	int err;

	exporter_sample(ex, true);
	exporter_diagnose(ex);
	text = exporter_exposition(ex, om);
	if (!text) {
		print_error("rendering", -ENOMEM);
		return EXIT_SOFTWARE;
	}
	if (!output) {
		fputs(text, stdout);
		free(text);
		return EXIT_HEALTHY;
	}
	err = write_atomic(output, text);
	free(text);
	if (err < 0) {
		fprintf(stderr, "gpuenv exporter: --output %s: %s\n", output, strerror(-err));
		return EXIT_IOERR;
	}
	return EXIT_HEALTHY;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Connections are descriptors: the soft limit (1024 under systemd and most shells) would
 * stop accepting long before the server's own connection limit. Up to the hard limit, as
 * Go's runtime does for every program. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 8192 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > 8192 ? 8192 : rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Each second (the ages change) and after each collection. The GPU and diagnosis parts
 * change only with a collection: their gzip member is made once per collection, and each
 * second only the exporter's own series are compressed. */
static int publish(struct exporter_server *srv, const struct exporter *ex)
{
	size_t stable[2];

	for (int om = 0; om < 2; om++)
		stable[om] = (ex->gpu_text[om] ? strlen(ex->gpu_text[om]) : 0) +
			     (ex->diag_text[om] ? strlen(ex->diag_text[om]) : 0);
	return exporter_server_publish(srv, exporter_exposition(ex, false),
				       exporter_exposition(ex, true), stable,
				       ex->st.samples + ex->st.diagnoses,
				       ex->st.sample_time > 0 && ex->st.diagnosis_time > 0);
}

/* The web configuration and the files it names, kept for the server's lifetime. */
struct web_security {
	struct web_config *cfg;
	struct exporter_security sec;
	struct exporter_user *users;
	const char **headers;
	char priorities[128];
};

static void web_security_done(struct web_security *w)
{
	web_config_free(w->cfg);
	free(w->sec.cert_pem);
	free(w->sec.key_pem);
	free(w->sec.client_ca_pem);
	free(w->users);
	free(w->headers);
}

/* A file the configuration names, relative to the configuration's directory (as
 * exporter-toolkit resolves them), read whole: a PEM file is a few kilobytes. */
static int read_named(const char *config, const char *name, const char *what, char **ret)
{
	_cleanup_free_ char *path = NULL;
	const char *slash = strrchr(config, '/');
	size_t len;
	int r;

	if (name[0] == '/' || !slash)
		path = strdup(name);
	else if (asprintf(&path, "%.*s/%s", (int)(slash - config), config, name) < 0)
		path = NULL;
	if (!path)
		return EXIT_SOFTWARE;
	r = common_read_file("exporter", what, path, WEB_CONFIG_MAX_INPUT, ret, &len);
	if (r == 0 && len > WEB_CONFIG_MAX_INPUT) {
		fprintf(stderr, "gpuenv exporter: the %s %s is larger than %zu bytes\n", what, path,
			WEB_CONFIG_MAX_INPUT);
		free(*ret);
		*ret = NULL;
		r = EXIT_DATAERR;
	}
	return r;
}

/* GnuTLS's priority string for min_version..max_version (default TLS 1.2 up to 1.3, as
 * exporter-toolkit; https://gnutls.org/manual/html_node/Priority-Strings.html). */
static void tls_priorities(const struct web_config *c, char *buf, size_t len)
{
	static const char *const vers[] = { NULL, "TLS1.0", "TLS1.1", "TLS1.2", "TLS1.3" };
	enum web_tls_version lo = c->min_version ? c->min_version : WEB_TLS12;
	enum web_tls_version hi = c->max_version ? c->max_version : WEB_TLS13;
	size_t n = (size_t)snprintf(buf, len, "NORMAL:-VERS-ALL");

	for (unsigned v = lo; v <= hi && n < len; v++)
		n += (size_t)snprintf(buf + n, len - n, ":+VERS-%s", vers[v]);
}

static int load_web_config(const char *path, struct web_security *w)
{
	_cleanup_free_ char *data = NULL;
	struct yaml_error err = { 0 };
	size_t len = 0;
	int r = common_read_file("exporter", "web configuration", path, WEB_CONFIG_MAX_INPUT, &data,
				 &len);

	if (r)
		return r;
	r = web_config_parse(data, len, &w->cfg, &err);
	if (r == -ENOMEM)
		return EXIT_SOFTWARE;
	if (r < 0) {
		fprintf(stderr, "gpuenv exporter: %s: %s\n", path, err.why);
		return EXIT_DATAERR;
	}
	if (w->cfg->cert_file) {
		r = read_named(path, w->cfg->cert_file, "certificate", &w->sec.cert_pem);
		if (!r)
			r = read_named(path, w->cfg->key_file, "key", &w->sec.key_pem);
		if (r)
			return r;
		tls_priorities(w->cfg, w->priorities, sizeof(w->priorities));
		w->sec.tls_priorities = w->priorities;
	}
	if (w->cfg->client_ca_file) {
		r = read_named(path, w->cfg->client_ca_file, "client CA file",
			       &w->sec.client_ca_pem);
		if (r)
			return r;
	}
	w->sec.client_auth = w->cfg->client_auth;
	w->sec.client_allowed_sans = (const char *const *)w->cfg->client_allowed_sans;
	w->users = calloc(w->cfg->n_users + 1, sizeof(*w->users));
	w->headers = calloc(2 * w->cfg->n_headers + 1, sizeof(*w->headers));
	if (!w->users || !w->headers)
		return EXIT_SOFTWARE;
	for (size_t i = 0; i < w->cfg->n_users; i++)
		w->users[i] =
			(struct exporter_user){ w->cfg->users[i].name, w->cfg->users[i].hash };
	for (size_t i = 0; i < w->cfg->n_headers; i++) {
		w->headers[2 * i] = w->cfg->headers[i].name;
		w->headers[2 * i + 1] = w->cfg->headers[i].value;
	}
	w->sec.users = w->users;
	w->sec.n_users = w->cfg->n_users;
	w->sec.headers = w->headers;
	if (w->cfg->http2)
		fprintf(stderr,
			"gpuenv exporter: %s: http2 asked for; this server speaks "
			"HTTP/1.1 only\n",
			path);
	return 0;
}

static void drop_pages_when_settled(void)
{
	(void)exporter_drop_startup_pages();
}

/* How the diagnosis runs its sessions, in the collecting process and in the diagnosis
 * child exec'd with --diagnosis-child alike. */
static void diagnosis_setup(struct exporter *ex)
{
	/* The diagnosis' NVML session runs gpuenv-nvml too (one sweep, then the diagnosis' context
	 * ends it), in the same sandbox, rather than three forks of the diagnosis child, each of
	 * which kept 1.7-3.8 MiB resident (docs/exporter.md, Load). The same program runs it
	 * whichever --nvml-child the samples use: a diagnosis' session is a fresh one each time. */
	if (!ex->diag_opts.from && !ex->diag_opts.no_vendor && exporter_nvml_program() == 0)
		ex->diag_opts.ctx_flags |= GPUENV_CTX_VENDOR_KEEP;
	/* Its libcuda session likewise runs gpuenv-cuda (its keeper and the sandboxed child,
	 * the same limits, seccomp filter, deadline and protocol), rather than two forks of the
	 * diagnosis child that kept 1.0-1.6 and 3.1-4.2 MiB resident (docs/exporter.md). Where
	 * the program is missing, the session is forked as before. */
	if (!ex->diag_opts.from && !ex->diag_opts.no_vendor)
		(void)exporter_cuda_program();
	/* The processes forked from here that only wait once they forked (the diagnosis' keeper,
	 * its vendor sessions' keepers and PID-namespace inits) give back the code pages they
	 * inherited or faulted in, as gpuenv-nvml's do (exporter-pages.c). */
	child_set_settled_hook(drop_pages_when_settled);
}

/* --diagnosis-child=PARENT:DEADLINE[:sweep] (exporter-server.c diagnosis_exec(), never by
 * hand): this process is the diagnosis' keeper, exec'd by the collecting process with its own
 * command line, so that the diagnosis runs with the options it runs with; ":sweep": the
 * samples' NVML sweep is on descriptor 3. */
static int diagnosis_child(struct exporter *ex, const char *arg)
{
	const char *colon = strchr(arg, ':');
	char parent_s[24], deadline_s[24];
	const char *end;
	unsigned parent;
	uint64_t deadline;
	bool sweep = false;

	if (!colon || (size_t)(colon - arg) >= sizeof(parent_s)) {
		fprintf(stderr, "gpuenv exporter: --diagnosis-child is gpuenv exporter's own\n");
		return EXIT_USAGE;
	}
	memcpy(parent_s, arg, (size_t)(colon - arg));
	parent_s[colon - arg] = '\0';
	end = strchr(colon + 1, ':');
	if (end) {
		sweep = !strcmp(end, ":sweep");
	} else {
		end = colon + 1 + strlen(colon + 1);
	}
	if ((size_t)(end - colon - 1) < sizeof(deadline_s)) {
		memcpy(deadline_s, colon + 1, (size_t)(end - colon - 1));
		deadline_s[end - colon - 1] = '\0';
	} else {
		deadline_s[0] = '\0';
	}
	if (parse_uint(parent_s, 10, &parent) < 0 || parent == 0 ||
	    parse_u64(deadline_s, 10, &deadline) < 0 || (*end && !sweep) ||
	    (sweep && fcntl(3, F_SETFD, FD_CLOEXEC) < 0) || fcntl(4, F_GETFD) < 0 ||
	    fcntl(5, F_GETFD) < 0 || fcntl(6, F_GETFD) < 0) {
		fprintf(stderr, "gpuenv exporter: --diagnosis-child is gpuenv exporter's own\n");
		return EXIT_USAGE;
	}
	ex->sweep_fd = sweep ? 3 : -1;
	mallopt(M_ARENA_MAX, 1);
	diagnosis_setup(ex);
	exporter_diagnosis_keeper(ex, (pid_t)parent, deadline);
}

/* The collection loop: wakes for the next sample, the next diagnosis, a signal, or once a
 * second to refresh the ages the exposition shows. */
static int serve(struct exporter *ex, const char *listen, const struct exporter_security *sec,
		 unsigned interval_ms, unsigned diagnose_ms, int argc, char *const argv[])
{
	struct exporter_server srv = { .fd = -1 };
	sigset_t set;
	uint64_t next_sample = 0, next_diag = 0;
	bool diagnose_now = true;
	int r, loaded = 0;

	/* Blocked here and in the serving process (whose threads inherit the mask): taken here
	 * with sigtimedwait, and SIGCHLD left to the vendor sessions' own waits (core/child.c).
	 * The serving process ends when this one closes its pipe. */
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigdelset(&set, SIGCHLD);
	raise_fd_limit();
	/* One malloc arena here and in the children forked from here, as in the serving
	 * process (exporter-http-main.c says why). */
	mallopt(M_ARENA_MAX, 1);
	/* The long-lived NVML child's tree runs gpuenv-nvml, not a fork of this process, whose
	 * heap and code a fork would keep resident in each of its three processes. */
	if (ex->st.nvml_long_lived && !ex->sample_opts.from && !ex->sample_opts.no_vendor &&
	    exporter_nvml_program() < 0) {
		fprintf(stderr, "gpuenv exporter: the NVML child's program, gpuenv-nvml, is not "
				"installed in gpuenv's libexec directory\n");
		return EXIT_UNAVAILABLE;
	}
	diagnosis_setup(ex);
	/* The diagnosis child is gpuenv itself, exec'd with this command line, rather than a
	 * fork of this process, whose heap and code its keeper and child kept resident (1.0-1.2
	 * and 3.5-4.6 MiB; docs/exporter.md). Where it cannot be, it is forked as before. */
	if (exporter_diagnosis_program(argc, argv) == -ENOMEM)
		return EXIT_SOFTWARE;
	/* Before any thread: this process forks every child of the collection, the serving
	 * process none (exporter-server.c: gpuenv-http, exec'd). The libraries load there. */
	r = exporter_server_start(listen, sec, &loaded, &srv);
	if (loaded < 0)
		return EXIT_UNAVAILABLE; /* the serving process said why */
	if (r < 0) {
		fprintf(stderr, "gpuenv exporter: --listen %s: %s\n", listen,
			r == -EINVAL	? "not ADDRESS:PORT with a numeric address"
			: r == -ENOMEM	? "out of memory"
			: r == -ENOTSUP ? "TLS asked for, but libmicrohttpd was built without it"
			: r == -ECHILD	? "the serving process ended before it listened"
			: r == -ENOEXEC ? "its serving program, gpuenv-http, is not installed in "
					  "gpuenv's libexec directory, or does not run"
			: sec && sec->cert_pem
				? "cannot listen there (in use, not an address of this host), or "
				  "the certificate and key (or the client CA file) do not load or "
				  "match"
				: "cannot listen there (in use, or not an address of this host)");
		return r == -EINVAL ? EXIT_USAGE : r == -ENOEXEC ? EXIT_UNAVAILABLE : EXIT_INPUT;
	}
	{
		char certs[96] = "";

		if (sec && sec->cert_pem && sec->client_auth)
			snprintf(certs, sizeof(certs), " (client certificates: %s)",
				 web_client_auth_name(sec->client_auth));
		fprintf(stderr, "gpuenv exporter: listening on %s%s%s%s\n", listen,
			sec && sec->cert_pem ? " (TLS)" : "", certs,
			sec && sec->n_users ? " (basic authentication)" : "");
	}
	for (;;) {
		uint64_t now = mono_ms(), wake;
		struct timespec ts;
		int sig;
		bool collected = false;

		bool diagnose = diagnose_now || now >= next_diag;

		/* A diagnosis comes right after a sample and judges its NVML sweep (the samples'
		 * long-lived child answers it) instead of opening NVML again: the NVML tree's
		 * start-up no longer runs beside the diagnosis (docs/exporter.md, Load). */
		if (diagnose || now >= next_sample) {
			collected = true;
			exporter_sample(ex, diagnose);
			/* the next period from now: a slow sample delays, never bunches, the rest */
			next_sample = mono_ms() + interval_ms;
		}
		if (diagnose) {
			exporter_diagnose(ex);
			next_diag = mono_ms() + diagnose_ms;
			diagnose_now = false;
		}
		/* After each collection, the code pages it ran leave the resident set until the
		 * next one faults them back in from the page cache (exporter-pages.c): between
		 * samples this process keeps its data, not the sampling's code (1.5 MiB of gpuenv
		 * and libc live, docs/exporter.md, Load). The first pass drops what only start-up
		 * ran. Before the publication, not after: the serving process takes the new
		 * exposition in (and compresses it) while this one has already given its pages
		 * back, so the two processes' peaks do not add up. */
		if (collected) {
			malloc_trim(0); /* the sample's heap, too (below) */
			(void)exporter_drop_startup_pages();
		}
		if (publish(&srv, ex) < 0) {
			fprintf(stderr,
				"gpuenv exporter: the serving process (%s) ended: stopping\n",
				listen);
			exporter_server_stop(&srv);
			return EXIT_SOFTWARE;
		}
		/* What the collections and the publication freed goes back to the system (glibc
		 * returns the free pages of every arena, not only each heap's top), so the
		 * resident size follows what is in use, not the peak of a sample. */
		malloc_trim(0);
		/* and what the publication faulted back in goes again */
		if (collected)
			(void)exporter_drop_startup_pages();
		now = mono_ms();
		wake = next_sample < next_diag ? next_sample : next_diag;
		wake = wake > now + 1000 ? now + 1000 : wake;
		ts.tv_sec = (time_t)((wake > now ? wake - now : 0) / 1000u);
		ts.tv_nsec = (long)((wake > now ? wake - now : 0) % 1000u) * 1000000L;
		sig = sigtimedwait(&set, NULL, &ts);
		if (sig == SIGHUP)
			diagnose_now = true;
		else if (sig == SIGINT || sig == SIGTERM)
			break;
	}
	exporter_server_stop(&srv);
	return EXIT_HEALTHY;
}

int cmd_exporter(int argc, char *argv[])
{
	/* on the stack, not static: a static table of pointers is relocated, a page written, at
	 * every start of any command (docs/HACKING.md, src/facts/) */
	const struct option longopts[] = {
		COMMON_LONGOPTS,
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "diagnose-every", required_argument, NULL, OPT_DIAGNOSE_EVERY },
		{ "once", no_argument, NULL, OPT_ONCE },
		{ "output", required_argument, NULL, OPT_OUTPUT },
		{ "openmetrics", no_argument, NULL, OPT_OPENMETRICS },
		{ "web-config", required_argument, NULL, OPT_WEB_CONFIG },
		{ "nvml-child", required_argument, NULL, OPT_NVML_CHILD },
		/* internal: the diagnosis child's start (exporter-server.c), not in --help */
		{ "diagnosis-child", required_argument, NULL, OPT_DIAGNOSIS_CHILD },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct common_opts o = { .color = -1 };
	struct exporter ex = { .sweep_fd = -1 };
	const char *listen = "127.0.0.1:9400", *output = NULL, *web_config = NULL,
		   *diag_child = NULL;
	/* the command line as given, for the diagnosis child (getopt_long reorders argv) */
	_cleanup_free_ char **args = calloc((size_t)argc + 1, sizeof(*args));
	struct web_security web = { 0 };
	unsigned interval_ms = 10000, diagnose_ms = 300000;
	bool once = false, om = false, long_lived = true;
	int c, r;

	if (!args)
		return EXIT_SOFTWARE;
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	while ((c = getopt_long(argc, argv, COMMON_OPTSTRING "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			exporter_help();
			return EXIT_HEALTHY;
		case OPT_LISTEN:
			listen = optarg;
			continue;
		case OPT_INTERVAL:
		case OPT_DIAGNOSE_EVERY:
			if (parse_duration(optarg,
					   c == OPT_INTERVAL ? &interval_ms : &diagnose_ms) < 0) {
				fprintf(stderr,
					"gpuenv exporter: --%s %s: not a duration (500ms, 10s, "
					"5m, 1h)\n",
					c == OPT_INTERVAL ? "interval" : "diagnose-every", optarg);
				return EXIT_USAGE;
			}
			continue;
		case OPT_ONCE:
			once = true;
			continue;
		case OPT_OUTPUT:
			output = optarg;
			continue;
		case OPT_OPENMETRICS:
			om = true;
			continue;
		case OPT_WEB_CONFIG:
			web_config = optarg;
			continue;
		case OPT_NVML_CHILD:
			if (strcmp(optarg, "long-lived") && strcmp(optarg, "per-sample")) {
				fprintf(stderr,
					"gpuenv exporter: --nvml-child %s: long-lived or "
					"per-sample\n",
					optarg);
				return EXIT_USAGE;
			}
			long_lived = !strcmp(optarg, "long-lived");
			continue;
		case OPT_DIAGNOSIS_CHILD:
			diag_child = optarg;
			continue;
		}
		r = common_opts_handle(&o, c, optarg);
		if (r < 0)
			return -r;
		if (r == 0)
			return EXIT_USAGE;
	}
	if (!common_no_operands("exporter", argc, argv))
		return EXIT_USAGE;
	if ((output || om) && !once) {
		fprintf(stderr, "gpuenv exporter: --output and --openmetrics go with --once\n");
		return EXIT_USAGE;
	}
	if (web_config && once) {
		fprintf(stderr, "gpuenv exporter: --web-config configures the server; --once "
				"serves nothing\n");
		return EXIT_USAGE;
	}
	if (web_config && !diag_child) {
		r = load_web_config(web_config, &web);
		if (r) {
			web_security_done(&web);
			return r;
		}
	}
	/* A sample's NVML deadline fits in its period unless the user chose one. */
	if (!o.vendor_timeout_ms)
		o.vendor_timeout_ms = interval_ms < 6250 ? interval_ms * 4 / 5 : 5000;
	/* dcgm-exporter's Hostname label is $NODE_NAME where set (its DaemonSet sets it from
	 * spec.nodeName), else the host name (internal/pkg/hostname/hostname.go). */
	o.hostname = getenv("NODE_NAME");
	ex.diag_opts = o;
	/* The diagnosis' vendor sessions one after the other: their process trees never coexist
	 * (a diagnosis every few minutes may take a second longer; docs/exporter.md, Load). */
	ex.diag_opts.ctx_flags |= GPUENV_CTX_VENDOR_SERIAL;
	ex.sample_opts = o;
	ex.sample_opts.ctx_flags |= GPUENV_CTX_GPU_SAMPLE;
	/* --once samples once: nothing to keep. */
	ex.st.nvml_long_lived = long_lived && !once;
	if (ex.st.nvml_long_lived)
		ex.sample_opts.ctx_flags |= GPUENV_CTX_VENDOR_KEEP;
	ex.sample_opts.trace_paths = NULL;
	if (diag_child)
		return diagnosis_child(&ex, diag_child);
	r = once ? run_once(&ex, output, om)
		 : serve(&ex, listen, web_config ? &web.sec : NULL, interval_ms, diagnose_ms, argc,
			 args);
	exporter_done(&ex);
	web_security_done(&web);
	return r;
}
