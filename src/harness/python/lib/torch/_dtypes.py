# torch's dtypes and devices as Kernel Lab has them. int64 is stored as int32 (Kernel Lab's
# kernels have no 64-bit integers), but reports torch's element size. Every GPU device name a
# script may use (cuda, the default of Triton's tutorials and blog posts; gpu; webgpu) is the one
# Kernel Lab GPU, `cuda:0`, so `x.device == DEVICE` and `device.type == "cuda"` hold as on CUDA.


class dtype:
    def __init__(self, name, kind, itemsize):
        self.name = name
        self.kind = kind  # "bool" < "int" < "float"
        self.itemsize = itemsize
        self.is_floating_point = kind == "float"
        self.is_signed = name not in ("uint8", "uint32", "bool")
        self.is_complex = False  # Kernel Lab has no complex dtypes: a script's complex branch is never taken

    def __repr__(self):
        return f"torch.{self.name}"

    def to_real(self):
        return self

    def __reduce__(self):
        return self.name


float32 = dtype("float32", "float", 4)
float16 = dtype("float16", "float", 2)
bfloat16 = dtype("bfloat16", "float", 2)
int32 = dtype("int32", "int", 4)
int64 = dtype("int64", "int", 8)
int8 = dtype("int8", "int", 1)
uint8 = dtype("uint8", "int", 1)
# apple/ml-cross-entropy's spin locks (tl.atomic_cas on a uint32 tensor); torch has few ops of it, its storage is 32-bit.
uint32 = dtype("uint32", "int", 4)
bool_ = dtype("bool", "bool", 1)
# DeepSeek-V3's fp8 kernels: a storage dtype (its bytes; ir/f8.ts), converted to and from by .to() as torch rounds.
float8_e4m3fn = dtype("float8_e4m3fn", "float", 1)
float8_e5m2 = dtype("float8_e5m2", "float", 1)

ALL = [float32, float16, bfloat16, int32, int64, int8, uint8, uint32, bool_, float8_e4m3fn, float8_e5m2]
BY_NAME = {d.name: d for d in ALL}

_RANK = {"bool": 0, "int": 1, "float": 2}


def promote(a, b):
    """torch.promote_types for Kernel Lab's dtypes."""
    if a is b:
        return a
    if _RANK[a.kind] != _RANK[b.kind]:
        return a if _RANK[a.kind] > _RANK[b.kind] else b
    if a.kind == "float":
        if {a, b} == {float16, bfloat16}:
            return float32
        return a if a.itemsize >= b.itemsize else b
    if a.kind == "int":
        if {a, b} == {int8, uint8}:
            return int32
        if uint32 in (a, b) and (a.is_signed or b.is_signed):
            return int64  # torch: a signed int with uint32 promotes to int64
        return a if a.itemsize >= b.itemsize else b
    return a


def dtype_of_name(name):
    return BY_NAME[name]


def kind_of_scalar(value):
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return "float"


def promote_with_scalar(tensor_dtype, value):
    """A Python number joins a tensor's dtype only where its kind is higher (torch's rule for scalars)."""
    kind = kind_of_scalar(value)
    if _RANK[kind] <= _RANK[tensor_dtype.kind]:
        return tensor_dtype
    return float32 if kind == "float" else int64


GPU_NAMES = ("cuda", "gpu", "webgpu", "mps", "xpu", "hip")


class device:
    def __init__(self, spec, index=None):
        if isinstance(spec, device):
            spec, index = spec.type, spec.index
        spec = str(spec)
        if ":" in spec:
            spec, given = spec.split(":", 1)
            index = int(given)
        if spec in GPU_NAMES:
            spec = "cuda"
        elif spec != "cpu":
            raise RuntimeError(f"Expected one of cpu, cuda device type at start of device string: {spec}")
        self.type = spec
        self.index = (index or 0) if spec == "cuda" else index

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and self.type == other.type and (self.index or 0) == (other.index or 0)

    def __hash__(self):
        return hash((self.type, self.index or 0))

    def __str__(self):
        return f"{self.type}:{self.index}" if self.index is not None else self.type

    def __repr__(self):
        return f"device(type='{self.type}', index={self.index})" if self.index is not None else f"device(type='{self.type}')"

    # `with torch.device(d):` makes d the device of tensors made without one (scattermoe's ParallelLinear
    # runs its forward and backward inside `with torch.device(x.device):`).
    def __enter__(self):
        _default_devices.append(self)
        return self

    def __exit__(self, *exc):
        _default_devices.pop()


_default_devices = []


def as_device(spec):
    """A device given, or, for None, the default one: the innermost `with torch.device(…)`'s, else the CPU."""
    if spec is None:
        return _default_devices[-1] if _default_devices else device("cpu")
    return spec if isinstance(spec, device) else device(spec)
