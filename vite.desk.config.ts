import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

/**
 * The operator's desk (/admin) as a build of its own: its entry (admin.html, src/desk/main.tsx) and chunks, in the
 * same outDir as the player site's (`npm run build` runs this after vite.config.ts). A build apart, so nothing of
 * the desk can end up in the player's chunks (tests/e2e/desk.spec.ts reads the build), and the player's build
 * is what it was without the desk. Its files are named desk-… under assets/, immutable like the player's.
 */
export default defineConfig({
  plugins: [react()],
  build: {
    target: "es2022",
    sourcemap: "hidden",
    // The player site's build wrote the folder first.
    emptyOutDir: false,
    // Desktop staff on office networks: one larger first chunk beats several round trips.
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      input: { desk: "admin.html" },
      output: {
        entryFileNames: "assets/desk-[hash].js",
        chunkFileNames: "assets/desk-[name]-[hash].js",
        assetFileNames: "assets/desk-[name]-[hash][extname]"
      }
    }
  }
})
