// Node's `events` for the web extension's bundle: @vscode/debugadapter's ProtocolServer extends
// EventEmitter and, run inline (DebugAdapterInlineImplementation), uses only `on` and `emit`.
class EventEmitter {
  constructor() {
    this._listeners = new Map();
  }
  on(event, listener) {
    this._listeners.set(event, [...(this._listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event, ...args) {
    const listeners = this._listeners.get(event) ?? [];
    for (const listener of listeners) listener(...args);
    return listeners.length > 0;
  }
}
module.exports = { EventEmitter };
