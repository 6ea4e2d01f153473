// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the rules of the container layer (src/rules/rules-table-container.inc): every
 * container.* rule fires on a snapshot built in C that shows its problem (positive) and stays quiet
 * on the same snapshot with the problem fixed (negative); unreadable inputs give "skipped" records,
 * never silence. The builders and assertions: rules-test-util.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "locale-fx.h"
#include "rules-test-util.h"

static void test_container_no_devices(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, NULL, "nvidia");
	NO(s, "container.no-gpu-devices"); /* not in a container */
	in_docker(s);
	YES(s, "container.no-gpu-devices", GPUENV_SEVERITY_ERROR, "no /dev/nvidia*");
	driver_loaded(s, "550.54.15");
	NO(s, "container.no-gpu-devices");
	snapshot_unref(s);
	/* No readable bus: the image's request decides. */
	s = base();
	in_docker(s);
	snap_set_errno(node(s, "hardware"), "pci_devices", -ENOENT, "/sys/bus/pci/devices");
	NO(s, "container.no-gpu-devices");
	env(s, "NVIDIA_VISIBLE_DEVICES", "all");
	YES(s, "container.no-gpu-devices", GPUENV_SEVERITY_ERROR, "asks for GPUs");
	snapshot_unref(s);
}

/* NVIDIA/nvidia-docker#1085: /dev/nvidia0 and /dev/nvidiactl passed by hand, /dev/nvidia-uvm
 * forgotten: nvidia-smi works, torch.cuda.is_available() is False. */
static void test_no_uvm_device(void **state)
{
	struct gpuenv_snapshot *s = base();

	in_docker(s);
	driver_loaded(s, "430.50");
	NO(s, "container.no-gpu-devices");
	snap_set_state(node(s, "driver.device_nodes"), "nvidia_uvm", FACT_ABSENT, "/dev/nvidia-uvm",
		       NULL);
	YES(s, "container.no-gpu-devices", GPUENV_SEVERITY_ERROR, "no /dev/nvidia-uvm");
	FIX(s, "container.no-gpu-devices", "--device /dev/nvidia-uvm");
	/* unreadable is no answer: said as a skip */
	snap_set_errno(node(s, "driver.device_nodes"), "nvidia_uvm", -EACCES, "/dev/nvidia-uvm");
	SKIPPED(s, "container.no-gpu-devices");
	snapshot_unref(s);
	/* on the host the node is nvidia-modprobe's to make: driver.device-nodes-missing */
	s = base();
	driver_loaded(s, "430.50");
	snap_set_state(node(s, "driver.device_nodes"), "nvidia_uvm", FACT_ABSENT, "/dev/nvidia-uvm",
		       NULL);
	NO(s, "container.no-gpu-devices");
	snapshot_unref(s);
}

static void test_visible_void(void **state)
{
	struct gpuenv_snapshot *s = base();

	/* base() is a host known to be one (no marker, no engine, no overlay root): there the
	 * variable is only text, which no container runtime reads */
	env(s, "NVIDIA_VISIBLE_DEVICES", "void");
	NO(s, "container.visible-devices-void");
	snap_set_str(node(s, "container"), "root_fs_type", "overlay", "/proc/self/mountinfo");
	YES(s, "container.visible-devices-void", GPUENV_SEVERITY_ERROR, "=void");
	snap_set_str(node(s, "container"), "root_fs_type", "ext4", "/proc/self/mountinfo");
	NO(s, "container.visible-devices-void");
	in_docker(s);
	env(s, "NVIDIA_VISIBLE_DEVICES", "all");
	NO(s, "container.visible-devices-void");
	env(s, "NVIDIA_VISIBLE_DEVICES", "void");
	YES(s, "container.visible-devices-void", GPUENV_SEVERITY_ERROR, "=void");
	env(s, "NVIDIA_VISIBLE_DEVICES", "none");
	YES(s, "container.visible-devices-void", GPUENV_SEVERITY_ERROR, "driver libraries only");
	/* a CDI container: nvidia-ctk's spec sets void and injects /dev/nvidia0 itself */
	env(s, "NVIDIA_VISIBLE_DEVICES", "void");
	driver_loaded(s, "550.54.15");
	NO(s, "container.visible-devices-void");
	snapshot_unref(s);
	/* A CDI container: the spec nvidia-ctk generates sets NVIDIA_VISIBLE_DEVICES=void and
	 * gives the GPU's nodes itself (NVIDIA/nvidia-container-toolkit#395, #1429). */
	s = base();
	gpu(s, NULL, "nvidia");
	in_docker(s);
	env(s, "NVIDIA_VISIBLE_DEVICES", "void");
	YES(s, "container.visible-devices-void", GPUENV_SEVERITY_ERROR, "=void");
	driver_loaded(s, "550.54.15");
	NO(s, "container.visible-devices-void");
	NO(s, "container.no-gpu-devices");
	snapshot_unref(s);
}

