// Vitest's node environment, with modules transformed as for the browser: the
// stores' runes then run on Svelte's client runtime, as they do in the app.
import { builtinEnvironments, type Environment } from "vitest/runtime";

export default {
  ...builtinEnvironments.node,
  name: "svelte-client",
  viteEnvironment: "client",
} satisfies Environment;
