import { vitePreprocess } from "@sveltejs/vite-plugin-svelte";

export default {
  preprocess: vitePreprocess(),
  compilerOptions: {
    // Runes everywhere: no legacy reactivity in this app.
    runes: true,
  },
};
