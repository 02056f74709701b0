import { Link } from "react-router"
import { AppActor } from "../app-actor.ts"
import { Icon } from "../widgets/Icon.tsx"

const GAME_PARTNERS = ["Evolution", "Ezugi", "SA Gaming", "Pragmatic Play", "Spribe"]
const SPORTS_PARTNERS = ["Exchange", "Bookmaker", "Fancy", "Live TV"]
const PAYMENTS = ["UPI", "₹ Bank transfer", "Visa", "Mastercard", "RuPay"]

/**
 * The footer's sections (SPEC section 1), then racing: hidden in the sidebar
 * and the chip strip (SPEC section 2), it is reached from here; and the results.
 */
const SECTIONS = [
  ["/sports", "Sports"],
  ["/live-casino", "Live Casino"],
  ["/slots", "Slots"],
  ["/inplay", "In-Play"],
  ["/racing?sport=horse-racing", "Racing"],
  ["/results", "Results"]
] as const

const LINKS = [
  ["/terms-&-conditions", "Terms & Conditions"],
  ["/privacy-policy", "Privacy Policy"],
  ["/responsible-gambling", "Responsible Gambling"],
  // A signed-in player's limits, breaks and statement: one click from every page.
  ["/responsible-gambling#limits", "Limits & breaks"],
  ["/about", "About Us"]
] as const

const Badges = ({ title, items }: { title: string; items: ReadonlyArray<string> }) => (
  <section aria-label={title}>
    <h2 className="m-0 mb-2 text-xs font-700 uppercase tracking-wide text-muted">{title}</h2>
    <ul className="m-0 flex list-none flex-wrap gap-2 p-0">
      {items.map((item) => (
        <li key={item} className="rounded-md border border-line bg-raised px-2.5 py-1 text-xs font-600">{item}</li>
      ))}
    </ul>
  </section>
)

export const Footer = () => {
  const contacts = AppActor.useSelector((s) => s.context.allSettings?.contacts)
  const socials = AppActor.useSelector((s) => s.context.allSettings?.socials ?? [])
  const title = AppActor.useSelector((s) => s.context.settings?.siteTitle ?? "Khel")
  return (
    <footer className="mt-6 border-t border-line bg-surface">
      <div className="mx-auto grid max-w-[1440px] gap-6 px-4 py-6 md:grid-cols-3">
        <section aria-label="Support">
          <h2 className="m-0 mb-2 text-xs font-700 uppercase tracking-wide text-muted">24/7 support</h2>
          {contacts ? (
            <div className="flex flex-col gap-2">
              <a href={`tel:${contacts.helpline.replace(/\s+/g, "")}`} className="flex items-center gap-2 font-700 hover:text-brand">
                <Icon name="phone" /> Helpline {contacts.helpline}
              </a>
              <a href={contacts.whatsapp} target="_blank" rel="noopener noreferrer" className="flex items-center gap-2 hover:text-brand">
                <Icon name="whatsapp" /> Message us on WhatsApp
              </a>
              <a href={`mailto:${contacts.email}`} className="flex items-center gap-2 text-muted hover:text-brand">
                <Icon name="chat" /> {contacts.email}
              </a>
            </div>
          ) : (
            <p className="m-0 text-muted">Contact details are loading.</p>
          )}
          {socials.length > 0 ? (
            <ul className="m-0 mt-3 flex list-none flex-wrap gap-3 p-0 text-sm">
              {socials.map((social) => (
                <li key={social.name}>
                  <a href={social.url} target="_blank" rel="noopener noreferrer" className="text-muted hover:text-brand">{social.name}</a>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
        <div className="flex flex-col gap-4">
          <nav aria-label="Site sections">
            <h2 className="m-0 mb-2 text-xs font-700 uppercase tracking-wide text-muted">Sections</h2>
            <ul className="m-0 flex list-none flex-wrap gap-x-4 gap-y-1 p-0 text-sm font-600">
              {SECTIONS.map(([to, label]) => (
                <li key={to}><Link to={to} className="hover:text-brand">{label}</Link></li>
              ))}
            </ul>
          </nav>
          <Badges title="Game partners" items={GAME_PARTNERS} />
          <Badges title="Sports" items={SPORTS_PARTNERS} />
        </div>
        <div className="flex flex-col gap-4">
          <Badges title="Payments" items={PAYMENTS} />
          <nav aria-label="Legal">
            <ul className="m-0 flex list-none flex-wrap gap-x-4 gap-y-1 p-0 text-sm">
              {LINKS.map(([to, label]) => (
                <li key={to}><Link to={to} className="text-muted hover:text-brand">{label}</Link></li>
              ))}
            </ul>
          </nav>
        </div>
      </div>
      <div className="border-t border-line px-4 py-3 text-center text-xs text-muted">
        <span className="mr-2 inline-flex h-6 w-6 items-center justify-center rounded-full border border-bad font-800 text-bad" aria-label="Adults only">18+</span>
        Play responsibly. Betting can be addictive. © {new Date().getFullYear()} {title}.
      </div>
    </footer>
  )
}
