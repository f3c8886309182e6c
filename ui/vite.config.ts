import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vitest/config";

// Tauri serves `dist/` itself (frontendDist = ../ui/dist); `npm run dev` is for
// working on the layout only, since commands need the Rust side.
export default defineConfig({
  plugins: [svelte()],
  base: "/",
  clearScreen: false,
  server: { port: 1420, strictPort: true },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // One bundle of the app; CodeMirror's language-data loads grammars on demand.
    chunkSizeWarningLimit: 1500,
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "./client-environment.ts",
  },
});
