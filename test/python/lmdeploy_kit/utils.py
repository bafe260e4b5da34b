# Stand-in for lmdeploy/utils.py's get_logger (https://github.com/InternLM/lmdeploy at 1263d5cd8): the logger of
# that name, without lmdeploy's handlers (the kernels only log).
import logging


def get_logger(name=None, log_file=None, log_level=logging.INFO, file_mode='a', log_formatter=None):
    return logging.getLogger(name)
