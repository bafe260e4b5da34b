# A stand-in for pytest (Pyodide has no copy) as far as Triton's tutorials use it outside a test
# run: they decorate test functions with @pytest.mark.parametrize / skipif and never run them
# when run as scripts. The marks return the function unchanged; skip() and fail() raise; raises()
# checks an exception as pytest's does. A script that calls pytest.main() gets NotImplementedError.


class _Skipped(Exception):
    pass


class _Mark:
    """pytest.mark.<anything>(…) as a decorator that leaves the function as it is."""

    def __getattr__(self, name):
        def mark(*args, **kwargs):
            if len(args) == 1 and callable(args[0]) and not kwargs:
                return args[0]
            return lambda fn: fn
        return mark


mark = _Mark()


def fixture(fn=None, **kwargs):
    return fn if fn is not None else (lambda f: f)


def skip(reason="", allow_module_level=False):
    raise _Skipped(reason)


def fail(reason="", pytrace=True):
    raise AssertionError(reason)


def param(*values, **kwargs):
    return values


class raises:
    def __init__(self, expected, match=None):
        self.expected = expected
        self.match = match

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            raise AssertionError(f"DID NOT RAISE {self.expected}")
        if not issubclass(kind, self.expected):
            return False
        if self.match is not None:
            import re
            if not re.search(self.match, str(value)):
                raise AssertionError(f"Regex pattern did not match.\n Regex: {self.match!r}\n Input: {str(value)!r}")
        self.value = value
        return True


def main(*args, **kwargs):
    raise NotImplementedError("pytest.main is not in Kernel Lab's pytest stand-in: Kernel Lab runs a script as `python FILE.py` does")
