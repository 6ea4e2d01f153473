// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Container-layer rules over container.* (probe-container.c: /.dockerenv, /run/.containerenv,
 * /proc/1/cgroup, and the NVIDIA Container Toolkit variables of the judged environment),
 * the device nodes of driver.device_nodes.* and the host driver seen through /sys/module.
 * NVIDIA_VISIBLE_DEVICES and NVIDIA_REQUIRE_CUDA semantics: NVIDIA Container Toolkit,
 * "Specialized configurations with Docker" (void/empty/none; constraints separated by
 * spaces are alternatives, by commas all required). Driver ⇄ CUDA: facts/driver_branches.tsv
 * (CUDA version each branch reports) and facts/cuda_driver_min.tsv (minor-version floors).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/nv-require.h"
#include "rules/rules-internal.h"
#include "shared/parse.h"
#include "shared/strv.h"

#define VISIBLE "container.requested.NVIDIA_VISIBLE_DEVICES"

static bool visible_void(const char *v)
{
	return v && (!*v || streq(v, "void") || streq(v, "none"));
}

/* NVIDIA GPUs on the bus by vendor id alone (an unreadable device id does not make an NVIDIA
 * GPU anything else). A GPU whose vendor id could not be read may be one: recorded as skipped
 * for it, so the layer says "could not tell" rather than nothing. */
static size_t nvidia_gpus_on_bus(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	size_t n = 0;

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const char *v = snap_get_str(g, "vendor_id");
		unsigned id;

		if (v && parse_uint(v, 0, &id) == 0)
			n += id == 0x10de;
		else
			rule_need(c, snap_get_str(g, "bus_id") ?: "?", "the GPU's PCI vendor id",
				  snap_child(g, "vendor_id"));
	}
	return n;
}

/* GPUs passed in by hand (`docker run --device /dev/nvidia0 --device /dev/nvidiactl`) without
 * /dev/nvidia-uvm: NVML answers (nvidia-smi lists the GPU) but cuInit fails, and nothing in the
 * container can make the node (the device cgroup admits only the nodes given); --gpus and CDI
 * pass it in (NVIDIA/nvidia-docker#1085). Only a node known absent: unreadable is no answer. */
static void no_uvm_device(struct rule_ctx *c, const struct snap_node *root,
			  const struct snap_node *ctl, const struct snap_node *gpus)
{
	const struct snap_node *uvm = snap_get(root, "driver.device_nodes.nvidia_uvm");
	struct finding *f;

	if (!snap_present(ctl) || snap_count(gpus) == 0 || snap_present(uvm))
		return;
	if (snap_state(uvm) != FACT_ABSENT) {
		rule_need(c, NULL, "/dev/nvidia-uvm", uvm); /* says it could not tell */
		return;
	}
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "in a container (%s) with /dev/nvidiactl and %zu GPU node(s) but no "
			 "/dev/nvidia-uvm: NVML (nvidia-smi) works, CUDA cannot initialise "
			 "(cuInit) without the unified-memory device",
			 container_engine(root), snap_count(gpus));
	finding_fact(f, "container.dockerenv", snap_get(root, "container.dockerenv"));
	finding_fact(f, "container.containerenv", snap_get(root, "container.containerenv"));
	finding_fact(f, "container.cgroup_engine", snap_get(root, "container.cgroup_engine"));
	finding_fact(f, "driver.device_nodes.nvidiactl", ctl);
	finding_fact(f, "driver.device_nodes.nvidia_uvm", uvm);
	finding_evidence(f, "driver.device_nodes.nvidia_gpus", "/dev", "%zu node(s)",
			 snap_count(gpus));
	finding_fix(f, "docker run --device /dev/nvidia-uvm --device /dev/nvidia-uvm-tools …   "
		       "# with the --device flags already given");
	finding_rule_fix(f);
	finding_rule_verify(f);
}

RULE_CHECK(check_container_no_gpu_devices)
{
	const struct snap_node *ctl = snap_get(root, "driver.device_nodes.nvidiactl");
	const struct snap_node *gpus = snap_get(root, "driver.device_nodes.nvidia_gpus");
	const struct snap_node *vis = snap_get(root, VISIBLE);
	struct finding *f;

	if (!in_container(root))
		return;
	if (visible_void(snap_str(vis)))
		return; /* container.visible-devices-void */
	if (snap_present(snap_get(root, "driver.device_nodes.kfd")))
		return; /* an AMD (ROCm) container */
	if (snap_present(ctl) || snap_count(gpus) > 0) {
		no_uvm_device(c, root, ctl, gpus);
		return;
	}
	/* The container sees the machine's PCI bus: with no NVIDIA GPU on it, there is nothing
	 * to pass in (hardware.no-gpu says so). Without a readable bus, go by the request. */
	if (snap_present(snap_get(root, "hardware.pci_devices")) ? nvidia_gpus_on_bus(c, root) == 0
								 : !snap_str(vis))
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "in a container (%s) with no /dev/nvidia* device%s",
			 container_engine(root),
			 snap_str(vis) ? ", although NVIDIA_VISIBLE_DEVICES asks for GPUs" : "");
	finding_fact(f, "container.dockerenv", snap_get(root, "container.dockerenv"));
	finding_fact(f, "container.containerenv", snap_get(root, "container.containerenv"));
	finding_fact(f, "container.cgroup_engine", snap_get(root, "container.cgroup_engine"));
	finding_fact(f, "container.overlay_engine", snap_get(root, "container.overlay_engine"));
	finding_fact(f, "container.cgroup_nested", snap_get(root, "container.cgroup_nested"));
	finding_fact(f, VISIBLE, vis);
	finding_fact(f, "driver.device_nodes.nvidiactl", ctl);
	finding_evidence(f, "driver.device_nodes.nvidia_gpus", "/dev", "%zu node(s)",
			 snap_count(gpus));
	finding_rule_fix(f);
	finding_rule_verify(f);
}

