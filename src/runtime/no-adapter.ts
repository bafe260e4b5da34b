// What to do when WebGPU finds no adapter, in the words of the user's OS: Dawn reaches the GPU
// through Vulkan on Linux, Metal on macOS and Direct3D 12 on Windows; a browser through its own
// WebGPU. NoAdapterError (errors.ts) ends its message with this.

/** Anywhere Dawn runs: the interpreter needs no GPU. */
const WITHOUT_A_GPU =
  "Without a GPU, `--cpu` (command line) or the `kernelLab.backend` setting `cpu` (editor) runs the kernel in Kernel Lab's interpreter.";

/** The advice for one platform (`process.platform`, or "browser"); Linux's for every other Unix. */
export function noAdapterAdvice(platform: NodeJS.Platform | "browser"): string {
  switch (platform) {
    case "browser":
      return (
        "This browser offers no WebGPU (`navigator.gpu` is missing, or it gives no adapter): use Chrome or Edge 113 or newer " +
        "on a secure context (https, or localhost), or Firefox or Safari where WebGPU is enabled. " +
        "Meanwhile Kernel Lab runs kernels in its interpreter."
      );
    case "darwin":
      return (
        "Dawn needs Metal, which every Mac since 2012 has; a virtual machine or a very old macOS may not offer it. " +
        `Update macOS, or run on the Mac itself rather than in a virtual machine. ${WITHOUT_A_GPU}`
      );
    case "win32":
      return (
        "Dawn needs Direct3D 12: Windows 10 or newer and a current driver from your GPU's vendor (NVIDIA, AMD, Intel); " +
        `in a virtual machine without a GPU, Dawn may find no adapter. ${WITHOUT_A_GPU}`
      );
    default:
      return (
        "Dawn needs a Vulkan driver. Install your GPU's Vulkan driver; on a machine without a GPU use Mesa's software " +
        "rasteriser lavapipe (Mesa 25 or newer; Debian 12: add the bookworm-backports suite, then " +
        "`apt-get install -t bookworm-backports mesa-vulkan-drivers libvulkan1`, or run " +
        `\`sudo bash scripts/setup.sh\`; see README). ${WITHOUT_A_GPU}`
      );
  }
}
