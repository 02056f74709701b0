import { useSelector } from "@xstate/react"
import { REALITY_CHECK_MINUTES } from "../../domain/protection.ts"
import { Refusal, Section } from "./Section.tsx"
import type { ProtectionRef } from "./useProtection.ts"

export const RealityChecks = ({ protection }: { protection: ProtectionRef }) => {
  const minutes = useSelector(protection, (s) => s.context.protection?.realityCheck.minutes ?? 0)
  const busy = useSelector(protection, (s) => s.hasTag("busy"))
  return (
    <Section id="reality-check" title="Reality checks">
      <p className="m-0 text-sm text-muted">A reminder at the interval you choose: how long you have been playing and how you stand this session.</p>
      <Refusal protection={protection} section="realityCheck" />
      <fieldset className="m-0 flex flex-wrap gap-3 border-0 p-0">
        <legend className="mb-1 text-sm font-600">Remind me</legend>
        {REALITY_CHECK_MINUTES.map((choice) => (
          <label key={choice} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="reality-check"
              checked={minutes === choice}
              disabled={busy}
              onChange={() => protection.send({ type: "realityCheck.set", minutes: choice })}
              className="h-4 w-4 accent-[rgb(var(--brand))]"
            />
            {choice === 0 ? "Off" : `Every ${choice} minutes`}
          </label>
        ))}
      </fieldset>
    </Section>
  )
}