static void test_image_cuda(void **state)
{
	struct gpuenv_snapshot *s = base();

	in_docker(s);
	driver_loaded(s, "550.54.15"); /* R550: CUDA 12.4 */
	env(s, "CUDA_VERSION", "12.4.1");
	env(s, "NVIDIA_REQUIRE_CUDA", "cuda>=12.4 brand=tesla,driver>=470,driver<471");
	NO(s, "container.image-cuda-newer-than-driver");
	/* 12.4 image on R535 (CUDA 12.2), from inside the running container: the requirement
	 * is not met (no GPU visible, so brand= holds, but driver<471 does not), the code runs
	 * by minor compat */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "535.183.01", "x");
	YES(s, "container.image-cuda-newer-than-driver", GPUENV_SEVERITY_WARNING,
	    "not satisfied (nvidia-container-cli: unsatisfied condition: cuda>=12.4, please");
	/* the same image judged before it runs (--image): the cli refuses to start it */
	snap_set_str(snap_object(node(s, "container"), "image"), "kind", "docker-save", "x");
	YES(s, "container.image-cuda-newer-than-driver", GPUENV_SEVERITY_ERROR,
	    "refuses to start it (requirement error: unsatisfied condition: cuda>=12.4");
	/* NVIDIA_DISABLE_REQUIRE: no check, the minor-version warning stays */
	env(s, "NVIDIA_DISABLE_REQUIRE", "true");
	YES(s, "container.image-cuda-newer-than-driver", GPUENV_SEVERITY_WARNING,
	    "minor-version compatibility");
	env(s, "NVIDIA_DISABLE_REQUIRE", "no");
	YES(s, "container.image-cuda-newer-than-driver", GPUENV_SEVERITY_ERROR, "refuses");
	/* a requirement met on R535's branch range: no refusal */
	env(s, "NVIDIA_REQUIRE_CUDA", "cuda>=12.4 brand=tesla,driver>=535,driver<536");
	YES(s, "container.image-cuda-newer-than-driver", GPUENV_SEVERITY_WARNING,
	    "minor-version compatibility");
	snap_set_state(snap_object(node(s, "container"), "image"), "kind", FACT_ABSENT, "x", NULL);
	/* 12.4 image on R470 (CUDA 11.4): nothing runs it. */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "470.256.02", "x");
	env(s, "NVIDIA_REQUIRE_CUDA", "cuda>=12.4");
	YES(s, "container.image-cuda-newer-than-driver", GPUENV_SEVERITY_ERROR,
	    "unsatisfied condition: cuda>=12.4");
	/* A branch newer than the knowledge base (R625): R615's CUDA 13.4 is a lower bound, so a
	 * 12.4 image runs (judged, not skipped); a 13.9 one could not be told (skipped). */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "625.18.03", "x");
	NO(s, "container.image-cuda-newer-than-driver");
	env(s, "CUDA_VERSION", "13.9.0");
	env(s, "NVIDIA_REQUIRE_CUDA", "cuda>=13.9");
	SKIPPED(s, "container.image-cuda-newer-than-driver");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_non_null(strstr(skip_of(d, "container.image-cuda-newer-than-driver")->reason,
				       "R615's 13.4 is a lower bound"));
		diagnosis_free(d);
	}
	/* No host driver visible: skipped with the reason. */
	snap_set_errno(node(s, "driver.nvidia"), "module_version", -ENOENT,
		       "/sys/module/nvidia/version");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_int_equal(count(d, "container.image-cuda-newer-than-driver"), 0);
		assert_non_null(skip_of(d, "container.image-cuda-newer-than-driver"));
		assert_non_null(strstr(skip_of(d, "container.image-cuda-newer-than-driver")->reason,
				       "host driver"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

/* No PCI bus read, so no GPU listed: the brand= and arch= terms that would hold with no GPU
 * visible are "could not tell", never a pass. */
static void test_image_brand_unseen_gpu(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;

	in_docker(s);
	driver_loaded(s, "535.183.01"); /* R535: CUDA 12.2 */
	env(s, "CUDA_VERSION", "12.2.2");
	snap_set_errno(node(s, "hardware"), "pci_devices", -EACCES, "/sys/bus/pci/devices");
	env(s, "NVIDIA_REQUIRE_CUDA", "cuda>=12.2");
	NO(s, "container.image-cuda-newer-than-driver"); /* no brand= or arch= term */
	for (size_t i = 0; i < 2; i++) {
		env(s, "NVIDIA_REQUIRE_CUDA",
		    i ? "cuda>=12.2,arch>=8.0" : "cuda>=12.2,brand=tesla");
		SKIPPED(s, "container.image-cuda-newer-than-driver");
		d = diag(s);
		assert_non_null(strstr(skip_of(d, "container.image-cuda-newer-than-driver")->reason,
				       i ? "tests arch=, and the PCI bus could not be read: "
					   "whether a GPU is visible, and its compute capability"
					 : "tests brand=, and the PCI bus could not be read"));
		diagnosis_free(d);
	}
	/* a newer image that only brand=tesla's alternative admits: the warning says so */
	env(s, "CUDA_VERSION", "12.4.1");
	env(s, "NVIDIA_REQUIRE_CUDA", "cuda>=12.4 brand=tesla,driver>=535,driver<536");
	YES(s, "container.image-cuda-newer-than-driver", GPUENV_SEVERITY_WARNING,
	    "limited features and no PTX JIT; NVIDIA_REQUIRE_CUDA tests brand=, and the PCI bus");
	/* the bus read and no GPU on it: no device visible, the terms hold (the cli's rule) */
	snap_set_int(node(s, "hardware"), "pci_devices", 12, "/sys/bus/pci/devices");
	env(s, "CUDA_VERSION", "12.2.2");
	env(s, "NVIDIA_REQUIRE_CUDA", "cuda>=12.2,brand=tesla");
	NO(s, "container.image-cuda-newer-than-driver");
	snapshot_unref(s);
}

static void docker_host(struct gpuenv_snapshot *s, bool nvidia_runtime)
{
	struct snap_node *h = snap_object(node(s, "container"), "host");
	struct snap_node *d = snap_object(h, "docker"), *r;

	snap_set_str(d, "dockerd", "/usr/bin/dockerd", "/usr/bin/dockerd");
	snap_set_str(d, "daemon_json", "/etc/docker/daemon.json", "/etc/docker/daemon.json");
	r = snap_array(d, "runtimes");
	if (nvidia_runtime) {
		r = snap_append_object(r);
		snap_set_str(r, "name", "nvidia", "/etc/docker/daemon.json");
		snap_set_str(r, "path", "nvidia-container-runtime", "/etc/docker/daemon.json");
	}
	snap_set_errno(snap_object(snap_object(h, "toolkit"), "binaries"),
		       "nvidia-container-runtime-hook", -ENOENT, "PATH");
	snap_set_errno(snap_object(h, "containerd"), "containerd", -ENOENT, "PATH");
}

static void test_no_nvidia_runtime(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "550.54.15");
	docker_host(s, true);
	NO(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
	s = base();
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "550.54.15");
	docker_host(s, false);
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR, "docker run --gpus all");
	/* The hook on the user's PATH only: not on systemd-started dockerd's PATH. */
	snap_set_str(node(s, "container.host.toolkit.binaries"), "nvidia-container-runtime-hook",
		     "/home/user/bin/nvidia-container-runtime-hook", "x");
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR, "dockerd's PATH");
	/* In /usr/bin: dockerd registers its nvidia device driver for --gpus. */
	snap_set_str(node(s, "container.host.toolkit.binaries"), "nvidia-container-runtime-hook",
		     "/usr/bin/nvidia-container-runtime-hook", "x");
	NO(s, "container.no-nvidia-runtime");
	/* daemon.json unreadable: cannot tell, skipped. */
	snap_set_malformed(node(s, "container.host.docker"), "daemon_json", "{,", "not JSON",
			   "/etc/docker/daemon.json");
	SKIPPED(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
}

