import { createHash } from "node:crypto"
import sharp from "sharp"
import { GAME_IMAGE } from "../../src/domain/casino.ts"

/**
 * Game artwork, drawn here rather than shipped: an SVG per game (the
 * category's colours and motif, and the title; the lobby's card adds the
 * provider badge) rendered by sharp to a 320x200 image: WebP for browsers
 * that take it (half a palette PNG's bytes: a lobby shows dozens), a palette
 * PNG otherwise. Rendered once per look and format, then kept in memory.
 */

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

const PALETTES: Record<string, readonly [string, string, string]> = {
  "Indian Games": ["#b45309", "#7c2d12", "#fde68a"],
  "Dragon Tiger": ["#b91c1c", "#450a0a", "#fca5a5"],
  Roulette: ["#047857", "#022c22", "#6ee7b7"],
  Baccarat: ["#1d4ed8", "#172554", "#93c5fd"],
  Blackjack: ["#0f766e", "#042f2e", "#5eead4"],
  "Card Games": ["#7c3aed", "#2e1065", "#c4b5fd"],
  "Dice Games": ["#c2410c", "#431407", "#fdba74"],
  "Game Shows": ["#db2777", "#500724", "#f9a8d4"],
  Poker: ["#334155", "#020617", "#cbd5e1"],
  "Video Slots": ["#9333ea", "#3b0764", "#e9d5ff"],
  "Classic Slots": ["#ca8a04", "#422006", "#fef08a"],
  Megaways: ["#0891b2", "#083344", "#a5f3fc"],
  Jackpots: ["#a16207", "#1c1917", "#fde047"],
  Other: ["#475569", "#0f172a", "#e2e8f0"]
}

const card = (x: number, y: number, rotate: number, label: string, red: boolean, light: string) =>
  `<g transform="translate(${x} ${y}) rotate(${rotate})">
    <rect x="-26" y="-36" width="52" height="72" rx="6" fill="#fff" stroke="${light}" stroke-width="2"/>
    <text x="0" y="10" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="26" font-weight="700" fill="${red ? "#b91c1c" : "#111827"}">${label}</text>
  </g>`