RULE_CHECK(check_visible_devices_void)
{
	const struct snap_node *vis = snap_get(root, VISIBLE);
	const char *v = snap_str(vis);
	struct finding *f;

	if (!visible_void(v))
		return;
	/* on a host the variable is only text: the container runtime reads it from an image or
	 * a `docker run -e`, not from the shell of the machine it runs on */
	if (container_known_absent(root))
		return;
	/* GPU nodes are in the container all the same: a CDI spec of nvidia-ctk sets void in the
	 * container while it injects the GPUs itself (nvidia-container-toolkit's generated
	 * specs, "containerEdits": {"env": ["NVIDIA_VISIBLE_DEVICES=void"]}), so that the legacy
	 * hook adds nothing twice (NVIDIA/nvidia-container-toolkit#395); a GPU pod in CDI mode
	 * carries it (#1429). The variable kept no GPU out. /dev/nvidiactl alone is no GPU. */
	if (snap_count(snap_get(root, "driver.device_nodes.nvidia_gpus")) > 0)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "NVIDIA_VISIBLE_DEVICES=%s: the NVIDIA container runtime exposes no GPU%s",
			 *v ? v : "\"\"",
			 streq(v, "none") ? " (driver libraries only)"
					  : " and no driver libraries");
	finding_fact(f, VISIBLE, vis);
	finding_fact(f, "driver.device_nodes.nvidiactl",
		     snap_get(root, "driver.device_nodes.nvidiactl"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}

enum tri { NO = 0, YES = 1, UNKNOWN = 2 };

/* ---- NVIDIA_REQUIRE_CUDA as nvidia-container-cli judges it (facts/nv-require.h) ---- */

/* Go's strconv.ParseBool true values: NVIDIA_DISABLE_REQUIRE set to one of them turns the
 * requirement check off (nvidia-container-toolkit internal/config/image/cuda_image.go,
 * HasDisableRequire). */
static bool go_bool_true(const char *v)
{
	static const char *const yes[] = { "1", "t", "T", "TRUE", "true", "True" };

	for (size_t i = 0; v && i < ARRAY_SIZE(yes); i++)
		if (streq(v, yes[i]))
			return true;
	return false;
}

struct req_judgement {
	enum tri sat;
	char message[320]; /* nvidia-container-cli's, when sat is NO */
	char refused[96];  /* sat UNKNOWN by brand alone: the brands the cli refuses */
	char why[160];	   /* sat UNKNOWN otherwise */
};

/* One device (or none): a brand not known is judged for every brand the cli reports. */
static enum tri judge_device(const struct nv_require *r, struct nv_require_facts *f,
			     struct req_judgement *j, enum nv_require_result *ret_res)
{
	size_t refused = 0;
	char list[sizeof(j->refused)] = "";

	if (!f->device || f->brand || !nv_require_uses(r, NV_REQUIRE_BRAND)) {
		*ret_res = nv_require_eval(r, f, NULL);
		return *ret_res == NV_REQUIRE_SATISFIED ? YES : NO;
	}
	for (size_t b = 0; b < nv_require_n_brands; b++) {
		enum nv_require_result res;

		f->brand = nv_require_brands[b];
		res = nv_require_eval(r, f, NULL);
		if (res == NV_REQUIRE_SATISFIED)
			continue;
		*ret_res = res;
		size_t n = strlen(list);
		snprintf(list + n, sizeof(list) - n, "%s%s", refused++ ? ", " : "",
			 nv_require_brands[b]);
	}
	f->brand = NULL;
	if (refused == 0)
		return YES;
	if (refused == nv_require_n_brands)
		return NO;
	if (!j->refused[0])
		memcpy(j->refused, list, sizeof(list));
	return UNKNOWN;
}

/* No NVIDIA GPU is listed because the PCI bus could not be read, and req holds with none
 * visible (every arch= and brand= term then holds, the most lenient case): a GPU may be
 * visible all the same, and then those terms count. Where one could fail, could not tell,
 * never the vacuous pass of "no device". */
static void require_judge_unseen_gpu(const struct nv_require *r, struct nv_require_facts *f,
				     struct req_judgement *j)
{
	struct req_judgement with = { .sat = YES };
	enum nv_require_result res = NV_REQUIRE_SATISFIED;
	bool arch = nv_require_uses(r, NV_REQUIRE_ARCH);

	if (!arch && !nv_require_uses(r, NV_REQUIRE_BRAND))
		return;
	f->device = true;
	f->arch = NULL;
	if (!arch && judge_device(r, f, &with, &res) == YES) {
		f->device = false;
		return;
	}
	f->device = false;
	j->sat = UNKNOWN;
	snprintf(j->why, sizeof(j->why),
		 "NVIDIA_REQUIRE_CUDA tests %s, and the PCI bus could not be read: whether a GPU "
		 "is visible, and its %s, is not known",
		 arch ? "arch=" : "brand=", arch ? "compute capability" : "brand");
}

/* req judged on every NVIDIA GPU of the snapshot, as the cli judges it on each visible
 * device (on none when it sees none). */
static void require_judge(struct rule_ctx *c, const struct snap_node *root, const char *req,
			  const char *drv, const char *drv_cuda, struct req_judgement *j)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	struct nv_require_facts f = { .cuda = drv_cuda, .driver = drv };
	enum nv_require_result res = NV_REQUIRE_SATISFIED;
	struct nv_require r;
	bool any = false;

	*j = (struct req_judgement){ .sat = YES };
	if (nv_require_parse(req, strlen(req), &r) < 0) {
		j->sat = UNKNOWN;
		snprintf(j->why, sizeof(j->why),
			 "NVIDIA_REQUIRE_CUDA is too long (more than %u characters or %u terms) "
			 "to judge",
			 NV_REQUIRE_MAX_LEN, NV_REQUIRE_MAX_TERMS);
		return;
	}
	for (size_t i = 0; i < snap_count(gpus) && j->sat != NO; i++) {
		const struct snap_node *g = snap_at(gpus, i), *ccf;
		const char *vendor = snap_get_str(g, "vendor_id");
		char arch[16];
		unsigned ma, mi, id;
		enum tri t;

		/* by vendor id alone: a --target GPU named by compute capability has no device id */
		if (!vendor || parse_uint(vendor, 0, &id) < 0 || id != 0x10de)
			continue;
		any = true;
		f.device = true;
		f.arch = NULL;
		if (gpu_cc(root, g, &ma, &mi, &ccf)) {
			snprintf(arch, sizeof(arch), "%u.%u", ma, mi);
			f.arch = arch;
		} else if (nv_require_uses(&r, NV_REQUIRE_ARCH)) {
			j->sat = UNKNOWN;
			snprintf(j->why, sizeof(j->why),
				 "NVIDIA_REQUIRE_CUDA tests arch=, and the compute capability of "
				 "GPU %s is not known",
				 snap_get_str(g, "bus_id") ?: "?");
			continue;
		}
		f.brand = snap_get_str(nvml_device_for(root, g), "brand");
		t = judge_device(&r, &f, j, &res);
		if (t == NO)
			j->sat = NO;
		else if (t == UNKNOWN && j->sat == YES)
			j->sat = UNKNOWN;
	}
	if (!any) {
		f.device = false;
		j->sat = judge_device(&r, &f, j, &res);
		if (j->sat == YES && !snap_present(snap_get(root, "hardware.pci_devices")))
			require_judge_unseen_gpu(&r, &f, j);
	}
	(void)c;
	if (j->sat == NO)
		nv_require_message(&r, res, j->message, sizeof(j->message));
	nv_require_done(&r);
}

/* "cuda>=12.4" → "12.4" (the first cuda>= constraint), for the message. */
static bool required_cuda(const char *req, char *buf, size_t len)
{
	const char *p = strstr(req, "cuda>=");
	size_t n;

	if (!p)
		return false;
	p += 6;
	n = strcspn(p, " ,\t");
	if (n == 0 || n >= len)
		return false;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return true;
}

RULE_CHECK(check_image_cuda_newer_than_driver)
{
	const struct snap_node *reqn = snap_get(root, "container.requested.NVIDIA_REQUIRE_CUDA");
	const struct snap_node *cvn = snap_get(root, "environment.CUDA_VERSION");
	const struct snap_node *disn = snap_get(root, "container.requested.NVIDIA_DISABLE_REQUIRE");
	const char *req = snap_str(reqn), *cv = snap_str(cvn),
		   *vis = snap_str(snap_get(root, VISIBLE));
	const char *drv, *judged = req;
	struct facts_driver_cuda dc;
	const struct snap_node *fact;
	char image[32] = "", legacy[32], refused[200] = "";
	struct req_judgement j = { .sat = YES };
	struct cuda_req cr;
	char floor[128];
	struct finding *f;
	/* an image judged before it runs (--image, --target): whether it starts is the question;
	 * from inside a running container it evidently did (or no hook checked it) */
	bool predicting = snap_present(snap_get(root, "container.image.kind"));
	bool newer = false, mc;

	if (!req && !cv)
		return;
	switch (nvidia_driver(root, &drv, &fact)) {
	case DRIVER_LOADED:
		break;
	case DRIVER_NONE:
	case DRIVER_ELSEWHERE:
		rule_skip(c, NULL,
			  "could not read the host driver version: /sys/module/nvidia/version "
			  "and /proc/driver/nvidia/version are absent");
		return;
	case DRIVER_UNKNOWN:
		rule_need(c, NULL, "the host driver version", fact);
		return;
	}
	if (facts_cuda_newest_for_driver(drv, &dc) < 0) {
		rule_skip(c, NULL,
			  "driver %s: older than every branch in the knowledge base, the CUDA "
			  "version it reports could not be told",
			  drv);
		return;
	}
	if (cv) {
		unsigned ma, mi;

		if (cuda_major_minor(cv, &ma, &mi)) {
			snprintf(image, sizeof(image), "%u.%u", ma, mi);
			newer = version_cmp_str(image, dc.cuda) > 0;
			/* an image with CUDA_VERSION and no NVIDIA_REQUIRE_CUDA is a legacy one:
			 * the toolkit requires cuda>=MAJOR.MINOR of it (cuda_image.go) */
			if (!req && predicting) {
				snprintf(legacy, sizeof(legacy), "cuda>=%u.%u", ma, mi);
				judged = legacy;
			}
		}
	}
	/* NVIDIA_DISABLE_REQUIRE, and NVIDIA_VISIBLE_DEVICES void or empty (no hook runs), leave
	 * the requirement unchecked */
	if (judged && !go_bool_true(snap_str(disn)) && !(vis && (!*vis || streq(vis, "void"))))
		require_judge(c, root, judged, drv, dc.cuda, &j);
	if (!image[0] && !(req && required_cuda(req, image, sizeof(image))))
		snprintf(image, sizeof(image), "?");
	if (j.sat == YES && !newer)
		return;
	if (dc.lower_bound) {
		/* the image wants more than the lower bound: the driver may still run it */
		rule_skip(c, NULL,
			  "driver %s: the knowledge base has no CUDA version for its branch; "
			  "R%u's %s is a lower bound, below the image's CUDA %s: could not tell",
			  drv, dc.row->branch, dc.cuda, image);
		return;
	}
	if (j.refused[0])
		snprintf(refused, sizeof(refused),
			 "; nvidia-container-cli refuses it on a %s GPU (brand not known)",
			 j.refused);
	else if (j.sat == UNKNOWN)
		snprintf(refused, sizeof(refused), "; %s", j.why);
	if (j.sat == UNKNOWN && !newer) {
		if (j.refused[0])
			rule_skip(c, NULL,
				  "NVIDIA_REQUIRE_CUDA with driver %s: nvidia-container-cli "
				  "refuses the image on a %s GPU and starts it on the others; the "
				  "GPUs' brand is not known (gpuenv check --target …,brand=NAME)",
				  drv, j.refused);
		else
			rule_skip(c, NULL, "%s", j.why);
		return;
	}
	mc = cuda_requirement(root, image, &cr) == 0 &&
	     cuda_driver_judge(&cr, drv) == LINK_DEGRADED;
	if (j.sat == NO && !predicting)
		f = rule_finding(
			c, mc ? GPUENV_SEVERITY_WARNING : GPUENV_SEVERITY_ERROR, NULL,
			"the image wants CUDA %s, the host driver %s (R%u) reports CUDA "
			"%s: NVIDIA_REQUIRE_CUDA is not satisfied (nvidia-container-cli: %s)%s",
			image, drv, dc.row->branch, dc.cuda, j.message,
			mc ? "; the code runs through minor-version compatibility where "
			     "NVIDIA_DISABLE_REQUIRE lets the container start"
			   : "");
	else if (j.sat == NO) {
		/* the container does not start, whatever its code could do */
		char run[160] = "";

		if (mc)
			snprintf(run, sizeof(run),
				 "; with NVIDIA_DISABLE_REQUIRE=true the code runs through "
				 "minor-version compatibility (CUDA %u.x on >= %s)",
				 cr.major, cuda_req_mc_floor(&cr, floor, sizeof(floor)));
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "the image wants CUDA %s, the host driver %s (R%u) reports CUDA "
				 "%s: nvidia-container-cli refuses to start it (requirement error: "
				 "%s)%s",
				 image, drv, dc.row->branch, dc.cuda, j.message, run);
	} else if (mc)
		f = rule_finding(
			c, GPUENV_SEVERITY_WARNING, NULL,
			"the image wants CUDA %s, the host driver %s (R%u) reports CUDA %s: "
			"the code runs through minor-version compatibility (CUDA %u.x on "
			">= %s%s), limited features and no PTX JIT%s",
			image, drv, dc.row->branch, dc.cuda, cr.major,
			cuda_req_mc_floor(&cr, floor, sizeof(floor)), cuda_req_mc_note(&cr),
			refused);
	else
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"the image wants CUDA %s, the host driver %s (R%u) reports CUDA %s%s",
			image, drv, dc.row->branch, dc.cuda, refused);
	finding_fact(f, "container.requested.NVIDIA_REQUIRE_CUDA", reqn);
	finding_fact(f, "environment.CUDA_VERSION", cvn);
	finding_fact(f, driver_fact_key(root, fact), fact);
	finding_evidence(f, "facts.driver_branches.cuda_version_reported", dc.row->source,
			 "R%u: %s", dc.row->branch, dc.cuda);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* ---- container.no-nvidia-runtime ---------------------------------------------------------- */

