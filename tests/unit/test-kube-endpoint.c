// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/kube-endpoint: the YAML reads of kubelet's config.yaml and crictl.yaml through
 * libyaml (block and flow style, the JSON form, quoted and plain scalars, comments, aliases,
 * nulls, a key given twice, a merge key, malformed YAML, files over the caps) and the flag
 * read of kubelet's environment files.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/kube-endpoint.h"

#define CRI  "containerRuntimeEndpoint"
#define SOCK "unix:///run/containerd/containerd.sock"

static char ep[KUBE_ENDPOINT_MAX], why[256];

static int yaml(const char *text, const char *key)
{
	ep[0] = why[0] = '\0';
	return kube_yaml_endpoint(text, strlen(text), key, ep, sizeof(ep), why, sizeof(why));
}

static void assert_found(const char *text, const char *key, const char *want)
{
	assert_int_equal(yaml(text, key), 1);
	assert_string_equal(ep, want);
}

/* could not tell: an error, and why says so with the words given */
static void assert_unknown(const char *text, const char *key, int want, const char *words)
{
	assert_int_equal(yaml(text, key), want);
	if (!strstr(why, words))
		fail_msg("why '%s' lacks '%s'", why, words);
}

static void test_block(void **state)
{
	(void)state;
	/* kubeadm's config.yaml form, with a comment after the value and CRLF line ends */
	assert_found("apiVersion: kubelet.config.k8s.io/v1beta1\n"
		     "kind: KubeletConfiguration\n"
		     "cgroupDriver: systemd\n"
		     "containerRuntimeEndpoint: " SOCK " # kubeadm\n",
		     CRI, SOCK);
	assert_found("# crictl\r\nruntime-endpoint: " SOCK "\r\ntimeout: 10\r\n",
		     "runtime-endpoint", SOCK);
	assert_found("runtime-endpoint: \"unix:///var/run/cri-dockerd.sock\"\n", "runtime-endpoint",
		     "unix:///var/run/cri-dockerd.sock");
	assert_found("runtime-endpoint: 'unix:///run/crio/crio.sock'\n", "runtime-endpoint",
		     "unix:///run/crio/crio.sock");
	/* a quoted key, a document start, blanks before the colon */
	assert_found("---\n\"containerRuntimeEndpoint\" : " SOCK "\n...\n", CRI, SOCK);
	/* a nested key of the same name is not the top-level one */
	assert_int_equal(
		yaml("kind: KubeletConfiguration\nlogging:\n  containerRuntimeEndpoint: x\n", CRI),
		0);
	/* the line scan read this one: an indented line of a block scalar */
	assert_int_equal(yaml("description: |\n  containerRuntimeEndpoint: x\n", CRI), 0);
	/* a multi-line plain scalar folds */
	assert_found("runtime-endpoint: unix:///run/\n  containerd/containerd.sock\n",
		     "runtime-endpoint", "unix:///run/ containerd/containerd.sock");
}

static void test_flow_json(void **state)
{
	(void)state;
	assert_found("{kind: KubeletConfiguration, containerRuntimeEndpoint: " SOCK "}\n", CRI,
		     SOCK);
	/* kubelet reads a JSON KubeletConfiguration (JSON is YAML flow style) */
	assert_found("{\"kind\":\"KubeletConfiguration\",\"apiVersion\":"
		     "\"kubelet.config.k8s.io/v1beta1\",\"cgroupDriver\":\"systemd\","
		     "\"containerRuntimeEndpoint\":\"unix:///var/run/cri-dockerd.sock\"}",
		     CRI, "unix:///var/run/cri-dockerd.sock");
	assert_found("{\n\t\"containerRuntimeEndpoint\": \"" SOCK "\",\n\t\"evictionHard\": "
		     "{\"memory.available\": \"100Mi\"}\n}\n",
		     CRI, SOCK);
	/* a JSON escape */
	assert_found("{\"runtime-endpoint\": \"unix:\\/\\/\\/run\\/crio\\/crio.sock\"}",
		     "runtime-endpoint", "unix:///run/crio/crio.sock");
}

static void test_absent_and_null(void **state)
{
	(void)state;
	assert_int_equal(yaml("", CRI), 0);
	assert_int_equal(yaml("# nothing\n", CRI), 0);
	assert_int_equal(yaml("kind: KubeletConfiguration\n", CRI), 0);
	assert_int_equal(yaml("{}", CRI), 0);
	assert_int_equal(yaml("containerRuntimeEndpoint:\n", CRI), 0);
	assert_int_equal(yaml("containerRuntimeEndpoint: ~\n", CRI), 0);
	assert_int_equal(yaml("{\"containerRuntimeEndpoint\": null}", CRI), 0);
	assert_int_equal(yaml("containerRuntimeEndpoint: \"\"\n", CRI), 0);
	/* quoted, "null" is a string */
	assert_found("containerRuntimeEndpoint: \"null\"\n", CRI, "null");
	/* keys are case-sensitive */
	assert_int_equal(yaml("containerruntimeendpoint: " SOCK "\n", CRI), 0);
}

