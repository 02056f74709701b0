import { describe, expect, it } from "vitest"
import type { Socket } from "socket.io-client"
import { freshId, launch, walletCall } from "./casino-support.ts"
import { connectSocket, creditMain, expectLedgerVerifies, request, signUpPlayer, useServer } from "./helpers.ts"

/** A session that ends takes everything it opened with it: game sessions and sockets. */
const server = useServer({ signIn: ["admin"] })

const GONE = "The game session has expired or is not valid. Open the game again from the lobby."

/** A player with ₹1,000 and two sessions (two devices). */
const player = async () => {
  const signed = await signUpPlayer(server)
  expect((await request(server.url, "/api/v1/admin/credit", { method: "POST", token: server.admin, json: { user: signed.user.username, amount: 1000 } })).status).toBe(200)
  const second = await request(server.url, "/identity/user/login", { method: "POST", json: { username: signed.user.username, password: signed.password } })
  return { ...signed, phone: signed.token, laptop: second.body.meta.token as string }
}

const debit = (token: string) => walletCall(server, "debit", { token, transactionId: freshId("tx"), roundId: freshId("round"), amount: 100 })

const connect = (token: string) => connectSocket(server.url, token)

const disconnected = (socket: Socket) =>
  new Promise<string>((resolve) => {
    if (socket.disconnected) resolve("already")
    socket.on("disconnect", (reason) => resolve(reason))
  })

describe("game sessions end with the session that launched them", () => {
  it("refuses the game token after logout, while a game launched from another session plays on", async () => {
    const p = await player()
    const fromPhone = await launch(server, p.phone)
    const fromLaptop = await launch(server, p.laptop)
    expect((await debit(fromPhone.token)).status).toBe(200)
    expect((await request(server.url, "/identity/user/logout", { method: "POST", token: p.phone, json: {} })).status).toBe(200)
    for (const res of [await debit(fromPhone.token), await walletCall(server, "balance", { token: fromPhone.token })]) {
      expect(res.status).toBe(403)
      expect(res.body.meta.message).toBe(GONE)
    }
    // The table page of the ended game cannot play either.
    const table = await request(server.url, "/games/khel/api/table", { method: "POST", json: { token: fromPhone.token, game: "dragon-tiger" } })
    expect(table.status).toBe(403)
    expect((await debit(fromLaptop.token)).status).toBe(200)
    await expectLedgerVerifies(server)
  })

  it("refuses every game token of the player after a password change", async () => {
    const p = await player()
    const games = [await launch(server, p.phone), await launch(server, p.laptop)]
    const changed = await request(server.url, "/identity/user/change-password", {
      method: "POST",
      token: p.laptop,
      json: { old_password: p.password, password: "Monsoon-Tiffin-42", confirm_password: "Monsoon-Tiffin-42" }
    })
    expect(changed.status).toBe(200)
    for (const game of games) expect((await debit(game.token)).body.meta.message).toBe(GONE)
    const again = await launch(server, changed.body.meta.token)
    expect((await debit(again.token)).status).toBe(200)
  })
})

describe("sockets end with their session", () => {
  it("disconnects the sockets of a session that logs out, and only those", async () => {
    const p = await player()
    const phone = await connect(p.phone)
    const laptop = await connect(p.laptop)
    const phoneGone = disconnected(phone)
    expect((await request(server.url, "/identity/user/logout", { method: "POST", token: p.phone, json: {} })).status).toBe(200)
    expect(await phoneGone).toBe("io server disconnect")
    // The laptop still hears about the player's money.
    const heard = new Promise<string>((resolve) => laptop.on(p.user.id, (payload: { reason: string }) => resolve(payload.reason)))
    await creditMain(server, p.user.id, 100_00, "after the phone logged out")
    expect(await heard).toBe("deposit")
    expect(laptop.connected).toBe(true)
    laptop.close()
  })

  it("disconnects every socket of the player when the password changes", async () => {
    const p = await player()
    const sockets = [await connect(p.phone), await connect(p.laptop)]
    const gone = sockets.map(disconnected)
    const changed = await request(server.url, "/identity/user/change-password", {
      method: "POST",
      token: p.phone,
      json: { old_password: p.password, password: "Monsoon-Tiffin-43", confirm_password: "Monsoon-Tiffin-43" }
    })
    expect(changed.status).toBe(200)
    expect(await Promise.all(gone)).toEqual(["io server disconnect", "io server disconnect"])
    // The new session's socket connects and is the player's.
    const fresh = await connect(changed.body.meta.token)
    expect(fresh.connected).toBe(true)
    fresh.close()
  })

  it("disconnects every socket of the player who self-excludes, as logout does", async () => {
    const p = await player()
    const sockets = [await connect(p.phone), await connect(p.laptop)]
    const gone = sockets.map(disconnected)
    expect((await request(server.url, "/api/v1/protection/self-exclusion", { method: "POST", token: p.laptop, json: { months: 6 } })).status).toBe(200)
    expect(await Promise.all(gone)).toEqual(["io server disconnect", "io server disconnect"])
  })
})