#define HOST "container.host."

static bool str_has(const char *s, const char *what)
{
	return s && strstr(s, what);
}

/* CDI specs that parsed (cdi_specs[] with a present format). */
static size_t cdi_spec_count(const struct snap_node *root)
{
	const struct snap_node *specs = snap_get(root, HOST "cdi_specs");
	size_t n = 0;

	for (size_t i = 0; i < snap_count(specs); i++)
		n += snap_present(snap_child(snap_at(specs, i), "format"));
	return n;
}

/* A hook binary in a directory of dockerd's default PATH (systemd's /usr/local/sbin …
 * /bin), not only on the user's PATH. */
static bool hook_in_std_dir(const struct snap_node *bin)
{
	static const char *const std[] = { "/usr/local/sbin/", "/usr/local/bin/", "/usr/sbin/",
					   "/usr/bin/",	       "/sbin/",	  "/bin/" };
	const char *p = snap_str(bin);

	for (size_t i = 0; p && i < ARRAY_SIZE(std); i++)
		if (startswith(p, std[i]) && !strchr(p + strlen(std[i]), '/'))
			return true;
	return false;
}

/* The daemon.json under prefix ("…docker." or "…docker_snap.") names an nvidia runtime, or
 * enables CDI with a spec to use. */
static bool docker_has_nvidia(const struct snap_node *root, const char *prefix)
{
	char key[96];
	const struct snap_node *runs;

	snprintf(key, sizeof(key), "%sruntimes", prefix);
	runs = snap_get(root, key);
	for (size_t i = 0; i < snap_count(runs); i++)
		if (str_has(snap_get_str(snap_at(runs, i), "path"), "nvidia"))
			return true;
	snprintf(key, sizeof(key), "%scdi_feature", prefix);
	return cdi_spec_count(root) && snap_get_bool_default(root, key, false);
}

/* Docker as a snap: its confined dockerd sees neither the host's hook nor /etc/docker; only
 * its own daemon.json (where the snap's NVIDIA support writes the nvidia runtime and CDI)
 * hands it the GPU. */
static void check_docker_snap(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *ds = snap_get(root, HOST "docker_snap.docker");
	const struct snap_node *dj = snap_get(root, HOST "docker_snap.daemon_json");
	const struct snap_node *hook =
		snap_get(root, HOST "toolkit.binaries.nvidia-container-runtime-hook");
	struct finding *f;

	if (!snap_present(ds)) {
		if (fact_is_failure(snap_state(ds)))
			rule_need(c, "docker snap", "/snap/bin/docker", ds);
		return;
	}
	if (!rule_need_known(c, "docker snap", "the docker snap's daemon.json", dj) ||
	    docker_has_nvidia(root, HOST "docker_snap."))
		return;
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, "docker snap",
		"Docker is installed as a snap (/snap/bin/docker) on this NVIDIA GPU host, "
		"and its daemon.json (%s) names no nvidia runtime and enables no CDI; the "
		"snap's confined dockerd does not see the host's "
		"nvidia-container-runtime-hook%s: `docker run --gpus all` fails with "
		"\"could not select device driver \"\" with capabilities: [[gpu]]\"",
		snap_source(dj) ?: "/var/snap/docker/current/config/daemon.json",
		snap_present(hook) ? " (installed here, outside the snap)" : "");
	finding_fact(f, HOST "docker_snap.docker", ds);
	finding_fact(f, HOST "docker_snap.daemon_json", dj);
	finding_evidence(f, HOST "docker_snap.runtimes", snap_source(dj) ?: "daemon.json",
			 "%zu runtime(s)", snap_count(snap_get(root, HOST "docker_snap.runtimes")));
	finding_fact(f, HOST "toolkit.binaries.nvidia-container-runtime-hook", hook);
	finding_fix(f, "sudo snap refresh docker && snap get docker nvidia-support.disabled   # "
		       "the docker snap's own NVIDIA support (canonical/docker-snap) configures "
		       "the nvidia runtime and CDI unless disabled; its log: sudo snap logs "
		       "docker.nvidia-container-toolkit");
	finding_fix(f, "# or: sudo snap remove docker, install Docker CE from Docker's apt "
		       "repository and the NVIDIA Container Toolkit, then sudo nvidia-ctk runtime "
		       "configure --runtime=docker && sudo systemctl restart docker");
	finding_rule_verify(f);
}

/* A containerd runtime entry that runs the NVIDIA Container Runtime (by its BinaryName, or a
 * name nvidia-ctk gives: nvidia, nvidia-cdi, nvidia-legacy). */
static bool cri_runtime_is_nvidia(const struct snap_node *rt)
{
	return str_has(snap_get_str(rt, "binary_name"), "nvidia") ||
	       str_has(snap_get_str(rt, "name"), "nvidia");
}

/* What K3s users do instead of editing /etc/containerd/config.toml, which K3s's containerd
 * never reads: K3s rewrites its own config.toml at every start (from config.toml.tmpl where
 * there is one) with the nvidia runtimes it finds (docs.k3s.io "NVIDIA Container Runtime
 * Support"; NVIDIA/k8s-device-plugin#406, the maintainer: the nvidia runtime is defined there
 * but not the default, give the device plugin's pod the nvidia runtime class). */
