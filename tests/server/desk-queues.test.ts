import type { Socket } from "socket.io-client"
import { afterEach, describe, expect, it } from "vitest"
import { connectSocket, drained, expectLedgerVerifies, freshUtr, nextDeskChange, request, signUpPlayer, useServer } from "./helpers.ts"
import { addUpi, createDeposit, pngDataUrl } from "./payments-support.ts"

/**
 * The desk's queues on the real server: paged by a cursor, filtered,
 * claims that name who works a request, the same reference flagged, what a
 * withdrawal weighs, screenshots, and every desk hearing of a new request.
 */
const server = useServer({ signIn: ["director", "admin", "support"], afterEach: expectLedgerVerifies })
let sockets: Array<Socket> = []

afterEach(() => {
  for (const socket of sockets) socket.close()
  sockets = []
})

const get = (path: string, token = server.support) => request(server.url, path, { token })

describe("the deposit queue", () => {
  it("pages pending deposits oldest first by a cursor, with filters, and flags a reference used before by anyone", async () => {
    const ravi = await signUpPlayer(server, { name: "Ravi Queue" })
    const meera = await signUpPlayer(server, { name: "Meera Queue" })
    // A reference is held by one pending or approved deposit: once rejected, another may file it, and the desk says so.
    const reference = freshUtr()
    const first = (await createDeposit(server, ravi.token, 300, { txnRef: reference })).body.data
    expect((await request(server.url, `/api/v1/admin/deposit-requests/${first._id}/reject`, { method: "PUT", token: server.support, json: { remark: "Payment not received" } })).status).toBe(200)
    const second = (await createDeposit(server, meera.token, 450, { txnRef: `${reference.slice(0, 6)} ${reference.slice(6)}` })).body.data
    const third = (await createDeposit(server, ravi.token, 900, { txnRef: freshUtr() })).body.data

    const all = await get("/api/v1/desk/deposits?limit=1")
    expect(all.status).toBe(200)
    expect(all.body.data.total).toBe(2)
    expect(all.body.data.items.map((d: { _id: string }) => d._id)).toEqual([second._id])
    expect(all.body.data.items[0]).toMatchObject({ amount: 450, status: "pending", sameReference: 1, claim: null, player: { id: meera.user.id, name: "Meera Queue" }, paidTo: { type: "upi" } })
    const next = await get(`/api/v1/desk/deposits?limit=1&after=${encodeURIComponent(all.body.data.next)}`)
    expect(next.body.data.items.map((d: { _id: string }) => d._id)).toEqual([third._id])
    expect(next.body.data.items[0].sameReference).toBe(0)
    expect(next.body.data.next).toBeNull()

    expect((await get(`/api/v1/desk/deposits?player=${meera.user.username}`)).body.data.items.map((d: { _id: string }) => d._id)).toEqual([second._id])
    expect((await get("/api/v1/desk/deposits?player=ravi%20q&status=all")).body.data.total).toBe(2)
    expect((await get(`/api/v1/desk/deposits?player=${ravi.mobileNo.slice(-10)}`)).body.data.total).toBe(1)
    expect((await get("/api/v1/desk/deposits?min=400&max=900")).body.data.items.map((d: { _id: string }) => d._id)).toEqual([second._id, third._id])
    expect((await get("/api/v1/desk/deposits?status=rejected")).body.data.items.map((d: { _id: string }) => d._id)).toEqual([first._id])
    expect((await get("/api/v1/desk/deposits?status=approved")).body.data.total).toBe(0)
    expect((await get("/api/v1/desk/deposits?after=nonsense")).status).toBe(400)
    expect((await get("/api/v1/desk/deposits?min=1.005")).status).toBe(400)

    const detail = await get(`/api/v1/desk/deposits/${second._id}`)
    expect(detail.body.data.sameReference.map((d: { _id: string }) => d._id)).toEqual([first._id])
    expect((await get(`/api/v1/desk/deposits/${third._id}`)).body.data.recent.map((d: { _id: string }) => d._id)).toEqual([first._id])
  })

  it("lets one staff member work a request: another's claim and decision are refused naming them, the history shows it", async () => {
    const player = await signUpPlayer(server)
    const deposit = (await createDeposit(server, player.token, 700)).body.data
    const claimed = await request(server.url, `/api/v1/desk/deposits/${deposit._id}/claim`, { method: "POST", token: server.support })
    expect(claimed.status).toBe(200)
    expect(claimed.body.data.claimedBy).toBe("support")
    expect((await get(`/api/v1/desk/deposits/${deposit._id}`, server.admin)).body.data.deposit.claim).toMatchObject({ by: "support", mine: false })
    expect((await get(`/api/v1/desk/deposits/${deposit._id}`)).body.data.deposit.claim).toMatchObject({ by: "support", mine: true })
    const taken = await request(server.url, `/api/v1/desk/deposits/${deposit._id}/claim`, { method: "POST", token: server.admin })
    expect(taken.body.meta).toMatchObject({ code: 409, error: "ClaimedByOther", message: "support is working on this deposit request." })
    const refused = await request(server.url, `/api/v1/admin/deposit-requests/${deposit._id}/approve`, { method: "PUT", token: server.admin, json: {} })
    expect(refused.body.meta.error).toBe("ClaimedByOther")
    // Claiming again keeps the claim (no second line in the history).
    expect((await request(server.url, `/api/v1/desk/deposits/${deposit._id}/claim`, { method: "POST", token: server.support })).status).toBe(200)
    expect((await request(server.url, `/api/v1/admin/deposit-requests/${deposit._id}/reject`, { method: "PUT", token: server.support, json: { remark: "Payment not received" } })).status).toBe(200)
    const detail = await get(`/api/v1/desk/deposits/${deposit._id}`)
    expect(detail.body.data.deposit).toMatchObject({ status: "rejected", decidedBy: "support", remark: "Payment not received" })
    expect(detail.body.data.history.map((e: { actor: string; action: string }) => `${e.actor} ${e.action}`)).toEqual(["support deposit.claim", "support deposit.reject"])
    // Decided: a claim now is refused with who decided.
    const late = await request(server.url, `/api/v1/desk/deposits/${deposit._id}/claim`, { method: "POST", token: server.admin })
    expect(late.body.meta.error).toBe("AlreadyDecided")
    expect(late.body.meta.message).toMatch(/^This deposit request was already rejected by support at /)
  })

  it("lets a claim go", async () => {
    const player = await signUpPlayer(server)
    const deposit = (await createDeposit(server, player.token, 250)).body.data
    await request(server.url, `/api/v1/desk/deposits/${deposit._id}/claim`, { method: "POST", token: server.support })
    expect((await request(server.url, `/api/v1/desk/deposits/${deposit._id}/claim`, { method: "DELETE", token: server.support })).status).toBe(200)
    expect((await get(`/api/v1/desk/deposits/${deposit._id}`)).body.data.deposit.claim).toBeNull()
    expect((await request(server.url, `/api/v1/desk/deposits/${deposit._id}/claim`, { method: "POST", token: server.admin })).status).toBe(200)
  })

  it("shows a deposit's screenshot to staff, and tells every open desk of a new request", async () => {
    const player = await signUpPlayer(server)
    const listening = await connectSocket(server.url, server.support)
    sockets.push(listening)
    const heard = nextDeskChange(listening, "deposits")
    const { dataUrl } = await pngDataUrl()
    const deposit = (await createDeposit(server, player.token, 600, { txnRef: undefined, baseImage: dataUrl })).body.data
    expect(await heard).toMatchObject({ topic: "deposits", id: deposit._id })
    const shot = await get(`/api/v1/desk/screenshots/${deposit.screenshot}`)
    expect(shot.body.data.image).toMatch(/^data:image\/png;base64,/)
    // A player's socket does not hear the desk.
    const playerSocket = await connectSocket(server.url, player.token)
    sockets.push(playerSocket)
    let playerHeard = false
    playerSocket.on("desk", () => (playerHeard = true))
    const again = nextDeskChange(listening, "deposits")
    const second = (await createDeposit(server, player.token, 601)).body.data
    expect(await again).toMatchObject({ id: second._id })
    await drained(server, playerSocket)
    expect(playerHeard).toBe(false)
  })
})

