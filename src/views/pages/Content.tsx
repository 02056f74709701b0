import { Link } from "react-router"

interface Section {
  readonly heading: string
  readonly paragraphs: ReadonlyArray<string>
}

interface Document {
  readonly title: string
  readonly updated: string
  readonly intro: string
  readonly sections: ReadonlyArray<Section>
}

const DOCUMENTS: Record<"terms" | "privacy" | "responsible" | "about", Document> = {
  terms: {
    title: "Terms & Conditions",
    updated: "22 November 2026",
    intro:
      "These terms govern your use of Khel and every bet or game you play with us. By opening an account you confirm that you have read and accept them.",
    sections: [
      {
        heading: "1. Who may play",
        paragraphs: [
          "You must be at least 18 years old, or the age of majority where you live if that is higher, and betting must be lawful for you where you are. You are responsible for checking this.",
          "One account per person, phone number and household payment method. We may ask for identity and address documents at any time; until we have them, withdrawals may be held."
        ]
      },
      {
        heading: "2. Your account",
        paragraphs: [
          "Keep your password to yourself. Bets placed with your login are treated as placed by you.",
          "Your account has a main balance wallet and a bonus wallet. Bets are taken from the wallet you select. The balance shown is your balance less the exposure of your open bets."
        ]
      },
      {
        heading: "3. Bets",
        paragraphs: [
          "A bet is accepted only when it appears in My Bets. If the price moves before your bet is taken, it is accepted at your price or better, or refused, according to your odds setting.",
          "Exchange bets are settled on the official result of the market. Bookmaker odds are rates per 100. Fancy bets are settled on the line declared at the end of the session or innings.",
          "If a market is settled wrongly we will correct it, which may credit or debit your account. Markets on abandoned or void events are voided and stakes returned."
        ]
      },
      {
        heading: "4. Deposits and withdrawals",
        paragraphs: [
          "Deposits are made by UPI or bank transfer to the accounts shown on the Deposit page, and are credited once the payment is confirmed. The minimum deposit is ₹100.",
          "Withdrawals are paid to an account in your own name. The amount leaves your available balance when you ask for it and is returned if the withdrawal is rejected."
        ]
      },
      {
        heading: "5. Bonuses",
        paragraphs: [
          "Bonuses are credited to the bonus wallet and carry a wagering requirement. When it is met you may claim the bonus into your main wallet; you may forfeit it at any time. Abuse of bonuses voids them."
        ]
      },
      {
        heading: "6. Closing accounts",
        paragraphs: [
          "You may close your account at any time through support. We may suspend or close accounts used for fraud, collusion, money laundering or in breach of these terms, and will return any balance that is lawfully yours."
        ]
      }
    ]
  },
  privacy: {
    title: "Privacy Policy",
    updated: "22 November 2026",
    intro: "This policy explains what we collect about you, why, and the choices you have.",
    sections: [
      {
        heading: "What we collect",
        paragraphs: [
          "Your name, phone number and password (stored only as a one-way hash); your bets, deposits, withdrawals and the payment accounts you add; deposit screenshots you upload; and technical data such as your IP address for security."
        ]
      },
      {
        heading: "Why we use it",
        paragraphs: [
          "To run your account, settle bets, process payments, prevent fraud, meet our legal duties and, with your consent, tell you about offers. We never sell your data."
        ]
      },
      {
        heading: "Who sees it",
        paragraphs: [
          "Our staff who need it for their work, our SMS and payment providers for the messages and payments you ask for, and authorities where the law requires it. Uploaded screenshots are visible only to you and our payments team."
        ]
      },
      {
        heading: "How long we keep it",
        paragraphs: [
          "For as long as your account is open and afterwards for the period the law requires for financial records."
        ]
      },
      {
        heading: "Your rights",
        paragraphs: [
          "You may ask for a copy of your data, ask us to correct it, or ask us to delete what we are not required to keep. Write to support from the phone number of your account."
        ]
      }
    ]
  },
  responsible: {
    title: "Responsible Gambling",
    updated: "22 November 2026",
    intro:
      "Betting should be entertainment, never a way to make money or solve problems. These tools and signs can help you keep it that way.",
    sections: [
      {
        heading: "Stay in control",
        paragraphs: [
          "Decide before you play how much money and time you will spend, and stop when you reach it. Never chase losses, never bet with money you need for bills, and never bet when upset or after drinking."
        ]
      },
      {
        heading: "Warning signs",
        paragraphs: [
          "Spending more than you planned, borrowing to bet, hiding your betting from family, or feeling restless when you do not bet are signs that betting is becoming a problem."
        ]
      },
      {
        heading: "Tools we offer",
        paragraphs: [
          "Signed in, this page lets you set deposit and loss limits for 24 hours, 7 days and 30 days, choose reality-check reminders, take a break (24 hours, 7 days or 6 weeks) or exclude yourself (6 months to 5 years), and read your activity statement. A new or lower limit is in force at once; a higher one, or removing one, after 24 hours and your confirmation."
        ]
      },
      {
        heading: "Under-18s",
        paragraphs: [
          "Nobody under 18 may open an account. If you share a device with children, use parental controls and keep your password private."
        ]
      },
      {
        heading: "Getting help",
        paragraphs: [
          "Talking helps. Speak to someone you trust, or to a counsellor. Tele-MANAS, India's national mental health helpline, answers 24/7 on 14416 or 1-800-891-4416, free of charge."
        ]
      }
    ]
  },
  about: {
    title: "About Us",
    updated: "22 November 2026",
    intro:
      "Khel is a sports exchange and live casino built for players in India: fast markets, fair prices, and deposits and withdrawals by UPI.",
    sections: [
      {
        heading: "What we offer",
        paragraphs: [
          "Exchange, bookmaker and fancy markets on cricket, football, tennis, kabaddi and more, with in-play betting; horse and greyhound racing; live casino tables from Evolution and Ezugi, slots, and the SA Gaming casino."
        ]
      },
      {
        heading: "How we work",
        paragraphs: [
          "Every rupee in your account is recorded in a double-entry ledger, so your balance, exposure and statements always agree. Bets are checked against live prices and your available balance before they are accepted."
        ]
      },
      {
        heading: "Support",
        paragraphs: ["Our team is available 24 hours a day, 7 days a week by phone and WhatsApp; the numbers are at the foot of every page."]
      }
    ]
  }
}

/** The footer's content pages. */
const Content = ({ page, embedded = false }: { page: keyof typeof DOCUMENTS; embedded?: boolean }) => {
  const doc = DOCUMENTS[page]
  // Inside another page (the player's tools on /responsible-gambling) the document is a section under its heading.
  const Title = embedded ? "h2" : "h1"
  const Heading = embedded ? "h3" : "h2"
  return (
    <article className="card mx-auto max-w-3xl p-5 leading-relaxed">
      <Title className="page-title m-0 text-2xl">{embedded ? "Playing safely" : doc.title}</Title>
      <p className="m-0 mt-1 text-xs text-muted">Last updated {doc.updated}</p>
      <p className="mt-4">{doc.intro}</p>
      {doc.sections.map((section) => (
        <section key={section.heading}>
          <Heading className="m-0 mt-5 text-base font-700">{section.heading}</Heading>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph.slice(0, 32)} className="text-fg/90">{paragraph}</p>
          ))}
        </section>
      ))}
      <p className="mt-6 text-sm text-muted">
        Questions? <Link to="/" className="text-brand hover:underline">Contact support</Link> from the links at the foot of the page.
      </p>
    </article>
  )
}

export default Content