static void k3s_fixes(struct finding *f, const char *nv)
{
	finding_fix(f,
		    "# give the NVIDIA device plugin's pod and every GPU pod runtimeClassName: %s "
		    "(a RuntimeClass with handler: %s, which K3s creates where it has "
		    "k3s-io/k3s#8700), e.g. helm install … --set runtimeClassName=%s",
		    nv, nv, nv);
	finding_fix(f,
		    "# or make it K3s's default runtime: default-runtime: %s in "
		    "/etc/rancher/k3s/config.yaml (the --default-runtime flag, where `k3s agent "
		    "--help` lists it), then sudo systemctl restart k3s",
		    nv);
	finding_fix(f, "# not /etc/containerd/config.toml nor `nvidia-ctk runtime configure "
		       "--runtime=containerd`, which edits it: K3s's containerd reads "
		       "/var/lib/rancher/k3s/agent/etc/containerd/config.toml, rewritten by K3s "
		       "at every start (from config.toml.tmpl where there is one)");
	finding_verify(f, "grep -n nvidia /var/lib/rancher/k3s/agent/etc/containerd/config.toml; "
			  "kubectl get runtimeclass; kubectl describe node | grep nvidia.com/gpu");
}

/* containerd's CRI plugin has an nvidia runtime, but pods get the default one: without
 * default_runtime_name = "nvidia" (containerd's default is "runc") a pod runs under it unless
 * its spec names a RuntimeClass whose handler is nvidia, and the NVIDIA device plugin's own pod
 * then cannot load NVML (NVIDIA/k8s-device-plugin#314: "required for the k8s-device-plugin to
 * work (or else you get 'failed to load NVML' errors)", while `ctr run --gpus 0` still works;
 * #1246: default runtime runc with the nvidia runtime configured, no nvidia.com/gpu in the
 * node's capacity). A RuntimeClass is a cluster object the node does not show: a warning,
 * unless kubelet's device plugin checkpoint shows that no plugin offered the GPUs (an error). */
/* K3s's containerd has the same facts under K3S (k3s: true): K3s adds its nvidia runtimes
 * without making one the default, so it is the same judgment with K3s's own fixes
 * (docs.k3s.io "NVIDIA Container Runtime Support": runtimeClassName: nvidia;
 * k3s-io/k3s#8700: the RuntimeClass K3s creates and its --default-runtime option). */
#define K3S HOST "k3s.containerd."

static void check_cri_default_runtime(struct rule_ctx *c, const struct snap_node *root, bool k3s)
{
	const char *pre = k3s ? K3S : HOST "containerd.";
	char key[96];
#define CD(name) (snprintf(key, sizeof(key), "%s%s", pre, name), snap_get(root, key))
	const struct snap_node *cruns = CD("runtimes");
	const struct snap_node *dname = CD("default_runtime_name");
	const struct snap_node *dbin = CD("default_runtime_binary");
	const struct snap_node *imports = CD("imports");
	const struct snap_node *config = CD("config");
#undef CD
	const char *who = k3s ? "K3s's containerd" : "containerd";
	const struct snap_node *ckpt = snap_get(root, HOST "kubelet.device_checkpoint");
	const struct snap_node *regs = snap_get(root, HOST "kubelet.registered_resources");
	const char *def = "runc", *nv = NULL, *nv_bin = NULL;
	bool unoffered = false;
	struct finding *f;

	if (!rule_need_known(c, who, "containerd's default_runtime_name", dname) ||
	    !rule_need_known(c, who, "containerd's default_runtime table", dbin))
		return;
	if (snap_present(dname))
		def = snap_str(dname);
	if (str_has(snap_str(dbin), "nvidia"))
		return;
	for (size_t i = 0; i < snap_count(cruns); i++) {
		const struct snap_node *rt = snap_at(cruns, i);

		if (!cri_runtime_is_nvidia(rt))
			continue;
		if (streq(snap_get_str(rt, "name") ?: "", def))
			return;
		if (!nv) {
			nv = snap_get_str(rt, "name");
			nv_bin = snap_get_str(rt, "binary_name");
		}
	}
	if (!nv)
		return;
	/* containerd merges the files `imports` names over this one; one may set the default
	 * (an import of config.toml itself, as kubeadm-style installs write, adds nothing). */
	for (size_t i = 0; i < snap_count(imports); i++) {
		const char *imp = snap_str(snap_at(imports, i)) ?: "?";

		if (streq(imp, snap_source(snap_at(imports, i)) ?: ""))
			continue;
		rule_skip(c, who,
			  "whether containerd's default runtime is nvidia: config.toml imports %s, "
			  "which gpuenv does not follow",
			  imp);
		return;
	}
	/* kubelet's checkpoint tells whether a device plugin offered the GPUs: if one did, a
	 * RuntimeClass gave its pod the nvidia runtime; if none did, they are not offered. */
	if (snap_present(ckpt)) {
		for (size_t i = 0; i < snap_count(regs); i++)
			if (streq(snap_str(snap_at(regs, i)) ?: "", "nvidia.com/gpu"))
				return;
		unoffered = true;
	}
	f = rule_finding(
		c, unoffered ? GPUENV_SEVERITY_ERROR : GPUENV_SEVERITY_WARNING, who,
		"%s%s%s has the nvidia runtime \"%s\"%s%s%s, but its default "
		"runtime is \"%s\"%s: Kubernetes pods that name no RuntimeClass with handler \"%s\" "
		"run without the GPU, the NVIDIA device plugin's own pod included (\"Failed to "
		"initialize NVML: could not load NVML library\"); `ctr run --gpus` still works. %s",
		k3s ? "the CRI config of K3s's own containerd (" : "containerd's CRI config",
		k3s ? (snap_source(config) ?: "?") : "", k3s ? ")" : "", nv, nv_bin ? " (" : "",
		nv_bin ?: "", nv_bin ? ")" : "", def,
		snap_present(dname) ? "" : " (default_runtime_name not set)", nv,
		unoffered ? "No device plugin has registered nvidia.com/gpu with this node's "
			    "kubelet: Kubernetes is offered none of its GPUs"
			  : "Whether such a RuntimeClass is used cannot be seen from the node");
	snprintf(key, sizeof(key), "%sconfig", pre);
	finding_fact(f, key, config);
	if (unoffered)
		finding_evidence(f, HOST "kubelet.registered_resources", snap_source(ckpt) ?: "?",
				 "%zu resource(s), no nvidia.com/gpu", snap_count(regs));
	snprintf(key, sizeof(key), "%sdefault_runtime_name", pre);
	finding_fact(f, key, dname);
	snprintf(key, sizeof(key), "%sruntimes", pre);
	finding_evidence(f, key, snap_source(config) ?: "/etc/containerd/config.toml",
			 "%zu runtime(s), nvidia: %s", snap_count(cruns), nv);
	if (k3s) {
		k3s_fixes(f, nv);
		return;
	}
	finding_fix(f,
		    "sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default "
		    "&& sudo systemctl restart containerd   # default_runtime_name = \"nvidia\"");
	finding_fix(f,
		    "# or keep runc the default: a RuntimeClass (metadata.name: nvidia, "
		    "handler: %s) and runtimeClassName: nvidia in the device plugin's and "
		    "every GPU pod's spec",
		    nv);
	finding_verify(f,
		       "kubectl logs -n kube-system -l app.kubernetes.io/name=nvidia-device-plugin "
		       "| grep -i nvml; kubectl describe node | grep nvidia.com/gpu");
}

/* The runtime entry of daemon.json that Docker's default-runtime names runs the NVIDIA
 * Container Runtime. */
static bool docker_default_is_nvidia(const struct snap_node *root)
{
	const char *def = snap_get_str(root, HOST "docker.default_runtime");
	const struct snap_node *runs = snap_get(root, HOST "docker.runtimes");

	for (size_t i = 0; def && i < snap_count(runs); i++) {
		const struct snap_node *rt = snap_at(runs, i);

		if (streq(snap_get_str(rt, "name") ?: "", def))
			return str_has(snap_get_str(rt, "path"), "nvidia");
	}
	return false;
}

/* Kubernetes on Docker (dockershim up to Kubernetes 1.23, cri-dockerd after it): kubelet starts
 * every pod, the NVIDIA device plugin's own included, with Docker's default runtime; the
 * toolkit's hook that `docker run --gpus` uses is not asked for by kubelet. The device plugin
 * needs "default-runtime": "nvidia" (its README's prerequisite; NVIDIA/k8s-device-plugin#139:
 * Docker 19.03 with the hook only, `--gpus all` works, the plugin "could not load NVML
 * library"; the maintainer: install nvidia-docker2 and set the runtime to nvidia). Judged only
 * where kubelet's checkpoint shows no plugin registered nvidia.com/gpu and no containerd CRI
 * config offers the nvidia runtime (then kubelet may use containerd: the check above). */
