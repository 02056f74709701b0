import type { HttpServerRequest } from "effect/http"
import type { IncomingMessage } from "node:http"
import type { TLSSocket } from "node:tls"

/** "::ffff:10.0.0.7" and "10.0.0.7" are one client. */
const plain = (address: string) => address.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "")

/**
 * The value `hops` trusted proxies vouch for in a comma-separated forwarding
 * header: each proxy appends what it saw, so the client is the `hops`-th
 * entry from the right (anything further left was written by the client
 * itself and proves nothing).
 */
const forwarded = (header: string | undefined, hops: number) => {
  if (hops === 0 || header === undefined) return undefined
  const chain = header.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "").reverse()
  return chain[hops - 1] ?? chain.at(-1)
}

/**
 * Who is calling: the socket's peer, or, behind `trustProxy` proxies that
 * the operator trusts (TRUST_PROXY), the address they name in
 * `X-Forwarded-For`. Without trusted proxies the header is ignored: anyone
 * can write it.
 */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustProxy: number): string | undefined => {
  const peer = (request.source as IncomingMessage).socket?.remoteAddress
  const named = forwarded(request.headers["x-forwarded-for"], trustProxy)
  const address = named ?? peer
  return address === undefined ? undefined : plain(address)
}

/** Whether the client reached us over TLS: our own socket, or a trusted proxy that says so (`X-Forwarded-Proto`). */
export const isSecure = (request: HttpServerRequest.HttpServerRequest, trustProxy: number) =>
  ((request.source as IncomingMessage).socket as TLSSocket | undefined)?.encrypted === true ||
  forwarded(request.headers["x-forwarded-proto"], trustProxy)?.toLowerCase() === "https"

/**
 * Whether an address is a client's own on the internet: not loopback, link-local or private (RFC 1918, IPv6
 * unique local), which are a proxy's or a local network's and shared by everyone behind them.
 */
export const isPublicAddress = (address: string) => {
  const ip = plain(address).toLowerCase()
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(ip)
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])]
    return !(a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168))
  }
  return ip.includes(":") && ip !== "::1" && ip !== "::" && !/^f[cd]/.test(ip) && !/^fe[89ab]/.test(ip)
}
