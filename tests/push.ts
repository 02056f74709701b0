import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from "node:crypto"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A push service on this machine, for tests: real push services cannot be
 * reached from here. It records every message the server POSTs (the Web Push
 * protocol: a VAPID-signed request with an aes128gcm body) and answers 201,
 * or 410 for the endpoints told `gone`. `browserKeys` makes a browser's
 * subscription keys; `readPush` checks a message as a browser and a push
 * service would: the VAPID token's signature, audience and expiry, then the
 * payload decrypted with the browser's private key (RFC 8291, written here
 * from the RFC, not with the library the server encrypts with).
 */

export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

/** The push service on `port` (any free one by default). */
export const pushService = async (port = 0) => {
  const received: Array<Received> = []
  const gone = new Set<string>()
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const path = request.url ?? "/"
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) })
      response.writeHead(gone.has(path) ? 410 : 201).end()
    })
  })
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  let counter = 0
  return {
    origin,
    received,
    /** A fresh endpoint on this service. */
    endpoint: () => `${origin}/push/${++counter}-${randomBytes(6).toString("hex")}`,
    /** What reached `endpoint`. */
    to: (endpoint: string) => received.filter((message) => `${origin}${message.path}` === endpoint),
    /** `endpoint` answers 410 Gone from now on (the browser dropped its subscription). */
    drop: (endpoint: string) => void gone.add(new URL(endpoint).pathname),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export type PushService = Awaited<ReturnType<typeof pushService>>

/** A browser's subscription keys (P-256 key pair and auth secret), and the subscription JSON for `endpoint`. */
export const browserKeys = () => {
  const ecdh = createECDH("prime256v1")
  ecdh.generateKeys()
  const auth = randomBytes(16)
  return {
    ecdh,
    auth,
    subscription: (endpoint: string) => ({ endpoint, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } })
  }
}

export type BrowserKeys = ReturnType<typeof browserKeys>

const info = (text: string, ...parts: ReadonlyArray<Buffer>) => Buffer.concat([Buffer.from(text, "latin1"), Buffer.from([0]), ...parts])

/** RFC 8291 and 8188: the payload of one aes128gcm record, decrypted with the browser's keys. */
export const decryptPush = (body: Buffer, keys: BrowserKeys) => {
  const salt = body.subarray(0, 16)
  const idLength = body.readUInt8(20)
  const serverKey = body.subarray(21, 21 + idLength)
  const record = body.subarray(21 + idLength)
  const shared = keys.ecdh.computeSecret(serverKey)
  const ikm = Buffer.from(hkdfSync("sha256", shared, keys.auth, info("WebPush: info", keys.ecdh.getPublicKey(), serverKey), 32))
  const key = Buffer.from(hkdfSync("sha256", ikm, salt, info("Content-Encoding: aes128gcm"), 16))
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, info("Content-Encoding: nonce"), 12))
  const decipher = createDecipheriv("aes-128-gcm", key, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()])
  // The last record ends with the delimiter 2, then zero padding.
  const end = padded.lastIndexOf(2)
  return padded.subarray(0, end).toString("utf8")
}

/** RFC 8292: the VAPID token of a push request, checked against the server's public key; its claims. */
export const verifyVapid = (authorization: string | undefined, audience: string, publicKey: string) => {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? "")
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`)
  const [, token, k] = match
  if (k !== publicKey) throw new Error("the request is signed with another key")
  const [header, claims, signature] = token!.split(".")
  const point = Buffer.from(k, "base64url")
  const key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") }, format: "jwk" })
  if (!verify("sha256", Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature!, "base64url"))) {
    throw new Error("the VAPID signature does not verify")
  }
  const parsed = JSON.parse(Buffer.from(claims!, "base64url").toString()) as { aud: string; exp: number; sub: string }
  if (parsed.aud !== audience) throw new Error(`the token is for ${parsed.aud}, not ${audience}`)
  if (parsed.exp * 1000 < Date.now() || parsed.exp * 1000 > Date.now() + 24 * 3600_000 + 60_000) throw new Error(`the token's expiry is not within 24 h: ${parsed.exp}`)
  return parsed
}

/** A received message checked as a push service and a browser would (headers, VAPID, encryption): its JSON. */
export const readPush = (message: Received, keys: BrowserKeys, service: { readonly origin: string }, publicKey: string): unknown => {
  if (message.headers["content-encoding"] !== "aes128gcm") throw new Error(`not aes128gcm: ${message.headers["content-encoding"]}`)
  if (!(Number(message.headers.ttl) > 0)) throw new Error(`no TTL: ${message.headers.ttl}`)
  verifyVapid(message.headers.authorization, service.origin, publicKey)
  return JSON.parse(decryptPush(message.body, keys))
}