/* Docker as a snap: the host's hook is no proof; only the snap's daemon.json counts. */
static void test_no_nvidia_runtime_snap(void **state)
{
	static const char dj[] = "/var/snap/docker/2904/config/daemon.json";
	struct gpuenv_snapshot *s = base();
	struct snap_node *h, *ds, *r;

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "550.54.15");
	h = snap_object(node(s, "container"), "host");
	snap_set_errno(snap_object(h, "docker"), "dockerd", -ENOENT, "PATH");
	snap_set_errno(snap_object(h, "containerd"), "containerd", -ENOENT, "PATH");
	snap_set_str(snap_object(snap_object(h, "toolkit"), "binaries"),
		     "nvidia-container-runtime-hook", "/usr/bin/nvidia-container-runtime-hook",
		     "/usr/bin/nvidia-container-runtime-hook");
	ds = snap_object(h, "docker_snap");
	snap_set_state(ds, "docker", FACT_ABSENT, "/snap/bin/docker", NULL);
	NO(s, "container.no-nvidia-runtime");
	snap_set_str(ds, "docker", "/snap/bin/docker", "/snap/bin/docker");
	snap_set_str(ds, "daemon_json", dj, dj);
	snap_array(ds, "runtimes");
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR,
	    "does not see the host's nvidia-container-runtime-hook (installed here");
	r = snap_append_object(snap_array(ds, "runtimes"));
	snap_set_str(r, "name", "nvidia", dj);
	snap_set_str(r, "path", "/snap/docker/2904/usr/bin/nvidia-container-runtime", dj);
	NO(s, "container.no-nvidia-runtime");
	snap_set_errno(ds, "daemon_json", -EACCES, dj);
	SKIPPED(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
}

/* Kubernetes on containerd: the nvidia runtime configured but not the default
 * (NVIDIA/k8s-device-plugin#314, #1246) is a warning; as the default, or with no nvidia runtime
 * (the error above), not. */
static void test_cri_nvidia_not_default(void **state)
{
	static const char cfg[] = "/etc/containerd/config.toml";
	static const char ckpt[] = "/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint";
	struct gpuenv_snapshot *s = base();
	struct snap_node *h, *cd, *r, *kl;

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "570.124.06");
	h = snap_object(node(s, "container"), "host");
	snap_set_errno(snap_object(h, "docker"), "dockerd", -ENOENT, "PATH");
	snap_set_errno(snap_object(snap_object(h, "toolkit"), "binaries"),
		       "nvidia-container-runtime-hook", -ENOENT, "PATH");
	cd = snap_object(h, "containerd");
	snap_set_str(cd, "containerd", "/usr/bin/containerd", "/usr/bin/containerd");
	snap_set_str(cd, "config", cfg, cfg);
	snap_set_str(cd, "cri_plugin", "io.containerd.cri.v1.runtime", cfg);
	snap_set_str(cd, "default_runtime_name", "runc", cfg);
	snap_set_state(cd, "default_runtime_binary", FACT_ABSENT, cfg, NULL);
	r = snap_append_object(snap_array(cd, "runtimes"));
	snap_set_str(r, "name", "runc", cfg);
	r = snap_append_object(snap_array(cd, "runtimes"));
	snap_set_str(r, "name", "nvidia", cfg);
	snap_set_str(r, "binary_name", "/usr/bin/nvidia-container-runtime", cfg);
	/* nothing shows that kubelet uses this containerd: not judged */
	SKIPPED(s, "container.no-nvidia-runtime");
	kl = snap_object(h, "kubelet");
	snap_set_str(kl, "runtime_endpoint", "unix:///var/run/containerd/containerd.sock",
		     "/var/lib/kubelet/kubeadm-flags.env");
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_WARNING,
	    "its default runtime is \"runc\"");
	/* Unset: containerd's own default, runc. */
	snap_set_state(cd, "default_runtime_name", FACT_ABSENT, cfg, NULL);
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_WARNING,
	    "(default_runtime_name not set)");
	/* The deprecated default_runtime table running the NVIDIA runtime. */
	snap_set_str(cd, "default_runtime_binary", "/usr/bin/nvidia-container-runtime", cfg);
	NO(s, "container.no-nvidia-runtime");
	snap_set_state(cd, "default_runtime_binary", FACT_ABSENT, cfg, NULL);
	snap_set_malformed(cd, "default_runtime_name", NULL, cfg, "expected string, got integer");
	SKIPPED(s, "container.no-nvidia-runtime");
	/* The fix: nvidia-ctk runtime configure --set-as-default. */
	snap_set_str(cd, "default_runtime_name", "nvidia", cfg);
	NO(s, "container.no-nvidia-runtime");
	snap_set_str(cd, "default_runtime_name", "runc", cfg);
	/* kubelet's checkpoint without nvidia.com/gpu: no plugin offered the GPUs, an error. */
	snap_set_str(kl, "device_checkpoint", ckpt, ckpt);
	snap_array(kl, "registered_resources");
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR,
	    "Kubernetes is offered none of its GPUs");
	/* With it: a RuntimeClass gave the device plugin's pod the nvidia runtime. */
	snap_append_str(snap_array(kl, "registered_resources"), "nvidia.com/gpu", ckpt);
	NO(s, "container.no-nvidia-runtime");
	snap_set_errno(kl, "device_checkpoint", -EACCES, ckpt);
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_WARNING,
	    "cannot be seen from the node");
	/* An imported file may set the default: not judged. */
	snap_set_str(cd, "default_runtime_name", "runc", cfg);
	snap_append_str(snap_array(cd, "imports"), "/etc/containerd/conf.d/*.toml", cfg);
	SKIPPED(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
}

/* containerd's CRI config is judged only where something uses CRI: a Docker host's containerd
 * (Docker CE's containerd.io) with no config.toml, or one that leaves cri enabled, serves
 * dockerd over containerd's own API; kubelet's runtime endpoint, a node's checkpoint or
 * crictl's config naming containerd's socket make it Kubernetes' (docker-archive/engine#29,
 * kubernetes/website#33851). */
