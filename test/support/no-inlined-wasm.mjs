// Loaded with `node --import`: makes loading shiki's gzipped base64 copy of onig.wasm
// (@shikijs/engine-oniguruma/dist/wasm-inlined.mjs, bundled or not) throw, in the main thread and in
// every worker thread, so a test sees whether a build still loads it.
import { register } from 'node:module';

register('./no-inlined-wasm-hooks.mjs', import.meta.url);
