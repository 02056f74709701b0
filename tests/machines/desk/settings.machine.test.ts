import { describe, expect, it } from "vitest"
import { bannersRecord, depositAccountsRecord, protectionRecord, siteRecord, staffRecord } from "../../../src/desk/machines/flows.ts"
import { EVERY_RECORD, type RecordCommand } from "../../../src/desk/machines/record.machine.ts"
import type { Failure } from "../../../src/schema/errors.ts"
import { callToasts, entered, expectFullCoverage, invokedWith, recordFlows, replayPaths, type Step } from "../harness.ts"

/**
 * The settings screen's flows (src/desk/machines/flows.ts), walked with their
 * real rules: a command is sent exactly when its rule passes, with the fields
 * typed and the attempt's key; the desk's news reads the section again.
 */
const unreachable: Failure = { code: 0, message: "We could not reach the server. Check your connection and try again.", reason: "Unreachable" }
const refused: Failure = { code: 400, message: "Refused.", reason: "InvalidInput" }

const PNG = "data:image/png;base64,iVBORw0KGgo="
const site = { siteTitle: "Khel", color: "#f5b301", logoImg: PNG, faviconImg: PNG }
const protection = { blockedRegions: ["TS" as const], regionHeader: null, depositsOpen: true, defaultLimits: [] }
const account = { _id: "a1", type: "upi" as const, accountNumber: "khel@okaxis", accountHolderName: "Khel", bankName: null, ifscCode: null, accountType: null, image: PNG, active: true }
const director = { id: "s1", username: "director", name: "Director", mobileNo: "9800000001", role: 1 as const, status: "active" as const, secondFactor: true, createdAt: "2026-01-01T00:00:00.000Z", lastSignInAt: null }

const walk = (
  name: string,
  machine: Parameters<typeof replayPaths>[0],
  record: unknown,
  fields: ReadonlyArray<readonly [string, string]>,
  commands: ReadonlyArray<string>,
  sent: Set<string>
) => {
  const check = (step: Step) => {
    const run = invokedWith(step, "run")
    if (entered(step, "Ready.Running")) {
      const command = run?.input as RecordCommand
      expect(command).toMatchObject({ id: EVERY_RECORD, fields: step.after.context.fields })
      sent.add(`${command.command} ${JSON.stringify(command.fields)}`)
    } else expect(run).toBeUndefined()
    // A failed call says why in a toast, once; a command's answer shows the server's message.
    expect(step.actions).toEqual(callToasts(step, ["load", "run"], ["run"]))
  }
  const coverage = replayPaths(machine, {
    input: { id: EVERY_RECORD },
    outputs: { load: [record], run: [{ data: { ok: true }, message: "Saved" }] },
    actions: { toastSuccess: () => {}, toastFailure: () => {} },
    errors: { load: [refused], run: [unreachable, refused] },
    events: {
      "field.change": fields.map(([field, value]) => ({ type: "field.change", field, value })),
      "command.run": commands.map((command) => ({ type: "command.run", command })),
      "live.changed": [{ type: "live.changed", id: "site" }]
    },
    serialize: (s) => JSON.stringify([s.value, s.context.fields, s.context.pending?.command, s.context.record !== undefined]),
    check
  })
  expectFullCoverage(coverage)
  recordFlows(`desk settings: ${name}`, `The settings screen's ${name}: loaded, read again on the desk's news, commands checked by their rules before they are sent.`, coverage)
}

describe("the settings screen's flows (model-based)", () => {
  it("site settings: a save is sent only with a valid title and colour", () => {
    const sent = new Set<string>()
    walk("site settings", siteRecord, site, [["siteTitle", "Khel Prime"], ["color", "teal"]], ["save"], sent)
    expect([...sent].sort()).toEqual(['save {"siteTitle":"Khel Prime"}', "save {}"])
  })

  it("deposit accounts: an account is added only when its fields are whole; one on the list is turned off", () => {
    const sent = new Set<string>()
    walk("deposit accounts", depositAccountsRecord, [account], [["accountNumber", "desk@okaxis"], ["accountHolderName", "Khel Gaming"], ["account", "a1"]], ["add", "off"], sent)
    expect([...sent].some((line) => line.startsWith("add ") && line.includes("desk@okaxis") && line.includes("Khel Gaming"))).toBe(true)
    expect([...sent].some((line) => line.startsWith("off ") && line.includes('"account":"a1"'))).toBe(true)
    expect([...sent].some((line) => line.startsWith("add ") && !line.includes("Khel Gaming"))).toBe(false)
  })

  it("protection: a state is blocked only once and only a blocked one unblocked; a default limit needs its kind and period", () => {
    const sent = new Set<string>()
    walk("protection settings", protectionRecord, protection, [["region", "KA"], ["kind", "deposit"], ["period", "day"]], ["block", "unblock", "limit"], sent)
    const lines = [...sent]
    expect(lines.some((line) => line.startsWith("block ") && line.includes('"region":"KA"'))).toBe(true)
    expect(lines.some((line) => line.startsWith("unblock "))).toBe(false)
    expect(lines.every((line) => !line.startsWith("limit ") || (line.includes('"kind":"deposit"') && line.includes('"period":"day"')))).toBe(true)
  })

  it("staff accounts: a role change names an account and a staff role", () => {
    const sent = new Set<string>()
    walk("staff accounts", staffRecord, [director], [["staff", "s1"], ["role", "101"]], ["role", "suspend"], sent)
    const lines = [...sent]
    expect(lines.every((line) => line.includes('"staff":"s1"'))).toBe(true)
    expect(lines.every((line) => !line.startsWith("role ") || line.includes('"role":"101"'))).toBe(true)
  })

  it("banners: an upload needs a title and an image; a move or a removal names a banner on the list", () => {
    const sent = new Set<string>()
    const banner = { id: "b1", order: 1, title: "Welcome", image: PNG, marketing: true }
    walk("banners", bannersRecord, [banner], [["title", "Diwali"], ["image", PNG], ["banner", "b1"]], ["add", "up", "remove"], sent)
    const lines = [...sent]
    expect(lines.every((line) => !line.startsWith("add ") || (line.includes('"title":"Diwali"') && line.includes('"image"')))).toBe(true)
    expect(lines.every((line) => line.startsWith("add ") || line.includes('"banner":"b1"'))).toBe(true)
    expect(lines.some((line) => line.startsWith("remove "))).toBe(true)
  })
})
