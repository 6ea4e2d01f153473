/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `gpuenv exporter` (docs/exporter.md): the collection (exporter-collect.c: a GPU sample
 * every --interval, a full diagnosis every --diagnose-every and on SIGHUP, the exposition
 * they make) and the HTTP server (exporter-http.c, libmicrohttpd), which only ever serves
 * the last published exposition and never waits on a collection.
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <microhttpd.h>

#include "core/child.h"
#include "formats/web-config.h"
#include "gpuenv.h"

struct exporter_stats {
	uint64_t samples, diagnoses;
	/* collection errors by kind (gpuenv_collection_errors_total{kind}) */
	uint64_t err_sample, err_nvml_session, err_gpu_lost, err_diagnosis;
	double sample_seconds, diagnosis_seconds; /* duration of the last of each */
	double sample_time, diagnosis_time;	  /* Unix time of the last good one; 0: none */
	bool stale;				  /* the last sample attempt failed */
	uint64_t nvml_restarts; /* of the long-lived NVML child (driver.nvml.session_restarts) */
	bool nvml_long_lived;	/* the samples run it (--nvml-child long-lived) */
	/* A task of it stuck in uninterruptible sleep (driver.nvml.session_stuck): the kernel
	 * function, "unknown" when hidden; "" while none. */
	char nvml_stuck[64];
};

struct exporter {
	struct common_opts sample_opts, diag_opts;
	/* The samples' context, kept between samples: with GPUENV_CTX_VENDOR_KEEP it holds the
	 * long-lived NVML child. */
	struct gpuenv_ctx *sample_ctx;
	char *gpu_text[2];  /* last good sample: [0] Prometheus text, [1] OpenMetrics */
	char *diag_text[2]; /* last diagnosis */
	/* The NVML sweep the next diagnosis judges (gpuenv_ctx_nvml_sweep() of the sample
	 * taken just before it, in a memfd), instead of an NVML session of its own; -1: none. In
	 * the diagnosis' keeper exec'd with --diagnosis-child=…:sweep, descriptor 3. */
	int sweep_fd;
	struct exporter_stats st;
};

/* One GPU sample into ex (keeps the previous one, flagged stale, when it fails). With
 * for_diagnosis, its NVML sweep is also kept in ex->sweep_fd for the diagnosis that follows. */
void exporter_sample(struct exporter *ex, bool for_diagnosis);
/* One full collection and diagnosis into ex. */
void exporter_diagnose(struct exporter *ex);
/* The whole exposition as it stands; openmetrics ends it with "# EOF". NULL on OOM. */
char *exporter_exposition(const struct exporter *ex, bool openmetrics);
void exporter_done(struct exporter *ex);

/* Basic authentication (exporter-auth.c): bcrypt hashes of the web configuration. */
struct exporter_user {
	const char *name, *hash;
};
struct exporter_auth;
/* 0; -ELIBACC: libcrypt cannot be loaded; -ENOMEM. */
int exporter_auth_new(const struct exporter_user *users, size_t n, struct exporter_auth **ret);
bool exporter_auth_check(struct exporter_auth *a, const char *user, const char *password);
void exporter_auth_free(struct exporter_auth *a);

/* What --web-config asks of the server (exporter-toolkit's format, read by cmd-exporter.c). */
struct exporter_security {
	char *cert_pem, *key_pem;   /* TLS when both are set */
	const char *tls_priorities; /* GnuTLS priority string for the versions allowed */
	const struct exporter_user *users;
	size_t n_users;		    /* basic authentication when > 0 */
	const char *const *headers; /* name, value, name, value, …, NULL */
	/* Client certificates (mutual TLS; exporter-tls.c): the policy, the CAs they are checked
	 * against (PEM; NULL without), the SANs one of which they must carry (NULL: any). */
	enum web_client_auth client_auth;
	char *client_ca_pem;
	const char *const *client_allowed_sans;
};

/* Mutual TLS (exporter-tls.c), for exporter-http.c: the policy of the server (set once,
 * before it starts) and libmicrohttpd's connection notification, which puts it on each TLS
 * session before its handshake: GnuTLS asks for (or requires) the client's certificate, and
 * checks it during the handshake against the trust list (MHD_OPTION_HTTPS_MEM_TRUST), failing
 * the handshake as Go's crypto/tls does. exporter_tls_applied(): whether a connection got the
 * policy (a request on one that did not is refused). */
int exporter_tls_policy(const struct exporter_security *sec); /* -ELIBACC: GnuTLS not loaded */
void exporter_tls_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
			 enum MHD_ConnectionNotificationCode toe);
bool exporter_tls_applied(struct MHD_Connection *connection);

