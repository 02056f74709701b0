/**
 * Draws no one can predict, and everyone can check afterwards. Every random
 * draw that decides a result (a match, ball by ball; a race's winner) comes
 * from the event's seed, which the feed derives from a secret only the
 * server holds (`feed_secrets`, server/odds/Draws.ts):
 *
 *   seed       = HMAC-SHA256(key = secret, "event:{event id}"), as hex
 *   commitment = SHA-256 of the seed's hex text, published before the event starts
 *   draws      = HMAC-SHA256(key = seed, "{purpose}:{block}"), block 0, 1, 2, …,
 *                each giving eight 32-bit words, each word / 2^32 one draw in [0, 1)
 *
 * The seed is published once the event has settled: its SHA-256 must be the
 * commitment, and the match played again from it (server/odds/simulation.ts)
 * must be the one that was settled. Khel Originals commit to their casino
 * rounds the same way (server/casino/khel/fair.js).
 */
import { createHash, createHmac } from "node:crypto"
import type { Rng } from "./simulation.ts"

const HEX64 = /^[0-9a-f]{64}$/

/** The seed of an event from the feed's secret. */
export const seedFor = (secret: string, eventId: string) => createHmac("sha256", secret).update(`event:${eventId}`).digest("hex")

/** What is published before the event starts: SHA-256 of the seed's hex text. */
export const commitmentOf = (seed: string) => createHash("sha256").update(seed).digest("hex")

export const isSeed = (text: string) => HEX64.test(text)

/** The draws of one purpose of an event ("match", "race"): the same seed and purpose give the same draws. */
export const drawsOf = (seed: string, purpose: string): Rng => {
  let block = 0
  let words: Buffer | undefined
  let offset = 32
  return () => {
    if (offset >= 32) {
      words = createHmac("sha256", seed).update(`${purpose}:${block++}`).digest()
      offset = 0
    }
    const word = words!.readUInt32BE(offset)
    offset += 4
    return word / 4294967296
  }
}
