import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import { formatRupees } from "../../domain/money.ts"
import type { realityCheckMachine } from "../../machines/realityCheck.machine.ts"
import { Dialog } from "../widgets/Dialog.tsx"
import { Alert } from "../widgets/Form.tsx"
import { type ProtectionRef, useProtection } from "./useProtection.ts"

type RealityCheckRef = ActorRefFrom<typeof realityCheckMachine>

/** "1 h 05 min", "15 min". */
export const duration = (seconds: number) => {
  const minutes = Math.floor(seconds / 60)
  const hours = Math.floor(minutes / 60)
  return hours > 0 ? `${hours} h ${String(minutes % 60).padStart(2, "0")} min` : `${minutes} min`
}

const Reminder = ({ check }: { check: RealityCheckRef }) => {
  const open = useSelector(check, (s) => s.hasTag("dialog"))
  const busy = useSelector(check, (s) => s.hasTag("busy"))
  const reading = useSelector(check, (s) => s.context.check)
  const error = useSelector(check, (s) => s.context.error)
  if (!open || !reading) return null
  const net = reading.netResult
  return (
    // Closing it (Escape, the close button) is an answer too: the player has seen it and goes on.
    <Dialog open title="Reality check" onClose={() => check.send({ type: "realityCheck.continue" })} testId="reality-check">
      <div className="flex flex-col gap-3">
        <p className="m-0">You asked us to remind you every {reading.minutes} minutes how you are doing.</p>
        <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted">Time since you signed in</dt>
          <dd className="m-0 font-700" data-testid="reality-check-time">{duration(reading.elapsedSeconds)}</dd>
          <dt className="text-muted">Net result this session</dt>
          <dd className={`m-0 font-700 ${net < 0 ? "text-bad" : net > 0 ? "text-ok" : ""}`} data-testid="reality-check-net">
            {net > 0 ? "+" : ""}{formatRupees(net)}
          </dd>
        </dl>
        <Alert message={error} />
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-brand flex-1" disabled={busy} onClick={() => check.send({ type: "realityCheck.continue" })}>Continue</button>
          <button type="button" className="btn-ghost flex-1" disabled={busy} onClick={() => check.send({ type: "realityCheck.statement" })}>View statement</button>
          <button type="button" className="btn-ghost flex-1" disabled={busy} onClick={() => check.send({ type: "realityCheck.logout" })}>Log out</button>
        </div>
      </div>
    </Dialog>
  )
}

const WithChild = ({ protection }: { protection: ProtectionRef }) => {
  const check = useSelector(protection, (s) => s.children.realityCheck)
  return check ? <Reminder check={check} /> : null
}

/** Held by the layout: the protection flow lives while the player is signed in, and its reality check shows on any page. */
export const RealityCheckHost = () => {
  const protection = useProtection()
  return protection ? <WithChild protection={protection} /> : null
}
