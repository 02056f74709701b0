import sharp from "sharp"

const svgDataUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`

/** The Khel wordmark, drawn as SVG so it stays sharp at any size. */
export const logoSvg = (color: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="48" viewBox="0 0 180 48">
  <rect x="2" y="6" width="36" height="36" rx="9" fill="${color}"/>
  <path d="M13 14v20M13 24l11-10M16 22l9 12" stroke="#111" stroke-width="4" stroke-linecap="round" fill="none"/>
  <text x="48" y="34" font-family="Verdana, DejaVu Sans, sans-serif" font-size="28" font-weight="700" fill="${color}">KHEL</text>
</svg>`

export const faviconSvg = (color: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
  <rect width="64" height="64" rx="14" fill="${color}"/>
  <path d="M20 14v36M20 32l20-18M25 29l16 21" stroke="#111" stroke-width="7" stroke-linecap="round" fill="none"/>
</svg>`

export const logoDataUrl = (color: string) => svgDataUrl(logoSvg(color))
export const faviconDataUrl = (color: string) => svgDataUrl(faviconSvg(color))

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** A 1200x400 promotional banner, rendered to WebP and returned as a data URL. */
export const bannerDataUrl = async (title: string, subtitle: string, from: string, to: string) => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="400" viewBox="0 0 1200 400">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="1200" height="400" fill="url(#g)"/>
    <circle cx="1020" cy="200" r="150" fill="#ffffff" fill-opacity="0.12"/>
    <circle cx="1080" cy="120" r="70" fill="#ffffff" fill-opacity="0.10"/>
    <text x="70" y="180" font-family="Verdana, DejaVu Sans, sans-serif" font-size="64" font-weight="700" fill="#fff">${escapeXml(title)}</text>
    <text x="72" y="250" font-family="Verdana, DejaVu Sans, sans-serif" font-size="32" fill="#fff" fill-opacity="0.9">${escapeXml(subtitle)}</text>
  </svg>`
  const webp = await sharp(Buffer.from(svg)).webp({ quality: 72 }).toBuffer()
  return `data:image/webp;base64,${webp.toString("base64")}`
}
