import { expect, test } from "@playwright/test"
import { readFileSync } from "node:fs"
import { deskSignIn } from "../http.ts"
import { openDesk } from "./desk-support.ts"
import { baseUrl, createPlayer } from "./support.ts"

/**
 * The audit screen in Chromium: a staff action found by its record, its
 * before and after, the CSV export for the DIRECTOR only (the server refuses
 * the ADMIN's, who sees no button).
 */
test("the director finds an adjustment in the audit by its record and exports the matches as CSV; the admin cannot export", async ({ browser, request }) => {
  const player = await createPlayer(request, "Desk Audit Meera")
  const admin = await deskSignIn(baseUrl(), "admin")
  const credited = await request.post(`/api/v1/desk/players/${player.user.id}/adjustments`, {
    headers: { authorization: `Bearer ${admin.token}` },
    data: { direction: "credit", amount: 125, reason: "Audit goodwill" }
  })
  expect(credited.status()).toBe(200)

  const desk = await openDesk(browser, "director", "/admin/audit")
  const search = desk.getByRole("search", { name: "Search the audit" })
  await search.getByRole("textbox", { name: "Record id" }).fill(player.user.id)
  const row = desk.getByRole("table", { name: "Staff actions" }).getByRole("row", { name: /player\.credit/ })
  // Other specs' credits show until the search applies: one row is left once it has.
  await expect(row).toHaveCount(1)
  await expect(row).toContainText("admin (Admin)")
  await expect(row).toContainText("127.0.0.1")
  await row.getByText("before / after").click()
  await expect(row).toContainText('"main":125')

  const download = desk.waitForEvent("download")
  await desk.getByRole("button", { name: "Export CSV" }).click()
  const file = readFileSync(await (await download).path(), "utf8").trim().split("\r\n")
  expect(file[0]).toBe("id,at,actor,actorRole,ip,action,subjectKind,subjectId,before,after")
  expect(file.slice(1).map((line) => line.split(",")[5])).toEqual(['"player.credit"'])
  await desk.context().close()

  const adminDesk = await openDesk(browser, "admin", "/admin/audit")
  await expect(adminDesk.getByRole("table", { name: "Staff actions" })).toBeVisible()
  await expect(adminDesk.getByRole("button", { name: "Export CSV" })).toHaveCount(0)
  expect((await request.get("/api/v1/desk/audit.csv", { headers: { authorization: `Bearer ${admin.token}` } })).status()).toBe(403)
  await adminDesk.context().close()
})