describe("the withdrawal queue", () => {
  it("shows the payout account and what the player deposited and wagered since the last paid withdrawal; paid with the bank's reference", async () => {
    const player = await signUpPlayer(server)
    const deposit = (await createDeposit(server, player.token, 2000)).body.data
    await request(server.url, `/api/v1/admin/deposit-requests/${deposit._id}/approve`, { method: "PUT", token: server.support, json: {} })
    const accountId = await addUpi(server, player.token, "queue.player@okaxis")
    const first = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token: player.token, json: { amount: 500, accountId } })
    const listed = await get(`/api/v1/desk/withdrawals?player=${player.user.username}`)
    expect(listed.body.data.items[0]).toMatchObject({ amount: 500, account: { type: "upi", accountNumber: "queue.player@okaxis" }, payoutReference: null })
    const detail = await get(`/api/v1/desk/withdrawals/${first.body.data._id}`)
    expect(detail.body.data.sinceLast).toEqual({ since: null, deposited: 2000, wagered: 0 })
    const paid = await request(server.url, `/api/v1/admin/withdrawal-requests/${first.body.data._id}/approve`, { method: "PUT", token: server.support, json: { reference: "HDFC-IMPS-778812" } })
    expect(paid.status).toBe(200)
    const second = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token: player.token, json: { amount: 300, accountId } })
    const after = await get(`/api/v1/desk/withdrawals/${second.body.data._id}`)
    expect(after.body.data.sinceLast).toMatchObject({ since: first.body.data.createdAt, deposited: 0, wagered: 0 })
    expect(after.body.data.recent[0]).toMatchObject({ _id: first.body.data._id, status: "approved", payoutReference: "HDFC-IMPS-778812", decidedBy: "support" })
  })
})
