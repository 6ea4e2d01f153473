// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel `gpuenv doctor --launch` runs on each GPU (src/vendor/cuda-launch.c): every
 * thread writes a value the host can check, out[i] = i * 3 + 1. Compiled to SASS only by
 * gen-probe-kernel.sh into probe-kernel.fatbin (committed); its PTX twin, written by hand
 * for the oldest target, is probe-kernel.ptx.
 */
extern "C" __global__ void gpuenv_probe(unsigned *out, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = i * 3u + 1u;
}
