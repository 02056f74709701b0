import type { ReactNode } from "react"
import { useCan } from "../flows.ts"
import { BannersSection } from "./settings/BannersSection.tsx"
import { BonusRulesSection } from "./settings/BonusRulesSection.tsx"
import { DepositAccountsSection } from "./settings/DepositAccountsSection.tsx"
import { ProtectionSection } from "./settings/ProtectionSection.tsx"
import { SiteSection } from "./settings/SiteSection.tsx"
import { StaffSection } from "./settings/StaffSection.tsx"

const Section = ({ title, children }: { readonly title: string; readonly children: ReactNode }) => (
  <section className="stack" aria-label={title}>
    <h2>{title}</h2>
    {children}
  </section>
)

/** Settings (`settings.manage`): the player site's settings and banners, bonus rules, deposit accounts, protection settings; staff accounts for the DIRECTOR. */
export const SettingsPage = () => {
  const can = useCan()
  return (
    <>
      <h1>Settings</h1>
      <Section title="Site"><SiteSection /></Section>
      <Section title="Banners"><BannersSection /></Section>
      <Section title="Bonus and referral rules"><BonusRulesSection /></Section>
      <Section title="Deposit accounts"><DepositAccountsSection /></Section>
      <Section title="Protection"><ProtectionSection /></Section>
      {can("staff.manage") && <Section title="Staff accounts"><StaffSection /></Section>}
    </>
  )
}
