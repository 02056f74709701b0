import { useSelector } from "@xstate/react"
import type { ChangeEvent, FormEvent } from "react"
import type { ActorRefFrom } from "xstate"
import type { AdminDepositAccount } from "../../../../schema/admin.ts"
import type { StaffAccount } from "../../../../schema/desk/staff.ts"
import type { BonusRules, DeskBanner } from "../../../../schema/desk/settings.ts"
import type { ComplianceSettings } from "../../../../schema/protection.ts"
import type { SiteSettings } from "../../../../schema/settings.ts"
import { EVERY_RECORD, type RecordMachine } from "../../../machines/record.machine.ts"
import { useDeskFlow } from "../../flows.ts"

/** The settings flows and their records (each is a record machine, src/desk/machines/flows.ts). */
interface SettingsRecords {
  readonly site: SiteSettings
  readonly bonusRules: BonusRules
  readonly depositAccounts: ReadonlyArray<AdminDepositAccount>
  readonly protection: ComplianceSettings
  readonly staff: ReadonlyArray<StaffAccount>
  readonly banners: ReadonlyArray<DeskBanner>
}

/**
 * A settings section's record flow (src/desk/machines/flows.ts) as the view
 * needs it: the record, the fields, whether it is busy (not loaded, or
 * running a command), the refusal, and the events it sends (a field typed, a command run).
 */
export const useSection = <K extends keyof SettingsRecords>(flow: K) => {
  const ref = useDeskFlow(flow, { id: `settings:${flow}`, input: { id: EVERY_RECORD } }) as ActorRefFrom<RecordMachine<SettingsRecords[K]>> | undefined
  const record = useSelector(ref, (s) => s?.context.record)
  const fields = useSelector(ref, (s) => s?.context.fields) ?? {}
  // Not loaded yet, or running a command (one sent during a reload waits for the record).
  const busy = useSelector(ref, (s) => s === undefined || s.context.record === undefined || s.hasTag("busy"))
  const refusal = useSelector(ref, (s) => s?.context.refusal)
  const set = (field: string, value: string) => ref?.send({ type: "field.change", field, value })
  const change = (field: string) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => set(field, event.target.value)
  const run = (command: string) => ref?.send({ type: "command.run", command })
  const submit = (command: string) => (event: FormEvent) => (event.preventDefault(), run(command))
  return { ref, record, fields, busy, refusal, set, change, run, submit }
}

/** An image file as a data URL (what the settings store and the player site shows). */
export const readImage = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(file)
  })

export const Refusal = ({ refusal }: { readonly refusal: { readonly message: string } | undefined }) =>
  refusal ? <p className="alert alert-bad" role="alert">{refusal.message}</p> : null
