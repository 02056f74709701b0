import { useSelector } from "@xstate/react"
import { UPDATE_READY } from "../../machines/appUpdate.machine.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { useFlow } from "../flows.ts"
import { Icon } from "../widgets/Icon.tsx"

/**
 * "A new version is ready — Reload": a bar over the bottom of the page that
 * never takes focus or covers the bet slip's stake, so a player finishes what
 * they type and reloads when they choose.
 */
const UpdatePrompt = ({ flow }: { flow: FlowRef<"appUpdate"> }) => {
  const ready = useSelector(flow, (s) => s.hasTag("updateReady") || s.hasTag("busy"))
  const busy = useSelector(flow, (s) => s.hasTag("busy"))
  if (!ready) return null
  return (
    <div role="status" aria-live="polite" data-testid="update-prompt"
      className="toast-in card fixed bottom-20 left-1/2 z-[80] flex w-[min(420px,calc(100vw-24px))] -translate-x-1/2 items-center gap-3 p-3 shadow-xl lg:bottom-4">
      <Icon name="refresh" className="shrink-0 text-brand" />
      <p className="m-0 min-w-0 flex-1 text-sm font-600">{UPDATE_READY.message} —</p>
      <button type="button" className="btn-brand px-3 py-1.5" disabled={busy} onClick={() => flow.send({ type: "update.reload" })}>
        {UPDATE_READY.action}
      </button>
      <button type="button" aria-label="Later" className="rounded p-1 text-muted hover:text-fg" disabled={busy} onClick={() => flow.send({ type: "update.later" })}>
        <Icon name="close" size={14} />
      </button>
    </div>
  )
}

/** The installable app's parts of the page, once the site has started: the worker and its update prompt. */
export const AppShell = () => {
  const update = useFlow("appUpdate", { input: undefined })
  return update ? <UpdatePrompt flow={update} /> : null
}
