const TITLES = { live: "Live Casino", slots: "Slots", sa: "SA Gaming" } as const

/** /live-casino, /slots and /sa-casino lobbies. */
const Casino = ({ lobby }: { lobby: keyof typeof TITLES }) => (
  <div className="flex flex-col gap-3">
    <h1 className="page-title m-0">{TITLES[lobby]}</h1>
    <p className="card m-0 p-6 text-center text-muted">No games to show yet.</p>
  </div>
)

export default Casino
