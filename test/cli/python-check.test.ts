// `kernel-lab check file.py`: one mistake gives exactly one diagnostic, at the right Python line
// (docs/LANGUAGE.md §4 format); a clean tutorial-style file gives none; `convert` goes both ways.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ensureBuilt, root } from "./build";

before(ensureBuilt);

const dir = mkdtempSync(path.join(tmpdir(), "kl-python-"));

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", ...args], { cwd: root, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const KERNEL = (store: string) => `import torch
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.)
    ${store}


def scale(x, alpha):
    out = torch.empty_like(x)
    n = x.numel()
    scale_kernel[lambda meta: (triton.cdiv(n, meta['BLOCK']), )](x, out, n, alpha, BLOCK=256)
    return out
`;

test("check file.py: a clean kernel has no diagnostics (exit 0)", () => {
  const file = path.join(dir, "clean.py");
  writeFileSync(file, KERNEL("tl.store(out_ptr + offs, x * alpha, mask=mask)"));
  const r = cli(["check", file]);
  assert.equal(r.stdout, "");
  assert.equal(r.code, 0, r.stderr);
});

test("check file.py: a block shape mistake is one diagnostic at its Python line and column (exit 2)", () => {
  const file = path.join(dir, "mistake.py");
  writeFileSync(file, KERNEL("tl.store(out_ptr + offs, x[:, None] * tl.arange(0, 2 * BLOCK)[None, :], mask=mask)"));
  const r = cli(["check", file]);
  const lines = r.stdout.trim().split("\n");
  assert.equal(lines.length, 1, r.stdout);
  assert.match(lines[0], /mistake\.py:12:30 - error KL2014: /);
  assert.equal(r.code, 2);
});

test("check file.py: a kernel the file doesn't launch is checked with guessed types, said on stderr, with no diagnostic of the guess's", () => {
  // A gather: idx_ptr holds int32 indices. Taken as float32 (the guess), `src_ptr + idx` would be a false KL2004.
  const file = path.join(dir, "no-launch.py");
  writeFileSync(
    file,
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef gather_kernel(idx_ptr, src_ptr, out_ptr, n, BLOCK: tl.constexpr):\n" +
      "    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)\n    mask = offs < n\n" +
      "    idx = tl.load(idx_ptr + offs, mask=mask, other=0)\n    tl.store(out_ptr + offs, tl.load(src_ptr + idx, mask=mask), mask=mask)\n",
  );
  const r = cli(["check", file]);
  assert.equal(r.stdout, "");
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^kernel-lab: note: gather_kernel isn't launched in .*no-launch\.py, so it was checked with idx_ptr, src_ptr and out_ptr as pointers to float32, n as an int32 \(a diagnostic only that float32 guess gives is left out\)\. A launch in the file \(gather_kernel\[grid\]\(…\)\) checks it with the launch's types\.\n$/);
  // A launched kernel's types are its launch's: nothing to say.
  assert.equal(cli(["check", path.join(dir, "clean.py")]).stderr, "");
});

test("check file.py: a construct outside the language is KL1101 naming it", () => {
  const file = path.join(dir, "lambda.py");
  writeFileSync(file, KERNEL("f = lambda v: v * alpha"));
  const r = cli(["check", file]);
  assert.match(r.stdout.trim(), /^.*lambda\.py:12:9 - error KL1101: a lambda isn't part of the kernel language/);
  assert.equal(r.stdout.trim().split("\n").length, 1);
});

test("check file.py: a constexpr only ever tested against None is taken as None, so a raise under `if X is not None:` is no error; under another test it still is", () => {
  // sglang's elementwise.py: `if quant_max is not None: raise NotImplementedError()`; Triton never
  // compiles a branch its constexpr rules out, and a run decides it (statements.ts deadBranches).
  const kernel = (test: string) =>
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef scale_kernel(x_ptr, out_ptr, n, quant_max: tl.constexpr, BLOCK: tl.constexpr):\n" +
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    mask = offs < n\n    x = tl.load(x_ptr + offs, mask=mask)\n" +
    `    if ${test}:\n        raise NotImplementedError()\n    tl.store(out_ptr + offs, x * 2, mask=mask)\n`;
  const none = path.join(dir, "raise-none.py");
  writeFileSync(none, kernel("quant_max is not None"));
  const r = cli(["check", none]);
  assert.equal(r.stdout, "");
  assert.equal(r.code, 0, r.stderr);
  const runtime = path.join(dir, "raise-runtime.py");
  writeFileSync(runtime, kernel("n > 4"));
  assert.match(cli(["check", runtime]).stdout, /raise-runtime\.py:11:9 - error KL1101: raise isn't part of the kernel language where it is compiled: `raise NotImplementedError\(\)`; Triton compiles a raise only in a branch a constexpr rules out/);
  // A branch decided on what only typing tells (FlagGems' topk.py: `elif core.constexpr(x.dtype.primitive_bitwidth) == 64:
  // … else: raise ValueError(…)`) drops its raise as Triton does; was KL1101 at every raise.
  const typed = path.join(dir, "raise-typed.py");
  writeFileSync(typed, kernel("x.dtype.primitive_bitwidth != 32"));
  assert.deepEqual(cli(["check", typed]).stdout, "");
  writeFileSync(typed, kernel("x.dtype.primitive_bitwidth == 32"));
  assert.match(cli(["check", typed]).stdout, /raise-typed\.py:11:9 - error KL1101: raise isn't part of the kernel language where it is compiled/);
});