static void check_kubelet_docker_default(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *ckpt = snap_get(root, HOST "kubelet.device_checkpoint");
	const struct snap_node *regs = snap_get(root, HOST "kubelet.registered_resources");
	const struct snap_node *dr = snap_get(root, HOST "docker.default_runtime");
	const struct snap_node *rtbin =
		snap_get(root, HOST "toolkit.binaries.nvidia-container-runtime");
	struct finding *f;

	if (!snap_present(ckpt))
		return;
	for (size_t i = 0; i < snap_count(regs); i++)
		if (streq(snap_str(snap_at(regs, i)) ?: "", "nvidia.com/gpu"))
			return;
	/* Without a daemon.json Docker's default runtime is runc: default_runtime is not read. */
	if (snap_present(snap_get(root, HOST "docker.daemon_json")) &&
	    !rule_need_known(c, "docker", "Docker's default-runtime", dr))
		return;
	if (docker_default_is_nvidia(root))
		return;
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, "kubelet",
		"this is a Kubernetes node (kubelet's device manager checkpoint) on which no device "
		"plugin has registered nvidia.com/gpu, and Docker's default runtime is \"%s\"%s, no "
		"containerd CRI config offers the nvidia runtime: kubelet on Docker starts every pod, "
		"the NVIDIA device plugin's own included, with Docker's default runtime (the hook "
		"that `docker run --gpus` uses is not asked for by kubelet), so the plugin cannot "
		"load NVML (\"could not load NVML library … did you set the docker default runtime "
		"to `nvidia`?\") and Kubernetes is offered none of the GPUs",
		snap_present(dr) ? snap_str(dr) : "runc",
		snap_present(dr) ? "" : " (default-runtime not set or no daemon.json)");
	finding_fact(f, HOST "docker.dockerd", snap_get(root, HOST "docker.dockerd"));
	finding_fact(f, HOST "docker.daemon_json", snap_get(root, HOST "docker.daemon_json"));
	finding_fact(f, HOST "docker.default_runtime", dr);
	finding_evidence(f, HOST "kubelet.registered_resources", snap_source(ckpt) ?: "?",
			 "%zu resource(s), no nvidia.com/gpu", snap_count(regs));
	finding_fact(f, HOST "toolkit.binaries.nvidia-container-runtime", rtbin);
	if (!snap_present(rtbin))
		finding_fix(f, "# install the nvidia runtime, nvidia-container-runtime (in the "
			       "nvidia-docker2 package of the Docker 19.03 days; newer "
			       "nvidia-container-toolkit packages ship it): the hook alone serves "
			       "only `docker run --gpus`");
	finding_fix(f, "sudo nvidia-ctk runtime configure --runtime=docker --set-as-default && "
		       "sudo systemctl restart docker   # or by hand in /etc/docker/daemon.json: "
		       "\"default-runtime\": \"nvidia\" and runtimes.nvidia.path "
		       "/usr/bin/nvidia-container-runtime");
	finding_verify(f,
		       "kubectl get pods -A | grep nvidia-device-plugin; kubectl logs -n "
		       "NAMESPACE POD | grep -i nvml; kubectl describe node | grep nvidia.com/gpu");
}

/* K3s's own containerd (container.host.k3s): with an nvidia runtime, the default-runtime
 * judgment above; with none, no pod can be given the GPU. K3s adds the runtime at start only
 * when it finds nvidia-container-runtime (in /usr/bin or /usr/local/nvidia/toolkit: the
 * maintainer in k3s-io/k3s#4391), so the toolkit is missing or K3s has not been restarted
 * since; an nvidia runtime in /etc/containerd/config.toml is no help to K3s. */
static void check_k3s(struct rule_ctx *c, const struct snap_node *root, bool gpu_host)
{
	const struct snap_node *cfg = snap_get(root, K3S "config");
	const struct snap_node *runs = snap_get(root, K3S "runtimes");
	const struct snap_node *rtbin =
		snap_get(root, HOST "toolkit.binaries.nvidia-container-runtime");
	const struct snap_node *tmpl = snap_get(root, HOST "k3s.config_template");
	bool etc_nv = false, tmpl_there = false;
	struct finding *f;

	if (!snap_get(root, HOST "k3s"))
		return;
	/* no config.toml: K3s has not run its containerd here (or runs with Docker) */
	if (snap_state(cfg) == FACT_ABSENT ||
	    !rule_need(c, "K3s's containerd", "K3s's containerd config.toml", cfg))
		return;
	/* an nvidia runtime there: K3s found nvidia-container-runtime, a GPU host's */
	for (size_t i = 0; i < snap_count(runs); i++)
		if (cri_runtime_is_nvidia(snap_at(runs, i))) {
			check_cri_default_runtime(c, root, true);
			return;
		}
	if (!gpu_host)
		return;
	for (size_t i = 0; i < snap_count(snap_get(root, HOST "containerd.runtimes")); i++)
		etc_nv |= cri_runtime_is_nvidia(
			snap_at(snap_get(root, HOST "containerd.runtimes"), i));
	snap_bool(tmpl, &tmpl_there);
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, "K3s's containerd",
		"K3s runs its own containerd, which reads %s, and that config has no nvidia runtime "
		"(%zu runtime(s)): no pod can be given the GPU. K3s adds the runtime at start only "
		"when it finds nvidia-container-runtime where it looks (/usr/bin and "
		"/usr/local/nvidia/toolkit among them)%s%s",
		snap_source(cfg) ?: "?", snap_count(runs),
		snap_present(rtbin)
			? "; this host has it (the evidence): K3s has not been restarted "
			  "since it was installed, does not look where it is, or "
			  "config.toml.tmpl leaves the runtimes out"
			: ", which is not installed",
		etc_nv ? "; the nvidia runtime in /etc/containerd/config.toml is read by a "
			 "containerd of the system's, never by K3s's"
		       : "");
	finding_fact(f, K3S "config", cfg);
	finding_evidence(f, K3S "runtimes", snap_source(cfg) ?: "?", "%zu runtime(s), no nvidia",
			 snap_count(runs));
	finding_fact(f, HOST "toolkit.binaries.nvidia-container-runtime", rtbin);
	finding_fact(f, HOST "k3s.config_template", tmpl);
	if (etc_nv)
		finding_fact(f, HOST "containerd.config", snap_get(root, HOST "containerd.config"));
	if (!snap_present(rtbin))
		finding_fix(f, "sudo apt-get install -y nvidia-container-toolkit   # NVIDIA's "
			       "repository; dnf/zypper likewise");
	if (tmpl_there)
		finding_fix(f, "# config.toml.tmpl replaces K3s's template: keep K3s's runtimes in "
			       "it ({{ template \"base\" . }}, docs.k3s.io \"Base template\"), or "
			       "remove it");
	finding_fix(f, "sudo systemctl restart k3s   # K3s then adds the nvidia runtime to its "
		       "containerd config (k3s-agent on an agent node)");
	k3s_fixes(f, "nvidia");
}

/* Whether containerd's CRI plugin runs anyone's containers here. Only kubelet (and crictl,
 * its debugging client) speaks CRI; dockerd and nerdctl use containerd's own API, so a Docker
 * host's containerd (Docker CE's containerd.io, whose config.toml disables cri: "this plugin is
 * not very useful if containerd is not running standalone", docker-archive/engine#29) needs no
 * nvidia runtime in its CRI config. Used: kubelet's runtime endpoint names that containerd's
 * socket, or this is a Kubernetes node (kubelet's checkpoint, not K3s's) whose kubelet is given
 * no other endpoint (since Kubernetes 1.24, without dockershim, kubelet's default is
 * containerd's socket), or crictl is set to it; not used: kubelet is given another runtime's
 * endpoint (CRI-O, cri-dockerd, K3s's containerd); otherwise it cannot be told, and `why` says
 * so. */
enum cri_use { CRI_USED, CRI_UNUSED, CRI_UNKNOWN };

/* The socket of the containerd that reads /etc/containerd/config.toml (its default grpc
 * address; /var/run is a link to /run): K3s's (/run/k3s/containerd/containerd.sock), k0s's or
 * MicroK8s' own containerd read other configs. */
#define SYSTEM_CONTAINERD_SOCK "/run/containerd/containerd.sock"

