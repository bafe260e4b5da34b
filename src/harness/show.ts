// How a value the user's run definition gave is named in a message: short, never the whole array.

/** A short description of a value for messages. */
export function show(x: unknown): string {
  if (x === undefined) return "undefined";
  if (x === null) return "null";
  if (typeof x === "function") return "a function";
  if (ArrayBuffer.isView(x)) return `a ${x.constructor.name} of ${(x as unknown as ArrayLike<number>).length} elements`;
  if (Array.isArray(x)) return x.length > 8 ? `an array of ${x.length} elements` : JSON.stringify(x);
  if (typeof x === "object") {
    try {
      const s = JSON.stringify(x);
      return s.length > 80 ? `${s.slice(0, 77)}...` : s;
    } catch {
      return "an object";
    }
  }
  return typeof x === "string" ? JSON.stringify(x) : String(x);
}