/* The HTTP side. */
struct exporter_http;
/* sec may be NULL (plain HTTP, no authentication). -EINVAL: listen is not an address;
 * -ENOTSUP: TLS asked of a libmicrohttpd built without it; -EADDRINUSE: it would not start;
 * -ELIBACC: libmicrohttpd, or libcrypt for authentication, cannot be loaded (exporter-libs.h). */
int exporter_http_start(const char *listen, const struct exporter_security *sec,
			struct exporter_http **ret);
/* Replaces what /metrics serves (takes both strings) and the readiness. The first
 * stable_len[i] bytes of each form change only when stable_gen does: their gzip member is
 * kept and only the rest compressed, a second member (RFC 1952 2.2: a gzip file is a
 * series of members; Go's gzip reader, Prometheus', reads them all). */
void exporter_http_publish(struct exporter_http *h, char *text, char *openmetrics,
			   const size_t stable_len[2], uint64_t stable_gen, bool ready);
void exporter_http_stop(struct exporter_http *h);

/* The serving process (exporter-server.c): the HTTP side above in a program of its own,
 * gpuenv-http (exporter-http-main.c), forked and exec'd before any thread starts, fed each
 * publication through a pipe, so that the collecting process, which forks the NVML and
 * diagnosis children, never has a thread of its own. */
struct exporter_server {
	pid_t pid;
	int fd; /* the publications' pipe */
};
/* The serving process loads the server's libraries first (the collecting process never maps
 * libmicrohttpd and its GnuTLS chain); its answer goes to *ret_load (-ELIBACC, after its
 * message), and when it fails nothing is started. The result: that error, or
 * exporter_http_start()'s, or -ENOEXEC when gpuenv-http is not found or does not run,
 * -ECHILD when it died first. */
int exporter_server_start(const char *listen, const struct exporter_security *sec, int *ret_load,
			  struct exporter_server *ret);
/* exporter_http_publish() in the serving process (takes both strings, NULL: keep the last);
 * -EPIPE when the serving process is gone. */
int exporter_server_publish(struct exporter_server *s, char *text, char *openmetrics,
			    const size_t stable_len[2], uint64_t stable_gen, bool ready);
/* Ends it (EOF, then SIGKILL after 5 s) and reaps it. */
void exporter_server_stop(struct exporter_server *s);
/* Finds gpuenv-nvml (found as gpuenv-http is) and has the long-lived NVML child's tree
 * started from it rather than forked (vendor.h vendor_nvml_keep_exec()): -ENOEXEC when it is
 * not installed. */
int exporter_nvml_program(void);
/* Finds gpuenv-cuda (found as gpuenv-http is) and has the diagnosis' libcuda session's tree
 * started from it rather than forked (vendor.h vendor_cuda_exec()): -ENOEXEC when it is not
 * installed. */
int exporter_cuda_program(void);
/*
 * The diagnosis child started from gpuenv's own executable (/proc/self/exe's path) with the
 * exporter's own command line (argv from "exporter" on) and --diagnosis-child=PID:DEADLINE
 * first, rather than forked from the collecting process, whose heap and code pages a fork
 * keeps resident in the diagnosis' keeper and child and in every vendor session forked from
 * them (docs/exporter.md). -ENOEXEC when that path cannot be run, -ENOMEM.
 * exporter_diagnosis_launcher() is then its launcher (core/child.h child_start_exec(), its
 * data a struct exporter_diagnosis_exec), else NULL: forked.
 */
int exporter_diagnosis_program(int argc, char *const argv[]);
child_exec_fn exporter_diagnosis_launcher(void);
/* The launcher's data: the deadline, and the sweep's descriptor (ex->sweep_fd, -1: none),
 * which the program gets on descriptor 3. */
struct exporter_diagnosis_exec {
	uint64_t deadline_ms;
	int sweep_fd;
};
/* In the process so started: the diagnosis' keeper (core/child.h child_job_keeper_main()),
 * its descriptors on 4..6 (and ex->sweep_fd on 3), the diagnosis run in the child under it. */
_Noreturn void exporter_diagnosis_keeper(struct exporter *ex, pid_t parent, uint64_t deadline_ms);

double exporter_now(void); /* Unix time, seconds */

/* Unmaps the clean pages of the program's and libraries' read-only mappings, once start-up is
 * over (exporter-pages.c): what is used again faults back in. 0, or -1 without smaps. */
int exporter_drop_startup_pages(void);
/* The same for the program's own file only (/proc/self/exe), not its libraries': between
 * two steps of a process that goes on running, whose libc (malloc, the string functions) the
 * next step runs too. */
int exporter_drop_program_pages(void);
