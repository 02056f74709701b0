import react from "@vitejs/plugin-react"
import UnoCSS from "unocss/vite"
import { defineConfig } from "vite"

const api = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`

export default defineConfig({
  plugins: [UnoCSS(), react()],
  build: {
    target: "es2022",
    sourcemap: true,
    assetsInlineLimit: 2048,
    rolldownOptions: {
      output: {
        // Everything the first page imports statically in one chunk: views import machines and schemas but never
        // services, the composition root's lazy flows import services, so the default splitting would cut what the
        // first page needs into several common chunks (each one more request and a worse compression).
        codeSplitting: { groups: [{ name: "app", tags: ["$initial"] }] }
      }
    }
  },
  server: {
    // `npm run dev`: Vite serves the site, the API server answers the rest.
    proxy: {
      "/api": api,
      "/identity": api,
      "/images": api,
      "/uploads": api,
      "/games": api,
      "/socket.io": { target: api, ws: true }
    }
  }
})
