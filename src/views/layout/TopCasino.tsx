import { Link } from "react-router"

/** The Top Casino panel on the home page. */
const TopCasino = () => (
  <section className="card sticky top-[4.5rem] p-3" aria-labelledby="top-casino-title">
    <div className="mb-2 flex items-center justify-between">
      <h2 id="top-casino-title" className="m-0 text-sm font-700">Top Casino</h2>
      <Link to="/live-casino" className="text-xs text-brand hover:underline">View all</Link>
    </div>
    <div className="flex aspect-[320/200] items-center justify-center rounded-md bg-raised text-sm text-muted">
      No games to show yet.
    </div>
  </section>
)

export default TopCasino
