/**
 * React's JSX runtime as an ES module, for the bundle only (cli/build/bundle.ts points the runtime's
 * `react/jsx-runtime` here). React ships it as CommonJS, through which every element costs
 * `(0, import_jsx_runtime.jsx)(…)`; from here it is a plain `jsx(…)` call: some 180 of them in the
 * page's script, 0.3 KB of its gzip.
 */
import * as runtime from 'react/jsx-runtime';

export const { jsx, jsxs, Fragment } = runtime;