static void test_containerd_cri_used(void **state)
{
	static const char cfg[] = "/etc/containerd/config.toml";
	static const char flags[] = "/var/lib/kubelet/kubeadm-flags.env";
	struct gpuenv_snapshot *s = base();
	struct snap_node *h, *cd, *kl;

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "550.54.15");
	docker_host(s, true);
	h = snap_object(node(s, "container"), "host");
	cd = snap_object(h, "containerd");
	snap_set_str(cd, "containerd", "/usr/bin/containerd", "/usr/bin/containerd");
	/* no config.toml: containerd's built-in defaults, cri enabled, no nvidia runtime */
	snap_set_errno(cd, "config", -ENOENT, cfg);
	SKIPPED(s, "container.no-nvidia-runtime");
	/* kubelet told to use containerd: pods get no GPU */
	kl = snap_object(h, "kubelet");
	snap_set_str(kl, "runtime_endpoint", "unix:///var/run/containerd/containerd.sock", flags);
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR,
	    "containerd with its CRI plugin is installed");
	/* kubelet on cri-dockerd: Docker's side, which has the nvidia runtime */
	snap_set_str(kl, "runtime_endpoint", "unix:///var/run/cri-dockerd.sock", flags);
	NO(s, "container.no-nvidia-runtime");
	/* its flag file unreadable: not judged */
	snap_set_errno(kl, "runtime_endpoint", -EACCES, flags);
	SKIPPED(s, "container.no-nvidia-runtime");
	/* a node (kubelet's checkpoint) given no other endpoint: containerd's */
	snap_set_state(kl, "runtime_endpoint", FACT_ABSENT, "/var/lib/kubelet", NULL);
	snap_set_str(kl, "device_checkpoint",
		     "/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint", "x");
	snap_array(kl, "registered_resources");
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR,
	    "containerd with its CRI plugin is installed");
	/* a K3s node's checkpoint: its kubelet uses K3s's own containerd */
	snap_set_str(snap_object(h, "k3s"), "k3s", "/usr/local/bin/k3s", "/usr/local/bin/k3s");
	snap_set_state(snap_object(snap_object(h, "k3s"), "containerd"), "config", FACT_ABSENT,
		       "/var/lib/rancher/k3s/agent/etc/containerd/config.toml", NULL);
	SKIPPED(s, "container.no-nvidia-runtime");
	snap_set_str(kl, "runtime_endpoint", "unix:///run/k3s/containerd/containerd.sock", flags);
	snap_append_str(snap_array(kl, "registered_resources"), "nvidia.com/gpu", "x");
	NO(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
	/* crictl set to containerd's socket, no kubelet */
	s = base();
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "550.54.15");
	docker_host(s, true);
	h = snap_object(node(s, "container"), "host");
	cd = snap_object(h, "containerd");
	snap_set_str(cd, "containerd", "/usr/bin/containerd", "/usr/bin/containerd");
	snap_set_errno(cd, "config", -ENOENT, cfg);
	snap_set_str(snap_object(h, "crictl"), "runtime_endpoint",
		     "unix:///run/containerd/containerd.sock", "/etc/crictl.yaml");
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR,
	    "containerd with its CRI plugin is installed");
	/* crictl.yaml unreadable: could have named it */
	snap_set_errno(snap_object(h, "crictl"), "runtime_endpoint", -EACCES, "/etc/crictl.yaml");
	SKIPPED(s, "container.no-nvidia-runtime");
	/* crictl set to another runtime: nothing says CRI is containerd's */
	snap_set_str(snap_object(h, "crictl"), "runtime_endpoint", "unix:///run/crio/crio.sock",
		     "/etc/crictl.yaml");
	SKIPPED(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
}

/* Kubernetes on Docker: kubelet starts pods with Docker's default runtime, so the hook that
 * serves `docker run --gpus` does not reach the device plugin's pod
 * (NVIDIA/k8s-device-plugin#139); judged only where kubelet's checkpoint shows no
 * nvidia.com/gpu. */
static void test_kubelet_docker_default_runtime(void **state)
{
	static const char ckpt[] = "/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint";
	static const char dj[] = "/etc/docker/daemon.json";
	struct gpuenv_snapshot *s = base();
	struct snap_node *h, *d, *kl, *r;

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "418.87.01");
	docker_host(s, false);
	h = snap_object(node(s, "container"), "host");
	d = snap_object(h, "docker");
	/* no daemon.json: the probe records no default_runtime (Docker's is runc) */
	snap_set_state(d, "daemon_json", FACT_ABSENT, dj, NULL);
	/* The hook in /usr/bin: `docker run --gpus` works; no kubelet: nothing to say. */
	snap_set_str(node(s, "container.host.toolkit.binaries"), "nvidia-container-toolkit",
		     "/usr/bin/nvidia-container-toolkit", "x");
	NO(s, "container.no-nvidia-runtime");
	/* kubelet with no device plugin registered: Docker's default runtime (runc) serves the
	 * plugin's pod. */
	kl = snap_object(h, "kubelet");
	snap_set_str(kl, "device_checkpoint", ckpt, ckpt);
	snap_array(kl, "registered_resources");
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR,
	    "Docker's default runtime is \"runc\" (default-runtime not set or no "
	    "daemon.json)");
	/* The nvidia runtime configured but not the default: the same. */
	snap_set_str(d, "daemon_json", dj, dj);
	r = snap_append_object(snap_array(d, "runtimes"));
	snap_set_str(r, "name", "nvidia", dj);
	snap_set_str(r, "path", "/usr/bin/nvidia-container-runtime", dj);
	snap_set_str(d, "default_runtime", "runc", dj);
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR,
	    "Docker's default runtime is \"runc\", no");
	/* A device plugin registered the GPUs (a RuntimeClass, or another runtime): offered. */
	snap_append_str(snap_array(kl, "registered_resources"), "nvidia.com/gpu", ckpt);
	NO(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
	s = base();
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "418.87.01");
	docker_host(s, true);
	h = snap_object(node(s, "container"), "host");
	d = snap_object(h, "docker");
	kl = snap_object(h, "kubelet");
	snap_set_str(kl, "device_checkpoint", ckpt, ckpt);
	snap_array(kl, "registered_resources");
	snap_set_str(d, "default_runtime", "runc", dj);
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR, "Kubernetes is offered none");
	/* The fix: nvidia as Docker's default runtime. */
	snap_set_str(d, "default_runtime", "nvidia", dj);
	NO(s, "container.no-nvidia-runtime");
	/* default-runtime unreadable: not judged. */
	snap_set_malformed(d, "default_runtime", NULL, dj, "not a string");
	SKIPPED(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
}

