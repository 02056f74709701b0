import encodeQR from "qr"
import sharp from "sharp"

/** The UPI deep link a payment app opens when it scans the QR (NPCI's upi://pay form). */
export const upiLink = (upiId: string, payee: string) =>
  `upi://pay?pa=${encodeURIComponent(upiId)}&pn=${encodeURIComponent(payee)}&cu=INR`

/** A scannable QR of `text`, as a PNG data URL. */
export const qrDataUrl = async (text: string) => {
  const svg = encodeQR(text, "svg", { border: 2, scale: 1 })
  const png = await sharp(Buffer.from(svg), { density: 300 }).resize(240, 240, { kernel: "nearest" }).flatten({ background: "#ffffff" }).png().toBuffer()
  return `data:image/png;base64,${png.toString("base64")}`
}

/** A scannable QR of the account's UPI link, as a PNG data URL. */
export const upiQrDataUrl = (upiId: string, payee: string) => qrDataUrl(upiLink(upiId, payee))
