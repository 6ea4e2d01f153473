// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor of a `gpuenv explain` run's time, for bench/bench-explain.sh: a program that only
 * returns, linked as the gpuenv tool is (a position-independent executable against libc
 * alone, RELRO, DT_RELR, bound lazily). What it costs, the kernel's exec and the dynamic
 * loader's start of libc, every run of gpuenv costs too; the bench prints it beside `cat` so
 * that what a paste costs above it is gpuenv's own. The bench links it -static-pie too, to show
 * what of that start is the dynamic loader's and libc.so's (docs/explain.md).
 */
int main(void)
{
	return 0;
}
