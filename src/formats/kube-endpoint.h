/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The container runtime endpoint Kubernetes' tools are given, from the text of their files
 * over (text, len) with no I/O (reading stops at an embedded NUL):
 * - kube_flag_endpoint(): kubelet's command-line flag "--container-runtime-endpoint=VALUE" (or
 *   "… VALUE") in an environment file of its service: kubeadm writes KUBELET_KUBEADM_ARGS="…"
 *   to /var/lib/kubelet/kubeadm-flags.env, users KUBELET_EXTRA_ARGS to /etc/default/kubelet
 *   (kubernetes.io "Configuring each kubelet in your cluster using kubeadm"); "#" lines are
 *   comments; the last one on the line wins, as with any repeated flag (spf13/pflag);
 * - kube_yaml_endpoint(): the string value of a key of a YAML file's top-level mapping, read
 *   with libyaml through yaml-walk.h (so block and flow style, quoted scalars, comments, and
 *   the JSON form kubelet also accepts, JSON being YAML flow): kubelet's config.yaml
 *   (KubeletConfiguration containerRuntimeEndpoint, kubelet.config.k8s.io/v1beta1, Kubernetes
 *   1.27 and later) and /etc/crictl.yaml (runtime-endpoint, kubernetes-sigs/cri-tools
 *   docs/crictl.md). Aliases are read (go-yaml reads them), each counting against the node
 *   cap; a plain null ("~", "null", empty) is no value. Could not tell (-EBADMSG with why):
 *   not YAML, more than one document, a top level that is no mapping, a value that is no
 *   scalar, the key given twice, a merge key ("<<") that may set it.
 * kube_flag_endpoint() returns 1 with the value in buf, 0 when the text names none, -E2BIG
 * when the value does not fit in size, -EINVAL for a quote left open; kube_yaml_endpoint()
 * 1, 0, -E2BIG (a cap, or the value does not fit), -EBADMSG, -ENOMEM, why saying what on an
 * error other than -ENOMEM. Fuzzed by tests/fuzz/fuzz-kube-endpoint.c.
 */
#pragma once

#include <stddef.h>

#define KUBE_ENDPOINT_MAX   512u       /* bytes of an endpoint kept, NUL included */
#define KUBE_YAML_MAX_INPUT (1u << 20) /* bytes of a YAML file read */
#define KUBE_YAML_MAX_DEPTH 32u	       /* nesting of a YAML file */
#define KUBE_YAML_MAX_NODES 4096u      /* YAML nodes (aliases included) of a file */
#define KUBE_YAML_MAX_TEXT  4096u      /* bytes of a key or the value read */

int kube_flag_endpoint(const char *text, size_t len, char *buf, size_t size);
int kube_yaml_endpoint(const char *text, size_t len, const char *key, char *buf, size_t size,
		       char *why, size_t whylen);