static enum cri_use containerd_cri_used(struct rule_ctx *c, const struct snap_node *root, char *why,
					size_t why_len)
{
	const struct snap_node *kl = snap_get(root, HOST "kubelet");
	const struct snap_node *ep = snap_get(root, HOST "kubelet.runtime_endpoint");
	const struct snap_node *cc = snap_get(root, HOST "crictl.runtime_endpoint");
	const struct snap_node *ckpt = snap_get(root, HOST "kubelet.device_checkpoint");
	bool k3s = snap_get(root, HOST "k3s") != NULL;

	if (snap_present(ep))
		return str_has(snap_str(ep), SYSTEM_CONTAINERD_SOCK) ? CRI_USED : CRI_UNUSED;
	if (ep && !rule_need_known(c, "containerd", "kubelet's container runtime endpoint", ep))
		return CRI_UNKNOWN;
	if ((snap_present(ckpt) && !k3s) ||
	    (snap_present(cc) && str_has(snap_str(cc), SYSTEM_CONTAINERD_SOCK)))
		return CRI_USED;
	/* either could have said so */
	if ((ckpt &&
	     !rule_need_known(c, "containerd", "kubelet's device manager checkpoint", ckpt)) ||
	    (cc && !rule_need_known(c, "containerd", "crictl's runtime endpoint", cc)))
		return CRI_UNKNOWN;
	snprintf(
		why, why_len,
		"whether anything uses containerd's CRI plugin: %s, and no crictl config names "
		"containerd's socket (dockerd and nerdctl use containerd's own API, not CRI; Docker "
		"CE's containerd.io installs containerd for dockerd)",
		k3s ? "this node's kubelet is K3s's, whose containerd reads its own config, judged on its own"
		: !kl ? "no kubelet here (no kubelet binary, no /var/lib/kubelet)"
		: snap_present(snap_get(root, HOST "kubelet.kubelet"))
			? "kubelet is installed but has not run as a node here (no device manager "
			  "checkpoint) and no flag file or config.yaml names its runtime endpoint"
			: "/var/lib/kubelet is there, but no kubelet binary, checkpoint or runtime "
			  "endpoint");
	return CRI_UNKNOWN;
}

RULE_CHECK(check_no_nvidia_runtime)
{
	const struct snap_node *dockerd = snap_get(root, HOST "docker.dockerd");
	const struct snap_node *ctrd = snap_get(root, HOST "containerd.containerd");
	const struct snap_node *druns = snap_get(root, HOST "docker.runtimes");
	const struct snap_node *cruns = snap_get(root, HOST "containerd.runtimes");
	const struct snap_node *dis = snap_get(root, HOST "containerd.disabled_plugins");
	const struct snap_node *hook =
		snap_get(root, HOST "toolkit.binaries.nvidia-container-runtime-hook");
	const struct snap_node *tkh =
		snap_get(root, HOST "toolkit.binaries.nvidia-container-toolkit");
	const struct snap_node *fact;
	const char *drv;
	bool docker = snap_present(dockerd), cri = snap_present(ctrd), docker_ok = false,
	     cri_ok = false, gpu_host;
	size_t specs;
	struct finding *f;

	if (in_container(root))
		return;
	gpu_host = gpus_count(root, gpu_is_nvidia) > 0 ||
		   nvidia_driver(root, &drv, &fact) == DRIVER_LOADED;
	check_k3s(c, root, gpu_host);
	if (!gpu_host)
		return;
	check_docker_snap(c, root);
	/* dockerd or containerd that could not be looked at may be installed. */
	if (fact_is_failure(snap_state(dockerd)))
		rule_need(c, "docker", "dockerd", dockerd);
	if (fact_is_failure(snap_state(ctrd)))
		rule_need(c, "containerd", "containerd", ctrd);
	if (!docker && !cri)
		return;
	/* A config that is there but cannot be read could name a runtime: not judged. */
	if (docker && !rule_need_known(c, "docker", "/etc/docker/daemon.json",
				       snap_get(root, HOST "docker.daemon_json")))
		docker = false;
	if (cri && !rule_need_known(c, "containerd", "/etc/containerd/config.toml",
				    snap_get(root, HOST "containerd.config")))
		cri = false;
	if (!docker && !cri)
		return;
	specs = cdi_spec_count(root);
	/* Docker: the nvidia runtime in daemon.json, CDI, or the prestart hook `--gpus` uses:
	 * dockerd registers its "nvidia" device driver when nvidia-container-runtime-hook is on
	 * its own PATH (moby daemon/nvidia_linux.go, exec.LookPath), which a systemd-started
	 * dockerd takes from the standard directories, not from the user's PATH. */
	docker_ok = docker_has_nvidia(root, HOST "docker.") ||
		    ((hook_in_std_dir(hook) || hook_in_std_dir(tkh)));
	/* containerd's CRI plugin (Kubernetes): an nvidia runtime or CDI. */
	for (size_t i = 0; i < snap_count(dis); i++)
		if (streq(snap_str(snap_at(dis, i)) ?: "", "cri") ||
		    streq(snap_str(snap_at(dis, i)) ?: "",
			  snap_get_str(root, HOST "containerd.cri_plugin") ?: ""))
			cri = false;
	for (size_t i = 0; i < snap_count(cruns); i++)
		cri_ok |= cri_runtime_is_nvidia(snap_at(cruns, i));
	if (cri) {
		char why[512] = "";

		switch (containerd_cri_used(c, root, why, sizeof(why))) {
		case CRI_USED:
			break;
		case CRI_UNKNOWN:
			if (why[0])
				rule_skip(c, "containerd", "%s", why);
			cri = false;
			break;
		case CRI_UNUSED:
			cri = false;
			break;
		}
	}
	if (cri && cri_ok &&
	    !(specs && snap_get_bool_default(root, HOST "containerd.enable_cdi", false)))
		check_cri_default_runtime(c, root, false);
	cri_ok |= specs && snap_get_bool_default(root, HOST "containerd.enable_cdi", false);
	if (docker && docker_ok && !cri)
		check_kubelet_docker_default(c, root);
	if ((!docker || docker_ok) && (!cri || cri_ok))
		return;
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, NULL,
		"%s%s%s on this NVIDIA GPU host, but nothing hands the GPU to containers: "
		"no nvidia runtime%s, no nvidia-container-runtime-hook on dockerd's PATH, no CDI spec in "
		"/etc/cdi or /var/run/cdi%s",
		docker && !docker_ok ? "Docker (" : "",
		docker && !docker_ok ? snap_str(dockerd) : "",
		docker && !docker_ok
			? (cri && !cri_ok ? ") and containerd's CRI plugin are installed"
					  : ") is installed")
			: "containerd with its CRI plugin is installed",
		docker && !docker_ok ? " in /etc/docker/daemon.json" : " in containerd's config",
		docker && !docker_ok ? ": `docker run --gpus all` fails" : "");
	if (docker) {
		finding_fact(f, HOST "docker.dockerd", dockerd);
		finding_fact(f, HOST "docker.daemon_json",
			     snap_get(root, HOST "docker.daemon_json"));
		finding_evidence(f, HOST "docker.runtimes",
				 snap_source(snap_get(root, HOST "docker.daemon_json"))
					 ?: "/etc/docker/daemon.json",
				 "%zu runtime(s)", snap_count(druns));
	}
	if (cri) {
		finding_fact(f, HOST "containerd.config", snap_get(root, HOST "containerd.config"));
		finding_evidence(f, HOST "containerd.runtimes",
				 snap_source(snap_get(root, HOST "containerd.config"))
					 ?: "/etc/containerd/config.toml",
				 "%zu runtime(s)", snap_count(cruns));
	}
	finding_fact(f, HOST "toolkit.binaries.nvidia-container-runtime-hook", hook);
	finding_fact(f, HOST "toolkit.packages.nvidia-container-toolkit",
		     snap_get(root, HOST "toolkit.packages.nvidia-container-toolkit"));
	finding_evidence(f, HOST "cdi_specs", "/etc/cdi, /var/run/cdi", "%zu spec(s)", specs);
	finding_rule_fix(f);
	if (cri && !cri_ok)
		finding_fix(f, "sudo nvidia-ctk runtime configure --runtime=containerd && sudo "
			       "systemctl restart containerd");
	finding_rule_verify(f);
}

/* ---- container.cdi-spec-stale --------------------------------------------------------------- */

/* A spec of the loaded driver's version (or naming none) can still be stale: a file it
 * mounts is gone (NVIDIA/nvidia-container-toolkit#692: the EGL Wayland library
 * libnvidia-egl-wayland.so.1.1.13 replaced by 1.1.16 in a package update), or a device node
 * it names (#885: /dev/dri/renderD129 where the host now has renderD128), and the runtime
 * refuses to start the container. true with *ret the finding, false when nothing is missing
 * or it could not be told (recorded as skipped). */