test("convert: Python → .kernel.ts that checks clean, with a defineRun from the launch; and back to Python", () => {
  const py = path.join(dir, "scale.py");
  writeFileSync(py, KERNEL("tl.store(out_ptr + offs, x * alpha, mask=mask)"));
  const ts = path.join(dir, "scale.kernel.ts");
  assert.equal(cli(["convert", py, "--out", ts]).code, 0);
  const text = readFileSync(ts, "utf8");
  assert.match(text, /grid: \(n, c\) => \[cdiv\(n, c\.BLOCK\)\]/);
  assert.match(text, /args: \(n\) => \(\{ x_ptr: rand\(n\), out_ptr: empty\(n\), n: n,/);
  assert.equal(cli(["check", ts]).stdout, "");
  const back = cli(["convert", ts]);
  assert.equal(back.code, 0, back.stderr);
  assert.match(back.stdout, /@triton\.jit\ndef scale_kernel\(x_ptr, out_ptr, n, alpha, BLOCK: tl\.constexpr\):/);
  assert.match(back.stdout, /tl\.store\(out_ptr \+ offs, x \* alpha, mask=mask\)/);
});

test("check file.py reads the modules beside it that it imports: their @triton.jit functions are checked through the calls; a module that isn't there is KL1150", () => {
  const py = path.join(root, "test/python");
  assert.deepEqual(cli(["check", path.join(py, "xmod-kernels.py")]), { code: 0, stdout: "", stderr: "" });
  // A folder beside it without __init__.py is a namespace package, as in CPython 3 (xmod_namespace/activations.py).
  assert.deepEqual(cli(["check", path.join(py, "xmod-namespace.py")]), { code: 0, stdout: "", stderr: "" });
  // A module inside a package is checked as that package's: its relative imports resolve (xmod_relative/ops/scaled.py).
  assert.deepEqual(cli(["check", path.join(py, "xmod-relative.py"), path.join(py, "xmod_relative/ops/scaled.py"), path.join(py, "xmod_relative/ops/_math.py")]), { code: 0, stdout: "", stderr: "" });
  // The same script in a folder without the package: each call to it is KL1150.
  const alone = path.join(dir, "xmod-kernels.py");
  writeFileSync(alone, readFileSync(path.join(py, "xmod-kernels.py"), "utf8"));
  const r = cli(["check", alone]);
  assert.notEqual(r.code, 0);
  assert.ok(r.stdout.trim().split("\n").every((l) => l.includes("KL1150")), r.stdout);
  assert.match(r.stdout, /xmod-kernels\.py:\d+:\d+ - error KL1150: tle\.program_id is a function of another module/);
});

test("check: a mistake inside another module's @triton.jit helper is printed at the helper's path:line:col, once for every kernel that reaches it; --json carries the file and the calls", () => {
  const py = path.join(root, "test/python");
  const folder = mkdtempSync(path.join(dir, "xmod-"));
  cpSync(path.join(py, "xmod_helpers"), path.join(folder, "xmod_helpers"), { recursive: true });
  const script = readFileSync(path.join(py, "xmod-kernels.py"), "utf8");
  writeFileSync(path.join(folder, "xmod-kernels.py"), script);
  const lang = readFileSync(path.join(py, "xmod_helpers/lang.py"), "utf8");
  writeFileSync(path.join(folder, "xmod_helpers/lang.py"), lang.replace("return tl.program_id(axis)", "return tl.program_idx(axis)"));
  const line = lang.split("\n").findIndex((l) => l.includes("return tl.program_id(axis)")) + 1;
  const calls = script.split("\n").flatMap((l, i) => (l.includes("tle.program_id(") ? [i + 1] : []));
  const check = (...args: string[]) => spawnSync(process.execPath, [path.join(root, "bin/kernel-lab.js"), "check", "xmod-kernels.py", ...args], { cwd: folder, encoding: "utf8", timeout: 120_000 });
  const r = check();
  assert.equal(r.status, 2, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.equal(lines.length, 1, r.stdout);
  assert.match(lines[0], new RegExp(`^xmod_helpers/lang\\.py:${line}:12 - error KL1005: tl\\.program_idx doesn't exist; did you mean tl\\.program_id\\? \\(called at xmod-kernels\\.py:${calls[0]}:\\d+, xmod-kernels\\.py:${calls[1]}:\\d+\\)$`));
  const json = JSON.parse(check("--json").stdout) as { diagnostics: { file: string; line: number; related: { file: string; line: number }[] }[] };
  assert.deepEqual(json.diagnostics.map((d) => [d.file, d.line, d.related.map((c) => `${c.file}:${c.line}`)]), [["xmod_helpers/lang.py", line, calls.map((c) => `xmod-kernels.py:${c}`)]]);
});

test("check of the kernel files torch.compile writes (its cache's …/c*.py): torch._inductor's triton_helpers and libdevice are Kernel Lab's own modules, its decorators known; a helper it lacks is KL1104 naming the nearest", () => {
  // Each kernel of the three output code files in test/python/inductor_generated/ (torch 2.2, 2.5 and 2.8), written
  // to a file of its own as inductor's cache holds it. Before: KL1150 at every triton_helpers / libdevice / tl_math
  // call (the module not beside the script) and KL1102 at every @triton_heuristics decorator.
  const generated = path.join(root, "test/python/inductor_generated");
  const folder = mkdtempSync(path.join(dir, "inductor-"));
  const files: string[] = [];
  for (const name of ["lora_torch22.py", "gmixer_layer_norm_torch25.py", "rmsnorm_softmax_torch28.py"]) {
    for (const [, kernel, text] of readFileSync(path.join(generated, name), "utf8").matchAll(/= async_compile\.triton\('(\w+)', '''([^]*?)'''/g)) {
      files.push(path.join(folder, `${kernel}.py`));
      writeFileSync(files[files.length - 1], text);
    }
  }
  assert.equal(files.length, 7);
  const r = cli(["check", ...files]);
  assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: "" }, r.stderr);
  // `wgsl` reads the modules as `check` does (was KL1150 at each helper call, with the modules beside the script too).
  for (const kernel of [files.find((f) => f.endsWith("triton_per_fused__softmax_add_zeros_3.py"))!, path.join(root, "test/python/xmod-kernels.py")]) {
    const w = cli(["wgsl", kernel]);
    assert.equal(w.code, 0, w.stderr);
    assert.match(w.stdout, /@compute/);
  }
  // Every helper call was compiled from the module: a name it lacks is the module's KL1104, with the nearest.
  const softmax = files.find((f) => f.endsWith("triton_per_fused__softmax_add_zeros_3.py"))!;
  const typo = path.join(folder, "typo.py");
  writeFileSync(typo, readFileSync(softmax, "utf8").replace("triton_helpers.max2(", "triton_helpers.max3("));
  const t = cli(["check", typo]);
  assert.notEqual(t.code, 0);
  assert.match(t.stdout, /^\S*typo\.py:\d+:\d+ - error KL1104: triton_helpers \(\S*triton_helpers\.py\) has no @triton\.jit function 'max3'; did you mean triton_helpers\.max2\?\n$/);
  const math = path.join(folder, "math.py");
  writeFileSync(math, readFileSync(softmax, "utf8").replace("tl_math.exp(", "tl_math.expp("));
  assert.match(cli(["check", math]).stdout, /^\S*math\.py:\d+:\d+ - error KL1005: tl_math\.expp doesn't exist/);
});

test("check of library files that run clean reports nothing its own guesses make (each was an error before)", () => {
  const py = path.join(root, "test/python");
  // megablocks' `iptr = a if A_TO_B else b`: both sides pointers (was "tl.load needs pointers, got f32[64]");
  // cce's helper module: a parameter used only as a mask is its callers' block of bools (was "the mask must be a
  // comparison, got i32"), and `dEC + … if KAHAN_E else None` passed to a helper is a pointer (was "got i64[16, 16]");
  // gemlite's `group_scale = next_power_of_2_triton`, itself bound in an `if` (was KL1004 "isn't a tl.* function");
  // sglang's REDUCE_TYPE, a dtype bound in a module-level `if`, which only a run tells (was KL1006 "not defined").
  // nan-truth.py's `h = x.half()`, launched: its pointer is to f16, as the file says (was KL2007 "'left' is f32 but is
  // assigned f16", from the float32 guess).
  // library-shims.py's `math_shim = importlib.import_module(BACKEND_MATH)` in the module it imports (FlagGems'
  // tl_extra_shim), and `rsqrt = math_shim.rsqrt` in the script: libdevice (was KL1150 "can't read here" at math_shim.pow).
  for (const file of ["megablocks_kit/kernels.py", "cce_kit/tl_utils.py", "cce_kit/cce_backward.py", "gemlite_kit/kernels.py", "sglang-idioms.py", "nan-truth.py", "library-shims.py"]) {
    const r = cli(["check", path.join(py, file)]);
    assert.deepEqual({ file, code: r.code, stdout: r.stdout }, { file, code: 0, stdout: "" });
  }
  // A real mistake beside a mask-only parameter is still found.
  const broken = path.join(dir, "mask-helper.py");
  writeFileSync(broken, readFileSync(path.join(py, "cce_kit/tl_utils.py"), "utf8").replace("new_v = v + cur_v", "new_v = v + cur_v + tl.zeros([2, 3], tl.float32)"));
  assert.match(cli(["check", broken]).stdout, /mask-helper\.py:\d+:\d+ - error KL2002: block extents must be powers of two, got 3/);
});

test("check gives tensor descriptors the block shapes the file gives them: a config's pre_hook (`nargs[\"d\"].block_shape = [1, BLOCK_M, BLOCK_N]`, through locals too) and the launching function's `TensorDescriptor.from_tensor(t, block_shape=[1, BLOCK_M, BLOCK_K])`", () => {
  // Liger's mlp.py makes its descriptors both ways; check took blocks of 16 on every axis: KL2017 "can't reshape
  // f32[16, 16, 16] to [16, 32]" at each tl.reshape of a descriptor's block (liger-idioms.py: its pre_hook form).
  const liger = cli(["check", path.join(root, "test/python/liger-idioms.py")]);
  assert.deepEqual({ code: liger.code, stdout: liger.stdout }, { code: 0, stdout: "" });
  const file = path.join(dir, "descriptor-shapes.py");
  const source = (reshape: string) => `import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


def hook(nargs):
    BLOCK_M = nargs["BLOCK_M"]
    nargs["desc_y"].block_shape = [1, BLOCK_M, nargs["BLOCK_N"]]


@triton.autotune(configs=[triton.Config({"BLOCK_M": 32, "BLOCK_N": 64}, pre_hook=hook)], key=["N"])
@triton.jit
def scale_kernel(desc_x, desc_y, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    block = desc_x.load([0, 0, 0])
    block = tl.reshape(block, [${reshape}]) * 2.0
    desc_y.store([0, 0, 0], tl.reshape(block, [1, BLOCK_M, BLOCK_N]))


def scale(x, y):
    BLOCK_M = 32
    desc_x = TensorDescriptor.from_tensor(x, block_shape=[1, BLOCK_M, 64])
    desc_y = TensorDescriptor.from_tensor(y, block_shape=[1, 1, 1])
    scale_kernel[(1,)](desc_x, desc_y, x.shape[2])
`;
  writeFileSync(file, source("BLOCK_M, BLOCK_N"));
  assert.equal(cli(["check", file]).stdout, "");
  // A real mistake in the same place is still one.
  writeFileSync(file, source("BLOCK_M, BLOCK_N * 2"));
  assert.match(cli(["check", file]).stdout, /descriptor-shapes\.py:15:13 - error KL2017: can't reshape f32\[1, 32, 64\] \(2048 elements\) to \[32, 128\]/);
});

test("check takes a pointer's dtype from the tensor the file's launch passes, where its assignment names one dtype (dtype=torch.float16, .half()) or copies another's (torch.empty_like); else it guesses float32 as before", () => {
  const file = path.join(dir, "passed-dtypes.py");
  const source = (made: string) => `import torch
import triton
import triton.language as tl


@triton.jit
def copy_half(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.static_assert(x.dtype == tl.float16)
    tl.store(y_ptr + offs, x, mask=offs < n)


${made}
y = torch.empty_like(x)
copy_half[(1,)](x, y, 100, BLOCK=128)
`;
  writeFileSync(file, source('x = torch.randn(100, device="cuda", dtype=torch.float16)'));
  assert.equal(cli(["check", file]).stdout, "");
  writeFileSync(file, source('x = torch.randn(100, device="cuda").half()'));
  assert.equal(cli(["check", file]).stdout, "");
  // Two dtypes named: not known, so the float32 guess, whose static assertion fails as before.
  writeFileSync(file, source('x = torch.randn(100, device="cuda", dtype=torch.float16).to(torch.float32)'));
  assert.match(cli(["check", file]).stdout, /passed-dtypes\.py:10:5 - error KL\d+/);
});

test("check follows a math module re-exported through a package's __init__ (FlagGems' tl_extra_shim: bound in a try/except chain in flag_gems.utils.triton_lang_helper, imported by flag_gems.utils, then by ops/norm.py with `pow = tl_extra_shim.pow`)", () => {
  const pkg = path.join(dir, "shimpkg");
  mkdirSync(path.join(pkg, "utils"), { recursive: true });
  writeFileSync(path.join(pkg, "__init__.py"), "");
  writeFileSync(path.join(pkg, "utils", "__init__.py"), "from shimpkg.utils.lang_helper import tl_extra_shim\n");
  writeFileSync(
    path.join(pkg, "utils", "lang_helper.py"),
    "import triton\nimport triton.language as tl\n\n\ndef backend_module():\n    raise ImportError()\n\n\ntry:\n    tl_extra_shim = backend_module()\nexcept ImportError:\n    tl_extra_shim = triton.language.extra.libdevice\n",
  );
  mkdirSync(path.join(pkg, "ops"), { recursive: true });
  writeFileSync(path.join(pkg, "ops", "__init__.py"), "");
  const norm = path.join(pkg, "ops", "norm.py");
  writeFileSync(
    norm,
    "import triton\nimport triton.language as tl\n\nfrom shimpkg.utils import tl_extra_shim\n\npow = tl_extra_shim.pow\n\n\n@triton.jit\ndef cube_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    x = tl.load(x_ptr + offs, mask=offs < n)\n    tl.store(y_ptr + offs, pow(x, 3.0) + tl_extra_shim.exp2(x), mask=offs < n)\n",
  );
  // Was KL1004 "'pow' isn't a tl.* function" and KL1150 at tl_extra_shim.exp2 (the re-export one level too deep).
  const r = cli(["check", norm]);
  assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: "" });
});

test("check takes an int argument the file's launches all pass as 1 as Triton does, the constant 1 (unless do_not_specialize names it): kernl's `if mask_batch_size == 1:` rebinding a tuple", () => {
  // Was KL2007 "'mask_batch_idx' holds a tuple of 1 values" at both kernels; the run (lib/triton/_jit.py) always specialized.
  const r = cli(["check", path.join(root, "test/python/kernl-idioms.py")]);
  assert.deepEqual(
    r.stdout.split("\n").filter((l) => / error /.test(l)).map((l) => l.replace(/^.*kernl-idioms\.py:/, "").replace(/ - error (KL\d+):.*/, " $1")),
    ["130:9 KL2007", "131:30 KL1043"],
  );
  // By position too: do_not_specialize=[3].
  const file = path.join(dir, "by-position.py");
  writeFileSync(file, readFileSync(path.join(root, "test/python/kernl-idioms.py"), "utf8").replace('do_not_specialize=["mask_batch_size"]', "do_not_specialize=[3]"));
  assert.match(cli(["check", file]).stdout, /by-position\.py:130:9 - error KL2007/);
});
