// Python kernel source → the one diagnostic `kernel-lab check file.py` must give (code, line,
// column at the Python text), or none. Each kernel is a Triton-tutorial-style vector kernel with
// one mistake or one construct; the body starts on line 6.

import { test } from "node:test";
import assert from "node:assert/strict";
import { checkPythonFile } from "../../src/python";
import { inPythonSpelling } from "../../src/python/spelling";
import { locate } from "../../src/diagnostics/position";
import { pythonFileToTypeScript } from "../../src/python/to-typescript";

const HEADER = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n";
const PROLOGUE = "    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)\n    mask = offs < n\n";

function diagnose(text: string): string[] {
  return locate("k.py", text, checkPythonFile("k.py", text)).map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
}

// [name, lines after the prologue (line 8 on), expected "line:col code" or "" for clean, message part]
const rows: [string, string, string, string][] = [
  ["vector add", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    tl.store(y_ptr + offs, x + 1, mask=mask)", "", ""],
  // kernl's attention: a tuple's name given an int; in a constexpr branch it is rebound, in a run-time one it keeps its tuple.
  ["tuple rebound in a constexpr if", "    i = (n,)\n    if BLOCK > 0:\n        i = 0\n    tl.store(y_ptr + offs + i, 1.0, mask=mask)", "", ""],
  ["tuple given an int in a run-time if", "    i = (n,)\n    if n == 1:\n        i = 0\n    tl.store(y_ptr + offs, 1.0, mask=mask)", "10:9 KL2007", "'i' holds a tuple of 1 values and can only be assigned another, got i32"],
  // FlagGems' bmm: a name bound to None where no mask is needed, read only as tl.load's / tl.store's mask.
  ["None as a mask", "    m = None\n    if BLOCK > 1:\n        m = mask\n    x = tl.load(x_ptr + offs, m)\n    tl.store(y_ptr + offs, x, mask=m)", "", ""],
  ["None as a positional mask", "    m = None\n    x = tl.load(x_ptr + offs, m)\n    tl.store(y_ptr + offs, x, m)", "", ""],
  ["None added to a value", "    m = None\n    x = tl.load(x_ptr + offs, mask) + m\n    tl.store(y_ptr + offs, x, mask)", "9:39 KL1101", "'m', bound to None here, as a value"],
  // A positional None is the parameter's default, as a keyword None (test_core.py: tl.atomic_add(p, v, None, SEM)).
  ["None as a positional other, sum axis, atomic mask", "    m = None\n    x = tl.load(x_ptr + offs, mask, m)\n    tl.store(y_ptr + offs, x + tl.sum(x, None), mask)\n    tl.atomic_add(y_ptr + offs, x, None, 'relaxed')", "", ""],
  // Positional arguments bound by Triton's signature (triton-signatures.ts): randint4x(seed, offset, n_rounds)'s third is
  // n_rounds, where tl.randint4x's is a word; atomic_cas(pointer, cmp, val, sem, scope) has no mask (test_core.py's test_atomic_cas).
  ["randint4x's positional n_rounds", "    a, b, c, d = tl.randint4x(n, offs, 7)\n    tl.store(y_ptr + offs, (a ^ d).to(tl.float32), mask)", "", ""],
  ["randint4x's positional n_rounds out of range", "    a, b, c, d = tl.randint4x(n, offs, 0)\n    tl.store(y_ptr + offs, a.to(tl.float32), mask)", "8:40 KL1040", "n_rounds must be 1 to 64"],
  ["atomic_cas's positional sem and scope", "    tl.atomic_cas(y_ptr, 0.0, 1.0, 'acq_rel', 'gpu')", "", ""],
  // A scalar is 0-d in Triton's expand_dims: one new axis is 0 or -1, as a tuple of one (core.py reads (1,) as 1); indexing
  // `s[:, None]` gives it its axis wherever the None stands (semantic.expand_dims splats a scalar to [1]).
  ["expand_dims of a scalar, a tuple of one bad axis", "    s = tl.load(x_ptr)\n    tl.store(y_ptr + tl.arange(0, 1), tl.expand_dims(s, (1,)))", "9:58 KL2012", "axis 1 is out of range: tl.expand_dims of a scalar gives 1 axis (use -1..0)"],
  ["expand_dims of a scalar, axis=(1,)", "    s = tl.load(x_ptr)\n    tl.store(y_ptr + tl.arange(0, 1), tl.expand_dims(s, axis=(1,)))", "9:63 KL2012", "axis 1 is out of range"],
  ["expand_dims of a scalar, as a method, (1,)", "    s = tl.load(x_ptr)\n    tl.store(y_ptr + tl.arange(0, 1), s.expand_dims((1,)))", "9:54 KL2012", "axis 1 is out of range"],
  // inductor's templates bind strings as constexpr locals (`FLOAT32_PRECISION : tl.constexpr = 'ieee'`, flex attention):
  // the name is the string where it is passed on or compared; was KL1003 "strings aren't supported" at the literal.
  ["a string tl.constexpr local passed on and compared", "    PRECISION : tl.constexpr = 'ieee'\n    PAD : tl.constexpr = 'zero'\n    p = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))\n    x = tl.load(p, boundary_check=(0,), padding_option=PAD)\n    if PRECISION == 'ieee':\n        tl.store(y_ptr + offs, x, mask=mask)", "", ""],
  ["a string tl.constexpr local passed on is the string", "    PAD : tl.constexpr = 'inf'\n    p = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))\n    tl.store(y_ptr + offs, tl.load(p, boundary_check=(0,), padding_option=PAD), mask=mask)", "10:75 KL1040", "padding_option is \"zero\" or \"nan\""],
  // inductor's flex attention: mask_mod's output is stretched to the block with `tl.where(offs_n < KV_LEN, mask_mod_output,
  // float("-inf"))` (torch 2.5; a float, then a condition) or `…, False)` (later: a mask); was KL2003 "takes numbers, not masks".
  ["tl.where with a mask and a float, then as a condition", "    c = tl.where(offs < 3, mask, float('-inf'))\n    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    tl.store(y_ptr + offs, tl.where(c, x, 0.0), mask=mask)", "", ""],
  ["tl.where of two masks is a mask", "    m = tl.where(offs < 3, mask, False)\n    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)", "", ""],
  // inductor's flex attention remakes K_block_ptr / V_block_ptr for the full blocks in `if HAS_FULL_BLOCKS:`; was KL2007.
  ["a block pointer remade in straight-line code", "    p = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))\n    x = tl.load(p, boundary_check=(0,))\n    if BLOCK > 1:\n        p = tl.make_block_ptr(base=x_ptr + n, shape=(n,), strides=(1,), offsets=(BLOCK,), block_shape=(BLOCK,), order=(0,))\n    tl.store(y_ptr + offs, x + tl.load(p, boundary_check=(0,)), mask=mask)", "", ""],
  ["a block pointer remade in a run-time if", "    p = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))\n    if n > 1:\n        p = tl.make_block_ptr(base=x_ptr + n, shape=(n,), strides=(1,), offsets=(BLOCK,), block_shape=(BLOCK,), order=(0,))\n    tl.store(y_ptr + offs, tl.load(p, boundary_check=(0,)), mask=mask)", "10:9 KL2007", "'p' is a block pointer"],
  ["expand_dims of a scalar, two axes one out of range", "    s = tl.load(x_ptr)\n    tl.store(y_ptr + tl.arange(0, 1)[:, None], tl.expand_dims(s, (0, 2)))", "9:70 KL2012", "axis 2 is out of range: tl.expand_dims of a scalar gives 2 axes (use -2..1)"],
  ["expand_dims of a scalar: (0,), (-1,), (0, 1) and s[:, None]", "    s = tl.load(x_ptr)\n    tl.store(y_ptr + tl.arange(0, 1), tl.expand_dims(s, (0,)) + tl.expand_dims(s, (-1,)) + s[:, None])\n    tl.store(y_ptr + tl.arange(0, 1)[:, None], tl.expand_dims(s, (0, 1)))", "", ""],
  ["lambda", "    f = lambda v: v\n    tl.store(y_ptr + offs, 1.0, mask=mask)", "8:9 KL1101", "a lambda isn't part of the kernel language"],
  ["list comprehension", "    v = [i for i in range(3)]", "8:9 KL1101", "a list comprehension"],
  ["with", "    with open('f') as f:\n        pass", "8:5 KL1101", "a `with` statement"],
  ["try", "    try:\n        pass\n    except Exception:\n        pass", "8:5 KL1101", "try/except"],
  ["class", "    class A:\n        pass", "8:5 KL1101", "a class"],
  ["global", "    global n", "8:5 KL1101", "global/nonlocal"],
  // print / tl.device_print's f-string prefix is formatted while compiling, as Triton's, from constexprs only; was KL1101
  // wherever it stood, a branch a constexpr drops included (flash-attention's bwd.py: `if DEBUG_TRITON: print(f"…")`).
  ["f-string prefix with a run-time value", "    tl.device_print(f'x{n}', n)", "8:25 KL1075", "tl.device_print's prefix is an f-string, formatted while compiling, and n is a run-time value"],
  ["f-string prefix of constexprs", "    tl.device_print(f'block {BLOCK} {{x}}', n)\n    print(f'block {BLOCK + 1}:', n)", "", ""],
  ["f-string prefix in a branch a constexpr drops", "    if BLOCK < 0:\n        print(f'pid {offs}')\n    tl.store(y_ptr + offs, 1.0, mask=mask)", "", ""],
  ["f-string elsewhere", "    v = f'x{n}'", "8:9 KL1101", "an f-string"],
  // A name started afresh in a loop, then afresh in a later run-time if's body, a pointer in each under a constexpr if
  // (flash-attention's bwd.py: `dropout_offset = 0`, then `= Dropout_mask + …` under `if ENABLE_DROPOUT:`): a name of
  // its own in each, as Python's is dead between them; was one variable, KL2007 at the pointer.
  ["a name started afresh in a loop and again in a later if's body", "    for h in range(0, 2):\n        off = 0\n        if BLOCK > 0:\n            off = x_ptr + h\n        tl.store(y_ptr + offs, tl.load(off + offs, mask=mask), mask=mask)\n    if n > 1:\n        off = 0\n        if BLOCK > 0:\n            off = x_ptr + n\n        tl.store(y_ptr + offs, tl.load(off + offs, mask=mask), mask=mask)", "", ""],
  ["a name read in a later if's body before it is assigned there stays one variable", "    for h in range(0, 2):\n        off = 0\n        if BLOCK > 0:\n            off = x_ptr + h\n    if n > 1:\n        tl.store(y_ptr + offs, off + 1.0, mask=mask)\n        off = 0", "13:32 KL1022", "'off' may have no value here"],
  ["dict", "    d = {'a': 1}", "8:9 KL1101", "a dict"],
  ["power of a run-time value", "    v = n ** 2", "8:9 KL1003", "'**' works on compile-time numbers"],
  ["power of constexprs, folded", "    v = tl.full((BLOCK,), 2 ** (BLOCK - 13), tl.int32)\n    tl.store(y_ptr + offs, v.to(tl.float32), mask=mask)", "", ""],
  ["chained comparison", "    m = 0 < offs < n", "8:9 KL1101", "a chained comparison"],
  ["slicing", "    v = tl.load(x_ptr + offs)[1:]", "8:9 KL1101", "slicing a block"],
  ["element assignment", "    x_ptr[0] = 1.0", "8:5 KL1101", "assigning to an element or attribute"],
  ["for over a list", "    for i in [1, 2]:\n        pass", "8:14 KL1101", "a for loop over this"],
  ["unknown tl function", "    v = tl.no_such_thing(offs)", "8:9 KL1005", ""],
  // vllm's triton_unified_attention.py: a helper's tuple into a parenthesized target, one name a line.
  ["parenthesized tuple target", "    (\n        a,\n        b,\n    ) = offs, mask\n    tl.store(y_ptr + a, 1.0, mask=b)", "", ""],
  ["shape mismatch", "    a = tl.arange(0, 16)\n    b = tl.arange(0, 32)\n    c = a + b", "10:9 KL2001", ""],
  ["pointer times", "    x = tl.load(x_ptr + offs, mask=mask)\n    tl.store(x_ptr * 2 + offs, x, mask=mask)", "9:14 KL2004", ""],
  ["non-power-of-two arange", "    a = tl.arange(0, 10)", "8:9 KL2002", ""],
  ["syntax error", "    x = tl.load(x_ptr + offs,, mask=mask)", "8:30 KL1100", "not valid Python"],
  ["~ on a mask", "    tl.store(y_ptr + offs, 1.0, mask=~(offs >= n))", "", ""],
  ["a name left None (its if not taken), passed as mask=: no mask", "    m = None\n    if n is None:\n        m = mask\n    x = tl.load(x_ptr + offs, mask=m)\n    tl.store(y_ptr + offs, x, mask=mask)", "11:9 KL2075", "tl.load has no mask"],
  // mamba's ssd_chunk_state.py: `ptrs` followed for the load first; the store's `ptrs + n` must not make n a pointer (was KL2004, n * Ptr).
  ["a pointer name met again on the left of +", "    ptrs = x_ptr + offs * n\n    x = tl.load(ptrs, mask=mask)\n    tl.store(ptrs + n, x, mask=mask)", "", ""],
  ["the pointer on the right of +", "    v = tl.load(tl.program_id(0) + x_ptr)\n    tl.store(y_ptr + offs, v, mask=mask)", "", ""],
  ["a name bound to None, then to a mask by an if taken", "    m = None\n    if n is not None:\n        m = mask\n    x = tl.load(x_ptr + offs, mask=m)\n    tl.store(y_ptr + offs, x, mask=mask)", "", ""],
  ["a name bound to None, as a value", "    m = None\n    tl.store(y_ptr + offs, m, mask=mask)", "9:28 KL1101", "'m', bound to None here, as a value isn't part of the kernel language"],
  // y_ptr's dtype is a guess: a mask stored through it is clean, as through a torch.bool (FlagGems' dropout).
  ["a mask stored through a pointer", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    tl.store(y_ptr + offs, x > 0.5, mask=mask)", "", ""],
  ["a mask stored through a pointer, and a shape mismatch", "    tl.store(y_ptr + offs, offs > 3, mask=mask)\n    a = tl.arange(0, 16)\n    b = tl.arange(0, 32)\n    c = a + b", "11:9 KL2001", ""],
  ["dtypes as values: x.dtype held, .to(…), tl.math.rsqrt, tl.constexpr(… is …), x.shape", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    dt = x.dtype\n    y = tl.math.rsqrt(x.to(tl.float32) + 1.0)\n    if tl.constexpr(dt is tl.float32):\n        y = y * 2.0\n    tl.static_assert(x.shape[0] == BLOCK)\n    tl.store(y_ptr + offs, y.to(dt), mask=mask)", "", ""],
  ["a dtype held and chosen: cdtype = tl.float32, tl.float32 if x.dtype is tl.bfloat16 else x.dtype", "    cdtype = tl.float32\n    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    acc_type = tl.float32 if x.dtype is tl.bfloat16 else x.dtype\n    tl.store(y_ptr + offs, tl.zeros([BLOCK], dtype=cdtype) + x.to(acc_type), mask=mask)", "", ""],
  ["a dtype WGSL lacks", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    tl.store(y_ptr + offs, x.to(tl.float64), mask=mask)", "9:33 KL2080", "tl.float64 has no WGSL type"],
  ["and/or/not precedence", "    c = n > 0 and not n > 5 or n == 3\n    if c:\n        tl.store(y_ptr + offs, 1.0, mask=mask)", "", ""],
  ["if/elif/else, while, early return", "    if n > 4:\n        return\n    elif n > 2:\n        acc = tl.zeros((BLOCK,), dtype=tl.float32)\n    else:\n        acc = tl.full((BLOCK,), 1.0, tl.float32)\n    i = 0\n    while i < n:\n        i += 1\n    tl.store(y_ptr + offs, acc, mask=mask)", "", ""],
  ["a loop counter rebound in the body (tutorial 06's start_n = tl.multiple_of(start_n, BLOCK_N))", "    acc = tl.zeros((BLOCK,), dtype=tl.float32)\n    for start in range(0, n, BLOCK):\n        start = tl.multiple_of(start, BLOCK)\n        acc += tl.load(x_ptr + start + tl.arange(0, BLOCK), mask=start + tl.arange(0, BLOCK) < n, other=0.0)\n    tl.store(y_ptr + offs, acc, mask=mask)", "", ""],
  ["a block pointer's order from a constexpr tuple chosen by a condition (tutorial 06's v_order)", "    order: tl.constexpr = (0, 1) if x_ptr.dtype.element_ty == tl.float8e5 else (1, 0)\n    p = tl.make_block_ptr(base=x_ptr, shape=(n, n), strides=(n, 1), offsets=(0, 0), block_shape=(BLOCK, BLOCK), order=order)\n    tl.store(y_ptr + offs, tl.sum(tl.load(p, boundary_check=(0, 1)), axis=0), mask=mask)", "", ""],
  ["a tensor descriptor made and used as tutorial 09 does (keywords, desc.load, desc.store, isinstance)", "    d = tl.make_tensor_descriptor(x_ptr, shape=[n], strides=[1], block_shape=[BLOCK])\n    if isinstance(d, tl.tensor_descriptor):\n        y = tl.make_tensor_descriptor(y_ptr, [n], [1], [BLOCK], padding_option=\"nan\")\n        y.store([0], d.load([tl.program_id(0) * BLOCK]) + d.shape[0])", "", ""],
  ["tl.view / tl.reshape to a block's own .shape (xformers' k_dropout.py: tl.view(keep_mask, x.shape)) check clean", "    x = tl.load(x_ptr + offs[:, None] + offs[None, :])\n    keep = tl.view(tl.rand(7, tl.arange(0, BLOCK * BLOCK)) > 0.5, x.shape)\n    y = tl.reshape(tl.where(keep, x, 0.0), x.shape)\n    tl.store(y_ptr + offs[:, None] + offs[None, :], y)", "", ""],
  ["a shape's extent that isn't a compile-time integer, as one argument", "    x = tl.load(x_ptr + offs, mask=mask)\n    tl.store(y_ptr + offs, tl.reshape(x, n), mask=mask)", "9:42 KL1041", "a shape's extents must be compile-time integers"],
  ["parameters used as tensor descriptors (tutorial 09's host TensorDescriptor arguments) check clean", "    a = x_ptr.load([tl.program_id(0) * BLOCK, 0])\n    y_ptr.store([0, 0], a.T)", "", ""],
  ["parameters updated through a descriptor's atomics check clean (an integer-only atomic's is taken as i32)", "    y_ptr.atomic_max([0, 0], tl.full((BLOCK, BLOCK), 3, tl.int32))\n    x_ptr.atomic_add([tl.program_id(0) * BLOCK], tl.full((BLOCK, ), 1.0, tl.float32))", "", ""],
  ["a descriptor load with offsets of the wrong rank", "    d = tl.make_tensor_descriptor(x_ptr, [n], [1], [BLOCK])\n    v = d.load([0, 0])", "9:16 KL2120", "desc.load's offsets has 2 elements, but the descriptor's block shape has 1 axes"],
  ["a descriptor's block shape not constexpr", "    d = tl.make_tensor_descriptor(x_ptr, [n], [1], [n])", "8:53 KL1041", "a shape's extent must be a compile-time integer"],
  ["a descriptor's last stride not 1", "    d = tl.make_tensor_descriptor(x_ptr, [n, n], [1, n], [BLOCK, BLOCK])", "8:54 KL2121", "a tensor descriptor's last stride must be the constant 1"],
  ["tl.load of a descriptor", "    d = tl.make_tensor_descriptor(x_ptr, [n], [1], [BLOCK])\n    v = tl.load(d)", "9:17 KL2005", "tl.load needs pointers"],
  ["isinstance of something else", "    if isinstance(n, int):\n        tl.store(y_ptr + offs, 1.0, mask=mask)", "8:8 KL1101", "this isinstance"],
  ["a block pointer's order that isn't constant", "    p = tl.make_block_ptr(base=x_ptr, shape=(n, n), strides=(n, 1), offsets=(0, 0), block_shape=(BLOCK, BLOCK), order=(n, 0))", "8:120 KL1041", "tl.make_block_ptr's order must be a compile-time integer"],
  ["a shape that isn't a tuple", "    z = tl.zeros(n, dtype=tl.float32)", "8:18 KL1041", "a shape is a tuple of compile-time integers, e.g. (BLOCK_M, BLOCK_N)"],
  ["keep_dims known only at run time", "    s = tl.sum(offs, axis=0, keep_dims=n > 0)", "8:40 KL1041", "tl.sum's keep_dims must be the literal True or False"],
  ["tl.static_assert of a run-time condition", "    tl.static_assert(n > 0)", "8:22 KL2074", "tl.static_assert's condition must be a compile-time constant"],
  ["tl.static_assert on a size the file gives no value for, which holds at larger sizes (Liger's int2 matmul), is the guess's", "    tl.static_assert(BLOCK % 64 == 0)", "", ""],
  ["tl.static_assert that fails at any size is still one", "    tl.static_assert(BLOCK % 64 == 1, 'odd')", "8:5 KL2074", "tl.static_assert failed: odd"],
  // Not launched, k's pointers are guessed float32: what only that guess gives is left out.
  ["int32 data through a guessed pointer: a gather's indices", "    i = tl.load(x_ptr + offs, mask=mask, other=0)\n    tl.store(y_ptr + offs, tl.load(y_ptr + i, mask=mask), mask=mask)", "", ""],
  ["int32 data through a guessed pointer: a shift", "    x = tl.load(x_ptr + offs, mask=mask)\n    tl.store(y_ptr + offs, x >> 1, mask=mask)", "", ""],
  ["`not` of a number: `if not n:` is `n == 0`, as in Triton", "    if not n:\n        return\n    tl.store(y_ptr + offs, 1.0, mask=mask)", "", ""],
  ["`a or b` of numbers takes each as `!= 0` (Liger's `if RETURN_TOKEN_ACCURACY or RETURN_PREDICTED_TOKENS:`)", "    if n or BLOCK:\n        tl.store(y_ptr + offs, 1.0, mask=mask)", "", ""],
  ["a dtype called on a value is a scalar of it: tl.float32(-float('inf')), tl.int32(0)", "    m = tl.float32(-float('inf'))\n    i = tl.int32(0)\n    for s in range(0, n, BLOCK):\n        m = tl.maximum(m, tl.max(tl.load(x_ptr + s + tl.arange(0, BLOCK), mask=s + tl.arange(0, BLOCK) < n, other=0.0), axis=0))\n        i += 1\n    tl.store(y_ptr + offs, m + i, mask=mask)", "", ""],
  ["tl.max of a scalar and a value (Liger's multi-block softmax: tl.max(m, blk_max))", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    m = tl.max(tl.sum(x, axis=0), tl.max(x, axis=0))", "9:16 KL2012", "tl.max reduces a block, but this is a scalar; for the larger of two values write tl.maximum(a, b)"],
  ["a mask in arithmetic is 1 or 0 of the other side's dtype (FlagGems' dropout: x * p * keep)", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    tl.store(y_ptr + offs, x * 2.0 * (x > 0.5) + (offs < 3), mask=mask)", "", ""],
  ["variable assigned in both branches only", "    if n > 4:\n        acc = 1.0\n    tl.store(y_ptr + offs, acc, mask=mask)", "10:28 KL1022", ""],
  ["string options as literals, a constexpr choice and None (Liger's eviction_policy=\"evict_first\")", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy=\"evict_first\", cache_modifier=\".cg\")\n    tl.store(y_ptr + offs, x, mask=mask, eviction_policy=\"evict_last\" if BLOCK > 64 else \"\")\n    tl.atomic_add(y_ptr + offs, x, mask=mask, sem=\"relaxed\", scope=None)", "", ""],
  ["eviction_policy a run-time value", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy=n)\n    tl.store(y_ptr + offs, x, mask=mask)", "8:69 KL1041", "tl.load's eviction_policy must be known at compile time: a string such as \"evict_last\" (Triton takes it as a tl.constexpr str); `n` is a value computed while the kernel runs"],
  ["cache_modifier computed", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    tl.store(y_ptr + offs, x, mask=mask, cache_modifier=tl.load(x_ptr))", "9:57 KL1041", "this expression is computed while the kernel runs"],
  // libdevice's own names (semantics/math-names.ts), not tl's: fast_expf is tl.exp, fmax tl.maximum, asinf tl.asin (tutorial 07).
  ["libdevice names: tl.extra.cuda.libdevice.fast_expf, tl.math.fmax, tl.extra.libdevice.asinf", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    tl.store(y_ptr + offs, tl.extra.cuda.libdevice.fast_expf(x) + tl.math.fmax(x, 1.0) + tl.extra.libdevice.asinf(x), mask=mask)", "", ""],
  ["a libdevice name with no Kernel Lab function says what to write, at the name", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    tl.store(y_ptr + offs, tl.extra.libdevice.fmod(x, 2.0), mask=mask)", "9:47 KL1005", "tl.extra.libdevice.fmod has no Kernel Lab function; write x - tl.cast(tl.cast(x / y"],
  // libdevice's own functions (semantics/libdevice.ts), however the module is bound: FlagGems' tl_extra_shim.lgamma, tan, erfc.
  ["libdevice's own functions: tl.extra.libdevice.tan, libdevice.lgamma, tl.math.erfc", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    tl.store(y_ptr + offs, tl.extra.libdevice.tan(x) + tl.extra.cuda.libdevice.lgamma(x) + tl.math.erfc(x), mask=mask)", "", ""],
  // Tutorial 08's grouped GEMM: a pointer made of an address loaded from a tensor.
  ["tl.pointer_type: a pointer of an integer address", "    a_ptr = tl.load(x_ptr + 1).to(tl.pointer_type(tl.float16))", "8:35 KL1005", "tl.pointer_type doesn't exist in Kernel Lab; it makes a pointer of an integer address, and WGSL has no addresses"],
  // sglang's elementwise.py under `if USE_PDL:`: CUDA's programmatic dependent launch.
  ["tl.extra.cuda.gdc_wait: programmatic dependent launch", "    tl.extra.cuda.gdc_wait()\n    tl.store(y_ptr + offs, 1.0, mask=mask)", "8:5 KL1005", "tl.gdc_wait doesn't exist in Kernel Lab; it is CUDA's programmatic dependent launch"],
  // Triton checks the type a loop carries: another dtype must be gone where the body ends.
  ["a loop ends with its name at another dtype", "    acc = tl.zeros([BLOCK], dtype=tl.float32)\n    for i in range(3):\n        acc = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float16)\n    tl.store(y_ptr + offs, acc, mask=mask)", "10:9 KL2007", "'acc' is f32[16] but is assigned f16[16] in this loop or branch, and holds it still where the loop or branch ends"],
  ["a loop gives its name another dtype and its own again", "    acc = tl.zeros([BLOCK], dtype=tl.float32)\n    for i in range(3):\n        acc = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float16)\n        acc = acc * 2.0 + acc.to(tl.float32)\n    tl.store(y_ptr + offs, acc, mask=mask)", "", ""],
  ["atomic sem a run-time value", "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n    s = n * 2\n    tl.atomic_add(y_ptr + offs, x, mask=mask, sem=s)", "10:51 KL1041", "tl.atomic_add's sem must be known at compile time: a string such as \"relaxed\""],
];

test("check file.py: messages quote Triton's Python, not the TypeScript it is checked as", () => {
  const typescript = /\btl\.[a-z]+[A-Z]|'s [a-z]+[A-Z]|\b(true|false)\b|=>|===|!==|\{ \w+:/;
  for (const [, body] of rows) for (const said of diagnose(`${HEADER}${PROLOGUE}${body}\n`)) assert.doesNotMatch(said, typescript);
  // What the front end says in TypeScript's spelling, as it reads in a Python file.
  assert.equal(
    inPythonSpelling("a block pointer's window is masked by the axes its boundaryCheck names, not by a mask: { boundaryCheck: [0, 1] }"),
    "a block pointer's window is masked by the axes its boundaryCheck names, not by a mask: boundary_check=(0, 1)",
  );
  assert.equal(
    inPythonSpelling("tl.range(…) only names the values of a loop: for (const i of tl.range(0, n, 1, { numStages: 3 })) { … }"),
    "tl.range(…) only names the values of a loop: for i in tl.range(0, n, 1, num_stages=3):",
  );
  assert.equal(inPythonSpelling("a dtype compares only with another dtype (x.dtype === tl.float16), not with i32"), "a dtype compares only with another dtype (x.dtype == tl.float16), not with i32");
  assert.equal(inPythonSpelling("tl.dot's inputPrecision, { bitcast: true }, shapes f32[16, 16] and [16]"), "tl.dot's input_precision, bitcast=True, shapes f32[16, 16] and [16]");
});

// Kernel-library host code around the kernels (Liger's utils): a @contextmanager's bare `yield`,
// which Lezer's Python grammar marks as an error, and a kernel taking its output dtype as a
// constexpr (`X_dtype: tl.constexpr`, launched with `torch_to_triton_dtype[X.dtype]`).
const LIBRARY = `import contextlib
import triton
import triton.language as tl

@contextlib.contextmanager
def device_context(device):
    yield

@triton.jit
def cast_rows(x_ptr, y_ptr, n, X_dtype: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, (x * 2).to(X_dtype), mask=offs < n)
`;

test("check file.py: a host function's bare yield is Python; a constexpr used as a dtype is checked as tl.float32 when no launch gives it", () => {
  assert.deepEqual(diagnose(LIBRARY), []);
  assert.deepEqual(diagnose(`${LIBRARY}\ncast_rows[(1,)](x, y, 5, tl.int32, BLOCK=8)\n`), []);
  // A dtype passed that a float can't be stored as into the guessed f32 pointer: the launch's dtype is used, not the guess.
  const wrong = diagnose(`${LIBRARY}\ncast_rows[(1,)](x, y, 5, X_dtype=tl.float64, BLOCK=8)\n`);
  assert.equal(wrong.length, 1, wrong.join("\n"));
  assert.match(wrong[0], /^13:39 KL2080 .*tl\.float64/);
  assert.deepEqual(diagnose("def g():\n    x = yield\n    yield\n"), []);
  // unsloth's: the decorators called as functions, and a libdevice function under a name of the module's own.
  const wrapped = "import triton\nimport triton.language as tl\nfrom triton.language.extra import libdevice\nmy_tanh = libdevice.tanh\n\ndef k(x_ptr, y_ptr, n, BLOCK: tl.constexpr, FLAG: tl.constexpr):\n    offs = tl.arange(0, BLOCK)\n    tl.store(y_ptr + offs, my_tanh(tl.load(x_ptr + offs, mask=offs < n)), mask=offs < n)\n\nk = triton.jit(k)\nk = triton.heuristics({'FLAG': lambda args: args['n'] > 4})(k)\n";
  assert.deepEqual(diagnose(wrapped), []);
  assert.match(diagnose(wrapped.replace("my_tanh(", "no_tanh("))[0], /^8:28 KL1004 'no_tanh' isn't a tl\.\* function/);
  // libdevice's names imported by name or bound to a module-level name are the tl.* functions that compute them.
  const named = wrapped.replace("my_tanh = libdevice.tanh", "from triton.language.extra.libdevice import fast_expf as fe\nmy_tanh = libdevice.fast_tanhf").replace("my_tanh(tl.load", "fe(tl.load");
  assert.deepEqual(diagnose(named), []);
  assert.deepEqual(diagnose(named.replace("fe(tl.load", "my_tanh(tl.load")), []);
  // FlagGems' group_gemm.py: `if hasattr(tl, "make_tensor_descriptor"): fn = tl.make_tensor_descriptor` / `else: fn = None`:
  // the branch that binds a function is the alias (was KL1004 "'fn' isn't a tl.* function").
  const featureCheck = wrapped.replace("my_tanh = libdevice.tanh\n", "if hasattr(tl, 'tanh'):\n    my_tanh = tl.tanh\nelse:\n    my_tanh = None\n");
  assert.deepEqual(diagnose(featureCheck), []);
  // Through a module alias, a name Kernel Lab lacks: the message and its fix are at the name (asinn → asin), the
  // namespace as the file writes it (was tl.extra.libdevice.asinn, the lowered call's).
  const alias = diagnose(wrapped.replace("my_tanh(", "libdevice.asinn("));
  assert.deepEqual(alias, ["8:38 KL1005 libdevice.asinn doesn't exist; did you mean libdevice.asin?"]);
  // torch._inductor's `from …triton_helpers import math as tl_math`: tl_math.expp.
  const inductorMath = diagnose(wrapped.replace("from triton.language.extra import libdevice", "from triton.language import math as tl_math").replace("my_tanh = libdevice.tanh\n", "").replace("my_tanh(", "tl_math.rsqrtt("));
  assert.deepEqual(inductorMath, ["7:36 KL1005 tl_math.rsqrtt doesn't exist; did you mean tl_math.rsqrt?"]);
  // FlagGems': a device function of another module (tle.program_id) is named as such, at the call; a
  // device function of this file that nothing calls (it returns a value) isn't checked as a kernel.
  const gems = "import triton\nimport triton.language as tl\nfrom flag_gems.utils import triton_lang_extension as tle\n\n@triton.jit\ndef program_id(axis):\n    return tl.program_id(axis).to(tl.int64)\n\n@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n    pid = tle.program_id(0)\n    offs = pid * BLOCK + tl.arange(0, BLOCK)\n    tl.store(x_ptr + offs, 1.0, mask=offs < n)\n";
  const [other, ...rest] = diagnose(gems);
  assert.deepEqual(rest, []);
  assert.match(other, /^11:11 KL1150 tle\.program_id is a function of another module that Kernel Lab can't read here: .*copy program_id into this file$/);
  assert.deepEqual(diagnose(gems.replace("tle.program_id(0)", "program_id(0)")), []);
  const imported = diagnose(gems.replace("import triton_lang_extension as tle\n", "import triton_lang_extension as tle\nfrom flag_gems.utils.limits import get_dtype_min\n").replace("tle.program_id(0)", "get_dtype_min(0)"));
  assert.equal(imported.length, 1);
  assert.match(imported[0], /^12:11 KL1150 get_dtype_min is a function of another module \(flag_gems\.utils\.limits\) that Kernel Lab can't read here: .*copy get_dtype_min into this file$/);
  assert.match(diagnose("def g():\n    yield (\n")[0], /KL1100/);
});

test("check file.py: an autotuned kernel whose first config's blocks don't fit the workgroup memory, a later one's do, is clean (the autotuner drops the first, as Triton's); none fitting is KL2016", () => {
  const text = "import triton\nimport triton.language as tl\n\n@triton.autotune(configs=[triton.Config({'BLOCK_M': 128, 'BLOCK_N': 512}), triton.Config({'BLOCK_M': 16, 'BLOCK_N': 32})], key=['N'])\n@triton.jit\ndef k(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):\n    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)\n    cols = tl.arange(0, BLOCK_N)\n    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=(rows[:, None] < M) & (cols[None, :] < N), other=0.0)\n    tl.store(y_ptr + rows, tl.sum(x * x, axis=1), mask=rows < M)\n";
  assert.deepEqual(diagnose(text), []);
  const none = diagnose(text.replace("{'BLOCK_M': 16, 'BLOCK_N': 32}", "{'BLOCK_M': 256, 'BLOCK_N': 256}")).filter((d) => d.includes(" KL2016 "));
  assert.equal(none.length, 1, none.join("\n"));
});

test("check file.py: a flag launched with a value check can't evaluate is taken as true, and a diagnostic only that gives is left out (tutorial 08's FP8)", () => {
  // tl.float8e4b15 (Triton's older fp8): Kernel Lab has e4m3fn and e5m2 only (tl.float8e4nv, tl.float8e5: conversions it makes; ir/f8.ts).
  const text = "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, FP8: tl.constexpr, BLOCK: tl.constexpr):\n    dtype = tl.float8e4b15 if FP8 else tl.float16\n    offs = tl.arange(0, BLOCK)\n    tl.store(x_ptr + offs, tl.load(x_ptr + offs).to(dtype).to(tl.float32))\n\nx = torch.zeros(16)\nk[(1,)](x, FP8=torch.float8_e4m3fnuz == x.dtype, BLOCK=16)\n";
  assert.deepEqual(diagnose(text), []);
  assert.deepEqual(diagnose(text.replace("\nx = torch.zeros(16)\nk[(1,)](x, FP8=torch.float8_e4m3fnuz == x.dtype, BLOCK=16)\n", "\n")), []);
  // Launched with FP8=True, the diagnostic is the kernel's.
  const fp8 = diagnose(text.replace("FP8=torch.float8_e4m3fnuz == x.dtype", "FP8=True"));
  assert.equal(fp8.length, 1, fp8.join("\n"));
  assert.match(fp8[0], /^9:53 KL2080 tl\.float8e4b15 has no WGSL type/);
  // tl.float8e4nv is a conversion Kernel Lab makes (DeepSeek-V3's act_quant): no diagnostic.
  assert.deepEqual(diagnose(text.replace("FP8=torch.float8_e4m3fnuz == x.dtype", "FP8=True").replace("tl.float8e4b15 if", "tl.float8e4nv if")), []);
  assert.deepEqual(diagnose(text.replace("FP8=torch.float8_e4m3fnuz == x.dtype", "FP8=True").replace("tl.float8e4b15 if", "tl.float8e5 if")), []);
  // A mode compared with constants (Liger's grpo_loss: `if LOSS_TYPE == _LOSS_TYPE_GRPO:` … `elif LOSS_TYPE == 1:`)
  // is taken as the first it's compared with, where 16 would take no branch and leave `acc` unassigned.
  const mode = "import triton\nimport triton.language as tl\n\n_MODE_SUM: tl.constexpr = tl.constexpr(0)\n\n@triton.jit\ndef k(x_ptr, MODE: tl.constexpr, BLOCK: tl.constexpr):\n    offs = tl.arange(0, BLOCK)\n    x = tl.load(x_ptr + offs)\n    if MODE == _MODE_SUM:\n        acc = tl.sum(x, axis=0)\n    elif MODE == 1:\n        acc = tl.max(x, axis=0)\n    tl.store(x_ptr, acc)\n\nk[(1,)](x, MODE=modes[name], BLOCK=16)\n";
  assert.deepEqual(diagnose(mode), []);
  assert.match(diagnose(mode.replace("MODE=modes[name]", "MODE=5")).join("\n"), /^14:21 KL1022 'acc' has no value here/);
  // A string mode the kernel hands to a helper that compares it (attorch's act_func → apply_act_func,
  // the helper's chain starting with two separate ifs), `is None` tested too: taken as the helper's first string.
  const act = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef act(x, name: tl.constexpr):\n    if name == 'relu':\n        out = tl.maximum(x, 0.)\n    if name == 'neg':\n        out = -x\n    elif name == 'twice':\n        out = x * 2\n    return out\n\n@triton.jit\ndef k(x_ptr, ACT: tl.constexpr, BLOCK: tl.constexpr):\n    offs = tl.arange(0, BLOCK)\n    x = tl.load(x_ptr + offs)\n    if ACT is not None:\n        x = act(x, ACT)\n    tl.store(x_ptr + offs, x)\n";
  assert.deepEqual(diagnose(act), []);
  assert.match(diagnose(`${act}\nk[(1,)](x, ACT='gelu', BLOCK=16)\n`).join("\n"), /^12:12 KL1022 'out' has no value here/);
  // The same, handed as a keyword (`name=ACT`, the keyword's name not a use) from two calls of the helper
  // (flash-attention's _bwd_kernel: BIAS_TYPE=BIAS_TYPE to _bwd_kernel_one_col_block at two places).
  const twice = act.replace("        x = act(x, ACT)\n", "        x = act(x, name=ACT)\n        x = act(x, name=ACT)\n");
  assert.notEqual(twice, act);
  assert.deepEqual(diagnose(twice), []);
  // A flag used as a value as well (FP8 * 2) is not only a condition: the diagnostic stays.
  assert.equal(diagnose(text.replace("offs = tl.arange(0, BLOCK)", "offs = tl.arange(0, BLOCK) + FP8 * 0")).length, 1);
});

test("check file.py: a flag check can't evaluate, handed on to helpers that only test it (flash-attention's bwd.py: DEBUG_TRITON=DEBUG_TRITON), is taken as true and a diagnostic only that gives is left out", () => {
  const text = "import triton\nimport triton.language as tl\n\nDEBUG = int(os.environ.get('DEBUG', '0')) > 0\n\n@triton.jit\ndef inner(x, i, DEBUG_TRITON: tl.constexpr):\n    if DEBUG_TRITON:\n        print(f'i = {i}')\n    return x + i\n\n@triton.jit\ndef k(X, DEBUG_TRITON: tl.constexpr):\n    i = tl.program_id(0)\n    if DEBUG_TRITON:\n        print(f'pid {i}')\n    tl.store(X + i, inner(tl.load(X + i), i, DEBUG_TRITON=DEBUG_TRITON))\n\nk[(4,)](x, DEBUG_TRITON=DEBUG)\n";
  assert.deepEqual(diagnose(text), []);
  // Launched with True, the prints are the kernel's: Triton can't format a run-time value into the f-string either.
  const on = diagnose(text.replace("DEBUG_TRITON=DEBUG)", "DEBUG_TRITON=True)"));
  assert.deepEqual(on.map((d) => d.split(" ").slice(0, 2).join(" ")), ["9:22 KL1075", "16:22 KL1075"], on.join("\n"));
  // Used as a value too (i + DEBUG_TRITON), the flag isn't only tested: the diagnostics stay.
  assert.equal(diagnose(text.replace("return x + i", "return x + i + DEBUG_TRITON")).length, 2);
});

test("check file.py: autotune configs named from a tuple a module function returns (flash-attention's `(pre, causal, noncausal) = get_bwd_configs(AUTOTUNE)`, each a local list of the function) are that element's configs", () => {
  const text = "import triton\nimport triton.language as tl\n\ndef get_configs(autotune):\n    if not autotune:\n        first = [triton.Config({'BLOCK': 16})]\n        second = [triton.Config({'BLOCK': 32})]\n        return (first, second)\n    second = []\n    for b in [64, 128]:\n        second.append(triton.Config({'BLOCK': b}))\n    return [], second\n\n(first_configs, second_configs) = get_configs(False)\n\n@triton.autotune(configs=second_configs, key=['n'])\n@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n    tl.static_assert(BLOCK == 32)\n    offs = tl.arange(0, BLOCK)\n    tl.store(x_ptr + offs, 1.0, mask=offs < n)\n";
  assert.deepEqual(diagnose(text), []);
  // The first element's config (BLOCK 16) is the other kernel's: its static assertion fails.
  assert.match(diagnose(text.replace("configs=second_configs", "configs=first_configs")).join("\n"), /KL\d+ .*static/i);
  // `a, b = …` without the parentheses, and a tuple written out.
  assert.deepEqual(diagnose(text.replace("(first_configs, second_configs) = get_configs(False)", "first_configs, second_configs = get_configs(False)")), []);
  assert.deepEqual(diagnose(text.replace("(first_configs, second_configs) = get_configs(False)", "first_configs, second_configs = [triton.Config({'BLOCK': 16})], [triton.Config({'BLOCK': 32})]")), []);
});

test("check file.py: a constexpr launched as one of two literals (SpargeAttn's `stage = 3 if is_causal else 1`, STAGE=stage, a helper taking `4 - STAGE` and 2 whose if/elif chain on it has no else) is checked with each; a value no branch takes is KL1022", () => {
  const text = "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\ndef inner(X, STAGE: tl.constexpr):\n    if STAGE == 1:\n        lo, hi = 0, 4\n    elif STAGE == 2:\n        lo, hi = 4, 8\n    elif STAGE == 3:\n        lo, hi = 0, 8\n    acc = 0.0\n    for i in range(lo, hi):\n        acc += tl.load(X + i)\n    return acc\n\n@triton.jit\ndef k(X, Out, STAGE: tl.constexpr):\n    a = inner(X, 4 - STAGE)\n    if STAGE != 1:\n        a += inner(X, 2)\n    tl.store(Out, a)\n\ndef run(x, causal):\n    o = torch.empty(1, device=x.device)\n    stage = 3 if causal else 1\n    k[(1,)](x, o, STAGE=stage)\n    return o\n";
  assert.deepEqual(diagnose(text), []);
  // Written in the launch, positionally.
  assert.deepEqual(diagnose(text.replace("k[(1,)](x, o, STAGE=stage)", "k[(1,)](x, o, 3 if causal else 1)")), []);
  // One of the two takes no branch of the helper's chain (4 - 7): its KL1022 is the kernel's.
  assert.match(diagnose(text.replace("3 if causal else 1", "3 if causal else 7")).join("\n"), /^14:20 KL1022 'lo' has no value here/);
});

for (const [name, body, expected, message] of rows) {
  test(`check file.py: ${name}`, () => {
    const got = diagnose(`${HEADER}${PROLOGUE}${body}\n`);
    if (expected === "") {
      assert.deepEqual(got, []);
      return;
    }
    assert.equal(got.length, 1, `one diagnostic, got:\n${got.join("\n")}`);
    assert.ok(got[0].startsWith(`${expected} `), got[0]);
    assert.ok(got[0].includes(message), got[0]);
  });
}

test("a multi-operand tl.reduce whose @triton.jit combine function returns one value too few: KL2130 at the combine function's name, related at its return", () => {
  const text = [
    "import triton",
    "import triton.language as tl",
    "",
    "@triton.jit",
    "def welford(mean_a, m2_a, w_a, mean_b, m2_b, w_b):",
    "    w = w_a + w_b",
    "    return mean_a + (mean_b - mean_a) * w_b / w, w",
    "",
    "@triton.jit",
    "def k(x_ptr, y_ptr, BLOCK: tl.constexpr):",
    "    x = tl.load(x_ptr + tl.arange(0, BLOCK))",
    "    mean, m2, w = tl.reduce((x, x * 0.0, x * 0.0 + 1.0), 0, welford)",
    "    tl.store(y_ptr, mean)",
    "",
  ].join("\n");
  const found = locate("k.py", text, checkPythonFile("k.py", text));
  assert.deepEqual(found.map((d) => `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.code}`), ["12:61-12:68 KL2130"], JSON.stringify(found));
  assert.match(found[0].message, /tl\.reduce of 3 blocks needs a combine function that returns 3 values, one per block \(return r0, r1, r2\), but welford returns a tuple of 2 values/);
  assert.deepEqual(found[0].related?.slice(0, 1).map((r) => `${r.line}:${r.column}`), ["7:12"]);
});

// kakaobrain/trident 1.1.0 defines every kernel inside a class (`class ReLU:` with `@staticmethod @triton.jit def
// forward(…)`), calling the class's helpers as `ReLU.helper(x)`. Before: `check` found the file clean (no kernels
// at all), then (db27dfb) KL1101 at each name. Now each is a kernel named `ReLU.forward`, checked as one, its
// mistakes at their own lines; a helper called through its class is a helper, and its mistakes are too.
test("check file.py: a @triton.jit function inside a class is checked as a kernel, its Cls.helper calls as helpers", () => {
  const trident = "import triton\nimport triton.language as tl\n\n\nclass ReLU:\n    @staticmethod\n    @triton.jit\n    def helper(x):\n        return tl.where(x > 0, x, 0.0)\n\n    @staticmethod\n    @triton.jit\n    def forward(x_ptr, n, BLOCK: tl.constexpr):\n        offs = tl.arange(0, BLOCK)\n        x = tl.load(x_ptr + offs, mask=offs < n)\n        tl.store(x_ptr + offs, ReLU.helper(x), mask=offs < n)\n\n    @staticmethod\n    def host(x):\n        return x\n";
  assert.deepEqual(diagnose(trident), []);
  const lambda = diagnose(trident.replace("        x = tl.load(", "        f = lambda v: v\n        x = tl.load("));
  assert.equal(lambda.length, 1, lambda.join("\n"));
  assert.match(lambda[0], /^15:13 KL1101 a lambda isn't part of the kernel language/);
  // A mistake in the helper: at its own line, reached through `ReLU.helper(x)`.
  assert.deepEqual(diagnose(trident.replace("return tl.where(x > 0, x, 0.0)", "return tl.where(x > 0, x, 0.0, 1.0)")), ["9:16 KL1040 tl.where takes (condition, a, b); got 4 arguments"]);
  // A name the class doesn't define: KL1104 at the call, naming what the class has.
  assert.deepEqual(diagnose(trident.replace("ReLU.helper(x)", "ReLU.nothing(x)")), ["16:32 KL1104 class ReLU has no @triton.jit function 'nothing' (it has helper, forward): a kernel calls a class's @triton.jit functions as ReLU.name(…)"]);
});

// NOTES §81: a scalar parameter's dtype annotation is its type, as Triton's jit.py makes it (KernelParam.annotation_type):
// `x.dtype` is the annotated one whatever the number; a dtype Kernel Lab's scalars lack is KL1010 at the parameter, an
// integer one given a float KL1105 (Triton's launcher refuses it too).
test("check file.py: scalar parameters annotated tl.float16 / tl.int64 / tl.uint32 / tl.int32 / tl.float32 have that dtype; tl.int16 is KL1010; a float for tl.int64 is KL1105", () => {
  const kernel = (params: string, body: string) =>
    `import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(y_ptr, ${params}, BLOCK: tl.constexpr):\n    offs = tl.arange(0, BLOCK)\n${body}\n    tl.store(y_ptr + offs, offs.to(tl.float32))\n`;
  const typed = kernel(
    "h: tl.float16, n: tl.int64, u: tl.uint32, i: tl.int32, s: tl.float32, b: 'tl.bfloat16'",
    "    tl.static_assert(h.dtype == tl.float16)\n    tl.static_assert(n.dtype == tl.int64)\n    tl.static_assert(u.dtype == tl.uint32)\n    tl.static_assert(i.dtype == tl.int32)\n    tl.static_assert(s.dtype == tl.float32)\n    tl.static_assert(b.dtype == tl.bfloat16)",
  );
  assert.deepEqual(diagnose(typed), []);
  // The launch passes ints for h and s and a float for nothing else: the annotations decide, not the numbers.
  assert.deepEqual(diagnose(`${typed}\nk[(1,)](None, 2, 5, 7, 1, 3, 2.5, BLOCK=16)\n`), []);
  assert.deepEqual(diagnose(kernel("c: tl.int16", "    tl.store(y_ptr + offs + c, 0.0)")), [
    "5:14 KL1010 'c: tl.int16': Kernel Lab's scalar parameters are tl.float32, tl.float16, tl.bfloat16, tl.int32, tl.uint32 and tl.int64; annotate 'c' with one of those (or pass a tensor)",
  ]);
  assert.deepEqual(diagnose(`${kernel("n: tl.int64", "    tl.store(y_ptr + offs, 1.0, mask=offs < n)")}\nk[(1,)](None, 2.5, BLOCK=16)\n`), [
    "5:14 KL1105 'n: tl.int64' is an integer parameter but the launch passes a float; pass an int (Triton's launcher refuses a float there too)",
  ]);
});

test("convert file.py: a scalar's dtype annotation is its TypeScript type (h: tl.float16 → h: f16, n: tl.int64 → n: i64, u: tl.uint32 → u: u32)", () => {
  const text = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(y_ptr, h: tl.float16, n: tl.int64, u: tl.uint32, m, BLOCK: tl.constexpr):\n    offs = tl.arange(0, BLOCK)\n    tl.store(y_ptr + offs, h + n + u + m, mask=offs < n)\n";
  const { text: ts, diagnostics } = pythonFileToTypeScript("k.py", text);
  assert.deepEqual(diagnostics, []);
  assert.match(ts, /function k\(y_ptr: Ptr<f32>, h: f16, n: i64, u: u32, m: i32, BLOCK: constexpr\)/);
});

test("a helper's parameter that chooses None (`n if CHECK else None`, inductor's flex attention) given True or left at its default False: decided while lowering, as Triton specializes on it", () => {
  const text = [
    "import triton",
    "import triton.language as tl",
    "",
    "@triton.jit",
    "def get_bounded_indices(indices, max_len=None):",
    "    return indices % max_len if max_len is not None else indices",
    "",
    "@triton.jit",
    "def block(x_ptr, offs, n, CHECK_BLOCK_BOUNDARY=False):",
    "    m = get_bounded_indices(offs, n if CHECK_BLOCK_BOUNDARY else None)",
    "    return tl.load(x_ptr + m)",
    "",
    "@triton.jit",
    "def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):",
    "    offs = tl.arange(0, BLOCK)",
    "    a = block(x_ptr, offs, n)",
    "    b = block(x_ptr, offs, n, CHECK_BLOCK_BOUNDARY=True)",
    "    tl.store(y_ptr + offs, a + b, mask=offs < n)",
    "",
  ].join("\n");
  // Before: KL1101 "None as a value" at the None, the helper lowered once with CHECK_BLOCK_BOUNDARY a run-time bool.
  assert.deepEqual(diagnose(text), []);
});
