/**
 * Mermaid, the DOMPurify it sanitises with and the dagre it lays graphs out with, loaded together on a
 * thread's first diagram (diagrams.ts `loadMermaid`). The compiled CLI keeps them apart from the render
 * worker's own code (bin/ensure-built.mjs): an ES module with its chunks, which only a thread that meets
 * a diagram loads, while the worker's code runs from V8's code cache.
 */
export { default as purify } from 'dompurify';
export { default as mermaid } from 'mermaid';
export { Graph } from 'dagre-d3-es/src/graphlib/index.js';
export { layout } from 'dagre-d3-es/src/dagre/index.js';
