/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The container runtime endpoint Kubernetes' tools are given, from the text of their files
 * over (text, len) with no I/O (reading stops at an embedded NUL):
 * - kube_flag_endpoint(): kubelet's command-line flag "--container-runtime-endpoint=VALUE" (or
 *   "… VALUE") in an environment file of its service: kubeadm writes KUBELET_KUBEADM_ARGS="…"
 *   to /var/lib/kubelet/kubeadm-flags.env, users KUBELET_EXTRA_ARGS to /etc/default/kubelet
 *   (kubernetes.io "Configuring each kubelet in your cluster using kubeadm"); "#" lines are
 *   comments; the last one on the line wins, as with any repeated flag (spf13/pflag);
 * - kube_yaml_endpoint(): a top-level "key: value" of a YAML file, unindented, the value plain
 *   or quoted, a " #" comment after it dropped: kubelet's config.yaml (KubeletConfiguration
 *   containerRuntimeEndpoint, kubelet.config.k8s.io/v1beta1, Kubernetes 1.27 and later) and
 *   /etc/crictl.yaml (runtime-endpoint, kubernetes-sigs/cri-tools docs/crictl.md).
 * Each returns 1 with the value in buf, 0 when the text names none, -E2BIG when the value does
 * not fit in size, -EINVAL for a quote left open. Fuzzed by tests/fuzz/fuzz-kube-endpoint.c.
 */
#pragma once

#include <stddef.h>

#define KUBE_ENDPOINT_MAX 512u /* bytes of an endpoint kept, NUL included */

int kube_flag_endpoint(const char *text, size_t len, char *buf, size_t size);
int kube_yaml_endpoint(const char *text, size_t len, const char *key, char *buf, size_t size);
