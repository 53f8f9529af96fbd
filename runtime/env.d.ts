/** Side-effect CSS imports, bundled by esbuild. */
declare module '*.css';
