import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: [
      // CPU-bound walks (model-based paths, property tests) take seconds on a loaded 2-core machine: the deadline is generous.
      { test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", testTimeout: 60_000 } },
      // The app and sign-in walks replay the most paths (flows open and close in every state): about a minute alone,
      // past two on a loaded 2-core machine, so their deadline only catches a walk that never ends.
      { test: { name: "machines", include: ["tests/machines/**/*.test.ts"], environment: "node", testTimeout: 600_000 } },
      {
        test: {
          name: "server",
          include: ["tests/server/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          // A hook starts a server (migrations, seed, the embedded database unpacked): a minute or more when the machine
          // is loaded, so the deadline is the machine's worst day, not its usual one.
          hookTimeout: 300_000,
          // Each file starts its own server and database; two at a time suits a 2-core machine.
          maxWorkers: 2
        }
      }
    ]
  }
})