static bool stale_by_missing_files(struct rule_ctx *c, const struct snap_node *sp, size_t i,
				   const char *path, const char *drv, struct finding **ret)
{
	const struct snap_node *missing = snap_child(sp, "host_paths_missing");
	int64_t mounted = 0;
	char key[96];
	size_t n;

	if (!rule_need(c, path, "the host files the CDI spec names", missing))
		return false;
	n = snap_count(missing);
	if (n == 0) {
		/* nothing gone: without a version the spec names, whether it is the loaded
		 * driver's still cannot be told */
		rule_need(c, path, "the driver version the CDI spec was generated for",
			  snap_child(sp, "driver_version"));
		return false;
	}
	*ret = rule_finding(c, GPUENV_SEVERITY_ERROR, path,
			    "the CDI spec %s names %s, which is not on this host (%zu of %lld "
			    "host file(s) missing; the loaded driver is %s): the container "
			    "runtime refuses to start containers given its devices",
			    path, snap_str(snap_at(missing, 0)) ?: "?", n,
			    snap_get_int(sp, "host_paths", &mounted) ? (long long)mounted : 0LL,
			    drv);
	snprintf(key, sizeof(key), HOST "cdi_specs.%zu.host_paths_missing", i);
	finding_fact(*ret, key, missing);
	return true;
}

RULE_CHECK(check_cdi_spec_stale)
{
	const struct snap_node *specs = snap_get(root, HOST "cdi_specs");
	const struct snap_node *fact;
	const char *drv;

	if (snap_count(specs) == 0 || in_container(root))
		return;
	if (!rule_nvidia_driver(c, root, "the NVIDIA driver version", &drv, &fact))
		return;
	for (size_t i = 0; i < snap_count(specs); i++) {
		const struct snap_node *sp = snap_at(specs, i);
		const char *path = snap_get_str(sp, "path") ?: "?";
		const char *sv = snap_get_str(sp, "driver_version");
		struct finding *f;
		char key[96];

		/* A spec that cannot be read or parsed, or whose kind is not known, could be a
		 * stale NVIDIA one: said as skipped, never passed. */
		if (!rule_need(c, path, "the CDI spec", snap_child(sp, "format")) ||
		    !rule_need(c, path, "the CDI spec's kind", snap_child(sp, "kind")))
			continue;
		if (!streq(snap_get_str(sp, "kind"), "nvidia.com/gpu"))
			continue;
		if (sv && version_cmp_str(sv, drv) != 0) {
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, path,
				"the CDI spec %s was generated for driver %s, the loaded driver is "
				"%s: it mounts libraries that no longer exist, and containers "
				"started with --device nvidia.com/gpu=… fail",
				path, sv, drv);
			snprintf(key, sizeof(key), HOST "cdi_specs.%zu.driver_version", i);
			finding_fact(f, key, snap_child(sp, "driver_version"));
			snprintf(key, sizeof(key), HOST "cdi_specs.%zu.driver_version_source", i);
			finding_fact(f, key, snap_child(sp, "driver_version_source"));
			finding_fact(f, driver_fact_key(root, fact), fact);
		} else if (!stale_by_missing_files(c, sp, i, path, drv, &f)) {
			continue;
		}
		finding_fix(f, "sudo nvidia-ctk cdi generate --output=%s", path);
		finding_fix(f, "# regenerate it after every driver upgrade (the toolkit's "
			       "nvidia-cdi-refresh service does this where installed)");
		finding_rule_verify(f);
	}
}

/* ---- container.cdi-spec-newer-than-engine -------------------------------------------------- */

/* A dpkg version's release ("4.9.3+ds1-1ubuntu0.2", an epoch "N:" first) as MAJOR*1000+MINOR,
 * the encoding of thresholds.tsv's unit release; false where it does not start MAJOR.MINOR. */
static bool dpkg_release(const char *ver, uint64_t *ret)
{
	const char *colon = strchr(ver, ':');
	struct version v;

	if (colon)
		ver = colon + 1;
	if (version_parse_prefix(ver, &v, NULL) < 0 || v.n < 2)
		return false;
	*ret = (uint64_t)v.part[0] * 1000 + v.part[1];
	return true;
}

/* The knowledge base's first podman release that loads a spec of cdiVersion cv: 0 with *t NULL
 * for a version before 0.5.0 (not judged: podman 4.1's CDI library is v0.4.0, and before 4.1
 * podman has no CDI), -ENOENT for one it does not know. */
static int podman_min_for(const char *cv, const struct facts_threshold **t)
{
	struct version v;
	char name[64];

	*t = NULL;
	if (version_parse(cv, &v) < 0)
		return -ENOENT;
	if (version_cmp_str(cv, "0.5.0") < 0)
		return 0;
	snprintf(name, sizeof(name), "podman_cdi_spec_%u_%u_%u", v.part[0], v.n > 1 ? v.part[1] : 0,
		 v.n > 2 ? v.part[2] : 0);
	return facts_threshold(name, t) < 0 || !*t ? -ENOENT : 0;
}

/* podman's CDI library reads a spec strictly: a field of a newer cdiVersion is an error
 * (NVIDIA/nvidia-container-toolkit#1860, podman 4.9.3 and the additionalGids of the cdiVersion
 * 0.7.0 spec toolkit 1.19.1 writes; #1940, the same podman on a DGX Spark). Only podman's
 * release is read (dpkg): Docker and containerd are not judged, and an RPM host is skipped. */
RULE_CHECK(check_cdi_spec_newer_than_engine)
{
	const struct snap_node *specs = snap_get(root, HOST "cdi_specs");
	const struct snap_node *podman = snap_get(root, HOST "engine_packages.podman");
	uint64_t rel;

	if (snap_count(specs) == 0 || in_container(root))
		return;
	if (!rule_need_known(c, NULL, "podman's package version", podman) || !snap_present(podman))
		return;
	if (!dpkg_release(snap_str(podman), &rel)) {
		rule_skip_failed(c, NULL, FACT_MALFORMED,
				 "could not tell which CDI spec versions podman %s loads: not a "
				 "MAJOR.MINOR release",
				 snap_str(podman));
		return;
	}
	for (size_t i = 0; i < snap_count(specs); i++) {
		const struct snap_node *sp = snap_at(specs, i);
		const struct snap_node *cvn = snap_child(sp, "cdi_version");
		const char *path = snap_get_str(sp, "path") ?: "?";
		const char *kind = snap_get_str(sp, "kind");
		const struct facts_threshold *t;
		struct finding *f;
		char key[96];

		if (!rule_need(c, path, "the CDI spec", snap_child(sp, "format")) ||
		    !rule_need_known(c, path, "the CDI spec's cdiVersion", cvn) ||
		    !snap_present(cvn))
			continue;
		if (podman_min_for(snap_str(cvn), &t) < 0) {
			rule_skip(
				c, path,
				"the knowledge base does not say which podman release loads a CDI "
				"spec of cdiVersion %s",
				snap_str(cvn));
			continue;
		}
		if (!t || rel >= t->number)
			continue;
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, path,
			"podman %s cannot load the CDI spec %s: its cdiVersion is %s, which "
			"podman reads from release %s on (an older release's CDI library "
			"refuses the newer fields: \"unknown field\"), so every --device "
			"%s=… is an unresolvable CDI device",
			snap_str(podman), path, snap_str(cvn), t->value, kind ?: "<kind>");
		finding_fact(f, HOST "engine_packages.podman", podman);
		snprintf(key, sizeof(key), HOST "cdi_specs.%zu.cdi_version", i);
		finding_fact(f, key, cvn);
		finding_evidence(f, "facts.thresholds", t->source, "%s = %s", t->name, t->value);
		finding_fix(f,
			    "# podman %s or later loads it (Ubuntu 26.04's podman 5.7.0 does: "
			    "NVIDIA/nvidia-container-toolkit#1940)",
			    t->value);
		/* 1.19.1 made 0.7.0 the default; what an older toolkit writes is established for
		 * that step only */
		if (streq(t->name, "podman_cdi_spec_0_7_0"))
			finding_fix(f,
				    "# or keep this podman and a container toolkit before 1.19.1, "
				    "whose spec it loads (1.18.2: "
				    "NVIDIA/nvidia-container-toolkit#1860)");
		finding_fix(f, "sudo nvidia-ctk cdi generate --output=%s   # after either change",
			    path);
		finding_rule_verify(f);
	}
}

/* ---- container.toolkit-ldconfig-missing ---------------------------------------------------- */

/* The host file config.toml's `ldconfig = "@…"` names is not there while the host has an
 * ldconfig under another name (NVIDIA/nvidia-docker#614: "@/sbin/ldconfig.real" on Debian 9).
 * A tree that shows no usual ldconfig at all is not judged: it says nothing of /sbin. */
