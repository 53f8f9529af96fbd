// Loaded with `node --import` (in the main thread and every worker thread): looking at the global
// `Response` throws, so a test sees whether a build loads Node's fetch implementation, which the first
// look at `Response` does (some 140 ms of a thread's start).
Object.defineProperty(globalThis, 'Response', {
  configurable: true,
  get() {
    throw new Error('the global Response was looked at');
  },
});
