// SPDX-License-Identifier: LGPL-2.1-or-later
/* The fakes' scenario reader and call injection (see fake-scenario.h). Test code. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "fake-scenario.h"
#include "shared/strv.h"

struct kv {
	char *section, *key, *value;
};

static struct kv *kvs;
static size_t n_kvs;
static bool loaded;
static bool has_ordinals; /* a key names a call by its ordinal ("KIND.FUNCTION#N") */

static void load(void)
{
	const char *path = getenv("GPUENV_FAKE_SCENARIO");
	char line[1024], section[128] = "";
	FILE *f;

	loaded = true;
	if (!path || !(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *l = strstrip(line), *eq;
		struct kv *p;

		if (*l == '#' || *l == ';' || !*l)
			continue;
		if (*l == '[') {
			char *end = strchr(l, ']');

			if (end) {
				*end = '\0';
				snprintf(section, sizeof(section), "%s", l + 1);
			}
			continue;
		}
		eq = strchr(l, '=');
		if (!eq)
			continue;
		*eq = '\0';
		p = realloc(kvs, (n_kvs + 1) * sizeof(*kvs));
		if (!p)
			break;
		kvs = p;
		kvs[n_kvs].section = strdup(section);
		kvs[n_kvs].key = strdup(strstrip(l));
		kvs[n_kvs].value = strdup(strstrip(eq + 1));
		has_ordinals = has_ordinals || (kvs[n_kvs].key && strchr(kvs[n_kvs].key, '#'));
		n_kvs++;
	}
	fclose(f);
}

const char *fake_get(const char *section, const char *key)
{
	if (!loaded)
		load();
	if (!section)
		return NULL;
	for (size_t i = 0; i < n_kvs; i++)
		if (kvs[i].section && kvs[i].key && strcmp(kvs[i].section, section) == 0 &&
		    strcmp(kvs[i].key, key) == 0)
			return kvs[i].value;
	return NULL;
}

unsigned fake_count(const char *prefix)
{
	unsigned n = 0;

	if (!loaded)
		load();
	for (;; n++) {
		char want[128];
		bool found = false;

		snprintf(want, sizeof(want), "%s%u", prefix, n);
		for (size_t i = 0; i < n_kvs && !found; i++)
			found = kvs[i].section && strcmp(kvs[i].section, want) == 0;
		if (!found)
			return n;
	}
}

bool fake_uint(const char *section, const char *key, unsigned long long *ret)
{
	const char *v = fake_get(section, key);
	char *end;

	if (!v || !*v)
		return false;
	*ret = strtoull(v, &end, 0);
	return *end == '\0';
}

/* The ordinal of the call being injected (1 for a function's first call in this process):
 * "KIND.FUNCTION#N" applies to its Nth call only, as a library failing mid-session does. */
static unsigned long long call_ordinal;

static const char *get2(const char *dev_section, const char *section, const char *key)
{
	const char *v = NULL;

	/* Only a scenario that has such keys pays for looking them up (every call looks up a
	 * dozen behaviours, on a loaded machine near the session's deadline). */
	if (has_ordinals) {
		char nth[192];

		snprintf(nth, sizeof(nth), "%s#%llu", key, call_ordinal);
		v = fake_get(dev_section, nth);
		if (!v)
			v = fake_get(section, nth);
	}
	if (!v)
		v = fake_get(dev_section, key);
	return v ? v : fake_get(section, key);
}

/* Counts the calls of fn (by name) in this process. */
static unsigned long long count_call(const char *fn)
{
	static struct {
		char name[96];
		unsigned long long n;
	} calls[256];

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		if (!calls[i].name[0])
			snprintf(calls[i].name, sizeof(calls[i].name), "%s", fn);
		if (strcmp(calls[i].name, fn) == 0)
			return ++calls[i].n;
	}
	return 0;
}

/* The hostile behaviours: what a broken or malicious library could do inside its call. Each
 * says on stderr what it tried and what happened, for the tests to read back. */
