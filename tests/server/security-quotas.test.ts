import { randomBytes } from "node:crypto"
import sharp from "sharp"
import { describe, expect, it } from "vitest"
import { DEFAULT_LIMITS } from "../../server/config.ts"
import { adminToken, createDeposit } from "./payments-support.ts"
import { expectLedgerVerifies, request, signUpPlayer, SUITE_LIMITS, useServer } from "./helpers.ts"

/** What one player may file: deposit requests waiting for an operator, and screenshot bytes a day. */
const server = useServer({ config: { limits: { ...SUITE_LIMITS, screenshotBytesPerDay: 1024 * 1024 } } })

/** A screenshot of about 300 KB that no encoder can shrink (noise). */
const noiseScreenshot = async () => {
  const png = await sharp(randomBytes(320 * 320 * 3), { raw: { width: 320, height: 320, channels: 3 } }).png().toBuffer()
  return `data:image/png;base64,${png.toString("base64")}`
}

describe("upload quotas", () => {
  it(`keeps at most ${DEFAULT_LIMITS.pendingDepositsPerPlayer} deposit requests waiting per player, with a clear message`, async () => {
    const player = await signUpPlayer(server)
    for (let i = 0; i < DEFAULT_LIMITS.pendingDepositsPerPlayer; i++) expect((await createDeposit(server, player.token, 500)).status).toBe(200)
    const fourth = await createDeposit(server, player.token, 500)
    expect(fourth.status).toBe(429)
    expect(fourth.body.meta).toMatchObject({
      code: 429,
      error: "QuotaExceeded",
      message: "You already have 3 deposit requests waiting for approval. Please wait until they are checked before sending another."
    })
    // Concurrent requests cannot slip past it either.
    const other = await signUpPlayer(server)
    const burst = await Promise.all(Array.from({ length: 6 }, () => createDeposit(server, other.token, 500)))
    expect(burst.filter((res) => res.status === 200)).toHaveLength(DEFAULT_LIMITS.pendingDepositsPerPlayer)
    expect(burst.filter((res) => res.status === 429)).toHaveLength(6 - DEFAULT_LIMITS.pendingDepositsPerPlayer)
    // Once an operator decides one, the player may file again.
    const admin = await adminToken(server)
    const list = await request(server.url, "/api/v1/admin-deposit-request", { token: player.token })
    const first = list.body.data[0]._id as string
    expect((await request(server.url, `/api/v1/admin/deposit-requests/${first}/reject`, { method: "PUT", token: admin, json: {} })).status).toBe(200)
    expect((await createDeposit(server, player.token, 500)).status).toBe(200)
    await expectLedgerVerifies(server)
  })

  it("caps the screenshot bytes a player uploads in a day, and says what to do instead", async () => {
    const player = await signUpPlayer(server)
    const admin = await adminToken(server)
    let refused
    for (let i = 0; i < 8 && !refused; i++) {
      const res = await createDeposit(server, player.token, 500, { txnRef: undefined, baseImage: await noiseScreenshot() })
      if (res.status === 200) {
        // Keep the pending count low: the operator answers each one.
        await request(server.url, `/api/v1/admin/deposit-requests/${res.body.data._id}/reject`, { method: "PUT", token: admin, json: {} })
      } else refused = res
    }
    expect(refused?.status).toBe(429)
    expect(refused?.body.meta).toMatchObject({
      code: 429,
      error: "QuotaExceeded",
      message: "You have uploaded the most screenshots allowed in a day (1 MB). Please give the transaction reference instead, or try again tomorrow."
    })
    // A reference still works, and another player is not affected.
    expect((await createDeposit(server, player.token, 500)).status).toBe(200)
    const other = await signUpPlayer(server)
    expect((await createDeposit(server, other.token, 500, { txnRef: undefined, baseImage: await noiseScreenshot() })).status).toBe(200)
  })
})
