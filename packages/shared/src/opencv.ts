import { createRequire } from 'node:module';

/**
 * The OpenCV.js module (`@techstark/opencv-js`, OpenCV 4.5 compiled to WebAssembly). Typed as `any` on purpose:
 * the package's bundled types (mirada) describe a browser global, not the Emscripten module object Node gets.
 */
// biome-ignore lint/suspicious/noExplicitAny: the package's types describe a browser global, not this module object
export type OpenCv = any;

let loading: Promise<{ cv: OpenCv }> | null = null;

/**
 * Loads OpenCV.js once per process or worker thread, lazily (only callers that need it pay): ~2–3 s and ~100 MB on
 * first use, free afterwards. Shared by the recognition engine (sheet outline, perspective) and docgen (photo
 * tiers); imported as `@app/shared/opencv`, so nothing else of `@app/shared` loads it.
 * Resolves, when the WebAssembly runtime is initialised, to `{ cv }`: wrapped because the Emscripten module is
 * a thenable, which `await` or a promise chain would try to adopt (and hang on).
 */
export function loadOpenCv(): Promise<{ cv: OpenCv }> {
  loading ??= new Promise<{ cv: OpenCv }>((resolve) => {
    const cv = createRequire(import.meta.url)('@techstark/opencv-js');
    if (cv.Mat) resolve({ cv });
    else cv.onRuntimeInitialized = () => resolve({ cv });
  });
  return loading;
}