RULE_CHECK(check_toolkit_ldconfig_missing)
{
	const struct snap_node *cli = snap_get(root, HOST "toolkit.config.nvidia-container-cli");
	const struct snap_node *on_host = snap_child(cli, "ldconfig_on_host");
	const struct snap_node *found = snap_child(cli, "host_ldconfigs");
	const char *conf = snap_get_str(cli, "ldconfig");
	const char *alt;
	struct finding *f;
	bool there;

	if (!conf || in_container(root))
		return;
	/* absent: the value names no host file (no leading "@/"), nothing to judge */
	if (!rule_need_known(c, conf, "whether the host has the ldconfig config.toml names",
			     on_host) ||
	    !snap_bool(on_host, &there) || there)
		return;
	if (!rule_need_known(c, conf, "which ldconfig the host has", found) ||
	    snap_count(found) == 0)
		return;
	alt = snap_str(snap_at(found, 0));
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, conf,
		"/etc/nvidia-container-runtime/config.toml sets ldconfig = \"%s\", but this "
		"host has no %s (its ldconfig is %s): nvidia-container-cli cannot run it, and "
		"every container given a GPU fails to start with \"ldcache error: open "
		"failed: %s: no such file or directory\"",
		conf, conf + 1, alt, conf + 1);
	finding_fact(f, HOST "toolkit.config.nvidia-container-cli.ldconfig",
		     snap_child(cli, "ldconfig"));
	finding_fact(f, HOST "toolkit.config.nvidia-container-cli.ldconfig_on_host", on_host);
	finding_fact(f, HOST "toolkit.config.nvidia-container-cli.host_ldconfigs", found);
	finding_fix(f,
		    "sudo sed -i 's|^ldconfig = .*|ldconfig = \"@%s\"|' "
		    "/etc/nvidia-container-runtime/config.toml   # the host's own ldconfig",
		    alt);
	finding_rule_verify(f);
}

/* container.image-incomplete: container.image.index in error (probe-image.c), the issues of
 * the layered tree (core/layers.h) as its message: a missing or damaged layer, a cap hit. */
RULE_CHECK(check_image_incomplete)
{
	const struct snap_node *index = snap_get(root, "container.image.index");
	struct finding *f;

	if (!index || snap_state(index) != FACT_ERROR)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "the image read is incomplete: %s; what gpuenv says of it rests on the "
			 "layers it could read",
			 snap_error(index) ?: "a layer could not be read");
	finding_fact(f, "container.image.index", index);
	finding_fact(f, "container.image.layers", snap_get(root, "container.image.layers"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* ---- container.dev-char-links-missing ------------------------------------------------------ */

/* Whether an engine of this host has systemd manage its containers' cgroups: Docker by
 * daemon.json's exec-opts native.cgroupdriver, or, where that is not set, by its default
 * (systemd on a cgroup v2 host, cgroupfs on v1: Docker 20.10's release notes); containerd's
 * CRI runtimes by options.SystemdCgroup. who: the first that does, for the message. */
static enum tri systemd_cgroups(struct rule_ctx *c, const struct snap_node *root, char *who,
				size_t len, char *key, size_t key_len,
				const struct snap_node **fact)
{
	const struct snap_node *dj = snap_get(root, HOST "docker.daemon_json");
	const struct snap_node *drv = snap_get(root, HOST "docker.cgroup_driver");
	const struct snap_node *v2 = snap_get(root, HOST "cgroup_v2");
	const struct snap_node *cruns = snap_get(root, HOST "containerd.runtimes");
	enum tri t = NO;
	bool b;

	if (snap_present(snap_get(root, HOST "docker.dockerd"))) {
		if (snap_present(drv)) {
			if (streq(snap_str(drv), "systemd")) {
				snprintf(who, len, "Docker's cgroup driver is systemd (%s)",
					 snap_source(drv) ?: "daemon.json");
				snprintf(key, key_len, HOST "docker.cgroup_driver");
				*fact = drv;
				return YES;
			}
		} else if (fact_is_failure(snap_state(dj)) || fact_is_failure(snap_state(drv))) {
			rule_need_known(c, "docker", "Docker's cgroup driver", drv ?: dj);
			t = UNKNOWN;
		} else if (snap_bool(v2, &b)) {
			if (b) {
				snprintf(
					who, len,
					"Docker's cgroup driver is systemd (no native.cgroupdriver "
					"set: dockerd's default on this cgroup v2 host)");
				snprintf(key, key_len, HOST "docker.dockerd");
				*fact = snap_get(root, HOST "docker.dockerd");
				return YES;
			}
		} else {
			rule_need_known(c, "docker",
					"the cgroup version (Docker's default cgroup "
					"driver follows it)",
					v2);
			t = UNKNOWN;
		}
	}
	for (size_t i = 0; i < snap_count(cruns); i++) {
		const struct snap_node *rt = snap_at(cruns, i);

		if (snap_get_bool_default(rt, "systemd_cgroup", false)) {
			snprintf(who, len,
				 "containerd's CRI runtime \"%s\" sets SystemdCgroup = true",
				 snap_get_str(rt, "name") ?: "?");
			snprintf(key, key_len, HOST "containerd.runtimes.%zu.systemd_cgroup", i);
			*fact = snap_child(rt, "systemd_cgroup");
			return YES;
		}
	}
	return t;
}

/* runc's systemd cgroup driver hands systemd each device a container may use as the path
 * /dev/char/MAJOR:MINOR and leaves out those missing there; the NVIDIA driver's nodes have no
 * such link unless made, so when systemd reapplies the container's unit (`systemctl
 * daemon-reload`, a package install that runs it) the GPUs go: "Failed to initialize NVML:
 * Unknown Error" in every running GPU container while the host's nvidia-smi works. The cause
 * and the fixes (nvidia-ctk system create-dev-char-symlinks --create-all, the udev rule, or
 * Docker's cgroupfs driver): NVIDIA's notice NVIDIA/nvidia-docker#1730 (= nvidia-container-
 * toolkit#48), opencontainers/runc#3708. Judged only where /dev/char is there to look in. */
RULE_CHECK(check_dev_char_links_missing)
{
	const struct snap_node *missing = snap_get(root, HOST "dev_char_missing");
	const struct snap_node *ctk = snap_get(root, HOST "toolkit.binaries.nvidia-ctk");
	const char *tkv = snap_get_str(root, HOST "toolkit.packages.nvidia-container-toolkit");
	const struct snap_node *by = NULL;
	char who[192], key[96];
	struct finding *f;
	size_t n;

	if (!missing || in_container(root))
		return;
	if (!rule_need(c, NULL, "the /dev/char links of the NVIDIA device nodes", missing))
		return;
	n = snap_count(missing);
	if (n == 0)
		return;
	switch (systemd_cgroups(c, root, who, sizeof(who), key, sizeof(key), &by)) {
	case NO:
		return;
	case UNKNOWN:
		return; /* the engine's fact that could not be had is recorded */
	case YES:
		break;
	}
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, NULL,
		"/dev/char has no link to %zu NVIDIA device node(s) (%s%s), and %s: runc tells "
		"systemd which devices a container may use by their /dev/char/MAJOR:MINOR paths and "
		"leaves these out, so the next `systemctl daemon-reload` takes the GPUs away from "
		"every running GPU container (\"Failed to initialize NVML: Unknown Error\" inside, "
		"while the host's nvidia-smi works)",
		n, snap_str(snap_at(missing, 0)) ?: "?", n > 1 ? ", …" : "", who);
	finding_evidence(f, HOST "dev_char_missing", "/dev/char",
			 "%zu node(s) without a link: %s%s", n,
			 snap_str(snap_at(missing, 0)) ?: "?", n > 1 ? ", …" : "");
	finding_fact(f, key, by);
	if (snap_get(root, HOST "cgroup_v2"))
		finding_fact(f, HOST "cgroup_v2", snap_get(root, HOST "cgroup_v2"));
	finding_fact(f, HOST "toolkit.binaries.nvidia-ctk", ctk);
	/* `nvidia-ctk system create-dev-char-symlinks` came with toolkit 1.12.0 (the maintainer
	 * in NVIDIA/nvidia-docker#1671) */
	if (!snap_present(ctk) || (tkv && version_cmp_str(tkv, "1.12.0") < 0))
		finding_fix(f,
			    "# nvidia-ctk system create-dev-char-symlinks needs the NVIDIA "
			    "Container Toolkit 1.12.0 or newer%s%s%s: install or upgrade "
			    "nvidia-container-toolkit first",
			    tkv ? " (installed: " : "", tkv ?: "", tkv ? ")" : "");
	finding_rule_fix(f);
	finding_rule_verify(f);
}
