/**
 * `node scripts/promo-video.ts`: renders the right sidebar's looping promo
 * video (public/promo.webm) in headless Chromium: a canvas animation
 * recorded with MediaRecorder (VP8 WebM), so no video tools are needed. Its
 * first frame is the video's poster (public/promo-poster.webp), shown from the
 * first paint while the video itself waits for an idle page.
 */
import { chromium } from "@playwright/test"
import { writeFileSync } from "node:fs"

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required"]
})
const page = await browser.newPage()
const [base64, poster] = await page.evaluate(async () => {
  const W = 480
  const H = 270
  const SECONDS = 4
  const canvas = document.createElement("canvas")
  canvas.width = W
  canvas.height = H
  document.body.appendChild(canvas)
  const ctx = canvas.getContext("2d")!
  const prices = [1.85, 2.1, 3.4]
  const draw = (t: number) => {
    const gradient = ctx.createLinearGradient(0, 0, W, H)
    gradient.addColorStop(0, "#0f766e")
    gradient.addColorStop(1, "#134e4a")
    ctx.fillStyle = gradient
    ctx.fillRect(0, 0, W, H)
    // A pitch and a ball in flight.
    ctx.fillStyle = "rgba(255,255,255,0.08)"
    ctx.fillRect(W / 2 - 18, 40, 36, 190)
    const x = W / 2 + Math.sin(t * Math.PI * 2 / SECONDS) * 150
    const y = 135 + Math.cos(t * Math.PI * 4 / SECONDS) * 60
    ctx.fillStyle = "#f5b301"
    ctx.beginPath()
    ctx.arc(x, y, 9, 0, Math.PI * 2)
    ctx.fill()
    ctx.fillStyle = "#ffffff"
    ctx.font = "bold 30px sans-serif"
    ctx.fillText("KHEL LIVE", 24, 46)
    ctx.font = "16px sans-serif"
    ctx.fillText("Back and lay every ball", 24, 72)
    // Odds boxes that tick.
    prices.forEach((price, i) => {
      const moved = price + Math.round(Math.sin(t * 3 + i) * 5) / 100
      ctx.fillStyle = i % 2 === 0 ? "#72bbef" : "#faa9ba"
      ctx.fillRect(24 + i * 92, 200, 80, 44)
      ctx.fillStyle = "#10151f"
      ctx.font = "bold 20px sans-serif"
      ctx.fillText(moved.toFixed(2), 40 + i * 92, 230)
    })
  }
  const stream = canvas.captureStream(25)
  const recorder = new MediaRecorder(stream, { mimeType: "video/webm;codecs=vp8", videoBitsPerSecond: 400_000 })
  const chunks: Array<Blob> = []
  recorder.ondataavailable = (e) => chunks.push(e.data)
  const done = new Promise<void>((resolve) => (recorder.onstop = () => resolve()))
  recorder.start()
  const started = performance.now()
  await new Promise<void>((resolve) => {
    const frame = () => {
      const t = (performance.now() - started) / 1000
      draw(t % SECONDS)
      if (t < SECONDS) requestAnimationFrame(frame)
      else resolve()
    }
    requestAnimationFrame(frame)
  })
  recorder.stop()
  await done
  draw(0)
  const poster = canvas.toDataURL("image/webp", 0.6).split(",")[1]!
  const buffer = await new Blob(chunks, { type: "video/webm" }).arrayBuffer()
  let binary = ""
  const bytes = new Uint8Array(buffer)
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!)
  return [btoa(binary), poster] as const
})
await browser.close()
const bytes = Buffer.from(base64, "base64")
writeFileSync("public/promo.webm", bytes)
console.log(`public/promo.webm: ${(bytes.length / 1024).toFixed(1)} KB`)
const posterBytes = Buffer.from(poster, "base64")
writeFileSync("public/promo-poster.webp", posterBytes)
console.log(`public/promo-poster.webp: ${(posterBytes.length / 1024).toFixed(1)} KB`)
