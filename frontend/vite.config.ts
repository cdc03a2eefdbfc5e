import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
    // The currency table is shared with the server (common/data/currencies.json), one level up.
    fs: { allow: ['..'] },
  },
  // The manifest lets scripts/bundle-size.mjs find the login page's chunks.
  build: { outDir: 'dist', manifest: true },
});
