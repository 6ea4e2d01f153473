/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Our own declarations of the CUDA driver API subset gpuenv calls (no cuda.h). Prototypes,
 * attribute numbers and error codes from docs/formats/nvml.md §9 (CUDA 13.0
 * cuda.h; names checked against the real 535 cuGetErrorName). cuda.h maps cuDeviceTotalMem
 * and cuDeviceGetUuid to their _v2 symbols; the unversioned ones are the old ABI. The calls of
 * `doctor --launch` (cuda-launch.c) are declared as CUDA 13.0's cuda.h declares them, under
 * the symbols it maps them to (cuMemAlloc → cuMemAlloc_v2, cuMemFree → cuMemFree_v2,
 * cuMemcpyDtoH → cuMemcpyDtoH_v2, cuDevicePrimaryCtxRelease → cuDevicePrimaryCtxRelease_v2;
 * the primary context instead of cuCtxCreate, which 13.0 maps to a _v4 with other parameters).
 * CUDA_SYMBOLS(X): X(field, required, return type, (parameters), names tried in order…).
 */
#pragma once

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef struct CUuuid_st {
	char bytes[16];
} CUuuid;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr; /* CUdeviceptr_v2 */

#define CUDA_SUCCESS		     0
#define CUDA_ERROR_NOT_INITIALIZED   3
#define CUDA_ERROR_STUB_LIBRARY	     34
#define CUDA_ERROR_NO_DEVICE	     100
#define CUDA_ERROR_NO_BINARY_FOR_GPU 209

#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76

#define CUDA_SYMBOLS(X)                                                                            \
	X(cuInit, true, CUresult, (unsigned int), "cuInit")                                        \
	X(cuDriverGetVersion, true, CUresult, (int *), "cuDriverGetVersion")                       \
	X(cuDeviceGetCount, true, CUresult, (int *), "cuDeviceGetCount")                           \
	X(cuDeviceGet, true, CUresult, (CUdevice *, int), "cuDeviceGet")                           \
	X(cuDeviceGetName, false, CUresult, (char *, int, CUdevice), "cuDeviceGetName")            \
	X(cuDeviceGetAttribute, false, CUresult, (int *, int, CUdevice), "cuDeviceGetAttribute")   \
	X(cuDeviceTotalMem, false, CUresult, (size_t *, CUdevice), "cuDeviceTotalMem_v2")          \
	X(cuDeviceGetUuid, false, CUresult, (CUuuid *, CUdevice), "cuDeviceGetUuid_v2",            \
	  "cuDeviceGetUuid")                                                                       \
	X(cuDeviceGetPCIBusId, false, CUresult, (char *, int, CUdevice), "cuDeviceGetPCIBusId")    \
	X(cuGetErrorName, false, CUresult, (CUresult, const char **), "cuGetErrorName")            \
	X(cuGetErrorString, false, CUresult, (CUresult, const char **), "cuGetErrorString")        \
	X(cuDevicePrimaryCtxRetain, false, CUresult, (CUcontext *, CUdevice),                      \
	  "cuDevicePrimaryCtxRetain")                                                              \
	X(cuDevicePrimaryCtxRelease, false, CUresult, (CUdevice), "cuDevicePrimaryCtxRelease_v2",  \
	  "cuDevicePrimaryCtxRelease")                                                             \
	X(cuCtxSetCurrent, false, CUresult, (CUcontext), "cuCtxSetCurrent")                        \
	X(cuCtxSynchronize, false, CUresult, (void), "cuCtxSynchronize")                           \
	X(cuModuleLoadData, false, CUresult, (CUmodule *, const void *), "cuModuleLoadData")       \
	X(cuModuleGetFunction, false, CUresult, (CUfunction *, CUmodule, const char *),            \
	  "cuModuleGetFunction")                                                                   \
	X(cuModuleUnload, false, CUresult, (CUmodule), "cuModuleUnload")                           \
	X(cuMemAlloc, false, CUresult, (CUdeviceptr *, size_t), "cuMemAlloc_v2")                   \
	X(cuMemFree, false, CUresult, (CUdeviceptr), "cuMemFree_v2")                               \
	X(cuMemcpyDtoH, false, CUresult, (void *, CUdeviceptr, size_t), "cuMemcpyDtoH_v2")         \
	X(cuLaunchKernel, false, CUresult,                                                         \
	  (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,       \
	   CUstream, void **, void **),                                                            \
	  "cuLaunchKernel")

#define CUDA_FN_TYPEDEF(f, req, ret, params, ...) typedef ret f##_fn params;
CUDA_SYMBOLS(CUDA_FN_TYPEDEF)
#undef CUDA_FN_TYPEDEF