static void test_aliases(void **state)
{
	char *bomb;
	size_t n = 0, cap = 1 << 16;

	(void)state;
	assert_found("x-sock: &s " SOCK "\ncontainerRuntimeEndpoint: *s\n", CRI, SOCK);
	/* a "billion laughs" file: each alias is a node, the cap ends it */
	bomb = malloc(cap);
	assert_non_null(bomb);
	n += (size_t)snprintf(bomb + n, cap - n, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
	for (int i = 1; i < 10; i++)
		n += (size_t)snprintf(bomb + n, cap - n,
				      "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, "
				      "*a%d, *a%d]\n",
				      i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1,
				      i - 1, i - 1);
	snprintf(bomb + n, cap - n, "containerRuntimeEndpoint: " SOCK "\n");
	/* 100 nodes: under the cap, read */
	assert_found(bomb, CRI, SOCK);
	for (int i = 10; i < 500; i++)
		n += (size_t)snprintf(bomb + n, cap - n,
				      "b%d: [*a9, *a9, *a9, *a9, *a9, *a9, *a9, *a9, "
				      "*a9, *a9]\n",
				      i);
	snprintf(bomb + n, cap - n, "containerRuntimeEndpoint: " SOCK "\n");
	assert_unknown(bomb, CRI, -E2BIG, "more than 4096 YAML nodes");
	free(bomb);
}

static void test_could_not_tell(void **state)
{
	char *big;

	(void)state;
	/* kubelet decodes a duplicate leniently after a warning, crictl refuses it */
	assert_unknown("containerRuntimeEndpoint: " SOCK "\nkind: KubeletConfiguration\n"
		       "containerRuntimeEndpoint: unix:///var/run/cri-dockerd.sock\n",
		       CRI, -EBADMSG, "given twice (lines 1 and 3)");
	assert_unknown("{\"runtime-endpoint\": \"a\", \"runtime-endpoint\": \"b\"}",
		       "runtime-endpoint", -EBADMSG, "given twice");
	assert_unknown("base: &b {containerRuntimeEndpoint: " SOCK "}\n<<: *b\n", CRI, -EBADMSG,
		       "merge key");
	/* malformed: an unclosed quote, a bad indent, a tab, two documents */
	assert_unknown("runtime-endpoint: 'unix:///run/containerd/containerd.sock\n",
		       "runtime-endpoint", -EBADMSG, "line");
	assert_unknown("kind: KubeletConfiguration\n  containerRuntimeEndpoint: " SOCK "\n", CRI,
		       -EBADMSG, "line 2");
	assert_unknown("kind: x\n\tcontainerRuntimeEndpoint: " SOCK "\n", CRI, -EBADMSG, "line 2");
	assert_unknown("containerRuntimeEndpoint: a\n---\ncontainerRuntimeEndpoint: b\n", CRI,
		       -EBADMSG, "more than one YAML document");
	assert_unknown("{\"containerRuntimeEndpoint\": \"" SOCK "\",", CRI, -EBADMSG,
		       "did not find expected node content");
	/* not a mapping, a value that is not one */
	assert_unknown("- containerRuntimeEndpoint: " SOCK "\n", CRI, -EBADMSG,
		       "expected a mapping");
	assert_unknown("containerRuntimeEndpoint: [" SOCK "]\n", CRI, -EBADMSG, "found a list");
	assert_unknown("containerRuntimeEndpoint:\n  path: " SOCK "\n", CRI, -EBADMSG,
		       "found a mapping");
	/* the text ends at a NUL: what follows is not read */
	assert_int_equal(kube_yaml_endpoint("kind: x\n\0containerRuntimeEndpoint: y\n", 35, CRI, ep,
					    sizeof(ep), why, sizeof(why)),
			 0);
	/* over the caps: nesting, the input, the value */
	assert_unknown("a: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[x]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
		       CRI, -E2BIG, "nested deeper than 32");
	big = malloc(KUBE_YAML_MAX_INPUT + 64);
	assert_non_null(big);
	memset(big, '#', KUBE_YAML_MAX_INPUT + 63);
	memcpy(big, "containerRuntimeEndpoint: x\n", 28);
	big[KUBE_YAML_MAX_INPUT + 63] = '\0';
	assert_unknown(big, CRI, -E2BIG, "larger than 1048576 bytes");
	memset(big, 'x', KUBE_ENDPOINT_MAX + 40);
	memcpy(big, "runtime-endpoint: ", 18);
	big[KUBE_ENDPOINT_MAX + 40] = '\0';
	assert_unknown(big, "runtime-endpoint", -E2BIG, "longer than 511 bytes");
	free(big);
}

static void test_flags(void **state)
{
	const char *t = "KUBELET_KUBEADM_ARGS=\"--container-runtime-endpoint=" SOCK
			" --pod-infra-container-image=registry.k8s.io/pause:3.9\"\n";

	(void)state;
	assert_int_equal(kube_flag_endpoint(t, strlen(t), ep, sizeof(ep)), 1);
	assert_string_equal(ep, SOCK);
	t = "# KUBELET_EXTRA_ARGS=--container-runtime-endpoint=x\n";
	assert_int_equal(kube_flag_endpoint(t, strlen(t), ep, sizeof(ep)), 0);
	t = "KUBELET_EXTRA_ARGS=--container-runtime-endpoint a --container-runtime-endpoint 'b'\n";
	assert_int_equal(kube_flag_endpoint(t, strlen(t), ep, sizeof(ep)), 1);
	assert_string_equal(ep, "b");
	t = "KUBELET_EXTRA_ARGS=\"--container-runtime-endpoint='b\"\n";
	assert_int_equal(kube_flag_endpoint(t, strlen(t), ep, sizeof(ep)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block),		cmocka_unit_test(test_flow_json),
		cmocka_unit_test(test_absent_and_null), cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_could_not_tell),	cmocka_unit_test(test_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