static void test_cdi_stale(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *sp = snap_append_object(
		snap_array(snap_object(node(s, "container"), "host"), "cdi_specs"));

	driver_loaded(s, "550.54.15");
	snap_set_str(sp, "path", "/etc/cdi/nvidia.yaml", "/etc/cdi/nvidia.yaml");
	snap_set_str(sp, "format", "yaml", "/etc/cdi/nvidia.yaml");
	snap_set_str(sp, "kind", "nvidia.com/gpu", "/etc/cdi/nvidia.yaml");
	snap_set_str(sp, "driver_version", "550.54.15", "/etc/cdi/nvidia.yaml");
	/* the loaded driver's spec: whether a file it mounts is gone not yet looked at */
	SKIPPED(s, "container.cdi-spec-stale");
	snap_array(sp, "host_paths_missing");
	NO(s, "container.cdi-spec-stale");
	snap_append_str((struct snap_node *)snap_child(sp, "host_paths_missing"),
			"/usr/lib/libnvidia-egl-wayland.so.1.1.13", "/etc/cdi/nvidia.yaml");
	YES(s, "container.cdi-spec-stale", GPUENV_SEVERITY_ERROR,
	    "libnvidia-egl-wayland.so.1.1.13");
	snap_set_str(sp, "driver_version", "535.104.05", "/etc/cdi/nvidia.yaml");
	YES(s, "container.cdi-spec-stale", GPUENV_SEVERITY_ERROR, "535.104.05");
	snapshot_unref(s);
}

/* podman before 5.1 cannot load a cdiVersion 0.7.0 spec (NVIDIA/nvidia-container-toolkit#1860:
 * 4.9.3 and toolkit 1.19.1's additionalGids); 5.1 on loads it; a version the knowledge base
 * does not know, podman's version unreadable or not MAJOR.MINOR: skipped, never passed. */
static void test_cdi_newer_than_engine(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *host = snap_object(node(s, "container"), "host");
	struct snap_node *sp = snap_append_object(snap_array(host, "cdi_specs"));
	struct snap_node *pk = snap_object(host, "engine_packages");
	const char *path = "/etc/cdi/nvidia.yaml", *dpkg = "/var/lib/dpkg/status";

	snap_set_str(sp, "path", path, path);
	snap_set_str(sp, "format", "yaml", path);
	snap_set_str(sp, "kind", "nvidia.com/gpu", path);
	snap_set_str(sp, "cdi_version", "0.7.0", path);
	snap_set_state(pk, "podman", FACT_UNSUPPORTED, dpkg, "no dpkg status"); /* an RPM host */
	SKIPPED(s, "container.cdi-spec-newer-than-engine");
	snap_set_errno(pk, "podman", -EACCES, dpkg);
	SKIPPED(s, "container.cdi-spec-newer-than-engine");
	snap_set_state(pk, "podman", FACT_ABSENT, dpkg, "not installed");
	NO(s, "container.cdi-spec-newer-than-engine");
	snap_set_str(pk, "podman", "4.9.3+ds1-1ubuntu0.2", dpkg);
	YES(s, "container.cdi-spec-newer-than-engine", GPUENV_SEVERITY_ERROR,
	    "podman 4.9.3+ds1-1ubuntu0.2 cannot load the CDI spec /etc/cdi/nvidia.yaml: its "
	    "cdiVersion is 0.7.0, which podman reads from release 5.1 on");
	snap_set_str(pk, "podman", "5.0.3+ds1-1", dpkg);
	YES(s, "container.cdi-spec-newer-than-engine", GPUENV_SEVERITY_ERROR, "5.1");
	snap_set_str(pk, "podman", "5.1.0", dpkg);
	NO(s, "container.cdi-spec-newer-than-engine");
	snap_set_str(sp, "cdi_version", "1.0.0", path);
	YES(s, "container.cdi-spec-newer-than-engine", GPUENV_SEVERITY_ERROR, "release 5.5 on");
	snap_set_str(pk, "podman", "1:5.7.0+ds2-1", dpkg); /* an epoch first */
	NO(s, "container.cdi-spec-newer-than-engine");
	snap_set_str(sp, "cdi_version", "0.6.0", path);
	snap_set_str(pk, "podman", "4.9.3+ds1-1ubuntu0.2", dpkg);
	NO(s, "container.cdi-spec-newer-than-engine");
	snap_set_str(pk, "podman", "4.3.1+ds1-8+deb12u1", dpkg); /* Debian 12's */
	YES(s, "container.cdi-spec-newer-than-engine", GPUENV_SEVERITY_ERROR, "release 4.7 on");
	snap_set_str(sp, "cdi_version", "0.3.0", path); /* before 0.5.0: not judged */
	NO(s, "container.cdi-spec-newer-than-engine");
	snap_set_str(sp, "cdi_version", "9.9.0", path); /* no row: not known */
	SKIPPED(s, "container.cdi-spec-newer-than-engine");
	snap_set_str(sp, "cdi_version", "0.7.0", path);
	snap_set_str(pk, "podman", "git-master", dpkg);
	SKIPPED(s, "container.cdi-spec-newer-than-engine");
	snapshot_unref(s);
}

/* A CDI spec that cannot be judged (unreadable, empty or malformed, no kind, no versioned
 * library) is a skip record for that spec and leaves the container layer incomplete, never a
 * silent pass (issue 13.4). */
