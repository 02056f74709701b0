import { AppActor } from "../app-actor.ts"

/** The right sidebar on /event and /racing: live score / TV and My Bets for the event. */
const RightSidebar = () => {
  const ready = AppActor.useSelector((s) => s.matches("Ready"))
  return (
    <div className="sticky top-[4.5rem] flex flex-col gap-3">
      <section className="card p-3" aria-label="Live score and TV">
        <h2 className="m-0 mb-2 text-sm font-700">Live</h2>
        <p className="m-0 text-sm text-muted">{ready ? "Live score and TV appear here for events in play." : "Loading…"}</p>
      </section>
      <section className="card p-3" aria-label="My bets">
        <h2 className="m-0 mb-2 text-sm font-700">My Bets</h2>
        <p className="m-0 text-sm text-muted">No Data Available</p>
      </section>
    </div>
  )
}

export default RightSidebar
