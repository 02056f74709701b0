import { Link } from "react-router"

const TITLES = {
  deposit: "Deposit",
  withdrawal: "Withdrawal",
  bonus: "Bonus",
  referral: "Referral Bonus",
  statements: "Account Statements",
  profitLoss: "Profit and Loss"
} as const

/** The player's own pages: they need a session. */
const Account = ({ section }: { section: keyof typeof TITLES }) => (
  <div className="flex flex-col gap-3">
    <h1 className="page-title m-0">{TITLES[section]}</h1>
    <div className="card flex flex-col items-center gap-3 p-8 text-center">
      <p className="m-0 text-muted">Log in to see your {TITLES[section].toLowerCase()}.</p>
      <Link to="/login" className="btn-brand">Login</Link>
    </div>
  </div>
)

export default Account
