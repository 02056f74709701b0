import { useSelector } from "@xstate/react"
import type { FlowRef } from "../../machines/flows.ts"

/**
 * The event's fairness under its header: the commitment to its seed, shown
 * before it starts; the seed once it has settled; how to check one against
 * the other (docs/security.md, "Results no one can predict").
 */
export const Fairness = ({ live }: { live: FlowRef<"liveEvent"> | undefined }) => {
  const fairness = useSelector(live, (s) => s?.context.fairness)
  // Until it is in, its summary's place is kept (figure spaces as wide as the commitment's digits), so its coming
  // moves nothing below it.
  if (!fairness) {
    return (
      <details className="mt-2 text-xs text-muted" aria-busy="true">
        <summary className="cursor-wait">Fairness: commitment <code>{"\u2007".repeat(12)}…</code> · seed revealed after settlement</summary>
      </details>
    )
  }
  return (
    <details className="mt-2 text-xs text-muted" data-testid="fairness">
      <summary className="cursor-pointer">
        Fairness: commitment <code>{fairness.commitment.slice(0, 12)}…</code>
        {fairness.seed ? " · seed revealed" : " · seed revealed after settlement"}
      </summary>
      <p className="m-0 mt-1">
        Every draw that decides this event's results (the match ball by ball, a race's winner) comes from a seed fixed
        before it starts. Its SHA-256, the commitment, is <code className="break-all" data-testid="fairness-commitment">{fairness.commitment}</code>.
      </p>
      {fairness.seed ? (
        <p className="m-0 mt-1">Seed: <code className="break-all" data-testid="fairness-seed">{fairness.seed}</code></p>
      ) : null}
      <p className="m-0 mt-1">
        To check a result: once the event has settled, take its seed (here, or from <code>/api/v1/event-fairness?event_id={fairness.eventId}</code>),
        see that its SHA-256 is the commitment, and play the match again from it with the published simulator: it is the one that was settled.
      </p>
    </details>
  )
}
