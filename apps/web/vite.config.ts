import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    proxy: { '/trpc': 'http://127.0.0.1:3000', '/v1': 'http://127.0.0.1:3000' },
  },
  // The manifest (dist/.vite/manifest.json) maps routes' chunks to their imports for the bundle budget check.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
});