static void test_cdi_unjudged(void **state)
{
	static const struct {
		enum fact_state st;
		const char *key, *error, *reason;
		bool incomplete;
	} cases[] = {
		{ FACT_UNREADABLE, "format", "Permission denied", "unreadable: Permission denied",
		  true },
		{ FACT_MALFORMED, "format", "empty document", "malformed: empty document", true },
		{ FACT_MALFORMED, "format", "did not find expected key",
		  "malformed: did not find expected key", true },
		{ FACT_ABSENT, "kind", "no kind", "absent: no kind", false },
		{ FACT_ABSENT, "driver_version", "no versioned driver library",
		  "absent: no versioned driver library", false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct gpuenv_snapshot *s = base();
		struct snap_node *sp = snap_append_object(
			snap_array(snap_object(node(s, "container"), "host"), "cdi_specs"));
		const struct rule_skip *k;
		struct gpuenv_doctor *d;

		driver_loaded(s, "550.54.15");
		snap_set_str(sp, "path", "/etc/cdi/nvidia.yaml", "/etc/cdi/nvidia.yaml");
		snap_set_str(sp, "format", "yaml", "/etc/cdi/nvidia.yaml");
		snap_set_str(sp, "kind", "nvidia.com/gpu", "/etc/cdi/nvidia.yaml");
		snap_array(sp, "host_paths_missing"); /* none of its files gone */
		snap_set_state(sp, cases[i].key, cases[i].st, "/etc/cdi/nvidia.yaml",
			       cases[i].error);
		d = diag(s);
		k = skip_of(d, "container.cdi-spec-stale");
		assert_non_null(k);
		assert_string_equal(k->subject, "/etc/cdi/nvidia.yaml");
		if (!strstr(k->reason, cases[i].reason))
			fail_msg("case %zu: reason \"%s\" lacks \"%s\"", i, k->reason,
				 cases[i].reason);
		assert_int_equal(count(d, "container.cdi-spec-stale"), 0);
		assert_int_equal(d->status[GPUENV_LAYER_CONTAINER] == LAYER_INCOMPLETE,
				 cases[i].incomplete);
		diagnosis_free(d);
		snapshot_unref(s);
	}
}

/* A cgroup v2 pod without /.dockerenv: the nested cgroup or containerd's overlay makes it a
 * container (no-gpu-devices judges it); an overlay of no known engine is "could not tell"
 * (void is then judged, never "known host"); neither sign: a host. */
static void test_container_cgroup_v2(void **state)
{
	struct gpuenv_snapshot *s = base();

	(void)state;
	gpu(s, NULL, "nvidia");
	snap_set_str(node(s, "container"), "root_fs_type", "ext4", "/proc/self/mountinfo");
	snap_set_state(node(s, "container"), "cgroup_nested", FACT_ABSENT,
		       "/sys/fs/cgroup/cgroup.type", NULL);
	NO(s, "container.no-gpu-devices");
	env(s, "NVIDIA_VISIBLE_DEVICES", "void");
	NO(s, "container.visible-devices-void");
	snap_set_bool(node(s, "container"), "cgroup_nested", true, "/sys/fs/cgroup/cgroup.type");
	YES(s, "container.visible-devices-void", GPUENV_SEVERITY_ERROR, "=void");
	env(s, "NVIDIA_VISIBLE_DEVICES", "all");
	YES(s, "container.no-gpu-devices", GPUENV_SEVERITY_ERROR,
	    "unknown engine (cgroup namespace)");
	snap_set_state(node(s, "container"), "cgroup_nested", FACT_ABSENT,
		       "/sys/fs/cgroup/cgroup.type", NULL);
	snap_set_str(node(s, "container"), "root_fs_type", "overlay", "/proc/self/mountinfo");
	snap_set_str(node(s, "container"), "overlay_engine", "containerd", "/proc/self/mountinfo");
	YES(s, "container.no-gpu-devices", GPUENV_SEVERITY_ERROR, "in a container (containerd)");
	snap_set_state(node(s, "container"), "overlay_engine", FACT_ABSENT, "/proc/self/mountinfo",
		       NULL);
	NO(s, "container.no-gpu-devices"); /* overlay of no known engine: not known a container */
	env(s, "NVIDIA_VISIBLE_DEVICES", "void");
	YES(s, "container.visible-devices-void", GPUENV_SEVERITY_ERROR, "=void");
	snapshot_unref(s);
	/* the mount table or cgroup.type unreadable: no marker file is then no proof of a host */
	s = base();
	env(s, "NVIDIA_VISIBLE_DEVICES", "void");
	snap_set_str(node(s, "container"), "root_fs_type", "ext4", "/proc/self/mountinfo");
	NO(s, "container.visible-devices-void");
	snap_set_errno(node(s, "container"), "root_fs_type", -EACCES, "/proc/self/mountinfo");
	YES(s, "container.visible-devices-void", GPUENV_SEVERITY_ERROR, "=void");
	snap_set_str(node(s, "container"), "root_fs_type", "ext4", "/proc/self/mountinfo");
	snap_set_errno(node(s, "container"), "cgroup_nested", -EACCES,
		       "/sys/fs/cgroup/cgroup.type");
	YES(s, "container.visible-devices-void", GPUENV_SEVERITY_ERROR, "=void");
	snapshot_unref(s);
}

/* NVIDIA nodes without /dev/char links matter only where systemd manages the containers'
 * cgroups: Docker's systemd driver (set, or its default on cgroup v2), containerd's
 * SystemdCgroup; cgroupfs or cgroup v1 without a setting is quiet; /dev/char unreadable and a
 * daemon.json that cannot be read give skip records, never silence. */
static void test_dev_char_links(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *host = snap_object(node(s, "container"), "host");
	struct snap_node *dk = snap_object(host, "docker");
	struct snap_node *miss = snap_array(host, "dev_char_missing");
	struct snap_node *rt;

	driver_loaded(s, "510.68.02");
	snap_set_str(dk, "dockerd", "/usr/bin/dockerd", "PATH");
	snap_set_state(dk, "daemon_json", FACT_ABSENT, "/etc/docker/daemon.json", "no file");
	snap_set_bool(host, "cgroup_v2", true, "/sys/fs/cgroup/cgroup.controllers");
	/* every node linked */
	NO(s, "container.dev-char-links-missing");
	snap_append_str(miss, "/dev/nvidia0", "/dev/char/195:0");
	YES(s, "container.dev-char-links-missing", GPUENV_SEVERITY_ERROR, "cgroup v2 host");
	/* cgroup v1 and no cgroup driver set: cgroupfs, quiet */
	snap_set_bool(host, "cgroup_v2", false, "/sys/fs/cgroup/cgroup.controllers");
	NO(s, "container.dev-char-links-missing");
	/* set to systemd in daemon.json */
	snap_set_str(dk, "daemon_json", "/etc/docker/daemon.json", "/etc/docker/daemon.json");
	snap_set_str(dk, "cgroup_driver", "systemd", "/etc/docker/daemon.json");
	YES(s, "container.dev-char-links-missing", GPUENV_SEVERITY_ERROR, "daemon.json");
	snap_set_str(dk, "cgroup_driver", "cgroupfs", "/etc/docker/daemon.json");
	NO(s, "container.dev-char-links-missing");
	/* containerd's runc with SystemdCgroup */
	rt = snap_append_object(snap_array(snap_object(host, "containerd"), "runtimes"));
	snap_set_str(rt, "name", "nvidia", "/etc/containerd/config.toml");
	snap_set_bool(rt, "systemd_cgroup", true, "/etc/containerd/config.toml");
	YES(s, "container.dev-char-links-missing", GPUENV_SEVERITY_ERROR, "SystemdCgroup");
	snap_set_bool(rt, "systemd_cgroup", false, "/etc/containerd/config.toml");
	NO(s, "container.dev-char-links-missing");
	/* Docker's cgroup driver unreadable: could not tell */
	snap_set_errno(dk, "daemon_json", -EACCES, "/etc/docker/daemon.json");
	snap_set_errno(dk, "cgroup_driver", -EACCES, "/etc/docker/daemon.json");
	SKIPPED(s, "container.dev-char-links-missing");
	/* /dev/char that could not be looked in */
	snap_set_errno(host, "dev_char_missing", -EACCES, "/dev/char");
	SKIPPED(s, "container.dev-char-links-missing");
	snapshot_unref(s);
}

/* A rootless engine (a user namespace, rootless Docker's socket, DOCKER_HOST naming one) with
 * nvidia-container-cli and no-cgroups not true: the hook's device cgroup setup fails
 * (NVIDIA/libnvidia-container#154); quiet with no-cgroups = true, in CDI mode, without the
 * CLI, or on a rootful host; a config.toml that cannot be read is skipped. */
static void test_rootless_no_cgroups(void **state)
{
	static const char cfg[] = "/etc/nvidia-container-runtime/config.toml";
	struct gpuenv_snapshot *s = base();
	struct snap_node *host = snap_object(node(s, "container"), "host");
	struct snap_node *tk = snap_object(host, "toolkit");
	struct snap_node *conf = snap_object(tk, "config");
	struct snap_node *cli = snap_object(conf, "nvidia-container-cli");
	struct snap_node *rt = snap_object(conf, "nvidia-container-runtime");
	struct snap_node *rl = snap_object(host, "rootless");

	snap_set_str(snap_object(tk, "binaries"), "nvidia-container-cli",
		     "/usr/bin/nvidia-container-cli", "/usr/bin/nvidia-container-cli");
	snap_set_state(conf, "file", FACT_ABSENT, cfg, "No such file or directory");
	/* rootful: the identity map, no rootless socket */
	snap_set_bool(rl, "user_namespace", false, "/proc/self/uid_map");
	NO(s, "container.rootless-no-cgroups");
	snap_append_str(snap_array(rl, "docker_sockets"), "/run/user/1000/docker.sock",
			"/run/user/1000/docker.sock");
	YES(s, "container.rootless-no-cgroups", GPUENV_SEVERITY_ERROR, "rootless Docker runs here");
	/* the file there, no-cgroups unset or false */
	snap_set_str(conf, "file", cfg, cfg);
	snap_set_state(cli, "no-cgroups", FACT_ABSENT, cfg, NULL);
	snap_set_state(rt, "mode", FACT_ABSENT, cfg, NULL);
	YES(s, "container.rootless-no-cgroups", GPUENV_SEVERITY_ERROR, "does not set no-cgroups");
	snap_set_bool(cli, "no-cgroups", false, cfg);
	YES(s, "container.rootless-no-cgroups", GPUENV_SEVERITY_ERROR, "no-cgroups = false");
	/* the fix */
	snap_set_bool(cli, "no-cgroups", true, cfg);
	NO(s, "container.rootless-no-cgroups");
	snap_set_bool(cli, "no-cgroups", false, cfg);
	/* CDI mode: nvidia-container-cli is not run */
	snap_set_str(rt, "mode", "cdi", cfg);
	NO(s, "container.rootless-no-cgroups");
	snap_set_str(rt, "mode", "legacy", cfg);
	YES(s, "container.rootless-no-cgroups", GPUENV_SEVERITY_ERROR, "device cgroup");
	/* unreadable config: could not tell */
	snap_set_errno(conf, "file", -EACCES, cfg);
	SKIPPED(s, "container.rootless-no-cgroups");
	snap_set_state(conf, "file", FACT_ABSENT, cfg, "No such file or directory");
	/* a user namespace (an unprivileged LXC container), no socket */
	rl = snap_object(host, "rootless");
	snap_set_errno(rl, "docker_sockets", -ENOENT, "/run/user");
	snap_set_bool(rl, "user_namespace", true, "/proc/self/uid_map");
	YES(s, "container.rootless-no-cgroups", GPUENV_SEVERITY_ERROR, "user namespace");
	snap_set_bool(rl, "user_namespace", false, "/proc/self/uid_map");
	/* DOCKER_HOST naming a per-user socket, or the system's */
	snap_set_str(rl, "docker_host", "unix:///run/user/1000/docker.sock", "environment");
	YES(s, "container.rootless-no-cgroups", GPUENV_SEVERITY_ERROR, "DOCKER_HOST=");
	snap_set_str(rl, "docker_host", "unix:///var/run/docker.sock", "environment");
	NO(s, "container.rootless-no-cgroups");
	snap_set_str(rl, "docker_host", "unix:///run/user/1000/docker.sock", "environment");
	/* no nvidia-container-cli: nothing sets device cgroups */
	snap_set_errno(snap_object(tk, "binaries"), "nvidia-container-cli", -ENOENT, "PATH");
	NO(s, "container.rootless-no-cgroups");
	snapshot_unref(s);
}

/* K3s's own containerd: its config with the nvidia runtime not the default is judged as
 * containerd's, with K3s's fixes; with no nvidia runtime on a GPU host, an error that says
 * /etc/containerd/config.toml is not K3s's (NVIDIA/k8s-device-plugin#406). */
static void test_k3s_containerd(void **state)
{
	static const char cfg[] = "/var/lib/rancher/k3s/agent/etc/containerd/config.toml";
	struct gpuenv_snapshot *s = base();
	struct snap_node *h = snap_object(node(s, "container"), "host");
	struct snap_node *k3s = snap_object(h, "k3s");
	struct snap_node *cd = snap_object(k3s, "containerd");
	struct snap_node *etc, *r;

	snap_set_str(cd, "config", cfg, cfg);
	snap_set_str(cd, "cri_plugin", "io.containerd.grpc.v1.cri", cfg);
	snap_set_state(cd, "default_runtime_name", FACT_ABSENT, cfg, NULL);
	snap_set_state(cd, "default_runtime_binary", FACT_ABSENT, cfg, NULL);
	r = snap_append_object(snap_array(cd, "runtimes"));
	snap_set_str(r, "name", "nvidia", cfg);
	snap_set_str(r, "binary_name", "/usr/bin/nvidia-container-runtime", cfg);
	/* K3s found the runtime: judged even where the driver is not seen */
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_WARNING, "K3s's own containerd");
	snap_set_str(cd, "default_runtime_name", "nvidia", cfg);
	NO(s, "container.no-nvidia-runtime");
	/* no nvidia runtime: judged only on a GPU host */
	snap_set_state(cd, "default_runtime_name", FACT_ABSENT, cfg, NULL);
	snap_set_str(r, "name", "runc", cfg);
	snap_set_state(r, "binary_name", FACT_ABSENT, cfg, NULL);
	NO(s, "container.no-nvidia-runtime");
	driver_loaded(s, "535.54.03");
	snap_set_errno(snap_object(h, "docker"), "dockerd", -ENOENT, "PATH");
	snap_set_errno(snap_object(h, "containerd"), "containerd", -ENOENT, "PATH");
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR, "which is not installed");
	etc = snap_append_object(snap_array(snap_object(h, "containerd"), "runtimes"));
	snap_set_str(etc, "name", "nvidia", "/etc/containerd/config.toml");
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR, "never by K3s's");
	/* K3s's config unreadable: skipped; absent (K3s not started): quiet */
	snap_set_errno(cd, "config", -EACCES, cfg);
	SKIPPED(s, "container.no-nvidia-runtime");
	snap_set_state(cd, "config", FACT_ABSENT, cfg, "No such file or directory");
	NO(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
}

