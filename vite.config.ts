import react from "@vitejs/plugin-react"
import UnoCSS from "unocss/vite"
import { createElement } from "react"
import { renderToStaticMarkup } from "react-dom/server"
import { resolve } from "node:path"
import { defineConfig, type Plugin, type Rollup } from "vite"
import { MESSAGES } from "./src/machines/app.machine.ts"
import { HEAD_SCRIPT } from "./src/root/headScript.ts"
import { FIRST_PAGES } from "./src/views/firstPages.ts"
import { PreloaderView } from "./src/views/layout/PreloaderView.tsx"
import { pwa } from "./scripts/vitePwa.ts"

const api = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`

/** The theme and the startup calls' preloads, inline in the head (src/root/headScript.ts: the CSP allows it by hash). */
const headScript = (): Plugin => ({
  name: "khel:head-script",
  transformIndexHtml: (html) => html.replace("<!-- khel:head-script (src/root/headScript.ts, inlined by vite.config.ts) -->", `<script>${HEAD_SCRIPT}</script>`)
})

/**
 * The spec's preloader at 0 % as HTML inside #root, so the first paint needs only the HTML and the stylesheet,
 * not the JavaScript: React's first render replaces it with the same markup and the startup pipeline's progress.
 */
const staticPreloader = (): Plugin => ({
  name: "khel:static-preloader",
  transformIndexHtml: (html) =>
    html.replace(`<div id="root"></div>`, `<div id="root">${renderToStaticMarkup(createElement(PreloaderView, { progress: 0, message: MESSAGES.sports }))}</div>`)
})

/**
 * The app's stylesheet (7 KB gzip) inline in index.html, so the first paint waits for the HTML alone, not for one
 * more request on a slow network; the page's CSP allows it by its hash (server/edge/site.ts). Route chunks keep
 * their own stylesheet files. A chunk loaded from another chunk lists the entry's stylesheet among what to load
 * first, and Vite's preload helper adds its link unless one is there: a link to it stays, of a type no browser
 * loads (a `disabled` one was fetched all the same, at the highest priority, beside the first chunk).
 */
const inlineStylesheet = (): Plugin => ({
  name: "khel:inline-stylesheet",
  apply: "build",
  transformIndexHtml: {
    order: "post",
    handler: (html, ctx) =>
      html.replace(/<link rel="stylesheet" crossorigin href="(\/(assets\/index-[\w-]+\.css))">/, (link, href: string, file: string) => {
        const asset = ctx.bundle?.[file]
        return asset?.type === "asset" ? `<style>${String(asset.source)}</style>\n    <link rel="stylesheet" type="text/x-inlined" href="${href}">` : link
      })
  }
})

/**
 * `first-chunks.json`: by path, the scripts the page a visit lands on needs first (src/views/firstPages.ts: its
 * page chunk and its flows, with what they import, less what the first chunk already carries), then the image it
 * paints largest, if any. The server sends
 * them as `modulepreload` links with the HTML (server/edge/site.ts), so they download beside the first chunk
 * instead of after it has run. A page or flow missing from the bundle fails the build.
 */
const firstChunks = (): Plugin => ({
  name: "khel:first-chunks",
  apply: "build",
  generateBundle(_, bundle) {
    const chunks = Object.values(bundle).filter((output): output is Rollup.OutputChunk => output.type === "chunk")
    const withImports = (start: ReadonlyArray<string>) => {
      const seen = new Set<string>()
      const visit = (fileName: string) => {
        if (seen.has(fileName)) return
        seen.add(fileName)
        const chunk = bundle[fileName]
        if (chunk?.type === "chunk") chunk.imports.forEach(visit)
      }
      start.forEach(visit)
      return seen
    }
    const loaded = withImports(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName))
    const chunkOf = (module: string) => {
      // The chunk holding the module: its own, or a group's (the event page's, a lobby's).
      const chunk = chunks.find((candidate) => candidate.moduleIds.includes(resolve(module)))
      if (!chunk) this.error(`first-chunks: no chunk for ${module} (src/views/firstPages.ts)`)
      return chunk.fileName
    }
    const byPath = Object.fromEntries(Object.entries(FIRST_PAGES).map(([path, first]) => {
      const own = [chunkOf(`src/views/pages/${first.page}.tsx`), ...first.flows.map((flow) => chunkOf(`src/root/flows/${flow}.ts`))]
      const scripts = [...withImports(own)].filter((fileName) => !loaded.has(fileName)).map((fileName) => `/${fileName}`)
      return [path, first.image ? [...scripts, first.image] : scripts]
    }))
    this.emitFile({ type: "asset", fileName: "first-chunks.json", source: JSON.stringify(byPath) })
  }
})

/** `npm run dev`: /admin and its routes are the desk's page (built apart by vite.desk.config.ts). */
const deskInDev = (): Plugin => ({
  name: "khel:desk-in-dev",
  apply: "serve",
  configureServer: (server) => {
    server.middlewares.use((request, _response, next) => {
      if (request.url === "/admin" || request.url?.startsWith("/admin/")) request.url = "/admin.html"
      next()
    })
  }
})

export default defineConfig({
  plugins: [UnoCSS(), react(), headScript(), staticPreloader(), inlineStylesheet(), firstChunks(), deskInDev(), ...pwa()],
  build: {
    target: "es2022",
    // Maps are built for an error tracker but not referenced from the bundles, and the server never serves them.
    sourcemap: "hidden",
    assetsInlineLimit: 2048,
    rolldownOptions: {
      output: {
        // Everything the first page imports statically in one chunk: views import machines and schemas but never
        // services, the composition root's lazy flows import services, so the default splitting would cut what the
        // first page needs into several common chunks (each one more request and a worse compression). The event
        // page and what it imports (the slip, cash out, the bets table…), shared with racing, likewise, and a casino
        // lobby with its flow: one chunk each, not a dozen of a few KB that a phone on slow 4G asks for six at a time.
        codeSplitting: {
          groups: [
            { name: "app", tags: ["$initial"], priority: 3 },
            { name: "event", test: /src\/views\/pages\/Event\.tsx$/, priority: 1 },
            { name: "lobby", test: /src\/(views\/pages\/Casino\.tsx|root\/flows\/casino\.ts)$/, priority: 1 },
            // Small modules many pages share (phone numbers, date ranges, request ids; the price cell, which the home
            // page's lists show too): chunks of their own, not an event's or a lobby's.
            { name: "common", test: /src\/(domain\/(phone|ranges)|root\/requests)\.ts$/, priority: 2 },
            { name: "OddsCell", test: /src\/views\/widgets\/OddsCell\.tsx$/, priority: 2 }
          ]
        }
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
      "/manifest.webmanifest": api,
      "/socket.io": { target: api, ws: true }
    }
  }
})
