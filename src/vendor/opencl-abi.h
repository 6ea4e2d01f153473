/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Our own declarations of the four OpenCL 1.0 platform/device queries gpuenv calls (no
 * CL/cl.h). Types, constants and codes from the Khronos OpenCL-Headers CL/cl.h and
 * CL/cl_ext.h (cl_khr_icd: CL_PLATFORM_NOT_FOUND_KHR, what an ICD loader answers when no
 * vendor ICD loads). OPENCL_SYMBOLS(X): X(field, required, return type, (parameters), names…).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef cl_ulong cl_device_type;
typedef cl_uint cl_platform_info;
typedef cl_uint cl_device_info;
typedef struct _cl_platform_id *cl_platform_id;
typedef struct _cl_device_id *cl_device_id;

#define CL_SUCCESS		  0
#define CL_DEVICE_NOT_FOUND	  (-1)
#define CL_INVALID_VALUE	  (-30)
#define CL_PLATFORM_NOT_FOUND_KHR (-1001)

#define CL_PLATFORM_PROFILE 0x0900
#define CL_PLATFORM_VERSION 0x0901
#define CL_PLATFORM_NAME    0x0902
#define CL_PLATFORM_VENDOR  0x0903

#define CL_DEVICE_TYPE_DEFAULT	   (1u << 0)
#define CL_DEVICE_TYPE_CPU	   (1u << 1)
#define CL_DEVICE_TYPE_GPU	   (1u << 2)
#define CL_DEVICE_TYPE_ACCELERATOR (1u << 3)
#define CL_DEVICE_TYPE_CUSTOM	   (1u << 4)
#define CL_DEVICE_TYPE_ALL	   0xFFFFFFFFu

#define CL_DEVICE_TYPE	  0x1000
#define CL_DEVICE_NAME	  0x102B
#define CL_DEVICE_VENDOR  0x102C
#define CL_DRIVER_VERSION 0x102D
#define CL_DEVICE_VERSION 0x102F

#define OPENCL_SYMBOLS(X)                                                                          \
	X(clGetPlatformIDs, true, cl_int, (cl_uint, cl_platform_id *, cl_uint *),                  \
	  "clGetPlatformIDs")                                                                      \
	X(clGetPlatformInfo, true, cl_int,                                                         \
	  (cl_platform_id, cl_platform_info, size_t, void *, size_t *), "clGetPlatformInfo")       \
	X(clGetDeviceIDs, true, cl_int,                                                            \
	  (cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *), "clGetDeviceIDs")  \
	X(clGetDeviceInfo, true, cl_int, (cl_device_id, cl_device_info, size_t, void *, size_t *), \
	  "clGetDeviceInfo")

#define OPENCL_FN_TYPEDEF(f, req, ret, params, ...) typedef ret f##_fn params;
OPENCL_SYMBOLS(OPENCL_FN_TYPEDEF)
#undef OPENCL_FN_TYPEDEF
