build_info = {'cuda_version': '64_101', 'cuda_compute_capabilities': ['sm_35', 'compute_70'],
  'is_rocm_build': False, 'n': -12, 'x': (None, [1, 2], {'a': 'b\x41'})}
