/**
 * The installable app's part of the build (vite.config.ts): the service worker
 * (vite-plugin-pwa, injectManifest: src/sw.ts), the icons drawn from
 * public/favicon.svg, and which files the worker precaches: the player's shell
 * only. The web manifest is not built: the server writes it from the site
 * settings (server/settings/manifest.ts).
 */
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import sharp from "sharp"
import type { Plugin, Rollup } from "vite"
import { VitePWA } from "vite-plugin-pwa"
import { ICONS } from "../src/domain/pwa.ts"

const FAVICON = "public/favicon.svg"

/**
 * The favicon at `size`; `bleed` draws it at 80 % on a square of its own colour (its first fill), so a launcher's
 * mask (a circle, a squircle) never cuts into it: the maskable icon and iOS's, which has no transparency.
 */
const icon = async (size: number, bleed: boolean) => {
  const svg = readFileSync(FAVICON)
  if (!bleed) return sharp(svg, { density: (72 * size) / 64 }).resize(size, size).png().toBuffer()
  const colour = /fill="(#[0-9a-f]{3,8})"/i.exec(svg.toString())?.[1] ?? "#000000"
  const inner = Math.round(size * 0.8)
  const drawn = await sharp(svg, { density: (72 * inner) / 64 }).resize(inner, inner).png().toBuffer()
  return sharp({ create: { width: size, height: size, channels: 4, background: colour } })
    .composite([{ input: drawn, gravity: "centre" }])
    .png()
    .toBuffer()
}

/** The manifest's icons and iOS's home-screen icon, drawn at build time (sharp). */
const pwaIcons = (): Plugin => ({
  name: "khel:pwa-icons",
  apply: "build",
  async generateBundle() {
    const drawn: ReadonlyArray<readonly [string, number, boolean]> = [
      [ICONS.any192, 192, false],
      [ICONS.any512, 512, false],
      [ICONS.maskable512, 512, true],
      [ICONS.apple180, 180, true]
    ]
    for (const [path, size, bleed] of drawn) {
      this.emitFile({ type: "asset", fileName: path.slice(1), source: await icon(size, bleed) })
    }
  }
})

/**
 * The files of the bundle the player's site can load: what index.html's entry imports, statically or lazily,
 * with their stylesheets and assets. The desk's entry (admin.html) and what only it loads are left out, so the
 * player's worker never keeps them (and never answers /admin with the player's index.html: src/domain/pwa.ts).
 */
const playerFiles = new Set<string>()

const playerShell = (): Plugin => ({
  name: "khel:player-shell",
  apply: "build",
  generateBundle(_, bundle) {
    const entry = Object.values(bundle).find((output): output is Rollup.OutputChunk =>
      output.type === "chunk" && output.isEntry && output.facadeModuleId === resolve("index.html"))
    // The worker's own build has no index.html: it keeps what the site's build found.
    if (!entry) return
    playerFiles.clear()
    const visit = (fileName: string) => {
      if (playerFiles.has(fileName)) return
      playerFiles.add(fileName)
      const output = bundle[fileName]
      if (output?.type !== "chunk") return
      for (const next of [...output.imports, ...output.dynamicImports]) visit(next)
      for (const file of [...(output.viteMetadata?.importedCss ?? []), ...(output.viteMetadata?.importedAssets ?? [])]) playerFiles.add(file)
    }
    visit(entry.fileName)
  }
})

/** Built files (assets/…) only when the player's site loads them; the rest of the glob (index.html, icons) as is. */
const onlyPlayerFiles = (entries: Array<{ url: string; revision: string | null; size: number }>) => ({
  manifest: entries.filter((entry) => !entry.url.startsWith("assets/") || playerFiles.has(entry.url)),
  warnings: []
})

export const pwa = (): Array<Plugin> => [
  pwaIcons(),
  playerShell(),
  ...VitePWA({
    strategies: "injectManifest",
    srcDir: "src",
    filename: "sw.ts",
    registerType: "prompt",
    // The appUpdate flow registers the worker itself, once the page has painted (src/root/flows/appUpdate.ts).
    injectRegister: false,
    // The server writes the manifest from the site settings (server/settings/manifest.ts).
    manifest: false,
    injectManifest: {
      // One classic script (everything inlined): module workers are newer than some phones' browsers.
      rollupFormat: "iife",
      globPatterns: ["index.html", "assets/**/*.{js,css,svg,png,webp,woff2}", "icons/*.png", "favicon.svg", "loader.svg"],
      globIgnores: ["admin.html", "**/*.map", "**/*.br", "**/*.gz"],
      // Hashed names change with their content: no revision query needed.
      dontCacheBustURLsMatching: /^assets\//,
      manifestTransforms: [onlyPlayerFiles]
    }
  })
]