const MOTIFS: Record<string, (light: string) => string> = {
  Roulette: (light) => `<g transform="translate(250 78)">
    <circle r="52" fill="none" stroke="${light}" stroke-width="6"/>
    <circle r="40" fill="none" stroke="${light}" stroke-opacity=".6" stroke-width="14" stroke-dasharray="10 10"/>
    <circle r="12" fill="${light}"/><circle cx="30" cy="-24" r="6" fill="#fff"/></g>`,
  "Dice Games": (light) => `<g transform="translate(236 70) rotate(-12)"><rect x="-30" y="-30" width="60" height="60" rx="10" fill="#fff"/>
    <circle cx="-14" cy="-14" r="6" fill="#111"/><circle cx="0" cy="0" r="6" fill="#111"/><circle cx="14" cy="14" r="6" fill="#111"/></g>
    <g transform="translate(282 96) rotate(18)"><rect x="-24" y="-24" width="48" height="48" rx="8" fill="${light}"/>
    <circle cx="-10" cy="-10" r="5" fill="#111"/><circle cx="10" cy="10" r="5" fill="#111"/></g>`,
  "Game Shows": (light) => `<g transform="translate(250 78)">${Array.from({ length: 12 }, (_, i) =>
    `<path d="M0 0 L${(56 * Math.cos((i * Math.PI) / 6)).toFixed(1)} ${(56 * Math.sin((i * Math.PI) / 6)).toFixed(1)} A56 56 0 0 1 ${(56 * Math.cos(((i + 1) * Math.PI) / 6)).toFixed(1)} ${(56 * Math.sin(((i + 1) * Math.PI) / 6)).toFixed(1)} Z" fill="${i % 2 ? light : "#fff"}" fill-opacity="${i % 2 ? 0.9 : 0.35}"/>`).join("")}
    <circle r="10" fill="#fff"/></g>`,
  cards: (light) => `${card(232, 74, -14, "A", false, light)}${card(268, 70, 10, "K", true, light)}`,
  "Dragon Tiger": (light) => `${card(228, 74, -10, "D", true, light)}${card(276, 74, 10, "T", false, light)}`,
  "Indian Games": (light) => `${card(232, 74, -12, "J", true, light)}${card(270, 70, 8, "7", false, light)}
    <circle cx="250" cy="128" r="10" fill="${light}"/>`
}

/** Bytes of a game's own, stable seed: the same game always looks the same, two games rarely alike. */
const seedOf = (title: string) => createHash("sha1").update(title).digest()

// Reel symbols DejaVu Sans draws, and the inks they are printed in.
const SYMBOLS = ["7", "★", "♦", "♥", "♣", "♠", "$", "BAR", "✿", "◆", "☀", "♛"] as const
const INKS = ["#b91c1c", "#111827", "#a16207", "#1d4ed8", "#047857", "#7e22ce"] as const

/**
 * A slot's reels, different for each game: three or five reels, the symbols on them and their inks, and what
 * lights up behind them are picked by the game's seed (its title), so every slot in a lobby has art of its own.
 */
const slotMotif = (title: string) => (light: string) => {
  const seed = seedOf(title)
  const reels = seed[0]! % 3 === 0 ? 5 : 3
  const width = reels === 5 ? 26 : 34
  const gap = reels === 5 ? 28 : 40
  // Centred where the frame stays inside the card's 320 px.
  const left = (reels === 5 ? 238 : 254) - (reels * gap - (gap - width)) / 2
  const symbol = (i: number) => SYMBOLS[seed[1 + i]! % SYMBOLS.length]!
  const backdrop = [
    `<circle cx="254" cy="78" r="70" fill="${light}" fill-opacity=".14"/>`,
    Array.from({ length: 8 }, (_, i) => `<path d="M254 78 L${(254 + 120 * Math.cos((i * Math.PI) / 4)).toFixed(1)} ${(78 + 120 * Math.sin((i * Math.PI) / 4)).toFixed(1)} L${(254 + 120 * Math.cos((i * Math.PI) / 4 + 0.26)).toFixed(1)} ${(78 + 120 * Math.sin((i * Math.PI) / 4 + 0.26)).toFixed(1)} Z" fill="${light}" fill-opacity=".12"/>`).join(""),
    Array.from({ length: 6 }, (_, i) => `<circle cx="${200 + (seed[8 + i]! % 110)}" cy="${16 + (seed[14 + i]! % 120)}" r="${3 + (seed[i]! % 5)}" fill="${light}" fill-opacity=".5"/>`).join("")
  ][seed[7]! % 3]
  return `${backdrop}<g transform="translate(${left.toFixed(1)} 40)">${Array.from({ length: reels }, (_, i) => {
    const text = symbol(i)
    const size = text.length > 1 ? 13 : reels === 5 ? 22 : 30
    return `<rect x="${i * gap}" y="0" width="${width}" height="76" rx="6" fill="#fff" fill-opacity=".92"/><text x="${i * gap + width / 2}" y="${46 + size / 4}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="${size}" font-weight="700" fill="${INKS[seed[6 + i]! % INKS.length]}">${escapeXml(text)}</text>`
  }).join("")}
    <rect x="-6" y="-6" width="${reels * gap - (gap - width) + 12}" height="88" rx="10" fill="none" stroke="${light}" stroke-width="4"/></g>`
}

const motifOf = (title: string, category: string, kind: "live" | "slot") =>
  kind === "slot" ? slotMotif(title) : MOTIFS[category] ?? MOTIFS.cards!

/** Up to two lines of about 16 characters, breaking at spaces. */
const titleLines = (title: string) => {
  const words = title.split(/\s+/)
  const lines: Array<string> = []
  let line = ""
  for (const word of words) {
    if (line && (line + " " + word).length > 16) {
      lines.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  if (line) lines.push(line)
  return lines.length > 2 ? [lines[0]!, `${lines.slice(1).join(" ").slice(0, 15)}…`] : lines
}

export interface ArtworkInput {
  readonly title: string
  readonly category: string
  readonly kind: "live" | "slot"
}

export const artworkSvg = ({ title, category, kind }: ArtworkInput) => {
  const [from, to, light] = PALETTES[category] ?? PALETTES.Other!
  const lines = titleLines(title)
  const size = lines.some((l) => l.length > 13) ? 20 : 24
  const { width, height } = GAME_IMAGE
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="${width}" height="${height}" fill="url(#g)"/>
  <circle cx="270" cy="40" r="90" fill="#fff" fill-opacity=".06"/>
  ${motifOf(title, category, kind)(light)}
  ${lines.map((line, i) => `<text x="16" y="${height - 22 - (lines.length - 1 - i) * (size + 4)}" font-family="DejaVu Sans, sans-serif" font-size="${size}" font-weight="700" fill="#fff">${escapeXml(line)}</text>`).join("\n  ")}
</svg>`
}

export type ArtworkFormat = "webp" | "png"

export interface Artwork {
  readonly bytes: Buffer
  readonly contentType: `image/${ArtworkFormat}`
  readonly etag: string
}

const cache = new Map<string, Promise<Artwork>>()
const CACHE_LIMIT = 500

/** A game's artwork in `format` (rendered once per look and format, then served from memory). */
export const renderArtwork = (input: ArtworkInput, format: ArtworkFormat): Promise<Artwork> => {
  const key = JSON.stringify([input, format])
  const hit = cache.get(key)
  if (hit) return hit
  const image = sharp(Buffer.from(artworkSvg(input)))
  const encoded = format === "webp" ? image.webp({ quality: 80 }) : image.png({ palette: true, quality: 90, compressionLevel: 9, effort: 8 })
  const rendering = encoded
    .toBuffer()
    .then((bytes) => ({ bytes, contentType: `image/${format}` as const, etag: `"${createHash("sha1").update(bytes).digest("base64url").slice(0, 20)}"` }))
  rendering.catch(() => cache.delete(key))
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!)
  cache.set(key, rendering)
  return rendering
}