static void hostile(const char *section, const char *dev_section, const char *fn)
{
	char key[160];
	const char *v;

	snprintf(key, sizeof(key), "stderr_flood.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		/* An escape sequence, a NUL and a bell in every chunk; written a block of chunks
		 * at a time, as a logging library would buffer it: one write per chunk took
		 * seconds on a loaded machine, near the session's deadline. */
		static const char chunk[] = "\x1b[31mflood\x1b[0m\a\0 stderr flood line\n";
		unsigned long long n = strtoull(v, NULL, 0);
		char block[(sizeof(chunk) - 1) * 128];

		for (size_t i = 0; i < sizeof(block); i += sizeof(chunk) - 1)
			memcpy(block + i, chunk, sizeof(chunk) - 1);
		for (unsigned long long done = 0; done < n; done += sizeof(block))
			if (write(STDERR_FILENO, block, sizeof(block)) < 0)
				break;
	}
	snprintf(key, sizeof(key), "scribble.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		/* Writes a line into every pipe it holds for writing, as a library that mistakes
		 * a descriptor for its own would: the vendor child's answer pipe among them. */
		for (int fd = STDERR_FILENO + 1; fd < 1024; fd++) {
			struct stat st;
			int fl = fcntl(fd, F_GETFL);

			if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY || fstat(fd, &st) < 0 ||
			    !S_ISFIFO(st.st_mode))
				continue;
			if (write(fd, v, strlen(v)) >= 0 && write(fd, "\n", 1) == 1)
				fprintf(stderr, "scribble: wrote to descriptor %d\n", fd);
		}
	}
	snprintf(key, sizeof(key), "write_file.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		/* Append to it if it exists, else create it. */
		int fd = open(v, O_WRONLY | O_APPEND | O_CLOEXEC);

		if (fd < 0)
			fd = open(v, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd < 0)
			fprintf(stderr, "write_file %s: open: %s\n", v, strerror(errno));
		else if (write(fd, "hostile\n", 8) != 8)
			fprintf(stderr, "write_file %s: write: %s\n", v, strerror(errno));
		else
			fprintf(stderr, "write_file %s: written\n", v);
		if (fd >= 0)
			close(fd);
	}
	snprintf(key, sizeof(key), "name_thread.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		/* What the real libcuda does in cuInit, which fails when it cannot: names its
		 * thread through fopen(..., "w"), an open with O_CREAT | O_TRUNC. */
		char comm[64];
		FILE *f;

		snprintf(comm, sizeof(comm), "/proc/self/task/%ld/comm", (long)syscall(SYS_gettid));
		f = fopen(comm, "w");
		if (!f) {
			fprintf(stderr, "name_thread %s: open: %s\n", v, strerror(errno));
		} else {
			bool bad = fputs(v, f) < 0;

			if (fclose(f) != 0 || bad)
				fprintf(stderr, "name_thread %s: write: %s\n", v, strerror(errno));
			else
				fprintf(stderr, "name_thread %s: named\n", v);
		}
	}
	snprintf(key, sizeof(key), "unlink.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		/* What the real libcuda does in cuInit: unlink a file that is usually not there,
		 * failing on any error but ENOENT. */
		if (unlink(v) < 0)
			fprintf(stderr, "unlink %s: %s\n", v, strerror(errno));
		else
			fprintf(stderr, "unlink %s: removed\n", v);
	}
	snprintf(key, sizeof(key), "truncate_file.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		/* Empty a file that exists: RLIMIT_FSIZE stops growing, not shrinking. */
		int fd = open(v, O_RDWR | O_CLOEXEC);

		if (fd < 0)
			fprintf(stderr, "truncate_file %s: open: %s\n", v, strerror(errno));
		else if (ftruncate(fd, 0) < 0)
			fprintf(stderr, "truncate_file %s: ftruncate: %s\n", v, strerror(errno));
		else
			fprintf(stderr, "truncate_file %s: emptied\n", v);
		if (fd >= 0)
			close(fd);
	}
	snprintf(key, sizeof(key), "alloc.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		/* What glibc's malloc does for a large block (mmap, not the sanitizer's allocator,
		 * whose arena is mapped before the limit is set); touched, so resident. Never
		 * unmapped: a hostile library leaks. */
		size_t n = (size_t)strtoull(v, NULL, 0);
		void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p != MAP_FAILED) {
			memset(p, 1, n);
			fprintf(stderr, "alloc of %zu bytes: done\n", n);
		} else {
			fprintf(stderr, "alloc of %zu bytes: failed\n", n);
		}
	}
	snprintf(key, sizeof(key), "fork.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		unsigned long n = strtoul(v, NULL, 0);

		for (unsigned long i = 0; i < n; i++) {
			pid_t pid = fork();

			if (pid == 0) {
				/* Out of the process group, holding the pipes, forever. */
				setsid();
				for (;;)
					pause();
			}
			if (pid < 0) {
				fprintf(stderr, "fork: %s\n", strerror(errno));
				break;
			}
			fprintf(stderr, "forked %d\n", (int)pid);
		}
	}
	snprintf(key, sizeof(key), "exit.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
#ifdef __SANITIZE_ADDRESS__
		/* LeakSanitizer's check at exit() would turn the code into 1 in this build. */
		_exit(atoi(v));
#else
		exit(atoi(v));
#endif
	}
}

bool fake_inject(const char *section, const char *dev_section, const char *fn,
		 int (*name_to_code)(const char *name), int *ret_code)
{
	char key[160];
	const char *v;

	if (!loaded)
		load();
	if (has_ordinals)
		call_ordinal = count_call(fn);
	hostile(section, dev_section, fn);

	snprintf(key, sizeof(key), "mknod.%s", fn);
	v = get2(dev_section, section, key);
	if (v)
		(void)mknod(v, S_IFCHR | 0666, makedev(195, 255));
	snprintf(key, sizeof(key), "delay.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		/* A slow call that then answers as told (the real cuInit takes a quarter of a
		 * second on an H200): not hostile, so nothing on stderr. */
		unsigned long ms = strtoul(v, NULL, 0);
		struct timespec ts = { .tv_sec = (time_t)(ms / 1000u),
				       .tv_nsec = (long)(ms % 1000u) * 1000000L };

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
	snprintf(key, sizeof(key), "hang.%s", fn);
	if (get2(dev_section, section, key))
		for (;;)
			pause();
	snprintf(key, sizeof(key), "crash.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		int sig = strcmp(v, "SIGABRT") == 0  ? SIGABRT
			  : strcmp(v, "SIGBUS") == 0 ? SIGBUS
						     : SIGSEGV;

		/* The default action, even under a sanitizer that installed its own handler. */
		signal(sig, SIG_DFL);
		raise(sig);
		_exit(128 + sig);
	}
	snprintf(key, sizeof(key), "error.%s", fn);
	v = get2(dev_section, section, key);
	if (v) {
		char *end;
		long n = strtol(v, &end, 0);

		*ret_code = *end == '\0' ? (int)n : name_to_code(v);
		return true;
	}
	return false;
}

const struct fake_code *fake_code_by_value(const struct fake_code *table, size_t n, int code)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].code == code)
			return &table[i];
	return NULL;
}

const struct fake_code *fake_code_by_name(const struct fake_code *table, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}
