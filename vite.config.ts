// Vite configuration for the browser app in web/ (issue 5): the page is
// served from web/, the engine runs in a module Web Worker, and the
// production build goes to dist/. No plugin is needed for the engine:
// wasm-bindgen's `--target web` output loads as a plain asset
// (see ../shared/TOOLCHAIN.md).
export default {
  root: 'web',
  publicDir: '../public',
  build: { outDir: '../dist', emptyOutDir: true },
  worker: { format: 'es' },
};
