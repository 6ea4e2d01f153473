#ifndef NCCL_H_
#define NCCL_H_
#if CUDART_VERSION >= 11000
#endif
#if __cplusplus && CUDART_VERSION >= 11080
#endif
#define NCCL_MAJOR	  2
#define NCCL_MINOR	  28
#define NCCL_PATCH	  9
#define NCCL_SUFFIX	  ""
#define NCCL_VERSION_CODE 22809
#define NCCL_VERSION(X, Y, Z)                                                                      \
	(((X) <= 2 && (Y) <= 8) ? (X)*1000 + (Y)*100 + (Z) : (X)*10000 + (Y)*100 + (Z))
#ifdef __cplusplus
#endif
