// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CUDA driver API (libcuda.so.1) through dlopen, in a child under a deadline. Calls and
 * codes: docs/formats/nvml.md §9 (CUDA 13.0 cuda.h; observed behaviour of the
 * real 535 library and of the toolkit's stub). Writes "library", "driver_version"
 * (cuDriverGetVersion works without cuInit), "init", "device_count" and "devices[]"
 * (docs/snapshot-schema.md, driver.cuda), and with req->launch the "launch" fact and each
 * device's launch results (cuda-launch.c). The stub answers 34 to everything and leaves
 * cuGetErrorName's pointer untouched, so names come from our own table when the library
 * gives none.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cuda-internal.h"
#include "launch-module/launch-module.h"

DL_NOTE(dl_note_cuda,
	"[{\"feature\":\"cuda\",\"description\":\"CUDA driver API version and "
	"devices (gpuenv report: driver.cuda)\",\"priority\":\"suggested\",\"soname\":"
	"[\"libcuda.so.1\"]}]");

#define CUDA_MAX_DEVICES   64
#define LAUNCH_DATA_BUDGET ((uint64_t)4 << 30)

static const struct dl_symbol cuda_symbols[] = {
#define X(f, req, ret, params, ...) DL_SYMBOL_ENTRY(struct cuda_fns, f, req, __VA_ARGS__)
	CUDA_SYMBOLS(X)
#undef X
};

/* cuda.h 13.0 names; texts quoted in docs/formats/nvml.md §9 where it gives them. 35 is
 * deliberately absent: it is the runtime's cudaErrorInsufficientDriver, not a driver API code. */
/* Arrays, not pointers: a table of pointers is relocated, so written, by the loader at each
 * start of every command (vendor/dl.h); "" is no text. */
static const struct {
	int code;
	char name[48], text[72];
} cuda_errors[] = {
	{ 0, "CUDA_SUCCESS", "no error" },
	{ 1, "CUDA_ERROR_INVALID_VALUE", "" },
	{ 2, "CUDA_ERROR_OUT_OF_MEMORY", "" },
	{ 3, "CUDA_ERROR_NOT_INITIALIZED", "cuInit not called or failed" },
	{ 4, "CUDA_ERROR_DEINITIALIZED", "" },
	{ 34, "CUDA_ERROR_STUB_LIBRARY",
	  "the CUDA driver that the application has loaded is a stub library" },
	{ 46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "exclusive or prohibited compute mode" },
	{ 100, "CUDA_ERROR_NO_DEVICE",
	  "no CUDA-capable devices were detected by the installed CUDA driver" },
	{ 101, "CUDA_ERROR_INVALID_DEVICE", "" },
	{ 200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid" },
	{ 201, "CUDA_ERROR_INVALID_CONTEXT", "" },
	{ 209, "CUDA_ERROR_NO_BINARY_FOR_GPU",
	  "no kernel image available that is suitable for the device" },
	{ 214, "CUDA_ERROR_ECC_UNCORRECTABLE", "" },
	{ 218, "CUDA_ERROR_INVALID_PTX", "" },
	{ 221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "" },
	{ 222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "" },
	{ 223, "CUDA_ERROR_JIT_COMPILATION_DISABLED", "" },
	{ 304, "CUDA_ERROR_OPERATING_SYSTEM", "" },
	{ 400, "CUDA_ERROR_INVALID_HANDLE", "" },
	{ 500, "CUDA_ERROR_NOT_FOUND", "" },
	{ 700, "CUDA_ERROR_ILLEGAL_ADDRESS", "" },
	{ 701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "" },
	{ 702, "CUDA_ERROR_LAUNCH_TIMEOUT", "" },
	{ 719, "CUDA_ERROR_LAUNCH_FAILED", "" },
	{ 802, "CUDA_ERROR_SYSTEM_NOT_READY", "" },
	{ 803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
	  "display driver vs CUDA driver (libcuda) version mismatch" },
	{ 804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
	  "forward compatibility was attempted on non supported HW" },
	{ 999, "CUDA_ERROR_UNKNOWN", "" },
};

const char *vendor_cuda_error_name(int rc)
{
	for (size_t i = 0; i < ARRAY_SIZE(cuda_errors); i++)
		if (cuda_errors[i].code == rc)
			return cuda_errors[i].name;
	return NULL;
}

static const char *local_text(int rc)
{
	for (size_t i = 0; i < ARRAY_SIZE(cuda_errors); i++)
		if (cuda_errors[i].code == rc)
			return cuda_errors[i].text[0] ? cuda_errors[i].text : NULL;
	return NULL;
}

bool cuda_fail(struct cuda *c, const char *call, CUresult rc, const char *const keys[])
{
	const char *lib_name = NULL, *lib_text = NULL, *name, *text;
	char nbuf[64], tbuf[200];

	if (rc == CU_MISSING) {
		for (size_t i = 0; keys[i]; i++)
			vw_state(c->w, keys[i], call, "unsupported",
				 "not exported by this libcuda");
		return false;
	}
	/* The stub returns 34 here and leaves the pointers alone: keep them NULL-initialised. */
	if (c->f.cuGetErrorName && c->f.cuGetErrorName(rc, &lib_name) != CUDA_SUCCESS)
		lib_name = NULL;
	if (c->f.cuGetErrorString && c->f.cuGetErrorString(rc, &lib_text) != CUDA_SUCCESS)
		lib_text = NULL;
	name = vendor_cuda_error_name(rc);
	if (!name && lib_name)
		name = lib_name;
	snprintf(nbuf, sizeof(nbuf), "%s", name ? name : "CUDA error");
	text = lib_text && *lib_text ? lib_text : local_text(rc);
	snprintf(tbuf, sizeof(tbuf), "%s", text ? text : "");
	for (size_t i = 0; keys[i]; i++)
		vw_state(c->w, keys[i], call, "error", "%s (%d)%s%s", nbuf, rc, *tbuf ? ": " : "",
			 tbuf);
	return false;
}

static void cu_device(struct cuda *c, int i)
{
	CUdevice dev = 0;
	char buf[128];
	int major, minor;
	size_t bytes;
	CUuuid uu;

	vw_set_base(c->w, "devices.%d", i);
	if (!CU(c, "index", cuDeviceGet, (&dev, i)))
		return;
	vw_int(c->w, "index", i);
	memset(buf, 0, sizeof(buf));
	if (CU(c, "name", cuDeviceGetName, (buf, (int)sizeof(buf) - 1, dev)))
		vw_str(c->w, "name", buf);
	if (CU(c, "compute_capability", cuDeviceGetAttribute,
	       (&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)) &&
	    CU(c, "compute_capability", cuDeviceGetAttribute,
	       (&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev))) {
		snprintf(buf, sizeof(buf), "%d.%d", major, minor);
		vw_str(c->w, "compute_capability", buf);
	}
	memset(buf, 0, sizeof(buf));
	if (CU(c, "pci_bus_id", cuDeviceGetPCIBusId, (buf, (int)sizeof(buf) - 1, dev)))
		vw_str(c->w, "pci_bus_id", buf);
	if (CU(c, "memory_total_mib", cuDeviceTotalMem, (&bytes, dev)))
		vw_int(c->w, "memory_total_mib", (int64_t)(bytes >> 20));
	memset(&uu, 0, sizeof(uu));
	if (CU(c, "uuid", cuDeviceGetUuid, (&uu, dev))) {
		const unsigned char *b = (const unsigned char *)uu.bytes;

		/* nvidia-smi's form: GPU-8-4-4-4-12 hex digits. */
		snprintf(buf, sizeof(buf),
			 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
			 b[12], b[13], b[14], b[15]);
		vw_str(c->w, "uuid", buf);
	}
	if (c->req->launch)
		cuda_launch_device(c, i, dev);
}

static const char *const cuda_keys[] = { "library",	 "driver_version", "init",
					 "device_count", "devices",	   NULL };
static const char *const cuda_launch_keys[] = { "library", "driver_version", "init", "device_count",
						"devices", "launch",	     NULL };

/* Only the name the CUDA runtime itself loads, so gpuenv sees the libcuda a CUDA program would
 * see (a toolkit's stubs/libcuda.so on LD_LIBRARY_PATH is not libcuda.so.1). */
static const char *const cuda_sonames[] = { "libcuda.so.1", NULL };
static const struct vendor_lib cuda_lib = {
	.sonames = cuda_sonames,
	.name = "libcuda",
	.not_this = "not a CUDA driver library",
	.symbol_key = "init",
	.keys = cuda_keys + 1, /* all but "library" */
	.symbols = cuda_symbols,
	.n_symbols = ARRAY_SIZE(cuda_symbols),
};

static int cuda_child(int fd, void *userdata)
{
	const struct vendor_req *req = userdata;
	struct vwriter w = { .fd = fd };
	struct cuda c = { .w = &w, .req = req };
	char buf[64];
	int v, count;

	if (!vendor_child_load(&w, req, &cuda_lib, &c.f))
		return w.err ? 1 : 0;
	if (CU(&c, "driver_version", cuDriverGetVersion, (&v))) {
		snprintf(buf, sizeof(buf), "%d.%d", v / 1000, (v % 1000) / 10);
		vw_str(&w, "driver_version", buf);
	}
	if (req->skip_init) {
		vw_not_called(&w, "cuInit", req->skip_init,
			      (const char *const[]){ "init", "device_count", "devices",
						     req->launch ? "launch" : NULL, NULL });
		return w.err ? 1 : 0;
	}
	/* A launch stops where a CUDA program would: cuInit's failure is the launch's too. */
	if (!CU(&c, "init", cuInit, (0), req->launch ? "launch" : NULL)) {
		vw_not_called(&w, "cuInit", "cuInit failed",
			      (const char *const[]){ "device_count", "devices", NULL });
		return w.err ? 1 : 0;
	}
	vw_str(&w, "init", "CUDA_SUCCESS");
	if (req->launch)
		vw_str(&w, "launch", "SASS " LAUNCH_MODULE_SASS_ARCHS "; PTX ISA 6.0 sm_30");
	if (CU(&c, "device_count", cuDeviceGetCount, (&count))) {
		vw_int(&w, "device_count", count);
		vw_array(&w, "devices");
		for (int i = 0; i < count && i < CUDA_MAX_DEVICES; i++)
			cu_device(&c, i);
	} else {
		vw_not_called(&w, "cuDeviceGetCount", "no device count",
			      (const char *const[]){ "devices", NULL });
	}
	/* The driver API has no shutdown. */
	return w.err ? 1 : 0;
}

/* The session as vendor_cuda_start() runs it, forked or from gpuenv-cuda. */
static void cuda_session(const struct vendor_req *req, struct vendor_session *vs)
{
	*vs = (struct vendor_session){
		.fn = cuda_child,
		.userdata = (void *)req,
		.timeout_ms = req->timeout_ms,
		.prefix = "cuda:",
		.expected_keys = req->launch ? cuda_launch_keys : cuda_keys,
		.host_pid_namespace = true,
		/* Contexts, module images and the PTX JIT's working memory come on top of what
		 * cuInit takes: more room, still bounded. */
		.data_budget = req->launch ? LAUNCH_DATA_BUDGET : 0,
	};
}

/* vendor_cuda_exec()'s launcher; NULL: forked. */
static child_exec_fn cuda_exec;

void vendor_cuda_exec(child_exec_fn exec)
{
	cuda_exec = exec;
}

_Noreturn void vendor_cuda_keeper_main(const int fds[CHILD_PROC_FDS], pid_t parent,
				       const struct vendor_keep_exec *what)
{
	/* static: the child under the keeper reads them after the fork */
	static struct vendor_req req;
	static struct vendor_session vs;
	static struct session_child_args args;
	static struct child_opts opts;

	req = (struct vendor_req){ .library = what->library,
				   .timeout_ms = what->timeout_ms,
				   .skip_init = what->skip_init,
				   .launch = what->launch,
				   .no_timings = what->no_timings };
	cuda_session(&req, &vs);
	args = (struct session_child_args){ .vs = &vs, .dir = what->dir };
	/* as the caller's vendor_session_start() would have (session.c) */
	session_child_opts(&vs, &opts);
	child_job_keeper_main(fds, parent, session_child, &args, &opts, what->deadline_ms);
}

int vendor_cuda_start(const struct vendor_req *req, struct vendor_pending **ret)
{
	struct vendor_session vs;

	cuda_session(req, &vs);
	if (cuda_exec) {
		vs.exec = cuda_exec;
		vs.exec_what = (struct vendor_keep_exec){ .library = req->library,
							  .timeout_ms = req->timeout_ms,
							  .skip_init = req->skip_init,
							  .launch = req->launch,
							  .no_timings = req->no_timings };
	}
	return vendor_session_start(&vs, ret);
}
