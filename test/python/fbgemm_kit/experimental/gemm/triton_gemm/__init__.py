# Copied from https://github.com/pytorch/FBGEMM at 71d6f8b2, fbgemm_gpu/experimental/gemm/triton_gemm/__init__.py (BSD-3-Clause, Copyright (c) Meta
# Platforms, Inc. and affiliates; the license: fbgemm_kit/LICENSE), for Kernel Lab's test/python/fbgemm-idioms.py and fbgemm-long-compiles.py.
# Changed: only its import of fbgemm_gpu names fbgemm_kit instead.
#!/usr/bin/env python3
# Copyright (c) Meta Platforms, Inc. and affiliates.
# All rights reserved.
#
# This source code is licensed under the BSD-style license found in the
# LICENSE file in the root directory of this source tree.

# pyre-strict

try:
    # pyre-ignore[21]
    # @manual=//deeplearning/fbgemm/fbgemm_gpu:test_utils
    from fbgemm_kit import open_source
except Exception:
    open_source: bool = False
