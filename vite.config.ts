// Vite configuration for the browser app: the page is served from web/,
// the engine (wasm-bindgen `--target web` output, a plain asset, no plugin
// needed; see docs/architecture.md) runs in a module Web Worker, and the
// production build goes to dist/ (with the documentation site, built into
// public/docs/ by scripts/docs). Vitest runs the front end's unit tests.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'web',
  publicDir: '../public',
  base: './',
  plugins: [react()],
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022' },
  worker: { format: 'es' },
  // /live: the room server of a live class (`dcsim serve`, which serves the built app itself; scripts/start runs it on 5174 beside this).
  server: { port: 5173, strictPort: false, fs: { allow: ['..'] }, proxy: { '/live': { target: 'ws://127.0.0.1:5174', ws: true } } },
  preview: { port: 4173 },
  test: { root: '.', environment: 'node', include: ['web/src/**/*.test.ts', 'tests/unit/**/*.test.ts'] },
});
