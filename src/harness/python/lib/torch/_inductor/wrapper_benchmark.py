# torch._inductor.wrapper_benchmark: compiled_module_main, what an output_code.py run as a script calls
# (`if __name__ == "__main__":`): its benchmark_compiled_module() run once, timed by print_performance.
# Inductor's command-line options (--benchmark-kernels, --profile) aren't read.


def compiled_module_main(benchmark_name, benchmark_compiled_module_fn):
    return benchmark_compiled_module_fn(times=10, repeat=10)


from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch._inductor.wrapper_benchmark")
