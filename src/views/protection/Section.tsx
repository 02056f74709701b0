import { useSelector } from "@xstate/react"
import { indiaDateTime } from "../../domain/protection.ts"
import type { ProtectionSection } from "../../machines/protection.machine.ts"
import { Alert } from "../widgets/Form.tsx"
import type { ProtectionRef } from "./useProtection.ts"

/** A time as the protection page shows it (India time). */
export const at = (iso: string) => indiaDateTime(new Date(iso))

/** Why the machine refused the last change in this section, if it did. */
export const Refusal = ({ protection, section }: { protection: ProtectionRef; section: ProtectionSection }) => {
  const message = useSelector(protection, (s) => (s.context.refusal?.section === section ? s.context.refusal.message : undefined))
  return <Alert message={message} />
}

/** One card of the page, titled, with an id the footer's and the reality check's links land on. */
export const Section = ({ id, title, children }: { id: string; title: string; children: React.ReactNode }) => (
  <section id={id} aria-labelledby={`${id}-title`} className="card flex scroll-mt-20 flex-col gap-3 p-4">
    <h2 id={`${id}-title`} className="m-0 text-lg font-700">{title}</h2>
    {children}
  </section>
)
