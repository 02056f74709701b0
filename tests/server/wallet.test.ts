import { io } from "socket.io-client"
import { describe, expect, it } from "vitest"
import { expectLedgerVerifies, request, signUpPlayer, useServer } from "./helpers.ts"
import { adminToken, fund, user } from "./payments-support.ts"

const server = useServer({ afterEach: expectLedgerVerifies })

describe("wallet switch", () => {
  it("switches between the main balance (1) and the bonus wallet (2) with 'Wallet Changed'", async () => {
    const { token } = await signUpPlayer(server)
    expect((await user(server, token)).wallet).toBe(1)
    const toBonus = await request(server.url, "/api/v1/wallet", { method: "PUT", token, json: { selectedWallet: 2 } })
    expect(toBonus.status).toBe(200)
    expect(toBonus.body.meta.message).toBe("Wallet Changed")
    expect(toBonus.body.data.wallet).toBe(2)
    expect((await user(server, token)).wallet).toBe(2)
    const back = await request(server.url, "/api/v1/wallet", { method: "PUT", token, json: { selectedWallet: 1 } })
    expect(back.body.data.wallet).toBe(1)
  })

  it("refuses anything but 1 or 2, and visitors", async () => {
    const { token } = await signUpPlayer(server)
    const bad = await request(server.url, "/api/v1/wallet", { method: "PUT", token, json: { selectedWallet: 3 } })
    expect(bad.status).toBe(400)
    expect(bad.body.meta.message).toMatch(/selectedWallet/)
    expect((await request(server.url, "/api/v1/wallet", { method: "PUT", json: { selectedWallet: 2 } })).status).toBe(401)
  })

  it("tells the player's sockets when the wallet or a balance changes", async () => {
    const { token, user: player } = await signUpPlayer(server)
    const socket = io(server.url, { transports: ["websocket"], auth: { token }, reconnection: false })
    const reasons: Array<string> = []
    socket.on(player.id, (payload: { reason: string }) => reasons.push(payload.reason))
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve())
      socket.on("connect_error", reject)
    })
    await request(server.url, "/api/v1/wallet", { method: "PUT", token, json: { selectedWallet: 2 } })
    await fund(server, token, 300, await adminToken(server))
    await expect.poll(() => reasons).toEqual(expect.arrayContaining(["wallet", "deposit"]))
    socket.close()
  })
})
