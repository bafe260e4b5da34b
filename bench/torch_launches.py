"""PyTorch's side of bench/launches.ts: 1000 launches of a 4096-element add in sequence.

    python3 bench/torch_launches.py [--launches N] [--rounds R] [--out FILE]

Wall clock per launch (time.perf_counter, the GPU synchronised before the clock is read), median
over R rounds of N launches, each after a warm-up round:
  eager          torch.add(a, b, out=c) N times, one synchronize at the end
  eager_sync     the same with torch.cuda.synchronize() after every launch (like an awaited launch())
  graph          the N adds captured once in a CUDA graph, g.replay() and one synchronize
  triton         the Triton tutorial's add_kernel launched N times, one synchronize
Also the GPU time of one add (CUDA events around N back-to-back adds, / N).
"""
import argparse
import json
import statistics
import time

import torch


def per_launch_us(n, rounds, body):
    body()
    torch.cuda.synchronize()
    xs = []
    for _ in range(rounds):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        body()
        torch.cuda.synchronize()
        xs.append((time.perf_counter() - t0) * 1e6 / n)
    return statistics.median(xs)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--launches", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--out")
    args = p.parse_args()
    n, rounds = args.launches, args.rounds
    size = 4096
    a = torch.rand(size, device="cuda")
    b = torch.rand(size, device="cuda")
    c = torch.full((size,), float("nan"), device="cuda")
    want = a + b

    def eager():
        for _ in range(n):
            torch.add(a, b, out=c)

    def eager_sync():
        for _ in range(n):
            torch.add(a, b, out=c)
            torch.cuda.synchronize()

    results = {}
    results["eager"] = per_launch_us(n, rounds, eager)
    assert torch.equal(c, want)
    results["eager_sync"] = per_launch_us(n, rounds, eager_sync)

    # CUDA graph: capture on a side stream (as torch.cuda.graph does), after a warm-up there.
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            torch.add(a, b, out=c)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(n):
            torch.add(a, b, out=c)
    c.fill_(float("nan"))
    results["graph"] = per_launch_us(n, rounds, g.replay)
    assert torch.equal(c, want)

    try:
        import triton  # noqa: F401
        from torch_bench import triton_add

        def tri():
            for _ in range(n):
                triton_add(a, b, c)

        c.fill_(float("nan"))
        results["triton"] = per_launch_us(n, rounds, tri)
        assert torch.equal(c, want)
    except Exception as e:  # Triton missing: the other rows still count
        print(f"triton: skipped ({e})")

    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    eager()
    start.record()
    eager()
    end.record()
    torch.cuda.synchronize()
    gpu_us = start.elapsed_time(end) * 1000 / n

    names = {
        "eager": "torch.add(out=) ×N, one synchronize",
        "eager_sync": "torch.add(out=) + synchronize, ×N",
        "graph": "CUDA graph of N adds, replay + synchronize",
        "triton": "Triton add_kernel ×N, one synchronize",
    }
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}: add of {size} f32, {n} launches, median of {rounds} rounds, µs per launch (wall)")
    for k, v in results.items():
        print(f"  {names[k]:<58} {v:8.2f} µs")
    print(f"  {'GPU time per add (CUDA events over N back to back)':<58} {gpu_us:8.2f} µs")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(), "size": size, "launches": n, "rounds": rounds,
                       "perLaunchUs": results, "gpuUs": gpu_us}, f, indent=2)


if __name__ == "__main__":
    main()
