/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --redact's forms, shared by `gpuenv capture` (tools/capture-archive.c: bundles) and `gpuenv
 * check` (src/check/check-redact.c: CI outputs): where a UUID stands, which GUIDs name no
 * machine, and where a word ends. Home directories: strbuf_put_home_redacted().
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* A UUID (8-4-4-4-12 hex digits: GPU-…, MIG-…, a file name) starts at p (left bytes). */
bool redact_uuid_at(const char *p, size_t left);
/* The UUID at p is a GUID that names no machine (UEFI's EFI_GLOBAL_VARIABLE, shim's). */
bool redact_public_guid(const char *p);
/* buf[at] (or the end, at >= len) is not part of a word: a secret is replaced only whole. */
bool redact_word_edge(const char *buf, size_t len, size_t at);
