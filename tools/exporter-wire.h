/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `gpuenv exporter` (exporter-server.c) sends its serving process, gpuenv-http
 * (exporter-http-main.c), down the publications' pipe: first what --web-config asks of the
 * server (struct exporter_security), then the publications. Both ends are built from the
 * same tree and exec'd together, so the format is this file's and has no version.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "exporter.h"

/* Each publication's header, followed by the forms it announces. */
struct exporter_publication {
	uint64_t len[2], stable_len[2], stable_gen;
	uint8_t ready;
};
#define EXPORTER_NO_FORM UINT64_MAX /* the form could not be made (OOM): keep the last */

/* write(2)/read(2) of exactly len bytes, through EINTR. write: 0 or -errno. read: 1 whole,
 * 0 EOF before the first byte, -1 EOF halfway or an error. */
int exporter_write_full(int fd, const void *p, size_t len);
int exporter_read_full(int fd, void *p, size_t len);

/* sec may be NULL (plain HTTP, no authentication). 0 or -errno. */
int exporter_security_send(int fd, const struct exporter_security *sec);
/* *ret: NULL when none was sent, else freed with exporter_security_free(). 0; -EPROTO: the
 * stream broke or is not one; -ENOMEM. */
int exporter_security_recv(int fd, struct exporter_security **ret);
void exporter_security_free(struct exporter_security *sec);
