// The few assertions the web suite needs (node:assert is not there in the browser's extension host).
export function ok(value: unknown, message = "expected a truthy value"): asserts value {
  if (!value) throw new Error(message);
}

export function equal<T>(actual: T, expected: T, message?: string): void {
  if (actual !== expected) throw new Error(`${message ? `${message}: ` : ""}got ${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`);
}

export function deepEqual(actual: unknown, expected: unknown, message?: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${message ? `${message}: ` : ""}got ${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`);
  }
}

export function match(text: string, pattern: RegExp, message?: string): void {
  if (!pattern.test(text)) throw new Error(`${message ? `${message}: ` : ""}${JSON.stringify(text)} does not match ${pattern}`);
}
