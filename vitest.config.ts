import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" } },
      // Model walks replay hundreds of paths: on a busy 2-core machine that can take longer than the default 5 s.
      { test: { name: "machines", include: ["tests/machines/**/*.test.ts"], environment: "node", testTimeout: 60_000 } },
      {
        test: {
          name: "server",
          include: ["tests/server/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file starts its own server and database; two at a time suits a 2-core machine.
          maxWorkers: 2
        }
      }
    ]
  }
})
