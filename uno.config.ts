import { defineConfig, presetWind3, transformerVariantGroup } from "unocss"
import { BREAKPOINTS } from "./src/views/breakpoints.ts"

/**
 * Colours come from CSS variables (RGB channels) so the light and dark themes
 * share every class and opacity modifiers like `bg-ok/15` work.
 */
export default defineConfig({
  presets: [presetWind3()],
  transformers: [transformerVariantGroup()],
  theme: {
    colors: {
      bg: "rgb(var(--bg) / %alpha)",
      surface: "rgb(var(--surface) / %alpha)",
      raised: "rgb(var(--raised) / %alpha)",
      line: "rgb(var(--line) / %alpha)",
      fg: "rgb(var(--fg) / %alpha)",
      muted: "rgb(var(--muted) / %alpha)",
      brand: "rgb(var(--brand) / %alpha)",
      "brand-fg": "rgb(var(--brand-fg) / %alpha)",
      back: "rgb(var(--back) / %alpha)",
      lay: "rgb(var(--lay) / %alpha)",
      ok: "rgb(var(--ok) / %alpha)",
      warn: "rgb(var(--warn) / %alpha)",
      bad: "rgb(var(--bad) / %alpha)"
    },
    breakpoints: Object.fromEntries(Object.entries(BREAKPOINTS).map(([name, px]) => [name, `${px}px`]))
  },
  shortcuts: {
    card: "bg-surface border border-line rounded-lg",
    "btn": "inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-600 transition-colors disabled:opacity-60 disabled:cursor-not-allowed focus-visible:(outline-2 outline-brand outline-offset-2)",
    "btn-brand": "btn bg-brand text-brand-fg hover:brightness-110",
    "btn-ghost": "btn border border-line text-fg hover:bg-raised",
    "field": "w-full rounded-md border border-line bg-bg px-3 py-2 text-fg placeholder:text-muted focus:(outline-none border-brand)",
    "page-title": "text-lg font-700 text-fg",
    "chip": "inline-flex items-center gap-1 rounded-full border border-line px-3 py-1 text-xs"
  }
})
