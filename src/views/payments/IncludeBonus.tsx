import { useSelector } from "@xstate/react"
import type { FlowRef } from "../../machines/flows.ts"

/** The statement's `isChecked`: the bonus wallets count with the main balance (not for credit players, who have none). */
export const IncludeBonus = ({ flow, label }: { flow: FlowRef<"statement">; label: string }) => {
  const checked = useSelector(flow, (s) => s.context.includeBonus)
  return (
    <label className="flex items-center gap-2 pb-2 text-xs text-muted">
      <input type="checkbox" checked={checked} onChange={(e) => flow.send({ type: "field.change", field: "includeBonus", value: e.target.checked })} /> {label}
    </label>
  )
}
