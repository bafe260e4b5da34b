# A tensor's elements and where they are up to date. Every storage has a CPU copy, a JS typed array
# (torch's CPU ops loop over it in JS, tensor-ops.ts). A storage of a tensor on the GPU device also
# gets a GPU buffer, held by the main thread under the storage's id, the first time a kernel launch
# binds it: from then on launches bind that buffer as it is (nothing copied), a kernel's output
# stays there, and the CPU copy is refreshed only when the script reads the elements (`read`:
# printing, `.item()`, `.tolist()`, a torch op that runs on the CPU, `assert_close`). A torch op
# with a GPU kernel (_on_gpu.py) makes its result's buffer without uploading it (the kernel writes
# every element) and leaves it there. A CPU write (`x[...] = …` with no kernel, `normal_`) makes
# the GPU buffer stale; the next launch uploads it again.
#
# `host`: the typed array holds the elements; `gpu`: the buffer does; at least one of them always.
# A buffer belongs to one run of a script (the main thread frees them all when it ends): a storage
# kept from an earlier run starts over with a new buffer.

import _kernel_lab_state as _state

_next_id = [1]


class Storage:
    __slots__ = ("js", "id", "host", "gpu", "run")

    def __init__(self, js):
        self.js = js
        self.id = 0
        self.host = True
        self.gpu = False
        self.run = 0

    def read(self):
        """The typed array with the elements in it (fetched from the GPU buffer where a launch left them)."""
        if not self.host:
            if self.run != _state.run_id:
                raise RuntimeError("this tensor's elements were on the GPU in an earlier run of the script and are gone")
            from triton import _bridge
            _bridge.call({"kind": "download", "storage": self.id, "data": self.js})
            self.host = True
        return self.js

    def write(self):
        """The typed array, about to be written on the CPU: the GPU buffer is out of date after."""
        js = self.read()
        self.gpu = False
        return js

    def _buffer_id(self):
        """The id of this storage's GPU buffer in this run (a new one where it has none yet)."""
        if self.run != _state.run_id or not self.id:
            self.id = _next_id[0]
            _next_id[0] += 1
            self.run = _state.run_id
            self.gpu = False
        return self.id

    def __del__(self):
        if self.id and self.run == _state.run_id and _state.notify is not None:
            _state.notify({"kind": "free", "storage": self.id})


def wrap(data):
    return data if isinstance(data, Storage) else Storage(data)


def launch_args(tensors, warmup):
    """
    How each tensor argument of a launch ({name: Tensor}) reaches the kernel: a tensor on the GPU
    device by its storage's GPU buffer (`storage`, `upload` when the buffer is out of date), bound
    as it is; anything else (a CPU tensor, a view that starts inside its storage, a storage passed
    twice, --cpu) by its CPU copy from its first element, copied to the GPU and back for the launch.
    """
    shared = {}
    for t in tensors.values():
        shared[id(t._data)] = shared.get(id(t._data), 0) + 1
    args = {}
    for name, t in tensors.items():
        st = t._data
        arg = {"name": name, "kind": "tensor", "dtype": t.dtype.name}
        if warmup:
            arg["data"] = st.js.subarray(t._offset)
        elif not _state.cpu and t.device.type == "cuda" and t._offset == 0 and shared[id(st)] == 1:
            arg["storage"] = st._buffer_id()
            arg["upload"] = not st.gpu
            arg["data"] = st.js
        else:
            arg["data"] = st.read().subarray(t._offset)
        args[name] = arg
    return args


def launched(args, tensors, reply, ok):
    """After the launch: `written` names the arguments whose elements changed (in the GPU buffer, or copied back to the CPU)."""
    written = set((reply or {}).get("written", [])) if ok else set()
    for name, arg in args.items():
        st = tensors[name]._data
        if "storage" in arg:
            # A failed launch may have written part of the buffer: the CPU copy, where it is one, wins.
            st.gpu = ok or not st.host
            if name in written:
                st.host = False
        elif name in written:
            st.gpu = False