/* The docker CLI on Docker Desktop's context (desktop-linux, its VM's socket) on a host with
 * the toolkit: an error (NVIDIA/nvidia-container-toolkit#814, #175, #83's answer); quiet on the
 * default context, without the toolkit, on WSL2, and where another context is current; an
 * unreadable config.json is skipped. */
static void test_docker_desktop_context(void **state)
{
	static const char cfg[] = "/home/user/.docker/config.json";
	static const char meta[] = "/home/user/.docker/contexts/meta/x/meta.json";
	struct gpuenv_snapshot *s = base();
	struct snap_node *host = snap_object(node(s, "container"), "host");
	struct snap_node *bins = snap_object(snap_object(host, "toolkit"), "binaries");
	struct snap_node *cli = snap_object(host, "docker_cli");

	snap_set_str(bins, "nvidia-ctk", "/usr/bin/nvidia-ctk", "/usr/bin/nvidia-ctk");
	snap_set_str(snap_object(host, "docker"), "dockerd", "/usr/bin/dockerd",
		     "/usr/bin/dockerd");
	/* the default context */
	snap_set_state(cli, "current_context", FACT_ABSENT, cfg, "no currentContext");
	NO(s, "container.docker-desktop-context");
	snap_set_str(cli, "current_context", "desktop-linux", cfg);
	snap_set_str(cli, "context_host", "unix:///home/user/.docker/desktop/docker.sock", meta);
	YES(s, "container.docker-desktop-context", GPUENV_SEVERITY_ERROR, "virtual machine");
	/* the name alone says it where its endpoint was not found */
	snap_set_state(cli, "context_host", FACT_ABSENT, meta, NULL);
	YES(s, "container.docker-desktop-context", GPUENV_SEVERITY_ERROR, "desktop-linux");
	/* another context, to a remote engine */
	snap_set_str(cli, "current_context", "remote", cfg);
	snap_set_str(cli, "context_host", "ssh://gpu-server", meta);
	NO(s, "container.docker-desktop-context");
	/* a context of another name on Docker Desktop's socket */
	snap_set_str(cli, "context_host", "unix:///home/user/.docker/desktop/docker.sock", meta);
	YES(s, "container.docker-desktop-context", GPUENV_SEVERITY_ERROR, "remote");
	/* config.json unreadable: could not tell */
	snap_set_errno(cli, "current_context", -EACCES, cfg);
	SKIPPED(s, "container.docker-desktop-context");
	snap_set_str(cli, "current_context", "desktop-linux", cfg);
	/* WSL2: Docker Desktop brings the toolkit there */
	snap_set_str(node(s, "host"), "kernel_release", "5.15.167.4-microsoft-standard-WSL2",
		     "/proc/sys/kernel/osrelease");
	NO(s, "container.docker-desktop-context");
	snap_set_str(node(s, "host"), "kernel_release", "6.8.0-49-generic",
		     "/proc/sys/kernel/osrelease");
	YES(s, "container.docker-desktop-context", GPUENV_SEVERITY_ERROR, "desktop-linux");
	FIX(s, "container.docker-desktop-context", "docker context use default");
	/* no dockerd on the host: Docker Engine to install first */
	snap_set_errno(snap_object(host, "docker"), "dockerd", -ENOENT, "PATH");
	FIX(s, "container.docker-desktop-context", "install Docker Engine");
	/* no toolkit on the host */
	snap_set_errno(bins, "nvidia-ctk", -ENOENT, "PATH");
	NO(s, "container.docker-desktop-context");
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_container_no_devices),
		cmocka_unit_test(test_no_uvm_device),
		cmocka_unit_test(test_visible_void),
		cmocka_unit_test(test_image_cuda),
		cmocka_unit_test(test_image_brand_unseen_gpu),
		cmocka_unit_test(test_no_nvidia_runtime),
		cmocka_unit_test(test_no_nvidia_runtime_snap),
		cmocka_unit_test(test_cri_nvidia_not_default),
		cmocka_unit_test(test_kubelet_docker_default_runtime),
		cmocka_unit_test(test_cdi_stale),
		cmocka_unit_test(test_cdi_unjudged),
		cmocka_unit_test(test_cdi_newer_than_engine),
		cmocka_unit_test(test_container_cgroup_v2),
		cmocka_unit_test(test_dev_char_links),
		cmocka_unit_test(test_rootless_no_cgroups),
		cmocka_unit_test(test_k3s_containerd),
		cmocka_unit_test(test_containerd_cri_used),
		cmocka_unit_test(test_docker_desktop_context),
	};

	if (test_locale_from_env() < 0) /* with-comma-locale.sh: LC_NUMERIC=de_DE */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
