// The module hooks of no-inlined-wasm.mjs.
export async function load(url, context, next) {
  const result = await next(url, context);
  if (result.source !== undefined && String(result.source).includes('new DecompressionStream("gzip")')) {
    throw new Error(`shiki's base64 copy of onig.wasm was loaded: ${url}`);
  }
  return result;
}
