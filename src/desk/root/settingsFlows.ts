import { Effect } from "effect"
import { protectionUpdate } from "../../domain/deskSettings.ts"
import { bonusRulesFromFields } from "../../domain/bonusRules.ts"
import { AdminApi, type AdminDepositAccount, type DepositAccountPayload } from "../../schema/admin.ts"
import { DeskBannersApi, DeskSettingsApi } from "../../schema/desk/settings.ts"
import { moved } from "../../domain/siteSettings.ts"
import { DeskStaffApi, type UpdateStaffPayload } from "../../schema/desk/staff.ts"
import { ProtectionAdminApi } from "../../schema/protection.ts"
import type { StaffRole } from "../../schema/desk/common.ts"
import { bannersRecord, bonusRulesRecord, depositAccountsRecord, protectionRecord, siteRecord, staffRecord } from "../machines/flows.ts"
import type { Fields, RecordCommand } from "../machines/record.machine.ts"
import { DeskApi, type DeskFailure } from "../services/api.ts"
import { type Answer, data, task, written } from "./runtime.ts"
import type { Written } from "../../machines/writes.ts"

/** The settings screen with its world: site settings, bonus rules, deposit accounts, protection settings and staff accounts. */
const admin = AdminApi.endpoints
const staffCalls = DeskStaffApi.endpoints
const siteCalls = DeskSettingsApi.endpoints
const protectionCalls = ProtectionAdminApi.endpoints

export const site = siteRecord.provide({
  actors: {
    load: task(() => data(DeskApi.use((api) => api.call(siteCalls.site, {})))),
    // The fields typed over what the server had: the save sends the whole settings, once under its key.
    run: task<Written, RecordCommand>(({ fields, key }) =>
      written(DeskApi.use((api) =>
        Effect.gen(function*() {
          const current = (yield* api.call(siteCalls.site, {})).data
          const value = (name: keyof typeof current) => fields[name] ?? current[name]
          return yield* api.call(siteCalls.saveSite, { payload: { siteTitle: value("siteTitle"), color: value("color"), logoImg: value("logoImg"), faviconImg: value("faviconImg") } }, { idempotencyKey: key })
        })
      ))
    )
  }
})

export const bonusRules = bonusRulesRecord.provide({
  actors: {
    load: task(() => data(DeskApi.use((api) => api.call(siteCalls.bonusRules, {})))),
    // The fields typed over the rules the server has: the save sends them whole, once under its key.
    run: task<Written, RecordCommand>(({ fields, key }) =>
      written(DeskApi.use((api) =>
        Effect.gen(function*() {
          const current = (yield* api.call(siteCalls.bonusRules, {})).data
          return yield* api.call(siteCalls.saveBonusRules, { payload: bonusRulesFromFields(fields, current) }, { idempotencyKey: key })
        })
      ))
    )
  }
})

/** An account as the server takes it back: every field as it is, only `active` changed. */
const withActive = ({ _id, active: _, ...account }: AdminDepositAccount, active: boolean): DepositAccountPayload => ({
  type: account.type,
  accountNumber: account.accountNumber,
  accountHolderName: account.accountHolderName,
  ...(account.type === "bank" ? { bankName: account.bankName ?? "", ifscCode: account.ifscCode ?? "", accountType: account.accountType ?? "current" } : {}),
  ...(account.image ? { image: account.image } : {}),
  active
})

const newAccount = (fields: Fields): DepositAccountPayload =>
  fields.type === "bank"
    ? { type: "bank", accountNumber: (fields.accountNumber ?? "").trim(), accountHolderName: (fields.accountHolderName ?? "").trim(), bankName: (fields.bankName ?? "").trim(), ifscCode: (fields.ifscCode ?? "").trim().toUpperCase(), accountType: fields.accountType === "savings" ? "savings" : "current" }
    : { type: "upi", accountNumber: (fields.accountNumber ?? "").trim(), accountHolderName: (fields.accountHolderName ?? "").trim(), ...(fields.image ? { image: fields.image } : {}) }

export const depositAccounts = depositAccountsRecord.provide({
  actors: {
    load: task(() => data(DeskApi.use((api) => api.call(admin.depositAccounts, {})))),
    run: task<Written, RecordCommand>(({ command, fields }) =>
      written(DeskApi.use((api) =>
        Effect.gen(function*(): Effect.fn.Return<Answer, DeskFailure> {
          if (command === "add") return yield* api.call(admin.addDepositAccount, { payload: newAccount(fields) })
          const accounts = (yield* api.call(admin.depositAccounts, {})).data
          const account = accounts.find((candidate) => candidate._id === fields.account)!
          return yield* api.call(admin.updateDepositAccount, { params: { id: account._id }, payload: withActive(account, command === "on") })
        })
      ))
    )
  }
})

export const protection = protectionRecord.provide({
  actors: {
    load: task(() => data(DeskApi.use((api) => api.call(protectionCalls.settings, {})))),
    // Read again first: the change applies to what the server has now, as the command line's does.
    run: task<Written, RecordCommand>(({ command, fields }) =>
      written(DeskApi.use((api) =>
        Effect.gen(function*() {
          const current = (yield* api.call(protectionCalls.settings, {})).data
          return yield* api.call(protectionCalls.updateSettings, { payload: protectionUpdate(command, fields, current) })
        })
      ))
    )
  }
})

export const staff = staffRecord.provide({
  actors: {
    load: task(() => data(DeskApi.use((api) => api.call(staffCalls.list, {})))),
    run: task<Written, RecordCommand>(({ command, fields }) =>
      written(DeskApi.use((api) =>
        Effect.gen(function*(): Effect.fn.Return<Answer, DeskFailure> {
          const role = Number(fields.role) as StaffRole
          if (command === "create") {
            return yield* api.call(staffCalls.create, { payload: { name: fields.name ?? "", username: fields.username ?? "", mobileNo: fields.mobileNo ?? "", role, password: fields.password ?? "" } })
          }
          const params = { id: fields.staff ?? "" }
          const payload: UpdateStaffPayload = command === "role" ? { role } : command === "resetSecondFactor" ? { resetSecondFactor: true } : { status: command === "suspend" ? "suspended" as const : "active" as const }
          return yield* api.call(staffCalls.update, { params, payload })
        })
      ))
    )
  }
})

const bannerCalls = DeskBannersApi.endpoints

export const banners = bannersRecord.provide({
  actors: {
    load: task(() => data(DeskApi.use((api) => api.call(bannerCalls.list, {})))),
    run: task<Written, RecordCommand>(({ command, fields, key }) =>
      written(DeskApi.use((api) =>
        Effect.gen(function*(): Effect.fn.Return<Answer, DeskFailure> {
          const banner = fields.banner ?? ""
          if (command === "add") {
            return yield* api.call(bannerCalls.add, { payload: { title: (fields.title ?? "").trim(), image: fields.image ?? "", marketing: fields.marketing !== "no" } }, { idempotencyKey: key })
          }
          if (command === "remove") return yield* api.call(bannerCalls.remove, { params: { id: banner } }, { idempotencyKey: key })
          // Moved in the order the server has now: an order that no longer names every banner is refused.
          const ids = (yield* api.call(bannerCalls.list, {})).data.map((item) => item.id)
          return yield* api.call(bannerCalls.order, { payload: { ids: moved(ids, banner, command === "up" ? -1 : 1) } })
        })
      ))
    )
  }
})
