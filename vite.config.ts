import react from "@vitejs/plugin-react"
import UnoCSS from "unocss/vite"
import { createElement } from "react"
import { renderToStaticMarkup } from "react-dom/server"
import { defineConfig, type Plugin } from "vite"
import { MESSAGES } from "./src/machines/app.machine.ts"
import { SettingsApi } from "./src/schema/settings.ts"
import { SportsApi } from "./src/schema/sports.ts"
import { PreloaderView } from "./src/views/layout/PreloaderView.tsx"

const api = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`

/**
 * The startup calls the app makes first (src/root/app.ts), requested with the HTML instead of after the
 * JavaScript has loaded and run: the app's own calls then take the preloaded answers. The sports list only
 * for visitors (a stored token asks for the authenticated variant, which needs the bearer header).
 */
const startupPreloads = (): Plugin => {
  const everyone = [SettingsApi.endpoints.advertisement, SettingsApi.endpoints.appSettings, SettingsApi.endpoints.allAppSettings].map((e) => e.path)
  const script = `(function () {
  var token = null
  try { token = localStorage.getItem("token") || sessionStorage.getItem("token") } catch (e) {}
  var paths = ${JSON.stringify(everyone)}
  if (!token) paths.unshift(${JSON.stringify(SportsApi.endpoints.sportsData.path)})
  paths.forEach(function (path) {
    var link = document.createElement("link")
    link.rel = "preload"
    link.as = "fetch"
    link.crossOrigin = "anonymous"
    link.href = path
    document.head.appendChild(link)
  })
})()`
  return {
    name: "khel:startup-preloads",
    // Right after the title: before the stylesheet, which a later inline script would wait for.
    transformIndexHtml: (html) => html.replace("</title>", `</title>\n    <script>${script}</script>`)
  }
}

/**
 * The spec's preloader at 0 % as HTML inside #root, so the first paint needs only the HTML and the stylesheet,
 * not the JavaScript: React's first render replaces it with the same markup and the startup pipeline's progress.
 */
const staticPreloader = (): Plugin => ({
  name: "khel:static-preloader",
  transformIndexHtml: (html) =>
    html.replace(`<div id="root"></div>`, `<div id="root">${renderToStaticMarkup(createElement(PreloaderView, { progress: 0, message: MESSAGES.sports }))}</div>`)
})

export default defineConfig({
  plugins: [UnoCSS(), react(), startupPreloads(), staticPreloader()],
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
