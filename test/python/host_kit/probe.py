"""A module beside the script whose import fails: the traceback shows this file's line too."""

import torch

READY = torch.cuda.is_available()
BINDING = torch._C._cuda_notAThing  # torch has it only with CUDA; Kernel Lab refuses it by name
