import { useSelector } from "@xstate/react"
import { UPDATE_READY } from "../../machines/appUpdate.machine.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { INSTALL } from "../../machines/install.machine.ts"
import { useFlow } from "../flows.ts"
import { useUser } from "../session.ts"
import { Dialog } from "../widgets/Dialog.tsx"
import { Icon } from "../widgets/Icon.tsx"

/** A bar over the bottom of the page: never takes focus or covers the bet slip's stake. */
const Bar = ({ testId, icon, children }: { testId: string; icon: "refresh" | "install"; children: React.ReactNode }) => (
  <div role="status" aria-live="polite" data-testid={testId}
    className="toast-in card fixed bottom-20 left-1/2 z-[80] flex w-[min(440px,calc(100vw-24px))] -translate-x-1/2 items-center gap-3 p-3 shadow-xl lg:bottom-4">
    <Icon name={icon} className="shrink-0 text-brand" />
    {children}
  </div>
)

/** "A new version is ready — Reload": the player finishes what they type and reloads when they choose. */
const UpdatePrompt = ({ flow }: { flow: FlowRef<"appUpdate"> }) => {
  const ready = useSelector(flow, (s) => s.hasTag("updateReady") || s.hasTag("busy"))
  const busy = useSelector(flow, (s) => s.hasTag("busy"))
  if (!ready) return null
  return (
    <Bar testId="update-prompt" icon="refresh">
      <p className="m-0 min-w-0 flex-1 text-sm font-600">{UPDATE_READY.message} —</p>
      <button type="button" className="btn-brand px-3 py-1.5" disabled={busy} onClick={() => flow.send({ type: "update.reload" })}>
        {UPDATE_READY.action}
      </button>
      <button type="button" aria-label="Later" className="rounded p-1 text-muted hover:text-fg" disabled={busy} onClick={() => flow.send({ type: "update.later" })}>
        <Icon name="close" size={14} />
      </button>
    </Bar>
  )
}

/** After a first bet or deposit: the offer to install (Chromium), or how to (iOS: Share, then Add to Home Screen). */
const InstallOffer = ({ flow }: { flow: FlowRef<"install"> }) => {
  const offering = useSelector(flow, (s) => s.hasTag("offering"))
  const hint = useSelector(flow, (s) => s.hasTag("hint"))
  const dismiss = () => flow.send({ type: "install.dismiss" })
  if (!offering) return null
  if (hint) {
    return (
      <Dialog open title="Install Khel" onClose={dismiss}>
        <p className="m-0 flex items-center gap-2 text-sm" data-testid="ios-install-hint">
          <Icon name="share" className="shrink-0 text-brand" title="Share" /> {INSTALL.iosHint}
        </p>
        <button type="button" className="btn-brand mt-4 w-full" onClick={dismiss}>Got it</button>
      </Dialog>
    )
  }
  return (
    <Bar testId="install-offer" icon="install">
      <p className="m-0 min-w-0 flex-1 text-sm">{INSTALL.offer}</p>
      <button type="button" className="btn-brand px-3 py-1.5" onClick={() => flow.send({ type: "install.accept" })}>{INSTALL.accept}</button>
      <button type="button" className="btn-ghost px-3 py-1.5" onClick={dismiss}>{INSTALL.dismiss}</button>
    </Bar>
  )
}

/**
 * The installable app's parts of the page, once the site has started: the worker and its update prompt, the
 * install offer, and (signed in) the player's notifications, which the profile menu turns on and off.
 */
export const AppShell = () => {
  const user = useUser()
  const update = useFlow("appUpdate", { input: undefined })
  const install = useFlow("install", { input: undefined })
  // A flow per player: another player signing in on this browser starts from their own state.
  useFlow("notifications", { id: "notifications", input: { userId: user?.id ?? "" }, enabled: user !== undefined })
  return (
    <>
      {update ? <UpdatePrompt flow={update} /> : null}
      {install ? <InstallOffer flow={install} /> : null}
    </>
  )
}
